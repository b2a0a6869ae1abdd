//! Fits a tapered piece-square evaluation to the results of games already played (Texel
//! tuning): the evaluation behind `eval=learned` (`players/src/search/learned.txt`).
//!
//! Every position of every decided game of the given results folders (or `games.csv` or
//! PGN files) is a sample: its features are its pieces, each a (role, square seen from
//! its owner's side) with a middle-game weight `phase / 24` and an endgame weight
//! `1 - phase / 24` (the phase as [`fow_players::search::tapered`] counts it), signed by
//! colour; its target is White's points in the game (1, ½ or 0). The fit minimises the
//! mean of `(points - sigmoid(K · value))²`, `value` in pawns, plus `lambda` times the
//! mean squared distance of the 768 values from the tapered evaluation's, which is
//! where the fit starts. `K` is first fitted to the tapered evaluation and then kept.
//! Games are split by a hash of their source and number: one in ten is held out, and
//! the held-out loss is printed for the tapered evaluation and for the fit, so that a
//! fit that only learns its own games shows. Games lost to a fault (an illegal move, a
//! crash, a timeout) and the first [`SKIP`] positions of each game are left out.
//!
//! ```text
//! cargo run --release -p fow-arena --example texel -- \
//!     players/src/search/learned.txt 1.0 300 \
//!     $(cat results/strength/subgame/learned/games.txt)
//! ```
//!
//! (what wrote the shipped table, from the games under `results/strength/` before the
//! learned evaluation's own games were added there). It is deterministic: the same
//! games and arguments write the same table.
//!
//! Writes the table to `OUT.txt` in the format `players/src/search/learned.rs` reads. Bad
//! arguments or unreadable games give one `texel: error:` line and exit 2.

use std::fmt::Write as _;
use std::hash::{Hash, Hasher};
use std::path::Path;
use std::process::ExitCode;

use fow_players::search::{tapered, PAWN};
use fow_records::load_games;
use fow_variants::{role_name, Color, Role, RuleSet, Square};

/// Positions before this ply are left out: the openings repeat from game to game.
const SKIP: usize = 8;
/// Parameters: middle game and endgame, 6 roles, 64 squares from the owner's side.
const N: usize = 2 * 6 * 64;

struct Sample {
    /// Feature indexes (role · 64 + square from the owner's side), the sign in the top bit.
    pieces: Vec<u16>,
    /// The middle-game share, phase / 24.
    mg: f32,
    points: f32,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("texel: error: {e}");
            eprintln!("usage: texel OUT.txt LAMBDA EPOCHS GAMES...");
            ExitCode::from(2)
        }
    }
}

fn owner_square(color: Color, sq: Square) -> usize {
    let (x, rank) = (sq.file() as usize, sq.rank() as usize);
    let y = if color.is_white() { rank } else { 7 - rank };
    y * 8 + x
}

