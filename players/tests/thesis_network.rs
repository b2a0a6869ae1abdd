//! `NeuralNetworkPlayer:weights=thesis` against a direct reading of the thesis's `nn.txt`.
//!
//! The file is not in the repository (2.3 MB; only its conversion,
//! `data/thesis/nn-thesis.safetensors`, is): the tests read it from
//! `../shared/data/thesis/nn.txt` beside the repository and say "skipped" when it is not
//! there. Everything about the thesis's format here is written from its README
//! (`../shared/data/thesis/README.md`), independently of `fow_players::nn::thesis`:
//! the graph is evaluated node by node in f64, the input built square by square from the
//! fog view, the output read reversed.

use std::path::PathBuf;

use fow_players::bots::NeuralNetworkPlayer;
use fow_players::nn::encode::{active_inputs, observation_codes, oriented};
use fow_players::nn::thesis::{convert, ThesisGraph};
use fow_players::{Budget, GameStart, PlayerSpec};
use fow_variants::shakmaty::{File, Rank};
use fow_variants::{Color, Game, Move, Observation, Position, Role, RuleSet, Square};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// `../shared/data/thesis/nn.txt` relative to the repository root.
fn nn_txt() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/thesis/nn.txt")
}

/// The text of nn.txt, or `None` after printing why the test is skipped.
fn read_nn_txt(test: &str) -> Option<String> {
    let path = nn_txt();
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(e) => {
            eprintln!(
                "{test}: skipped: the thesis's network {} cannot be read ({e}); it lives in \
                 ../shared/data/thesis/ beside the repository",
                path.display()
            );
            None
        }
    }
}

/// The graph of nn.txt exactly as its README describes it.
struct Graph {
    edges: Vec<Vec<(usize, usize)>>,
    act: Vec<u32>,
    bias: Vec<f64>,
    w: Vec<f64>,
}

fn read_graph(text: &str) -> Graph {
    let mut t = text.split_whitespace();
    let mut next = || t.next().expect("nn.txt is complete");
    let n: usize = next().parse().unwrap();
    let m: usize = next().parse().unwrap();
    let edges = (0..n)
        .map(|_| {
            let q: usize = next().parse().unwrap();
            (0..q)
                .map(|_| (next().parse().unwrap(), next().parse().unwrap()))
                .collect()
        })
        .collect();
    let act = (0..n).map(|_| next().parse().unwrap()).collect();
    let bias = (0..n).map(|_| next().parse().unwrap()).collect();
    let w = (0..m).map(|_| next().parse().unwrap()).collect();
    assert!(t.next().is_none(), "nothing follows the weights");
    Graph {
        edges,
        act,
        bias,
        w,
    }
}

impl Graph {
    /// Nodes in index order: value = act(Σ w[wid]·value[from] + bias) for sigmoid/relu,
    /// the input itself for activation 0. Returns `res`, the node values reversed.
    fn eval(&self, input: &[f64]) -> Vec<f64> {
        let n = self.edges.len();
        let mut value = vec![0.0f64; n];
        for i in 0..n {
            if self.act[i] == 0 {
                assert!(self.edges[i].is_empty());
                value[i] = input[i];
                continue;
            }
            let sum: f64 = self.edges[i]
                .iter()
                .map(|&(from, wid)| self.w[wid] * value[from])
                .sum::<f64>()
                + self.bias[i];
            value[i] = match self.act[i] {
                1 => 1.0 / (1.0 + (-sum).exp()),
                2 => sum.max(0.0),
                a => panic!("activation {a} is not used by the thesis's network"),
            };
        }
        assert_eq!(self.act.iter().take_while(|&&a| a == 0).count(), 896);
        // res[k] = node n-1-k, of which the first 128 are read.
        value.reverse();
        value.truncate(128);
        value
    }
}

/// The square at thesis row `row` (0 = the mover's far rank) and column `col` (file a..h):
/// for White row 0 is rank 8; for Black the rows are mirrored, so row 0 is rank 1.
fn square_at(row: usize, col: usize, mover: Color) -> Square {
    let rank = match mover {
        Color::White => 7 - row,
        Color::Black => row,
    };
    Square::from_coords(File::new(col as u32), Rank::new(rank as u32))
}

/// The thesis's 896 inputs of an observation: 14 per square, squares row by row from row
/// 0 (files a..h), one-hot over fog, empty, white P N B R Q K, black P N B R Q K, where
/// for Black the colours are swapped (the mover's pieces count as white).
fn thesis_input(obs: &Observation) -> Vec<f64> {
    let mover = obs.color();
    let view = obs.view();
    let mut x = vec![0.0; 896];
    for row in 0..8 {
        for col in 0..8 {
            let sq = square_at(row, col, mover);
            let k = if !view.visible().contains(sq) {
                0
            } else {
                match view.board().piece_at(sq) {
                    None => 1,
                    Some(p) => {
                        let white = (p.color == Color::White) == (mover == Color::White);
                        let role = [
                            Role::Pawn,
                            Role::Knight,
                            Role::Bishop,
                            Role::Rook,
                            Role::Queen,
                            Role::King,
                        ]
                        .iter()
                        .position(|&r| r == p.role)
                        .unwrap();
                        if white {
                            2 + role
                        } else {
                            8 + role
                        }
                    }
                }
            };
            x[(8 * row + col) * 14 + k] = 1.0;
        }
    }
    x
}

