//! Speed measurement: random-versus-random games through the full arena path (an
//! observation built for the mover every ply, with its view right after its previous
//! move, and moves checked), perft, belief tracking and a program player's round trip;
//! [`BenchSettings::run`] is `fow bench`, its report line by line and its signature.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use fow_players::bots::RandomMove;
use fow_players::PlayerSpec;
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

/// A hash of a game's result, how it ended and its moves (from and to squares), for the
/// belief measurements' signatures.
fn result_hash(rec: &fow_records::GameRecord) -> u64 {
    let mut h = mix(rec.result as u64 ^ ((rec.reason as u64) << 8));
    for m in &rec.moves {
        h = mix(h ^ ((m.from as u64) | (m.to as u64) << 6));
    }
    h
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
        r.points += crate::score_of(rec.result, white);
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
        r.signature = mix(r.signature ^ result_hash(&rec));
    }
    r.sizes.sort_unstable();
    Ok(r)
}

/// One side's figures in [`solver_games`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BeliefBotReport {
    /// The bot's name.
    pub name: String,
    /// Decisions it made.
    pub decisions: u64,
    /// Wall time it spent updating its belief.
    pub update_time: Duration,
    /// Wall time it spent choosing in all (updates included).
    pub think_time: Duration,
    /// Its belief's size at every decision, sorted.
    pub sizes: Vec<usize>,
    /// Decisions where more boards fitted than it keeps (a sample kept) or none was left.
    pub overflows: u64,
    /// Its points.
    pub points: f64,
    /// Subgames it solved, and the boards and candidate moves they were over in all
    /// (SubgameSolver only).
    pub subgames: (u64, u64, u64),
}

impl BeliefBotReport {
    /// Belief updates (one per decision) per second of updating.
    pub fn updates_per_second(&self) -> f64 {
        self.decisions as f64 / self.update_time.as_secs_f64().max(1e-9)
    }

    /// The median belief size.
    pub fn median_size(&self) -> usize {
        self.sizes.get(self.sizes.len() / 2).copied().unwrap_or(0)
    }

    /// Milliseconds per move, all of it and updating the belief.
    pub fn ms_per_move(&self) -> (f64, f64) {
        let per = |d: Duration| d.as_secs_f64() * 1e3 / self.decisions.max(1) as f64;
        (per(self.think_time), per(self.update_time))
    }
}

/// Plays `games` games of SubgameSolver against BeliefSearch (both at their defaults,
/// under `nodes` per move when given) on one thread, colours alternating, and reports
/// each side's belief and time: the belief is the same kind (BeliefSearch's), so the
/// figures compare what the subgame adds. Also returns a hash of the games' moves and
/// results, and the games.
pub fn solver_games(
    games: usize,
    seed: u64,
    rules: RuleSet,
    nodes: Option<u64>,
) -> ([BeliefBotReport; 2], u64, Vec<fow_records::GameRecord>) {
    use fow_players::bots::SubgameSolverSettings;
    use fow_players::bots::{BeliefSearch, BeliefSearchSettings, SubgameSolver};
    let mut opts = GameOptions::new(rules);
    opts.budget.nodes = nodes;
    let names = ["SubgameSolver", "BeliefSearch"];
    let mut r = names.map(|n| BeliefBotReport {
        name: n.to_string(),
        ..BeliefBotReport::default()
    });
    let mut signature = 0;
    let mut records = Vec::with_capacity(games);
    for k in 0..games {
        let mut solver = SubgameSolver::new(SubgameSolverSettings::default());
        let mut search = BeliefSearch::new(BeliefSearchSettings::default());
        let solver_white = k % 2 == 0;
        let (wn, bn) = if solver_white {
            (names[0], names[1])
        } else {
            (names[1], names[0])
        };
        let seed = game_seed(&SeedKey::public(seed), wn, bn, k as u32);
        let rec = if solver_white {
            play_game(&mut solver, &mut search, wn, bn, seed, &opts)
        } else {
            play_game(&mut search, &mut solver, wn, bn, seed, &opts)
        };
        let logs = [solver.log().clone(), search.log().clone()];
        for (i, log) in logs.iter().enumerate() {
            // Side 0 is White's in the record.
            let side = usize::from((i == 0) != solver_white);
            let rep = &mut r[i];
            rep.decisions += u64::from(rec.decisions[side]);
            rep.think_time += rec.time[side];
            rep.update_time += log.update_time;
            rep.sizes.extend_from_slice(&log.sizes);
            rep.overflows += u64::from(log.overflows + log.empties);
            rep.points += crate::score_of(rec.result, side == 0);
        }
        for d in solver.decisions().iter().filter(|d| d.boards > 0) {
            let s = &mut r[0].subgames;
            *s = (s.0 + 1, s.1 + d.boards as u64, s.2 + d.candidates as u64);
        }
        signature = mix(signature ^ result_hash(&rec));
        records.push(rec);
    }
    for rep in &mut r {
        rep.sizes.sort_unstable();
    }
    (r, signature, records)
}

