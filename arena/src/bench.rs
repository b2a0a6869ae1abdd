//! Speed measurement: random-versus-random games through the full arena path (an
//! observation built for the mover every ply, moves checked, views after each move).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use fow_players::bots::RandomMove;
use fow_variants::RuleSet;

use crate::play::{play_game, GameOptions};
use crate::seed::{game_seed, mix};

/// What a benchmark run measured.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchReport {
    /// Games played.
    pub games: usize,
    /// Plies played in all.
    pub plies: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// Threads used.
    pub jobs: usize,
    /// A hash of every game's moves and result, in game order: equal across runs, machines
    /// and thread counts; it changes only when behaviour changes.
    pub signature: u64,
}

impl BenchReport {
    /// Plies per second.
    pub fn plies_per_second(&self) -> f64 {
        self.plies as f64 / self.elapsed.as_secs_f64()
    }
}

/// Plays `games` RandomMove-versus-RandomMove games under `rules` from `seed` on `jobs`
/// threads.
pub fn random_games(games: usize, seed: u64, rules: RuleSet, jobs: usize) -> BenchReport {
    let opts = GameOptions::new(rules);
    let next = AtomicUsize::new(0);
    let hashes = Mutex::new(vec![0u64; games]);
    let plies = AtomicUsize::new(0);
    let jobs = jobs.max(1);
    let started = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .expect("thread pool");
    pool.scope(|s| {
        for _ in 0..jobs {
            s.spawn(|_| {
                let mut local = Vec::new();
                let mut local_plies = 0;
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= games {
                        break;
                    }
                    let (mut w, mut b) = (RandomMove::new(), RandomMove::new());
                    let seed = game_seed(seed, "RandomMove", "RandomMove", k as u32);
                    let rec = play_game(&mut w, &mut b, "RandomMove", "RandomMove", seed, &opts);
                    local_plies += rec.moves.len();
                    let mut h = mix(rec.result as u64 ^ ((rec.reason as u64) << 8));
                    for m in &rec.moves {
                        let code = (m.from as u64)
                            | (m.to as u64) << 6
                            | (m.promotion.map_or(0, |r| r as u64) << 12);
                        h = mix(h ^ code);
                    }
                    local.push((k, h));
                }
                plies.fetch_add(local_plies, Ordering::Relaxed);
                let mut all = hashes.lock().expect("bench lock");
                for (k, h) in local {
                    all[k] = h;
                }
            });
        }
    });
    let elapsed = started.elapsed();
    let signature = hashes
        .into_inner()
        .expect("bench lock")
        .into_iter()
        .fold(0u64, |acc, h| mix(acc ^ h));
    BenchReport {
        games,
        plies: plies.into_inner() as u64,
        elapsed,
        jobs,
        signature,
    }
}
