//! The result-matrix reader (`fow rate FILE`) survives arbitrary input: arbitrary
//! strings and valid matrices with one mutation. Nothing may panic, and every rejection
//! is one non-empty line without control characters.

use fow_ratings::{format_match_matrix, parse_match_matrix};
use proptest::prelude::*;
use proptest::sample::Index;

fn one_line(e: impl std::fmt::Display) {
    let s = e.to_string();
    assert!(!s.trim().is_empty(), "empty error text");
    assert!(
        !s.chars().any(|c| c.is_control()),
        "control character: {s:?}"
    );
}

fn try_matrix(text: &str) {
    match parse_match_matrix(text, None) {
        Ok(m) => {
            let again = parse_match_matrix(&format_match_matrix(&m), None).unwrap();
            assert_eq!(again.names(), m.names());
        }
        Err(e) => one_line(e),
    }
}

const VALID: &str = "(---/---/---) ( 61/  2/ 37) (1/1/1)\n( 40/  0/ 60) (---/---/---) (0/0/9)\n(3/3/3) (2/2/2) (---/---/---)\n";

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn matrices_survive_arbitrary_strings(text in any::<String>()) {
        try_matrix(&text);
    }

    #[test]
    fn matrices_survive_matrix_like_strings(text in r"(\( ?[0-9-]{0,11} ?/ ?[0-9-]{0,3} ?/?[0-9-]{0,11}\)? ?){0,3}\n?(\([0-9/-]{0,12}\)? ?){0,3}") {
        try_matrix(&text);
    }

    #[test]
    fn matrices_survive_near_misses(at in any::<Index>(), ch in any::<char>(), kind in 0u8..5) {
        let mut v: Vec<char> = VALID.chars().collect();
        let i = at.index(v.len());
        match kind {
            0 => v.insert(i, ch),
            1 => { v.remove(i); }
            2 => v[i] = ch,
            3 => v.truncate(i),
            _ => v.insert(i, '\u{1}'),
        }
        try_matrix(&v.into_iter().collect::<String>());
        try_matrix(&VALID.replacen("61", "99999999999", 1));
        try_matrix(&VALID.replace("37", "4294967295").replace("60", "4294967295"));
    }
}

#[test]
fn a_control_character_in_a_cell_is_shown_escaped() {
    let e = parse_match_matrix("(---/---/---) (1/\u{1}/3)\n", None).unwrap_err();
    assert_eq!(e.to_string(), "line 1: cell 2: invalid number '\\u{1}'");
}