/// The exact belief's lines over `games` (see [`crate::exact_belief`]), and a hash of
/// its counts.
fn exact_lines(
    games: &[fow_records::GameRecord],
    cap: usize,
    line: &mut dyn FnMut(&str),
) -> Result<u64, String> {
    use crate::exact_belief::{exact_beliefs, BYTES_PER_BOARD, PHASES};
    let r = exact_beliefs(games, cap)?;
    let percent = |part: u64, all: u64| 100.0 * part as f64 / all.max(1) as f64;
    let phases: Vec<String> = PHASES
        .iter()
        .zip(&r.phases)
        .filter(|(_, (turns, _))| *turns > 0)
        .map(|((lo, hi), (turns, exact))| {
            let span = if *hi == usize::MAX {
                format!("{lo}+")
            } else {
                format!("{lo}-{hi}")
            };
            format!("plies {span} {:.0}%", percent(*exact, *turns))
        })
        .collect();
    line(&format!(
        "  exact belief, the same games replayed for each side, up to {cap} boards:"
    ));
    line(&format!(
        "    exact at {} of {} turns ({:.1}%): {}; {} of {} sides outgrew it, first at ply {} (median {})",
        r.exact_turns(),
        r.turns,
        percent(r.exact_turns(), r.turns),
        phases.join(", "),
        r.overflows.len(),
        r.sides,
        r.overflows.first().map_or("-".into(), |p| p.to_string()),
        r.median_overflow().map_or("-".into(), |p| p.to_string()),
    ));
    let secs = r.update_time.as_secs_f64().max(1e-9);
    line(&format!(
        "    exact sets: median {}, 90th percentile {}, largest {}; {:.2} M boards expanded/s, {:.1} M children checked/s; {} bytes a board ({:.0} MiB for 1,000,000)",
        r.size_quantile(0.5),
        r.size_quantile(0.9),
        r.size_quantile(1.0),
        r.expanded as f64 / secs / 1e6,
        r.children as f64 / secs / 1e6,
        BYTES_PER_BOARD,
        BYTES_PER_BOARD as f64 * 1e6 / (1 << 20) as f64
    ));
    Ok(r.sizes.iter().fold(mix(r.turns), |h, &s| mix(h ^ s as u64)))
}

/// Runs [`random_games`] `repeat` times (at least once) for each of `job_counts`, the job
/// counts taking turns (one run each per round) so that a slow phase of a shared machine
/// falls on all of them alike rather than on one block of repetitions. Returns the runs
/// of each job count in round order.
pub fn alternating_runs(
    games: usize,
    seed: u64,
    rules: RuleSet,
    job_counts: &[usize],
    repeat: u32,
) -> Vec<Vec<BenchReport>> {
    let mut runs: Vec<Vec<BenchReport>> = vec![Vec::new(); job_counts.len()];
    for _ in 0..repeat.max(1) {
        for (k, &j) in job_counts.iter().enumerate() {
            runs[k].push(random_games(games, seed, rules, j));
        }
    }
    runs
}

/// The median over rounds of the second run's speed over the first's (runs of
/// [`alternating_runs`] in round order, side by side): the ratio a noisy machine still
/// measures fairly. `None` when either is empty.
pub fn median_round_ratio(first: &[BenchReport], second: &[BenchReport]) -> Option<f64> {
    let mut ratios: Vec<f64> = first
        .iter()
        .zip(second)
        .map(|(a, b)| b.plies_per_second() / a.plies_per_second())
        .collect();
    ratios.sort_by(f64::total_cmp);
    ratios.get(ratios.len() / 2).copied()
}

