//! The manual (`docs/src/*.md`, an mdBook) and the README against the program they
//! describe, without mdBook:
//!
//! - every subcommand that `fow --help` lists has a page or section in the manual (a
//!   heading naming `fow SUB`) with a real example (a `$ fow SUB ...` line in a fenced
//!   block), and every long flag that `fow SUB --help` lists is mentioned in that section;
//! - the manual's pages and SUMMARY.md agree, and its relative links lead somewhere;
//! - the README's two set-up commands are the ones `.ci/run` runs;
//! - the code of the chapter "fow as a library" is the real code: `examples/rust_bot.rs`,
//!   `examples/player_bot.rs`, the in-process bot, and `examples/tunable_rust_bot.rs`, the
//!   bot with declared parameters, which this file compiles and plays.

mod common;

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use common::help::{commands, help, long_flags, subcommands};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn root() -> &'static Path {
    Path::new(ROOT)
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The manual's pages: (file name, text), in name order.
fn pages() -> Vec<(String, String)> {
    let dir = root().join("docs/src");
    let mut pages: Vec<(String, String)> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                read(&p),
            )
        })
        .collect();
    pages.sort();
    pages
}

/// Whether `text` mentions `word` as a whole word: not followed by a letter, digit or
/// `-` (so `--games` is not found in `--games-per-pair`, nor `fow tune` in `fow
/// tune-material`).
fn mentions(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        text[i + word.len()..]
            .chars()
            .next()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '-' || c == '_'))
    })
}

/// A page's headings outside fenced code: (line index, level, text).
fn headings(text: &str) -> Vec<(usize, usize, String)> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced && line.starts_with('#') {
            let level = line.chars().take_while(|&c| c == '#').count();
            out.push((i, level, line[level..].trim().to_string()));
        }
    }
    out
}

/// The section of the manual whose heading names `fow CMD`: (page, heading, its text
/// up to the next heading of the same or a higher level). A heading that starts with
/// `` `fow CMD `` (the command's own page) wins over one that names it further on.
fn section<'a>(pages: &'a [(String, String)], cmd: &str) -> Option<(&'a str, String, String)> {
    let needle = format!("fow {cmd}");
    let own = |title: &str| {
        mentions(title, &format!("`{needle}")) && title.starts_with(&format!("`{needle}"))
    };
    for pass in [true, false] {
        for (name, text) in pages {
            let hs = headings(text);
            for (k, (line, level, title)) in hs.iter().enumerate() {
                if !mentions(title, &needle) || (pass && !own(title)) {
                    continue;
                }
                let end = hs[k + 1..]
                    .iter()
                    .find(|(_, l, _)| l <= level)
                    .map_or(usize::MAX, |(i, _, _)| *i);
                let body: Vec<&str> = text
                    .lines()
                    .enumerate()
                    .filter(|(i, _)| i >= line && *i < end)
                    .map(|(_, l)| l)
                    .collect();
                return Some((name, title.clone(), body.join("\n")));
            }
        }
    }
    None
}

/// The lines of a text's fenced code blocks.
fn fenced_lines(text: &str) -> Vec<&str> {
    let mut fenced = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if fenced {
            out.push(line);
        }
    }
    out
}

#[test]
fn help_parsing_finds_options_and_not_descriptions() {
    let h = "About `--shard I/N` here.\n\nUsage: fow x [OPTIONS]\n\nCommands:\n  show    S\n  help    H\n\nOptions:\n  -n, --games <N>\n          Games (see --seed)\n\n      --resume  Go on\n      --tc <BASE+INC>  A clock\n      --verify[=<SPRT>]\n          Check\n  -h, --help  Print help\n";
    assert_eq!(long_flags(h), ["--games", "--resume", "--tc", "--verify"]);
    assert_eq!(subcommands(h), ["show"]);
    assert!(mentions("see `fow tune-material`.", "fow tune-material"));
    assert!(!mentions("`fow tune-material`", "fow tune"));
    assert!(!mentions("--games-per-pair", "--games"));
}

