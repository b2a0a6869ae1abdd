//! Playing one game: the arena owns the true position; players only see observations.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::OnceLock;
use std::time::Duration;

use quanta::Clock;

use fow_players::{Budget, GameStart, Player, PlayerErrorKind, TimeLeft};
use fow_variants::{printable, Color, Game, Move, Observation, Position, RuleSet};

use fow_records::seed::player_seeds;
use fow_records::TimeControl;
use fow_records::{GameRecord, GameResult, Reason};

/// How a game is played, beyond the players and the seed.
#[derive(Clone, Debug, PartialEq)]
pub struct GameOptions {
    /// The rules.
    pub rules: RuleSet,
    /// The budget passed to each player for each move.
    pub budget: Budget,
    /// A player whose single move takes longer than this loses on time (`None`: no
    /// limit). Wall-clock based, so it is not deterministic; off by default.
    pub move_time_limit: Option<Duration>,
    /// The starting position (`None`: the standard one).
    pub start: Option<Position>,
    /// A clock per side (`None`: none). Wall-clock based, so not deterministic: a side
    /// whose clock runs out loses (`time forfeit`); each player's budget carries its own
    /// time left ([`fow_players::TimeLeft`]), never the opponent's.
    pub clock: Option<TimeControl>,
}

impl GameOptions {
    /// Default options under `rules`.
    pub fn new(rules: RuleSet) -> GameOptions {
        GameOptions {
            rules,
            budget: Budget::default(),
            move_time_limit: None,
            start: None,
            clock: None,
        }
    }
}

/// A panic's message as a game's detail: one line, control characters escaped.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    let text = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("panic");
    printable(text).into_owned()
}

/// Plays one game between two fresh players and returns its record.
///
/// The game starts from `opts.start` (the standard position when `None`), and both
/// players are told all of it in [`Player::start`] ([`GameStart::position`]): the start
/// position is public, like the standard one.
///
/// A move outside the legal list, a panic inside a player, an error it reports, or a move
/// over the time limit loses the game for that player, with the reason recorded. Both
/// players hear the end through [`Player::finish`].
///
/// ```
/// use fow_arena::{play_game, GameOptions};
/// use fow_players::PlayerSpec;
/// use fow_variants::RuleSet;
/// let spec: PlayerSpec = "RandomMove".parse().unwrap();
/// let (mut w, mut b) = (spec.build().unwrap(), spec.build().unwrap());
/// let rec = play_game(w.as_mut(), b.as_mut(), "RandomMove", "RandomMove", 7, &GameOptions::new(RuleSet::thesis()));
/// assert!(rec.plies() > 0);
/// ```
pub fn play_game(
    white: &mut dyn Player,
    black: &mut dyn Player,
    white_name: &str,
    black_name: &str,
    seed: u64,
    opts: &GameOptions,
) -> GameRecord {
    let seeds = player_seeds(seed);
    play_game_seeded(white, black, white_name, black_name, seed, seeds, opts)
}

/// [`play_game`] with the players' seeds given (`[White's, Black's]`) instead of derived
/// from the game seed by colour: the paired games of a match give each player its own
/// seed in both games of a pair ([`fow_records::seed::side_seeds`]).
pub fn play_game_seeded(
    white: &mut dyn Player,
    black: &mut dyn Player,
    white_name: &str,
    black_name: &str,
    seed: u64,
    seeds: [u64; 2],
    opts: &GameOptions,
) -> GameRecord {
    play_game_watched(
        white, black, white_name, black_name, seed, seeds, opts, None,
    )
}

/// Told each move of a game as it is played, before the next player is asked: the live
/// feed of a run with `--live` ([`fow_records::LiveFile`]). It sees what the arena sees
/// (both sides' moves), so it is never a player.
pub trait MoveSink {
    /// Move `m` was played (its ply is the number of moves told before it, plus one).
    fn moved(&mut self, m: &Move);
}

