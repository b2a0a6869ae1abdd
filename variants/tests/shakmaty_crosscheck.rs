//! Cross-checks our pseudo-legal moves with shakmaty's legal moves of standard chess on
//! positions from random playouts under both presets.

use fow_variants::shakmaty::{self, CastlingMode, Chess, Color, Position as _, Role};
use fow_variants::{Move, MoveKind, Position, RuleSet};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

fn king_attacked(pos: &Position, color: Color) -> bool {
    let b = pos.board();
    match b.king_of(color) {
        Some(k) => b.attacks_to(k, !color, b.occupied()).any(),
        None => true,
    }
}

/// Our moves that standard chess would allow: not leaving the own king attacked, and no
/// castling out of, through or into check.
fn filtered(pos: &Position, rules: &RuleSet) -> Vec<String> {
    let us = pos.turn();
    let mut v: Vec<String> = pos
        .legal_moves(rules)
        .into_iter()
        .filter(|m: &Move| {
            if m.kind == MoveKind::Castle {
                let mid = shakmaty::Square::from_coords(
                    if m.to > m.from {
                        shakmaty::File::F
                    } else {
                        shakmaty::File::D
                    },
                    m.from.rank(),
                );
                let b = pos.board();
                if [m.from, mid, m.to]
                    .iter()
                    .any(|&s| b.attacks_to(s, !us, b.occupied()).any())
                {
                    return false;
                }
            }
            let mut after = pos.clone();
            after.play(m);
            !king_attacked(&after, us)
        })
        .map(|m| m.uci())
        .collect();
    v.sort();
    v
}

fn shakmaty_moves(pos: &Position, rules: &RuleSet) -> Option<Vec<String>> {
    let mut setup = pos.to_setup();
    if rules.castling == fow_variants::Castling::Positional {
        // The thesis castles whenever king and rook stand at home: give shakmaty those rights.
        let mut rights = shakmaty::Bitboard::EMPTY;
        for color in Color::ALL {
            let rank = color.backrank();
            if setup.board.king_of(color)
                == Some(shakmaty::Square::from_coords(shakmaty::File::E, rank))
            {
                for f in [shakmaty::File::A, shakmaty::File::H] {
                    let sq = shakmaty::Square::from_coords(f, rank);
                    if setup.board.piece_at(sq) == Some(color.rook()) {
                        rights.add(sq);
                    }
                }
            }
        }
        setup.castling_rights = rights;
    }
    if !rules.en_passant {
        setup.ep_square = None;
    }
    // shakmaty's own error type is large; it only passes through here.
    #[allow(clippy::result_large_err)]
    let chess: Chess = setup
        .position(CastlingMode::Standard)
        .or_else(|e| e.ignore_impossible_check())
        .or_else(|e| e.ignore_too_much_material())
        .ok()?;
    let mut v: Vec<String> = chess
        .legal_moves()
        .iter()
        .filter(|m| {
            rules.promotion == fow_variants::Promotion::Any
                || m.promotion().is_none_or(|p| p == Role::Queen)
        })
        .map(|m| m.to_uci(CastlingMode::Standard).to_string())
        .collect();
    v.sort();
    Some(v)
}

#[test]
fn pseudo_legal_minus_self_check_equals_shakmaty_legal() {
    for rules in [RuleSet::thesis(), RuleSet::chesscom()] {
        let mut rng = Pcg64Mcg::seed_from_u64(2023);
        let mut compared = 0;
        let mut with_castle = 0;
        let mut with_ep = 0;
        let mut with_promo = 0;
        for _game in 0..400 {
            let mut pos = Position::startpos();
            for _ply in 0..160 {
                // Standard chess forbids the side not to move being in check; skip those.
                if !king_attacked(&pos, !pos.turn()) {
                    let ours = filtered(&pos, &rules);
                    if let Some(theirs) = shakmaty_moves(&pos, &rules) {
                        assert_eq!(ours, theirs, "{} under {rules}", pos);
                        compared += 1;
                        let all = pos.legal_moves(&rules);
                        with_castle += all.iter().any(|m| m.kind == MoveKind::Castle) as u32;
                        with_ep += all.iter().any(|m| m.kind == MoveKind::EnPassant) as u32;
                        with_promo += all.iter().any(|m| m.promotion.is_some()) as u32;
                    }
                }
                let moves = pos.legal_moves(&rules);
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.random_range(0..moves.len())];
                pos.play(&m);
                if m.captures_king() {
                    break;
                }
            }
        }
        eprintln!("{rules}: {compared} positions compared");
        assert!(
            compared > 10_000,
            "{compared} positions compared under {rules}"
        );
        assert!(
            with_castle > 100 && with_promo > 100,
            "{with_castle} {with_promo}"
        );
        if rules.en_passant {
            assert!(with_ep > 10, "en passant seen {with_ep} times");
        }
    }
}
