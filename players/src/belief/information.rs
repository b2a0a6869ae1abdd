//! What a move is expected to reveal: the information (in bits) that the view right after
//! it gives about the hidden enemy pieces, over the boards believed possible.
//!
//! Each believed board, with the move played on it, shows us some squares and what stands
//! on them; boards that show the same are told apart no further by the move. With `O` what
//! the move shows and `Y` what we want to know (where the enemy king and queens stand, or
//! the whole enemy placement), the move's information is the mutual information
//! `I(Y; O) = H(Y) + H(O) − H(Y, O)` under the distribution the boards' weights give: the
//! expected fall in the entropy of `Y` once the view is seen, the quantity an expected
//! information gain sensing policy maximises (in Reconnaissance Blind Chess, for example).
//! With `Y` the whole placement it is `H(O)`, since the view is a function of the board.
//! A set whose boards all agree on `Y` gives every move 0 bits.

use fow_variants::{Color, Move, Position, Role, RuleSet};

/// What the information is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Where the enemy king and queens stand.
    KingQueen,
    /// Where every enemy piece stands.
    All,
}

/// What `us` sees of the enemy on a board: its visible squares, then each kind of enemy
/// piece on them (pawn to king).
type Seen = [u64; 7];

/// Where the enemy pieces of the target stand: one bitboard per kind (pawn to king), the
/// kinds outside the target left empty.
type Hidden = [u64; 6];

/// What `us` sees of the enemy on `pos`, and the `target` part of the enemy placement.
fn views(pos: &Position, us: Color, rules: &RuleSet, target: Target) -> (Seen, Hidden) {
    let board = pos.board();
    let them = board.by_color(!us);
    let visible = pos.visible(us, rules);
    let mut seen = [visible.0; 7];
    let mut hidden = [0; 6];
    for (k, role) in Role::ALL.into_iter().enumerate() {
        let theirs = board.by_role(role) & them;
        seen[k + 1] = (theirs & visible).0;
        if target == Target::All || matches!(role, Role::King | Role::Queen) {
            hidden[k] = theirs.0;
        }
    }
    (seen, hidden)
}

/// The entropy in bits of the groups of equal keys in `items` (key, weight), whose weights
/// add up to `total`; sorts `items` by key.
fn entropy<K: Ord>(items: &mut [(K, f64)], total: f64) -> f64 {
    items.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let mut h = 0.0;
    let mut i = 0;
    while i < items.len() {
        let mut w = 0.0;
        let mut j = i;
        while j < items.len() && items[j].0 == items[i].0 {
            w += items[j].1;
            j += 1;
        }
        if w > 0.0 {
            let p = w / total;
            h -= p * p.log2();
        }
        i = j;
    }
    h
}

