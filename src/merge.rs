//! `fow merge`: join the folders of a run's shards into the results of the whole run.

use std::path::PathBuf;
use std::sync::Mutex;

use fow_analysis::{match_results, sprt_of, sprt_step, tournament_results, Method, MATCH_FILE};
use fow_ratings::Pentanomial;
use fow_records::{merge_shards, shard_config, GameRow, Schedule};

use crate::error::CliError;
use crate::out::count;

/// Join the shards of a run (`--shard I/N`) into the results of the whole run.
///
/// Checks that the folders are shards of one run (the same players, rules, seed or
/// secret key, games, openings, budgets and shard count, each shard once), then writes
/// OUT as one machine playing the whole run would have: tournament.json (without the
/// shard), games.csv (the same bytes), times.csv, the logs, and the crosstable and
/// ratings, or for a match match.json, its SPRT recomputed over all pairs in schedule
/// order. Games missing from the shards are named, with the shards that lack them, and
/// nothing is written (exit 2). Merging again gives the same files.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The folder of the whole run (new, or an earlier merge of the same run).
    #[arg(value_name = "OUT")]
    pub out: PathBuf,
    /// The shards' folders.
    #[arg(value_name = "DIR", required = true)]
    pub shards: Vec<PathBuf>,
    /// Columns beside the default fit, as `fow tournament --method`.
    #[arg(long, value_enum, default_value_t = Method::Bayeselo)]
    pub method: Method,
}

/// Merges and reports.
pub fn run(a: Args) -> Result<(), CliError> {
    // The SPRT of a match comes from the shards' settings: read the first one's.
    let first = shard_config(&a.shards[0])?;
    let sprt = sprt_of(&first, &a.shards[0])?;
    let live = Mutex::new(Pentanomial::default());
    let stop = |g0: &GameRow, g1: &GameRow| sprt_step(&live, sprt.as_ref(), g0, g1).0;
    let rep = merge_shards(&a.out, &a.shards, sprt.as_ref().map(|_| &stop as _))?;
    let cfg = &rep.config;
    outln!(
        "merged {}: {} of {}{} -> {}\n",
        count(a.shards.len(), "shard"),
        count(rep.games.len(), "game"),
        cfg.game_count(),
        if rep.stopped {
            " (the SPRT decided)"
        } else {
            ""
        },
        a.out.display()
    );
    if cfg.schedule() == Schedule::GamePairs {
        let text = match_results(cfg, &rep.games, sprt.as_ref(), rep.stopped, &a.out)?;
        outln!("{text}");
        outln!("wrote {}", a.out.join(MATCH_FILE).display());
    } else {
        let res = tournament_results(cfg, rep.games, &rep.times, &a.out, a.method)?;
        out!("{}", res.text);
    }
    Ok(())
}
