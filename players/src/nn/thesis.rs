//! The thesis's own move network: reading the `nn.txt` its code saved and converting it,
//! once, into fow's format (`data/thesis/nn-thesis.safetensors`, played as
//! `NeuralNetworkPlayer:weights=thesis`).
//!
//! ## `nn.txt` (described in `../shared/data/thesis/README.md`)
//! Plain text, one number per token: `n m` (nodes, weights); for each node its incoming
//! edges (`q`, then `q` pairs `from wid`); each node's activation (0 none, 1 sigmoid,
//! 2 relu, 3 max-pooling); each node's bias; the `m` weights. A node's value is
//! act(Σ w\[wid\]·value\[from\] + bias), nodes in index order. The thesis's file is 896
//! input nodes, then three fully connected sigmoid layers of 64, 64 and 128 nodes.
//!
//! ## How its layout maps onto fow's
//! - Squares: the thesis numbers a square `8 * row + col`, row 0 being the rank farthest
//!   from the mover (rank 8 for White; rows mirrored for Black), col 0 file a. fow's
//!   [`super::encode::oriented`] square is `8 * rank + file` from the mover's
//!   side (rank 0 nearest), so the thesis's index is fow's `^ 56` ([`thesis_square`]).
//! - Inputs: the thesis's input `14 * square + plane`, planes fog, empty, the mover's
//!   pawn..king, the opponent's pawn..king (for Black the colours are swapped, so "white"
//!   is always the mover): the plane codes of [`super::encode`]. fow's input is
//!   `64 * plane + square` ([`fow_input`]).
//! - Outputs: the thesis reads them reversed (`res[k]` = node `n - 1 - k`): `res[0..64]`
//!   scores the origin square, `res[64..128]` the destination, both by thesis square.
//!   fow's output `o` is the origin (`o < 64`) or destination (`o - 64`) of an oriented
//!   square ([`thesis_output`] gives the `res` index).
//!
//! [`convert`] permutes the first layer's inputs and the last layer's outputs accordingly
//! and rounds the f64 weights to f32, so that fow's encoding and forward pass give, for
//! every square, exactly the value the thesis's evaluation gives it (up to f32 rounding;
//! `players/tests/thesis_network.rs` checks this against a direct evaluation of `nn.txt`).
//!
//! ## Regenerating the shipped file
//! From the repository root, with the thesis data in `../shared/data/thesis/`:
//!
//! ```text
//! cargo run -p fow-players --example convert_thesis_nn -- \
//!     ../shared/data/thesis/nn.txt data/thesis/nn-thesis.safetensors
//! ```
//!
//! The conversion is deterministic; the test above also checks that converting `nn.txt`
//! again gives the shipped bytes.

use std::collections::HashSet;
use std::path::Path;

use fow_variants::{Color, Square};

use super::encode::{oriented, PLANES, VIEW_INPUTS};
use super::network::{Architecture, Network, NetworkError};

/// Where the converted network is shipped, relative to the repository root.
pub const SHIPPED_FILE: &str = "data/thesis/nn-thesis.safetensors";

/// The thesis's square index of `sq` for `mover`: `8 * row + col`, row 0 the rank farthest
/// from the mover (rank 8 for White, rank 1 for Black), col 0 file a.
#[inline]
pub fn thesis_square(sq: Square, mover: Color) -> usize {
    oriented(sq, mover) ^ 56
}

/// fow's input index of the thesis's input `14 * square + plane`.
#[inline]
pub fn fow_input(thesis_input: usize) -> usize {
    let (square, plane) = (thesis_input / PLANES, thesis_input % PLANES);
    plane * 64 + (square ^ 56)
}

/// The index into the thesis's output vector `res` of fow's output `o`: origin (`o < 64`)
/// or destination (`64 + s`) of oriented square `s`, which is `res[square]` or
/// `res[64 + square]` of the thesis's square `s ^ 56`.
#[inline]
pub fn thesis_output(o: usize) -> usize {
    (o / 64) * 64 + ((o % 64) ^ 56)
}

/// The `nn.txt` graph as the thesis's code saved it.
#[derive(Clone, Debug, PartialEq)]
pub struct ThesisGraph {
    /// Each node's incoming edges: `(from node, weight index)`.
    pub edges: Vec<Vec<(usize, usize)>>,
    /// Each node's activation code: 0 none, 1 sigmoid, 2 relu, 3 max-pooling.
    pub activations: Vec<u8>,
    /// Each node's bias.
    pub biases: Vec<f64>,
    /// The weights, by index.
    pub weights: Vec<f64>,
}

