//! A run halted from outside ([`Run::play_until`], Ctrl-C in the Python package) keeps
//! only complete games, drops the game in flight, and resumes to exactly the files of a
//! run that was never halted.

use std::fs;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use fow_arena::Run;
use fow_players::bots::RandomMove;
use fow_players::{register, BotInfo, Budget, GameStart, Player, PlayerSpec, SpecError};
use fow_records::{read_games, TournamentConfig};
use fow_variants::{Move, Observation, RuleSet};

/// Set by [`Halter`] at its chosen move; the run under test watches it.
static HALT: AtomicBool = AtomicBool::new(false);
/// Games [`Halter`] has started.
static STARTED: AtomicU32 = AtomicU32::new(0);
/// The game (in the order [`Halter`] starts them) in which it halts the run, at its
/// third move; `u32::MAX`: never.
static HALT_IN: AtomicU32 = AtomicU32::new(u32::MAX);

/// RandomMove that halts the run at its third move of the chosen game, as a person
/// pressing Ctrl-C in the middle of a game would.
struct Halter {
    inner: RandomMove,
    game: u32,
    moves: u32,
}

impl Player for Halter {
    fn start(&mut self, game: &GameStart) {
        self.game = STARTED.fetch_add(1, Ordering::SeqCst);
        self.moves = 0;
        self.inner.start(game);
    }
    fn choose(&mut self, obs: &Observation, b: &Budget) -> Move {
        self.moves += 1;
        if self.moves == 3 && self.game == HALT_IN.load(Ordering::SeqCst) {
            HALT.store(true, Ordering::SeqCst);
        }
        self.inner.choose(obs, b)
    }
}

fn build(_: &PlayerSpec) -> Result<Box<dyn Player>, SpecError> {
    Ok(Box::new(Halter {
        inner: RandomMove::new(),
        game: 0,
        moves: 0,
    }))
}

fn config() -> TournamentConfig {
    TournamentConfig::new(
        ["Halter", "CaptureKing", "CaptureLargest"]
            .map(String::from)
            .to_vec(),
        2,
        RuleSet::thesis(),
        Some(5),
        None,
    )
    .unwrap()
}

#[test]
fn a_halted_run_keeps_complete_games_only_and_resumes_to_the_same_files() {
    register(BotInfo::new("Halter", "halts the run", &[], build)).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let whole = tmp.path().join("whole");
    let rep = Run::begin(config(), Some(&whole), "")
        .unwrap()
        .play(1, None, &|_, _, _| {}, None)
        .unwrap();
    assert!(!rep.halted);
    let total = rep.games.len();
    assert_eq!(total, 3 * 2 * 2);

    // Halter's games in schedule order (one job): 0 and 1 against CaptureKing as White,
    // then as Black, then against CaptureLargest. It halts in its fourth game.
    let dir = tmp.path().join("halted");
    let run = Run::begin(config(), Some(&dir), "").unwrap();
    let halting_game = config()
        .games_to_play()
        .iter()
        .filter(|p| p.white == 0 || p.black == 0)
        .nth(3)
        .unwrap()
        .id;
    STARTED.store(0, Ordering::SeqCst);
    HALT_IN.store(3, Ordering::SeqCst);
    let written = std::sync::atomic::AtomicUsize::new(0);
    let rep = run
        .play_until(
            1,
            None,
            &|_, _, _| {
                written.fetch_add(1, Ordering::SeqCst);
            },
            None,
            &HALT,
        )
        .unwrap();
    HALT_IN.store(u32::MAX, Ordering::SeqCst);
    assert!(rep.halted && !rep.stopped);
    // Every game before the halting one, none from it on: the game in flight is dropped.
    let ids: Vec<u64> = rep.games.iter().map(|g| g.id).collect();
    assert_eq!(ids, (0..halting_game).collect::<Vec<_>>());
    assert_eq!(rep.played_now, halting_game as usize);
    assert_eq!(written.into_inner(), halting_game as usize);
    let on_disk = read_games(&dir.join("games.csv")).unwrap();
    assert_eq!(on_disk.len(), halting_game as usize);
    drop(run);

    // Resumed (without a halt), it ends with the files of the run never halted.
    HALT.store(false, Ordering::SeqCst);
    let rep = Run::open(&dir)
        .unwrap()
        .play(1, None, &|_, _, _| {}, None)
        .unwrap();
    assert!(!rep.halted);
    assert_eq!(rep.played_now, total - halting_game as usize);
    assert_eq!(
        fs::read(dir.join("games.csv")).unwrap(),
        fs::read(whole.join("games.csv")).unwrap()
    );

    // A halt set before the run starts plays nothing and writes no game.
    let early = tmp.path().join("early");
    let halt = AtomicBool::new(true);
    let rep = Run::begin(config(), Some(&early), "")
        .unwrap()
        .play_until(2, None, &|_, _, _| {}, None, &halt)
        .unwrap();
    assert!(rep.halted && rep.games.is_empty() && rep.played_now == 0);
}
