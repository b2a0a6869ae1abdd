//! Games with misbehaving players, and tournaments that are deterministic and resumable.

use std::fs;

use fow_arena::{play_game, play_game_seeded, GameOptions, Run};
use fow_players::bots::RandomMove;
use fow_players::{Budget, GameStart, Player, PlayerError, PlayerErrorKind};
use fow_records::{check_row, GameResult, GameRow, Reason, TournamentConfig};
use fow_variants::{Color, Move, Observation, Position, RuleSet};

/// A player that misbehaves on its third move in a chosen way.
struct Faulty {
    inner: RandomMove,
    moves: u32,
    fault: &'static str,
    error: Option<PlayerError>,
}

impl Player for Faulty {
    fn start(&mut self, game: &GameStart) {
        self.inner.start(game);
    }
    fn choose(&mut self, obs: &Observation, b: &Budget) -> Move {
        self.moves += 1;
        if self.moves == 3 {
            match self.fault {
                "panic" => panic!("bot bug"),
                "illegal" => {
                    let mut m = obs.legal_moves()[0];
                    m.to = m.from; // never legal
                    return m;
                }
                "null" => return Move::NULL,
                "timeout" | "panic in take_error" => {
                    self.error = Some(PlayerError {
                        kind: PlayerErrorKind::Timeout,
                        message: "no answer".into(),
                    });
                    return Move::NULL;
                }
                _ => {}
            }
        }
        self.inner.choose(obs, b)
    }
    fn take_error(&mut self) -> Option<PlayerError> {
        if self.fault == "panic in take_error" {
            panic!("take_error bug");
        }
        self.error.take()
    }
}

#[test]
fn a_misbehaving_player_loses_with_the_reason_recorded() {
    for (fault, reason, detail) in [
        ("panic", Reason::Panic, "bot bug"),
        ("illegal", Reason::IllegalMove, ""),
        ("null", Reason::IllegalMove, "0000"),
        ("timeout", Reason::Timeout, "no answer"),
        ("panic in take_error", Reason::Panic, "take_error bug"),
    ] {
        for faulty_white in [true, false] {
            let mut bad = Faulty {
                inner: RandomMove::new(),
                moves: 0,
                fault,
                error: None,
            };
            let mut good = RandomMove::new();
            let opts = GameOptions::new(RuleSet::thesis());
            let rec = if faulty_white {
                play_game(&mut bad, &mut good, "bad", "good", 1, &opts)
            } else {
                play_game(&mut good, &mut bad, "good", "bad", 1, &opts)
            };
            assert_eq!(rec.reason, reason, "{fault}");
            let expected = if faulty_white {
                GameResult::BlackWins
            } else {
                GameResult::WhiteWins
            };
            assert_eq!(rec.result, expected, "{fault}");
            // Two good moves by the faulty side, and the other side's moves between.
            assert_eq!(rec.plies(), if faulty_white { 4 } else { 5 });
            assert!(!rec.detail.is_empty());
            if !detail.is_empty() {
                assert_eq!(rec.detail, detail, "{fault}");
            }
            // The check of saved games agrees with how the arena ended it.
            check_row(&GameRow::new(0, 0, &rec), &RuleSet::thesis()).unwrap();
        }
    }
}

/// A RandomMove that keeps what it is told at the start of each game.
struct Told {
    inner: RandomMove,
    told: Vec<GameStart>,
}

impl Player for Told {
    fn start(&mut self, game: &GameStart) {
        self.told.push(game.clone());
        self.inner.start(game);
    }
    fn choose(&mut self, obs: &Observation, b: &Budget) -> Move {
        self.inner.choose(obs, b)
    }
}

#[test]
fn both_players_are_told_the_start_position() {
    let rules = RuleSet::chesscom();
    let book: Position = "r3k2r/ppp2ppp/2n5/3pp3/8/2N2N2/PPPP1PPP/R1B1K2R b KQkq - 0 7"
        .parse()
        .unwrap();
    for start in [None, Some(book.clone())] {
        let opts = GameOptions {
            start: start.clone(),
            ..GameOptions::new(rules)
        };
        let fresh = || Told {
            inner: RandomMove::new(),
            told: Vec::new(),
        };
        let (mut w, mut b) = (fresh(), fresh());
        let rec = play_game_seeded(&mut w, &mut b, "w", "b", 5, [11, 22], &opts);
        assert!(!rec.reason.is_fault(), "{rec:?}");
        let position = start.clone().unwrap_or_else(Position::startpos);
        assert_eq!(
            w.told,
            [GameStart::new(Color::White, rules, 11).with_position(position.clone())]
        );
        assert_eq!(
            b.told,
            [GameStart::new(Color::Black, rules, 22).with_position(position.clone())]
        );
        // The game is played from it: its side to move moves first.
        let first = rec.moves[0];
        assert!(position.legal_moves(&rules).contains(&first), "{first}");
    }
}

#[test]
fn games_end_by_the_rules() {
    let opts = GameOptions::new(RuleSet::thesis());
    let mut reasons = std::collections::HashSet::new();
    for seed in 0..200 {
        let (mut w, mut b) = (RandomMove::new(), RandomMove::new());
        let rec = play_game(&mut w, &mut b, "w", "b", seed, &opts);
        assert!(!rec.reason.is_fault());
        if rec.reason == Reason::KingCaptured {
            assert!(rec.moves.last().unwrap().captures_king());
            assert_ne!(rec.result, GameResult::Draw);
        }
        reasons.insert(rec.reason);
        check_row(&GameRow::new(0, 0, &rec), &RuleSet::thesis()).unwrap();
        // Same seed, same game.
        let (mut w, mut b) = (RandomMove::new(), RandomMove::new());
        assert_eq!(
            play_game(&mut w, &mut b, "w", "b", seed, &opts).moves,
            rec.moves
        );
    }
    assert!(reasons.contains(&Reason::KingCaptured));
}

