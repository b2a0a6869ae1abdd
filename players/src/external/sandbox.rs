//! Optional isolation of a program player: `sandbox=bwrap` in an `exec:` or `uci:` spec
//! runs the program under bubblewrap (`bwrap`, Debian package `bubblewrap`).
//!
//! Inside, the program:
//!
//! - runs as an unprivileged user (uid and gid 65534) in a user namespace of its own,
//!   with every capability dropped (`--cap-drop ALL`), also when fow runs as root: it
//!   cannot remount what it is shown, mount anything, or change its identity;
//! - has no network (every namespace is unshared: network, IPC, PID, UTS, cgroup, user),
//!   its own `/proc` (fow's processes are not in it), a minimal `/dev`, and an empty
//!   private `/tmp` (its `HOME`, `TMPDIR` and working folder, the only place it can
//!   write);
//! - sees read-only the system's program folders (`/usr`, `/bin`, `/lib*`, `/sbin`,
//!   `/etc`) and its own files: the folder of the program and of every file named on its
//!   command line, every folder named on its command line, every `bind=PATH` of the
//!   spec, and for a Python interpreter (`python3 bot.py`) the interpreter's own
//!   installation and virtual environment (asked of the interpreter itself, so a
//!   virtualenv or a pyenv shim runs);
//! - never sees a results folder it is kept out of ([`Sandbox::command`]'s `hidden`): a
//!   spec that would show it (a `bind=`, or a folder on the command line, that is the
//!   results folder, lies inside it or holds it) is refused, and when the program's own
//!   folder holds the results folder, the folder's other entries are shown one by one
//!   and the branch that leads to the results folder is left out;
//! - lives in its own PID namespace, which ends with it (`--die-with-parent`, and the
//!   kernel ends a PID namespace whose first process ends).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;

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

/// The user and group a sandboxed program runs as (`nobody` on Debian).
pub const SANDBOX_ID: u32 = 65534;

/// The most entries of a program's folder shown one by one (when the folder holds the
/// results folder).
const MAX_ENTRIES: usize = 4096;

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

    /// The command line that runs `argv` in this sandbox, showing also `binds`
    /// (read-only) and never any folder of `hidden`. An error says which bind or
    /// argument would show a hidden folder.
    pub fn command(
        &self,
        argv: &[String],
        binds: &[PathBuf],
        hidden: &[PathBuf],
    ) -> Result<Vec<String>, String> {
        match self {
            Sandbox::None => Ok(argv.to_vec()),
            Sandbox::Bwrap => bwrap_command(argv, binds, hidden),
        }
    }
}

/// The system folders shown read-only inside the sandbox (a symbolic link, such as `/lib`
/// on a merged-`/usr` system, is recreated as the same link).
const SYSTEM: [&str; 7] = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/etc"];

/// How `a` and `b` (both canonical) relate: one holds the other or they are the same.
fn overlaps(a: &Path, b: &Path) -> bool {
    a.starts_with(b) || b.starts_with(a)
}

/// A path made absolute and, where it exists, with its links resolved.
fn canonical(p: &Path) -> PathBuf {
    p.canonicalize()
        .or_else(|_| std::path::absolute(p))
        .unwrap_or_else(|_| p.to_path_buf())
}

/// The read-only binds of a sandbox, kept in order without repeats.
#[derive(Default)]
struct Binds {
    /// (source, destination)
    list: Vec<(PathBuf, PathBuf)>,
    hidden: Vec<PathBuf>,
}

impl Binds {
    /// Shows `src` at `dest`, unless `dest` lies in a folder already shown (whose source
    /// is the real folder behind it, so the same content shows there already, and a
    /// mount inside a read-only bind could not be made).
    fn add(&mut self, src: &Path, dest: &Path) {
        if !self.list.iter().any(|(_, d)| dest.starts_with(d)) {
            self.list.push((src.to_path_buf(), dest.to_path_buf()));
        }
    }