/// [`play_game_seeded`] that tells `sink` each move as it is played (the game is the
/// same with or without it). Without a sink each ply costs one more branch.
#[allow(clippy::too_many_arguments)]
pub fn play_game_watched(
    white: &mut dyn Player,
    black: &mut dyn Player,
    white_name: &str,
    black_name: &str,
    seed: u64,
    seeds: [u64; 2],
    opts: &GameOptions,
    mut sink: Option<&mut dyn MoveSink>,
) -> GameRecord {
    let rules = opts.rules;
    let start = opts.start.clone().unwrap_or_default();
    let mut players: [&mut dyn Player; 2] = [black, white];
    for color in Color::ALL {
        let p = &mut players[color as usize];
        let s = seeds[if color.is_white() { 0 } else { 1 }];
        // The start position is public: both players are told all of it.
        let told = GameStart::new(color, rules, s).with_position(start.clone());
        if catch_unwind(AssertUnwindSafe(|| p.start(&told))).is_err() {
            let winner = !color;
            finish(&mut players, Some(winner), Reason::Panic);
            return GameRecord {
                white: white_name.to_string(),
                black: black_name.to_string(),
                seed,
                rules,
                moves: Vec::new(),
                result: win_for(winner),
                reason: Reason::Panic,
                detail: format!("{color} panicked in start"),
                time: [Duration::ZERO; 2],
                decisions: [0; 2],
                clocks: Vec::new(),
            };
        }
    }

    let mut game = Game::new(start, rules);
    // Observations per colour, indexed by `Color as usize` (black 0, white 1), built on
    // a side's first turn and refreshed in place afterwards, together with the view
    // right after the side's previous move.
    let mut obs: [Option<Observation>; 2] = [None, None];
    let mut moves = Vec::with_capacity(256);
    let mut decisions = [0u32; 2];
    // One clock read per ply, right after the choice: a side's time runs from the
    // previous choice to its own (the arena's bookkeeping in between is a few hundred
    // nanoseconds; for any real bot the time is its thinking). The reads are raw counter
    // values (the TSC where there is one), summed per side and scaled to time at the end.
    let clock = clock();
    let mut ticks = [0u64; 2];
    // Under a time control: each side's time left (by `Color as usize`), and the time
    // left after each move.
    let mut left = opts.clock.map(|tc| [tc.base; 2]);
    let mut clocks = Vec::new();
    let mut last = clock.raw();
    let (result, reason, detail) = loop {
        let mover = game.position().turn();
        let i = mover as usize;
        let o = Observation::for_game(&mut obs[i], &game);
        if o.move_count() == 0 {
            break (GameResult::Draw, Reason::NoLegalMoves, String::new());
        }
        // The move comes back by value (in a register): see `Player::choose`.
        let timed;
        let budget = match (opts.clock, &left) {
            (Some(tc), Some(left)) => {
                timed = Budget {
                    clock: Some(TimeLeft {
                        remaining: left[i],
                        increment: tc.increment,
                    }),
                    ..opts.budget
                };
                &timed
            }
            _ => &opts.budget,
        };
        let answer = catch_unwind(AssertUnwindSafe(|| players[i].choose(o, budget)));
        let now = clock.raw();
        let spent = now.saturating_sub(last);
        last = now;
        ticks[i] += spent;
        decisions[i] += 1;
        let m = match answer {
            Err(payload) => {
                break (win_for(!mover), Reason::Panic, panic_text(payload.as_ref()));
            }
            Ok(m) => m,
        };
        if !o.is_legal(&m) {
            break no_legal_answer(players[i], !mover, &m);
        }
        if let (Some(tc), Some(left)) = (opts.clock, left.as_mut()) {
            let spent = clock.delta(0, spent);
            if spent > left[i] {
                break (
                    win_for(!mover),
                    Reason::TimeForfeit,
                    format!(
                        "{} ms for a move with {} ms left",
                        spent.as_millis(),
                        left[i].as_millis()
                    ),
                );
            }
            left[i] = left[i] - spent + tc.increment;
            clocks.push(left[i]);
        }
        if let Some(limit) = opts.move_time_limit {
            let spent = clock.delta(0, spent);
            if spent > limit {
                break (
                    win_for(!mover),
                    Reason::Timeout,
                    format!("{} ms for one move", spent.as_millis()),
                );
            }
        }
        moves.push(m);
        if let Some(sink) = sink.as_mut() {
            sink.moved(&m);
        }
        let end = game.play(&m);
        if let Some(end) = end {
            let result = end.winner.map_or(GameResult::Draw, win_for);
            break (result, end.end.into(), String::new());
        }
    };
    let time = ticks.map(|t| clock.delta(0, t));
    finish(&mut players, result.winner(), reason);
    GameRecord {
        white: white_name.to_string(),
        black: black_name.to_string(),
        seed,
        rules,
        moves,
        result,
        reason,
        detail,
        time: [time[1], time[0]],
        decisions: [decisions[1], decisions[0]],
        clocks,
    }
}

/// How a game ends when a player's answer `m` is not a legal move: the error the player
/// reports, if any (a panic there counts as a panic), else an illegal move.
#[cold]
fn no_legal_answer(
    player: &mut dyn Player,
    winner: Color,
    m: &Move,
) -> (GameResult, Reason, String) {
    let error = catch_unwind(AssertUnwindSafe(|| player.take_error()));
    let (reason, detail) = match error {
        Err(payload) => (Reason::Panic, panic_text(payload.as_ref())),
        Ok(Some(e)) => {
            let reason = match e.kind {
                PlayerErrorKind::Timeout => Reason::Timeout,
                PlayerErrorKind::Protocol => Reason::ProtocolError,
                PlayerErrorKind::Crash => Reason::Crash,
                PlayerErrorKind::Other => Reason::PlayerError,
            };
            // The detail goes into games.csv and tables: whatever a player (or the
            // program behind it) wrote, it is one line without control characters.
            (reason, printable(&e.message).into_owned())
        }
        Ok(None) => (Reason::IllegalMove, m.uci()),
    };
    (win_for(winner), reason, detail)
}

/// Tells both players the game is over (a panic there changes nothing).
fn finish(players: &mut [&mut dyn Player; 2], winner: Option<Color>, reason: Reason) {
    let reason = reason.to_string();
    for p in players.iter_mut() {
        let _ = catch_unwind(AssertUnwindSafe(|| p.finish(winner, &reason)));
    }
}

/// The process's clock (calibrated once): raw reads are cheap and scale to time.
fn clock() -> &'static Clock {
    static CLOCK: OnceLock<Clock> = OnceLock::new();
    CLOCK.get_or_init(Clock::new)
}

fn win_for(c: Color) -> GameResult {
    match c {
        Color::White => GameResult::WhiteWins,
        Color::Black => GameResult::BlackWins,
    }
}
