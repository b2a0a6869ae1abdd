//! The libtorch half: the MLP, the training loop, saving and loading weights.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use fow_players::nn::dataset::{DatasetHeader, Example};
use safetensors::tensor::{Dtype, TensorView};
use serde::{Deserialize, Serialize};
use tch::nn::{self, Module, OptimizerConfig};
use tch::{Device, Kind, Tensor};

use crate::split::{epoch_order, split};
use crate::{
    best_pair, log_csv, Architecture, EpochStats, TrainConfig, TrainError, TrainSummary,
    CHECKPOINT_FILE, CHECKPOINT_WEIGHTS_FILE, LOG_FILE, WEIGHTS_FILE,
};

fn failed(what: impl std::fmt::Display) -> TrainError {
    TrainError::Failed(what.to_string())
}

/// The MLP: `layers.{i}` are `nn::Linear`s, ReLU between them, none after the last.
#[derive(Debug)]
struct Mlp {
    layers: Vec<nn::Linear>,
}

impl Mlp {
    fn new(root: &nn::Path, arch: &Architecture) -> Mlp {
        let p = root / "layers";
        let sizes = arch.sizes();
        let layers = sizes
            .windows(2)
            .enumerate()
            .map(|(i, w)| nn::linear(&p / i, w[0] as i64, w[1] as i64, Default::default()))
            .collect();
        Mlp { layers }
    }
}

impl Module for Mlp {
    fn forward(&self, xs: &Tensor) -> Tensor {
        let mut x = self.layers[0].forward(xs);
        for l in &self.layers[1..] {
            x = l.forward(&x.relu());
        }
        x
    }
}

/// Dense inputs and targets of the examples `idx`.
fn batch(
    examples: &[Example],
    idx: &[usize],
    arch: &Architecture,
    device: Device,
) -> (Tensor, Tensor, Tensor) {
    let n = arch.inputs;
    let mut x = vec![0f32; idx.len() * n];
    let mut scratch = Vec::with_capacity(128);
    let mut from = Vec::with_capacity(idx.len());
    let mut to = Vec::with_capacity(idx.len());
    for (row, &i) in x.chunks_exact_mut(n).zip(idx) {
        let e = &examples[i];
        arch.fill_inputs(e, row, &mut scratch);
        from.push(i64::from(e.from));
        to.push(i64::from(e.to));
    }
    (
        Tensor::from_slice(&x)
            .view([idx.len() as i64, n as i64])
            .to_device(device),
        Tensor::from_slice(&from).to_device(device),
        Tensor::from_slice(&to).to_device(device),
    )
}

/// Origin cross-entropy plus destination cross-entropy (batch means).
fn loss(logits: &Tensor, from: &Tensor, to: &Tensor) -> Tensor {
    logits.narrow(1, 0, 64).cross_entropy_for_logits(from)
        + logits.narrow(1, 64, 64).cross_entropy_for_logits(to)
}

/// Writes the weights of `vs` as safetensors (`layers.{i}.weight` / `.bias`, f32, with
/// the architecture in the metadata) and, with `json`, the architecture as JSON beside
/// them (same stem).
fn save_weights(
    vs: &nn::VarStore,
    arch: &Architecture,
    path: &Path,
    json_too: bool,
) -> Result<(), TrainError> {
    let vars = vs.variables();
    let mut names: Vec<&String> = vars.keys().collect();
    names.sort();
    let mut data = Vec::new();
    for name in names {
        let t = vars[name]
            .to_device(Device::Cpu)
            .to_kind(Kind::Float)
            .contiguous();
        let shape: Vec<usize> = t.size().iter().map(|&d| d as usize).collect();
        let v: Vec<f32> = Vec::try_from(&t.flatten(0, -1)).map_err(failed)?;
        let bytes: Vec<u8> = v.iter().flat_map(|f| f.to_le_bytes()).collect();
        data.push((name.clone(), shape, bytes));
    }
    let views = data
        .iter()
        .map(|(n, s, b)| Ok((n.as_str(), TensorView::new(Dtype::F32, s.clone(), b)?)))
        .collect::<Result<Vec<_>, safetensors::SafeTensorError>>()
        .map_err(failed)?;
    let json = serde_json::to_string(arch).map_err(failed)?;
    let meta = HashMap::from([("architecture".to_string(), json.clone())]);
    let tmp = path.with_extension("safetensors.tmp");
    safetensors::serialize_to_file(views, &Some(meta), &tmp)
        .map_err(|e| failed(format!("{}: {e}", tmp.display())))?;
    fs::rename(&tmp, path).map_err(|e| failed(format!("{}: {e}", path.display())))?;
    if json_too {
        write(&path.with_extension("json"), &(json + "\n"))?;
    }
    Ok(())
}