/// Perft from the start position to `depth` under `rules`, `repeat` times (at least
/// once): the node count and the fastest time.
pub fn timed_perft(depth: u32, rules: &RuleSet, repeat: u32) -> (u64, Duration) {
    let mut nodes = 0;
    let mut best = Duration::MAX;
    for _ in 0..repeat.max(1) {
        let t = Instant::now();
        nodes = fow_variants::perft(&fow_variants::Position::startpos(), depth, rules);
        best = best.min(t.elapsed());
    }
    (nodes, best)
}

/// The behaviour signature of `fow bench`: every measurement's own signature (or node
/// count) mixed in, in order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Signature(pub u64);

impl Signature {
    /// Mixes in one measurement's signature.
    pub fn add(&mut self, x: u64) {
        self.0 = mix(self.0 ^ x);
    }
}

/// What [`exec_round_trip`] measured: a program player's turns against an in-process bot.
#[derive(Clone, Debug, Default)]
pub struct RoundTrip {
    /// Games played.
    pub games: usize,
    /// The program's turns (each a request and its answer).
    pub turns: u64,
    /// The program's time over its turns, round trips included.
    pub turn_time: Duration,
    /// The in-process bot's moves.
    pub inside_moves: u64,
    /// The in-process bot's time over its moves.
    pub inside_time: Duration,
    /// Wall time of all games, starting and ending the program included.
    pub wall: Duration,
    /// Games lost by a fault of either side.
    pub faults: usize,
}

impl RoundTrip {
    /// Microseconds per turn of the program.
    pub fn us_per_turn(&self) -> f64 {
        self.turn_time.as_secs_f64() * 1e6 / self.turns.max(1) as f64
    }

    /// Microseconds per move of the in-process bot.
    pub fn inside_us_per_move(&self) -> f64 {
        self.inside_time.as_secs_f64() * 1e6 / self.inside_moves.max(1) as f64
    }

    /// Milliseconds per game spent outside the moves: starting and ending the program.
    pub fn ms_per_game_outside(&self) -> f64 {
        self.wall
            .saturating_sub(self.turn_time + self.inside_time)
            .as_secs_f64()
            * 1e3
            / self.games.max(1) as f64
    }
}

/// Plays `games` games of the program player `program` against `inside` (an in-process
/// bot) on one thread, colours alternating, thesis rules, game `g` with seed `seed ^ g`,
/// and measures the program's round trip per turn (wall clock: not deterministic).
pub fn exec_round_trip(
    program: &PlayerSpec,
    inside: &PlayerSpec,
    games: usize,
    seed: u64,
) -> Result<RoundTrip, fow_players::SpecError> {
    let opts = GameOptions::new(RuleSet::thesis());
    let mut r = RoundTrip {
        games,
        ..RoundTrip::default()
    };
    let started = Instant::now();
    for g in 0..games {
        let (mut ext, mut bot) = (program.build()?, inside.build()?);
        let white = g % 2 == 0;
        let seed = seed ^ g as u64;
        let rec = if white {
            play_game(
                ext.as_mut(),
                bot.as_mut(),
                "exec",
                &inside.name,
                seed,
                &opts,
            )
        } else {
            play_game(
                bot.as_mut(),
                ext.as_mut(),
                &inside.name,
                "exec",
                seed,
                &opts,
            )
        };
        r.faults += usize::from(rec.reason.is_fault());
        let (e, i) = if white { (0, 1) } else { (1, 0) };
        r.turns += u64::from(rec.decisions[e]);
        r.turn_time += rec.time[e];
        r.inside_moves += u64::from(rec.decisions[i]);
        r.inside_time += rec.time[i];
    }
    r.wall = started.elapsed();
    Ok(r)
}

/// What `fow bench` measures, in order: random games on one and on `jobs` threads under
/// both rule presets, perft, PossibleBoardList's belief tracking, a program player's
/// round trip.
#[derive(Clone, Debug)]
pub struct BenchSettings {
    /// Games per random-game measurement (at least 1).
    pub games: usize,
    /// Threads of the parallel random-game measurement (1: none).
    pub jobs: usize,
    /// Perft depth from the start position (1 to 8).
    pub perft_depth: u32,
    /// Seed of the games.
    pub seed: u64,
    /// Repetitions of each measurement (at least 1).
    pub repeat: u32,
    /// Games of PossibleBoardList against CaptureLargest (0 skips them).
    pub belief_games: usize,
    /// Games of `program` against RandomMove (0 skips them).
    pub exec_games: usize,
    /// Games of SubgameSolver against BeliefSearch (0 skips them).
    pub solver_games: usize,
    /// The most boards of the exact belief replayed over the SubgameSolver games (0 skips
    /// it; see [`crate::exact_belief`]).
    pub exact_cap: usize,
    /// The program player of the round-trip games (`fow serve RandomMove` run as a
    /// program); needed when `exec_games` is not 0.
    pub program: Option<PlayerSpec>,
}

