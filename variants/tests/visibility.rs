//! What a side sees, square by square.

use fow_variants::shakmaty::{Color, Square};
use fow_variants::{FogView, MoveKind, Observation, Position, RuleSet};

fn view(fen: &str, color: Color, rules: RuleSet) -> FogView {
    FogView::of(&Position::from_fen(fen).unwrap(), color, &rules)
}

#[test]
fn blocked_pawn_does_not_see_the_square_in_front() {
    let v = view(
        "7k/8/8/4p3/4P3/8/8/K7 w - - 0 1",
        Color::White,
        RuleSet::thesis(),
    );
    assert!(!v.visible().contains(Square::E5));
    assert!(v.piece_at(Square::E5).is_none());
    // Unblocked, it sees one (and from its start square two) squares ahead.
    let v = view(
        "7k/8/8/8/8/8/4P3/K7 w - - 0 1",
        Color::White,
        RuleSet::thesis(),
    );
    assert!(v.visible().contains(Square::E3) && v.visible().contains(Square::E4));
    assert!(!v.visible().contains(Square::E5));
}

#[test]
fn pawn_diagonals_visible_only_when_a_capture_is_possible() {
    let v = view(
        "7k/8/8/3p4/4P3/8/8/K7 w - - 0 1",
        Color::White,
        RuleSet::thesis(),
    );
    assert!(v.visible().contains(Square::D5));
    assert_eq!(v.piece_at(Square::D5).map(|p| p.color), Some(Color::Black));
    assert!(!v.visible().contains(Square::F5), "empty diagonal is fog");
}

#[test]
fn en_passant_victim_is_visible_under_chesscom_only() {
    let fen = "7k/8/8/3pP3/8/8/8/K7 w - d6 0 1";
    let v = view(fen, Color::White, RuleSet::chesscom());
    assert!(v.visible().contains(Square::D6) && v.visible().contains(Square::D5));
    assert_eq!(v.ep_square(), Some(Square::D6));
    let v = view(fen, Color::White, RuleSet::thesis());
    assert!(!v.visible().contains(Square::D6) && !v.visible().contains(Square::D5));
    assert_eq!(v.ep_square(), None);
}

#[test]
fn slider_sees_up_to_and_including_the_first_blocker() {
    let v = view(
        "7k/8/8/r7/8/8/8/R6K w - - 0 1",
        Color::White,
        RuleSet::thesis(),
    );
    for sq in [Square::A2, Square::A3, Square::A4, Square::A5] {
        assert!(v.visible().contains(sq), "{sq}");
    }
    assert!(!v.visible().contains(Square::A6));
    assert!(
        v.visible().contains(Square::G1),
        "own king blocks the rank and is seen"
    );
    let v = view(
        "7k/8/8/8/8/8/8/R1N4K w - - 0 1",
        Color::White,
        RuleSet::thesis(),
    );
    assert!(v.visible().contains(Square::B1));
    assert!(!v.visible().contains(Square::D1) || v.visible().contains(Square::C1));
}

#[test]
fn castling_shows_the_kings_destination() {
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
    for rules in [RuleSet::thesis(), RuleSet::chesscom()] {
        let obs = Observation::new(&pos, &rules, 0, None);
        let castles: Vec<_> = obs
            .legal_moves()
            .iter()
            .filter(|m| m.kind == MoveKind::Castle)
            .map(|m| m.to)
            .collect();
        assert_eq!(castles, [Square::G1, Square::C1]);
        assert!(obs.view().visible().contains(Square::G1));
        assert!(obs.view().visible().contains(Square::C1));
    }
}

#[test]
fn start_position_has_20_moves_for_both_sides() {
    for rules in [RuleSet::thesis(), RuleSet::chesscom()] {
        let mut pos = Position::startpos();
        assert_eq!(pos.legal_moves(&rules).len(), 20);
        let m = pos.parse_uci("g1f3", &rules).unwrap();
        pos.play(&m);
        let m = pos.parse_uci("g8f6", &rules).unwrap();
        pos.play(&m);
        assert_eq!(pos.legal_moves(&rules).len(), 22);
        let black = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1";
        assert_eq!(
            Position::from_fen(black).unwrap().legal_moves(&rules).len(),
            20
        );
    }
}

#[test]
fn fog_fen_round_trips_and_rejects_garbage() {
    let v = view(
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b Kq - 0 1",
        Color::Black,
        RuleSet::chesscom(),
    );
    let text = v.to_string();
    assert!(text.ends_with(" b q -"), "{text}");
    assert_eq!(text.parse::<FogView>().unwrap(), v);
    for bad in [
        "",
        "8/8 w - -",
        "????????/8/8/8/8/8/8/8 x - -",
        "9/8/8/8/8/8/8/8 w - -",
    ] {
        assert!(bad.parse::<FogView>().is_err(), "{bad}");
    }
}
