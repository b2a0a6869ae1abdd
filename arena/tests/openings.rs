//! Start positions (`--openings`): read from EPD/FEN lists and PGN games, refused by file
//! and line when they cannot start a game under the rules, handed out by round so that
//! each opening is played with both colours, recorded per game in `games.csv` and
//! checked when the games are read back.

use std::fs;
use std::path::{Path, PathBuf};

use fow_arena::Run;
use fow_records::RecordError;
use fow_records::{read_games, OpeningOrder, Openings, TournamentConfig, GAMES_FILE};
use fow_variants::{Position, RuleSet};

const KINGS_AND_PAWN: &str = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
const BLACK_TO_MOVE: &str = "r3k2r/ppp2ppp/2n5/3pp3/8/2N2N2/PPPP1PPP/R1B1K2R b KQkq - 0 7";

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    fs::write(&p, text).unwrap();
    p
}

/// The file, line and message of a format error.
fn format_error(e: RecordError) -> (PathBuf, u64, String) {
    match e {
        RecordError::Format {
            path,
            line,
            message,
        } => (path, line, message),
        other => panic!("not a format error: {other}"),
    }
}

fn read(path: &Path, rules: RuleSet, plies: Option<u32>) -> Result<Openings, RecordError> {
    Openings::read(path, &rules, plies, OpeningOrder::Sequential).map(|(o, _)| o)
}

#[test]
fn an_epd_list_reads_fen_and_epd_lines_and_skips_comments() {
    let tmp = tempfile::tempdir().unwrap();
    let path = write(
        tmp.path(),
        "book.epd",
        &format!(
            "# a comment\n\n{KINGS_AND_PAWN}\n{} bm O-O; id \"test; one\"; hmvc 4; fmvn 9;\n",
            &BLACK_TO_MOVE[..BLACK_TO_MOVE.len() - 4]
        ),
    );
    let o = read(&path, RuleSet::chesscom(), None).unwrap();
    assert_eq!(
        o.positions,
        [
            KINGS_AND_PAWN.to_string(),
            "r3k2r/ppp2ppp/2n5/3pp3/8/2N2N2/PPPP1PPP/R1B1K2R b KQkq - 4 9".to_string()
        ]
    );
    assert_eq!(o.plies, None);
    assert_eq!(o.source, path.display().to_string());
}

#[test]
fn a_position_that_cannot_start_a_game_is_refused_by_file_and_line() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = [
        // The side to move can capture the king.
        ("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", "can capture the king"),
        // Two white kings.
        ("4k3/8/8/8/8/8/4P3/3KK3 w - - 0 1", "kings"),
        // Nine squares on a rank.
        ("4k3/8/8/8/8/8/4P3/4K4 w - - 0 1", "9 squares"),
        // The no-progress draw has come under chesscom rules (100 plies).
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 100 70", "already drawn"),
    ];
    for (fen, why) in cases {
        let path = write(
            tmp.path(),
            "bad.epd",
            &format!("{KINGS_AND_PAWN}\n# fine so far\n{fen}\n"),
        );
        let e = read(&path, RuleSet::chesscom(), None).unwrap_err();
        let (p, line, message) = format_error(e);
        assert_eq!((p, line), (path.clone(), 3), "{fen}: {message}");
        assert!(message.contains(why), "{fen}: {message}");
    }
    // Under thesis rules (200 plies) the clock of 100 is fine.
    let path = write(tmp.path(), "ok.epd", "4k3/8/8/8/8/8/4P3/4K3 w - - 100 70\n");
    assert_eq!(
        read(&path, RuleSet::thesis(), None)
            .unwrap()
            .positions
            .len(),
        1
    );
    // Nothing to play, and --opening-plies with a FEN list.
    let empty = write(tmp.path(), "empty.epd", "# nothing\n\n");
    let e = read(&empty, RuleSet::thesis(), None).unwrap_err();
    assert!(e.to_string().contains("holds no start position"), "{e}");
    let e = read(&path, RuleSet::thesis(), Some(4)).unwrap_err();
    assert!(e.to_string().contains("is for PGN openings"), "{e}");
}

