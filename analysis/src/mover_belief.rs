//! What a belief bot believed during a saved game: its model of the opponent, read from
//! its spec ([`opponent_model`]), and its own belief at chosen turns, replayed
//! ([`replay_belief`]; [`crate::belief_overlay`] replays the same way).
//!
//! A belief can be replayed when the mover is `PossibleBoardList`, `BeliefSearch` or
//! `SubgameSolver` whose spec sets no time limit (`time=`: a clock would make the replay differ), and the
//! game records its seed. The bot is built from the spec, told its colour, the rules,
//! the start position and its seed, and asked for a move at each of its turns with the
//! observations it had, as the arena asked it, under the run's node budget when the
//! caller gives it ([`replay_belief`] gives none). Its seed is not recorded, only the
//! game's: the seed a round robin gives it ([`fow_records::seed::player_seeds`]) is
//! tried first, then the two a paired game gives its sides
//! ([`fow_records::seed::side_seeds`]). A seed is taken only when the bot, replayed with
//! it, plays every move of the game up to the last turn asked for; otherwise (another
//! seed, another node budget, a clock) the belief is not replayed. The replay costs what
//! the bot spent thinking over those turns, for each seed tried.

use fow_players::bots::{
    BeliefLog, BeliefSearch, BeliefSearchSettings, BoardListSettings, Decision, GreedyModel,
    PossibleBoardList, SubgameSolver, SubgameSolverSettings,
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
pub(crate) enum BeliefBot {
    List(Box<PossibleBoardList>),
    /// BeliefSearch, and whether its belief keeps a sample when more boards fit
    /// (`keep` above 0) rather than rebuilding from guesses.
    Search(Box<BeliefSearch>, bool),
    /// SubgameSolver: BeliefSearch's belief at its defaults (a sample kept).
    Solver(Box<SubgameSolver>),
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
                    .then(|| BeliefBot::Search(Box::new(BeliefSearch::new(s)), s.keep > 0))
            }
            "SubgameSolver" => {
                let s = SubgameSolverSettings::from_spec(&spec).ok()?;
                s.thinking
                    .time
                    .is_none()
                    .then(|| BeliefBot::Solver(Box::new(SubgameSolver::new(s))))
            }
            _ => None,
        }
    }

    fn player(&mut self) -> &mut dyn Player {
        match self {
            BeliefBot::List(b) => b.as_mut(),
            BeliefBot::Search(b, _) => b.as_mut(),
            BeliefBot::Solver(b) => b.as_mut(),
        }
    }

    /// What a SubgameSolver decided at its last turn; `None` for the other bots.
    pub(crate) fn decision(&self) -> Option<Decision> {
        match self {
            BeliefBot::Solver(b) => b.decisions().last().copied(),
            _ => None,
        }
    }

    /// Its boards and their weights now.
    pub(crate) fn belief(&self) -> (&[Position], &[f64]) {
        match self {
            BeliefBot::List(b) => (b.boards(), b.weights()),
            BeliefBot::Search(b, _) => (b.boards(), b.weights()),
            BeliefBot::Solver(b) => (b.boards(), b.weights()),
        }
    }

    /// Whether its belief keeps a sample of the boards when more fit (BeliefSearch's
    /// `keep`), rather than rebuilding the set from guesses past its cap.
    pub(crate) fn samples(&self) -> bool {
        matches!(self, BeliefBot::Search(_, true) | BeliefBot::Solver(_))
    }

    /// What its belief saw over the game so far.
    pub(crate) fn log(&self) -> &BeliefLog {
        match self {
            BeliefBot::List(b) => b.log(),
            BeliefBot::Search(b, _) => b.log(),
            BeliefBot::Solver(b) => b.log(),
        }
    }
}

/// Whether `spec` (a player's name as a game records it) is a belief bot whose belief
/// can be replayed from a game ([`replay_belief`]): `PossibleBoardList`,
/// `BeliefSearch` or `SubgameSolver` without a time limit.
pub fn belief_bot(spec: &str) -> bool {
    BeliefBot::of(spec).is_some()
}

