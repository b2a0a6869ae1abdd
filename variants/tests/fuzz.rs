//! Every text parser of the rules engine survives arbitrary input: FEN, fog-FEN, UCI and
//! long algebraic moves, SAN, PGN and rule-set texts are fed arbitrary strings, arbitrary
//! bytes (read lossily, as the CLI would after decoding) and valid texts with one
//! mutation (a rank too many, a digit 9, a huge number, a stray NUL, a cut-off tag...).
//! Nothing may panic, and every rejection must be one non-empty line with no control
//! characters. What parses must also behave: a position reads back from its own FEN, a
//! move read is one of the legal moves, a PGN game replays or says why not.
//!
//! The structured near-misses are what reach the deep paths: random text almost never
//! gets past the first field of a FEN.

use std::fmt::Display;

use fow_variants::{
    read_pgn_games, FogView, Move, Observation, PgnGame, PgnResult, Position, RuleSet,
};
use proptest::prelude::*;
use proptest::sample::Index;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// What a square of a random board holds: every piece, fog, or nothing (`1`), empty
/// squares more often.
const SQUARE_CHARS: [char; 16] = [
    'P', 'N', 'B', 'R', 'Q', 'K', 'p', 'n', 'b', 'r', 'q', 'k', '?', '?', '1', '1',
];

/// Cases per property: enough to hit every mutation many times, few enough that the
/// whole file runs in seconds on two cores.
const CASES: u32 = 400;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: CASES,
        // Failures are reported with their input; no regression files are written.
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

fn both_rules() -> [RuleSet; 2] {
    [RuleSet::thesis(), RuleSet::chesscom()]
}

/// The moves of a random playout of up to `plies` plies from `start` (stopping before a
/// king capture) and the position they reach.
fn playout_from(start: &Position, seed: u64, plies: u32, rules: &RuleSet) -> (Vec<Move>, Position) {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let quiet: Vec<Move> = pos
            .legal_moves(rules)
            .into_iter()
            .filter(|m| !m.captures_king())
            .collect();
        if quiet.is_empty() {
            break;
        }
        let m = quiet[rng.random_range(0..quiet.len())];
        pos.play(&m);
        moves.push(m);
    }
    (moves, pos)
}

/// A position some plies into a random game.
fn random_position(seed: u64, plies: u32) -> Position {
    playout_from(&Position::startpos(), seed, plies, &RuleSet::chesscom()).1
}

/// Text mutations that make sense for any input: `kind` picks one, `at` a place, `ch` a
/// character to put in.
fn mutate_text(text: &str, kind: u8, at: &Index, ch: char) -> String {
    let chars: Vec<char> = text.chars().collect();
    let i = if chars.is_empty() {
        0
    } else {
        at.index(chars.len() + 1)
    };
    let mut out: Vec<char> = chars.clone();
    match kind % 12 {
        0 => out.insert(i, ch),
        1 => out.insert(i, '\0'),
        2 => out.insert(i, '\n'),
        3 => out.truncate(i),
        4 => {
            if i < out.len() {
                out.remove(i);
            }
        }
        5 => {
            // Double a stretch.
            let j = (i + 7).min(out.len());
            let dup: Vec<char> = out[i..j].to_vec();
            out.splice(i..i, dup);
        }
        6 => return replace_nth_number(text, at, "99999999999"),
        7 => return replace_nth_number(text, at, "18446744073709551616"),
        8 => return replace_nth_number(text, at, "-1"),
        9 => {
            if i < out.len() {
                out[i] = '9';
            }
        }
        10 => {
            if i < out.len() {
                out[i] = ch;
            }
        }
        _ => out.insert(i, '\u{feff}'),
    }
    out.into_iter().collect()
}

/// `text` with one of its runs of digits (the `at`-th) replaced by `by`, or `by` appended
/// when it has none.
fn replace_nth_number(text: &str, at: &Index, by: &str) -> String {
    let mut runs = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (c.is_ascii_digit(), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                runs.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        runs.push((s, text.len()));
    }
    if runs.is_empty() {
        return format!("{text} {by}");
    }
    let (s, e) = runs[at.index(runs.len())];
    format!("{}{by}{}", &text[..s], &text[e..])
}

