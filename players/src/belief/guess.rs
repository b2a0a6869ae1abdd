//! The thesis's PossibleBoardGenerator update: one guessed full board, rebuilt each turn
//! from the previous guess and the current view.
//!
//! [`update_guess`] works in three steps:
//!
//! 1. every visible piece is placed exactly as seen (own pieces and visible enemy pieces);
//!    each visible enemy piece *explains* (consumes) the nearest enemy piece of the same
//!    type in the previous guess, if one is left;
//! 2. the squares that must hold an unseen enemy piece ([`forced_enemy_squares`]) get the
//!    nearest remaining enemy piece of the previous guess, of any type;
//! 3. every remaining enemy piece of the previous guess goes to the nearest fog square that
//!    is still empty.
//!
//! Distances are Euclidean between square centres (`sqrt(dx² + dy²)` in files and ranks)
//! plus a uniform random term in `[0, 1)`, drawn afresh for every candidate, so equally
//! near choices are broken at random and a piece whose square is still free in fog stays
//! put (it costs less than 1, every move costs at least 1). The assignment is greedy and
//! runs in a fixed order, so the same rng seed gives the same guess.
//!
//! Pieces that we capture are the caller's business: apply our own move to the previous
//! guess with [`fow_variants::apply_move`] before calling [`update_guess`], so the captured
//! piece is gone from it (the piece we capture is always visible, so the guess holds
//! exactly that piece on the capture square).

use fow_variants::shakmaty::{Bitboard, Board, Color, Rank, Role, Square};
use fow_variants::FogView;
use rand::Rng;

/// The first and last ranks, where no pawn may stand.
const BACK_RANKS: Bitboard = Bitboard(0xff00_0000_0000_00ff);

/// The first guess: the standard starting position (the same board for both colours;
/// `color` is the side that guesses).
///
/// ```
/// use fow_players::belief::guess::initial_guess;
/// use fow_variants::{Board, Color};
/// assert_eq!(initial_guess(Color::Black), Board::new());
/// ```
pub fn initial_guess(color: Color) -> Board {
    let _ = color;
    Board::new()
}

/// The squares that must hold an enemy piece although they are in fog, in square order:
///
/// - the square in front of an own pawn when it is fog (a pawn sees its forward square
///   whenever that square is empty, and own pieces are always seen, so an enemy piece
///   blocks it);
/// - for an own pawn on its start rank whose forward square is visible and empty, the
///   square two ahead when it is fog (the pawn would see it if it were empty).
///
/// ```
/// use fow_players::belief::guess::forced_enemy_squares;
/// use fow_variants::{Color, FogView, Position, RuleSet, Square};
/// let pos: Position = "4k3/8/8/8/4p3/8/4P3/4K3 w - - 0 1".parse().unwrap();
/// let view = FogView::of(&pos, Color::White, &RuleSet::thesis());
/// assert_eq!(forced_enemy_squares(&view).into_iter().collect::<Vec<_>>(), [Square::E4]);
/// ```
pub fn forced_enemy_squares(view: &FogView) -> Bitboard {
    let us = view.color();
    let fog = view.fog();
    let (step, start) = match us {
        Color::White => (8, Rank::Second),
        Color::Black => (-8, Rank::Seventh),
    };
    let mut forced = Bitboard::EMPTY;
    for sq in view.ours() & view.board().pawns() {
        let Some(front) = sq.offset(step) else {
            continue;
        };
        if fog.contains(front) {
            forced.add(front);
        } else if sq.rank() == start && view.piece_at(front).is_none() {
            if let Some(two) = front.offset(step).filter(|&t| fog.contains(t)) {
                forced.add(two);
            }
        }
    }
    forced
}

