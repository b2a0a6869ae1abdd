//! The Slurm scripts end to end, against a real Slurm: a one-node cluster that
//! `scripts/local-slurm.sh start` runs on this machine (CI starts it best-effort). A
//! tournament in three shards goes through `sbatch` as a job array, the merge job runs
//! after it, and the merged files equal those of the same run on one machine; `fow tune`
//! in a two-task allocation spreads each batch over both tasks with `srun` and writes the
//! one-machine trajectory. Skipped, saying why, where no such cluster answers.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

/// The configuration of the local cluster, if it answers.
fn cluster() -> Option<PathBuf> {
    let conf = std::env::var_os("SLURM_CONF")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/tmp/fow-slurm/slurm.conf"));
    let up = conf.is_file()
        && Command::new("scripts/local-slurm.sh")
            .arg("status")
            .env("SLURM_CONF", &conf)
            .env(
                "FOW_SLURM_DIR",
                conf.parent().unwrap_or(Path::new("/tmp/fow-slurm")),
            )
            .status()
            .is_ok_and(|s| s.success());
    if !up {
        eprintln!(
            "skipped: no Slurm cluster answers at {} (scripts/install-slurm.sh, then scripts/local-slurm.sh start)",
            conf.display()
        );
        return None;
    }
    Some(conf)
}

/// Waits until `job` has left the queue (finished, failed or cancelled). The deadline
/// only turns a stuck cluster into a failure; nothing depends on how fast jobs run.
fn wait_for(conf: &Path, job: &str) {
    let start = Instant::now();
    loop {
        let out = Command::new("squeue")
            .args(["-h", "-j", job, "-o", "%T %R"])
            .env("SLURM_CONF", conf)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if out.status.success() && text.is_empty() {
            return;
        }
        assert!(
            !text.contains("DependencyNeverSatisfied"),
            "job {job}: {text} (a shard failed)"
        );
        assert!(
            start.elapsed() < Duration::from_secs(900),
            "job {job} still queued after 15 minutes: {text}"
        );
        sleep(Duration::from_millis(500));
    }
}

#[test]
fn a_tournament_in_three_slurm_shards_merges_into_the_one_machine_results() {
    let Some(conf) = cluster() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    let fow = env!("CARGO_BIN_EXE_fow");
    let players = "RandomMove,CaptureLargest,Supporter";
    let submitted = Command::new("scripts/slurm/fow-shards.sh")
        .args([
            "--shards",
            "3",
            "--out",
            out.to_str().unwrap(),
            "--fow",
            fow,
        ])
        .args(["--", "tournament", "--players", players, "-n", "6"])
        .args(["--openings", "data/chesscom-fow", "--opening-plies", "6"])
        .env("SLURM_CONF", &conf)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&submitted.stdout);
    assert!(
        submitted.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&submitted.stderr)
    );
    let ids: Vec<&str> = stdout.lines().last().unwrap().split(' ').collect();
    assert_eq!(ids.len(), 2, "{stdout}");
    wait_for(&conf, ids[0]);
    wait_for(&conf, ids[1]);
    let merged = out.join("merged");
    let log = std::fs::read_to_string(out.join("slurm-merge.out")).unwrap_or_default();
    assert!(log.contains("merged 3 shards: 36 games of 36"), "{log}");

    // The same run on one machine, with the key the script drew.
    let single = tmp.path().join("single");
    let key = out.join("run.key");
    common::ok(&[
        "tournament",
        "--players",
        players,
        "-n",
        "6",
        "--openings",
        "data/chesscom-fow",
        "--opening-plies",
        "6",
        "--secret-key",
        key.to_str().unwrap(),
        "-q",
        "--out",
        single.to_str().unwrap(),
    ]);
    for file in [
        "tournament.json",
        "secret.key",
        "games.csv",
        "crosstable.csv",
        "ratings.csv",
        "los.csv",
    ] {
        assert_eq!(
            common::read(&merged, file),
            common::read(&single, file),
            "{file}"
        );
    }
    // Each shard played its own third.
    for i in 1..=3 {
        let rows = std::fs::read_to_string(out.join(format!("shard-{i}/games.csv"))).unwrap();
        assert_eq!(rows.lines().count(), 1 + 12, "shard {i}");
    }
}

#[test]
fn fow_tune_in_a_two_task_allocation_gives_the_one_machine_trajectory() {
    let Some(conf) = cluster() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("planted.toml");
    std::fs::write(
        &file,
        "player = \"Planted:x=0.05,y=0.95\"\n[[param]]\nname = \"x\"\nr_end = 0.05\n[[param]]\nname = \"y\"\nr_end = 0.05\n",
    )
    .unwrap();
    let tune = |out: &Path| {
        format!(
            "{} tune --tune-file {} --batches 6 --pairs 8 --seed 4 -q --out {}",
            env!("CARGO_BIN_EXE_fow"),
            file.display(),
            out.display()
        )
    };
    let (spread, log) = (tmp.path().join("spread"), tmp.path().join("tune.out"));
    let submitted = Command::new("sbatch")
        .args(["--parsable", "--ntasks=2", "--chdir"])
        .arg(tmp.path())
        .arg("--output")
        .arg(&log)
        .args(["--wrap", &tune(&spread)])
        .env("SLURM_CONF", &conf)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&submitted.stdout);
    assert!(
        submitted.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&submitted.stderr)
    );
    wait_for(&conf, stdout.trim().split(';').next().unwrap());
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(text.contains("spread over 2 Slurm tasks"), "{text}");
    assert!(text.contains("wrote "), "{text}");
    let one = tmp.path().join("one");
    let here = Command::new("sh")
        .args(["-c", &tune(&one)])
        .env_remove("SLURM_NTASKS")
        .output()
        .unwrap();
    assert!(here.status.success(), "{here:?}");
    for f in ["tune.csv", "best.json", "checkpoint.json"] {
        assert_eq!(common::read(&spread, f), common::read(&one, f), "{f}");
    }
}