#[test]
fn every_command_and_flag_is_in_the_manual() {
    let pages = pages();
    let mut missing = Vec::new();
    for (cmd, flags) in commands() {
        // `fow params show` is documented in the section of `fow params`.
        let top = cmd.split(' ').next().unwrap();
        let Some((page, title, body)) = section(&pages, &cmd).or_else(|| section(&pages, top))
        else {
            missing.push(format!(
                "`fow {cmd}` has no page or section: no heading in docs/src/*.md names `fow {cmd}`. \
                 Add a page (and its line in docs/src/SUMMARY.md) or a section headed \"## `fow {cmd}`\", \
                 with a real example{}",
                if flags.is_empty() {
                    String::new()
                } else {
                    format!(", and say there what each of its flags does: {}", flags.join(" "))
                }
            ));
            continue;
        };
        if cmd != top && !mentions(&body, &format!("fow {cmd}")) {
            missing.push(format!(
                "docs/src/{page}, section \"{title}\": does not mention `fow {cmd}`"
            ));
        }
        let absent: Vec<&String> = flags.iter().filter(|f| !mentions(&body, f)).collect();
        if !absent.is_empty() {
            let elsewhere: Vec<String> = absent
                .iter()
                .map(|f| {
                    let at: Vec<&str> = pages
                        .iter()
                        .filter(|(_, t)| mentions(t, f))
                        .map(|(n, _)| n.as_str())
                        .collect();
                    if at.is_empty() {
                        format!("{f} (nowhere in the manual)")
                    } else {
                        format!("{f} (only in {})", at.join(", "))
                    }
                })
                .collect();
            missing.push(format!(
                "docs/src/{page}, section \"{title}\": `fow {cmd} --help` lists flags the section does not mention; \
                 say there what each does: {}",
                elsewhere.join(", ")
            ));
        }
    }
    assert!(
        missing.is_empty(),
        "the manual (docs/src/*.md) misses {} thing(s) `fow --help` lists:\n- {}\n",
        missing.len(),
        missing.join("\n- ")
    );
}

#[test]
fn every_command_page_has_a_real_example() {
    let pages = pages();
    let mut missing = Vec::new();
    let tops: BTreeSet<String> = commands()
        .into_iter()
        .map(|(c, _)| c.split(' ').next().unwrap().to_string())
        .collect();
    for cmd in tops {
        let Some((page, title, body)) = section(&pages, &cmd) else {
            continue; // reported by every_command_and_flag_is_in_the_manual
        };
        // `$ fow CMD ...`, or `$ printf ... | fow CMD ...` for a command that reads stdin.
        let example = format!("$ fow {cmd}");
        let ran = |l: &&str| l.starts_with("$ ") && mentions(l, &format!("fow {cmd}"));
        if !fenced_lines(&body).iter().any(ran) {
            missing.push(format!(
                "docs/src/{page}, section \"{title}\": no example; add a fenced block with the command line \
                 (`{example} ...`) and the output it prints now (trim long output with `...`)"
            ));
        }
    }
    assert!(missing.is_empty(), "\n- {}\n", missing.join("\n- "));
}