impl ThesisGraph {
    /// Parses the text of `nn.txt`; the message of an error says which number is wrong.
    pub fn parse(text: &str) -> Result<ThesisGraph, NetworkError> {
        let mut tokens = text.split_ascii_whitespace().enumerate();
        let mut next = |what: &str| -> Result<&str, NetworkError> {
            tokens
                .next()
                .map(|(_, t)| t)
                .ok_or_else(|| NetworkError(format!("nn.txt ends before {what}")))
        };
        fn num<T: std::str::FromStr>(t: &str, what: &str) -> Result<T, NetworkError> {
            t.parse()
                .map_err(|_| NetworkError(format!("nn.txt: {what} is '{t}', not a number")))
        }
        let n: usize = num(next("the node count")?, "the node count")?;
        let m: usize = num(next("the weight count")?, "the weight count")?;
        let mut edges = Vec::with_capacity(n);
        for i in 0..n {
            let what = format!("node {i}'s edge count");
            let q: usize = num(next(&what)?, &what)?;
            let mut e = Vec::with_capacity(q);
            for k in 0..q {
                let what = format!("edge {k} of node {i}");
                let from: usize = num(next(&what)?, &what)?;
                let wid: usize = num(next(&what)?, &what)?;
                if from >= n || wid >= m {
                    return Err(NetworkError(format!(
                        "nn.txt: {what} is ({from}, {wid}), outside {n} nodes and {m} weights"
                    )));
                }
                e.push((from, wid));
            }
            edges.push(e);
        }
        let mut activations = Vec::with_capacity(n);
        for i in 0..n {
            let what = format!("node {i}'s activation");
            activations.push(num(next(&what)?, &what)?);
        }
        let mut biases = Vec::with_capacity(n);
        for i in 0..n {
            let what = format!("node {i}'s bias");
            biases.push(num(next(&what)?, &what)?);
        }
        let mut weights = Vec::with_capacity(m);
        for i in 0..m {
            let what = format!("weight {i}");
            weights.push(num(next(&what)?, &what)?);
        }
        if let Some((k, t)) = tokens.next() {
            return Err(NetworkError(format!(
                "nn.txt: token {k} ('{t}') follows the last weight"
            )));
        }
        Ok(ThesisGraph {
            edges,
            activations,
            biases,
            weights,
        })
    }

    /// Reads and parses `path`.
    pub fn load(path: &Path) -> Result<ThesisGraph, NetworkError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| NetworkError(format!("{}: {e}", path.display())))?;
        ThesisGraph::parse(&text).map_err(|e| NetworkError(format!("{}: {}", path.display(), e.0)))
    }
}

