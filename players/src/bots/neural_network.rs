//! `NeuralNetworkPlayer`: the thesis's move network, run in plain Rust: fow's own trained
//! network by default, the thesis's own network with `weights=thesis`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::SystemTime;

use fow_variants::{Move, Observation, Role};
use rand::{Rng, SeedableRng};

use super::{unseeded, BotRng};
use crate::nn::encode::{active_inputs, observation_codes, oriented};
use crate::nn::{Activation, Activations, Network, NetworkError};
use crate::param::Param;
use crate::player::{Budget, GameStart, Player};
use crate::spec::{PlayerSpec, SpecError};

/// The shipped weights: trained on PossibleBoardList's decisions (`results/nn-training/`).
static DEFAULT_WEIGHTS: &[u8] = include_bytes!("../../params/nn-default.safetensors");
/// The shipped architecture, beside the weights.
static DEFAULT_JSON: &str = include_str!("../../params/nn-default.json");

static DEFAULT_NETWORK: LazyLock<Arc<Network>> = LazyLock::new(|| {
    Arc::new(
        Network::from_bytes(DEFAULT_WEIGHTS, Some(DEFAULT_JSON))
            .expect("the shipped network (players/params/nn-default.*) is valid"),
    )
});

/// The thesis's own network, converted once from its `nn.txt` by
/// [`crate::nn::thesis::convert`] (architecture in the file's metadata).
static THESIS_WEIGHTS: &[u8] = include_bytes!("../../../data/thesis/nn-thesis.safetensors");

static THESIS_NETWORK: LazyLock<Arc<Network>> = LazyLock::new(|| {
    Arc::new(
        Network::from_bytes(THESIS_WEIGHTS, None)
            .expect("the shipped thesis network (data/thesis/nn-thesis.safetensors) is valid"),
    )
});

/// The `weights` value naming fow's shipped network (also the default).
pub const DEFAULT_WEIGHTS_NAME: &str = "default";
/// The `weights` value naming the thesis's own network.
pub const THESIS_WEIGHTS_NAME: &str = "thesis";

/// Networks loaded with `weights=PATH`, so a tournament reads each file once (keyed by
/// path, modification time and length, so a rewritten file is read again).
type CacheKey = (PathBuf, Option<SystemTime>, u64);
static LOADED: LazyLock<Mutex<HashMap<CacheKey, Arc<Network>>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// The thesis's neural-network player. It captures the king when it can; otherwise it
/// runs the move network on its observation (see [`crate::nn`]) and scores each legal
/// move by log_softmax(from logits)\[from\] + log_softmax(to logits)\[to\] (squares from
/// the mover's point of view; a promotion counts only as a queen, other promotion pieces
/// are never played). At temperature 0 it plays the best score (ties drawn uniformly at
/// random); at temperature T > 0 it draws a move with probability proportional to
/// exp(score / T).
///
/// With a sigmoid network (the thesis's own, `weights=thesis`) it follows the thesis's
/// rule instead: at temperature 0, over the legal moves in generation order, the first
/// move with the largest `res[from] * res[64 + to]`, the moves in fow's generation order
/// (the thesis's own order is not known; only exact ties depend on it); its scores, for
/// temperature T > 0, are ln(res\[from\]) + ln(res\[64 + to\]).
///
/// Parameters: `weights` (`default`: fow's shipped network; `thesis`: the thesis's own
/// network, `data/thesis/nn-thesis.safetensors`; else the path of a `.safetensors`
/// file, its architecture in `PATH` with extension `.json` or in the file's metadata)
/// and `temperature=T` (default 0).
pub struct NeuralNetworkPlayer {
    net: Arc<Network>,
    temperature: f64,
    rng: BotRng,
    active: Vec<usize>,
    act: Activations,
    scores: Vec<f64>,
}

/// NeuralNetworkPlayer's parameters (`fow players` lists them).
pub const PARAMS: &[Param] = &[
    Param::text(
        "weights",
        "default",
        "default (fow's network, trained on PossibleBoardList's moves), thesis (the thesis's own network, converted from its nn.txt, with its move rule) or a .safetensors file (architecture in the .json beside it or in its metadata)",
    ),
    TEMPERATURE,
];

const TEMPERATURE: Param = Param::real(
    "temperature",
    0.0,
    0.0,
    f64::INFINITY,
    "0 plays the best move; T > 0 draws a move with probability proportional to exp(score / T)",
);