    /// The first hidden folder that `path` (canonical) is, lies in or holds.
    fn exposes(&self, path: &Path) -> Option<&Path> {
        self.hidden
            .iter()
            .find(|h| overlaps(path, h))
            .map(PathBuf::as_path)
    }

    /// Shows `path` as named (and under its resolved name, if a link leads there), or
    /// says which hidden folder it would show; `what` names it in the message.
    fn explicit(&mut self, path: &Path, what: &str) -> Result<(), String> {
        let abs = std::path::absolute(path).map_err(|e| format!("{what}: {e}"))?;
        let real = canonical(&abs);
        if let Some(h) = self.exposes(&real) {
            return Err(format!(
                "{what} ({}) would show the results folder {} to the program; \
                 keep the results folder (--out) out of the folders a sandboxed program is shown",
                abs.display(),
                h.display()
            ));
        }
        if !in_system(&real) {
            self.add(&real, &abs);
            self.add(&real, &real);
        }
        Ok(())
    }

    /// Shows the folder `dir`, holding the program or one of its files: whole when it
    /// neither holds nor lies in a hidden folder; else entry by entry, leaving out the
    /// entries that lead to a hidden folder. Refused when it lies in one.
    fn own_folder(&mut self, dir: &Path, what: &str) -> Result<(), String> {
        let abs = std::path::absolute(dir).map_err(|e| format!("{what}: {e}"))?;
        let real = canonical(&abs);
        if in_system(&real) {
            return Ok(());
        }
        if let Some(h) = self.hidden.iter().find(|h| real.starts_with(h)) {
            return Err(format!(
                "{what} lies in the results folder {}; keep the results folder (--out) apart from the program's files",
                h.display()
            ));
        }
        if self.exposes(&real).is_none() {
            self.add(&real, &abs);
            self.add(&real, &real);
            return Ok(());
        }
        let entries = std::fs::read_dir(&real).map_err(|e| format!("{}: {e}", real.display()))?;
        let mut names: Vec<PathBuf> = Vec::new();
        for e in entries {
            let e = e.map_err(|e| format!("{}: {e}", real.display()))?;
            names.push(e.file_name().into());
            if names.len() > MAX_ENTRIES {
                return Err(format!(
                    "{} holds the results folder and more than {MAX_ENTRIES} other entries; \
                     write the results elsewhere (--out) or put the program in a folder of its own",
                    abs.display()
                ));
            }
        }
        names.sort();
        for name in names {
            let entry = real.join(&name);
            let target = canonical(&entry);
            if self.exposes(&target).is_some() {
                continue;
            }
            self.add(&target, &abs.join(&name));
            if abs != real {
                self.add(&target, &entry);
            }
        }
        Ok(())
    }
}

fn in_system(p: &Path) -> bool {
    SYSTEM.iter().any(|s| p.starts_with(s))
}

/// What a Python interpreter says of itself: its real executable and the folders of its
/// installation and virtual environment.
#[derive(Clone)]
struct PythonHome {
    executable: PathBuf,
    folders: Vec<PathBuf>,
}

/// Asks the interpreter `program` (run as it would run a bot, in fow's working folder,
/// in isolated mode) for its executable and prefixes; remembered per program.
fn python_home(program: &Path) -> Option<PythonHome> {
    static SEEN: Mutex<Option<HashMap<PathBuf, Option<PythonHome>>>> = Mutex::new(None);
    let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    let seen = seen.get_or_insert_with(HashMap::new);
    if let Some(h) = seen.get(program) {
        return h.clone();
    }
    let code = "import sys\nfor p in (sys.executable, sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix): print(p)";
    let mut cmd = Command::new(program);
    cmd.args(["-I", "-c", code])
        .env_clear()
        .stdin(Stdio::null())
        .stderr(Stdio::null());
    for k in ["PATH", "LANG"] {
        if let Some(v) = std::env::var_os(k) {
            cmd.env(k, v);
        }
    }
    let home = cmd.output().ok().and_then(|out| {
        let text = String::from_utf8(out.stdout).ok()?;
        let lines: Vec<PathBuf> = text.lines().map(PathBuf::from).collect();
        if !out.status.success() || lines.len() != 5 || !lines[0].is_absolute() {
            return None;
        }
        Some(PythonHome {
            executable: lines[0].clone(),
            folders: lines[1..].to_vec(),
        })
    });
    seen.insert(program.to_path_buf(), home.clone());
    home
}