/// For each of `moves` (ours, `us` to move on every board), the information in bits that
/// the view right after it gives about `target`, over `sample` (indices into `boards`, each
/// with its weight). All 0 for an empty sample.
pub fn information(
    boards: &[Position],
    sample: &[(usize, f64)],
    moves: &[Move],
    us: Color,
    rules: &RuleSet,
    target: Target,
) -> Vec<f64> {
    let total: f64 = sample.iter().map(|&(_, w)| w).sum();
    if sample.len() < 2 || total <= 0.0 {
        return vec![0.0; moves.len()];
    }
    let mut per_move: Vec<Vec<(Seen, Hidden, f64)>> =
        vec![Vec::with_capacity(sample.len()); moves.len()];
    for &(i, w) in sample {
        let b = &boards[i];
        for (j, m) in moves.iter().enumerate() {
            let mut after = b.clone();
            after.play(m);
            let (seen, hidden) = views(&after, us, rules, target);
            per_move[j].push((seen, hidden, w));
        }
    }
    per_move
        .iter()
        .map(|items| {
            let mut y: Vec<_> = items.iter().map(|&(_, h, w)| (h, w)).collect();
            let mut o: Vec<_> = items.iter().map(|&(s, _, w)| (s, w)).collect();
            let mut yo: Vec<_> = items.iter().map(|&(s, h, w)| ((s, h), w)).collect();
            let i = entropy(&mut y, total) + entropy(&mut o, total) - entropy(&mut yo, total);
            i.max(0.0)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        fen.parse().unwrap()
    }

    fn find(p: &Position, rules: &RuleSet, uci: &str) -> Move {
        p.parse_uci(uci, rules).unwrap()
    }

    #[test]
    fn entropy_of_equal_halves_is_one_bit_and_of_one_group_zero() {
        let mut a = [(1, 1.0), (2, 1.0), (1, 1.0), (2, 1.0)];
        assert!((entropy(&mut a, 4.0) - 1.0).abs() < 1e-12);
        let mut b = [(7, 0.5), (7, 2.5)];
        assert_eq!(entropy(&mut b, 3.0), 0.0);
        // Weights, not counts: 3 to 1 is 0.811 bits.
        let mut c = [(1, 3.0), (2, 1.0)];
        let expected = -(0.75f64 * 0.75f64.log2() + 0.25 * 0.25f64.log2());
        assert!((entropy(&mut c, 4.0) - expected).abs() < 1e-12);
    }

    #[test]
    fn a_move_that_looks_where_the_king_may_be_is_worth_the_bit() {
        // Two believed boards: the black king on d8 or on h8, everything else alike. The
        // pawn on a3 shuts the a-file; Ra1-d1 looks up the d-file to d8, the other moves
        // see nothing of the eighth rank.
        let rules = RuleSet::thesis();
        let boards = [
            pos("3k4/8/8/8/8/P7/8/R3K3 w - - 0 1"),
            pos("7k/8/8/8/8/P7/8/R3K3 w - - 0 1"),
        ];
        let sample = [(0, 1.0), (1, 1.0)];
        let us = Color::White;
        let kq = Target::KingQueen;
        let moves = [
            find(&boards[0], &rules, "a1a2"),
            find(&boards[0], &rules, "e1e2"),
            find(&boards[0], &rules, "a1d1"),
        ];
        let info = information(&boards, &sample, &moves, us, &rules, kq);
        assert_eq!(info[0], 0.0);
        assert_eq!(info[1], 0.0);
        assert!((info[2] - 1.0).abs() < 1e-12, "{info:?}");
        // Weighted 3 to 1, a full answer is worth the entropy of 3 to 1.
        let weighted = [(0, 3.0), (1, 1.0)];
        let info = information(&boards, &weighted, &moves, us, &rules, kq);
        let expected = -(0.75f64 * 0.75f64.log2() + 0.25 * 0.25f64.log2());
        assert!((info[2] - expected).abs() < 1e-12, "{info:?}");
    }

    #[test]
    fn a_view_that_tells_only_some_boards_apart_gives_part_of_the_entropy() {
        // Four boards: the king on b8, d8, g8 or h8. Ra1-d1 sees d8 only: it tells d8 from
        // the rest (1/4 against 3/4), 0.811 bits of the 2.
        let rules = RuleSet::thesis();
        let boards: Vec<Position> = ["1k6", "3k4", "6k1", "7k"]
            .iter()
            .map(|r| pos(&format!("{r}/8/8/8/8/P7/8/R3K3 w - - 0 1")))
            .collect();
        let sample: Vec<(usize, f64)> = (0..4).map(|i| (i, 1.0)).collect();
        let us = Color::White;
        let kq = Target::KingQueen;
        let m = find(&boards[0], &rules, "a1d1");
        let info = information(&boards, &sample, &[m], us, &rules, kq);
        let expected = -(0.25f64 * 0.25f64.log2() + 0.75 * 0.75f64.log2());
        assert!((info[0] - expected).abs() < 1e-12, "{info:?}");
    }

    #[test]
    fn about_the_king_and_queen_a_view_of_other_pieces_tells_nothing() {
        // The king is known (h8); a knight stands on d8 or c8. Seeing d8 tells the whole
        // placement apart (1 bit) but nothing about the king and queens.
        let rules = RuleSet::thesis();
        let boards = [
            pos("3n3k/8/8/8/8/P7/8/R3K3 w - - 0 1"),
            pos("2n4k/8/8/8/8/P7/8/R3K3 w - - 0 1"),
        ];
        let sample = [(0, 1.0), (1, 1.0)];
        let us = Color::White;
        let m = [find(&boards[0], &rules, "a1d1")];
        let kq = information(&boards, &sample, &m, us, &rules, Target::KingQueen);
        let all = information(&boards, &sample, &m, us, &rules, Target::All);
        assert_eq!(kq[0], 0.0);
        assert!((all[0] - 1.0).abs() < 1e-12, "{all:?}");
    }

    #[test]
    fn one_board_or_none_gives_no_information() {
        let rules = RuleSet::thesis();
        let boards = [pos("7k/8/8/8/8/8/8/R3K3 w - - 0 1")];
        let m = [find(&boards[0], &rules, "a1a7")];
        let one = information(&boards, &[(0, 1.0)], &m, Color::White, &rules, Target::All);
        assert_eq!(one, vec![0.0]);
        let none = information(&boards, &[], &m, Color::White, &rules, Target::All);
        assert_eq!(none, vec![0.0]);
    }
}