impl NeuralNetworkPlayer {
    /// A player using `net` at `temperature` (0 for the best move; must be finite and
    /// not negative).
    pub fn new(net: Arc<Network>, temperature: f64) -> Result<NeuralNetworkPlayer, NetworkError> {
        if !(temperature.is_finite() && temperature >= 0.0) {
            return Err(NetworkError(format!(
                "temperature must be a number at least 0, not {temperature}"
            )));
        }
        Ok(NeuralNetworkPlayer {
            net,
            temperature,
            rng: unseeded(),
            active: Vec::with_capacity(128),
            act: Activations::default(),
            scores: Vec::with_capacity(64),
        })
    }

    /// The shipped network (`players/params/nn-default.safetensors`), parsed once.
    pub fn default_network() -> Arc<Network> {
        DEFAULT_NETWORK.clone()
    }

    /// The thesis's own network (`data/thesis/nn-thesis.safetensors`, converted from the
    /// thesis's `nn.txt` by [`crate::nn::thesis`]), parsed once.
    pub fn thesis_network() -> Arc<Network> {
        THESIS_NETWORK.clone()
    }

    /// The network a `weights` value names: `default` ([`Self::default_network`]),
    /// `thesis` ([`Self::thesis_network`]), or the path of a file
    /// ([`Self::load_network`]; write `./thesis` for a file of that name).
    pub fn named_network(value: &str) -> Result<Arc<Network>, NetworkError> {
        match value {
            DEFAULT_WEIGHTS_NAME => Ok(Self::default_network()),
            THESIS_WEIGHTS_NAME => Ok(Self::thesis_network()),
            path => Self::load_network(Path::new(path)),
        }
    }

    /// The network of `path`, read once per process (per modification time).
    pub fn load_network(path: &Path) -> Result<Arc<Network>, NetworkError> {
        let meta = std::fs::metadata(path)
            .map_err(|e| NetworkError(format!("{}: {e}", path.display())))?;
        let key = (path.to_path_buf(), meta.modified().ok(), meta.len());
        if let Some(net) = LOADED.lock().expect("cache lock").get(&key) {
            return Ok(net.clone());
        }
        let net = Arc::new(Network::load(path)?);
        LOADED.lock().expect("cache lock").insert(key, net.clone());
        Ok(net)
    }

    /// The player a spec describes (`weights`, `temperature`).
    pub fn from_spec(spec: &PlayerSpec) -> Result<NeuralNetworkPlayer, SpecError> {
        let bad = |message: String| SpecError::BadParam {
            bot: spec.name.clone(),
            message,
        };
        let net = match spec.param("weights") {
            None => Self::default_network(),
            Some(value) => Self::named_network(value).map_err(|e| bad(e.0))?,
        };
        let temperature = TEMPERATURE.read_real(spec)?;
        NeuralNetworkPlayer::new(net, temperature).map_err(|e| bad(e.0))
    }

    /// The network this player uses.
    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    /// The score of every move of `obs.legal_moves()`, in that order: the sum of the
    /// origin's and the destination's log-probabilities (for a sigmoid network the logs
    /// of its two outputs, ln(res\[from\] * res\[64 + to\])); `-inf` for promotions to
    /// anything but a queen.
    pub fn move_scores(&mut self, obs: &Observation) -> &[f64] {
        let mover = obs.color();
        let (now, prev) = observation_codes(obs);
        let previous = self.net.architecture().previous;
        active_inputs(&now, previous.then_some(&prev), &mut self.active);
        let logits = self.net.forward(&self.active, &mut self.act);
        let (from, to) = logits.split_at(64);
        let (lse_from, lse_to) = match self.net.architecture().activation {
            Activation::Relu => (log_sum_exp(from), log_sum_exp(to)),
            // Outputs already in (0, 1): their logs, not a softmax.
            Activation::Sigmoid => (0.0, 0.0),
        };
        let ln = |v: f32| match self.net.architecture().activation {
            Activation::Relu => f64::from(v),
            Activation::Sigmoid => f64::from(v).ln(),
        };
        self.scores.clear();
        for m in obs.legal_moves() {
            self.scores.push(match m.promotion {
                Some(r) if r != Role::Queen => f64::NEG_INFINITY,
                _ => {
                    ln(from[oriented(m.from, mover)]) - lse_from + ln(to[oriented(m.to, mover)])
                        - lse_to
                }
            });
        }
        &self.scores
    }

