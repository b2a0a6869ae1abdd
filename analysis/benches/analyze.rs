//! `cargo bench -p fow-analysis --bench analyze`: positions valued per second by `fow
//! analyze` at its default settings (MyStockfish depth 4, 200000 nodes), on one thread,
//! over games of the default tournament's players (`results/thesis-reproduction`, whose
//! first 20 games per pair are the games of `fow tournament` on defaults).

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use fow_analysis::{analyze_game, MyStockfishEvaluator};
use fow_records::{load_games, SavedGame};
use fow_variants::RuleSet;

/// Games 0, 10, ..., 80 of the reproduction: nine games of nine pairs.
fn games() -> Vec<SavedGame> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../results/thesis-reproduction");
    let all = load_games(&dir, &RuleSet::thesis()).expect("the reproduction's games");
    all.into_iter()
        .filter(|g| g.number < 90 && g.number % 10 == 0)
        .collect()
}

fn analyze(c: &mut Criterion) {
    let games = games();
    let positions: usize = games.iter().map(|g| g.moves.len() + 1).sum();
    let mut group = c.benchmark_group("analyze");
    group.sample_size(10);
    group.throughput(Throughput::Elements(positions as u64));
    group.bench_function(format!("default_settings_{}_positions", positions), |b| {
        b.iter(|| {
            for g in &games {
                let mut e = MyStockfishEvaluator::default();
                analyze_game(g, &mut e).expect("analysed");
            }
        })
    });
    group.finish();
}

criterion_group!(benches, analyze);
criterion_main!(benches);
