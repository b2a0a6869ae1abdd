//! Paired schedules (`fow match`): pairs share their game seed with colours swapped, a
//! stopping rule cuts the schedule at the same pair whatever the number of threads or a
//! kill, gauntlets meet only the first player, and a bot may meet itself.

use std::fs;
use std::sync::atomic::{AtomicU32, Ordering};

use fow_arena::{pair_results, Run};
use fow_records::{GameRow, TournamentConfig};
use fow_variants::RuleSet;

fn matched(players: &[&str], pairs: u32) -> TournamentConfig {
    let mut c = TournamentConfig::new(
        players.iter().map(|p| p.to_string()).collect(),
        pairs,
        RuleSet::thesis(),
        Some(11),
        None,
    )
    .unwrap();
    c.gauntlet = true;
    c.paired = true;
    c
}

#[test]
fn a_pair_shares_its_seed_with_colours_and_sides_swapped() {
    let s = matched(&["A", "B", "C"], 2).pairings();
    assert_eq!(s.len(), 2 * 2 * 2);
    for pair in s.chunks(2) {
        let (g0, g1) = (pair[0], pair[1]);
        assert_eq!(g0.id % 2, 0);
        assert_eq!(g0.seed, g1.seed);
        assert_eq!((g0.white, g0.black), (g1.black, g1.white));
        assert_eq!(
            g0.white, 0,
            "the first player has White in a pair's first game"
        );
        // Each player keeps its seed in both games.
        assert_eq!(g0.player_seeds, [g1.player_seeds[1], g1.player_seeds[0]]);
        assert_ne!(g0.player_seeds[0], g0.player_seeds[1]);
    }
    // A gauntlet: B and C never meet.
    assert!(s.iter().all(|p| p.white == 0 || p.black == 0));
    // Unpaired gauntlet (fow tournament --gauntlet): the same meetings.
    let mut g = matched(&["A", "B", "C"], 2);
    g.paired = false;
    let u = g.pairings();
    assert_eq!(u.len(), 8);
    assert!(u.iter().all(|p| p.white == 0 || p.black == 0));
}

#[test]
fn a_bot_may_meet_itself_and_plays_two_different_games_a_pair() {
    let tmp = tempfile::tempdir().unwrap();
    let c = matched(&["RandomMove", "RandomMove"], 10)
        .validated()
        .unwrap();
    let rep = Run::begin(c.clone(), Some(&tmp.path().join("self")), "")
        .unwrap()
        .play(2, None, &|_, _, _| {}, None)
        .unwrap();
    assert_eq!(rep.games.len(), 20);
    for pair in rep.games.chunks(2) {
        assert_ne!(
            pair[0].moves, pair[1].moves,
            "the sides keep different seeds"
        );
    }
    let pairs = pair_results(&c, &rep.games).unwrap();
    assert_eq!(pairs.len(), 10);
    // Twice in a round robin is still refused.
    let mut rr = c.clone();
    rr.gauntlet = false;
    rr.paired = false;
    assert!(rr.validated().is_err());
}

/// Runs a 40-pair match of RandomMove against CaptureKing with `jobs` threads and a rule
/// that stops it after its 12th pair, checking that the rule sees the pairs in order.
fn stopped_match(dir: &std::path::Path, jobs: usize) -> (Vec<u8>, u32) {
    let c = matched(&["RandomMove", "CaptureKing"], 40);
    let seen = AtomicU32::new(0);
    let stop = |a: &GameRow, b: &GameRow| {
        let n = seen.fetch_add(1, Ordering::Relaxed) + 1;
        assert_eq!(
            (a.id % 2, b.id, n as u64 - 1),
            (0, a.id + 1, a.id / 2),
            "in order"
        );
        n == 12
    };
    let rep = Run::begin(c, Some(dir), "")
        .unwrap()
        .play(jobs, None, &|_, _, _| {}, Some(&stop))
        .unwrap();
    assert!(rep.stopped);
    assert_eq!(rep.games.len(), 24);
    (fs::read(dir.join("games.csv")).unwrap(), seen.into_inner())
}

