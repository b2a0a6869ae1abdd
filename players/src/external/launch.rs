//! How a program player is started, for `exec:` and `uci:` alike: its command line, the
//! environment it gets, and whether it runs in the sandbox ([`Launch`]).
//!
//! **Environment.** A program never inherits fow's environment (which may hold tokens,
//! keys or the paths of a running tournament). It gets exactly:
//!
//! | variable | value |
//! |---|---|
//! | `PATH` | fow's `PATH` (`/usr/local/bin:/usr/bin:/bin` if fow has none) |
//! | `HOME`, `TMPDIR` | a scratch folder of its own, made for the game and removed after it (`/tmp` in the sandbox, a private empty tmpfs) |
//! | `LANG` | fow's `LANG`, else `C.UTF-8` |
//! | `NAME` | `value`, for each `env.NAME=value` of the spec |
//!
//! **Descriptors.** A program gets stdin, stdout and stderr and no other descriptor,
//! including those fow inherited from its own parent (see `guard`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::command::{find_file, split_command};
use super::sandbox::Sandbox;
use crate::spec::{PlayerSpec, SpecError};

/// The spec keys of a program's launch, shared by `exec:` and `uci:` (besides
/// `env.NAME` keys).
pub const LAUNCH_KEYS: [&str; 3] = ["cmd", "sandbox", "bind"];

/// The prefix of a spec key that sets a variable of the program's environment.
pub const ENV_PREFIX: &str = "env.";

/// `PATH` for a program when fow has none.
const DEFAULT_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// How one program player is started.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    /// The program and its arguments, the program resolved to an executable file.
    pub argv: Vec<String>,
    /// How it is isolated (`sandbox=bwrap`; none by default).
    pub sandbox: Sandbox,
    /// Folders or files shown read-only inside the sandbox besides the program's own
    /// (`bind=PATH`, repeatable), as absolute paths.
    pub binds: Vec<PathBuf>,
    /// Variables added to the program's minimal environment (`env.NAME=value`).
    pub env: BTreeMap<String, String>,
}

impl Launch {
    /// Reads the launch keys of `spec` (`cmd`, `sandbox`, `bind`, `env.NAME`). The
    /// program must resolve to an executable file (`resolve` may look in more places
    /// than `PATH`, as `uci:` looks in `/usr/games`).
    pub(crate) fn from_spec(
        spec: &PlayerSpec,
        what: &str,
        resolve: impl Fn(&str) -> Option<PathBuf>,
    ) -> Result<Launch, SpecError> {
        let bad = |message: String| SpecError::BadParam {
            bot: spec.name.clone(),
            message,
        };
        let cmd = spec
            .param("cmd")
            .ok_or_else(|| bad(format!("cmd=<{what}> is required")))?;
        let mut argv = split_command(cmd)
            .filter(|a| !a.is_empty())
            .ok_or_else(|| bad(format!("cannot read the command line '{cmd}'")))?;
        let program =
            resolve(&argv[0]).ok_or_else(|| match find_file(&argv[0], |p| p.is_file()) {
                Some(p) => bad(format!(
                    "'{}' is not a program: {} is not executable",
                    argv[0],
                    p.display()
                )),
                None => bad(format!("program '{}' not found", argv[0])),
            })?;
        if !argv[0].contains('/') {
            argv[0] = program.to_string_lossy().into_owned();
        }
        let sandbox = Sandbox::parse(spec.param("sandbox").unwrap_or("none")).map_err(bad)?;
        let mut binds = Vec::new();
        let mut env = BTreeMap::new();
        for (k, v) in &spec.params {
            if k == "bind" {
                if sandbox == Sandbox::None {
                    return Err(bad(format!(
                        "bind={v} shows a path inside the sandbox: it needs sandbox=bwrap"
                    )));
                }
                let p = Path::new(v);
                if !p.exists() {
                    return Err(bad(format!("bind={v}: no such file or folder")));
                }
                binds.push(std::path::absolute(p).map_err(|e| bad(format!("bind={v}: {e}")))?);
            } else if let Some(name) = k.strip_prefix(ENV_PREFIX) {
                if name.is_empty() || name.contains('=') {
                    return Err(bad(format!("'{k}' names no environment variable")));
                }
                env.insert(name.to_string(), v.clone());
            }
        }
        Ok(Launch {
            argv,
            sandbox,
            binds,
            env,
        })
    }

