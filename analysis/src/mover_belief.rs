//! What a belief bot believed during a saved game: its model of the opponent, read from
//! its spec ([`opponent_model`]), and its own belief at chosen turns, replayed
//! ([`replay_belief`]).
//!
//! A belief can be replayed when the mover is `PossibleBoardList` or `BeliefSearch`
//! whose spec sets no time limit (`time=`: a clock would make the replay differ), and the
//! game records its seed. The bot is built from the spec, told its colour, the rules,
//! the start position and its seed, and asked for a move at each of its turns with the
//! observations it had, as the arena asked it (without a run's node budget). Its seed
//! is not recorded, only the game's: the seed a round robin gives it
//! ([`fow_records::seed::player_seeds`]) is tried first, then the two a paired game
//! gives its sides ([`fow_records::seed::side_seeds`]). A seed is taken only when the
//! bot, replayed with it, plays every move of the game up to the last turn asked for;
//! otherwise (another seed, a run's `--nodes`, a clock) the belief is not replayed. The
//! replay costs what the bot spent thinking over those turns, for each seed tried.

use fow_players::bots::{
    BeliefSearch, BeliefSearchSettings, BoardListSettings, GreedyModel, PossibleBoardList,
};
use fow_players::{Budget, GameStart, Player, PlayerSpec};
use fow_records::seed::{player_seeds, side_seeds};
use fow_records::SavedGame;
use fow_variants::{Color, Game, Observation, Position};

/// The model of its opponent by which `spec` (a player's name as the game records it)
/// weighs its boards: `BeliefSearch` with a sampled belief (`keep` above 0) and a
/// `model`; `None` for any other player.
pub fn opponent_model(spec: &str) -> Option<GreedyModel> {
    let spec: PlayerSpec = spec.parse().ok()?;
    if spec.name != "BeliefSearch" {
        return None;
    }
    let s = BeliefSearchSettings::from_spec(&spec).ok()?;
    let beta = s.model.filter(|_| s.keep > 0)?;
    Some(GreedyModel { beta, eval: s.eval })
}

/// A belief bot, built from its spec.
enum BeliefBot {
    List(Box<PossibleBoardList>),
    Search(Box<BeliefSearch>),
}

impl BeliefBot {
    /// The bot of `spec` when it is a belief bot that replays (no time limit).
    fn of(spec: &str) -> Option<BeliefBot> {
        let spec: PlayerSpec = spec.parse().ok()?;
        match spec.name.as_str() {
            "PossibleBoardList" => {
                let s = BoardListSettings::from_spec(&spec).ok()?;
                s.thinking
                    .time
                    .is_none()
                    .then(|| BeliefBot::List(Box::new(PossibleBoardList::new(s))))
            }
            "BeliefSearch" => {
                let s = BeliefSearchSettings::from_spec(&spec).ok()?;
                s.thinking
                    .time
                    .is_none()
                    .then(|| BeliefBot::Search(Box::new(BeliefSearch::new(s))))
            }
            _ => None,
        }
    }

    fn player(&mut self) -> &mut dyn Player {
        match self {
            BeliefBot::List(b) => b.as_mut(),
            BeliefBot::Search(b) => b.as_mut(),
        }
    }

    /// Its boards and their weights now.
    fn belief(&self) -> (&[Position], &[f64]) {
        match self {
            BeliefBot::List(b) => (b.boards(), b.weights()),
            BeliefBot::Search(b) => (b.boards(), b.weights()),
        }
    }
}

/// Whether `spec` (a player's name as a game records it) is a belief bot whose belief
/// can be replayed from a game ([`replay_belief`]): `PossibleBoardList` or
/// `BeliefSearch` without a time limit.
pub fn belief_bot(spec: &str) -> bool {
    BeliefBot::of(spec).is_some()
}

/// For each ply of `plies` (1-based moves of `side`, increasing), the true position's
/// weight in `side`'s own belief when it chose that move, relative to the mean weight of
/// its boards (0 when the belief left it out); `None` when the mover is not a belief bot
/// whose belief replays (see the module's notes).
pub fn replay_belief(game: &SavedGame, side: Color, plies: &[usize]) -> Option<Vec<f64>> {
    let spec = if side.is_white() {
        &game.white
    } else {
        &game.black
    };
    let seed = game.seed?;
    let [white, black] = player_seeds(seed);
    let [first, second] = side_seeds(seed);
    let own = if side.is_white() { white } else { black };
    let mut tried = Vec::new();
    for s in [own, first, second] {
        if tried.contains(&s) {
            continue;
        }
        tried.push(s);
        let mut bot = BeliefBot::of(spec)?;
        // A bot that panics (as the arena would have recorded) replays nothing.
        let replayed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            replay_with(&mut bot, game, side, s, plies)
        }));
        if let Ok(Some(weights)) = replayed {
            return Some(weights);
        }
    }
    None
}

