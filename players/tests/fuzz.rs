//! Every text parser of the players crate survives arbitrary input: player specs and
//! lists of them, the fow bot protocol's messages in both directions (and `serve`, which
//! reads them), and the lines of a UCI engine. Arbitrary strings, arbitrary bytes read
//! lossily (as the pipes are read) and valid texts with one mutation; nothing may
//! panic, and every rejection is one non-empty line without control characters. Text a
//! bot sends comes out with its control characters escaped.

use std::fmt::Display;

use fow_players::external::protocol::{BudgetMsg, FromBot, OptionInfo, OptionType, ToBot};
use fow_players::external::{read_engine_line, split_command, EngineLine};
use fow_players::serve::serve;
use fow_players::{registry, split_spec_list, PlayerSpec};
use fow_variants::{FogView, Position, RuleSet};
use proptest::prelude::*;
use proptest::sample::Index;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Asserts that an error reads as one line a user can be shown.
fn one_line(e: impl Display) {
    let s = e.to_string();
    assert!(!s.trim().is_empty(), "empty error text");
    assert!(
        !s.chars().any(|c| c.is_control()),
        "error text with a control character: {s:?}"
    );
}

fn no_control(s: &str) {
    assert!(
        !s.chars().any(|c| c.is_control()),
        "control character in {s:?}"
    );
}

/// One of a few mutations of a valid text.
fn mutate(text: &str, kind: u8, at: &Index, ch: char) -> String {
    let mut v: Vec<char> = text.chars().collect();
    let i = at.index(v.len() + 1);
    match kind % 10 {
        0 => v.insert(i, ch),
        1 => v.insert(i, '\0'),
        2 => v.insert(i, '\n'),
        3 => v.truncate(i),
        4 => {
            if i < v.len() {
                v.remove(i);
            }
        }
        5 => v.insert(i, '"'),
        6 => v.insert(i, ','),
        7 => v.insert(i, '='),
        8 => {
            if i < v.len() {
                v[i] = ch;
            }
        }
        _ => return text.replacen(|c: char| c.is_ascii_digit(), "99999999999999999999999", 1),
    }
    v.into_iter().collect()
}

/// A spec that builds, for each registered bot, with every parameter at its default
/// where that default is a value (not a placeholder such as `(shipped)`).
fn valid_specs() -> Vec<String> {
    let mut out = Vec::new();
    for bot in registry() {
        let params: Vec<String> = bot
            .params
            .iter()
            .filter(|p| !p.default_text().starts_with('('))
            .map(|p| format!("{}={}", p.name, p.default_text()))
            .collect();
        out.push(bot.name.to_string());
        if !params.is_empty() {
            out.push(format!("{}:{}", bot.name, params.join(",")));
        }
    }
    out.push("exec:cmd=\"python3 bot.py --list a,b\",name=Mine,depth=3".into());
    out.push("exec:cmd=python3 \"my bot.py\" --x=1".into());
    out
}

fn try_spec(text: &str) {
    match text.parse::<PlayerSpec>() {
        Ok(spec) => {
            let written = spec.to_string();
            no_control(&written);
            assert_eq!(
                written.parse::<PlayerSpec>().as_ref(),
                Ok(&spec),
                "{text:?} wrote {written:?}"
            );
            // Building reads parameters (never starts a program: that is `start`'s).
            if let Err(e) = spec.build() {
                one_line(e);
            }
        }
        Err(e) => one_line(e),
    }
}

fn check_from_bot(m: &FromBot) {
    match m {
        FromBot::Hello { name, options, .. } => {
            no_control(name);
            for o in options.iter().flatten() {
                no_control(&o.name);
                no_control(&o.default);
                no_control(&o.description);
            }
        }
        FromBot::Move { uci } => no_control(uci),
        FromBot::Error { message } => no_control(message),
        FromBot::Ready => {}
    }
}

fn try_from_bot(line: &str) {
    match FromBot::from_line(line) {
        Ok(m) => check_from_bot(&m),
        Err(e) => one_line(e),
    }
}