#[test]
fn pgn_games_give_the_position_after_their_first_plies() {
    let tmp = tempfile::tempdir().unwrap();
    let pgn = "[Event \"a\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n\n\
               [Event \"short\"]\n[Result \"*\"]\n\n1. d4 *\n\n\
               [Event \"b\"]\n[Result \"*\"]\n\n1. d4 d5 2. c4 e6 *\n";
    let path = write(tmp.path(), "games.pgn", pgn);
    let (o, report) =
        Openings::read(&path, &RuleSet::thesis(), Some(3), OpeningOrder::Random).unwrap();
    assert_eq!(
        o.positions,
        [
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
            // fow writes the en passant square after every double push.
            "rnbqkbnr/ppp1pppp/8/3p4/2PP4/8/PP2PPPP/RNBQKBNR b KQkq c3 0 2",
        ]
    );
    assert_eq!(o.plies, Some(3));
    assert_eq!(o.order, OpeningOrder::Random);
    assert_eq!(report.skipped, 1);
    assert!(
        report
            .first_skipped
            .as_deref()
            .unwrap()
            .ends_with("line 6: the game has 1 plies"),
        "{report:?}"
    );
    // An en passant capture within the plies: legal under chesscom, refused under
    // thesis rules (no en passant) by the file and the line of the move.
    let ep = write(
        tmp.path(),
        "ep.pgn",
        "[Event \"ep\"]\n\n1. e4 a6\n2. e5 d5\n3. exd6 *\n",
    );
    assert_eq!(
        read(&ep, RuleSet::chesscom(), Some(5))
            .unwrap()
            .positions
            .len(),
        1
    );
    let (p, line, message) = format_error(read(&ep, RuleSet::thesis(), Some(5)).unwrap_err());
    assert_eq!((p, line), (ep.clone(), 5), "{message}");
    assert!(
        message.contains("exd6") && message.contains("thesis"),
        "{message}"
    );
    // A game that ends (the king is captured) within the plies is left out.
    let mate = write(
        tmp.path(),
        "fool.pgn",
        "[Event \"x\"]\n\n1. f3 e5 2. g4 Qh4 3. a3 Qxe1 *\n",
    );
    let e = read(&mate, RuleSet::thesis(), Some(6)).unwrap_err();
    assert!(e.to_string().contains("holds no start position"), "{e}");
    assert!(e.to_string().contains("king captured"), "{e}");
}

#[test]
fn the_chesscom_games_give_eighty_openings() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/chesscom-fow");
    let (o, report) = Openings::read(
        &data,
        &RuleSet::chesscom(),
        Some(8),
        OpeningOrder::Sequential,
    )
    .unwrap();
    assert_eq!(o.positions.len(), 80);
    assert_eq!(report.skipped, 0);
    assert!(report.distinct > 40, "{report:?}");
    // White to move after eight plies, move 5.
    assert!(o
        .positions
        .iter()
        .all(|f| f.contains(" w ") && f.ends_with(" 5")));
}

fn config(players: &[&str], games: u32, openings: Openings) -> TournamentConfig {
    let mut c = TournamentConfig::new(
        players.iter().map(|p| p.to_string()).collect(),
        games,
        RuleSet::chesscom(),
        Some(5),
        None,
    )
    .unwrap();
    c.openings = Some(openings);
    c
}

fn openings(positions: &[&str], order: OpeningOrder) -> Openings {
    Openings {
        source: "test".into(),
        plies: None,
        order,
        positions: positions.iter().map(|p| p.to_string()).collect(),
    }
}

#[test]
fn every_game_of_a_round_starts_from_its_opening_with_both_colours() {
    let book = openings(
        &[KINGS_AND_PAWN, BLACK_TO_MOVE, &Position::startpos().fen()],
        OpeningOrder::Sequential,
    );
    let c = config(&["RandomMove", "CaptureLargest", "Greedy"], 4, book.clone());
    let s = c.pairings();
    assert_eq!(s.len(), 3 * 2 * 4);
    for p in &s {
        assert_eq!(p.opening, Some(p.round as usize % 3), "{p:?}");
    }
    // A paired match: both games of a pair share the opening.
    let mut m = config(&["RandomMove", "CaptureLargest"], 5, book.clone());
    m.gauntlet = true;
    m.paired = true;
    for pair in m.pairings().chunks(2) {
        assert_eq!(pair[0].opening, pair[1].opening);
    }
    // Random order: a permutation drawn from the seed, the same for every meeting of a
    // round; another seed, another order.
    let mut r = config(
        &["RandomMove", "CaptureLargest"],
        40,
        openings(&[KINGS_AND_PAWN; 1].repeat(20), OpeningOrder::Random),
    );
    let first: Vec<_> = r.pairings().iter().map(|p| p.opening.unwrap()).collect();
    let mut in_rounds: Vec<usize> = first.iter().step_by(2).copied().take(20).collect();
    assert_ne!(in_rounds, (0..20).collect::<Vec<_>>());
    in_rounds.sort();
    assert_eq!(in_rounds, (0..20).collect::<Vec<_>>());
    r.seed = Some(6);
    let second: Vec<_> = r.pairings().iter().map(|p| p.opening.unwrap()).collect();
    assert_ne!(first, second);
}