fn write(path: &Path, text: &str) -> Result<(), TrainError> {
    let tmp = path.with_extension("tmp");
    fs::write(&tmp, text)
        .and_then(|()| fs::rename(&tmp, path))
        .map_err(|e| failed(format!("{}: {e}", path.display())))
}

/// A trained network loaded through libtorch (on the CPU).
#[derive(Debug)]
pub struct Model {
    /// The network's shape, read from the `weights.json` beside the weights.
    pub architecture: Architecture,
    _vs: nn::VarStore,
    mlp: Mlp,
}

/// Loads `weights.safetensors` and its `weights.json`.
pub fn load_model(weights: &Path) -> Result<Model, TrainError> {
    let json_path = weights.with_extension("json");
    let text = fs::read_to_string(&json_path)
        .map_err(|e| failed(format!("{}: {e}", json_path.display())))?;
    let architecture: Architecture = serde_json::from_str(&text)
        .map_err(|e| TrainError::Input(format!("{}: {e}", json_path.display())))?;
    let mut vs = nn::VarStore::new(Device::Cpu);
    let mlp = Mlp::new(&vs.root(), &architecture);
    vs.load(weights)
        .map_err(|e| failed(format!("{}: {e}", weights.display())))?;
    Ok(Model {
        architecture,
        _vs: vs,
        mlp,
    })
}

impl Model {
    /// The 128 logits of each example, one row after another.
    pub fn logits(&self, examples: &[Example]) -> Vec<f32> {
        let idx: Vec<usize> = (0..examples.len()).collect();
        let (x, _, _) = batch(examples, &idx, &self.architecture, Device::Cpu);
        let y = tch::no_grad(|| self.mlp.forward(&x));
        Vec::try_from(&y.flatten(0, -1)).expect("f32 logits")
    }
}

/// What `checkpoint.json` holds: enough to go on after the last finished epoch.
#[derive(Serialize, Deserialize)]
struct Checkpoint {
    config: TrainConfig,
    architecture: Architecture,
    dataset_examples: usize,
    best_epoch: u32,
    best_loss: f64,
    history: Vec<EpochStats>,
}