    /// Whether `key` is one of the launch's keys.
    pub(crate) fn is_key(key: &str) -> bool {
        LAUNCH_KEYS.contains(&key) || key.starts_with(ENV_PREFIX)
    }

    /// The command line that starts the program, with every folder in `hidden` kept out
    /// of the sandbox; an error when the spec's own binds or arguments would show one.
    pub(crate) fn command(&self, hidden: &[PathBuf]) -> Result<Vec<String>, String> {
        self.sandbox.command(&self.argv, &self.binds, hidden)
    }

    /// The environment the program gets, its scratch folder being `scratch` (see the
    /// module documentation).
    pub(crate) fn environment(&self, scratch: &Path) -> Vec<(String, String)> {
        let path = std::env::var("PATH")
            .ok()
            .filter(|p| !p.is_empty())
            .unwrap_or_else(|| DEFAULT_PATH.to_string());
        let lang = std::env::var("LANG")
            .ok()
            .filter(|l| !l.is_empty())
            .unwrap_or_else(|| "C.UTF-8".to_string());
        let scratch = scratch.to_string_lossy().into_owned();
        let mut env: BTreeMap<String, String> = [
            ("PATH".to_string(), path),
            ("HOME".to_string(), scratch.clone()),
            ("TMPDIR".to_string(), scratch),
            ("LANG".to_string(), lang),
        ]
        .into();
        env.extend(self.env.iter().map(|(k, v)| (k.clone(), v.clone())));
        env.into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::command::find_program;
    use super::*;

    fn launch(spec: &str) -> Result<Launch, SpecError> {
        let spec: PlayerSpec = spec.parse().unwrap();
        Launch::from_spec(&spec, "program", find_program)
    }

    #[test]
    fn the_environment_is_minimal_plus_the_specs_own() {
        let l = launch("exec:cmd=sh,env.LEVEL=3,env.PATH=/opt/bin").unwrap();
        let env = l.environment(Path::new("/scratch"));
        let names: Vec<&str> = env.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, ["HOME", "LANG", "LEVEL", "PATH", "TMPDIR"]);
        let get = |k: &str| env.iter().find(|(n, _)| n == k).unwrap().1.clone();
        assert_eq!(get("HOME"), "/scratch");
        assert_eq!(get("TMPDIR"), "/scratch");
        assert_eq!(get("LEVEL"), "3");
        assert_eq!(get("PATH"), "/opt/bin", "the spec's own value wins");
    }

    #[test]
    fn a_file_that_is_not_executable_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let f = tmp.path().join("notes.txt");
        std::fs::write(&f, "hello").unwrap();
        let e = launch(&format!("exec:cmd={}", f.display()))
            .unwrap_err()
            .to_string();
        assert!(e.contains("is not a program"), "{e}");
        let e = launch("exec:cmd=no-such-program-here")
            .unwrap_err()
            .to_string();
        assert!(e.contains("not found"), "{e}");
    }

    #[test]
    fn bind_needs_the_sandbox_and_an_existing_path() {
        let e = launch("exec:cmd=sh,bind=/usr").unwrap_err().to_string();
        assert!(e.contains("needs sandbox=bwrap"), "{e}");
        if find_program("bwrap").is_some() {
            let e = launch("exec:cmd=sh,sandbox=bwrap,bind=/no/such/dir")
                .unwrap_err()
                .to_string();
            assert!(e.contains("no such file or folder"), "{e}");
        }
    }
}