impl BenchSettings {
    /// Refuses settings that measure nothing: no repetition, no games, a perft depth out
    /// of 1 to 8 (the message names the `fow bench` option).
    pub fn check(&self) -> Result<(), String> {
        if self.repeat == 0 {
            return Err("--repeat must be at least 1".into());
        }
        if self.games == 0 {
            return Err("--games must be at least 1".into());
        }
        if self.perft_depth == 0 || self.perft_depth > 8 {
            return Err("--perft-depth must be between 1 and 8".into());
        }
        Ok(())
    }

    /// Runs the measurements, handing each line of the report to `line` as soon as it is
    /// measured, the last one the signature (which changes only when behaviour does).
    /// Fails when a repetition played other games than the first (determinism broken) or
    /// a player cannot be built.
    pub fn run(&self, line: &mut dyn FnMut(&str)) -> Result<Signature, String> {
        let mut signature = Signature::default();
        // Untimed warm-up: attack tables into cache, threads started, clocks up.
        random_games(
            (self.games / 10).max(100),
            self.seed ^ 1,
            RuleSet::thesis(),
            self.jobs,
        );
        line(&format!(
            "random vs random, full arena path (observation built every ply), best and median of {}:",
            self.repeat.max(1)
        ));
        for rules in [RuleSet::thesis(), RuleSet::chesscom()] {
            signature.add(self.random_lines(rules, line)?);
        }
        line(&format!(
            "perft from the start position, best of {}:",
            self.repeat.max(1)
        ));
        for rules in [RuleSet::thesis(), RuleSet::chesscom()] {
            let (n, time) = timed_perft(self.perft_depth, &rules, self.repeat);
            let s = time.as_secs_f64();
            line(&format!(
                "  {:<8} depth {}: {n} nodes in {:.3} s = {:.1} M nodes/s",
                rules.to_string(),
                self.perft_depth,
                s,
                n as f64 / s / 1e6
            ));
            signature.add(n);
        }
        if self.belief_games > 0 {
            signature.add(self.belief_lines(line)?);
        }
        if self.solver_games > 0 {
            signature.add(self.solver_lines(line)?);
        }
        if self.exec_games > 0 {
            self.exec_lines(line)?;
        }
        line(&format!(
            "signature: {:016x} (games {}, seed {}, perft depth {}, belief games {})",
            signature.0, self.games, self.seed, self.perft_depth, self.belief_games
        ));
        Ok(signature)
    }

    /// The random games under `rules` on one job and on `jobs`, taking turns: their lines,
    /// and the fastest one-job run's signature.
    fn random_lines(&self, rules: RuleSet, line: &mut dyn FnMut(&str)) -> Result<u64, String> {
        let mut job_counts = vec![1];
        if self.jobs > 1 {
            job_counts.push(self.jobs);
        }
        let mut runs = alternating_runs(self.games, self.seed, rules, &job_counts, self.repeat);
        // Per-round ratio of the parallel run's speed to the one-job run's beside it.
        let round_ratio = match runs.as_slice() {
            [one, many] => median_round_ratio(one, many),
            _ => None,
        };
        let (mut one_job, mut one_job_signature) = (0.0, 0);
        for (k, &j) in job_counts.iter().enumerate() {
            let runs = &mut runs[k];
            runs.sort_by_key(|r| r.elapsed);
            let median = runs[runs.len() / 2].plies_per_second();
            let r = &runs[0];
            let pps = r.plies_per_second();
            if j == 1 {
                one_job = pps;
                one_job_signature = r.signature;
            }
            line(&format!(
                "  {:<8} {} job{}: {} games, {} plies in {:.3} s = {:.2} M plies/s (median {:.2}){}",
                rules.to_string(),
                j,
                if j == 1 { " " } else { "s" },
                r.games,
                r.plies,
                r.elapsed.as_secs_f64(),
                pps / 1e6,
                median / 1e6,
                match round_ratio {
                    Some(ratio) if j > 1 => format!(
                        " ({:.2}x one job; median of rounds {ratio:.2}x)",
                        pps / one_job
                    ),
                    _ => String::new(),
                }
            ));
            if runs.iter().any(|r| r.signature != one_job_signature) {
                return Err(format!(
                    "a run on {j} job{} played other games than the fastest one-job run: \
                     determinism is broken",
                    if j == 1 { "" } else { "s" }
                ));
            }
        }
        Ok(one_job_signature)
    }

