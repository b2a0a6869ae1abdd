//! The move network: a plain-Rust MLP read from a `.safetensors` file.
//!
//! ## File format (what the trainer writes)
//! Tensors `layers.{i}.weight` (f32, shape `[out, in]`, row-major, as PyTorch's
//! `nn.Linear` stores it) and `layers.{i}.bias` (f32, `[out]`) for `i = 0..L`, with a
//! ReLU between layers and none after the last. The [`Architecture`] comes from a JSON
//! file beside the weights (same stem, `.json`) or from the safetensors `__metadata__`
//! key `"architecture"` (a JSON string); the trainer writes both, and when both are there
//! they must agree. Unknown JSON keys (such as `"note"`) are ignored.
//!
//! The architecture's `"activation"` key (absent: `"relu"`) chooses between the trainer's
//! ReLU network (ReLU between layers, logits out) and `"sigmoid"`, a sigmoid after every
//! layer including the last: the thesis's own network ([`super::thesis`]), whose outputs
//! are 128 values in (0, 1).
//!
//! ## Forward pass
//! The input is sparse: 64 or 128 ones (see [`super::encode::active_inputs`]). Layer 0 is
//! therefore its bias plus the weight *columns* of the active inputs; the loader stores
//! layer 0 transposed (`[in][out]`) so that each active input adds one contiguous row.
//! Later layers are stored transposed too and add, for each positive (post-ReLU) input,
//! that input times its row: every output is its own accumulator, so the loop vectorises
//! and half-silent hidden layers cost half. All f32. A sigmoid network adds every input's
//! row (none is zero) and applies the sigmoid after each layer.

use std::collections::HashMap;
use std::path::Path;

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use safetensors::tensor::{Dtype, SafeTensors, TensorView};
use serde::{Deserialize, Serialize};

use super::encode::VIEW_INPUTS;

/// Outputs of a move network: 64 origin logits, then 64 destination logits.
pub const OUTPUTS: usize = 128;

/// The safetensors `__metadata__` key holding the architecture JSON.
pub const METADATA_KEY: &str = "architecture";

/// The nonlinearity of a network (the architecture's `"activation"` key).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Activation {
    /// ReLU between layers, none after the last: the outputs are logits (the trainer's
    /// networks, the default).
    #[default]
    Relu,
    /// A sigmoid after every layer, the last included: the outputs lie in (0, 1) (the
    /// thesis's network).
    Sigmoid,
}

impl Activation {
    /// Whether this is [`Activation::Relu`] (the default, left out of the JSON).
    pub fn is_relu(&self) -> bool {
        *self == Activation::Relu
    }
}

/// The logistic function 1 / (1 + e^-x), computed in f64.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    (1.0 / (1.0 + (-f64::from(x)).exp())) as f32
}

/// The shape of a move network, as in the JSON file beside its weights:
/// `{"inputs": 896, "previous": false, "hidden": [64, 64], "outputs": 128}`, with
/// `"activation": "sigmoid"` for a sigmoid network (absent for ReLU).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Architecture {
    /// Input features: 896 for one view, 1792 with the previous view.
    pub inputs: usize,
    /// Whether the view after the mover's previous move is an input too.
    #[serde(default)]
    pub previous: bool,
    /// Hidden layer widths (a ReLU after each).
    pub hidden: Vec<usize>,
    /// Output logits (always [`OUTPUTS`]).
    pub outputs: usize,
    /// The nonlinearity (default ReLU; not written when ReLU, so a ReLU network's JSON
    /// is what it was before the key existed).
    #[serde(default, skip_serializing_if = "Activation::is_relu")]
    pub activation: Activation,
}

impl Architecture {
    /// The thesis's shape, 896-64-64-128 on the present view only, with fow's ReLU
    /// (the shipped default network's architecture).
    pub fn thesis() -> Architecture {
        Architecture {
            inputs: VIEW_INPUTS,
            previous: false,
            hidden: vec![64, 64],
            outputs: OUTPUTS,
            activation: Activation::Relu,
        }
    }

