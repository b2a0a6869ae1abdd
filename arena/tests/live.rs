//! A run's live feed (`--live`): each game's moves are in `live/<id>.txt` before the
//! next player is asked for its move, the files are gone when the run ends (and those of
//! a killed run when it resumes), the games are the same as without the feed, and a
//! program player that could read the files is refused.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};

use fow_arena::{play_game_watched, GameOptions, MoveSink, Run, RunPlan};
use fow_players::bots::RandomMove;
use fow_players::{register, BotInfo, Budget, GameStart, Player, PlayerSpec, SpecError};
use fow_records::{live_file, live_games, FolderKind, LiveFile, LiveHeader, GAMES_FILE, LIVE_DIR};
use fow_variants::{Color, Move, Observation, Position, RuleSet};

/// What each [`Watcher`] found at each of its moves: its run's folder, and `Ok(plies
/// seen)` or what was wrong.
static SEEN: Mutex<Vec<(PathBuf, Result<usize, String>)>> = Mutex::new(Vec::new());

/// RandomMove that, before each of its moves, reads its run's live feed (the folder the
/// arena hides from it, which a built-in bot would never read) and checks that it holds
/// its game, and only it, with every move played so far. It checks inside the game, so
/// no clock or sleep is involved: the arena writes each move before asking for the next.
struct Watcher {
    inner: RandomMove,
    dir: Option<PathBuf>,
    color: Color,
    own: Vec<Move>,
}

impl Watcher {
    fn check(&self, dir: &Path) -> Result<usize, String> {
        let games = live_games(dir).map_err(|e| e.to_string())?;
        let [game] = games.as_slice() else {
            return Err(format!("{} live games, not 1", games.len()));
        };
        let before = 2 * self.own.len() + usize::from(self.color == Color::Black);
        if game.moves.len() != before {
            return Err(format!("{} moves shown, {before} played", game.moves.len()));
        }
        let mine: Vec<Move> = game.moves[usize::from(self.color == Color::Black)..]
            .iter()
            .step_by(2)
            .copied()
            .collect();
        if mine != self.own {
            return Err(format!("moves shown {:?}, mine {:?}", mine, self.own));
        }
        Ok(before)
    }
}

impl Player for Watcher {
    fn hide(&mut self, dir: &Path) {
        self.dir = Some(dir.to_path_buf());
    }
    fn start(&mut self, game: &GameStart) {
        self.color = game.color;
        self.own.clear();
        self.inner.start(game);
    }
    fn choose(&mut self, obs: &Observation, b: &Budget) -> Move {
        if let Some(dir) = &self.dir {
            let seen = self.check(dir);
            seen_lock().push((dir.clone(), seen));
        }
        let m = self.inner.choose(obs, b);
        self.own.push(m);
        m
    }
}

fn build(_: &PlayerSpec) -> Result<Box<dyn Player>, SpecError> {
    Ok(Box::new(Watcher {
        inner: RandomMove::new(),
        dir: None,
        color: Color::White,
        own: Vec::new(),
    }))
}

fn register_watcher() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        register(BotInfo::new("Watcher", "checks the live feed", &[], build)).unwrap();
    });
}

