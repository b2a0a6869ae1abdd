//! Optional isolation of a program player: `sandbox=bwrap` in an `exec:` or `uci:` spec
//! runs the program under bubblewrap (`bwrap`, Debian package `bubblewrap`).
//!
//! Inside, the program has no network (every namespace is unshared: network, IPC, PID,
//! UTS, cgroup, user), its own `/proc`, a minimal `/dev`, an empty private `/tmp`
//! (also its `HOME`), and read-only views of the system's program folders (`/usr`, `/bin`,
//! `/lib*`, `/sbin`, `/etc`) and of the program's own files: the resolved program and
//! every argument that names an existing file or folder. Nothing else of the file system
//! is visible: not the results folder (its games, logs and the secret key of a run), not
//! the home folder, not the files of other players. Its processes live in their own PID
//! namespace and die with it (`--die-with-parent`, and the kernel ends a PID namespace
//! whose first process ends).

use std::path::{Path, PathBuf};

use super::command::find_program;

/// How a program player is run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sandbox {
    /// As a plain child process with the user's rights (trusted programs).
    #[default]
    None,
    /// Under bubblewrap, as described in the module documentation.
    Bwrap,
}

impl Sandbox {
    /// Reads the `sandbox=` value of a spec (`none` or `bwrap`).
    pub fn parse(text: &str) -> Result<Sandbox, String> {
        match text {
            "none" => Ok(Sandbox::None),
            "bwrap" => {
                if find_program("bwrap").is_none() {
                    return Err(
                        "sandbox=bwrap needs bubblewrap's bwrap on PATH (scripts/install-bubblewrap.sh installs it)"
                            .into(),
                    );
                }
                Ok(Sandbox::Bwrap)
            }
            other => Err(format!("sandbox must be none or bwrap, not '{other}'")),
        }
    }

    /// The command line that runs `argv` in this sandbox.
    pub fn command(&self, argv: &[String]) -> Vec<String> {
        match self {
            Sandbox::None => argv.to_vec(),
            Sandbox::Bwrap => bwrap_command(argv),
        }
    }
}

/// The system folders shown read-only inside the sandbox (a symbolic link, such as `/lib`
/// on a merged-`/usr` system, is recreated as the same link).
const SYSTEM: [&str; 7] = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/etc"];

fn bwrap_command(argv: &[String]) -> Vec<String> {
    let mut cmd: Vec<String> = [
        "bwrap",
        "--unshare-all",
        "--die-with-parent",
        "--new-session",
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--tmpfs",
        "/tmp",
        "--setenv",
        "HOME",
        "/tmp",
        "--chdir",
        "/tmp",
    ]
    .map(String::from)
    .to_vec();
    for dir in SYSTEM {
        let p = Path::new(dir);
        match p.read_link() {
            Ok(target) => {
                cmd.extend(["--symlink".into(), target.to_string_lossy().into_owned()]);
                cmd.push(dir.into());
            }
            Err(_) if p.is_dir() => {
                cmd.extend(["--ro-bind".into(), dir.into(), dir.into()]);
            }
            Err(_) => {}
        }
    }
    let mut own: Vec<PathBuf> = Vec::new();
    if let Some(program) = find_program(&argv[0]) {
        own.push(program);
    }
    own.extend(argv[1..].iter().map(PathBuf::from).filter(|p| p.exists()));
    let mut program = argv[0].clone();
    for (k, p) in own.iter().enumerate() {
        // Absolute paths, so that they mean the same inside (where the working folder
        // is /tmp); the real file behind a link is shown too.
        let Ok(abs) = std::path::absolute(p) else {
            continue;
        };
        if SYSTEM.iter().any(|s| abs.starts_with(s)) {
            continue;
        }
        let real = abs.canonicalize().unwrap_or_else(|_| abs.clone());
        for q in [&abs, &real] {
            let q = q.to_string_lossy().into_owned();
            if !cmd.windows(2).any(|w| w[0] == "--ro-bind" && w[1] == q) {
                cmd.extend(["--ro-bind".into(), q.clone(), q]);
            }
        }
        if k == 0 {
            program = abs.to_string_lossy().into_owned();
        }
    }
    cmd.push("--".into());
    cmd.push(program);
    for a in &argv[1..] {
        let p = Path::new(a);
        match std::path::absolute(p) {
            Ok(abs) if p.exists() && p.is_relative() => {
                cmd.push(abs.to_string_lossy().into_owned())
            }
            _ => cmd.push(a.clone()),
        }
    }
    cmd
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_sandbox_runs_the_command_as_given() {
        let argv = vec!["python3".to_string(), "bot.py".to_string()];
        assert_eq!(Sandbox::None.command(&argv), argv);
        assert!(Sandbox::parse("docker")
            .unwrap_err()
            .contains("none or bwrap"));
    }

    #[test]
    fn bwrap_shows_the_programs_files_and_hides_the_rest() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let script = dir.join("bot.py");
        std::fs::write(&script, "print(1)").unwrap();
        let argv = vec![
            "sh".to_string(),
            script.to_string_lossy().into_owned(),
            "--level".to_string(),
        ];
        let cmd = bwrap_command(&argv);
        let text = cmd.join(" ");
        assert!(text.starts_with("bwrap --unshare-all --die-with-parent"));
        let s = script.to_string_lossy();
        assert!(text.contains(&format!("--ro-bind {s} {s}")), "{text}");
        // The folder holding the script is not shown, only the script.
        let d = dir.to_string_lossy();
        assert!(!text.contains(&format!("--ro-bind {d} {d} ")), "{text}");
        assert!(text.ends_with(&format!("-- sh {s} --level")), "{text}");
    }
}