/// Whether `name` (a command's first word) names a Python interpreter.
fn is_python(name: &str) -> bool {
    Path::new(name)
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("python"))
}

fn bwrap_command(
    argv: &[String],
    binds: &[PathBuf],
    hidden: &[PathBuf],
) -> Result<Vec<String>, String> {
    let id = SANDBOX_ID.to_string();
    let mut cmd: Vec<String> = [
        "bwrap",
        "--unshare-all",
        "--unshare-user",
        "--uid",
        &id,
        "--gid",
        &id,
        "--cap-drop",
        "ALL",
        "--die-with-parent",
        "--new-session",
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--tmpfs",
        "/tmp",
        "--chdir",
        "/tmp",
    ]
    .map(String::from)
    .to_vec();
    let mut shown = Binds {
        hidden: hidden.iter().map(|h| canonical(h)).collect(),
        ..Binds::default()
    };
    for dir in SYSTEM {
        let p = Path::new(dir);
        if let Some(h) = shown.hidden.iter().find(|h| h.starts_with(p)) {
            return Err(format!(
                "the results folder {} lies in {dir}, which the sandbox shows to every program; write the results elsewhere (--out)",
                h.display()
            ));
        }
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
    let program_file =
        find_program(&argv[0]).ok_or_else(|| format!("program '{}' not found", argv[0]))?;
    let mut program = std::path::absolute(&program_file)
        .map_err(|e| format!("{}: {e}", program_file.display()))?;
    match is_python(&argv[0]).then(|| python_home(&program)).flatten() {
        Some(home) => {
            for f in &home.folders {
                shown.explicit(f, "the Python installation")?;
            }
            shown.explicit(&home.executable, "the Python interpreter")?;
            program = home.executable;
        }
        None => {
            shown.explicit(&program, "the program")?;
            if let Some(dir) = program.parent() {
                shown.own_folder(dir, "the program's folder")?;
            }
        }
    }
    for a in &argv[1..] {
        let p = Path::new(a);
        if p.is_file() {
            let what = format!("the file {a} on the command line");
            if let Some(h) = shown.exposes(&canonical(p)) {
                return Err(format!(
                    "{what} lies in the results folder {}; keep the results folder (--out) apart from the program's files",
                    h.display()
                ));
            }
            if let Some(dir) = std::path::absolute(p)
                .ok()
                .and_then(|p| p.parent().map(Path::to_path_buf))
            {
                shown.own_folder(&dir, &format!("the folder of {a}"))?;
            }
            shown.explicit(p, &what)?;
        } else if p.is_dir() {
            shown.explicit(p, &format!("the folder {a} on the command line"))?;
        }
    }
    for b in binds {
        shown.explicit(b, &format!("bind={}", b.display()))?;
    }
    for (src, dest) in &shown.list {
        cmd.extend([
            "--ro-bind".into(),
            src.to_string_lossy().into_owned(),
            dest.to_string_lossy().into_owned(),
        ]);
    }
    cmd.push("--".into());
    cmd.push(program.to_string_lossy().into_owned());
    for a in &argv[1..] {
        let p = Path::new(a);
        // Absolute paths, so that they mean the same inside (where the working folder
        // is /tmp).
        match std::path::absolute(p) {
            Ok(abs) if p.exists() && p.is_relative() => {
                cmd.push(abs.to_string_lossy().into_owned())
            }
            _ => cmd.push(a.clone()),
        }
    }
    Ok(cmd)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn binds_of(cmd: &[String]) -> Vec<(String, String)> {
        cmd.windows(3)
            .filter(|w| w[0] == "--ro-bind")
            .map(|w| (w[1].clone(), w[2].clone()))
            .collect()
    }

    #[test]
    fn no_sandbox_runs_the_command_as_given() {
        let argv = vec!["python3".to_string(), "bot.py".to_string()];
        assert_eq!(Sandbox::None.command(&argv, &[], &[]).unwrap(), argv);
        assert!(Sandbox::parse("docker")
            .unwrap_err()
            .contains("none or bwrap"));
    }

    #[test]
    fn bwrap_drops_root_and_shows_the_programs_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().canonicalize().unwrap();
        let script = dir.join("bot.sh");
        std::fs::write(&script, "echo 1").unwrap();
        std::fs::write(dir.join("helper.sh"), "echo 2").unwrap();
        let argv = vec![
            "sh".to_string(),
            script.to_string_lossy().into_owned(),
            "--level".to_string(),
        ];
        let cmd = bwrap_command(&argv, &[], &[]).unwrap();
        let text = cmd.join(" ");
        assert!(
            text.starts_with("bwrap --unshare-all --unshare-user --uid 65534 --gid 65534 --cap-drop ALL --die-with-parent"),
            "{text}"
        );
        let d = dir.to_string_lossy().into_owned();
        assert!(binds_of(&cmd).contains(&(d.clone(), d)), "{text}");
        assert!(
            text.ends_with(&format!("-- /usr/bin/sh {} --level", script.display()))
                || text.ends_with(&format!("-- /bin/sh {} --level", script.display())),
            "{text}"
        );
    }

    #[test]
    fn the_results_folder_is_never_shown() {
        let tmp = tempfile::tempdir().unwrap();
        let project = tmp.path().canonicalize().unwrap();
        let results = project.join("results");
        let run = results.join("run1");
        std::fs::create_dir_all(&run).unwrap();
        std::fs::create_dir_all(results.join("old")).unwrap();
        std::fs::write(run.join("secret.key"), "k").unwrap();
        let script = project.join("bot.sh");
        std::fs::write(&script, "echo 1").unwrap();
        std::fs::write(project.join("helper.sh"), "echo 2").unwrap();
        std::os::unix::fs::symlink(&run, project.join("sneaky")).unwrap();
        let hidden = [run.clone()];
        let sh = |args: &[&Path]| {
            let mut v = vec!["sh".to_string()];
            v.extend(args.iter().map(|a| a.to_string_lossy().into_owned()));
            v
        };
        // The script's folder holds the results folder: its other entries are shown,
        // the branch to the results and a link into them are not.
        let cmd = bwrap_command(&sh(&[&script]), &[], &hidden).unwrap();
        let shown: Vec<String> = binds_of(&cmd).into_iter().map(|(_, d)| d).collect();
        let p = |q: &Path| q.to_string_lossy().into_owned();
        assert!(shown.contains(&p(&script)), "{shown:?}");
        assert!(shown.contains(&p(&project.join("helper.sh"))), "{shown:?}");
        assert!(!shown.contains(&p(&project)), "{shown:?}");
        assert!(!shown.contains(&p(&results)), "{shown:?}");
        assert!(!shown.contains(&p(&project.join("sneaky"))), "{shown:?}");
        assert!(binds_of(&cmd)
            .iter()
            .all(|(s, _)| !overlaps(Path::new(s), &run)));
        // A folder above the results, or the results themselves, named on the command
        // line or bound: refused.
        for bad in [&project, &results, &run] {
            let e = bwrap_command(&sh(&[&script, bad]), &[], &hidden).unwrap_err();
            assert!(e.contains("would show the results folder"), "{e}");
            let e = bwrap_command(&sh(&[&script]), std::slice::from_ref(bad), &hidden).unwrap_err();
            assert!(e.contains("would show the results folder"), "{e}");
        }
        let e = bwrap_command(&sh(&[&run.join("secret.key")]), &[], &hidden).unwrap_err();
        assert!(e.contains("lies in the results folder"), "{e}");
        // Without a hidden folder, the same folder is shown whole.
        let cmd = bwrap_command(&sh(&[&script, &project]), &[], &[]).unwrap();
        assert!(binds_of(&cmd).contains(&(p(&project), p(&project))));
    }
}
