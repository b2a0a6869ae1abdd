//! `cargo bench -p fow-web --bench pages`: what `fow web`'s pages cost on a 9,000-game
//! run (`results/all-bots-100`: ten bots, 100 games per ordered pair): the run's page
//! (every game read and checked, the crosstable, the BayesElo fit and LOS), one game's
//! page (its replay, three boards per ply), the index of every run under `results/`,
//! and 100 requests at once for the run's page over HTTP.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use criterion::{criterion_group, criterion_main, Criterion};
use fow_web::{game_json, run_json, runs, Roots, Web, WebOptions};

fn results() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../results")
}

fn pages(c: &mut Criterion) {
    let run = results().join("all-bots-100");
    let mut group = c.benchmark_group("pages");
    group.sample_size(10);
    group.bench_function("run_page_9000_games", |b| {
        b.iter(|| run_json("0/all-bots-100", &run).expect("the run's page"))
    });
    group.bench_function("game_page", |b| {
        b.iter(|| game_json(&run, 4500).expect("a game's page"))
    });
    let roots = Roots::new(&[results()]).unwrap();
    group.bench_function("index_of_results", |b| b.iter(|| runs(&roots)));
    group.finish();
}

/// `GET path` on `addr`, the whole answer read.
fn get(addr: &str, path: &str) -> usize {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).unwrap();
    assert!(out.starts_with(b"HTTP/1.1 200"));
    out.len()
}

fn concurrent(c: &mut Criterion) {
    let web = Web::bind(WebOptions {
        roots: vec![results()],
        listen: "127.0.0.1:0".into(),
        play: None,
        rules: fow_variants::RuleSet::thesis(),
    })
    .unwrap();
    let addr = web
        .url()
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| web.serve(&stop));
        let mut group = c.benchmark_group("http");
        group.sample_size(10);
        group.bench_function("100_concurrent_run_pages_9000_games", |b| {
            b.iter(|| {
                std::thread::scope(|s| {
                    let hs: Vec<_> = (0..100)
                        .map(|_| s.spawn(|| get(&addr, "/api/run?r=0/all-bots-100")))
                        .collect();
                    hs.into_iter().map(|h| h.join().unwrap()).sum::<usize>()
                })
            })
        });
        group.finish();
        stop.store(true, std::sync::atomic::Ordering::SeqCst);
    });
}

criterion_group!(benches, pages, concurrent);
criterion_main!(benches);