/// The thesis's square index of `sq` for the mover: 8 * row + col.
fn thesis_index(sq: Square, mover: Color) -> usize {
    let (file, rank) = (sq.file() as usize, sq.rank() as usize);
    let row = match mover {
        Color::White => 7 - rank,
        Color::Black => rank,
    };
    8 * row + file
}

/// The thesis's decision from its outputs: capture the king if possible; else the first
/// legal move (fow's order) with the largest res[from] * res[64 + to], from -1, strictly
/// greater replacing. Also returns whether the best product was tied by a move of other
/// squares.
fn thesis_decision(obs: &Observation, res: &[f64]) -> (Move, bool) {
    let moves = obs.legal_moves();
    if let Some(m) = moves.iter().find(|m| m.captures_king()) {
        return (*m, false);
    }
    let mover = obs.color();
    let score = |m: &Move| res[thesis_index(m.from, mover)] * res[64 + thesis_index(m.to, mover)];
    let mut best = -1.0;
    let mut choice = Move::NULL;
    for m in moves {
        if score(m) > best {
            best = score(m);
            choice = *m;
        }
    }
    let tied = moves
        .iter()
        .any(|m| (m.from, m.to) != (choice.from, choice.to) && score(m) == best);
    (choice, tied)
}

/// Observations of seeded random games under both rule sets, with the start position
/// for both colours first.
fn positions(games: usize) -> Vec<Observation> {
    let mut out = Vec::new();
    let start = Position::startpos();
    let black_start: Position = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"
        .parse()
        .unwrap();
    out.push(Observation::new(&start, &RuleSet::thesis(), 0, None));
    out.push(Observation::new(&black_start, &RuleSet::thesis(), 0, None));
    let mut rng = Pcg64Mcg::seed_from_u64(31);
    for g in 0..games {
        let rules = if g % 2 == 0 {
            RuleSet::thesis()
        } else {
            RuleSet::chesscom()
        };
        let mut game = Game::new(Position::startpos(), rules);
        let mut slots: [Option<Observation>; 2] = [None, None];
        for _ in 0..rng.random_range(10..160) {
            let i = game.position().turn() as usize;
            let o = Observation::for_game(&mut slots[i], &game);
            if o.move_count() == 0 {
                break;
            }
            out.push(o.clone());
            let m = o.nth_move(rng.random_range(0..o.move_count())).unwrap();
            if game.play(&m).is_some() {
                break;
            }
        }
    }
    out
}

#[test]
fn the_converted_network_equals_a_direct_reading_of_nn_txt() {
    let Some(text) = read_nn_txt("the_converted_network_equals_a_direct_reading_of_nn_txt") else {
        return;
    };
    let graph = read_graph(&text);
    let net = NeuralNetworkPlayer::thesis_network();
    // The shipped file is the conversion of nn.txt, byte for byte.
    let converted = convert(&ThesisGraph::parse(&text).unwrap()).unwrap();
    assert!(
        converted.to_safetensors().unwrap()
            == std::fs::read(
                PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                    .join("../data/thesis/nn-thesis.safetensors")
            )
            .unwrap(),
        "data/thesis/nn-thesis.safetensors is not the conversion of nn.txt: rerun the \
         convert_thesis_nn example"
    );

    let obs = positions(12);
    assert!(obs.len() >= 20, "{}", obs.len());
    let colours = |c| obs.iter().filter(|o| o.color() == c).count();
    assert!(colours(Color::White) >= 10 && colours(Color::Black) >= 10);
    let mut active = Vec::new();
    let mut max_diff = 0.0f64;
    for o in &obs {
        let res = graph.eval(&thesis_input(o));
        assert_eq!(res.len(), 128);
        let (now, _) = observation_codes(o);
        active_inputs(&now, None, &mut active);
        let out = net.forward_vec(&active);
        let mover = o.color();
        for sq in Square::ALL {
            let (t, f) = (thesis_index(sq, mover), oriented(sq, mover));
            for (ours, theirs) in [(out[f], res[t]), (out[64 + f], res[64 + t])] {
                max_diff = max_diff.max((f64::from(ours) - theirs).abs());
            }
        }
    }
    eprintln!(
        "{} positions ({} White, {} Black): largest difference {max_diff:.3e}",
        obs.len(),
        colours(Color::White),
        colours(Color::Black)
    );
    assert!(max_diff < 1e-5, "{max_diff}");
}

#[test]
fn weights_thesis_plays_the_thesis_decision() {
    let Some(text) = read_nn_txt("weights_thesis_plays_the_thesis_decision") else {
        return;
    };
    let graph = read_graph(&text);
    let spec: PlayerSpec = "NeuralNetworkPlayer:weights=thesis".parse().unwrap();
    let obs = positions(40);
    let (mut ties, mut kings) = (0, 0);
    for (i, o) in obs.iter().enumerate() {
        let (want, tied) = thesis_decision(o, &graph.eval(&thesis_input(o)));
        ties += usize::from(tied);
        kings += usize::from(want.captures_king());
        // A fresh player each time, with varying seeds: the rule draws nothing.
        let mut bot = spec.build().unwrap();
        bot.start(&GameStart::new(o.color(), *o.rules(), i as u64));
        let got = bot.choose(o, &Budget::default());
        assert_eq!(got, want, "position {i}: {:?}", o.view().board_fen());
    }
    eprintln!(
        "{} decisions equal the thesis rule's on nn.txt ({kings} king captures, {ties} with a \
         tie of the best product between moves of different squares)",
        obs.len()
    );
    assert_eq!(ties, 0);
}