/// One turn of the replayed bot: what it held when it chose its move.
pub(crate) struct Turn<'a> {
    /// The ply of its move, 1-based as the game's move list counts.
    pub ply: usize,
    /// The true position before its move.
    pub truth: &'a Position,
    /// The bot, its belief as it stood when it chose the move.
    pub bot: &'a BeliefBot,
    /// Whether this turn more boards were consistent than its belief keeps (a sample
    /// kept, or a rebuild from guesses past its cap).
    pub overflowed: bool,
    /// Whether this turn no board was left, and the set was rebuilt from guesses.
    pub emptied: bool,
}

/// A replay that played every move of the game it was asked for.
pub(crate) struct Replayed<T> {
    /// The seed the bot was given.
    pub seed: u64,
    /// What the replay's callback kept, turn by turn.
    pub turns: Vec<T>,
}

/// Replays `side`'s belief bot over `game` up to ply `last_ply` under `budget` (see the
/// module's notes), calling `at` at each of its turns and keeping what it returns; the
/// first seed with which the bot plays every one of its moves up to `last_ply` wins.
/// `None` when the mover is not a belief bot that replays, `budget` carries a time or a
/// clock, the game has no seed, or no seed tried plays the game's moves.
pub(crate) fn replay<T>(
    game: &SavedGame,
    side: Color,
    budget: &Budget,
    last_ply: usize,
    mut at: impl FnMut(&Turn) -> Option<T>,
) -> Option<Replayed<T>> {
    if budget.time.is_some() || budget.clock.is_some() {
        return None;
    }
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
        let mut turns = Vec::new();
        // A bot that panics (as the arena would have recorded) replays nothing.
        let replayed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            replay_with(&mut bot, game, side, s, budget, last_ply, &mut |t| {
                turns.extend(at(t))
            })
        }));
        if matches!(replayed, Ok(true)) {
            return Some(Replayed { seed: s, turns });
        }
    }
    None
}

/// Replays `bot` as `side` with `seed` up to `last_ply`, calling `at` at each of its
/// turns; false as soon as it plays another move than the game's.
fn replay_with(
    bot: &mut BeliefBot,
    game: &SavedGame,
    side: Color,
    seed: u64,
    budget: &Budget,
    last_ply: usize,
    at: &mut dyn FnMut(&Turn),
) -> bool {
    let rules = game.rules;
    let start = GameStart::new(side, rules, seed).with_position(game.start.clone());
    bot.player().start(&start);
    let mut play = Game::new(game.start.clone(), rules);
    let mut slot: Option<Observation> = None;
    for (i, m) in game.moves.iter().enumerate().take(last_ply) {
        if play.position().turn() == side {
            let obs = Observation::for_game(&mut slot, &play);
            let before = (bot.log().overflows, bot.log().empties);
            if bot.player().choose(obs, budget) != *m {
                return false;
            }
            let log = bot.log();
            at(&Turn {
                ply: i + 1,
                truth: play.position(),
                bot,
                overflowed: log.overflows > before.0,
                emptied: log.empties > before.1,
            });
        }
        play.play(m);
    }
    true
}

/// For each ply of `plies` (1-based moves of `side`, increasing), the true position's
/// weight in `side`'s own belief when it chose that move, relative to the mean weight of
/// its boards (0 when the belief left it out); `None` when the mover is not a belief bot
/// whose belief replays (see the module's notes). Replayed without a node budget.
pub fn replay_belief(game: &SavedGame, side: Color, plies: &[usize]) -> Option<Vec<f64>> {
    let last_ply = plies.iter().copied().max().unwrap_or(0);
    let replayed = replay(game, side, &Budget::default(), last_ply, |t| {
        plies
            .contains(&t.ply)
            .then(|| (t.ply, truth_weight(t.bot.belief(), t.truth, &game.rules)))
    })?;
    let weight = |p: usize| {
        replayed
            .turns
            .iter()
            .find(|(q, _)| *q == p)
            .map(|(_, w)| *w)
    };
    Some(plies.iter().map(|&p| weight(p).unwrap_or(0.0)).collect())
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
