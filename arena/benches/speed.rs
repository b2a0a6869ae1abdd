//! `cargo bench`: arena games (observation built every ply), observations, perft.
//!
//! Targets on the project's 2-core machine (see README): 10 M plies/s on one core for
//! random-versus-random games; these benches report what is reached.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use fow_arena::{play_game, GameOptions};
use fow_players::bots::RandomMove;
use fow_records::seed::{game_seed, SeedKey};
use fow_variants::{perft, FogView, Observation, Position, RuleSet};

const GAMES: u32 = 200;

fn games(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_games");
    for rules in [RuleSet::thesis(), RuleSet::chesscom()] {
        let opts = GameOptions::new(rules);
        let play_all = || {
            (0..GAMES)
                .map(|k| {
                    let (mut w, mut b) = (RandomMove::new(), RandomMove::new());
                    let seed = game_seed(&SeedKey::public(1), "RandomMove", "RandomMove", k);
                    play_game(&mut w, &mut b, "w", "b", seed, &opts).plies()
                })
                .sum::<usize>()
        };
        group.throughput(Throughput::Elements(play_all() as u64));
        group.bench_function(BenchmarkId::new("plies", rules.to_string()), |b| {
            b.iter(play_all)
        });
    }
    group.finish();
}

fn observations(c: &mut Criterion) {
    let rules = RuleSet::chesscom();
    let pos = Position::from_fen(
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 4 5",
    )
    .expect("valid FEN");
    let mut obs = Observation::new(&pos, &rules, 8, None);
    c.bench_function("observation_refresh", |b| b.iter(|| obs.refresh(&pos, 8)));
    let mut moves = Vec::with_capacity(256);
    c.bench_function("legal_moves_into", |b| {
        b.iter(|| pos.legal_moves_into(&rules, &mut moves))
    });
    c.bench_function("fog_view_of", |b| {
        b.iter(|| FogView::of(&pos, fow_variants::Color::White, &rules))
    });
    let m = pos.legal_moves(&rules)[7];
    c.bench_function("clone_and_play", |b| {
        b.iter(|| {
            let mut p = pos.clone();
            p.play(&m);
            p
        })
    });
}

fn perft_bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    let rules = RuleSet::thesis();
    let n = perft(&Position::startpos(), 4, &rules);
    group.throughput(Throughput::Elements(n));
    group.bench_function("startpos_depth4", |b| {
        b.iter(|| perft(&Position::startpos(), 4, &rules))
    });
    group.finish();
}

criterion_group!(benches, games, observations, perft_bench);
criterion_main!(benches);