#[test]
fn summary_lists_every_page_and_links_resolve() {
    let src = root().join("docs/src");
    let summary = read(&src.join("SUMMARY.md"));
    let mut problems = Vec::new();
    let listed: BTreeSet<String> = links(&summary).into_iter().collect();
    for target in &listed {
        if !src.join(target).is_file() {
            problems.push(format!(
                "docs/src/SUMMARY.md lists {target}, which does not exist"
            ));
        }
    }
    for (name, text) in pages() {
        if name != "SUMMARY.md" && !listed.contains(&name) {
            problems.push(format!(
                "docs/src/{name} is not in docs/src/SUMMARY.md (mdBook leaves it out of the book)"
            ));
        }
        for target in links(&text) {
            if !src.join(&target).exists() {
                problems.push(format!(
                    "docs/src/{name}: link to {target}, which does not exist"
                ));
            }
        }
        // `{{#include PATH}}` (mdBook) must find its file.
        for line in text.lines() {
            if let Some(rest) = line.trim().strip_prefix("{{#include ") {
                let path = rest
                    .trim_end_matches("}}")
                    .split(':')
                    .next()
                    .unwrap()
                    .trim();
                if !src.join(path).is_file() {
                    problems.push(format!(
                        "docs/src/{name}: includes {path}, which does not exist"
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "\n- {}\n", problems.join("\n- "));
}

/// The relative link targets of a Markdown text, `#anchor` cut off (web links and pure
/// anchors left out; code spans and fenced code left out).
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Drop code spans.
        let plain: String = line.split('`').step_by(2).collect::<Vec<_>>().join("");
        let mut rest = plain.as_str();
        while let Some(i) = rest.find("](") {
            rest = &rest[i + 2..];
            let end = rest.find(')').unwrap_or(rest.len());
            let target = rest[..end].split('#').next().unwrap().trim();
            if !target.is_empty() && !target.contains("://") && !target.starts_with("mailto:") {
                out.push(target.to_string());
            }
            rest = &rest[end..];
        }
    }
    out
}

/// The commands of the fenced block under a README heading, comments dropped.
fn readme_commands(readme: &str, heading: &str) -> Vec<String> {
    let after = readme
        .split_once(&format!("\n{heading}"))
        .unwrap_or_else(|| panic!("README.md has no heading {heading:?}"))
        .1;
    let block = after
        .split("```")
        .nth(1)
        .unwrap_or_else(|| panic!("README.md: no code block under {heading:?}"));
    block
        .lines()
        .skip(1) // the fence's language
        .map(|l| l.split('#').next().unwrap().trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn readme_set_up_commands_are_what_ci_runs() {
    let readme = read(&root().join("README.md"));
    let commands = readme_commands(&readme, "## Set-up");
    assert_eq!(
        commands.len(),
        2,
        "README.md, \"## Set-up\": expected the two set-up commands (the main job, the tests) in its code block, found {commands:?}"
    );
    let (main, tests) = (&commands[0], &commands[1]);

    // CI runs exactly the README's test command, and no other cargo command.
    let ci = read(&root().join(".ci/run"));
    let ci_cargo: Vec<&str> = ci
        .lines()
        .map(|l| l.split('#').next().unwrap().trim())
        .filter(|l| l.starts_with("cargo "))
        .collect();
    assert_eq!(
        ci_cargo,
        [tests.as_str()],
        ".ci/run's cargo commands must be exactly the README's test command `{tests}` (README.md, \"## Set-up\"); \
         change one or the other so that they agree"
    );

    // The main command runs a subcommand that exists.
    let sub = main
        .strip_prefix("cargo run --release -- ")
        .unwrap_or_else(|| {
            panic!("README.md's main command `{main}` should be `cargo run --release -- SUBCOMMAND ...`")
        })
        .split_whitespace()
        .next()
        .expect("a subcommand");
    let subs = subcommands(&help(&[]));
    assert!(
        subs.iter().any(|s| s == sub),
        "README.md's main command runs `fow {sub}`, which `fow --help` does not list ({})",
        subs.join(", ")
    );
    help(&[sub]); // and its help works
}

/// The first fenced block of `page` that follows a line containing `marker`.
fn block_after(page: &str, marker: &str) -> String {
    let text = read(&root().join("docs/src").join(page));
    let after = text
        .split_once(marker)
        .unwrap_or_else(|| panic!("docs/src/{page}: no {marker:?}"))
        .1;
    let mut lines = after.lines().skip_while(|l| !l.starts_with("```")).skip(1);
    let mut out = String::new();
    for line in lines.by_ref() {
        if line.starts_with("```") {
            return out;
        }
        out.push_str(line);
        out.push('\n');
    }
    panic!("docs/src/{page}: the block after {marker:?} is not closed")
}

#[test]
fn library_chapter_shows_the_real_code() {
    let example = read(&root().join("examples/rust_bot.rs"));
    assert_eq!(
        block_after("library.md", "<!-- examples/rust_bot.rs -->"),
        example,
        "docs/src/library.md: the block after `<!-- examples/rust_bot.rs -->` must be examples/rust_bot.rs as it is; copy it again"
    );
    let bot = read(&root().join("examples/player_bot.rs"));
    assert_eq!(
        block_after("library.md", "<!-- examples/player_bot.rs -->"),
        bot,
        "docs/src/library.md: the block after `<!-- examples/player_bot.rs -->` must be examples/player_bot.rs as it is; copy it again"
    );
    let tunable = read(&root().join("examples/tunable_rust_bot.rs"));
    assert_eq!(
        block_after("library.md", "<!-- examples/tunable_rust_bot.rs -->"),
        tunable,
        "docs/src/library.md: the block after `<!-- examples/tunable_rust_bot.rs -->` must be examples/tunable_rust_bot.rs as it is; copy it again"
    );
}

/// The chapter's in-process bot, `examples/player_bot.rs`, as it is.
#[allow(dead_code)] // its `main` is the example's
mod player_bot {
    include!("../examples/player_bot.rs");
}

#[test]
fn library_chapter_bot_plays() {
    // The chapter's figures: Greedy against RandomMove and CaptureLargest, 100 games each.
    let points = player_bot::greedy_against("RandomMove", 100);
    println!("Greedy scored {points} of 100 against RandomMove");
    assert!(
        points >= 80.0,
        "Greedy scored only {points} of 100 against RandomMove"
    );
    let even = player_bot::greedy_against("CaptureLargest", 100);
    println!("Greedy scored {even} of 100 against CaptureLargest");
    assert!(
        (25.0..=75.0).contains(&even),
        "Greedy plays as CaptureLargest does, yet scored {even} of 100 against it"
    );
}

#[test]
fn protocol_lives_in_the_manual() {
    let text = read(&root().join("docs/src/protocol.md"));
    for message in [
        "hello", "new_game", "ready", "turn", "move", "game_end", "quit",
    ] {
        assert!(
            text.contains(&format!("\"{message}\"")),
            "docs/src/protocol.md does not describe the message \"{message}\""
        );
    }
    let pointer = read(&root().join("PROTOCOL.md"));
    assert!(
        pointer.contains("docs/src/protocol.md"),
        "PROTOCOL.md (kept for the links to it in the code) must point to docs/src/protocol.md"
    );
}

/// The chapter's bot with declared parameters, `examples/tunable_rust_bot.rs`, as it is.
#[allow(dead_code)] // its `main` is the example's
mod tunable_bot {
    include!("../examples/tunable_rust_bot.rs");
}

#[test]
fn library_chapter_tunable_bot_reads_its_parameters() {
    use fow_players::{Budget, GameStart, Player, PlayerSpec};
    use fow_variants::{Color, Observation, Position, RuleSet};
    let spec = |text: &str| -> PlayerSpec { text.parse().unwrap() };
    // Its declarations are the library's: type, range and the errors of a built-in bot.
    let names: Vec<&str> = tunable_bot::PARAMS.iter().map(|p| p.name).collect();
    assert_eq!(names, ["greed", "queen"]);
    assert_eq!(tunable_bot::PARAMS[0].range_text(), "number, 0 to 1");
    for (text, why) in [
        ("Tunable:greed=2", "Tunable: greed must be 0 to 1, not 2"),
        ("Tunable:queen=0", "Tunable: queen must be 1 to 20, not 0"),
        (
            "Tunable:depth=3",
            "Tunable: unknown parameter 'depth' (known: greed, queen)",
        ),
        ("Other", "unknown bot 'Other' (known: Tunable)"),
    ] {
        let e = tunable_bot::Tunable::from_spec(&spec(text))
            .err()
            .expect("refused");
        assert_eq!(e.to_string(), why);
    }
    // queen: White's knight on d4 takes the queen on c6, or with queen=1 (below the
    // rook's 5) the rook on e6.
    let rules = RuleSet::thesis();
    let pos: Position = "4k3/8/2q1r3/8/3N4/8/8/4K3 w - - 0 1".parse().unwrap();
    let obs = Observation::new(&pos, &rules, 0, None);
    for (text, expect) in [("Tunable", "d4c6"), ("Tunable:queen=1", "d4e6")] {
        let mut bot = tunable_bot::Tunable::from_spec(&spec(text)).unwrap();
        bot.start(&GameStart::new(Color::White, rules, 3).with_position(pos.clone()));
        assert_eq!(bot.choose(&obs, &Budget::default()).uci(), expect, "{text}");
    }
    // greed: 0 plays at random, far weaker against RandomMove than 1 (seeded games).
    let sure = tunable_bot::score(&spec("Tunable:greed=1"), "RandomMove", 40).unwrap();
    let never = tunable_bot::score(&spec("Tunable:greed=0"), "RandomMove", 40).unwrap();
    println!("against RandomMove, 40 games: greed=1 {sure}, greed=0 {never}");
    assert!(sure >= never + 10.0, "greed=1 {sure}, greed=0 {never}");
}