    /// The thesis's decision among `moves` (the legal moves, none a king capture): the
    /// first move with the largest `res[from] * res[64 + to]`, starting from -1, a
    /// strictly greater product replacing the move kept.
    ///
    /// **Generation order.** The thesis's code ran this over its own move list; fow keeps
    /// no record of that list's order (which is why fow's greedy thesis bots break their
    /// ties uniformly at random rather than by order, README "The five greedy bots"), so
    /// the moves are taken in fow's generation order, [`Observation::legal_moves`]
    /// (knights, bishops, rooks, queens, king, pawn pushes, pawn captures, castling;
    /// targets by ascending square). The order decides only exact ties of the product
    /// between moves of different squares, which a real-valued network all but never
    /// makes (none in the positions of `players/tests/thesis_network.rs`); moves of the
    /// same squares differ only in the promotion piece, and the queen, listed first,
    /// is kept, the piece the thesis's rules allow.
    fn thesis_choice(&mut self, obs: &Observation) -> Move {
        let mover = obs.color();
        let (now, prev) = observation_codes(obs);
        let previous = self.net.architecture().previous;
        active_inputs(&now, previous.then_some(&prev), &mut self.active);
        let res = self.net.forward(&self.active, &mut self.act);
        let mut best = -1.0f64;
        let mut choice = Move::NULL;
        for m in obs.legal_moves() {
            let p = self
                .net
                .move_score(res, oriented(m.from, mover), oriented(m.to, mover));
            if p > best {
                best = p;
                choice = *m;
            }
        }
        choice
    }
}

impl Default for NeuralNetworkPlayer {
    /// The shipped network at temperature 0.
    fn default() -> Self {
        NeuralNetworkPlayer::new(Self::default_network(), 0.0).expect("temperature 0 is valid")
    }
}

/// log(sum(exp(x))), computed stably in f64.
fn log_sum_exp(x: &[f32]) -> f64 {
    let max = x.iter().fold(f32::NEG_INFINITY, |a, &b| a.max(b)) as f64;
    max + x
        .iter()
        .map(|&v| (f64::from(v) - max).exp())
        .sum::<f64>()
        .ln()
}

impl Player for NeuralNetworkPlayer {
    fn start(&mut self, game: &GameStart) {
        self.rng = BotRng::seed_from_u64(game.seed);
    }