/// FEN-specific mutations of a valid FEN: ranks, files, fields.
fn mutate_fen(fen: &str, kind: u8, at: &Index, ch: char) -> String {
    let fields: Vec<&str> = fen.split(' ').collect();
    let ranks: Vec<&str> = fields[0].split('/').collect();
    let rest = fields[1..].join(" ");
    let r = at.index(ranks.len());
    let with_ranks = |ranks: Vec<String>| format!("{} {rest}", ranks.join("/"));
    let owned: Vec<String> = ranks.iter().map(|s| s.to_string()).collect();
    match kind % 14 {
        0 => {
            let mut v = owned;
            v.insert(r, "8".into());
            with_ranks(v)
        }
        1 => {
            let mut v = owned;
            v.remove(r);
            with_ranks(v)
        }
        2 => {
            let mut v = owned;
            v[r].push('p');
            with_ranks(v)
        }
        3 => {
            let mut v = owned;
            v[r] = v[r].replace(|c: char| c.is_ascii_digit(), "9");
            with_ranks(v)
        }
        4 => {
            let mut v = owned;
            v[r].insert(0, '0');
            with_ranks(v)
        }
        5 => {
            let mut v = owned;
            v[r].insert(0, ch);
            with_ranks(v)
        }
        6 => {
            let mut v = owned;
            v[r] = String::new();
            with_ranks(v)
        }
        7 => format!("{fen} extra"),
        8 => {
            let mut f: Vec<String> = fields.iter().map(|s| s.to_string()).collect();
            let k = at.index(f.len());
            f[k] = ch.to_string();
            f.join(" ")
        }
        9 => {
            let mut f: Vec<&str> = fields.clone();
            let k = at.index(f.len());
            f.remove(k);
            f.join(" ")
        }
        10 => {
            let mut f: Vec<&str> = fields.clone();
            let k = at.index(f.len());
            f.swap(k, (k + 1) % fields.len());
            f.join(" ")
        }
        11 => fen.replacen(['K', 'k'], "?", 1),
        12 => format!("{}[Qq] {rest}", fields[0]),
        _ => fen.replace('/', "/ "),
    }
}

/// A FEN read as a position must write back as FEN that reads as the same position, and
/// its moves must generate and play.
fn check_position(pos: &Position) {
    let again = Position::from_fen(&pos.fen()).unwrap_or_else(|e| panic!("{pos}: {e}"));
    assert_eq!(&again, pos);
    for rules in both_rules() {
        for m in pos.legal_moves(&rules) {
            let mut p = pos.clone();
            p.play(&m);
            let _ = p.fen();
        }
    }
}

fn try_fen(text: &str) {
    let fen = Position::from_fen(text);
    match &fen {
        Ok(pos) => check_position(pos),
        Err(e) => one_line(e.clone()),
    }
    // A line of an EPD or FEN list: what FEN reads, it reads the same way.
    match (Position::from_epd(text), fen) {
        (Ok(pos), Ok(f)) => assert_eq!(pos.fen(), f.fen(), "{text:?}"),
        (Ok(pos), Err(_)) => check_position(&pos),
        (Err(e), Ok(_)) => panic!("{text:?} reads as FEN, not as a line of an EPD list: {e}"),
        (Err(e), Err(_)) => one_line(e),
    }
}

fn try_fog_fen(text: &str) {
    match text.parse::<FogView>() {
        Ok(view) => {
            let again: FogView = view.to_string().parse().unwrap();
            assert_eq!(again, view);
            let _ = view.diagram(true);
            // A view read from text can be one no game reaches (no king, a pawn on the last
            // rank): `fow serve` reads views from the arena's messages, so moves must
            // still generate.
            for rules in both_rules() {
                let mut moves = Vec::new();
                view.legal_moves_into(&rules, &mut moves);
                let obs = Observation::from_views(view.clone(), Some(view.clone()), 3, &rules);
                assert_eq!(obs.legal_moves().len(), moves.len());
            }
        }
        Err(e) => one_line(e),
    }
}