    /// The thesis's own network exactly: 896-64-64-128 with a sigmoid on every layer
    /// (see [`super::thesis`]).
    pub fn thesis_sigmoid() -> Architecture {
        Architecture {
            activation: Activation::Sigmoid,
            ..Architecture::thesis()
        }
    }

    /// Checks the numbers fit together (inputs match `previous`, 128 outputs, no empty
    /// hidden layer).
    pub fn validate(&self) -> Result<(), NetworkError> {
        let want = VIEW_INPUTS * if self.previous { 2 } else { 1 };
        if self.inputs != want {
            return Err(NetworkError(format!(
                "architecture: \"inputs\" is {} but \"previous\": {} needs {want}",
                self.inputs, self.previous
            )));
        }
        if self.outputs != OUTPUTS {
            return Err(NetworkError(format!(
                "architecture: \"outputs\" is {}, a move network has {OUTPUTS}",
                self.outputs
            )));
        }
        if let Some(i) = self.hidden.iter().position(|&h| h == 0) {
            return Err(NetworkError(format!(
                "architecture: hidden layer {i} has width 0"
            )));
        }
        Ok(())
    }

    /// Parses (and validates) architecture JSON; unknown keys are ignored.
    pub fn from_json(text: &str) -> Result<Architecture, NetworkError> {
        let arch: Architecture = serde_json::from_str(text)
            .map_err(|e| NetworkError(format!("architecture JSON: {e}")))?;
        arch.validate()?;
        Ok(arch)
    }

    /// The architecture as one line of JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("an architecture serializes")
    }

    /// `(inputs, outputs)` of each layer, first to last.
    pub fn layer_shapes(&self) -> Vec<(usize, usize)> {
        let mut widths = vec![self.inputs];
        widths.extend(&self.hidden);
        widths.push(self.outputs);
        widths.windows(2).map(|w| (w[0], w[1])).collect()
    }
}

/// A network file or layer list that does not fit its architecture, or a file that cannot
/// be read. The message names the file and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetworkError(pub String);

impl std::fmt::Display for NetworkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NetworkError {}

/// One layer, its weight stored transposed: `[in][out]` row-major, so that one input
/// adds one contiguous row to the outputs.
#[derive(Clone, Debug)]
struct Layer {
    weight_t: Vec<f32>,
    bias: Vec<f32>,
}

/// `w` (`rows` x `cols`, row-major) transposed.
fn transpose(w: &[f32], rows: usize, cols: usize) -> Vec<f32> {
    let mut t = vec![0.0; w.len()];
    for r in 0..rows {
        for c in 0..cols {
            t[c * rows + r] = w[r * cols + c];
        }
    }
    t
}

/// Scratch space for [`Network::forward`], reused between calls so a forward pass does
/// not allocate.
#[derive(Clone, Debug, Default)]
pub struct Activations {
    a: Vec<f32>,
    b: Vec<f32>,
}

/// A move network ready for inference. See the [module docs](self).
#[derive(Clone, Debug)]
pub struct Network {
    arch: Architecture,
    layers: Vec<Layer>,
}

impl Network {
    /// A network from its layers' `(weight [out][in] row-major, bias [out])`, first to
    /// last, checked against `arch`.
    pub fn from_layers(
        arch: Architecture,
        layers: Vec<(Vec<f32>, Vec<f32>)>,
    ) -> Result<Network, NetworkError> {
        arch.validate()?;
        let shapes = arch.layer_shapes();
        if layers.len() != shapes.len() {
            return Err(NetworkError(format!(
                "{} layers given, the architecture has {}",
                layers.len(),
                shapes.len()
            )));
        }
        for (i, ((w, b), &(n_in, n_out))) in layers.iter().zip(&shapes).enumerate() {
            if w.len() != n_in * n_out || b.len() != n_out {
                return Err(NetworkError(format!(
                    "layer {i}: {} weights and {} biases, the architecture wants {n_out} x \
                     {n_in} and {n_out}",
                    w.len(),
                    b.len()
                )));
            }
            if w.iter().chain(b).any(|x| !x.is_finite()) {
                return Err(NetworkError(format!(
                    "layer {i}: a weight or bias is not finite"
                )));
            }
        }
        let layers = layers
            .into_iter()
            .zip(&shapes)
            .map(|((w, bias), &(n_in, n_out))| Layer {
                weight_t: transpose(&w, n_out, n_in),
                bias,
            })
            .collect();
        Ok(Network { arch, layers })
    }

