//! The compact move set agrees with the listed moves: counting, indexing, membership and
//! text lookup, on positions from random playouts under both presets.

use fow_variants::{Observation, Position, RuleSet};
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
        }
    }
}
