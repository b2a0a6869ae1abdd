//! Reading saved games: whatever bytes a `games.csv` holds, reading it never panics, and
//! every refusal is one line naming the file and the line; `tournament --resume` leaves a
//! file it refuses as it was; and every game the arena plays passes the check.

use std::fs;
use std::path::Path;
use std::sync::OnceLock;

use proptest::prelude::*;

use fow_arena::{play_game, GameOptions, Run};
use fow_players::bots::RandomMove;
use fow_players::{Budget, GameStart, Player};
use fow_records::{
    check_row, load_games_lenient, read_games, GameResult, GameRow, Reason, TournamentConfig,
};
use fow_variants::{Move, Observation, RuleSet};

const HEADER: &str = "id,round,white,black,seed,result,reason,plies,detail,moves";

/// Asserts that `text` is one line `PATH:LINE: message`, LINE at least 1.
fn names_file_and_line(text: &str, path: &Path) {
    assert!(!text.contains(['\n', '\r']), "not one line: {text:?}");
    let rest = text
        .strip_prefix(&format!("{}:", path.display()))
        .unwrap_or_else(|| panic!("no file in {text:?}"));
    let (line, message) = rest
        .split_once(": ")
        .unwrap_or_else(|| panic!("no line in {text:?}"));
    let line: u64 = line
        .parse()
        .unwrap_or_else(|_| panic!("no line in {text:?}"));
    assert!(line >= 1 && !message.trim().is_empty(), "{text:?}");
}

/// A tournament.json for two players, one game per ordered pair.
fn config() -> TournamentConfig {
    TournamentConfig::new(
        vec!["RandomMove".into(), "CaptureKing".into()],
        1,
        RuleSet::thesis(),
        Some(7),
        None,
    )
    .unwrap()
}

/// Reads `bytes` as a games.csv every way fow reads one (alone, and beside a
/// tournament.json whose schedule the rows must fit) and checks that every refusal is one
/// line naming the file and line.
fn read_every_way(bytes: &[u8]) {
    for beside in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.csv");
        fs::write(&path, bytes).unwrap();
        if beside {
            let json = serde_json::to_string_pretty(&config()).unwrap();
            fs::write(dir.path().join("tournament.json"), json).unwrap();
        }
        if let Err(e) = read_games(&path) {
            names_file_and_line(&e.to_string(), &path);
        }
        match load_games_lenient(&path, &RuleSet::thesis()) {
            Ok((_, errors)) => errors.iter().for_each(|e| names_file_and_line(e, &path)),
            Err(e) => names_file_and_line(&e.to_string(), &path),
        }
    }
}

/// The moves of one real game, as UCI.
fn real_moves() -> &'static [String] {
    static MOVES: OnceLock<Vec<String>> = OnceLock::new();
    MOVES.get_or_init(|| {
        let (mut w, mut b) = (RandomMove::new(), RandomMove::new());
        let opts = GameOptions::new(RuleSet::thesis());
        let rec = play_game(&mut w, &mut b, "RandomMove", "CaptureKing", 3, &opts);
        rec.moves.iter().map(Move::uci).collect()
    })
}

/// Any text, control characters (newlines, NUL) included, which `any::<String>()` leaves
/// out.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        proptest::collection::vec(any::<char>(), 0..40).prop_map(String::from_iter),
        "[\\x00-\\x7f]{0,60}",
    ]
}

prop_compose! {
    /// A games.csv row that is often nearly right: the fields of a row, each from values
    /// that read and values that do not, the moves a prefix of a real game, sometimes
    /// with a move added.
    fn near_row()(
        id in prop_oneof![0u64..4, any::<u64>()],
        round in 0u32..3,
        white in prop_oneof![Just("RandomMove".to_string()), Just(String::new()), text()],
        black in prop_oneof![Just("CaptureKing".to_string()), Just(" ".to_string()), text()],
        seed in prop_oneof![Just(0u64), any::<u64>()],
        result in prop_oneof![
            Just("1-0".to_string()), Just("0-1".to_string()), Just("1/2-1/2".to_string()), text(),
        ],
        reason in prop_oneof![
            Just("king captured"), Just("no progress"), Just("repetition"),
            Just("no legal moves"), Just("illegal move"), Just("timeout"), Just("panic"),
            Just("crash"), Just("resignation"), Just("protocol error"),
        ].prop_map(String::from).boxed().prop_union(text().boxed()),
        cut in 0usize..200,
        plies_off in prop_oneof![Just(0i64), -2i64..3, Just(999)],
        detail in prop_oneof![Just(String::new()), text()],
        extra in prop_oneof![Just(None), "[a-h][1-8][a-h][1-8]q?".prop_map(Some), text().prop_map(Some)],
    ) -> GameRow {
        let all = real_moves();
        let mut moves: Vec<String> = all[..cut.min(all.len())].to_vec();
        moves.extend(extra);
        let plies = (moves.len() as i64 + plies_off).max(0) as usize;
        GameRow {
            id, round, white, black, seed,
            result,
            reason,
            plies,
            detail,
            moves: moves.join(" "),
            start: String::new(),
            tag: String::new(),
        }
    }
}