    /// The belief measurement's lines, and its signature.
    fn belief_lines(&self, line: &mut dyn FnMut(&str)) -> Result<u64, String> {
        let opponent: PlayerSpec = "CaptureLargest".parse().expect("a registered bot");
        let r = belief_games(self.belief_games, self.seed, RuleSet::thesis(), &opponent)
            .map_err(|e| e.to_string())?;
        let update = r.update_time.as_secs_f64();
        let search = (r.think_time.saturating_sub(r.update_time)).as_secs_f64();
        let per_decision = |x: f64| x * 1e3 / r.decisions.max(1) as f64;
        line(&format!(
            "PossibleBoardList (default settings) vs CaptureLargest, thesis rules, {} games on one thread:",
            r.games
        ));
        line(&format!(
            "  {} decisions, {:.2} ms per move ({:.2} ms updating the set, {:.2} ms searching); scored {:.1}/{}",
            r.decisions,
            per_decision(r.think_time.as_secs_f64()),
            per_decision(update),
            per_decision(search),
            r.points,
            r.games
        ));
        line(&format!(
            "  belief set: {} boards expanded, {} children checked, {} kept: {:.1} M children checked/s, {:.2} M boards expanded/s",
            r.expanded,
            r.children,
            r.kept,
            r.children as f64 / update.max(1e-9) / 1e6,
            r.expanded as f64 / update.max(1e-9) / 1e6
        ));
        line(&format!(
            "  set size per decision: median {}, max {}; {} rebuilds from guesses",
            r.median_size(),
            r.max_size(),
            r.rebuilds
        ));
        line(&format!(
            "  search: {} boards searched, {} nodes = {:.2} M nodes/s",
            r.searched,
            r.nodes,
            r.nodes as f64 / search.max(1e-9) / 1e6
        ));
        Ok(r.signature)
    }

    /// SubgameSolver's and BeliefSearch's beliefs and times, side by side, and the
    /// games' signature.
    fn solver_lines(&self, line: &mut dyn FnMut(&str)) -> Result<u64, String> {
        let (reports, mut signature, records) =
            solver_games(self.solver_games, self.seed, RuleSet::thesis(), None);
        line(&format!(
            "SubgameSolver vs BeliefSearch (defaults), thesis rules, {} games on one thread:",
            self.solver_games
        ));
        for r in &reports {
            let (all, update) = r.ms_per_move();
            line(&format!(
                "  {:<13} {} decisions, {:.1} ms per move ({:.1} ms updating the belief: {:.0} belief updates/s); boards held: median {}, max {}; {} samples kept; scored {:.1}/{}",
                r.name,
                r.decisions,
                all,
                update,
                r.updates_per_second(),
                r.median_size(),
                r.sizes.last().copied().unwrap_or(0),
                r.overflows,
                r.points,
                self.solver_games
            ));
        }
        let (n, boards, candidates) = reports[0].subgames;
        if n > 0 {
            line(&format!(
                "  SubgameSolver's subgames: {n} solved, over {:.1} boards and {:.1} candidate moves on average",
                boards as f64 / n as f64,
                candidates as f64 / n as f64
            ));
        }
        if self.exact_cap > 0 {
            signature = mix(signature ^ exact_lines(&records, self.exact_cap, line)?);
        }
        Ok(signature)
    }

