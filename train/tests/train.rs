//! Training end to end through libtorch (only with `--features torch`):
//! `source .libtorch/env.sh && cargo test -p fow-train --features torch`.
#![cfg(feature = "torch")]

use std::path::Path;

use fow_players::nn::dataset::{DatasetHeader, Example};
use fow_players::nn::encode::active_inputs;
use fow_train::{load_model, train, Architecture, TrainConfig};
use fow_variants::{Game, Observation, Position, RuleSet};
use rand::{Rng, SeedableRng};
use safetensors::SafeTensors;

/// Examples of `games` games in which each side plays, most of the time, its legal move
/// with the smallest oriented (from, to) pair, and otherwise a random one: a policy a
/// small network can learn something about in a few steps.
pub fn synthetic(games: usize, seed: u64) -> (DatasetHeader, Vec<Example>) {
    let rules = RuleSet::thesis();
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut game = Game::new(Position::startpos(), rules);
        let mut obs: [Option<Observation>; 2] = [None, None];
        for _ in 0..40 {
            let i = game.position().turn() as usize;
            let o = Observation::for_game(&mut obs[i], &game);
            if o.move_count() == 0 {
                break;
            }
            let m = if rng.random_bool(0.8) {
                let pair = |m: &fow_variants::Move| {
                    let e = Example::new(o, m, None);
                    (e.from, e.to)
                };
                *o.legal_moves().iter().min_by_key(|m| pair(m)).unwrap()
            } else {
                o.nth_move(rng.random_range(0..o.move_count())).unwrap()
            };
            out.push(Example::new(o, &m, None));
            let end = game.play(&m);
            if end.is_some() {
                break;
            }
        }
    }
    let header = DatasetHeader {
        examples: out.len() as u64,
        sources: vec!["synthetic".into()],
        selection: "both sides".into(),
        rules,
    };
    (header, out)
}

fn tiny() -> TrainConfig {
    TrainConfig {
        hidden: vec![16],
        batch: 32,
        epochs: 4,
        patience: 10,
        validation: 0.2,
        seed: 5,
        ..TrainConfig::default()
    }
}

#[test]
fn loss_drops_and_files_are_written() {
    let (header, ex) = synthetic(30, 1);
    let dir = tempfile::tempdir().unwrap();
    let mut seen = Vec::new();
    let s = train(&header, &ex, &tiny(), dir.path(), false, &mut |e| {
        seen.push(e.epoch)
    })
    .unwrap();
    assert_eq!(seen, vec![1, 2, 3, 4]);
    assert_eq!(s.history.len(), 4);
    assert_eq!(s.train_examples + s.val_examples, ex.len());
    assert!(s.val_examples > 0);
    let (first, last) = (&s.history[0], &s.history[3]);
    assert!(last.train_loss < first.train_loss - 0.5, "{:?}", s.history);
    assert!(last.val_loss < first.val_loss, "{:?}", s.history);
    assert!((0.0..=1.0).contains(&last.val_top1));
    // The learnt policy (mostly the smallest legal pair) is easy to hit once learnt.
    assert!(last.val_top1 > 0.3, "{:?}", s.history);

    let log = std::fs::read_to_string(dir.path().join("log.csv")).unwrap();
    assert_eq!(log.lines().count(), 5);
    assert!(log.starts_with("epoch,train_loss,val_loss,val_top1\n"));
    let json = std::fs::read_to_string(dir.path().join("weights.json")).unwrap();
    let arch: Architecture = serde_json::from_str(&json).unwrap();
    assert_eq!(arch, Architecture::new(false, &[16]));
    check_file_format(&dir.path().join("weights.safetensors"), &arch);
    assert!(dir.path().join("checkpoint.safetensors").exists());
}

/// The names, shapes and metadata the plain-Rust loader expects.
fn check_file_format(path: &Path, arch: &Architecture) {
    let bytes = std::fs::read(path).unwrap();
    let (_, meta) = SafeTensors::read_metadata(&bytes).unwrap();
    let meta_arch = &meta.metadata().as_ref().unwrap()["architecture"];
    assert_eq!(
        serde_json::from_str::<Architecture>(meta_arch).unwrap(),
        *arch
    );
    let st = SafeTensors::deserialize(&bytes).unwrap();
    let mut names = st.names();
    names.sort();
    assert_eq!(
        names,
        [
            "layers.0.bias",
            "layers.0.weight",
            "layers.1.bias",
            "layers.1.weight"
        ]
    );
    let sizes = arch.sizes();
    for i in 0..sizes.len() - 1 {
        let w = st.tensor(&format!("layers.{i}.weight")).unwrap();
        assert_eq!(w.shape(), [sizes[i + 1], sizes[i]]);
        assert_eq!(w.dtype(), safetensors::Dtype::F32);
        let b = st.tensor(&format!("layers.{i}.bias")).unwrap();
        assert_eq!(b.shape(), [sizes[i + 1]]);
    }
}

