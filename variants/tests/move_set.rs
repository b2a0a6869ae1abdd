//! The compact move set agrees with the listed moves: counting, indexing, membership and
//! text lookup, on positions from random playouts under both presets.

use fow_variants::{Castling, Game, Observation, Position, Promotion, RuleSet};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn count_nth_and_membership_agree_with_the_list(seed in any::<u64>(), plies in 0u32..150, chesscom in any::<bool>()) {
        let rules = if chesscom { RuleSet::chesscom() } else { RuleSet::thesis() };
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut pos = Position::startpos();
        for _ in 0..plies {
            let moves = pos.legal_moves(&rules);
            if moves.is_empty() { break; }
            let m = moves[rng.random_range(0..moves.len())];
            if m.captures_king() { break; }
            pos.play(&m);
        }
        let obs = Observation::new(&pos, &rules, plies, None);
        let list = obs.legal_moves().to_vec();
        prop_assert_eq!(obs.move_count(), list.len());
        prop_assert_eq!(&list, &pos.legal_moves(&rules));
        for (i, m) in list.iter().enumerate() {
            prop_assert_eq!(obs.nth_move(i), Some(*m));
            prop_assert!(obs.is_legal(m));
            prop_assert_eq!(obs.parse_uci(&m.uci()).unwrap(), *m);
        }
        prop_assert_eq!(obs.nth_move(list.len()), None);
        prop_assert!(!obs.is_legal(&fow_variants::Move::NULL));
        prop_assert!(!list.iter().any(|m| m.is_null() || m.uci() == "0000"));
        // No duplicates, and near misses are not legal.
        let mut uci: Vec<String> = list.iter().map(|m| m.uci()).collect();
        uci.sort();
        uci.dedup();
        prop_assert_eq!(uci.len(), list.len());
        for m in &list {
            let mut wrong = *m;
            wrong.capture = if m.capture.is_some() { None } else { Some(fow_variants::Role::Queen) };
            prop_assert!(!obs.is_legal(&wrong));
            let mut wrong = *m;
            wrong.to = m.from;
            prop_assert!(!obs.is_legal(&wrong));
            // Every one-field change of a legal move is legal exactly when it is listed.
            for changed in one_field_changes(m) {
                prop_assert_eq!(obs.is_legal(&changed), list.contains(&changed), "{:?}", changed);
            }
        }
    }
}

/// The null move (what a player that cannot answer returns) is not legal even where a
/// pawn can reach a1, the square it names, and it is written `0000`.
#[test]
fn the_null_move_is_never_legal() {
    use fow_variants::Move;
    for fen in [
        "4k3/8/8/8/8/8/p7/4K3 b - - 0 1",
        "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
        "4k3/8/8/8/8/8/1p6/R3K3 b - - 0 1",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        for rules in [RuleSet::thesis(), RuleSet::chesscom()] {
            let obs = Observation::new(&pos, &rules, 0, None);
            assert!(obs.move_count() > 0, "{fen}");
            assert!(!obs.is_legal(&Move::NULL), "{fen}");
            assert!(!obs.legal_moves().contains(&Move::NULL), "{fen}");
            assert!(obs.parse_uci("0000").is_err());
        }
    }
    assert_eq!(Move::NULL.uci(), "0000");
    assert!(Move::NULL.is_null());
    // A move read from text that names the same squares is not the null move.
    let a1a1 = Move {
        kind: fow_variants::MoveKind::Normal,
        role: fow_variants::Role::Pawn,
        ..Move::NULL
    };
    assert!(!a1a1.is_null());
    assert_eq!(a1a1.uci(), "a1a1");
}