    /// The program player's round trip against the built-in RandomMove (wall clock: not
    /// part of the signature).
    fn exec_lines(&self, line: &mut dyn FnMut(&str)) -> Result<(), String> {
        let program = self
            .program
            .as_ref()
            .ok_or("no program player to measure the round trip of")?;
        let random: PlayerSpec = "RandomMove".parse().expect("a registered bot");
        let r = exec_round_trip(program, &random, self.exec_games, self.seed)
            .map_err(|e| e.to_string())?;
        line(&format!(
            "external bot (fow serve RandomMove over the fow bot protocol) vs RandomMove, {} games on one thread:",
            self.exec_games
        ));
        line(&format!(
            "  {} turns, {:.1} us per turn round trip (in-process RandomMove: {:.2} us per move); {:.2} ms per game to start and end the program{}",
            r.turns,
            r.us_per_turn(),
            r.inside_us_per_move(),
            r.ms_per_game_outside(),
            if r.faults > 0 {
                format!("; {} games lost by a fault", r.faults)
            } else {
                String::new()
            }
        ));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(jobs: usize) -> BenchSettings {
        BenchSettings {
            games: 3,
            jobs,
            perft_depth: 2,
            seed: 5,
            repeat: 2,
            belief_games: 0,
            exec_games: 0,
            solver_games: 0,
            exact_cap: 0,
            program: None,
        }
    }

    #[test]
    fn solver_games_report_both_sides_and_replay_the_same() {
        let (r, sig, recs) = solver_games(1, 3, RuleSet::thesis(), Some(5_000));
        assert_eq!(recs.len(), 1);
        assert_eq!(r[0].name, "SubgameSolver");
        assert_eq!(r[1].name, "BeliefSearch");
        for side in &r {
            assert!(side.decisions > 0, "{side:?}");
            assert_eq!(
                side.sizes.len() as u64,
                side.decisions,
                "one size per decision"
            );
            assert!(side.median_size() >= 1);
            assert!(side.update_time <= side.think_time);
        }
        assert_eq!(r[0].points + r[1].points, 1.0);
        // Subgames over at least two candidates and at least one board.
        let (n, boards, candidates) = r[0].subgames;
        assert!(
            n > 0 && boards >= n && candidates >= 2 * n,
            "{:?}",
            r[0].subgames
        );
        assert_eq!(solver_games(1, 3, RuleSet::thesis(), Some(5_000)).1, sig);
    }

    fn run(s: &BenchSettings) -> (Vec<String>, Result<Signature, String>) {
        let mut lines = Vec::new();
        let result = s.run(&mut |l| lines.push(l.to_string()));
        (lines, result)
    }

    /// The report's lines in order, ending with the signature, which depends on the
    /// games and not on the threads.
    #[test]
    fn report_lines_end_with_a_signature_equal_across_thread_counts() {
        let (lines, one) = run(&settings(1));
        let one = one.expect("measured");
        assert_eq!(lines.len(), 1 + 2 + 1 + 2 + 1, "{lines:#?}");
        assert!(lines[0].starts_with("random vs random"), "{}", lines[0]);
        assert!(
            lines[1].starts_with("  thesis   1 job : 3 games, "),
            "{}",
            lines[1]
        );
        assert!(lines[3].starts_with("perft from the start position, best of 2"));
        assert!(
            lines[4].starts_with("  thesis   depth 2: 400 nodes in "),
            "{}",
            lines[4]
        );
        let last = format!(
            "signature: {:016x} (games 3, seed 5, perft depth 2, belief games 0)",
            one.0
        );
        assert_eq!(lines.last(), Some(&last));
        let (lines, two) = run(&settings(2));
        assert_eq!(two, Ok(one));
        assert_eq!(lines.len(), 1 + 4 + 1 + 2 + 1, "{lines:#?}");
        assert!(lines[2].contains(" 2 jobs: 3 games, "), "{}", lines[2]);
        assert!(
            lines[2].contains("x one job; median of rounds "),
            "{}",
            lines[2]
        );
        let mut other_seed = settings(1);
        other_seed.seed = 6;
        assert_ne!(run(&other_seed).1, Ok(one));
    }

    /// Settings that measure nothing are refused, naming the option.
    #[test]
    fn settings_that_measure_nothing_are_refused() {
        let refused = |change: fn(&mut BenchSettings)| {
            let mut s = settings(1);
            change(&mut s);
            s.check().expect_err("refused")
        };
        assert_eq!(refused(|s| s.repeat = 0), "--repeat must be at least 1");
        assert_eq!(refused(|s| s.games = 0), "--games must be at least 1");
        assert_eq!(
            refused(|s| s.perft_depth = 9),
            "--perft-depth must be between 1 and 8"
        );
        assert_eq!(settings(1).check(), Ok(()));
    }
}
