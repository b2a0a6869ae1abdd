//! `cargo bench -p fow-players --bench nn`: the move network's forward pass (thesis
//! architecture 896-64-64-128, sparse first layer) and one `NeuralNetworkPlayer` move.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion};
use fow_players::bots::NeuralNetworkPlayer;
use fow_players::nn::encode::{active_inputs, observation_codes};
use fow_players::nn::{Activations, Architecture, Network};
use fow_players::{Budget, GameStart, Player};
use fow_variants::{Color, Observation, Position, RuleSet};

const MIDDLEGAME: &str = "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 4 5";

fn nn(c: &mut Criterion) {
    let rules = RuleSet::thesis();
    let pos: Position = MIDDLEGAME.parse().unwrap();
    let obs = Observation::new(&pos, &rules, 8, None);
    let net = Arc::new(Network::random(Architecture::thesis(), 1).unwrap());
    let (now, _) = observation_codes(&obs);
    let mut active = Vec::new();
    active_inputs(&now, None, &mut active);
    let mut act = Activations::default();

    let mut group = c.benchmark_group("nn");
    group.bench_function("forward_896_64_64_128", |b| {
        b.iter(|| black_box(net.forward(black_box(&active), &mut act)[0]))
    });
    group.bench_function("encode_and_forward", |b| {
        b.iter(|| {
            let (now, _) = observation_codes(black_box(&obs));
            active_inputs(&now, None, &mut active);
            black_box(net.forward(&active, &mut act)[0])
        })
    });
    for t in [0.0, 1.0] {
        let mut bot = NeuralNetworkPlayer::new(net.clone(), t).unwrap();
        bot.start(&GameStart::new(Color::White, rules, 1));
        group.bench_function(format!("choose_temperature_{t}"), |b| {
            b.iter(|| bot.choose(black_box(&obs), &Budget::default()))
        });
    }
    group.finish();
}

criterion_group!(benches, nn);
criterion_main!(benches);