/// Valid messages of a bot, as JSON lines, some with control characters in their text.
fn bot_lines() -> Vec<String> {
    [
        FromBot::Hello {
            protocol: 1,
            name: "my bot".into(),
            options: Some(vec![
                OptionInfo::new("depth", "3", "plies"),
                OptionInfo {
                    kind: Some(OptionType::Real),
                    min: Some(0.0),
                    max: Some(1.0),
                    ..OptionInfo::new("mean", "0.5", "weight of the mean")
                },
            ]),
        },
        FromBot::Ready,
        FromBot::Move { uci: "e2e4".into() },
        FromBot::Error {
            message: "out of memory".into(),
        },
        FromBot::Error {
            message: "nul \0 newline \n escape \x1b[31m".into(),
        },
    ]
    .iter()
    .map(|m| serde_json::to_string(m).unwrap())
    .collect()
}

/// Valid messages of the arena, as JSON lines.
fn arena_lines() -> Vec<String> {
    let start = Position::startpos();
    let view = FogView::of(&start, fow_variants::Color::White, &RuleSet::thesis());
    [
        ToBot::Hello { protocol: 1 },
        ToBot::NewGame {
            color: "white".into(),
            rules: RuleSet::chesscom(),
            seed: 7,
            options: Default::default(),
            start: Some(start.fen()),
        },
        ToBot::Turn {
            ply: 0,
            view: view.to_string(),
            previous: None,
            legal: vec!["e2e4".into()],
            budget: BudgetMsg {
                nodes: Some(100),
                ms: None,
                remaining_ms: None,
                increment_ms: None,
            },
            timeout_ms: 1000,
        },
        ToBot::GameEnd {
            result: "1-0".into(),
            outcome: "win".into(),
            reason: "king captured".into(),
        },
        ToBot::Quit,
    ]
    .iter()
    .map(|m| serde_json::to_string(m).unwrap())
    .collect()
}

/// Runs `serve` over `input`: it ends with `Ok` or a one-line error, never a panic.
/// Returns the messages it answered.
fn try_serve(bot: &str, input: &str) -> Vec<FromBot> {
    let spec: PlayerSpec = bot.parse().unwrap();
    let mut out = Vec::new();
    if let Err(e) = serve(&spec, input.as_bytes(), &mut out) {
        one_line(e);
    }
    let text = String::from_utf8(out).unwrap();
    text.lines()
        .map(|line| {
            no_control(line);
            FromBot::from_line(line).unwrap()
        })
        .collect()
}

/// Bots `serve` is fuzzed with: cheap ones, and searching ones kept shallow.
const SERVED: [&str; 4] = [
    "RandomMove",
    "CaptureLargest",
    "SimpleStockfish:depth=1",
    "PossibleBoardGenerator:depth=1",
];

