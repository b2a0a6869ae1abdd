//! The folders `fow web` serves ([`Roots`]) and the one way a request names a place in
//! them ([`Roots::resolve`]): a run's id is `<root number>/<path inside that root>`, and
//! nothing outside the roots is ever read, whatever the id says (`..`, an absolute path,
//! a symbolic link that leads out, a percent-encoded slash, a NUL).

use std::path::{Component, Path, PathBuf};

/// The roots, each as given and resolved (every symbolic link followed).
#[derive(Clone, Debug)]
pub struct Roots {
    roots: Vec<(PathBuf, PathBuf)>,
}

impl Roots {
    /// The roots `dirs`; a root that is not a folder is an error naming it.
    pub fn new(dirs: &[PathBuf]) -> Result<Roots, String> {
        let mut roots = Vec::new();
        for d in dirs {
            let real = d.canonicalize().map_err(|e| match e.kind() {
                std::io::ErrorKind::NotFound => format!("{}: no such folder", d.display()),
                _ => format!("{}: {e}", d.display()),
            })?;
            if !real.is_dir() {
                return Err(format!("{}: not a folder", d.display()));
            }
            std::fs::read_dir(&real).map_err(|e| format!("{}: {e}", d.display()))?;
            roots.push((d.clone(), real));
        }
        Ok(Roots { roots })
    }

    /// The roots as given, in order (a run's id starts with its root's index here).
    pub fn given(&self) -> impl Iterator<Item = &Path> {
        self.roots.iter().map(|(g, _)| g.as_path())
    }

    /// The resolved root of index `i`.
    pub fn real(&self, i: usize) -> Option<&Path> {
        self.roots.get(i).map(|(_, r)| r.as_path())
    }

    /// How many roots.
    pub fn len(&self) -> usize {
        self.roots.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.roots.is_empty()
    }

    /// The folder an id names (`0/runs/2026-11-26T08-00-00Z`), resolved, when it lies
    /// inside its root once every link is followed; `None` for anything else: an unknown
    /// root, an empty, `.` or `..` component, an absolute path, a backslash or NUL, or a
    /// place a link leads out of the root.
    pub fn resolve(&self, id: &str) -> Option<PathBuf> {
        let (root, rest) = id.split_once('/').unwrap_or((id, ""));
        let root = self.real(root.parse::<usize>().ok()?)?;
        if rest.contains(['\\', '\0']) {
            return None;
        }
        let rel = Path::new(rest);
        for c in rel.components() {
            if !matches!(c, Component::Normal(_)) {
                return None;
            }
        }
        if rest
            .split('/')
            .any(|part| part.is_empty() || part == "." || part == "..")
            && !rest.is_empty()
        {
            return None;
        }
        let real = root.join(rel).canonicalize().ok()?;
        real.starts_with(root).then_some(real)
    }

    /// The id of `dir` (resolved, inside root `i`).
    pub fn id_of(&self, i: usize, dir: &Path) -> Option<String> {
        let rel = dir.strip_prefix(self.real(i)?).ok()?;
        let rel = rel.to_str()?;
        Some(if rel.is_empty() {
            i.to_string()
        } else {
            format!("{i}/{rel}")
        })
    }

    /// A file named `name` in the run folder `dir` (already resolved), when it is a
    /// plain file there once links are followed, still inside the root of `dir`.
    pub fn file_in(&self, dir: &Path, name: &str) -> Option<PathBuf> {
        if name.is_empty() || name.contains(['/', '\\', '\0']) || name.starts_with('.') {
            return None;
        }
        let real = dir.join(name).canonicalize().ok()?;
        let inside = self
            .roots
            .iter()
            .any(|(_, r)| dir.starts_with(r) && real.starts_with(r));
        (inside && real.is_file()).then_some(real)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_never_leave_their_root() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("results");
        std::fs::create_dir_all(root.join("runs/a")).unwrap();
        std::fs::write(tmp.path().join("secret.txt"), "no").unwrap();
        std::fs::create_dir_all(tmp.path().join("outside")).unwrap();
        std::os::unix::fs::symlink(tmp.path().join("outside"), root.join("runs/out")).unwrap();
        std::os::unix::fs::symlink(root.join("runs/a"), root.join("runs/in")).unwrap();
        let roots = Roots::new(std::slice::from_ref(&root)).unwrap();
        let real = root.canonicalize().unwrap();
        assert_eq!(roots.resolve("0/runs/a"), Some(real.join("runs/a")));
        assert_eq!(roots.resolve("0"), Some(real.clone()));
        // A link that stays inside is followed.
        assert_eq!(roots.resolve("0/runs/in"), Some(real.join("runs/a")));
        for bad in [
            "0/..",
            "0/runs/../..",
            "0/../secret.txt",
            "0//etc",
            "0/runs/./a",
            "0/runs/out",
            "1/runs",
            "x/runs",
            "0/runs\\..\\..",
            "0/runs/a\0",
            "-1",
            "",
        ] {
            assert_eq!(roots.resolve(bad), None, "{bad:?}");
        }
        let dir = roots.resolve("0/runs/a").unwrap();
        std::fs::write(dir.join("games.csv"), "id\n").unwrap();
        std::os::unix::fs::symlink(tmp.path().join("secret.txt"), dir.join("ladder.svg")).unwrap();
        assert!(roots.file_in(&dir, "games.csv").is_some());
        assert_eq!(roots.file_in(&dir, "ladder.svg"), None, "a link out");
        assert_eq!(roots.file_in(&dir, "../secret.txt"), None);
        assert_eq!(roots.file_in(&dir, ".secret"), None);
        assert_eq!(roots.id_of(0, &dir).as_deref(), Some("0/runs/a"));
    }
}