/// Rows written as fow writes them (quoted where needed).
fn csv_of(rows: &[GameRow]) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in rows {
        w.serialize(r).unwrap();
    }
    w.into_inner().unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_as_a_games_file(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        read_every_way(&bytes);
        // And after a valid header.
        let mut with_header = format!("{HEADER}\n").into_bytes();
        with_header.extend(&bytes);
        read_every_way(&with_header);
    }

    #[test]
    fn arbitrary_text_as_a_games_file(text in text()) {
        read_every_way(text.as_bytes());
    }

    #[test]
    fn arbitrary_text_as_a_row(row in text(), printable in "[ -~]{0,120}") {
        read_every_way(format!("{HEADER}\n{row}\n").as_bytes());
        read_every_way(format!("{HEADER}\n{printable}\n").as_bytes());
        read_every_way(format!("{HEADER}\n0,0,A,B,1,1-0,timeout,1,{printable}").as_bytes());
    }

    #[test]
    fn nearly_right_rows(rows in proptest::collection::vec(near_row(), 1..4)) {
        read_every_way(&csv_of(&rows));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// `--resume` refuses a file it cannot read with one line naming it, and leaves it
    /// byte for byte as it was; what it accepts it finishes.
    #[test]
    fn resume_never_replaces_what_it_cannot_read(
        bytes in prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..300),
            text().prop_map(|s| format!("{HEADER}\n{s}").into_bytes()),
            proptest::collection::vec(near_row(), 1..3).prop_map(|r| csv_of(&r)),
        ],
    ) {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("t");
        Run::begin(config(), Some(&dir), "").unwrap();
        let path = dir.join("games.csv");
        fs::write(&path, &bytes).unwrap();
        match Run::open(&dir).unwrap().play(1, None, &|_, _, _| {}, None) {
            Ok(rep) => prop_assert_eq!(rep.games.len(), 2),
            Err(e) => {
                names_file_and_line(&e.to_string(), &path);
                prop_assert_eq!(fs::read(&path).unwrap(), bytes);
            }
        }
    }
}

/// A player whose `start` panics.
struct PanicsInStart;

impl Player for PanicsInStart {
    fn start(&mut self, _: &GameStart) {
        panic!("no start");
    }
    fn choose(&mut self, _: &Observation, _: &Budget) -> Move {
        Move::NULL
    }
}

#[test]
fn every_game_the_arena_plays_passes_the_check() {
    // Endings by the rules under several rule sets, the draw rules made short so that
    // they happen.
    let mut short = RuleSet::chesscom();
    short.draw_plies = Some(16);
    short.repetition = Some(2);
    let mut reasons = std::collections::HashSet::new();
    for rules in [RuleSet::thesis(), RuleSet::chesscom(), short] {
        for seed in 0..150 {
            let (mut w, mut b) = (RandomMove::new(), RandomMove::new());
            let rec = play_game(&mut w, &mut b, "w", "b", seed, &GameOptions::new(rules));
            reasons.insert(rec.reason);
            let row = GameRow::new(seed, 0, &rec);
            check_row(&row, &rules).unwrap_or_else(|e| panic!("{e}: {row:?}"));
            // The same game with the other result is refused.
            let mut other = row.clone();
            other.result = match rec.result {
                GameResult::WhiteWins => "0-1".into(),
                _ => "1-0".into(),
            };
            assert!(check_row(&other, &rules).is_err(), "{other:?}");
        }
    }
    for r in [Reason::KingCaptured, Reason::NoProgress, Reason::Repetition] {
        assert!(reasons.contains(&r), "no game ended by {r}");
    }
    // A panic in `start`, White's or Black's: no move, the other side wins.
    let opts = GameOptions::new(RuleSet::thesis());
    for white_panics in [true, false] {
        let (mut bad, mut good) = (PanicsInStart, RandomMove::new());
        let rec = if white_panics {
            play_game(&mut bad, &mut good, "bad", "good", 1, &opts)
        } else {
            play_game(&mut good, &mut bad, "good", "bad", 1, &opts)
        };
        assert_eq!((rec.reason, rec.plies()), (Reason::Panic, 0));
        let row = GameRow::new(0, 0, &rec);
        check_row(&row, &RuleSet::thesis()).unwrap_or_else(|e| panic!("{e}: {row:?}"));
        let mut other = row.clone();
        other.result = if white_panics { "1-0" } else { "0-1" }.into();
        assert!(check_row(&other, &RuleSet::thesis()).is_err());
    }
}