/// Every move reader on one text in one position: a move read is legal, an error is a
/// line.
fn try_move(pos: &Position, text: &str) {
    for rules in both_rules() {
        let legal = pos.legal_moves(&rules);
        for r in [
            pos.parse_uci(text, &rules),
            pos.parse_san(text, &rules),
            pos.parse_move(text, &rules),
        ] {
            match r {
                Ok(m) => assert!(legal.contains(&m), "{text:?} read as {m} in {pos}"),
                Err(e) => one_line(e),
            }
        }
        let obs = Observation::new(pos, &rules, 0, None);
        match obs.parse_uci(text) {
            Ok(m) => assert!(obs.is_legal(&m)),
            Err(e) => one_line(e),
        }
    }
}

/// Reads a PGN text and replays every game it holds under both presets.
fn try_pgn(text: &str) {
    let lines = text.lines().count().max(1);
    for g in read_pgn_games(text) {
        match g {
            Ok(game) => {
                assert!(game.line >= 1 && game.line <= lines, "{game:?}");
                for rules in both_rules() {
                    match game.replay(&rules) {
                        Ok(r) => assert_eq!(r.positions.len(), r.moves.len() + 1),
                        Err(e) => one_line(e),
                    }
                }
                let _ = game.to_pgn();
            }
            Err(e) => {
                assert!(e.line >= 1 && e.line <= lines, "{e} for {text:?}");
                one_line(e);
            }
        }
    }
}

/// A valid PGN text: a random game, from the start or from a FEN, with tags.
fn valid_pgn(seed: u64, plies: u32, from_fen: bool) -> String {
    let rules = RuleSet::chesscom();
    let start = if from_fen {
        random_position(seed ^ 0x5eed, plies % 23)
    } else {
        Position::startpos()
    };
    let (moves, _) = playout_from(&start, seed, plies, &rules);
    let tags = vec![
        ("Event".to_string(), "fuzz \"quoted\" \\ event".to_string()),
        ("White".to_string(), "a".to_string()),
        ("Black".to_string(), "b".to_string()),
    ];
    let result = [None, Some(PgnResult::WhiteWins), Some(PgnResult::Draw)][seed as usize % 3];
    PgnGame::from_moves(tags, &start, &moves, &rules, result).to_pgn()
}

