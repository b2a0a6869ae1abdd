// A bot of one's own in Rust with declared, typed parameters: its numbers are
// `fow_players::param::Param`s (name, default, range, one line of doc), read from a player
// spec (`Tunable:greed=0.8,queen=9`) through the library, with the same checks and error
// messages as a built-in bot's, without touching fow's code (the chapter "fow as a
// library" of the manual).
//
//     cargo run --release --example tunable_rust_bot -- "Tunable:greed=0.8,queen=9"
//
// tests/manual.rs includes this file and checks that its parameters change its play.

use fow_arena::{play_game, GameOptions};
use fow_players::param::{check_names, Param};
use fow_players::{Budget, GameStart, Player, PlayerSpec, SpecError};
use fow_records::GameResult;
use fow_variants::{Color, Move, Observation, Role, RuleSet};

/// The bot's name in its spec.
pub const NAME: &str = "Tunable";

const GREED: Param = Param::real(
    "greed",
    1.0,
    0.0,
    1.0,
    "probability of the greedy move on a turn, else a random one",
);
const QUEEN: Param = Param::int(
    "queen",
    10,
    1,
    20,
    "what capturing a queen is worth (rook 5)",
);

/// Everything the bot can be told: what a tuner reads (each number's type and range).
pub const PARAMS: &[Param] = &[GREED, QUEEN];

/// Captures the piece it values most with probability `greed`, else plays a random
/// legal move.
pub struct Tunable {
    greed: f64,
    queen: u32,
    state: u64,
}

impl Tunable {
    /// The bot a spec describes: the default of each parameter it leaves out; another
    /// name, an unknown key or a value out of its range refused.
    pub fn from_spec(spec: &PlayerSpec) -> Result<Tunable, SpecError> {
        if spec.name != NAME {
            return Err(SpecError::UnknownBot {
                name: spec.name.clone(),
                known: vec![NAME.to_string()],
            });
        }
        check_names(PARAMS, spec)?;
        Ok(Tunable {
            greed: GREED.read_real(spec)?,
            queen: QUEEN.read_int(spec)? as u32,
            state: 0,
        })
    }

    /// The next number of the game's random sequence (SplitMix64).
    fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn weight(&self, role: Role) -> u32 {
        match role {
            Role::Pawn => 1,
            Role::Knight | Role::Bishop => 3,
            Role::Rook => 5,
            Role::Queen => self.queen,
            Role::King => 100,
        }
    }
}

impl Player for Tunable {
    fn start(&mut self, game: &GameStart) {
        self.state = game.seed;
    }

    fn choose(&mut self, obs: &Observation, _budget: &Budget) -> Move {
        let moves = obs.legal_moves();
        if moves.is_empty() {
            return Move::NULL;
        }
        // A number in [0, 1) from the top 53 bits; with greed 1 the move is always greedy.
        let greedy = ((self.next() >> 11) as f64 / (1u64 << 53) as f64) < self.greed;
        let value = |m: &Move| m.capture.map_or(0, |r| self.weight(r));
        let best = if greedy {
            moves.iter().map(value).max().unwrap_or(0)
        } else {
            0
        };
        let top: Vec<&Move> = moves
            .iter()
            .filter(|m| !greedy || value(m) == best)
            .collect();
        *top[(self.next() % top.len() as u64) as usize]
    }
}

/// Plays `games` games of the bot of `spec` against the built-in `opponent`, colours
/// alternating; returns its points.
pub fn score(spec: &PlayerSpec, opponent: &str, games: u64) -> Result<f64, SpecError> {
    let rules = RuleSet::thesis();
    let theirs: PlayerSpec = opponent.parse()?;
    let mut points = 0.0;
    for seed in 0..games {
        let mut mine = Tunable::from_spec(spec)?;
        let mut other = theirs.build()?;
        let opts = GameOptions::new(rules);
        let (color, record) = if seed % 2 == 0 {
            let r = play_game(&mut mine, other.as_mut(), NAME, opponent, seed, &opts);
            (Color::White, r)
        } else {
            let r = play_game(other.as_mut(), &mut mine, opponent, NAME, seed, &opts);
            (Color::Black, r)
        };
        points += match record.result {
            GameResult::Draw => 0.5,
            result if result.winner() == Some(color) => 1.0,
            _ => 0.0,
        };
    }
    Ok(points)
}

fn main() {
    let text = std::env::args().nth(1).unwrap_or_else(|| NAME.to_string());
    let run = || -> Result<(), SpecError> {
        let spec: PlayerSpec = text.parse()?;
        Tunable::from_spec(&spec)?;
        for p in PARAMS {
            let default = p.default_text();
            let value = spec.param(p.name).unwrap_or(&default);
            println!(
                "{} = {value} ({}; default {default})",
                p.name,
                p.range_text()
            );
        }
        for opponent in ["RandomMove", "CaptureLargest"] {
            let points = score(&spec, opponent, 100)?;
            println!("{spec} scored {points} of 100 against {opponent}");
        }
        Ok(())
    };
    if let Err(e) = run() {
        eprintln!("tunable_rust_bot: error: {e}");
        std::process::exit(2);
    }
}