/// Rebuilds the guessed full board from the previous guess and the current view (the
/// three steps of the [module documentation](self)).
///
/// `previous` is the previous guess **with our own last move already applied** (see
/// [`fow_variants::apply_move`]), so that a piece we captured is no longer in it. The
/// result holds our pieces and the visible enemy pieces exactly as in `view`, nothing else
/// on a visible square, no enemy pawn on a back rank, and the enemy king of `previous`
/// (when it had one) exactly once, seen or guessed.
///
/// ```
/// use fow_players::belief::guess::{initial_guess, update_guess};
/// use fow_variants::{Board, Color, FogView, Position, RuleSet};
/// use rand::SeedableRng;
/// let view = FogView::of(&Position::startpos(), Color::White, &RuleSet::thesis());
/// let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(7);
/// let guess = update_guess(&initial_guess(Color::White), &view, &mut rng);
/// assert_eq!(guess, Board::new());
/// ```
pub fn update_guess<R: Rng>(previous: &Board, view: &FogView, rng: &mut R) -> Board {
    let them = !view.color();
    let fog = view.fog();
    let mut guess = view.board().clone();
    // The enemy pieces of the previous guess not yet explained or placed, in square order.
    let mut pool: Vec<(Square, Role)> = previous
        .by_color(them)
        .into_iter()
        .filter_map(|sq| previous.role_at(sq).map(|role| (sq, role)))
        .collect();

    // (1) Visible enemy pieces explain the nearest same-type piece of the previous guess.
    for sq in view.theirs() {
        if let Some(role) = view.board().role_at(sq) {
            take_nearest_piece(&mut pool, sq, |r| r == role, rng);
        }
    }

    // (2) Squares that must hold an unseen enemy piece.
    for sq in forced_enemy_squares(view) {
        if guess.piece_at(sq).is_some() {
            continue;
        }
        let back = BACK_RANKS.contains(sq);
        if let Some(role) = take_nearest_piece(&mut pool, sq, |r| !back || r != Role::Pawn, rng) {
            guess.set_piece_at(sq, role.of(them));
        }
    }

    // (3) The rest go to the nearest empty fog square: the king first (it is never
    // dropped), then the pawns (they cannot use the back ranks), then the others.
    pool.sort_by_key(|&(_, role)| match role {
        Role::King => 0,
        Role::Pawn => 1,
        _ => 2,
    });
    for (from, role) in pool {
        let mut free = fog & !guess.occupied();
        if role == Role::Pawn {
            free &= !BACK_RANKS;
        }
        let to = nearest_square(from, free, rng).or_else(|| {
            // No free fog square is left: the king displaces a piece placed in step 2
            // (every occupied fog square holds one).
            (role == Role::King)
                .then(|| nearest_square(from, fog & guess.by_color(them), rng))
                .flatten()
        });
        if let Some(to) = to {
            guess.set_piece_at(to, role.of(them));
        }
    }
    guess
}

/// Euclidean distance between two squares, in squares.
fn distance(a: Square, b: Square) -> f64 {
    let dx = f64::from(a.file().distance(b.file()));
    let dy = f64::from(a.rank().distance(b.rank()));
    dx.hypot(dy)
}

/// Removes from `pool` and returns the role of the piece nearest to `target` among those
/// `accept` allows (distance plus a random term below 1; the first wins exact ties).
fn take_nearest_piece<R: Rng>(
    pool: &mut Vec<(Square, Role)>,
    target: Square,
    accept: impl Fn(Role) -> bool,
    rng: &mut R,
) -> Option<Role> {
    let mut best: Option<(f64, usize)> = None;
    for (i, &(sq, role)) in pool.iter().enumerate() {
        if !accept(role) {
            continue;
        }
        let cost = distance(sq, target) + rng.random::<f64>();
        if best.is_none_or(|(c, _)| cost < c) {
            best = Some((cost, i));
        }
    }
    best.map(|(_, i)| pool.remove(i).1)
}

