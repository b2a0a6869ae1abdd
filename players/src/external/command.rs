//! Splitting a command line into a program and its arguments, without a shell.

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
