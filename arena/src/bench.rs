//! Speed measurement: random-versus-random games through the full arena path (an
//! observation built for the mover every ply, with its view right after its previous
//! move, and moves checked).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use fow_players::bots::RandomMove;
use fow_variants::RuleSet;

use crate::play::{play_game, GameOptions};
use fow_records::seed::{game_seed, mix, SeedKey};

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

/// Games a thread of [`random_games`] claims at once.
const BLOCK: usize = 8;

/// Plays `games` RandomMove-versus-RandomMove games under `rules` from `seed` on `jobs`
/// threads.
pub fn random_games(games: usize, seed: u64, rules: RuleSet, jobs: usize) -> BenchReport {
    let opts = GameOptions::new(rules);
    let key = SeedKey::public(seed);
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
                // Games are claimed a block at a time: one shared counter touched by
                // every thread for every game would pass its cache line between the
                // cores about 100,000 times a second (about 0.2 us a pass on the 2-core
                // VM this was written on, so about 1% of each thread's time).
                loop {
                    let first = next.fetch_add(BLOCK, Ordering::Relaxed);
                    if first >= games {
                        break;
                    }
                    for k in first..(first + BLOCK).min(games) {
                        let (mut w, mut b) = (RandomMove::new(), RandomMove::new());
                        let seed = game_seed(&key, "RandomMove", "RandomMove", k as u32);
                        let rec =
                            play_game(&mut w, &mut b, "RandomMove", "RandomMove", seed, &opts);
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

/// What [`belief_games`] measured.
#[derive(Clone, Debug, PartialEq)]
pub struct BeliefReport {
    /// Games played.
    pub games: usize,
    /// Decisions PossibleBoardList made.
    pub decisions: u64,
    /// Boards expanded under every opponent move.
    pub expanded: u64,
    /// Children (board, opponent move) generated and checked against the view.
    pub children: u64,
    /// Children kept.
    pub kept: u64,
    /// Wall time spent updating the belief set.
    pub update_time: Duration,
    /// Wall time PossibleBoardList spent choosing in all (updates included).
    pub think_time: Duration,
    /// Search nodes visited.
    pub nodes: u64,
    /// Boards searched.
    pub searched: u64,
    /// The set size at every decision, sorted.
    pub sizes: Vec<usize>,
    /// Decisions where the set overflowed its cap or went empty and was rebuilt.
    pub rebuilds: u64,
    /// PossibleBoardList's points.
    pub points: f64,
    /// A hash of the games' moves and results.
    pub signature: u64,
}

impl BeliefReport {
    /// The median set size.
    pub fn median_size(&self) -> usize {
        self.sizes.get(self.sizes.len() / 2).copied().unwrap_or(0)
    }

    /// The largest set size.
    pub fn max_size(&self) -> usize {
        self.sizes.last().copied().unwrap_or(0)
    }
}

/// Plays `games` games of PossibleBoardList (default settings) against `opponent` on one
/// thread, colours alternating, and reports how its belief tracking and search went.
pub fn belief_games(
    games: usize,
    seed: u64,
    rules: RuleSet,
    opponent: &fow_players::PlayerSpec,
) -> Result<BeliefReport, fow_players::SpecError> {
    use fow_players::bots::{BoardListSettings, PossibleBoardList};
    use fow_players::Player;
    let opts = GameOptions::new(rules);
    let opp_name = opponent.to_string();
    let mut r = BeliefReport {
        games,
        decisions: 0,
        expanded: 0,
        children: 0,
        kept: 0,
        update_time: Duration::ZERO,
        think_time: Duration::ZERO,
        nodes: 0,
        searched: 0,
        sizes: Vec::new(),
        rebuilds: 0,
        points: 0.0,
        signature: 0,
    };
    for k in 0..games {
        let mut bot = PossibleBoardList::new(BoardListSettings::default());
        let mut opp = opponent.build()?;
        let white = k % 2 == 0;
        let (wn, bn) = if white {
            ("PossibleBoardList", opp_name.as_str())
        } else {
            (opp_name.as_str(), "PossibleBoardList")
        };
        let seed = game_seed(&SeedKey::public(seed), wn, bn, k as u32);
        let rec = if white {
            play_game(&mut bot, opp.as_mut(), wn, bn, seed, &opts)
        } else {
            play_game(opp.as_mut(), &mut bot, wn, bn, seed, &opts)
        };
        let side = usize::from(!white);
        r.decisions += u64::from(rec.decisions[side]);
        r.think_time += rec.time[side];
        r.points += match (rec.result, white) {
            (fow_records::GameResult::WhiteWins, true)
            | (fow_records::GameResult::BlackWins, false) => 1.0,
            (fow_records::GameResult::Draw, _) => 0.5,
            _ => 0.0,
        };
        let stats = bot.belief_stats();
        r.expanded += stats.expanded;
        r.children += stats.children;
        r.kept += stats.kept;
        let log = bot.log();
        r.update_time += log.update_time;
        r.searched += log.searched;
        r.rebuilds += u64::from(log.overflows + log.empties);
        r.sizes.extend_from_slice(&log.sizes);
        r.nodes += bot.nodes();
        let mut h = mix(rec.result as u64 ^ ((rec.reason as u64) << 8));
        for m in &rec.moves {
            h = mix(h ^ ((m.from as u64) | (m.to as u64) << 6));
        }
        r.signature = mix(r.signature ^ h);
    }
    r.sizes.sort_unstable();
    Ok(r)
}