/// The square of `candidates` nearest to `from` (distance plus a random term below 1).
fn nearest_square<R: Rng>(from: Square, candidates: Bitboard, rng: &mut R) -> Option<Square> {
    let mut best: Option<(f64, Square)> = None;
    for sq in candidates {
        let cost = distance(from, sq) + rng.random::<f64>();
        if best.is_none_or(|(c, _)| cost < c) {
            best = Some((cost, sq));
        }
    }
    best.map(|(_, sq)| sq)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_variants::shakmaty::Piece;
    use fow_variants::{apply_move, Position, RuleSet};
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    fn view_of(fen: &str, color: Color) -> FogView {
        let pos: Position = fen.parse().unwrap();
        FogView::of(&pos, color, &RuleSet::thesis())
    }

    fn board(fen_board: &str) -> Board {
        let pos: Position = format!("{fen_board} w - - 0 1").parse().unwrap();
        pos.board().clone()
    }

    fn rng(seed: u64) -> Pcg64Mcg {
        Pcg64Mcg::seed_from_u64(seed)
    }

    fn count(b: &Board, color: Color) -> u32 {
        b.by_color(color).count() as u32
    }

    /// The invariants that hold for every update.
    fn check_invariants(previous: &Board, view: &FogView, guess: &Board) {
        let us = view.color();
        let them = !us;
        for sq in view.visible() {
            assert_eq!(guess.piece_at(sq), view.piece_at(sq), "visible {sq}");
        }
        assert_eq!(guess.by_color(us), view.ours());
        assert!((guess.by_color(them) & guess.pawns() & BACK_RANKS).is_empty());
        let had_king = (previous.by_color(them) & previous.kings()).any();
        let kings = (guess.by_color(them) & guess.kings()).count();
        if had_king || (view.theirs() & view.board().kings()).any() {
            assert_eq!(kings, 1, "{view}\n{guess:?}");
        } else {
            assert_eq!(kings, 0);
        }
        // Every visible piece explained by one of the same type: the count is kept.
        let explained = Role::ALL.iter().all(|&role| {
            let piece = role.of(them);
            view.board().by_piece(piece).count() <= previous.by_piece(piece).count()
        });
        if explained {
            assert_eq!(count(guess, them), count(previous, them), "{view}");
            let forced = forced_enemy_squares(view);
            let spare = count(previous, them) - view.theirs().count() as u32;
            if spare >= forced.count() as u32 && (forced & BACK_RANKS).is_empty() {
                assert!(forced.is_subset(guess.by_color(them)), "{view}");
            }
        }
        assert!(count(guess, them) >= view.theirs().count() as u32);
        assert!(count(guess, them) <= count(previous, them) + view.theirs().count() as u32);
    }

    #[test]
    fn visible_pieces_are_placed_exactly_and_ours_equal_the_view() {
        // White's e4 pawn sees the d5 pawn; the f3 knight sees the e5 knight.
        let view = view_of("4k3/8/8/3pn3/4P3/5N2/8/4K3 w - - 0 1", Color::White);
        assert!(view.theirs().contains(Square::D5) && view.theirs().contains(Square::E5));
        // The previous guess has the black pieces elsewhere and the white ones stale.
        let previous = board("4k3/3p4/8/8/2n5/8/3P4/4K1N1");
        let guess = update_guess(&previous, &view, &mut rng(1));
        assert_eq!(guess.piece_at(Square::D5), Some(Color::Black.pawn()));
        assert_eq!(guess.piece_at(Square::E5), Some(Color::Black.knight()));
        assert_eq!(guess.by_color(Color::White), view.ours());
        for sq in view.ours() {
            assert_eq!(guess.piece_at(sq), view.piece_at(sq));
        }
        // The pawn and knight were explained: only the king is left to place.
        assert_eq!(count(&guess, Color::Black), 3);
        check_invariants(&previous, &view, &guess);
    }

    #[test]
    fn no_enemy_piece_on_a_visible_empty_square() {
        let view = view_of(&Position::startpos().fen(), Color::White);
        // Black pieces guessed on ranks 3 and 4, which White sees empty.
        let previous = board("rnbqkbnr/8/8/8/pppppppp/8/PPPPPPPP/RNBQKBNR");
        for seed in 0..10 {
            let guess = update_guess(&previous, &view, &mut rng(seed));
            for sq in view.visible() & !view.board().occupied() {
                assert_eq!(guess.piece_at(sq), None, "{sq}");
            }
            assert_eq!(count(&guess, Color::Black), 16);
            check_invariants(&previous, &view, &guess);
        }
    }

    #[test]
    fn the_enemy_count_is_kept() {
        // The visible d3 queen explains the guessed a3 one; the knight guessed on e3,
        // which White sees empty, moves into fog.
        let view = view_of("r3k3/pp6/8/8/8/3q4/4P3/4K3 w - - 0 1", Color::White);
        assert_eq!(view.theirs(), Bitboard::from(Square::D3));
        let previous = board("r3k3/pp6/8/8/8/q3n3/4P3/4K3");
        let guess = update_guess(&previous, &view, &mut rng(3));
        assert_eq!(count(&guess, Color::Black), count(&previous, Color::Black));
        check_invariants(&previous, &view, &guess);
    }

    #[test]
    fn an_unseen_blocker_in_front_of_a_pawn_is_guessed() {
        let view = view_of("4k3/8/8/8/8/4p3/4P3/4K3 w - - 0 1", Color::White);
        assert!(view.fog().contains(Square::E3));
        // The knight on h5 is nearer to e3 (3.6) than the king on e8 (5) by more than 1.
        let previous = board("4k3/8/8/7n/8/8/4P3/4K3");
        for seed in 0..5 {
            let guess = update_guess(&previous, &view, &mut rng(seed));
            assert_eq!(guess.piece_at(Square::E3), Some(Color::Black.knight()));
            assert_eq!(guess.piece_at(Square::E8), Some(Color::Black.king()));
            check_invariants(&previous, &view, &guess);
        }
    }

    #[test]
    fn an_unseen_blocker_two_ahead_of_an_unmoved_pawn_is_guessed() {
        let view = view_of("4k3/8/8/8/4p3/8/4P3/4K3 w - - 0 1", Color::White);
        assert!(view.visible().contains(Square::E3) && view.fog().contains(Square::E4));
        let previous = board("4k3/p7/8/8/8/8/4P3/4K3");
        for seed in 0..5 {
            let guess = update_guess(&previous, &view, &mut rng(seed));
            assert_eq!(guess.color_at(Square::E4), Some(Color::Black));
            assert_eq!(guess.piece_at(Square::E3), None);
            check_invariants(&previous, &view, &guess);
        }
        // A pawn that has moved does not force the square two ahead.
        let view = view_of("4k3/8/8/4p3/8/4P3/8/4K3 w - - 0 1", Color::White);
        assert!(forced_enemy_squares(&view).is_empty());
    }

    #[test]
    fn no_pawn_on_a_back_rank() {
        // The e8 square in front of White's e7 pawn is forced; the black pawn on e5 is
        // nearest but may not go there, so the king does.
        let view = view_of("4k3/4P3/8/8/8/8/8/4K3 w - - 0 1", Color::White);
        assert_eq!(forced_enemy_squares(&view), Bitboard::from(Square::E8));
        let previous = board("8/4P3/8/4p3/k7/8/8/4K3");
        for seed in 0..10 {
            let guess = update_guess(&previous, &view, &mut rng(seed));
            assert_eq!(guess.piece_at(Square::E8), Some(Color::Black.king()));
            assert!((guess.pawns() & BACK_RANKS).is_empty());
            check_invariants(&previous, &view, &guess);
        }
        // A black pawn guessed on b2, which White's b3 king sees empty: b1 (distance 1)
        // is the nearest fog square, but the pawn must go to the second rank or higher.
        let view = view_of("4k3/8/8/8/8/1K6/8/8 w - - 0 1", Color::White);
        assert!(view.fog().contains(Square::B1) && view.visible().contains(Square::B2));
        let previous = board("4k3/8/8/8/8/1K6/1p6/8");
        for seed in 0..10 {
            let guess = update_guess(&previous, &view, &mut rng(seed));
            assert_eq!(guess.by_piece(Color::Black.pawn()).count(), 1);
            assert!((guess.pawns() & BACK_RANKS).is_empty());
            check_invariants(&previous, &view, &guess);
        }
    }

    #[test]
    fn the_enemy_king_stays() {
        // The guessed king stands on e2, which White sees empty: it moves into fog.
        let view = view_of("4k3/8/8/8/8/8/8/4K2R w - - 0 1", Color::White);
        let previous = board("8/8/8/8/8/8/4k3/4K2R");
        for seed in 0..10 {
            let guess = update_guess(&previous, &view, &mut rng(seed));
            let king = guess.by_piece(Color::Black.king());
            assert_eq!(king.count(), 1);
            assert!(king.is_subset(view.fog()));
            check_invariants(&previous, &view, &guess);
        }
        // A visible enemy king explains the guessed one, wherever that was.
        let view = view_of("4k3/8/8/8/8/8/4K3/8 w - - 0 1", Color::White);
        let previous = board("8/8/8/8/8/8/4K3/k7");
        let guess = update_guess(&previous, &view, &mut rng(0));
        assert_eq!(count(&guess, Color::Black), 1);
        check_invariants(&previous, &view, &guess);
    }

    #[test]
    fn same_seed_same_guess_different_seeds_can_differ() {
        let view = view_of(&Position::startpos().fen(), Color::White);
        let previous = board("rnbqkbnr/8/8/8/pppppppp/8/PPPPPPPP/RNBQKBNR");
        let guesses: Vec<Board> = (0..20)
            .map(|seed| update_guess(&previous, &view, &mut rng(seed)))
            .collect();
        for (seed, g) in guesses.iter().enumerate() {
            assert_eq!(&update_guess(&previous, &view, &mut rng(seed as u64)), g);
        }
        assert!(guesses.iter().any(|g| g != &guesses[0]));
    }

    #[test]
    fn pieces_stay_when_their_square_is_still_fog() {
        let view = view_of(&Position::startpos().fen(), Color::Black);
        let previous = board("rnbqkbnr/pppppppp/8/8/3P4/2N5/PP2PPPP/R1BQKBNR");
        let guess = update_guess(&previous, &view, &mut rng(5));
        assert_eq!(guess, previous);
    }

    #[test]
    fn invariants_hold_along_random_games() {
        let rules = RuleSet::thesis();
        let mut rng = rng(2023);
        let mut plies = 0;
        let mut game = 0;
        while plies < 400 {
            game += 1;
            let mut pos = Position::startpos();
            let mut guesses = [initial_guess(Color::White), initial_guess(Color::Black)];
            let mut promoted = false;
            for _ in 0..120 {
                let us = pos.turn();
                let idx = us as usize;
                let them = !us;
                let view = FogView::of(&pos, us, &rules);
                let previous = guesses[idx].clone();
                let guess = update_guess(&previous, &view, &mut rng);
                check_invariants(&previous, &view, &guess);
                // Until a promotion, the guessed enemy pieces only differ from the truth in
                // where they are.
                assert!(promoted || count(&guess, them) == count(pos.board(), them));
                assert!(
                    count(&guess, them) >= count(pos.board(), them),
                    "game {game}"
                );
                let moves = pos.legal_moves(&rules);
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.random_range(0..moves.len())];
                let mut next = guess;
                // We capture only what we see, so the guess holds exactly that piece.
                assert_eq!(
                    m.capture_square().and_then(|sq| next.piece_at(sq)),
                    m.capture.map(|r| Piece {
                        color: them,
                        role: r
                    })
                );
                apply_move(&mut next, &m, us);
                guesses[idx] = next;
                plies += 1;
                promoted |= m.promotion.is_some();
                if pos.play(&m) == Some(Role::King) {
                    break;
                }
            }
        }
    }
}