/// Replays `bot` as `side` with `seed`: the truth's relative weight at each of `plies`,
/// or `None` as soon as it plays another move than the game's.
fn replay_with(
    bot: &mut BeliefBot,
    game: &SavedGame,
    side: Color,
    seed: u64,
    plies: &[usize],
) -> Option<Vec<f64>> {
    let rules = game.rules;
    let start = GameStart::new(side, rules, seed).with_position(game.start.clone());
    bot.player().start(&start);
    let mut play = Game::new(game.start.clone(), rules);
    let mut slot: Option<Observation> = None;
    let mut out = vec![0.0; plies.len()];
    let last_ply = plies.iter().copied().max().unwrap_or(0);
    for (i, m) in game.moves.iter().enumerate().take(last_ply) {
        if play.position().turn() == side {
            let obs = Observation::for_game(&mut slot, &play);
            let chosen = bot.player().choose(obs, &Budget::default());
            if chosen != *m {
                return None;
            }
            for (k, _) in plies.iter().enumerate().filter(|(_, &p)| p == i + 1) {
                out[k] = truth_weight(bot.belief(), play.position(), &rules);
            }
        }
        play.play(m);
    }
    Some(out)
}

/// The weight of the board equal to `truth` (for repetition) among `boards`, relative to
/// their mean weight; 0 when none is.
fn truth_weight(
    (boards, weights): (&[Position], &[f64]),
    truth: &Position,
    rules: &fow_variants::RuleSet,
) -> f64 {
    let key = truth.repetition_key(rules);
    let Some(i) = boards.iter().position(|b| b.repetition_key(rules) == key) else {
        return 0.0;
    };
    let mean = weights.iter().sum::<f64>() / weights.len() as f64;
    if mean > 0.0 {
        weights[i] / mean
    } else {
        1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_arena::{play_game, GameOptions};
    use fow_variants::RuleSet;

    /// A game played by the arena as fow plays a round robin's, saved with its seed.
    fn played(white: &str, black: &str, seed: u64, plies: usize) -> SavedGame {
        let rules = RuleSet::thesis();
        let (w, b): (PlayerSpec, PlayerSpec) = (white.parse().unwrap(), black.parse().unwrap());
        let (mut pw, mut pb) = (w.build().unwrap(), b.build().unwrap());
        let rec = play_game(
            pw.as_mut(),
            pb.as_mut(),
            white,
            black,
            seed,
            &GameOptions::new(rules),
        );
        let mut game = SavedGame::from_uci(white, black, rules, &[]).unwrap();
        game.moves = rec.moves.into_iter().take(plies).collect();
        game.seed = Some(seed);
        game
    }

    const LIST: &str = "PossibleBoardList:depth=1,nodes=2000,sample=4";

    #[test]
    fn a_belief_bot_replays_with_its_seed_and_keeps_the_truth_while_exact() {
        let game = played(LIST, "RandomMove", 11, 16);
        let plies = [1, 5, 9, 13];
        let w = replay_belief(&game, Color::White, &plies).expect("replays");
        // Exact (no cap reached): the truth is in, every board weighs 1.
        assert_eq!(w, [1.0; 4]);
        // Another seed plays other moves somewhere: not replayed.
        let mut other = game.clone();
        other.seed = Some(12);
        assert_eq!(replay_belief(&other, Color::White, &plies), None);
        // Not a belief bot, or no seed: nothing to replay.
        assert_eq!(replay_belief(&game, Color::Black, &[2]), None);
        let mut unseeded = game.clone();
        unseeded.seed = None;
        assert_eq!(replay_belief(&unseeded, Color::White, &plies), None);
    }

    #[test]
    fn a_belief_rebuilt_from_guesses_can_leave_the_truth_out() {
        // A cap of one board: every turn with hidden moves overflows and the bot guesses.
        let spec = "PossibleBoardList:depth=1,nodes=2000,sample=4,cap=1,guesses=2";
        let game = played(spec, "RandomMove", 5, 24);
        let plies: Vec<usize> = (1..=24).step_by(2).collect();
        let w = replay_belief(&game, Color::White, &plies).expect("replays");
        assert_eq!(w[0], 1.0, "the start is known");
        assert!(w.contains(&0.0), "{w:?}");
    }

    #[test]
    fn only_belief_search_with_a_model_weighs_its_boards() {
        let m = opponent_model("BeliefSearch").unwrap();
        assert_eq!(m.beta, 2.0);
        assert_eq!(opponent_model("BeliefSearch:model=off"), None);
        assert_eq!(opponent_model("BeliefSearch:keep=0"), None);
        assert_eq!(opponent_model("PossibleBoardList"), None);
        assert_eq!(opponent_model("not a spec ::"), None);
    }
}
