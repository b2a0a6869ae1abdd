//! The commands and flags `fow --help` lists, read from the help texts (shared by the
//! manual's checks in tests/manual.rs and the bad-path table in tests/bad_paths.rs).

use std::process::Command;

use super::FOW;

/// `fow ARGS --help`, standard output.
pub fn help(args: &[&str]) -> String {
    let out = Command::new(FOW)
        .args(args)
        .arg("--help")
        .output()
        .expect("fow runs");
    assert!(
        out.status.success(),
        "fow {} --help failed: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("help is UTF-8")
}

/// The subcommands a help text lists under `Commands:` (without `help`).
pub fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| l.trim() != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("      "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

/// The long flags of a help text's options (`-n, --games <N>`, `--resume`), without
/// `--help` and `--version`; flags named only inside descriptions are not options.
pub fn long_flags(help: &str) -> Vec<String> {
    let mut flags = Vec::new();
    let mut in_options = false;
    for line in help.lines() {
        if line.trim().is_empty() {
            continue;
        }
        if !line.starts_with(' ') {
            in_options = line.trim_end() == "Options:";
            continue;
        }
        let text = line.trim_start();
        if !in_options || !text.starts_with('-') {
            continue;
        }
        // The option's own words come first: `-n,`, `--games`, `<N>`; then its text.
        for word in text.split_whitespace() {
            let word = word.trim_end_matches(',');
            if let Some(name) = word.strip_prefix("--") {
                // `--verify[=<SPRT>]`: a flag whose value is optional.
                let name = name.split(['=', '[']).next().unwrap_or(name);
                if name != "help" && name != "version" {
                    flags.push(format!("--{name}"));
                }
            } else if !(word.starts_with('-') || word.starts_with('<') || word.starts_with('[')) {
                break;
            }
        }
    }
    flags
}

/// Every command with its flags: `("tournament", [...])`, `("params show", [...])`.
pub fn commands() -> Vec<(String, Vec<String>)> {
    let top = help(&[]);
    let mut all = Vec::new();
    for sub in subcommands(&top) {
        let h = help(&[&sub]);
        all.push((sub.clone(), long_flags(&h)));
        for nested in subcommands(&h) {
            let hn = help(&[&sub, &nested]);
            all.push((format!("{sub} {nested}"), long_flags(&hn)));
        }
    }
    // Guards against a help format this parser no longer reads.
    let flags: usize = all.iter().map(|(_, f)| f.len()).sum();
    assert!(
        all.len() >= 20 && flags >= 100,
        "parsed only {} commands and {flags} flags from fow's help: {all:?}",
        all.len()
    );
    all
}

/// The arguments of a help text that take a value: positional ones by their value name
/// (`<FILE>`, `<DIR>` for `<DIR>...`) and options by their long flag (`--out`), each with
/// its value name (`DIR`, `FILE.csv`, `zero|default|FILE`).
pub fn value_arguments(help: &str) -> Vec<(String, String)> {
    let mut args = Vec::new();
    let mut section = "";
    for line in help.lines() {
        if line.trim().is_empty() {
            continue;
        }
        if !line.starts_with(' ') {
            section = match line.trim_end() {
                "Arguments:" => "arguments",
                "Options:" => "options",
                _ => "",
            };
            continue;
        }
        let text = line.trim_start();
        let words: Vec<&str> = text.split_whitespace().collect();
        let value = |w: &str| {
            w.trim_start_matches(['<', '['])
                .trim_end_matches("...")
                .trim_end_matches([']', '>'])
                .to_string()
        };
        match section {
            "arguments" if text.starts_with('<') || text.starts_with('[') => {
                let v = value(words[0]);
                args.push((format!("<{v}>"), v));
            }
            "options" if text.starts_with('-') => {
                let mut flag = None;
                for w in &words {
                    let w = w.trim_end_matches(',');
                    if let Some(name) = w.strip_prefix("--") {
                        flag = Some(format!("--{}", name.split('=').next().unwrap_or(name)));
                    } else if w.starts_with('<') {
                        if let Some(f) = flag.take() {
                            args.push((f, value(w)));
                        }
                        break;
                    } else if !w.starts_with('-') {
                        break;
                    }
                }
            }
            _ => {}
        }
    }
    args
}