proptest! {
    #![proptest_config(config(400))]

    #[test]
    fn specs_survive_arbitrary_strings(text in any::<String>()) {
        try_spec(&text);
        let pieces = split_spec_list(&text);
        prop_assert!(pieces.iter().all(|p| !p.trim().is_empty()));
        for p in &pieces {
            try_spec(p);
        }
    }

    #[test]
    fn specs_survive_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..80)) {
        try_spec(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn specs_survive_spec_like_strings(text in r#"[A-Za-z_ -]{0,12}(:([a-z ]{0,5}=?"?[a-z0-9 ,"=:.-]{0,8}"?,?){0,4})?"#) {
        try_spec(&text);
    }

    #[test]
    fn specs_survive_near_misses(which in any::<Index>(), kind in any::<u8>(), at in any::<Index>(), ch in any::<char>()) {
        let specs = valid_specs();
        let valid = &specs[which.index(specs.len())];
        let spec: PlayerSpec = valid.parse().unwrap();
        prop_assert_eq!(&spec.to_string().parse::<PlayerSpec>().unwrap(), &spec);
        try_spec(&mutate(valid, kind, &at, ch));
    }

    #[test]
    fn spec_lists_split_back_into_their_specs(picks in proptest::collection::vec(any::<Index>(), 1..5)) {
        let specs = valid_specs();
        let chosen: Vec<String> = picks.iter().map(|i| specs[i.index(specs.len())].clone()).collect();
        prop_assert_eq!(split_spec_list(&chosen.join(",")), chosen);
    }

    #[test]
    fn command_lines_survive_arbitrary_strings(line in any::<String>()) {
        // The `cmd=` of exec and uci specs: any text splits into words or is refused.
        if let Some(words) = split_command(&line) {
            prop_assert!(words.len() <= line.len());
        }
    }

    #[test]
    fn command_lines_of_quoted_words_split_back(words in proptest::collection::vec("[^\\x00]{0,6}", 1..5)) {
        // Each word in single quotes (a quote inside closed, escaped, reopened).
        let line: Vec<String> = words.iter().map(|w| format!("'{}'", w.replace('\'', "'\\''"))).collect();
        prop_assert_eq!(split_command(&line.join(" ")), Some(words));
    }

    #[test]
    fn bot_messages_survive_arbitrary_strings(line in any::<String>()) {
        try_from_bot(&line);
        if let Err(e) = ToBot::from_line(&line) {
            one_line(e);
        }
    }

    #[test]
    fn bot_messages_survive_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..120)) {
        try_from_bot(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn bot_messages_survive_json_like_strings(
        line in r#"\{("(type|name|message|move|protocol|options)": ?("(hello|ready|move|error)"|-?[0-9]{1,22}|"[a-z\\0-9u]{0,8}"|\[\]|null|\{\}),? ?){0,4}\}?"#,
    ) {
        try_from_bot(&line);
    }

    #[test]
    fn bot_messages_survive_near_misses(which in any::<Index>(), kind in any::<u8>(), at in any::<Index>(), ch in any::<char>()) {
        let lines = bot_lines();
        let valid = &lines[which.index(lines.len())];
        check_from_bot(&FromBot::from_line(valid).unwrap());
        try_from_bot(&mutate(valid, kind, &at, ch));
    }

    #[test]
    fn engine_lines_survive_arbitrary_strings(line in any::<String>(), awaited in "(bestmove|uciok|readyok)") {
        match read_engine_line(&line, &awaited) {
            EngineLine::Awaited(words) => {
                prop_assert!(words.iter().all(|w| !w.is_empty() && !w.contains(char::is_whitespace)));
            }
            EngineLine::Info(_) | EngineLine::Other => {}
        }
    }

    #[test]
    fn engine_lines_survive_uci_like_strings(
        line in "(info|bestmove|uciok|id|option) ?((depth|nodes|score|cp|mate|pv|ponder) ?(-?[0-9]{0,22}|[a-h][1-8][a-h][1-8][qrbn]?|\\(none\\)) ?){0,4}",
    ) {
        let r = read_engine_line(&line, "bestmove");
        if line == "bestmove" || line.starts_with("bestmove ") {
            prop_assert!(matches!(r, EngineLine::Awaited(_)), "{:?}", r);
        }
    }
}

proptest! {
    // `serve` plays a bot's move per turn: fewer cases.
    #![proptest_config(config(120))]

    #[test]
    fn serve_survives_near_misses(
        bot in any::<Index>(),
        which in any::<Index>(),
        kind in any::<u8>(),
        at in any::<Index>(),
        ch in any::<char>(),
    ) {
        let mut lines = arena_lines();
        let i = which.index(lines.len());
        lines[i] = mutate(&lines[i], kind, &at, ch);
        try_serve(SERVED[bot.index(SERVED.len())], &lines.join("\n"));
    }

    #[test]
    fn serve_survives_arbitrary_views(
        bot in any::<Index>(),
        squares in proptest::collection::vec(proptest::sample::select(&['P', 'N', 'K', 'p', 'r', 'k', '?', '1', '1', '1'][..]), 64),
        black in any::<bool>(),
    ) {
        // A view no game reaches (no king, two kings, a pawn on the last rank) still
        // gets an answer or a one-line error.
        let board = squares.chunks(8).map(|r| r.iter().collect::<String>()).collect::<Vec<_>>().join("/");
        let side = if black { "b" } else { "w" };
        let mut lines = arena_lines();
        lines[1] = lines[1].replace("white", if black { "black" } else { "white" });
        let turn: serde_json::Value = serde_json::from_str(&lines[2]).unwrap();
        let mut turn = turn;
        turn["view"] = format!("{board} {side} - -").into();
        turn["ply"] = u32::from(black).into();
        lines[2] = turn.to_string();
        let answers = try_serve(SERVED[bot.index(SERVED.len())], &lines.join("\n"));
        prop_assert!(
            matches!(answers.get(2), Some(FromBot::Move { .. } | FromBot::Error { .. })),
            "{:?}",
            answers
        );
    }
}

/// Text from a bot is escaped where it enters fow: the message of its `error`, its name,
/// its move.
#[test]
fn control_characters_from_a_bot_are_escaped_on_reading() {
    let m = FromBot::from_line(r#"{"type":"error","message":"bad\u0000thing\nhappened"}"#).unwrap();
    assert_eq!(
        m,
        FromBot::Error {
            message: "bad\\u{0}thing\\u{a}happened".into()
        }
    );
    let m =
        FromBot::from_line(r#"{"type":"hello","protocol":1,"name":"evil\u001b[2Jbot"}"#).unwrap();
    assert!(
        matches!(m, FromBot::Hello { ref name, .. } if name == "evil\\u{1b}[2Jbot"),
        "{m:?}"
    );
    // A move keeps working with a newline after it, and shows a NUL inside.
    let m = FromBot::from_line(r#"{"type":"move","move":"e2e4\n"}"#).unwrap();
    assert_eq!(m, FromBot::Move { uci: "e2e4".into() });
    let m = FromBot::from_line(r#"{"type":"move","move":"e2\u0000e4"}"#).unwrap();
    assert_eq!(
        m,
        FromBot::Move {
            uci: "e2\\u{0}e4".into()
        }
    );
    let e = FromBot::from_line("{\"type\":\"mvoe\u{0}\"}").unwrap_err();
    assert!(
        e.starts_with("cannot read '{\"type\":\"mvoe\\u{0}\"}': "),
        "{e}"
    );
    one_line(e);
}

#[test]
fn spec_errors_say_what_is_wrong() {
    for (text, needle) in [
        ("", "no bot name"),
        ("Fo o", "the bot name 'Fo o' holds ' '"),
        ("Foo:a", "'a' is not key=value"),
        ("Foo:=1", "'=1' has no parameter name before '='"),
        ("Foo:a b=1", "the parameter name 'a b' holds ' '"),
        ("exec:cmd=\"a,b", "the quotes of cmd=\"a,b do not close"),
        ("exec:cmd=a\0b", "it holds the control character \\u{0}"),
        ("exec:cmd=a\nb", "it holds the control character \\u{a}"),
    ] {
        let e = text.parse::<PlayerSpec>().unwrap_err().to_string();
        assert!(e.contains(needle), "{text:?}: {e}");
        assert!(e.starts_with("cannot read player spec '"), "{e}");
        one_line(e);
    }
    // Values that need quotes to read back get them.
    for text in [
        r#"exec:cmd=" a ",name=x"#,
        r#"exec:cmd="a""b",name=x"#,
        "Foo:a=\"\"\"\"",
    ] {
        let spec: PlayerSpec = text.parse().unwrap();
        assert_eq!(
            spec.to_string().parse::<PlayerSpec>().unwrap(),
            spec,
            "{text}"
        );
    }
    let e = "RandomMove:depth=3"
        .parse::<PlayerSpec>()
        .unwrap()
        .build()
        .err()
        .unwrap();
    one_line(e);
}