/// What the watchers of the run in `dir` found: the plies they checked, or the first
/// thing that was wrong.
fn seen_in(dir: &Path) -> Vec<usize> {
    let seen: Vec<Result<usize, String>> = seen_lock()
        .iter()
        .filter(|(d, _)| d == dir)
        .map(|(_, seen)| seen.clone())
        .collect();
    seen.into_iter()
        .map(|s| s.unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

/// [`SEEN`], whatever another test did while holding it.
fn seen_lock() -> std::sync::MutexGuard<'static, Vec<(PathBuf, Result<usize, String>)>> {
    SEEN.lock().unwrap_or_else(|e| e.into_inner())
}

fn plan(players: &[&str], live: bool) -> RunPlan {
    let players = players.iter().map(|p| p.to_string()).collect();
    RunPlan {
        seed: Some(11),
        live,
        ..RunPlan::new(FolderKind::Tournament, players, 1, RuleSet::thesis())
    }
}

fn play(run: &Run, jobs: usize) {
    let rep = run.play(jobs, None, &|_, _, _| {}, None).unwrap();
    assert!(rep.games.iter().all(|g| g.reason != "panic"), "{rep:?}");
}

#[test]
fn each_move_is_in_the_live_file_before_the_next_is_chosen() {
    register_watcher();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run");
    let run = Run::create(plan(&["Watcher", "CaptureLargest"], true), Some(&dir), "").unwrap();
    assert!(run.live());
    // One game at a time, so the watcher's game is the only one in play.
    play(&run, 1);
    let seen = seen_in(&dir);
    // Both games, every move of the watcher, from the first (White's, nothing played).
    assert!(
        seen.len() > 10 && seen.contains(&0) && seen.contains(&1),
        "{seen:?}"
    );
    assert!(!dir.join(LIVE_DIR).exists(), "no live files at the end");
}

#[test]
fn a_live_run_leaves_no_live_files_and_the_same_games_as_without() {
    let tmp = tempfile::tempdir().unwrap();
    let players = ["RandomMove", "CaptureLargest", "Supporter"];
    let [plain, live] = ["plain", "live"].map(|d| tmp.path().join(d));
    play(
        &Run::create(plan(&players, false), Some(&plain), "").unwrap(),
        2,
    );
    play(
        &Run::create(plan(&players, true), Some(&live), "").unwrap(),
        2,
    );
    let games = |d: &Path| fs::read(d.join(GAMES_FILE)).unwrap();
    assert_eq!(games(&plain), games(&live));
    assert!(!live.join(LIVE_DIR).exists());
}

#[test]
fn a_resumed_run_clears_the_live_files_a_killed_run_left() {
    register_watcher();
    let tmp = tempfile::tempdir().unwrap();
    for live in [true, false] {
        let dir = tmp.path().join(format!("run-{live}"));
        // A run killed while two games were in play: their files stay.
        // The watcher only where it finds a feed to check.
        let players = match live {
            true => ["Watcher", "RandomMove"],
            false => ["RandomMove", "CaptureLargest"],
        };
        drop(Run::create(plan(&players, live), Some(&dir), "").unwrap());
        for id in [0, 1] {
            let header = LiveHeader {
                id,
                round: 0,
                white: players[0].into(),
                black: players[1].into(),
                rules: RuleSet::thesis(),
                start: Position::startpos().fen(),
            };
            let mut f = LiveFile::create(&dir, &header).unwrap();
            let rules = RuleSet::thesis();
            f.moved(&Position::startpos().parse_uci("e2e4", &rules).unwrap());
        }
        assert_eq!(live_games(&dir).unwrap().len(), 2);
        let mut run = Run::resume(&dir, FolderKind::Tournament).unwrap();
        run.set_live(live).unwrap();
        play(&run, 1);
        // With the feed, the watcher saw its own game only: the stale files were gone
        // before the first game started.
        if live {
            let seen = seen_in(&dir);
            assert!(seen.contains(&0) && seen.contains(&1), "{seen:?}");
        }
        assert!(!dir.join(LIVE_DIR).exists());
    }
}

#[test]
fn a_program_player_outside_the_sandbox_refuses_a_live_feed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("run");
    let players = ["RandomMove", "exec:cmd=true,name=Bot"];
    let e = Run::create(plan(&players, true), Some(&dir), "")
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("Bot runs without the sandbox") && e.contains("sandbox=bwrap"),
        "{e}"
    );
    assert!(!dir.exists(), "a refused run leaves no folder");
    // Without the feed it runs; resumed with it, it is refused.
    drop(Run::create(plan(&players, false), Some(&dir), "").unwrap());
    let mut run = Run::resume(&dir, FolderKind::Tournament).unwrap();
    assert!(run.set_live(true).is_err() && !run.live());
    // uci: is a program too; in the sandbox, either may be watched.
    let uci = ["uci:cmd=stockfish".to_string()];
    assert!(fow_arena::check_live(&uci).is_err());
    let boxed = ["uci:cmd=stockfish,sandbox=bwrap".to_string()];
    assert!(fow_arena::check_live(&boxed).is_ok());
}

#[test]
fn a_game_tells_its_sink_every_move_in_order() {
    struct Moves(Vec<Move>);
    impl MoveSink for Moves {
        fn moved(&mut self, m: &Move) {
            self.0.push(*m);
        }
    }
    let tmp = tempfile::tempdir().unwrap();
    let opts = GameOptions::new(RuleSet::chesscom());
    let (mut w, mut b) = (RandomMove::new(), RandomMove::new());
    let mut sink = Moves(Vec::new());
    let rec = play_game_watched(&mut w, &mut b, "w", "b", 3, [1, 2], &opts, Some(&mut sink));
    assert_eq!(sink.0, rec.moves);
    // The same game without a sink.
    let (mut w, mut b) = (RandomMove::new(), RandomMove::new());
    let again = fow_arena::play_game_seeded(&mut w, &mut b, "w", "b", 3, [1, 2], &opts);
    assert_eq!(again.moves, rec.moves);
    // Into a live file: read back as played, gone when closed.
    let header = LiveHeader {
        id: 0,
        round: 0,
        white: "w".into(),
        black: "b".into(),
        rules: opts.rules,
        start: Position::startpos().fen(),
    };
    let mut file = LiveFile::create(tmp.path(), &header).unwrap();
    let (mut w, mut b) = (RandomMove::new(), RandomMove::new());
    play_game_watched(&mut w, &mut b, "w", "b", 3, [1, 2], &opts, Some(&mut file));
    assert_eq!(live_games(tmp.path()).unwrap()[0].moves, rec.moves);
    file.close().unwrap();
    assert!(!live_file(tmp.path(), 0).exists());
}