    /// A seeded random network (PyTorch's default initialisation: weights and biases
    /// uniform in ±1/sqrt(inputs)), for tests and benchmarks.
    pub fn random(arch: Architecture, seed: u64) -> Result<Network, NetworkError> {
        arch.validate()?;
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let layers = arch
            .layer_shapes()
            .into_iter()
            .map(|(n_in, n_out)| {
                let k = 1.0 / (n_in as f32).sqrt();
                let mut draw =
                    |n: usize| -> Vec<f32> { (0..n).map(|_| rng.random_range(-k..k)).collect() };
                let w = draw(n_in * n_out);
                let b = draw(n_out);
                (w, b)
            })
            .collect();
        Network::from_layers(arch, layers)
    }

    /// Reads `path` (a `.safetensors` file) with its architecture from `path` with the
    /// extension `.json` if that exists, else from the file's metadata.
    pub fn load(path: &Path) -> Result<Network, NetworkError> {
        let name = path.display();
        let bytes = std::fs::read(path).map_err(|e| NetworkError(format!("{name}: {e}")))?;
        let json_path = path.with_extension("json");
        let json = match std::fs::read_to_string(&json_path) {
            Ok(text) => Some(text),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(NetworkError(format!("{}: {e}", json_path.display()))),
        };
        Network::from_bytes(&bytes, json.as_deref())
            .map_err(|e| NetworkError(format!("{name}: {}", e.0)))
    }

    /// A network from the bytes of a `.safetensors` file and, if given, the architecture
    /// JSON (else the file's `"architecture"` metadata is used; with both, they must
    /// agree).
    pub fn from_bytes(bytes: &[u8], json: Option<&str>) -> Result<Network, NetworkError> {
        let tensors = SafeTensors::deserialize(bytes)
            .map_err(|e| NetworkError(format!("not a safetensors file: {e}")))?;
        let (_, metadata) = SafeTensors::read_metadata(bytes)
            .map_err(|e| NetworkError(format!("not a safetensors file: {e}")))?;
        let from_meta = match metadata
            .metadata()
            .as_ref()
            .and_then(|m| m.get(METADATA_KEY))
        {
            Some(text) => Some(
                Architecture::from_json(text)
                    .map_err(|e| NetworkError(format!("metadata {METADATA_KEY:?}: {}", e.0)))?,
            ),
            None => None,
        };
        let arch = match (json, from_meta) {
            (Some(text), meta) => {
                let arch = Architecture::from_json(text)?;
                if let Some(meta) = meta {
                    if meta != arch {
                        return Err(NetworkError(format!(
                            "the JSON architecture {} and the file's metadata {} disagree",
                            arch.to_json(),
                            meta.to_json()
                        )));
                    }
                }
                arch
            }
            (None, Some(meta)) => meta,
            (None, None) => {
                return Err(NetworkError(format!(
                    "no architecture: neither a .json file beside the weights nor a \
                     {METADATA_KEY:?} metadata entry"
                )))
            }
        };
        let shapes = arch.layer_shapes();
        for (name, _) in tensors.tensors() {
            let known = (0..shapes.len()).any(|i| {
                name == format!("layers.{i}.weight") || name == format!("layers.{i}.bias")
            });
            if name.starts_with("layers.") && !known {
                return Err(NetworkError(format!(
                    "tensor {name} is not in the architecture ({} layers: {})",
                    shapes.len(),
                    arch.to_json()
                )));
            }
        }
        let read = |name: &str, shape: &[usize]| -> Result<Vec<f32>, NetworkError> {
            let missing = || {
                NetworkError(format!(
                    "tensor {name} is missing (the architecture {} wants shape {shape:?})",
                    arch.to_json()
                ))
            };
            let info = metadata.info(name).ok_or_else(missing)?;
            let t = tensors.tensor(name).map_err(|_| missing())?;
            if info.dtype != Dtype::F32 {
                return Err(NetworkError(format!(
                    "tensor {name} is {:?}, expected F32",
                    info.dtype
                )));
            }
            if info.shape != shape {
                return Err(NetworkError(format!(
                    "tensor {name} has shape {:?}, the architecture {} wants {shape:?}",
                    info.shape,
                    arch.to_json()
                )));
            }
            Ok(t.data()
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect())
        };
        let mut layers = Vec::with_capacity(shapes.len());
        for (i, &(n_in, n_out)) in shapes.iter().enumerate() {
            let w = read(&format!("layers.{i}.weight"), &[n_out, n_in])?;
            let b = read(&format!("layers.{i}.bias"), &[n_out])?;
            layers.push((w, b));
        }
        Network::from_layers(arch, layers)
    }