/// PGN-specific mutations: cut tags, open comments and variations, huge move numbers,
/// contradicting results, glued tokens.
fn mutate_pgn(pgn: &str, kind: u8, at: &Index, ch: char) -> String {
    let lines: Vec<&str> = pgn.lines().collect();
    let l = at.index(lines.len());
    let with_line = |new: String| {
        let mut v: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        v[l] = new;
        v.join("\n")
    };
    match kind % 12 {
        0 => with_line(lines[l].trim_end_matches(']').to_string()),
        1 => with_line(lines[l].replacen('"', "", 1)),
        2 => with_line(format!("{} {{open comment", lines[l])),
        3 => with_line(format!("{} (1. e4)", lines[l])),
        4 => with_line(format!("{} 0-1 1-0", lines[l])),
        5 => with_line(format!("99999999999999999999. {}", lines[l])),
        6 => with_line(lines[l].replace(' ', "")),
        7 => with_line(format!("[{ch} \"x\"]")),
        8 => format!("{pgn}\n{pgn}"),
        9 => with_line(format!("{} $99999999999999999999 ; {ch}", lines[l])),
        10 => pgn.replace("FEN \"", &format!("FEN \"{ch}")),
        _ => with_line(format!("%{ch}")),
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn fen_survives_arbitrary_strings(text in any::<String>()) {
        try_fen(&text);
        try_fog_fen(&text);
    }

    #[test]
    fn fen_survives_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..120)) {
        let text = String::from_utf8_lossy(&bytes);
        try_fen(&text);
        try_fog_fen(&text);
    }

    #[test]
    fn fen_survives_fen_like_strings(text in "[rnbqkpRNBQKP1-9/?]{0,70}( [wb-]{0,2}( [KQkq-]{0,5}( [a-h1-8-]{0,3}( [0-9]{0,12}( [0-9]{0,12})?)?)?)?)?") {
        try_fen(&text);
        try_fog_fen(&text);
    }

    #[test]
    fn fen_survives_near_misses(
        seed in any::<u64>(),
        plies in 0u32..80,
        fen_kind in any::<bool>(),
        kind in any::<u8>(),
        at in any::<Index>(),
        ch in any::<char>(),
    ) {
        let pos = random_position(seed, plies);
        let fen = pos.fen();
        try_fen(&fen);
        let bad = if fen_kind {
            mutate_fen(&fen, kind, &at, ch)
        } else {
            mutate_text(&fen, kind, &at, ch)
        };
        try_fen(&bad);
    }

    #[test]
    fn fen_survives_boards_of_random_squares(
        squares in proptest::collection::vec(proptest::sample::select(&SQUARE_CHARS[..]), 64),
        side in "[wb]",
        castling in "(-|K?Q?k?q?)",
        ep in "(-|[a-h][36])",
    ) {
        // Every square drawn at random: kings missing or doubled, pawns on the last rank,
        // fog anywhere. Positions get refused with a reason; views must still generate.
        let board = squares
            .chunks(8)
            .map(|r| r.iter().collect::<String>())
            .collect::<Vec<_>>()
            .join("/");
        let castling = if castling.is_empty() { "-".to_string() } else { castling };
        try_fen(&format!("{} {side} {castling} {ep} 0 1", board.replace('?', "1")));
        let own = if side == "w" { castling.to_uppercase() } else { castling.to_lowercase() };
        let own = if own.is_empty() { "-".to_string() } else { own };
        try_fog_fen(&format!("{board} {side} {own} {ep}"));
    }

    #[test]
    fn fog_fen_survives_near_misses(
        seed in any::<u64>(),
        plies in 0u32..80,
        fen_kind in any::<bool>(),
        kind in any::<u8>(),
        at in any::<Index>(),
        ch in any::<char>(),
    ) {
        let pos = random_position(seed, plies);
        let view = FogView::of(&pos, pos.turn(), &RuleSet::chesscom()).to_string();
        try_fog_fen(&view);
        let bad = if fen_kind {
            mutate_fen(&view, kind, &at, ch)
        } else {
            mutate_text(&view, kind, &at, ch)
        };
        try_fog_fen(&bad);
    }

    #[test]
    fn moves_survive_arbitrary_strings(seed in any::<u64>(), plies in 0u32..60, text in any::<String>()) {
        try_move(&random_position(seed, plies), &text);
    }

    #[test]
    fn moves_survive_move_like_strings(
        seed in any::<u64>(),
        plies in 0u32..60,
        text in "[NBRQKPO0a-i0-9x:=+#!?-]{0,9}",
    ) {
        try_move(&random_position(seed, plies), &text);
    }

    #[test]
    fn moves_survive_near_misses(
        seed in any::<u64>(),
        plies in 0u32..60,
        san in any::<bool>(),
        which in any::<Index>(),
        kind in any::<u8>(),
        at in any::<Index>(),
        ch in any::<char>(),
    ) {
        let pos = random_position(seed, plies);
        let rules = RuleSet::chesscom();
        let legal = pos.legal_moves(&rules);
        if legal.is_empty() {
            return Ok(());
        }
        let m = legal[which.index(legal.len())];
        let text = if san { pos.san(&m, &rules) } else { m.uci() };
        prop_assert_eq!(pos.parse_move(&text, &rules), Ok(m));
        try_move(&pos, &mutate_text(&text, kind, &at, ch));
    }

    #[test]
    fn pgn_survives_arbitrary_strings(text in any::<String>()) {
        try_pgn(&text);
    }

    #[test]
    fn pgn_survives_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        try_pgn(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn pgn_survives_pgn_like_strings(
        text in r#"(\[[A-Za-z]{0,5} ?"[^"\n]{0,12}"?\]?\n){0,3}\n?([0-9]{0,3}\.{0,3} ?[NBRQKa-h1-8xO0=+#-]{0,6} ?[{}();$%*]? ?){0,12}(1-0|0-1|1/2-1/2|\*)?"#,
    ) {
        try_pgn(&text);
    }

    #[test]
    fn pgn_survives_near_misses(
        seed in any::<u64>(),
        plies in 0u32..40,
        from_fen in any::<bool>(),
        pgn_kind in any::<bool>(),
        kind in any::<u8>(),
        at in any::<Index>(),
        ch in any::<char>(),
    ) {
        let pgn = valid_pgn(seed, plies, from_fen);
        let games = read_pgn_games(&pgn);
        prop_assert_eq!(games.len(), 1);
        let game = games[0].as_ref().unwrap();
        prop_assert!(game.replay(&RuleSet::chesscom()).is_ok(), "{}", pgn);
        let bad = if pgn_kind {
            mutate_pgn(&pgn, kind, &at, ch)
        } else {
            mutate_text(&pgn, kind, &at, ch)
        };
        try_pgn(&bad);
    }

    #[test]
    fn rule_texts_survive_arbitrary_strings(text in any::<String>()) {
        if let Err(e) = text.parse::<RuleSet>() {
            one_line(e);
        }
    }

    #[test]
    fn rule_texts_survive_near_misses(kind in any::<u8>(), at in any::<Index>(), ch in any::<char>()) {
        let valid = RuleSet::chesscom().switches();
        match mutate_text(&valid, kind, &at, ch).parse::<RuleSet>() {
            Ok(r) => prop_assert_eq!(r.to_string().parse::<RuleSet>().unwrap(), r),
            Err(e) => one_line(e),
        }
    }
}