    fn choose(&mut self, obs: &Observation, _: &Budget) -> Move {
        let moves = obs.legal_moves();
        if moves.is_empty() {
            return Move::NULL;
        }
        if let Some(m) = moves.iter().find(|m| m.captures_king()) {
            return *m;
        }
        let thesis_rule = self.net.architecture().activation == Activation::Sigmoid;
        if thesis_rule && self.temperature == 0.0 {
            return self.thesis_choice(obs);
        }
        self.move_scores(obs);
        if self.temperature == 0.0 {
            let mut i = 0;
            let scores = &self.scores;
            let best = crate::pick::best_move(moves, &mut self.rng, |_| {
                i += 1;
                scores[i - 1]
            });
            return best.unwrap_or(Move::NULL);
        }
        // exp((score - best) / T): the same distribution, without overflow.
        let best = self.scores.iter().fold(f64::NEG_INFINITY, |a, &b| a.max(b));
        let mut total = 0.0;
        for s in &mut self.scores {
            *s = ((*s - best) / self.temperature).exp();
            total += *s;
        }
        let mut x = self.rng.random::<f64>() * total;
        for (m, w) in moves.iter().zip(&self.scores) {
            if x < *w {
                return *m;
            }
            x -= w;
        }
        // Rounding left x just above the last weight: the last move with any weight.
        let i = self
            .scores
            .iter()
            .rposition(|&w| w > 0.0)
            .expect("one weight is 1");
        moves[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::encode::VIEW_INPUTS;
    use crate::nn::Architecture;
    use fow_variants::{Color, Game, Position, RuleSet, Square};

    use super::super::test_observation as obs;

    /// The shipped network is the trained one (`results/nn-training/`): the thesis's
    /// architecture, and not a network of random weights.
    #[test]
    fn shipped_network_is_the_trained_one() {
        let net = NeuralNetworkPlayer::default_network();
        assert_eq!(net.architecture(), &Architecture::thesis());
        let random = Network::random(Architecture::thesis(), 2023).unwrap();
        assert_ne!(random.to_safetensors().unwrap(), DEFAULT_WEIGHTS);
        let json: serde_json::Value = serde_json::from_str(DEFAULT_JSON).unwrap();
        assert!(json.get("note").is_none(), "{json}");
    }

    /// A network that ignores its input: all weights 0, the last bias prefers origin
    /// `from` and destination `to` (oriented squares).
    fn biased(from: Square, to: Square) -> Arc<Network> {
        let arch = Architecture::thesis();
        let mut layers: Vec<(Vec<f32>, Vec<f32>)> = arch
            .layer_shapes()
            .iter()
            .map(|&(i, o)| (vec![0.0; i * o], vec![0.0; o]))
            .collect();
        let last = &mut layers.last_mut().unwrap().1;
        last[from as usize] = 5.0;
        last[64 + to as usize] = 5.0;
        Arc::new(Network::from_layers(arch, layers).unwrap())
    }

    #[test]
    fn plays_the_best_move_from_the_movers_side() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let mut bot = NeuralNetworkPlayer::new(biased(Square::E2, Square::E4), 0.0).unwrap();
        bot.start(&GameStart::new(Color::White, RuleSet::thesis(), 1));
        assert_eq!(bot.choose(&obs(start), &Budget::default()).uci(), "e2e4");
        // Black's oriented e2e4 is e7e5.
        let black = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        bot.start(&GameStart::new(Color::Black, RuleSet::thesis(), 1));
        assert_eq!(bot.choose(&obs(black), &Budget::default()).uci(), "e7e5");
        // Both of Black's squares oriented: e7 is its e2, e5 its e4, each log-probability
        // 5 - ln(e^5 + 63).
        let ob = obs(black);
        let e7e5 = ob
            .legal_moves()
            .iter()
            .position(|m| m.uci() == "e7e5")
            .unwrap();
        let want = 2.0 * (5.0 - (5f64.exp() + 63.0).ln());
        assert!((bot.move_scores(&ob)[e7e5] - want).abs() < 1e-6);
        // Scores are log-probabilities: exp sums to at most 1 over the legal moves.
        let o = obs(start);
        let total: f64 = bot.move_scores(&o).iter().map(|s| s.exp()).sum();
        assert!(total > 0.0 && total <= 1.0 + 1e-9, "{total}");
        let e2e4 = o
            .legal_moves()
            .iter()
            .position(|m| m.uci() == "e2e4")
            .unwrap();
        let best = bot.move_scores(&o)[e2e4];
        assert!(bot.move_scores(&o).iter().all(|&s| s <= best));
    }

    #[test]
    fn captures_the_king_and_promotes_to_a_queen() {
        let mut bot = NeuralNetworkPlayer::new(biased(Square::A2, Square::A3), 0.0).unwrap();
        bot.start(&GameStart::new(Color::White, RuleSet::thesis(), 1));
        let o = obs("3k4/8/8/8/8/8/P7/q2R2K1 w - - 0 1");
        assert_eq!(bot.choose(&o, &Budget::default()).uci(), "d1d8");
        // Under chess.com rules b7-b8 has four promotions; only the queen is played.
        let mut bot = NeuralNetworkPlayer::new(biased(Square::B7, Square::B8), 1.0).unwrap();
        let pos: Position = "8/1P5k/8/8/8/8/8/K7 w - - 0 1".parse().unwrap();
        let o = Observation::new(&pos, &RuleSet::chesscom(), 10, None);
        for seed in 0..30 {
            bot.start(&GameStart::new(Color::White, RuleSet::chesscom(), seed));
            let m = bot.choose(&o, &Budget::default());
            assert!(m.promotion.is_none() || m.uci() == "b7b8q", "{m}");
        }
    }

    /// A game of `bot` (White) against itself as Black, from seeds; the moves in UCI.
    fn self_play(make: &dyn Fn() -> NeuralNetworkPlayer, rules: RuleSet, seed: u64) -> Vec<String> {
        let mut players = [make(), make()];
        players[0].start(&GameStart::new(Color::White, rules, seed));
        players[1].start(&GameStart::new(Color::Black, rules, seed + 1));
        let mut game = Game::new(Position::startpos(), rules);
        let mut obs: [Option<Observation>; 2] = [None, None];
        let mut out = Vec::new();
        for _ in 0..200 {
            let i = game.position().turn() as usize;
            let o = Observation::for_game(&mut obs[i], &game);
            if o.move_count() == 0 {
                break;
            }
            let m = players[i].choose(o, &Budget::default());
            assert!(o.is_legal(&m), "{m} in {}", game.position());
            out.push(m.uci());
            let end = game.play(&m);
            if end.is_some() {
                break;
            }
        }
        out
    }

    #[test]
    fn plays_legal_games_deterministically_per_seed() {
        let prev = Architecture {
            inputs: 2 * VIEW_INPUTS,
            previous: true,
            hidden: vec![32],
            outputs: 128,
            activation: Default::default(),
        };
        let with_prev = Arc::new(Network::random(prev, 9).unwrap());
        for rules in [RuleSet::thesis(), RuleSet::chesscom()] {
            for t in [0.0, 1.0] {
                let shipped = move || {
                    NeuralNetworkPlayer::new(NeuralNetworkPlayer::default_network(), t).unwrap()
                };
                let other = || NeuralNetworkPlayer::new(with_prev.clone(), t).unwrap();
                for make in [&shipped as &dyn Fn() -> _, &other] {
                    let a = self_play(make, rules, 4);
                    assert!(a.len() > 4);
                    assert_eq!(a, self_play(make, rules, 4));
                    let varies = (5..10).any(|s| self_play(make, rules, s) != a);
                    // Only sampling depends on the seed (random networks have no ties).
                    assert_eq!(varies, t > 0.0, "temperature {t}");
                }
            }
        }
    }

    #[test]
    fn temperature_spreads_the_moves() {
        let o = obs("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let net = biased(Square::E2, Square::E4);
        let mut counts: HashMap<String, u32> = HashMap::new();
        let mut bot = NeuralNetworkPlayer::new(net.clone(), 2.0).unwrap();
        bot.start(&GameStart::new(Color::White, RuleSet::thesis(), 7));
        for _ in 0..2000 {
            *counts
                .entry(bot.choose(&o, &Budget::default()).uci())
                .or_default() += 1;
        }
        assert_eq!(counts.len(), 20, "{counts:?}");
        // e2e4 scores 10 / 2 = 5 above moves that share neither square: far the likeliest.
        let top = counts.iter().max_by_key(|(_, &c)| c).unwrap().0;
        assert_eq!(top, "e2e4");
        // Probabilities follow exp(score / T): e2e3 and d2d4 share one square (+2.5).
        let p = |m: &str| f64::from(counts[m]) / 2000.0;
        let scores = bot.move_scores(&o).to_vec();
        let idx = |m: &str| o.legal_moves().iter().position(|x| x.uci() == m).unwrap();
        let z: f64 = scores.iter().map(|s| (s / 2.0).exp()).sum();
        for m in ["e2e4", "e2e3", "a2a3"] {
            let want = (scores[idx(m)] / 2.0).exp() / z;
            assert!((p(m) - want).abs() < 0.04, "{m}: {} vs {want}", p(m));
        }
        // Temperature 0 never varies.
        let mut cold = NeuralNetworkPlayer::new(net, 0.0).unwrap();
        for seed in 0..20 {
            cold.start(&GameStart::new(Color::White, RuleSet::thesis(), seed));
            assert_eq!(cold.choose(&o, &Budget::default()).uci(), "e2e4");
        }
        assert!(NeuralNetworkPlayer::new(NeuralNetworkPlayer::default_network(), -1.0).is_err());
    }

    /// A sigmoid network that ignores its input: every output is sigmoid(`bias`), except
    /// those of `favour` (fow output indices), sigmoid(`bias` + 1).
    fn flat_sigmoid(favour: &[usize]) -> Arc<Network> {
        let arch = Architecture::thesis_sigmoid();
        let mut layers: Vec<(Vec<f32>, Vec<f32>)> = arch
            .layer_shapes()
            .iter()
            .map(|&(i, o)| (vec![0.0; i * o], vec![0.0; o]))
            .collect();
        for &o in favour {
            layers.last_mut().unwrap().1[o] = 1.0;
        }
        Arc::new(Network::from_layers(arch, layers).unwrap())
    }

    #[test]
    fn a_sigmoid_network_plays_the_first_move_of_the_largest_product() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let o = obs(start);
        // Every product equal: the first legal move, whatever the seed.
        let mut bot = NeuralNetworkPlayer::new(flat_sigmoid(&[]), 0.0).unwrap();
        for seed in 0..10 {
            bot.start(&GameStart::new(Color::White, RuleSet::thesis(), seed));
            assert_eq!(bot.choose(&o, &Budget::default()), o.legal_moves()[0]);
        }
        // Origins g1 and e2 favoured alike, destination f3 and e4 too: g1f3 and e2e4 tie
        // and the knight, generated first, is kept.
        let favour = [
            Square::G1 as usize,
            Square::E2 as usize,
            64 + Square::F3 as usize,
            64 + Square::E4 as usize,
        ];
        let mut bot = NeuralNetworkPlayer::new(flat_sigmoid(&favour), 0.0).unwrap();
        bot.start(&GameStart::new(Color::White, RuleSet::thesis(), 3));
        assert_eq!(bot.choose(&o, &Budget::default()).uci(), "g1f3");
        // Black: oriented squares, so White's g1f3 is Black's g8f6.
        let black = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        bot.start(&GameStart::new(Color::Black, RuleSet::thesis(), 3));
        assert_eq!(bot.choose(&obs(black), &Budget::default()).uci(), "g8f6");
        // Scores are ln(res[from]) + ln(res[64 + to]).
        let s = |x: f64| (1.0 / (1.0 + (-x).exp())).ln();
        let scores = bot.move_scores(&o).to_vec();
        let idx = |m: &str| o.legal_moves().iter().position(|x| x.uci() == m).unwrap();
        assert!((scores[idx("g1f3")] - 2.0 * s(1.0)).abs() < 1e-6);
        assert!((scores[idx("a2a3")] - 2.0 * s(0.0)).abs() < 1e-6);
        assert!((scores[idx("e2e3")] - s(1.0) - s(0.0)).abs() < 1e-6);
        // The king capture comes first.
        let o = obs("3k4/8/8/8/8/8/P7/q2R2K1 w - - 0 1");
        assert_eq!(bot.choose(&o, &Budget::default()).uci(), "d1d8");
    }

    #[test]
    fn weights_names_the_shipped_networks() {
        let build = |text: &str| {
            NeuralNetworkPlayer::from_spec(&text.parse::<PlayerSpec>().unwrap()).unwrap()
        };
        let default = build("NeuralNetworkPlayer:weights=default");
        assert!(Arc::ptr_eq(
            default.network(),
            &NeuralNetworkPlayer::default_network()
        ));
        assert!(Arc::ptr_eq(
            build("NeuralNetworkPlayer").network(),
            default.network()
        ));
        let thesis = build("NeuralNetworkPlayer:weights=thesis");
        assert!(Arc::ptr_eq(
            thesis.network(),
            &NeuralNetworkPlayer::thesis_network()
        ));
        assert_eq!(
            thesis.network().architecture(),
            &Architecture::thesis_sigmoid()
        );
        // The shipped thesis file is the thesis's network, not fow's.
        assert_ne!(THESIS_WEIGHTS, DEFAULT_WEIGHTS);
        let shipped = || NeuralNetworkPlayer::default();
        let thesis = || build("NeuralNetworkPlayer:weights=thesis");
        let a = self_play(&thesis, RuleSet::thesis(), 1);
        assert_eq!(a, self_play(&thesis, RuleSet::thesis(), 2));
        assert_ne!(a, self_play(&shipped, RuleSet::thesis(), 1));
        // A missing file is still an error naming it.
        let e = NeuralNetworkPlayer::named_network("thesis.safetensors")
            .unwrap_err()
            .0;
        assert!(e.contains("thesis.safetensors"), "{e}");
    }

    #[test]
    fn spec_parameters() {
        let dir = std::env::temp_dir().join(format!("fow-nn-bot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("w.safetensors");
        let net = Arc::new(Network::random(Architecture::thesis(), 77).unwrap());
        net.save_safetensors(&path).unwrap();
        let spec: PlayerSpec = format!("NeuralNetworkPlayer:weights={}", path.display())
            .parse()
            .unwrap();
        let from_file = || NeuralNetworkPlayer::from_spec(&spec).unwrap();
        let direct = || NeuralNetworkPlayer::new(net.clone(), 0.0).unwrap();
        let shipped = || NeuralNetworkPlayer::default();
        let a = self_play(&from_file, RuleSet::thesis(), 1);
        assert_eq!(a, self_play(&direct, RuleSet::thesis(), 1));
        assert_ne!(a, self_play(&shipped, RuleSet::thesis(), 1));
        assert!(spec.build().is_ok());
        let bad: PlayerSpec = "NeuralNetworkPlayer:weights=/nonexistent/n.safetensors"
            .parse()
            .unwrap();
        let e = bad.build().err().unwrap().to_string();
        assert!(e.contains("/nonexistent/n.safetensors"), "{e}");
        for t in ["-1", "x", "inf"] {
            let s: PlayerSpec = format!("NeuralNetworkPlayer:temperature={t}")
                .parse()
                .unwrap();
            assert!(s.build().is_err(), "{t}");
        }
        let s: PlayerSpec = "NeuralNetworkPlayer:temperature=0.5".parse().unwrap();
        assert!(s.build().is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
