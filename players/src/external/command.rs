//! Splitting a command line into a program and its arguments, without a shell, and
//! finding the program's file.

use std::path::{Path, PathBuf};

/// Splits `line` into words as a POSIX shell does, without expansions: whitespace
/// separates words; `'...'` is literal; inside `"..."` a backslash escapes `"` and `\`;
/// elsewhere a backslash escapes the next character. `None` for an unterminated quote or
/// a trailing backslash.
///
/// ```
/// use fow_players::external::split_command;
/// assert_eq!(
///     split_command(r#"python3 "my bot.py" --name='a b' x\ y"#).unwrap(),
///     ["python3", "my bot.py", "--name=a b", "x y"]
/// );
/// assert!(split_command("python3 'bot.py").is_none());
/// ```
pub fn split_command(line: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => word.push(c),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => match chars.next()? {
                            c @ ('"' | '\\') => word.push(c),
                            c => {
                                word.push('\\');
                                word.push(c);
                            }
                        },
                        c => word.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.push(chars.next()?);
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Some(words)
}

/// The executable file a program name resolves to: a path as given, else the first
/// executable file of that name on `PATH` (as a shell looks it up).
pub(crate) fn find_program(program: &str) -> Option<PathBuf> {
    find_file(program, executable)
}

/// The file `program` names (a path as given, else the first file of that name on
/// `PATH`) that `accept` takes.
pub(crate) fn find_file(program: &str, accept: impl Fn(&Path) -> bool) -> Option<PathBuf> {
    if program.contains('/') {
        let p = PathBuf::from(program);
        return accept(&p).then_some(p);
    }
    std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(program))
            .find(|p| accept(p))
    })
}

/// Whether `path` is a file this process may execute (a folder is not; as root, a file
/// with no execute bit is not either).
pub(crate) fn executable(path: &Path) -> bool {
    if !path.is_file() {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let Ok(c) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
            return false;
        };
        // SAFETY: access reads a NUL-terminated path.
        unsafe { libc::access(c.as_ptr(), libc::X_OK) == 0 }
    }
    #[cfg(not(unix))]
    true
}
