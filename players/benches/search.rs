//! `cargo bench -p fow-players`: MyStockfish searches and belief-set updates.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use fow_players::belief::board_list::BoardList;
use fow_players::search::{MyStockfish, SearchBoard};
use fow_variants::{Color, FogView, Game, Move, Observation, Position, RuleSet};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

const MIDDLEGAME: &str = "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 4 5";

fn search(c: &mut Criterion) {
    let rules = RuleSet::thesis();
    let pos: Position = MIDDLEGAME.parse().unwrap();
    let board = SearchBoard::from_position(&pos);
    let mut group = c.benchmark_group("mystockfish");
    for depth in [2, 3] {
        let mut e = MyStockfish::new(rules, 1);
        e.run(&board, depth);
        group.throughput(Throughput::Elements(e.nodes()));
        group.bench_function(format!("run_depth_{depth}_nodes"), |b| {
            b.iter(|| {
                let mut e = MyStockfish::new(rules, 1);
                e.run(&board, depth)
            })
        });
    }
    let mut e = MyStockfish::new(rules, 1);
    e.all(&board, 2);
    group.throughput(Throughput::Elements(e.nodes()));
    group.bench_function("all_depth_2_nodes", |b| {
        b.iter(|| {
            let mut e = MyStockfish::new(rules, 1);
            e.all(&board, 2)
        })
    });
    group.finish();
}

/// A recorded random game: the observations of `us` and its own moves, to replay into a
/// fresh belief set.
fn recorded(us: Color, plies: u32, seed: u64) -> Vec<(Observation, Option<Move>)> {
    let rules = RuleSet::thesis();
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut game = Game::new(Position::startpos(), rules);
    let mut out = Vec::new();
    let mut prev: Option<FogView> = None;
    let mut last: Option<Move> = None;
    for ply in 0..plies {
        let pos = game.position().clone();
        let moves = pos.legal_moves(&rules);
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.random_range(0..moves.len())];
        if pos.turn() == us {
            out.push((Observation::new(&pos, &rules, ply, prev.clone()), last));
            last = Some(m);
        }
        if game.play(&m).is_some() {
            break;
        }
        if pos.turn() == us {
            prev = Some(FogView::of(game.position(), us, &rules));
        }
    }
    out
}

fn belief(c: &mut Criterion) {
    let rules = RuleSet::thesis();
    let turns = recorded(Color::Black, 24, 5);
    let mut count = BoardList::new(Color::Black, rules);
    for (obs, last) in &turns {
        count.update(obs, last.as_ref(), 1_000_000);
    }
    let mut group = c.benchmark_group("belief");
    group.throughput(Throughput::Elements(count.stats().children));
    group.bench_function("board_list_12_turns_children", |b| {
        b.iter(|| {
            let mut list = BoardList::new(Color::Black, rules);
            for (obs, last) in &turns {
                list.update(obs, last.as_ref(), 1_000_000);
            }
            list.len()
        })
    });
    group.finish();
}

criterion_group!(benches, search, belief);
criterion_main!(benches);