/// The thesis's network in fow's form ([`Architecture::thesis_sigmoid`], inputs and
/// outputs permuted as the [module docs](self) say). Fails unless the graph is the
/// thesis's: 896 inputs (activation 0, no edges), then fully connected sigmoid layers of
/// 64, 64 and 128 nodes, each node fed by every node of the layer before exactly once.
pub fn convert(g: &ThesisGraph) -> Result<Network, NetworkError> {
    let arch = Architecture::thesis_sigmoid();
    let widths: Vec<usize> = std::iter::once(arch.inputs)
        .chain(arch.hidden.iter().copied())
        .chain(std::iter::once(arch.outputs))
        .collect();
    let n: usize = widths.iter().sum();
    if g.edges.len() != n {
        return Err(NetworkError(format!(
            "nn.txt has {} nodes, the thesis's network {n} (896 + 64 + 64 + 128)",
            g.edges.len()
        )));
    }
    // Node ranges of the layers, and for each layer's nodes the weight of each source.
    let mut starts = vec![0];
    for w in &widths {
        starts.push(starts.last().unwrap() + w);
    }
    for i in 0..widths[0] {
        if g.activations[i] != 0 || !g.edges[i].is_empty() {
            return Err(NetworkError(format!(
                "nn.txt: node {i} should be an input (activation 0, no edges)"
            )));
        }
    }
    let mut layers = Vec::new();
    for l in 1..widths.len() {
        let (src, dst) = (starts[l - 1]..starts[l], starts[l]..starts[l + 1]);
        let (n_in, n_out) = (widths[l - 1], widths[l]);
        let mut w = vec![0.0f32; n_in * n_out];
        let mut b = vec![0.0f32; n_out];
        for node in dst.clone() {
            if g.activations[node] != 1 {
                return Err(NetworkError(format!(
                    "nn.txt: node {node} has activation {}, the thesis's network a sigmoid (1)",
                    g.activations[node]
                )));
            }
            let sources: HashSet<usize> = g.edges[node].iter().map(|&(f, _)| f).collect();
            if g.edges[node].len() != n_in
                || sources.len() != n_in
                || !sources.iter().all(|f| src.contains(f))
            {
                return Err(NetworkError(format!(
                    "nn.txt: node {node} is not fed once by each of nodes {}..{}",
                    src.start, src.end
                )));
            }
            // fow's output index of this node (the last layer is read reversed).
            let out = node - dst.start;
            let out = if l + 1 == widths.len() {
                // res[k] = node n-1-k; fow's output o reads res[thesis_output(o)].
                // thesis_output is its own inverse.
                thesis_output(n - 1 - node)
            } else {
                out
            };
            b[out] = g.biases[node] as f32;
            for &(from, wid) in &g.edges[node] {
                let i = from - src.start;
                let i = if l == 1 { fow_input(i) } else { i };
                w[out * n_in + i] = g.weights[wid] as f32;
            }
        }
        layers.push((w, b));
    }
    debug_assert_eq!(widths[0], VIEW_INPUTS);
    Network::from_layers(arch, layers)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::network::OUTPUTS;

    #[test]
    fn thesis_squares_count_from_the_far_rank() {
        // White: row 0 is rank 8.
        assert_eq!(thesis_square(Square::A8, Color::White), 0);
        assert_eq!(thesis_square(Square::H8, Color::White), 7);
        assert_eq!(thesis_square(Square::A1, Color::White), 56);
        assert_eq!(thesis_square(Square::E2, Color::White), 8 * 6 + 4);
        // Black: rows mirrored, so row 0 is rank 1.
        assert_eq!(thesis_square(Square::A1, Color::Black), 0);
        assert_eq!(thesis_square(Square::H8, Color::Black), 63);
        assert_eq!(thesis_square(Square::E7, Color::Black), 8 * 6 + 4);
        assert_eq!(thesis_square(Square::D1, Color::Black), 3);
    }

    #[test]
    fn index_maps_are_permutations() {
        let inputs: HashSet<usize> = (0..VIEW_INPUTS).map(fow_input).collect();
        assert_eq!(inputs.len(), VIEW_INPUTS);
        assert!(inputs.iter().all(|&i| i < VIEW_INPUTS));
        // The thesis's "empty" plane of its square 0 (a8 for White) is fow's plane 1 of a8.
        assert_eq!(fow_input(1), 64 + Square::A8 as usize);
        assert_eq!(fow_input(14 * 63 + 13), 13 * 64 + Square::H1 as usize);
        let outputs: HashSet<usize> = (0..OUTPUTS).map(thesis_output).collect();
        assert_eq!(outputs.len(), OUTPUTS);
        assert!((0..OUTPUTS).all(|o| thesis_output(thesis_output(o)) == o));
        // fow's origin e2 (White) is the thesis's res[52], destination e4 res[64 + 36].
        assert_eq!(thesis_output(Square::E2 as usize), 52);
        assert_eq!(thesis_output(64 + Square::E4 as usize), 64 + 36);
    }

    /// A tiny graph in the thesis's format with every weight and bias distinct.
    fn small_text(n_hidden_first: usize) -> String {
        let widths = [896, n_hidden_first, 64, 128];
        let n: usize = widths.iter().sum();
        let mut lines = Vec::new();
        let mut wid = 0;
        let mut edges = Vec::new();
        let mut start = 0;
        for l in 0..4 {
            for _ in 0..widths[l] {
                if l == 0 {
                    edges.push("0".to_string());
                    continue;
                }
                let src = start - widths[l - 1]..start;
                let mut e = vec![widths[l - 1].to_string()];
                for f in src {
                    e.push(format!("{f} {wid}"));
                    wid += 1;
                }
                edges.push(e.join(" "));
            }
            start += widths[l];
        }
        lines.push(format!("{n} {wid}"));
        lines.extend(edges);
        lines.extend((0..n).map(|i| if i < 896 { "0" } else { "1" }.to_string()));
        lines.extend((0..n).map(|i| format!("{}", (i as f64) * 1e-4)));
        lines.extend((0..wid).map(|i| format!("{}", ((i % 97) as f64 - 48.0) * 1e-3)));
        lines.join("\n")
    }

    #[test]
    fn converts_a_thesis_shaped_graph_and_refuses_others() {
        let g = ThesisGraph::parse(&small_text(64)).unwrap();
        let net = convert(&g).unwrap();
        assert_eq!(net.architecture(), &Architecture::thesis_sigmoid());
        // The last layer's bias of fow output 0 (origin a1 for White) is node n-1-res,
        // res = thesis_output(0) = 56.
        assert_eq!(net.bias(2)[0], (1151 - 56) as f32 * 1e-4);
        // A first layer of another width is not the thesis's network.
        let e = convert(&ThesisGraph::parse(&small_text(32)).unwrap())
            .unwrap_err()
            .0;
        assert!(e.contains("nodes"), "{e}");
        // Broken files.
        let text = small_text(64);
        let e = ThesisGraph::parse(&text[..text.len() / 2]).unwrap_err().0;
        assert!(e.contains("ends before"), "{e}");
        let e = ThesisGraph::parse(&format!("{text}\n7")).unwrap_err().0;
        assert!(e.contains("follows the last weight"), "{e}");
        let mut g2 = g.clone();
        g2.activations[900] = 2;
        assert!(convert(&g2).unwrap_err().0.contains("activation 2"));
        let mut g3 = g;
        g3.edges[1000][3].0 = g3.edges[1000][4].0;
        assert!(convert(&g3).unwrap_err().0.contains("not fed once"));
    }
}