fn run(args: &[String]) -> Result<(), String> {
    let [out, lambda, epochs, paths @ ..] = args else {
        return Err("at least four arguments expected".into());
    };
    if paths.is_empty() {
        return Err("no games given".into());
    }
    let lambda: f64 = lambda
        .parse()
        .map_err(|_| format!("not a number: {lambda}"))?;
    let epochs: usize = epochs
        .parse()
        .map_err(|_| format!("not a number of epochs: {epochs}"))?;
    let (mut train, mut held) = (Vec::new(), Vec::new());
    let mut games = (0usize, 0usize);
    for path in paths {
        for g in load_games(Path::new(path), &RuleSet::thesis()).map_err(|e| e.to_string())? {
            let Some(result) = g.result else { continue };
            // A game that ended by the rules or by resignation; not one lost to a fault.
            if g.reason().map_or(true, |(r, _)| r.is_fault()) {
                continue;
            }
            let mut h = std::collections::hash_map::DefaultHasher::new();
            (path, g.number).hash(&mut h);
            let into = if h.finish().is_multiple_of(10) {
                games.1 += 1;
                &mut held
            } else {
                games.0 += 1;
                &mut train
            };
            let points = result.white_points() as f32;
            for pos in g.positions().iter().skip(SKIP) {
                let board = pos.board();
                if board.kings().count() != 2 {
                    continue;
                }
                let mut phase = 0;
                let mut pieces = Vec::with_capacity(32);
                for (sq, p) in board.iter() {
                    phase += tapered::phase_weight(p.role);
                    let i = (p.role as usize - 1) * 64 + owner_square(p.color, sq);
                    pieces.push(i as u16 | if p.color.is_white() { 0 } else { 0x8000 });
                }
                into.push(Sample {
                    pieces,
                    mg: phase.min(tapered::MAX_PHASE) as f32 / tapered::MAX_PHASE as f32,
                    points,
                });
            }
        }
    }
    if train.is_empty() || held.is_empty() {
        return Err("too few positions to fit and to hold out".into());
    }
    let start = tapered_start();
    let k = fit_k(&train, &start);
    let mut w = start.clone();
    let loss = |w: &[f64], s: &[Sample]| mean_loss(w, s, k);
    println!(
        "{} training games ({} positions), {} held out ({} positions); K = {k:.3}",
        games.0,
        train.len(),
        games.1,
        held.len()
    );
    println!(
        "tapered: training loss {:.6}, held-out loss {:.6}",
        loss(&start, &train),
        loss(&start, &held)
    );
    // Adam on the full batch.
    let (mut m, mut v) = (vec![0.0; N], vec![0.0; N]);
    let (rate, b1, b2) = (0.01, 0.9, 0.999);
    for epoch in 1..=epochs {
        let mut grad = vec![0.0f64; N];
        for s in &train {
            let value = value_of(&w, s);
            let p = sigmoid(k * value);
            // d/dvalue of (points - p)^2.
            let d = -2.0 * (f64::from(s.points) - p) * p * (1.0 - p) * k;
            let mg = f64::from(s.mg);
            for &f in &s.pieces {
                let (i, sign) = feature(f);
                grad[i] += d * sign * mg;
                grad[N / 2 + i] += d * sign * (1.0 - mg);
            }
        }
        let n = train.len() as f64;
        for i in 0..N {
            let g = grad[i] / n + 2.0 * lambda * (w[i] - start[i]) / N as f64;
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(epoch as i32));
            let vh = v[i] / (1.0 - b2.powi(epoch as i32));
            w[i] -= rate * mh / (vh.sqrt() + 1e-8);
        }
        if epoch % 50 == 0 || epoch == epochs {
            println!(
                "epoch {epoch}: training loss {:.6}, held-out loss {:.6}",
                loss(&w, &train),
                loss(&w, &held)
            );
        }
    }
    std::fs::write(out, render(&w, args)).map_err(|e| format!("{out}: {e}"))?;
    println!("wrote {out}");
    Ok(())
}

fn feature(f: u16) -> (usize, f64) {
    (
        usize::from(f & 0x7fff),
        if f & 0x8000 == 0 { 1.0 } else { -1.0 },
    )
}

fn value_of(w: &[f64], s: &Sample) -> f64 {
    let mg = f64::from(s.mg);
    s.pieces
        .iter()
        .map(|&f| {
            let (i, sign) = feature(f);
            sign * (w[i] * mg + w[N / 2 + i] * (1.0 - mg))
        })
        .sum()
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn mean_loss(w: &[f64], samples: &[Sample], k: f64) -> f64 {
    samples
        .iter()
        .map(|s| (f64::from(s.points) - sigmoid(k * value_of(w, s))).powi(2))
        .sum::<f64>()
        / samples.len() as f64
}

/// The tapered evaluation's values in pawns, the king's without its 1000.
fn tapered_start() -> Vec<f64> {
    let mut w = vec![0.0; N];
    for role in Role::ALL {
        for sq in Square::ALL {
            let (mg, eg) = tapered::piece_values(Color::White, role, sq);
            let base = if role == Role::King { 1000.0 } else { 0.0 };
            let i = (role as usize - 1) * 64 + owner_square(Color::White, sq);
            w[i] = mg as f64 / PAWN as f64 - base;
            w[N / 2 + i] = eg as f64 / PAWN as f64 - base;
        }
    }
    w
}

/// The scale K that fits the tapered evaluation best, by golden-section search.
fn fit_k(samples: &[Sample], w: &[f64]) -> f64 {
    let (mut a, mut b) = (0.01f64, 3.0f64);
    let r = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let c = b - r * (b - a);
        let d = a + r * (b - a);
        if mean_loss(w, samples, c) < mean_loss(w, samples, d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

fn render(w: &[f64], args: &[String]) -> String {
    let mut s = String::new();
    s.push_str(
        "# fow's learned evaluation (eval=learned): piece values in pawns by square, seen from\n",
    );
    s.push_str(
        "# the piece's owner (first row: its eighth rank; each row files a to h), a middle-game\n",
    );
    s.push_str("# and an endgame table per role, kings without their 1000. Written by\n");
    let _ = writeln!(
        s,
        "# cargo run --release -p fow-arena --example texel -- {}",
        args.join(" ")
    );
    for (t, table) in ["mg", "eg"].iter().enumerate() {
        for role in Role::ALL {
            let _ = writeln!(s, "{table} {}", role_name(role));
            for y in (0..8).rev() {
                let row: Vec<String> = (0..8)
                    .map(|x| {
                        let i = t * N / 2 + (role as usize - 1) * 64 + y * 8 + x;
                        format!("{:7.3}", w[i])
                    })
                    .collect();
                let _ = writeln!(s, "{}", row.join(" "));
            }
        }
    }
    s
}