#[test]
fn a_stopping_rule_cuts_the_same_games_whatever_the_threads() {
    let tmp = tempfile::tempdir().unwrap();
    let (one, n1) = stopped_match(&tmp.path().join("one"), 1);
    let (two, n2) = stopped_match(&tmp.path().join("two"), 2);
    assert_eq!(one, two);
    assert_eq!(
        (n1, n2),
        (12, 12),
        "the rule sees each pair once, up to the stop"
    );
    // Games past the stop, left by a kill before the end, are dropped on resume, which
    // checks the pairs on disk again and stops at the same pair.
    let dir = tmp.path().join("killed");
    let c = matched(&["RandomMove", "CaptureKing"], 40);
    let full = Run::begin(c.clone(), Some(&tmp.path().join("full")), "")
        .unwrap()
        .play(2, None, &|_, _, _| {}, None)
        .unwrap();
    drop(Run::begin(c, Some(&dir), "").unwrap());
    let text = fs::read_to_string(tmp.path().join("full/games.csv")).unwrap();
    let rows: Vec<&str> = text.lines().take(1 + 30).collect();
    fs::write(dir.join("games.csv"), rows.join("\n") + "\n").unwrap();
    assert_eq!(full.games.len(), 80);
    let seen = AtomicU32::new(0);
    let stop = |_: &GameRow, _: &GameRow| seen.fetch_add(1, Ordering::Relaxed) + 1 == 12;
    let rep = Run::open(&dir)
        .unwrap()
        .play(1, None, &|_, _, _| {}, Some(&stop))
        .unwrap();
    assert_eq!((rep.played_now, rep.games.len()), (0, 24));
    assert_eq!(fs::read(dir.join("games.csv")).unwrap(), one);
}

/// A player that records the clock it is given and sleeps `sleep` on its first move.
struct Timed {
    inner: fow_players::bots::RandomMove,
    seen: std::sync::Arc<std::sync::Mutex<Vec<Option<fow_players::TimeLeft>>>>,
    sleep: std::time::Duration,
}

impl fow_players::Player for Timed {
    fn start(&mut self, game: &fow_players::GameStart) {
        self.inner.start(game);
    }
    fn choose(
        &mut self,
        obs: &fow_variants::Observation,
        b: &fow_players::Budget,
    ) -> fow_variants::Move {
        let mut seen = self.seen.lock().unwrap();
        if seen.is_empty() {
            std::thread::sleep(self.sleep);
        }
        seen.push(b.clock);
        self.inner.choose(obs, b)
    }
}

fn timed(
    sleep_ms: u64,
) -> (
    Timed,
    std::sync::Arc<std::sync::Mutex<Vec<Option<fow_players::TimeLeft>>>>,
) {
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    (
        Timed {
            inner: fow_players::bots::RandomMove::new(),
            seen: seen.clone(),
            sleep: std::time::Duration::from_millis(sleep_ms),
        },
        seen,
    )
}

#[test]
fn a_side_whose_clock_runs_out_loses_by_time_forfeit() {
    use fow_arena::{play_game, GameOptions};
    use fow_records::{GameResult, Reason, TimeControl};
    let mut opts = GameOptions::new(RuleSet::thesis());
    opts.clock = Some("0.1+0".parse::<TimeControl>().unwrap());
    // White sleeps 300 ms on its first move with 100 ms on its clock: it loses, whatever
    // the machine's load (the sleep alone is longer than the clock).
    let (mut slow, seen) = timed(300);
    let (mut other, _) = timed(0);
    let rec = play_game(&mut slow, &mut other, "slow", "other", 3, &opts);
    assert_eq!(rec.reason, Reason::TimeForfeit);
    assert_eq!(rec.result, GameResult::BlackWins);
    assert_eq!(rec.plies(), 0, "the late move is not played");
    assert!(rec.detail.contains("ms left"), "{}", rec.detail);
    let first = seen.lock().unwrap()[0].unwrap();
    assert_eq!(first.remaining, std::time::Duration::from_millis(100));
    fow_records::check_row(&GameRow::new(0, 0, &rec), &RuleSet::thesis()).unwrap();
}

#[test]
fn each_side_is_told_its_own_clock_and_gets_its_increment() {
    use fow_arena::{play_game, GameOptions};
    use fow_records::TimeControl;
    let mut opts = GameOptions::new(RuleSet::thesis());
    opts.clock = Some("60+2".parse::<TimeControl>().unwrap());
    let (mut w, ws) = timed(0);
    let (mut b, bs) = timed(0);
    let rec = play_game(&mut w, &mut b, "w", "b", 5, &opts);
    let (ws, bs) = (ws.lock().unwrap().clone(), bs.lock().unwrap().clone());
    let base = std::time::Duration::from_secs(60);
    let inc = std::time::Duration::from_secs(2);
    // Both start with the base; each later clock is the previous one, less the time
    // spent, plus the increment.
    for s in [&ws, &bs] {
        let clocks: Vec<_> = s.iter().map(|c| c.unwrap()).collect();
        assert_eq!(clocks[0].remaining, base);
        assert!(clocks.iter().all(|c| c.increment == inc));
        for pair in clocks.windows(2) {
            assert!(pair[1].remaining <= pair[0].remaining + inc);
        }
    }
    // The record holds the mover's time left after each move.
    assert_eq!(rec.clocks.len(), rec.plies());
    assert_eq!(
        rec.clocks[0],
        ws.get(1).map_or(rec.clocks[0], |c| c.unwrap().remaining)
    );
}