    /// The `.safetensors` bytes of this network: the tensor names of the
    /// [module docs](self), with the architecture in the metadata.
    pub fn to_safetensors(&self) -> Result<Vec<u8>, NetworkError> {
        let n = self.layer_count();
        let data: Vec<(String, Vec<usize>, Vec<u8>)> = (0..n)
            .flat_map(|i| {
                let (n_in, n_out) = self.arch.layer_shapes()[i];
                let bytes = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect();
                [
                    (
                        format!("layers.{i}.weight"),
                        vec![n_out, n_in],
                        bytes(&self.weight(i)),
                    ),
                    (format!("layers.{i}.bias"), vec![n_out], bytes(self.bias(i))),
                ]
            })
            .collect();
        let views = data
            .iter()
            .map(|(name, shape, bytes)| {
                TensorView::new(Dtype::F32, shape.clone(), bytes).map(|v| (name.as_str(), v))
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| NetworkError(format!("serializing: {e}")))?;
        let meta = HashMap::from([(METADATA_KEY.to_string(), self.arch.to_json())]);
        safetensors::serialize(views, &Some(meta))
            .map_err(|e| NetworkError(format!("serializing: {e}")))
    }

    /// Writes [`Network::to_safetensors`] to `path` (the architecture JSON is in its
    /// metadata; write `path` with extension `.json` yourself for a separate file).
    pub fn save_safetensors(&self, path: &Path) -> Result<(), NetworkError> {
        let bytes = self.to_safetensors()?;
        std::fs::write(path, bytes).map_err(|e| NetworkError(format!("{}: {e}", path.display())))
    }

    /// The network's shape: inputs (with or without the previous view), hidden layer
    /// sizes, outputs.
    pub fn architecture(&self) -> &Architecture {
        &self.arch
    }

    /// Number of layers (hidden layers + 1).
    pub fn layer_count(&self) -> usize {
        self.layers.len()
    }

    /// Layer `i`'s weight in PyTorch's layout, `[out][in]` row-major.
    pub fn weight(&self, i: usize) -> Vec<f32> {
        let layer = &self.layers[i];
        let n_out = layer.bias.len();
        transpose(&layer.weight_t, layer.weight_t.len() / n_out, n_out)
    }

    /// Layer `i`'s bias.
    pub fn bias(&self, i: usize) -> &[f32] {
        &self.layers[i].bias
    }

    /// The output logits for an input vector that is 1.0 at the indices in `active`
    /// and 0.0 elsewhere (an index may appear once at most). Panics on an index not
    /// below [`Architecture::inputs`].
    ///
    /// Every layer adds, for each non-zero input, that input times its weight row
    /// (`[in][out]` storage): the outputs are independent accumulators that the compiler
    /// vectorises, layer 0 touches only the 64 or 128 active rows, and later layers skip
    /// the inputs the ReLU zeroed. For a sigmoid network (see [`Activation`]) the outputs
    /// are the last layer's sigmoids, not logits.
    pub fn forward<'a>(&self, active: &[usize], act: &'a mut Activations) -> &'a [f32] {
        let (first, rest) = self.layers.split_first().expect("at least one layer");
        let n = first.bias.len();
        let x = &mut act.a;
        x.clear();
        x.extend_from_slice(&first.bias);
        for &i in active {
            assert!(i < self.arch.inputs, "input {i} out of range");
            let row = &first.weight_t[i * n..(i + 1) * n];
            for (x, w) in x.iter_mut().zip(row) {
                *x += w;
            }
        }
        if self.arch.activation == Activation::Sigmoid {
            act.a.iter_mut().for_each(|v| *v = sigmoid(*v));
        }
        for layer in rest {
            let n = layer.bias.len();
            let y = &mut act.b;
            y.clear();
            y.extend_from_slice(&layer.bias);
            match self.arch.activation {
                Activation::Relu => {
                    for (i, &xi) in act.a.iter().enumerate() {
                        // ReLU: a negative or zero input adds nothing.
                        if xi > 0.0 {
                            let row = &layer.weight_t[i * n..(i + 1) * n];
                            for (y, w) in y.iter_mut().zip(row) {
                                *y += xi * w;
                            }
                        }
                    }
                }
                Activation::Sigmoid => {
                    for (i, &xi) in act.a.iter().enumerate() {
                        let row = &layer.weight_t[i * n..(i + 1) * n];
                        for (y, w) in y.iter_mut().zip(row) {
                            *y += xi * w;
                        }
                    }
                    y.iter_mut().for_each(|v| *v = sigmoid(*v));
                }
            }
            std::mem::swap(&mut act.a, &mut act.b);
        }
        &act.a
    }

    /// How this network ranks the move `from` -> `to` (oriented squares) given its
    /// outputs `out`: for a ReLU network the sum of the two logits (which ranks moves as
    /// the sum of their log-softmax values does), for a sigmoid network the thesis's
    /// product `out[from] * out[64 + to]`. Higher is better.
    pub fn move_score(&self, out: &[f32], from: usize, to: usize) -> f64 {
        let (f, t) = (f64::from(out[from]), f64::from(out[64 + to]));
        match self.arch.activation {
            Activation::Relu => f + t,
            Activation::Sigmoid => f * t,
        }
    }

    /// [`Network::forward`] into a new vector (allocates; for tests and tools).
    pub fn forward_vec(&self, active: &[usize]) -> Vec<f32> {
        self.forward(active, &mut Activations::default()).to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::encode::{observation_codes, PLANES};
    use fow_variants::{Game, Observation, Position, RuleSet};

    /// Plane codes (now, previous) of observations from random games under both rule sets.
    fn random_observations(seed: u64, games: usize) -> Vec<([u8; 64], [u8; 64])> {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut out = Vec::new();
        for rules in [RuleSet::thesis(), RuleSet::chesscom()] {
            for _ in 0..games {
                let mut game = Game::new(Position::startpos(), rules);
                let mut obs: [Option<Observation>; 2] = [None, None];
                for _ in 0..rng.random_range(1..150) {
                    let i = game.position().turn() as usize;
                    let o = Observation::for_game(&mut obs[i], &game);
                    if o.move_count() == 0 {
                        break;
                    }
                    out.push(observation_codes(o));
                    let m = o.nth_move(rng.random_range(0..o.move_count())).unwrap();
                    let end = game.play(&m);
                    if end.is_some() {
                        break;
                    }
                }
            }
        }
        out
    }

    /// The dense reference: the full input vector, every layer a plain matrix product in
    /// f64 from the PyTorch-layout weights.
    fn reference(net: &Network, now: &[u8; 64], prev: &[u8; 64]) -> Vec<f64> {
        let arch = net.architecture();
        let mut x = vec![0.0f64; arch.inputs];
        for sq in 0..64 {
            x[now[sq] as usize * 64 + sq] = 1.0;
            if arch.previous {
                x[PLANES * 64 + prev[sq] as usize * 64 + sq] = 1.0;
            }
        }
        for (i, &(n_in, n_out)) in arch.layer_shapes().iter().enumerate() {
            let w = net.weight(i);
            let b = net.bias(i);
            let mut y: Vec<f64> = (0..n_out)
                .map(|o| {
                    f64::from(b[o])
                        + (0..n_in)
                            .map(|j| f64::from(w[o * n_in + j]) * x[j])
                            .sum::<f64>()
                })
                .collect();
            match arch.activation {
                Activation::Relu if i + 1 < net.layer_count() => {
                    y.iter_mut().for_each(|v| *v = v.max(0.0))
                }
                Activation::Relu => {}
                Activation::Sigmoid => y.iter_mut().for_each(|v| *v = 1.0 / (1.0 + (-*v).exp())),
            }
            x = y;
        }
        x
    }

    fn arch(previous: bool, hidden: &[usize]) -> Architecture {
        Architecture {
            inputs: VIEW_INPUTS * if previous { 2 } else { 1 },
            previous,
            hidden: hidden.to_vec(),
            outputs: OUTPUTS,
            activation: Activation::Relu,
        }
    }

    #[test]
    fn sparse_forward_equals_the_dense_reference() {
        let observations = random_observations(5, 4);
        assert!(observations.len() > 100);
        let mut act = Activations::default();
        let mut active = Vec::new();
        let sigmoid = |a: Architecture| Architecture {
            activation: Activation::Sigmoid,
            ..a
        };
        for (seed, a) in [
            arch(false, &[64, 64]),
            arch(true, &[64, 64]),
            arch(false, &[]),
            arch(true, &[37, 5, 19]),
            Architecture::thesis_sigmoid(),
            sigmoid(arch(true, &[37, 5])),
            sigmoid(arch(false, &[])),
        ]
        .into_iter()
        .enumerate()
        {
            let net = Network::random(a.clone(), seed as u64).unwrap();
            for (now, prev) in observations.iter().step_by(3) {
                active_inputs_for(&net, now, prev, &mut active);
                let got = net.forward(&active, &mut act);
                let want = reference(&net, now, prev);
                assert_eq!(got.len(), OUTPUTS);
                for (g, w) in got.iter().zip(&want) {
                    assert!((f64::from(*g) - w).abs() < 1e-5, "{a:?}: {g} vs {w}");
                }
            }
        }
    }

    fn active_inputs_for(net: &Network, now: &[u8; 64], prev: &[u8; 64], out: &mut Vec<usize>) {
        let p = net.architecture().previous.then_some(prev);
        crate::nn::encode::active_inputs(now, p, out);
    }

    #[test]
    fn random_networks_are_seeded() {
        let a = Network::random(Architecture::thesis(), 1).unwrap();
        let b = Network::random(Architecture::thesis(), 1).unwrap();
        let c = Network::random(Architecture::thesis(), 2).unwrap();
        assert_eq!(a.to_safetensors().unwrap(), b.to_safetensors().unwrap());
        assert_ne!(a.weight(0), c.weight(0));
        // PyTorch's default initialisation bound.
        let k = 1.0 / (896f32).sqrt();
        assert!(a.weight(0).iter().all(|w| w.abs() <= k));
        assert!(a.weight(0).iter().any(|w| w.abs() > k * 0.99));
    }

    #[test]
    fn the_activation_key_is_written_only_for_sigmoid_networks() {
        // A ReLU network's JSON is what it was before the key existed.
        let relu = Architecture::thesis();
        assert_eq!(
            relu.to_json(),
            r#"{"inputs":896,"previous":false,"hidden":[64,64],"outputs":128}"#
        );
        assert_eq!(Architecture::from_json(&relu.to_json()).unwrap(), relu);
        let sig = Architecture::thesis_sigmoid();
        assert_eq!(
            sig.to_json(),
            r#"{"inputs":896,"previous":false,"hidden":[64,64],"outputs":128,"activation":"sigmoid"}"#
        );
        assert_eq!(Architecture::from_json(&sig.to_json()).unwrap(), sig);
        let e = Architecture::from_json(
            r#"{"inputs":896,"hidden":[64],"outputs":128,"activation":"tanh"}"#,
        )
        .unwrap_err()
        .0;
        assert!(e.contains("tanh"), "{e}");
        // Through safetensors metadata, and the outputs are probabilities.
        let net = Network::random(sig.clone(), 4).unwrap();
        let back = Network::from_bytes(&net.to_safetensors().unwrap(), None).unwrap();
        assert_eq!(back.architecture(), &sig);
        let mut active = Vec::new();
        let obs = random_observations(2, 1);
        active_inputs_for(&net, &obs[0].0, &obs[0].1, &mut active);
        let out = back.forward_vec(&active);
        assert_eq!(out, net.forward_vec(&active));
        assert!(out.iter().all(|&p| p > 0.0 && p < 1.0), "{out:?}");
        assert_eq!(
            net.move_score(&out, 3, 5),
            f64::from(out[3]) * f64::from(out[64 + 5])
        );
    }

    #[test]
    fn safetensors_round_trip() {
        let net = Network::random(arch(true, &[16, 8]), 3).unwrap();
        let bytes = net.to_safetensors().unwrap();
        // Architecture from the metadata alone.
        let back = Network::from_bytes(&bytes, None).unwrap();
        assert_eq!(back.architecture(), net.architecture());
        for i in 0..net.layer_count() {
            assert_eq!(back.weight(i), net.weight(i));
            assert_eq!(back.bias(i), net.bias(i));
        }
        // The tensors as PyTorch names and shapes them.
        let st = SafeTensors::deserialize(&bytes).unwrap();
        let w1 = st.tensor("layers.1.weight").unwrap();
        assert_eq!(w1.shape(), &[8, 16]);
        assert_eq!(st.tensor("layers.2.bias").unwrap().shape(), &[128]);
        assert_eq!(
            f32::from_le_bytes(w1.data()[4..8].try_into().unwrap()),
            net.weight(1)[1]
        );
        // Through files, with the JSON beside (unknown keys ignored).
        let dir = std::env::temp_dir().join(format!("fow-nn-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("net.safetensors");
        net.save_safetensors(&path).unwrap();
        let mut json: serde_json::Value =
            serde_json::from_str(&net.architecture().to_json()).unwrap();
        json["note"] = "hello".into();
        std::fs::write(dir.join("net.json"), json.to_string()).unwrap();
        let loaded = Network::load(&path).unwrap();
        assert_eq!(loaded.to_safetensors().unwrap(), bytes);
        let obs = random_observations(1, 1);
        let mut active = Vec::new();
        active_inputs_for(&net, &obs[3].0, &obs[3].1, &mut active);
        assert_eq!(loaded.forward_vec(&active), net.forward_vec(&active));
        // A JSON that disagrees with the metadata is an error naming the file.
        std::fs::write(dir.join("net.json"), arch(true, &[16, 9]).to_json()).unwrap();
        let e = Network::load(&path).unwrap_err().0;
        assert!(
            e.contains("net.safetensors") && e.contains("disagree"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Safetensors bytes with the given tensors (f32 zeros) and metadata.
    fn file_with(tensors: &[(&str, Vec<usize>)], meta: Option<&str>, dtype: Dtype) -> Vec<u8> {
        let data: Vec<Vec<u8>> = tensors
            .iter()
            .map(|(_, s)| vec![0u8; s.iter().product::<usize>() * dtype.size()])
            .collect();
        let views: Vec<_> = tensors
            .iter()
            .zip(&data)
            .map(|((n, s), d)| (*n, TensorView::new(dtype, s.clone(), d).unwrap()))
            .collect();
        let meta = meta.map(|m| HashMap::from([(METADATA_KEY.to_string(), m.to_string())]));
        safetensors::serialize(views, &meta).unwrap()
    }

    #[test]
    fn mismatches_are_clear_errors() {
        let small = arch(false, &[4]);
        let good = [
            ("layers.0.weight", vec![4, 896]),
            ("layers.0.bias", vec![4]),
            ("layers.1.weight", vec![128, 4]),
            ("layers.1.bias", vec![128]),
        ];
        let json = small.to_json();
        assert!(Network::from_bytes(&file_with(&good, None, Dtype::F32), Some(&json)).is_ok());
        let err = |tensors: &[(&str, Vec<usize>)], meta: Option<&str>, json: Option<&str>| {
            Network::from_bytes(&file_with(tensors, meta, Dtype::F32), json)
                .unwrap_err()
                .0
        };
        // Transposed weight (PyTorch stores [out, in]).
        let mut t = good.clone();
        t[0].1 = vec![896, 4];
        let e = err(&t, None, Some(&json));
        assert!(
            e.contains("layers.0.weight") && e.contains("[896, 4]") && e.contains("[4, 896]"),
            "{e}"
        );
        // Missing and extra layers.
        let e = err(&good[..3], None, Some(&json));
        assert!(e.contains("layers.1.bias") && e.contains("missing"), "{e}");
        let mut extra = good.to_vec();
        extra.push(("layers.2.weight", vec![128, 128]));
        let e = err(&extra, None, Some(&json));
        assert!(
            e.contains("layers.2.weight") && e.contains("not in the architecture"),
            "{e}"
        );
        // No architecture at all; a bad one in the metadata.
        let e = err(&good, None, None);
        assert!(e.contains("no architecture"), "{e}");
        let e = err(&good, Some("{\"inputs\": 896}"), None);
        assert!(e.contains("metadata") && e.contains("hidden"), "{e}");
        // Inputs that do not match `previous`, and a wrong output count.
        let e = err(
            &good,
            None,
            Some(r#"{"inputs": 896, "previous": true, "hidden": [4], "outputs": 128}"#),
        );
        assert!(e.contains("previous") && e.contains("1792"), "{e}");
        let e = err(
            &good,
            None,
            Some(r#"{"inputs": 896, "hidden": [4], "outputs": 64}"#),
        );
        assert!(e.contains("outputs"), "{e}");
        // Not f32, not safetensors, a missing file.
        let e = Network::from_bytes(&file_with(&good, None, Dtype::F64), Some(&json))
            .unwrap_err()
            .0;
        assert!(e.contains("F64"), "{e}");
        assert!(Network::from_bytes(b"hello", Some(&json))
            .unwrap_err()
            .0
            .contains("safetensors"));
        let e = Network::load(Path::new("/nonexistent/x.safetensors"))
            .unwrap_err()
            .0;
        assert!(e.contains("/nonexistent/x.safetensors"), "{e}");
        // Layer lists checked too, including non-finite values.
        let e = Network::from_layers(small.clone(), vec![(vec![0.0; 4 * 896], vec![0.0; 4])])
            .unwrap_err()
            .0;
        assert!(e.contains("1 layers given"), "{e}");
        let mut layers = vec![
            (vec![0.0; 4 * 896], vec![0.0; 4]),
            (vec![0.0; 128 * 4], vec![0.0; 128]),
        ];
        layers[1].1[7] = f32::NAN;
        assert!(Network::from_layers(small, layers)
            .unwrap_err()
            .0
            .contains("not finite"));
    }
}
