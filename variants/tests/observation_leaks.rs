//! Property test: an observation depends only on what the side to move sees.

use fow_variants::shakmaty::{Bitboard, Color, Role, Setup, Square};
use fow_variants::{FogView, Observation, Position, RuleSet};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// A random playout of `plies` plies; returns the position and the mover's view right
/// after its own previous move.
fn playout(seed: u64, plies: u32, rules: &RuleSet) -> Option<(Position, Option<FogView>)> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut pos = Position::startpos();
    let mut prev: [Option<FogView>; 2] = [None, None];
    for _ in 0..plies {
        let moves = pos.legal_moves(rules);
        if moves.is_empty() {
            return None;
        }
        let m = moves[rng.random_range(0..moves.len())];
        let mover = pos.turn();
        pos.play(&m);
        if m.captures_king() {
            return None;
        }
        prev[mover as usize] = Some(FogView::of(&pos, mover, rules));
    }
    let turn = pos.turn();
    Some((pos, prev[turn as usize].clone()))
}

/// Changes something the side to move cannot see: moves, removes or swaps hidden enemy
/// pieces, drops the opponent's castling rights, changes the clocks.
fn disturb(pos: &Position, rules: &RuleSet, rng: &mut Pcg64Mcg) -> Option<Position> {
    let us = pos.turn();
    let visible = FogView::of(pos, us, rules).visible();
    let mut s: Setup = pos.to_setup();
    let hidden = s.board.by_color(!us) & !visible & !s.board.kings();
    let free = !visible & !s.board.occupied() & !Bitboard::BACKRANKS;
    let pick = |b: Bitboard, rng: &mut Pcg64Mcg| -> Option<Square> {
        let v: Vec<Square> = b.into_iter().collect();
        (!v.is_empty()).then(|| v[rng.random_range(0..v.len())])
    };
    match rng.random_range(0..5) {
        0 => {
            let from = pick(hidden, rng)?;
            let to = pick(free, rng)?;
            let p = s.board.remove_piece_at(from)?;
            s.board.set_piece_at(to, p);
            s.castling_rights.discard(from);
        }
        1 => {
            let sq = pick(hidden, rng)?;
            s.board.discard_piece_at(sq);
            s.castling_rights.discard(sq);
        }
        2 => {
            let sq = pick(hidden & !s.board.pawns(), rng)?;
            let role =
                [Role::Knight, Role::Bishop, Role::Rook, Role::Queen][rng.random_range(0..4)];
            s.board.set_piece_at(sq, role.of(!us));
            s.castling_rights.discard(sq);
        }
        3 => {
            s.castling_rights &= Bitboard::from_rank(us.backrank());
        }
        _ => {
            s.halfmoves = rng.random_range(0..150);
            s.fullmoves = std::num::NonZeroU32::new(rng.random_range(1..300)).unwrap();
        }
    }
    Position::from_setup(s).ok()
}

/// Whether the side to move sees the same in both true positions: the same visible
/// squares with the same true pieces on them. Computed from the positions, not from the
/// views under test, so a view that shows too much cannot hide its own leak.
fn same_look(a: &Position, b: &Position, rules: &RuleSet) -> bool {
    let us = a.turn();
    let va = a.visible(us, rules);
    va == b.visible(us, rules)
        && va
            .into_iter()
            .all(|sq| a.board().piece_at(sq) == b.board().piece_at(sq))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, max_global_rejects: 4000, ..ProptestConfig::default() })]

    #[test]
    fn observations_hide_what_the_side_cannot_see(
        seed in any::<u64>(),
        plies in 0u32..120,
        chesscom in any::<bool>(),
    ) {
        let rules = if chesscom { RuleSet::chesscom() } else { RuleSet::thesis() };
        let played = playout(seed, plies, &rules);
        prop_assume!(played.is_some());
        let (pos, prev) = played.unwrap();
        let obs = Observation::new(&pos, &rules, plies, prev.clone());

        // The legal moves follow from the view alone.
        let from_view = Observation::from_views(obs.view().clone(), prev.clone(), plies, &rules);
        prop_assert_eq!(from_view.legal_moves(), obs.legal_moves());
        prop_assert_eq!(&from_view, &obs);

        let mut rng = Pcg64Mcg::seed_from_u64(seed ^ 0x5eed);
        let mut checked = 0;
        for _ in 0..8 {
            let Some(other) = disturb(&pos, &rules, &mut rng) else { continue };
            let other_obs = Observation::new(&other, &rules, plies, prev.clone());
            if same_look(&pos, &other, &rules) {
                checked += 1;
                prop_assert_eq!(
                    serde_json::to_vec(&obs).unwrap(),
                    serde_json::to_vec(&other_obs).unwrap()
                );
                prop_assert_eq!(format!("{obs:?}"), format!("{other_obs:?}"));
            }
        }
        prop_assume!(checked > 0);
    }
}

#[test]
fn observation_serializes_views_as_fog_fen() {
    let obs = Observation::new(&Position::startpos(), &RuleSet::thesis(), 0, None);
    let json = serde_json::to_string(&obs).unwrap();
    assert!(
        json.contains(
            "\"view\":\"????????/????????/????????/????????/8/8/PPPPPPPP/RNBQKBNR w KQ -\""
        ),
        "{json}"
    );
    assert!(json.contains("\"previous\":null"));
    assert_eq!(obs.color(), Color::White);
}
