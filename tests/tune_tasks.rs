//! `fow tune` over the tasks of a Slurm allocation, without Slurm: a stand-in `srun` on
//! PATH starts `fow tune-worker` once per task with SLURM_PROCID and SLURM_NTASKS set,
//! as srun does, and the trajectory equals the one-machine run's byte for byte. (The
//! same on a real one-node Slurm is in tests/slurm.rs.)

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A folder holding a stand-in `srun`: it reads `--ntasks=N`, skips its other options
/// and runs the rest of its command line N times at once, task I with SLURM_PROCID=I
/// and SLURM_NTASKS=N; it fails when a task fails. With `FAKE_SRUN_FAIL` set, it fails
/// without running anything.
fn fake_srun(tmp: &Path) -> PathBuf {
    let bin = tmp.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let script = bin.join("srun");
    std::fs::write(
        &script,
        r#"#!/bin/sh
[ -n "$FAKE_SRUN_FAIL" ] && { echo "srun: error: no nodes" >&2; exit 1; }
n=1
while :; do
    case "$1" in
        --ntasks=*) n=${1#--ntasks=}; shift ;;
        -*) shift ;;
        *) break ;;
    esac
done
i=0; pids=
while [ "$i" -lt "$n" ]; do
    SLURM_PROCID=$i SLURM_NTASKS=$n "$@" & pids="$pids $!"
    i=$((i + 1))
done
rc=0
for p in $pids; do wait "$p" || rc=1; done
exit $rc
"#,
    )
    .unwrap();
    let mut perm = std::fs::metadata(&script).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
    std::fs::set_permissions(&script, perm).unwrap();
    bin
}

/// A tune file of Planted's x and y from far from their optimum, with large steps, so
/// that each batch moves them.
const PLANTED: &str = r#"player = "Planted:x=0.05,y=0.95"
[[param]]
name = "x"
c_end = 0.05
r_end = 0.05
[[param]]
name = "y"
c_end = 0.05
r_end = 0.05
"#;

/// `fow tune` of Planted's x and y in `dir` (its tune file beside it), with `env` set
/// (and SLURM_* cleared unless given), and `extra` arguments.
fn tune(dir: &Path, pairs: &str, env: &[(&str, String)], extra: &[&str]) -> Output {
    let file = dir.with_extension("toml");
    std::fs::write(&file, PLANTED).unwrap();
    let mut c = Command::new(common::FOW);
    c.arg("tune").arg("--tune-file").arg(&file);
    c.args([
        "--batches",
        "6",
        "--pairs",
        pairs,
        "--seed",
        "4",
        "-q",
        "-j",
        "1",
    ])
    .arg("--out")
    .arg(dir)
    .args(extra)
    .env_remove("SLURM_NTASKS")
    .env_remove("SLURM_PROCID")
    .env_remove("SLURM_CPUS_PER_TASK");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

fn path_with(bin: &Path) -> String {
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

#[test]
fn tasks_give_the_one_machine_trajectory() {
    let tmp = tempfile::tempdir().unwrap();
    let bin = fake_srun(tmp.path());
    // 3 tasks share 8 pairs unevenly (2, 3, 3), found from SLURM_NTASKS; 5 tasks share
    // 4 pairs with --srun, one of them playing none.
    for (pairs, tasks, extra) in [("8", "3", &[][..]), ("4", "5", &["--srun"][..])] {
        let one = tmp.path().join(format!("one-{pairs}"));
        let out = tune(&one, pairs, &[], &[]);
        assert!(out.status.success(), "{out:?}");
        let spread = tmp.path().join(format!("spread-{pairs}"));
        let env = [
            ("PATH", path_with(&bin)),
            ("SLURM_NTASKS", tasks.to_string()),
        ];
        let out = tune(&spread, pairs, &env, extra);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{out:?}");
        assert!(
            stdout.contains(&format!("spread over {tasks} Slurm tasks")),
            "{stdout}"
        );
        for file in ["tune.csv", "best.json", "checkpoint.json"] {
            assert_eq!(
                String::from_utf8(common::read(&spread, file)).unwrap(),
                String::from_utf8(common::read(&one, file)).unwrap(),
                "{file} with {tasks} tasks"
            );
        }
        let best = String::from_utf8(common::read(&one, "best.json")).unwrap();
        assert!(
            !best.contains("\"x\": 0.05,"),
            "the run did not move: {best}"
        );
        // The shares are removed once joined.
        let left: Vec<_> = std::fs::read_dir(spread.join("work")).unwrap().collect();
        assert!(left.is_empty(), "{left:?}");
    }
}

#[test]
fn a_failing_task_or_srun_is_one_error_line() {
    let tmp = tempfile::tempdir().unwrap();
    let bin = fake_srun(tmp.path());
    let one_line = |out: &Output, code: i32, needle: &str| {
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{err}");
        assert!(!err.contains("panicked"), "{err}");
        let last = err.trim_end().lines().last().unwrap_or_default();
        assert!(
            last.starts_with("fow: error: ") && last.contains(needle),
            "{err}"
        );
    };
    // --srun outside an allocation.
    let out = tune(&tmp.path().join("a"), "2", &[], &["--srun"]);
    one_line(&out, 2, "SLURM_NTASKS is not set");
    assert!(!tmp.path().join("a").exists());
    // srun itself fails: the batch is not applied, and the run resumes from it.
    let dir = tmp.path().join("b");
    let env = [
        ("PATH", path_with(&bin)),
        ("SLURM_NTASKS", "2".to_string()),
        ("FAKE_SRUN_FAIL", "1".to_string()),
    ];
    let out = tune(&dir, "2", &env, &[]);
    one_line(&out, 1, "the 2 tasks of batch 0 failed");
    let csv = String::from_utf8(common::read(&dir, "tune.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1, "{csv}");
    // A worker asked for a batch that is not the next one.
    let d = dir.to_str().unwrap();
    let out = Command::new(common::FOW)
        .args(["tune-worker", "--dir", d, "--batch", "3"])
        .env("SLURM_PROCID", "0")
        .env("SLURM_NTASKS", "2")
        .output()
        .unwrap();
    one_line(
        &out,
        2,
        "checkpoint.json:1: the checkpoint is not the one before batch 3",
    );
    // A worker outside srun.
    let out = Command::new(common::FOW)
        .args(["tune-worker", "--dir", d, "--batch", "0"])
        .env_remove("SLURM_PROCID")
        .output()
        .unwrap();
    one_line(&out, 2, "SLURM_PROCID is not set");
}