/// The errors of one mutation each say what is wrong in chess words.
#[test]
fn fen_errors_say_what_is_wrong() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let cases = [
        // A ninth rank: was "invalid pocket in fen", or "white has 0 kings".
        (
            "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "a board has 8 ranks separated by '/', this one has 9",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1",
            "a board has 8 ranks separated by '/', this one has 9",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "a board has 8 ranks separated by '/', this one has 7",
        ),
        // A ninth file: was "invalid board part in fen".
        (
            "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rank 7 ('ppppppppp') has 9 squares; a rank has 8",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/44/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
            "rank 1 ('RNBQKBN') has 7 squares; a rank has 8",
        ),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "'9' in rank 6 is no count of empty squares (those are 1 to 8)",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
            "'X' in rank 1 is not a piece letter",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN? w KQkq - 0 1",
            "'?' (fog) in rank 1: a true position has no fog",
        ),
        // A huge half-move clock: was silently clamped to 4294967295.
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99999999999 1",
            "the half-move clock 99999999999 is too large (at most 4294967295)",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 99999999999",
            "the move number 99999999999 is too large",
        ),
        // Move number 0: was silently made 1.
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
            "the move number is 0; moves are numbered from 1",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
            "the half-move clock is a whole number, not '-1'",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "the side to move is w or b, not 'x'",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqK - 0 1",
            "the castling field 'KQkqK' names 'K' twice",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
            "the en passant field is '-' or a square such as e3, not 'e9'",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 +3+3",
            "unexpected 7th field '+3+3'",
        ),
        // Crazyhouse pockets and promoted pieces are not fog-of-war chess.
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qq] w KQkq - 0 1",
            "'[' in rank 1 is not a piece letter",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/Qq w KQkq - 0 1",
            "a board has 8 ranks separated by '/', this one has 9",
        ),
        // A NUL or newline in the text is shown escaped, never raw.
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN\0 w KQkq - 0 1",
            "'\\u{0}' in rank 1 is not a piece letter",
        ),
    ];
    assert!(Position::from_fen(start).is_ok());
    for (fen, needle) in cases {
        let e = Position::from_fen(fen).unwrap_err().to_string();
        assert!(e.contains(needle), "{fen:?}: {e}");
        assert!(e.starts_with("malformed FEN '"), "{e}");
        one_line(&e);
    }
    // Pieces that are all there but not playable are still "invalid position".
    let e = Position::from_fen("8/8/8/8/8/8/8/K7 w - - 0 1").unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid position: black has 0 kings, needs exactly 1"
    );
    // Fields may be left out from the end; the largest clock still reads and plays on.
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b - - 4294967295 4294967295").unwrap();
    assert_eq!(pos.halfmoves(), u32::MAX);
    let mut p = pos.clone();
    let m = p.legal_moves(&RuleSet::thesis())[0];
    p.play(&m);
    assert_eq!((p.halfmoves(), p.fullmoves()), (u32::MAX, u32::MAX));
    assert_eq!(
        Position::from_fen("4k3/8/8/8/8/8/8/4K3").unwrap().fen(),
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    );
}