/// `m` with one field changed, to every other value that field can take.
fn one_field_changes(m: &fow_variants::Move) -> Vec<fow_variants::Move> {
    use fow_variants::{MoveKind, Role, Square};
    let roles = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];
    let optional: Vec<Option<Role>> = std::iter::once(None)
        .chain(roles.iter().copied().map(Some))
        .collect();
    let mut out = Vec::new();
    for sq in Square::ALL {
        out.push(fow_variants::Move { from: sq, ..*m });
        out.push(fow_variants::Move { to: sq, ..*m });
    }
    for &role in &roles {
        out.push(fow_variants::Move { role, ..*m });
    }
    for &r in &optional {
        out.push(fow_variants::Move { capture: r, ..*m });
        out.push(fow_variants::Move { promotion: r, ..*m });
    }
    for kind in [MoveKind::Normal, MoveKind::EnPassant, MoveKind::Castle] {
        out.push(fow_variants::Move { kind, ..*m });
    }
    out.retain(|c| c != m);
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100, ..ProptestConfig::default() })]

    /// The arena's path: one observation per colour refreshed in place every turn (its
    /// storage, and the indices into it, left over from earlier turns) answers exactly
    /// as a freshly built one, for every move and for near misses.
    #[test]
    fn refreshed_observations_agree_with_fresh_ones(seed in any::<u64>(), chesscom in any::<bool>()) {
        let rules = if chesscom { RuleSet::chesscom() } else { RuleSet::thesis() };
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut pos = Position::startpos();
        let mut slots: [Option<Observation>; 2] = [None, None];
        for ply in 0..200u32 {
            let slot = &mut slots[pos.turn() as usize];
            let obs = Observation::for_turn(slot, &pos, &rules, ply);
            let fresh = Observation::new(&pos, &rules, ply, obs.previous().cloned());
            prop_assert_eq!(&*obs, &fresh);
            let list = fresh.legal_moves().to_vec();
            prop_assert_eq!(obs.legal_moves(), &list[..]);
            prop_assert_eq!(obs.move_count(), list.len());
            for (i, m) in list.iter().enumerate() {
                prop_assert_eq!(obs.nth_move(i), Some(*m));
                prop_assert!(obs.is_legal(m));
                let mut wrong = *m;
                wrong.from = m.to;
                prop_assert!(!obs.is_legal(&wrong) || list.contains(&wrong));
                let mut wrong = *m;
                wrong.role = if m.role == fow_variants::Role::Pawn { fow_variants::Role::Knight } else { fow_variants::Role::Pawn };
                prop_assert!(!obs.is_legal(&wrong));
            }
            prop_assert_eq!(obs.nth_move(list.len()), None);
            if list.is_empty() { break; }
            let m = list[rng.random_range(0..list.len())];
            let captured_king = m.captures_king();
            pos.play(&m);
            obs.set_previous_from(&pos);
            if captured_king { break; }
        }
    }

    /// The arena's path, `Observation::for_game` (the move set now and the view right
    /// after the side's previous move from one walk over its pieces), equals the two
    /// steps it replaces, a refresh and a previous view computed on its own, at every
    /// ply of random games: from starts with Black to move, an en passant square,
    /// castling rights and promoting pawns, under both presets and a mix of their
    /// switches (which takes the walk that reads them at run time).
    #[test]
    fn observations_of_a_game_equal_the_two_steps(seed in any::<u64>(), rules in 0usize..3, start in 0usize..4) {
        let mut mixed = RuleSet::thesis();
        mixed.castling = Castling::Rights;
        mixed.promotion = Promotion::Any;
        let rules = [RuleSet::thesis(), RuleSet::chesscom(), mixed][rules];
        let start = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/1P4p1/8/8/2pP4/8/1p4P1/R3K2R b KQkq d3 0 1",
            "r3k2r/pp3ppp/2n5/3pP3/8/5N2/PPP2PPP/R3K2R w KQkq d6 0 1",
            "4k3/8/3q4/2n1b3/4R3/2B1N3/8/Q3K3 b - - 0 1",
        ][start];
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut game = Game::new(Position::from_fen(start).unwrap(), rules);
        let mut one_walk: [Option<Observation>; 2] = [None, None];
        let mut two_steps: [Option<Observation>; 2] = [None, None];
        for _ in 0..200 {
            let i = game.position().turn() as usize;
            let o = Observation::for_game(&mut one_walk[i], &game);
            let want = Observation::for_turn(&mut two_steps[i], game.position(), &rules, game.ply());
            prop_assert_eq!(&*o, &*want, "{}", game.position());
            prop_assert_eq!(o.previous().is_some(), game.ply() >= 2);
            if o.move_count() == 0 { break; }
            let m = o.nth_move(rng.random_range(0..o.move_count())).unwrap();
            let before = game.position().clone();
            let end = game.play(&m);
            prop_assert_eq!(game.before(), &before);
            want.set_previous_from(game.position());
            if end.is_some() { break; }
        }
    }
}