fn config(games: u32) -> TournamentConfig {
    TournamentConfig::new(
        ["RandomMove", "CaptureKing", "CaptureLargest", "Supporter"]
            .map(String::from)
            .to_vec(),
        games,
        RuleSet::thesis(),
        Some(99),
        None,
    )
    .unwrap()
}

#[test]
fn tournament_results_do_not_depend_on_threads_and_resume_exactly() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |name: &str, jobs: usize| {
        let dir = tmp.path().join(name);
        let t = Run::begin(config(3), Some(&dir), "").unwrap();
        let rep = t.play(jobs, None, &|_, _, _| {}, None).unwrap();
        assert_eq!(rep.games.len(), 4 * 3 * 3);
        assert!(rep.games.iter().enumerate().all(|(i, g)| g.id == i as u64));
        fs::read(dir.join("games.csv")).unwrap()
    };
    let one = run("one", 1);
    let two = run("two", 2);
    assert_eq!(one, two, "games.csv must not depend on --jobs");

    // Kill simulation: keep the header and 10 games, plus half a line.
    let dir = tmp.path().join("killed");
    fs::create_dir_all(&dir).unwrap();
    Run::begin(config(3), Some(&dir), "").unwrap();
    let text = String::from_utf8(one.clone()).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.truncate(11);
    let partial = &text.lines().nth(11).unwrap()[..20];
    // Rows out of order, as parallel workers write them.
    lines.swap(3, 7);
    fs::write(dir.join("games.csv"), lines.join("\n") + "\n" + partial).unwrap();
    let played = std::sync::atomic::AtomicUsize::new(0);
    let rep = Run::open(&dir)
        .unwrap()
        .play(
            2,
            None,
            &|_, _, _| {
                played.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            },
            None,
        )
        .unwrap();
    assert_eq!(rep.played_now, 36 - 10);
    assert_eq!(played.into_inner(), 26);
    assert_eq!(fs::read(dir.join("games.csv")).unwrap(), one);
    let times = fs::read_to_string(dir.join("times.csv")).unwrap();
    assert_eq!(
        times.lines().count(),
        1 + 26,
        "times only for games played by a run"
    );

    // A finished folder is not overwritten by a new run.
    assert!(Run::begin(config(3), Some(&dir), "").is_err());
}

#[test]
fn bad_configs_are_rejected() {
    let mut c = config(1);
    c.players = vec!["RandomMove".into(), "Nobody".into()];
    let e = c.validated().unwrap_err().to_string();
    assert!(e.starts_with("unknown bot 'Nobody'"), "{e}");
    // A lone unknown name is reported as unknown, not as too few players.
    let mut c = config(1);
    c.players = vec!["Nobody".into()];
    let e = c.validated().unwrap_err().to_string();
    assert!(e.starts_with("unknown bot 'Nobody'"), "{e}");
    let mut c = config(1);
    c.players = vec!["RandomMove".into()];
    let e = c.validated().unwrap_err().to_string();
    assert!(e.contains("at least two players"), "{e}");
    let mut c = config(1);
    c.players = vec!["RandomMove".into(), "RandomMove".into()];
    assert!(c.validated().is_err());
    let mut c = config(0);
    c.games_per_pair = 0;
    assert!(c.validated().is_err());
}

#[test]
fn a_tampered_games_file_is_reported_with_its_line() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("t");
    let t = Run::begin(config(1), Some(&dir), "").unwrap();
    t.play(1, None, &|_, _, _| {}, None).unwrap();
    drop(t);
    let path = dir.join("games.csv");
    let text = fs::read_to_string(&path).unwrap();
    let broken = text.replacen("1-0", "2-0", 1).replacen("0-1", "2-0", 1);
    fs::write(&path, broken).unwrap();
    let e = Run::open(&dir)
        .unwrap()
        .play(1, None, &|_, _, _| {}, None)
        .unwrap_err();
    let msg = e.to_string();
    assert!(
        msg.contains("games.csv:") && msg.contains("bad result '2-0'"),
        "{msg}"
    );
}

/// A bot that sleeps on its first move.
struct Slow {
    inner: RandomMove,
    moves: u32,
}

impl Player for Slow {
    fn start(&mut self, game: &GameStart) {
        self.inner.start(game);
    }
    fn choose(&mut self, obs: &Observation, b: &Budget) -> Move {
        self.moves += 1;
        if self.moves == 1 {
            std::thread::sleep(std::time::Duration::from_millis(500));
        }
        self.inner.choose(obs, b)
    }
}

#[test]
fn a_move_over_the_time_limit_loses_and_is_not_played() {
    let mut opts = GameOptions::new(RuleSet::thesis());
    opts.move_time_limit = Some(std::time::Duration::from_millis(250));
    let mut slow = Slow {
        inner: RandomMove::new(),
        moves: 0,
    };
    let mut fast = RandomMove::new();
    let rec = play_game(&mut slow, &mut fast, "slow", "fast", 3, &opts);
    assert_eq!(rec.reason, Reason::Timeout);
    assert_eq!(rec.result, GameResult::BlackWins);
    // The slow move is the game's first timed move, so no other move can overrun the
    // limit on a busy machine: the result does not depend on the machine's load.
    assert_eq!(rec.plies(), 0, "the slow move is not in the record");
    check_row(&GameRow::new(0, 0, &rec), &RuleSet::thesis()).unwrap();
    assert!(rec.time[0] >= std::time::Duration::from_millis(500));
}