#[test]
fn games_start_from_their_openings_resume_exactly_and_read_back_checked() {
    let tmp = tempfile::tempdir().unwrap();
    let book = openings(&[KINGS_AND_PAWN, BLACK_TO_MOVE], OpeningOrder::Random);
    let c = config(&["RandomMove", "CaptureLargest"], 4, book.clone())
        .validated()
        .unwrap();
    let dir = tmp.path().join("t");
    let rep = Run::begin(c.clone(), Some(&dir), "")
        .unwrap()
        .play(2, None, &|_, _, _| {}, None)
        .unwrap();
    let schedule = c.pairings();
    for g in &rep.games {
        let p = schedule[g.id as usize];
        assert_eq!(g.start, book.positions[p.opening.unwrap()]);
        // The moves replay from the start.
        let start = Position::from_fen(&g.start).unwrap();
        let first = g.moves.split_whitespace().next().unwrap();
        assert!(start.parse_uci(first, &c.rules).is_ok(), "{g:?}");
    }
    let games = dir.join(GAMES_FILE);
    let text = fs::read_to_string(&games).unwrap();
    assert!(
        text.starts_with("id,round,white,black,seed,result,reason,plies,detail,moves,start,tag\n")
    );
    assert_eq!(read_games(&games).unwrap(), rep.games);
    // Killed after three games and a half: resumed, the same bytes.
    let cut = tmp.path().join("cut");
    fs::create_dir(&cut).unwrap();
    fs::copy(dir.join("tournament.json"), cut.join("tournament.json")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    fs::write(
        cut.join(GAMES_FILE),
        format!("{}\n{}", lines[..4].join("\n"), &lines[4][..30]),
    )
    .unwrap();
    Run::open(&cut)
        .unwrap()
        .play(1, None, &|_, _, _| {}, None)
        .unwrap();
    assert_eq!(fs::read_to_string(cut.join(GAMES_FILE)).unwrap(), text);
    // A game whose start was edited: the error names the line.
    // The column start, before the tag.
    let start = lines[2].rsplit(',').nth(1).unwrap();
    let other = if start == KINGS_AND_PAWN {
        BLACK_TO_MOVE
    } else {
        KINGS_AND_PAWN
    };
    let edited = text.replacen(lines[2], &lines[2].replace(start, other), 1);
    fs::write(&games, edited).unwrap();
    let (p, line, message) = format_error(read_games(&games).unwrap_err());
    assert_eq!((p, line), (games.clone(), 3), "{message}");
    // Its moves do not fit the other start, or the start not the schedule.
    assert!(
        message.contains(&format!("from the start '{other}'"))
            || message.contains("(its opening), not from"),
        "{message}"
    );
}

#[test]
fn without_openings_games_csv_keeps_its_header_and_has_no_start() {
    let tmp = tempfile::tempdir().unwrap();
    let c = TournamentConfig::new(
        vec!["RandomMove".into(), "CaptureLargest".into()],
        1,
        RuleSet::thesis(),
        Some(1),
        None,
    )
    .unwrap();
    let dir = tmp.path().join("t");
    let rep = Run::begin(c, Some(&dir), "")
        .unwrap()
        .play(1, None, &|_, _, _| {}, None)
        .unwrap();
    assert!(rep.games.iter().all(|g| g.start.is_empty()));
    let text = fs::read_to_string(dir.join(GAMES_FILE)).unwrap();
    assert!(text.starts_with("id,round,white,black,seed,result,reason,plies,detail,moves,tag\n"));
    // A start column with a start in a folder without openings does not fit its schedule.
    let lines: Vec<&str> = text.lines().collect();
    let [h, a, b] = [0, 1, 2].map(|i| lines[i].rsplit_once(',').unwrap());
    let with_start = format!(
        "{},start,{}\n{},,{}\n{},{KINGS_AND_PAWN},{}\n",
        h.0, h.1, a.0, a.1, b.0, b.1
    );
    fs::write(dir.join(GAMES_FILE), with_start).unwrap();
    let (_, line, message) = format_error(read_games(&dir.join(GAMES_FILE)).unwrap_err());
    assert_eq!(line, 3, "{message}");
}

#[test]
fn a_stored_opening_that_cannot_start_a_game_is_refused_naming_tournament_json() {
    let tmp = tempfile::tempdir().unwrap();
    let c = config(
        &["RandomMove", "CaptureLargest"],
        1,
        openings(&[KINGS_AND_PAWN], OpeningOrder::Sequential),
    );
    let dir = tmp.path().join("t");
    Run::begin(c, Some(&dir), "")
        .unwrap()
        .play(1, None, &|_, _, _| {}, None)
        .unwrap();
    let cfg = dir.join("tournament.json");
    let text = fs::read_to_string(&cfg).unwrap();
    let line = text
        .lines()
        .position(|l| l.contains(KINGS_AND_PAWN))
        .unwrap() as u64
        + 1;
    fs::write(
        &cfg,
        text.replace(KINGS_AND_PAWN, "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1"),
    )
    .unwrap();
    let (p, l, message) = format_error(read_games(&dir.join(GAMES_FILE)).unwrap_err());
    assert_eq!((p, l), (cfg.clone(), line), "{message}");
    assert!(message.contains("opening 1"), "{message}");
    let Err(e) = Run::open(&dir) else {
        panic!("opened")
    };
    assert_eq!(format_error(e).1, line);
}