/// A forward pass written from the file format alone: `layers.{i}.weight` `[out, in]`,
/// `layers.{i}.bias`, ReLU between layers, inputs 1.0 at the active indices.
fn plain_forward(path: &Path, layers: usize, active: &[usize], inputs: usize) -> Vec<f32> {
    let bytes = std::fs::read(path).unwrap();
    let st = SafeTensors::deserialize(&bytes).unwrap();
    let f32s = |name: &str| -> (Vec<usize>, Vec<f32>) {
        let t = st.tensor(name).unwrap();
        let v = t
            .data()
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        (t.shape().to_vec(), v)
    };
    let mut x = vec![0f32; inputs];
    for &i in active {
        x[i] = 1.0;
    }
    for i in 0..layers {
        let (shape, w) = f32s(&format!("layers.{i}.weight"));
        let (_, b) = f32s(&format!("layers.{i}.bias"));
        let (out, inp) = (shape[0], shape[1]);
        let mut y: Vec<f32> = (0..out)
            .map(|o| b[o] + (0..inp).map(|j| w[o * inp + j] * x[j]).sum::<f32>())
            .collect();
        if i + 1 < layers {
            y.iter_mut().for_each(|v| *v = v.max(0.0));
        }
        x = y;
    }
    x
}

#[test]
fn saved_weights_give_tchs_logits_in_plain_rust_and_through_the_players_loader() {
    let (header, ex) = synthetic(12, 2);
    let dir = tempfile::tempdir().unwrap();
    let config = TrainConfig {
        hidden: vec![24, 12],
        previous: true,
        epochs: 2,
        ..tiny()
    };
    train(&header, &ex, &config, dir.path(), false, &mut |_| {}).unwrap();
    let path = dir.path().join("weights.safetensors");
    let model = load_model(&path).unwrap();
    assert_eq!(model.architecture.inputs, 1792);
    let sample = &ex[..20];
    let logits = model.logits(sample);
    assert_eq!(logits.len(), 20 * 128);
    let network = fow_players::nn::network::Network::load(&path).unwrap();
    let mut active = Vec::new();
    for (e, row) in sample.iter().zip(logits.chunks_exact(128)) {
        active_inputs(&e.now, Some(&e.prev), &mut active);
        let plain = plain_forward(&path, 3, &active, 1792);
        // fow-players' loader and its sparse forward pass (what the bot plays with).
        let network = network.forward_vec(&active);
        assert_eq!(network.len(), 128);
        for ((a, b), c) in plain.iter().zip(row).zip(&network) {
            assert!((a - b).abs() <= 1e-5, "{a} vs {b}");
            assert!((c - b).abs() <= 1e-5, "{c} vs {b}");
        }
    }
}

#[test]
fn resume_goes_on_from_the_checkpoint_and_early_stopping_keeps_the_best() {
    let (header, ex) = synthetic(20, 3);
    let dir = tempfile::tempdir().unwrap();
    let two = TrainConfig {
        epochs: 2,
        ..tiny()
    };
    train(&header, &ex, &two, dir.path(), false, &mut |_| {}).unwrap();
    let mut seen = Vec::new();
    let s = train(&header, &ex, &tiny(), dir.path(), true, &mut |e| {
        seen.push(e.epoch)
    })
    .unwrap();
    assert_eq!(seen, vec![3, 4]);
    assert_eq!(s.history.len(), 4);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("log.csv"))
            .unwrap()
            .lines()
            .count(),
        5
    );
    // Resuming a different dataset is refused.
    let err = train(&header, &ex[..10], &tiny(), dir.path(), true, &mut |_| {}).unwrap_err();
    assert!(err.to_string().contains("cannot resume"), "{err}");

    // A learning rate this high diverges at once: early stopping after `patience` epochs
    // without improvement, the best epoch's weights kept.
    let dir = tempfile::tempdir().unwrap();
    let wild = TrainConfig {
        lr: 5.0,
        patience: 2,
        epochs: 30,
        ..tiny()
    };
    let s = train(&header, &ex, &wild, dir.path(), false, &mut |_| {}).unwrap();
    assert!(s.stopped_early, "{:?}", s.history);
    assert_eq!(s.history.len() as u32, s.best_epoch + 2);
    assert!(s.history.iter().filter(|e| e.best).count() >= 1);
}
