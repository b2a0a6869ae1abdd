//! The options of a run of games, shared by `fow tournament` and `fow match`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use fow_arena::{Run, RunPlan, RunReport};
use fow_records::{seed::SeedKey, FolderKind, GameRow, Shard};
use fow_variants::RuleSet;
use indicatif::{ProgressBar, ProgressStyle};

use crate::error::{input, CliError};
use crate::game_args::GameArgs;
use crate::out::count;

/// A stopping rule that also shows its state in the progress bar's message (a match's
/// SPRT; see [`fow_records::StopRule`]).
pub type SprtShown<'a> = dyn Fn(&GameRow, &GameRow, &ProgressBar) -> bool + Sync + 'a;

/// Seed, budgets, clock, threads and folder of a run of games.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// Master seed; every game's seed derives from it and the game's identity (default
    /// 2023; a fresh secret key when a program player (exec:, uci:) takes part, since a
    /// program that knows a public seed can compute its opponents' random choices).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Node budget per move for searching bots (deterministic).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Games played at once (default: all cores).
    #[arg(long, short)]
    pub jobs: Option<usize>,
    /// Output folder (default: `results/runs/<UTC timestamp>`, with `-match` after it
    /// for a match).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Finish the interrupted run in --out, with the settings stored there.
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// A player whose move takes longer than this many milliseconds loses on time
    /// (wall-clock: makes results depend on machine speed; off by default; at least 1).
    #[arg(long, value_name = "MS")]
    pub move_time_limit: Option<u64>,
    #[command(flatten)]
    pub game: GameArgs,
    /// Play one shard of the run: `I/N` plays every N-th game (for a match, every N-th
    /// pair) starting with the I-th, into an ordinary results folder that records the
    /// shard; `fow merge OUT DIR...` joins the N folders into the whole run's results
    /// (see scripts/slurm/). A match's SPRT is applied by the merge, so a shard plays all
    /// its pairs.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// The run's secret key (32 hexadecimal digits) from FILE instead of a fresh one,
    /// for a run without --seed: the shards of one run must share it (the Slurm script
    /// draws it once).
    #[arg(long, value_name = "FILE", conflicts_with = "seed")]
    pub secret_key: Option<PathBuf>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Write each game's moves into `DIR/live/<id>.txt` as they are played, for `fow web`
    /// to show games in play; each file is removed once its game is in games.csv (the
    /// games are the same). Refused with a program player outside sandbox=bwrap, which
    /// could read its opponent's moves there.
    #[arg(long)]
    pub live: bool,
}

impl RunArgs {
    /// The number of threads.
    pub fn jobs(&self) -> Result<usize, CliError> {
        crate::jobs::jobs(self.jobs)
    }

    /// The progress bar of `games` games (hidden with `--quiet`); its message (a match's
    /// live score and LLR) follows the ETA.
    pub fn progress_bar(&self, games: u64) -> ProgressBar {
        let bar = if self.quiet {
            ProgressBar::hidden()
        } else {
            ProgressBar::new(games)
        };
        bar.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{wide_bar}] {pos}/{len} games, {rate}, ETA {eta} {msg}",
            )
            .expect("valid template")
            .with_key(
                "rate",
                |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = w.write_str(&fow_arena::rate_text(state.per_sec()));
                },
            )
            .progress_chars("=> "),
        );
        bar
    }

    /// `--move-time-limit`, checked.
    pub fn move_time_limit(&self) -> Result<Option<Duration>, CliError> {
        match self.move_time_limit {
            Some(0) => Err(input(
                "--move-time-limit must be at least 1 ms (leave it out for no limit)",
            )),
            ms => Ok(ms.map(Duration::from_millis)),
        }
    }

    /// The plan of a new run of `kind` with `players`, `games_per_pair` and `rules`, and
    /// this command's seed, `--secret-key`, budgets, clock, openings and shard.
    pub fn plan(
        &self,
        kind: FolderKind,
        players: Vec<String>,
        games_per_pair: u32,
        rules: RuleSet,
    ) -> Result<RunPlan, CliError> {
        let mut plan = RunPlan::new(kind, players, games_per_pair, rules);
        plan.seed = self.seed;
        plan.nodes = self.nodes;
        plan.tc = self.game.time_control()?;
        plan.openings = self.game.openings(&rules)?;
        plan.shard = self.shard;
        plan.live = self.live;
        if let Some(path) = &self.secret_key {
            let text = std::fs::read_to_string(path)
                .map_err(|e| input(format!("{}: {e}", path.display())))?;
            plan.secret = Some(
                SeedKey::from_hex(&text)
                    .map_err(|e| input(format!("{}:1: {e}", path.display())))?,
            );
        }
        Ok(plan)
    }

    /// A new run of `plan` in `--out`, or in a fresh `results/runs/<timestamp><suffix>`.
    pub fn create(&self, plan: RunPlan, suffix: &str) -> Result<Run, CliError> {
        Ok(Run::create(plan, self.out.as_deref(), suffix)?)
    }

    /// The run of `kind` in `dir` to resume (see [`RunArgs::resume_folder`]), with
    /// `--live` as given now.
    pub fn resume(&self, dir: &Path, kind: FolderKind) -> Result<Run, CliError> {
        let mut run = Run::resume(dir, kind)?;
        run.set_live(self.live)?;
        Ok(run)
    }

    /// Says the run's notes, plays it with a progress bar (its message set by `stop`,
    /// a match's SPRT, which may end the run after a pair) and says how many games were
    /// played.
    pub fn play(
        &self,
        run: &Run,
        total: usize,
        stop: Option<&SprtShown<'_>>,
    ) -> Result<RunReport, CliError> {
        for note in run.notes() {
            outln!("{note}");
        }
        let bar = self.progress_bar(total as u64);
        let shown = &bar;
        let rule = stop.map(|s| move |g0: &GameRow, g1: &GameRow| s(g0, g1, shown));
        let rep = run.play(
            self.jobs()?,
            self.move_time_limit()?,
            &|_, done, _| bar.set_position(done as u64),
            rule.as_ref().map(|r| r as _),
        )?;
        bar.finish_and_clear();
        let secs = rep.elapsed.as_secs_f64();
        outln!(
            "{} on disk, {} played now in {:.1} s ({}){}\n",
            count(rep.games.len(), "game"),
            rep.played_now,
            secs,
            fow_arena::rate_text(rep.played_now as f64 / secs.max(1e-9)),
            if rep.stopped {
                " (the SPRT decided)"
            } else {
                ""
            }
        );
        Ok(rep)
    }

    /// With `--resume`, the folder to resume, after checking that no setting stored
    /// there was given again: `--seed`, `--nodes`, `--tc`, `--openings`, or one of the
    /// command's own (`own`: whether one was; `names`: how to name them, e.g.
    /// `--players/--games`).
    pub fn resume_folder(&self, own: bool, names: &str) -> Result<Option<PathBuf>, CliError> {
        // Checked before any folder is made or opened.
        self.jobs()?;
        self.move_time_limit()?;
        if !self.resume {
            return Ok(None);
        }
        let dir = self.out.clone().expect("clap requires --out with --resume");
        if own
            || self.seed.is_some()
            || self.nodes.is_some()
            || self.game.tc.is_some()
            || self.game.openings.is_some()
            || self.shard.is_some()
            || self.secret_key.is_some()
        {
            return Err(input(format!(
                "--resume takes its settings from {}; drop {names}/--tc/--seed/--nodes/--openings/--shard/--secret-key",
                dir.join(fow_records::CONFIG_FILE).display()
            )));
        }
        Ok(Some(dir))
    }
}