/// Trains a network on `examples` (read under `header`'s rules) and writes into `out`:
/// `weights.safetensors` + `weights.json` (the best epoch's weights, by validation loss,
/// or by training loss without a validation set), `log.csv`, and after every epoch
/// `checkpoint.safetensors` + `checkpoint.json`.
///
/// With `resume`, continues the run in `out` from its checkpoint with the checkpoint's
/// settings (only `config.epochs` is taken from the caller). The weights resume exactly,
/// Adam's moment estimates start afresh; the split and the per-epoch shuffles are the
/// same as in an uninterrupted run.
///
/// `progress` is told about every finished epoch. Trains on the GPU when libtorch sees
/// one, else on the CPU (GPU runs are not bit-for-bit reproducible).
pub fn train(
    header: &DatasetHeader,
    examples: &[Example],
    config: &TrainConfig,
    out: &Path,
    resume: bool,
    progress: &mut dyn FnMut(&EpochStats),
) -> Result<TrainSummary, TrainError> {
    config.check()?;
    fs::create_dir_all(out).map_err(|e| failed(format!("{}: {e}", out.display())))?;
    let file = |name: &str| -> PathBuf { out.join(name) };
    let mut checkpoint = if resume {
        let path = file(CHECKPOINT_FILE);
        let text = fs::read_to_string(&path)
            .map_err(|e| TrainError::Input(format!("cannot resume: {}: {e}", path.display())))?;
        let mut c: Checkpoint = serde_json::from_str(&text)
            .map_err(|e| TrainError::Input(format!("{}: {e}", path.display())))?;
        if c.dataset_examples != examples.len() {
            return Err(TrainError::Input(format!(
                "cannot resume: the checkpoint was trained on {} examples, this dataset has {}",
                c.dataset_examples,
                examples.len()
            )));
        }
        c.config.epochs = config.epochs;
        c
    } else {
        Checkpoint {
            config: config.clone(),
            architecture: config.architecture(),
            dataset_examples: examples.len(),
            best_epoch: 0,
            best_loss: f64::INFINITY,
            history: Vec::new(),
        }
    };
    let config = checkpoint.config.clone();
    let arch = checkpoint.architecture.clone();
    if examples.is_empty() {
        return Err(TrainError::Input("the dataset has no examples".into()));
    }
    let (train_idx, val_idx) = split(examples, config.validation, config.seed);
    if config.validation > 0.0 && val_idx.is_empty() {
        return Err(TrainError::Input(
            "a validation split needs at least two games in the dataset (or --validation 0)".into(),
        ));
    }
    let val_pairs: Vec<Vec<(u8, u8)>> = val_idx
        .iter()
        .map(|&i| examples[i].legal_pairs(&header.rules))
        .collect();

    tch::manual_seed(config.seed as i64);
    let device = Device::cuda_if_available();
    let mut vs = nn::VarStore::new(device);
    let mlp = Mlp::new(&vs.root(), &arch);
    if resume {
        let path = file(CHECKPOINT_WEIGHTS_FILE);
        vs.load(&path)
            .map_err(|e| failed(format!("{}: {e}", path.display())))?;
    }
    let mut opt = nn::Adam::default().build(&vs, config.lr).map_err(failed)?;

    let first = checkpoint.history.last().map_or(1, |e| e.epoch + 1);
    let since_best = |c: &Checkpoint| c.history.last().map_or(0, |e| e.epoch - c.best_epoch);
    let mut stopped_early = false;
    for epoch in first..=config.epochs {
        if !checkpoint.history.is_empty() && since_best(&checkpoint) >= config.patience {
            stopped_early = true;
            break;
        }
        let start = Instant::now();
        let order = epoch_order(&train_idx, config.seed, epoch);
        let mut sum = 0.0;
        for idx in order.chunks(config.batch) {
            let (x, from, to) = batch(examples, idx, &arch, device);
            let l = loss(&mlp.forward(&x), &from, &to);
            opt.backward_step(&l);
            sum += f64::try_from(&l).map_err(failed)? * idx.len() as f64;
        }
        let train_seconds = start.elapsed().as_secs_f64();
        let train_loss = sum / train_idx.len() as f64;

        let (mut val_loss, mut val_top1) = (f64::NAN, f64::NAN);
        if !val_idx.is_empty() {
            let (mut lsum, mut hits) = (0.0, 0usize);
            tch::no_grad(|| -> Result<(), TrainError> {
                for (k, idx) in val_idx.chunks(4096).enumerate() {
                    let (x, from, to) = batch(examples, idx, &arch, device);
                    let logits = mlp.forward(&x);
                    lsum += f64::try_from(&loss(&logits, &from, &to)).map_err(failed)?
                        * idx.len() as f64;
                    let flat: Vec<f32> =
                        Vec::try_from(&logits.to_device(Device::Cpu).flatten(0, -1))
                            .map_err(failed)?;
                    for (j, row) in flat.chunks_exact(128).enumerate() {
                        let e = &examples[idx[j]];
                        if best_pair(row, &val_pairs[k * 4096 + j]) == Some((e.from, e.to)) {
                            hits += 1;
                        }
                    }
                }
                Ok(())
            })?;
            val_loss = lsum / val_idx.len() as f64;
            val_top1 = hits as f64 / val_idx.len() as f64;
        }
        let score = if val_idx.is_empty() {
            train_loss
        } else {
            val_loss
        };
        let best = score < checkpoint.best_loss;
        if best {
            checkpoint.best_loss = score;
            checkpoint.best_epoch = epoch;
            save_weights(&vs, &arch, &file(WEIGHTS_FILE), true)?;
        }
        let stats = EpochStats {
            epoch,
            train_loss,
            val_loss,
            val_top1,
            train_seconds,
            examples_per_second: train_idx.len() as f64 / train_seconds.max(1e-9),
            best,
        };
        checkpoint.history.push(stats.clone());
        save_weights(&vs, &arch, &file(CHECKPOINT_WEIGHTS_FILE), false)?;
        write(&file(LOG_FILE), &log_csv(&checkpoint.history))?;
        let json = serde_json::to_string_pretty(&checkpoint).map_err(failed)?;
        write(&file(CHECKPOINT_FILE), &(json + "\n"))?;
        progress(&stats);
    }
    if !stopped_early && since_best(&checkpoint) >= config.patience {
        stopped_early = checkpoint
            .history
            .last()
            .is_some_and(|e| e.epoch < config.epochs);
    }
    Ok(TrainSummary {
        history: checkpoint.history,
        best_epoch: checkpoint.best_epoch,
        stopped_early,
        train_examples: train_idx.len(),
        val_examples: val_idx.len(),
        device: format!("{device:?}"),
    })
}
