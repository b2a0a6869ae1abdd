//! Replays the 80 real chess.com Fog of War games under the `chesscom` rules.

use std::path::PathBuf;

use fow_variants::shakmaty::{Bitboard, Color, Square};
use fow_variants::{read_pgn, Game, GameEnd, MoveKind, PgnGame, PgnResult, Position, RuleSet};

/// One game file, read with the library's PGN reader.
struct NamedGame {
    name: String,
    termination: String,
    result: String,
    moves: Vec<String>,
    pgn: PgnGame,
}

fn load_games() -> Vec<NamedGame> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data/chesscom-fow");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("data/chesscom-fow exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            let mut games = read_pgn(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            assert_eq!(games.len(), 1, "{}: one game per file", p.display());
            let pgn = games.pop().unwrap();
            let tag = |name: &str| pgn.tag(name).unwrap_or_default().to_string();
            NamedGame {
                name: p.file_stem().unwrap().to_string_lossy().into_owned(),
                termination: tag("Termination"),
                result: tag("Result"),
                moves: pgn.moves.clone(),
                pgn,
            }
        })
        .collect()
}

/// Squares attacked by `by` on a board.
fn attacked(pos: &Position, sq: Square, by: Color) -> bool {
    pos.board().attacks_to(sq, by, pos.board().occupied()).any()
}

#[test]
fn every_chesscom_game_replays_with_the_right_ending() {
    let games = load_games();
    assert_eq!(games.len(), 80);
    let rules = RuleSet::chesscom();
    let mut king_captures = 0;
    let mut en_passant = 0;
    let mut attacked_castles = Vec::new();
    for g in &games {
        // The reader's result and replay agree with the tags and the move-by-move replay.
        let expected_result = match g.result.as_str() {
            "1-0" => Some(PgnResult::WhiteWins),
            "0-1" => Some(PgnResult::BlackWins),
            "1/2-1/2" => Some(PgnResult::Draw),
            _ => None,
        };
        assert_eq!(g.pgn.result, expected_result, "{}", g.name);
        let replay = g
            .pgn
            .replay(&rules)
            .unwrap_or_else(|e| panic!("{}: {e}", g.name));
        assert_eq!(replay.moves.len(), g.moves.len(), "{}", g.name);
        assert_eq!(
            replay.outcome.is_some(),
            g.termination.starts_with("King captured"),
            "{}",
            g.name
        );
        let mut game = Game::new(Position::startpos(), rules);
        let n = g.moves.len();
        for (i, text) in g.moves.iter().enumerate() {
            let m = game.position().parse_uci(text, &rules).unwrap_or_else(|e| {
                panic!(
                    "{}: move {} '{text}': {e} in {}",
                    g.name,
                    i + 1,
                    game.position()
                )
            });
            if m.kind == MoveKind::EnPassant {
                en_passant += 1;
            }
            if m.kind == MoveKind::Castle {
                let pos = game.position();
                let them = !pos.turn();
                let path = Bitboard::from(m.from)
                    | Bitboard::from(m.to)
                    | Bitboard::from(Square::from_coords(
                        if m.to > m.from {
                            fow_variants::shakmaty::File::F
                        } else {
                            fow_variants::shakmaty::File::D
                        },
                        m.from.rank(),
                    ));
                if path.into_iter().any(|sq| attacked(pos, sq, them)) {
                    attacked_castles.push(g.name.clone());
                }
            }
            let outcome = game.play(&m);
            if i + 1 < n {
                assert_eq!(
                    outcome,
                    None,
                    "{}: game ended early at move {}",
                    g.name,
                    i + 1
                );
            } else if g.termination.starts_with("King captured") {
                let o = outcome.unwrap_or_else(|| panic!("{}: last move did not end it", g.name));
                assert_eq!(o.end, GameEnd::KingCaptured, "{}", g.name);
                let expected = if g.result == "1-0" {
                    Color::White
                } else {
                    Color::Black
                };
                assert_eq!(o.winner, Some(expected), "{}", g.name);
                king_captures += 1;
            } else {
                assert_eq!(outcome, None, "{}: ended by our rules, not theirs", g.name);
            }
        }
    }
    // The data README says 60, but 63 games carry the "King captured" tag and every one
    // of them does end with the king's capture on its last move.
    let tagged = games
        .iter()
        .filter(|g| g.termination.starts_with("King captured"))
        .count();
    assert_eq!(tagged, 63);
    assert_eq!(king_captures, tagged);
    assert_eq!(en_passant, 5, "the README counts 5 en passant captures");
    attacked_castles.sort();
    attacked_castles.dedup();
    assert_eq!(attacked_castles, ["game-040", "game-071", "game-073"]);
}