#[test]
fn rule_texts_read_back_as_written() {
    // `draw-plies=00` was a draw after 0 plies, written back as `draw-plies=0` (off).
    let r: RuleSet = "chesscom,draw-plies=00".parse().unwrap();
    assert_eq!(r.draw_plies, None);
    assert_eq!(r.to_string().parse::<RuleSet>().unwrap(), r);
    let r: RuleSet = "chesscom,repetition=000".parse().unwrap();
    assert_eq!(r.repetition, None);
    assert_eq!(r.to_string().parse::<RuleSet>().unwrap(), r);
}

#[test]
fn fog_fen_errors_say_what_is_wrong() {
    for (text, needle) in [
        (
            "????????/????????/????????/????????/8/8/PPPPPPPP/RNBQKBNR/8 w KQ -",
            "a board has 8 ranks separated by '/', this one has 9",
        ),
        (
            "?????????/????????/????????/????????/8/8/PPPPPPPP/RNBQKBNR w KQ -",
            "rank 8 ('?????????') has 9 squares; a rank has 8",
        ),
        (
            "????????/????????/????????/????????/8/8/PPPPPPPP/RNBQKBNR w kq -",
            "the castling field 'kq' names Black's rights in White's view",
        ),
        (
            "????????/????????/????????/????????/8/8/PPPPPPPP/RNBQKBNR",
            "the side (w or b) is missing after the board",
        ),
        (
            "????????/????????/????????/????????/8/8/PPPPPPPP/RNBQKBNR w KQ - 0",
            "unexpected 5th field '0'",
        ),
    ] {
        let e = text.parse::<FogView>().unwrap_err().to_string();
        assert!(e.contains(needle), "{text}: {e}");
        one_line(&e);
    }
}

#[test]
fn move_and_pgn_errors_show_control_characters_escaped() {
    let pos = Position::startpos();
    let e = pos.parse_move("e2\ne4", &RuleSet::thesis()).unwrap_err();
    assert_eq!(e.to_string(), "cannot read move 'e2\\u{a}e4'");
    let long = "x".repeat(1000);
    let e = pos.parse_move(&long, &RuleSet::thesis()).unwrap_err();
    assert!(e.to_string().len() < 120, "{e}");
    let games = read_pgn_games("[White \"a\"]\n\n1. e4\0 e5 *\n");
    let e = games[0].as_ref().unwrap_err();
    assert_eq!(e.to_string(), "line 3: cannot read move 'e4\\u{0}'");
    // A UTF-8 byte-order mark (as Windows editors write) is not part of the text.
    let games = read_pgn_games("\u{feff}[White \"a\"]\n\n1. e4 e5 *\n");
    assert_eq!(games[0].as_ref().unwrap().tag("White"), Some("a"));
    // A move after the end says how the game ended, in words.
    let games = read_pgn_games("1. e2e4 f7f6 2. Qd1h5 a7a6 3. Qh5e8 a6a5 *");
    let e = games[0]
        .as_ref()
        .unwrap()
        .replay(&RuleSet::chesscom())
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 1: move 3... a6a5: the game already ended by the rules (White captured the king)"
    );
    // A FEN tag with move number 4294967295 numbers the moves after it without overflow.
    let g =
        &read_pgn_games("[FEN \"4k3/8/8/8/8/8/8/4K3 b - - 0 4294967295\"]\n\n1... Kd8 Kd1 Ke8 *")
            [0];
    let g = g.as_ref().unwrap();
    assert_eq!(g.replay(&RuleSet::thesis()).unwrap().moves.len(), 3);
    assert!(
        g.to_pgn().contains("4294967295... Kd8 4294967296. Kd1"),
        "{}",
        g.to_pgn()
    );
}
