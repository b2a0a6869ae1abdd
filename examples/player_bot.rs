// A bot in Rust, in process: it implements fow's `Player` trait and plays the built-in
// bots through `fow_arena::play_game` (the chapter "fow as a library" of the manual).
//
//     cargo run --release --example player_bot
//
// tests/manual.rs includes this file and checks its scores.

use fow_arena::{play_game, GameOptions};
use fow_players::{Budget, GameStart, Player, PlayerSpec};
use fow_records::GameResult;
use fow_variants::{Color, Move, Observation, Role, RuleSet};

/// Captures the heaviest piece it sees; otherwise a random legal move.
struct Greedy {
    state: u64,
}

impl Greedy {
    /// A number below `n` from the game's seed (SplitMix64).
    fn below(&mut self, n: usize) -> usize {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

fn weight(role: Role) -> u32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 10,
        Role::King => 100,
    }
}

impl Player for Greedy {
    fn start(&mut self, game: &GameStart) {
        // Colour, rules, start position and the seed: all randomness comes from it.
        self.state = game.seed;
    }

    fn choose(&mut self, obs: &Observation, _budget: &Budget) -> Move {
        // `obs` is all the bot may know: its view, its view after its previous move,
        // the rules, the ply and its legal moves.
        let moves = obs.legal_moves();
        let Some(best) = moves.iter().map(|m| m.capture.map_or(0, weight)).max() else {
            return Move::NULL; // no legal move: the arena records the loss
        };
        let top: Vec<&Move> = moves
            .iter()
            .filter(|m| m.capture.map_or(0, weight) == best)
            .collect();
        *top[self.below(top.len())]
    }
}

/// Plays `games` games of Greedy against `opponent`, colours alternating;
/// returns Greedy's points.
pub fn greedy_against(opponent: &str, games: u64) -> f64 {
    let rules = RuleSet::thesis();
    let spec: PlayerSpec = opponent.parse().expect("a player spec");
    let mut points = 0.0;
    for seed in 0..games {
        let mut mine = Greedy { state: 0 };
        let mut theirs = spec.build().expect("the opponent");
        let opts = GameOptions::new(rules);
        let (color, record) = if seed % 2 == 0 {
            let r = play_game(&mut mine, theirs.as_mut(), "Greedy", opponent, seed, &opts);
            (Color::White, r)
        } else {
            let r = play_game(theirs.as_mut(), &mut mine, opponent, "Greedy", seed, &opts);
            (Color::Black, r)
        };
        points += match record.result {
            GameResult::Draw => 0.5,
            result if result.winner() == Some(color) => 1.0,
            _ => 0.0,
        };
    }
    points
}

fn main() {
    for opponent in ["RandomMove", "CaptureLargest"] {
        let points = greedy_against(opponent, 100);
        println!("Greedy scored {points} of 100 against {opponent}");
    }
}
