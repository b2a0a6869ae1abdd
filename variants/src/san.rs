//! Standard algebraic notation (SAN) without check marks, and one reader for every move
//! notation fow meets.
//!
//! Fog-of-war chess has no check, so [`Position::san`] never writes `+` or `#`; otherwise
//! it is the SAN of PGN: a piece letter (none for pawns), the file, rank or square of the
//! moving piece when another piece of the same kind could also move to the target square,
//! `x` for captures (en passant too), the target square, `=Q` for promotions, and `O-O` /
//! `O-O-O` for castling. "Could also move" means among the legal moves of fog-of-war
//! chess, which are the pseudo-legal moves: a knight pinned to its king still counts.
//!
//! [`Position::parse_move`] reads UCI (`e2e4`, `e7e8q`), chess.com's long algebraic
//! notation (`Ng1f3`, castling as `Ke1g1`, `h7h8=Q`, `Nf3xe5`) and SAN (`Nf3`, `exd5`,
//! `O-O`, `0-0-0`, `e8=Q`), tolerating trailing `+`, `#`, `!` and `?`. The free functions
//! [`san_among`] and [`parse_move_among`] do the same against any list of legal moves,
//! for example an [`Observation`](crate::Observation)'s.
//!
//! ```
//! use fow_variants::{Position, RuleSet};
//! let rules = RuleSet::chesscom();
//! let pos: Position = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1".parse().unwrap();
//! let m = pos.parse_move("Nbd2", &rules).unwrap();
//! assert_eq!(m.uci(), "b1d2");
//! assert_eq!(pos.san(&m, &rules), "Nbd2");
//! assert_eq!(pos.parse_move("b1d2", &rules).unwrap(), m);
//! let e = pos.parse_move("Nd2", &rules).unwrap_err();
//! assert_eq!(e.to_string(), "ambiguous move 'Nd2' (could be Nbd2, Nfd2)");
//! ```

use shakmaty::{File, Rank, Role, Square};

use crate::error::MoveError;
use crate::moves::{Move, MoveKind, MoveText};
use crate::position::Position;
use crate::rules::RuleSet;

impl Position {
    /// The move `m` (one of [`Position::legal_moves`]) in SAN without check marks.
    ///
    /// ```
    /// use fow_variants::{Position, RuleSet};
    /// let rules = RuleSet::thesis();
    /// let pos = Position::startpos();
    /// let m = pos.parse_uci("g1f3", &rules).unwrap();
    /// assert_eq!(pos.san(&m, &rules), "Nf3");
    /// ```
    pub fn san(&self, m: &Move, rules: &RuleSet) -> String {
        san_among(m, &self.legal_moves(rules))
    }

    /// The legal move a SAN text names (`Nf3`, `exd5`, `O-O`, `e8=Q`; trailing `+`, `#`,
    /// `!`, `?` are ignored, and so is an `x` on a move that captures nothing). A pawn
    /// move to the last rank without a promotion piece promotes to a queen, as in
    /// [`Position::parse_uci`].
    ///
    /// Errors: [`MoveError::Syntax`] for text that is not SAN, [`MoveError::Illegal`] when
    /// no legal move fits, [`MoveError::Ambiguous`] when several do.
    pub fn parse_san(&self, text: &str, rules: &RuleSet) -> Result<Move, MoveError> {
        parse_san_among(text, &self.legal_moves(rules))
    }

    /// The legal move a text names in UCI (`e2e4`, `e7e8q`), long algebraic notation as
    /// chess.com writes it (`Ng1f3`, `Ke1g1`, `h7h8=Q`, `Nf3xe5`) or SAN (`Nf3`, `O-O`).
    /// A piece letter in long algebraic text must name the piece on the from square.
    pub fn parse_move(&self, text: &str, rules: &RuleSet) -> Result<Move, MoveError> {
        parse_move_among(text, &self.legal_moves(rules))
    }
}

/// SAN (without check marks) of `m` among the legal moves `legal` of its position (which
/// must contain `m`: the other moves decide the disambiguation).
pub fn san_among(m: &Move, legal: &[Move]) -> String {
    let mut s = String::with_capacity(8);
    if m.kind == MoveKind::Castle {
        s.push_str(if m.to.file() > m.from.file() {
            "O-O"
        } else {
            "O-O-O"
        });
        return s;
    }
    if m.role == Role::Pawn {
        if m.is_capture() {
            s.push(m.from.file().char());
            s.push('x');
        }
    } else {
        s.push(m.role.upper_char());
        let rivals = legal.iter().filter(|o| {
            o.role == m.role && o.to == m.to && o.from != m.from && o.kind != MoveKind::Castle
        });
        let (mut any, mut same_file, mut same_rank) = (false, false, false);
        for o in rivals {
            any = true;
            same_file |= o.from.file() == m.from.file();
            same_rank |= o.from.rank() == m.from.rank();
        }
        if any {
            if !same_file {
                s.push(m.from.file().char());
            } else if !same_rank {
                s.push(m.from.rank().char());
            } else {
                s.push(m.from.file().char());
                s.push(m.from.rank().char());
            }
        }
        if m.is_capture() {
            s.push('x');
        }
    }
    s.push(m.to.file().char());
    s.push(m.to.rank().char());
    if let Some(p) = m.promotion {
        s.push('=');
        s.push(p.upper_char());
    }
    s
}

/// A SAN text taken apart, before it is matched against a position's moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SanText {
    /// `O-O` (`true`: king side) or `O-O-O`.
    Castle(bool),
    /// Any other move.
    Move {
        /// The moving piece (a pawn when no letter is written).
        role: Role,
        /// The from file, if written.
        file: Option<File>,
        /// The from rank, if written.
        rank: Option<Rank>,
        /// The target square.
        to: Square,
        /// The promotion piece, if written.
        promotion: Option<Role>,
    },
}

/// The text without trailing check, mate and annotation marks.
fn strip_marks(text: &str) -> &str {
    text.trim().trim_end_matches(['+', '#', '!', '?'])
}

impl SanText {
    /// Reads the syntax of a SAN text; `None` if it is not SAN.
    pub(crate) fn parse(text: &str) -> Option<SanText> {
        let t = strip_marks(text);
        match t {
            "O-O" | "0-0" => return Some(SanText::Castle(true)),
            "O-O-O" | "0-0-0" => return Some(SanText::Castle(false)),
            _ => {}
        }
        let b = t.as_bytes();
        if !b.is_ascii() {
            return None;
        }
        // The promotion suffix: `=Q` or `Q` (not `b`, which would be ambiguous with
        // nothing here but is not SAN).
        let (body, promotion) = match b {
            [rest @ .., b'=', p] => (rest, Some(*p)),
            [rest @ .., p] if b"NBRQ".contains(p) => (rest, Some(*p)),
            _ => (b, None),
        };
        let promotion = match promotion {
            None => None,
            Some(p) => match Role::from_char(char::from(p).to_ascii_lowercase())? {
                Role::Pawn | Role::King => return None,
                r => Some(r),
            },
        };
        if body.len() < 2 {
            return None;
        }
        let (head, to) = body.split_at(body.len() - 2);
        let to = Square::from_ascii(to).ok()?;
        let (role, head) = match head {
            [c, rest @ ..] if b"NBRQK".contains(c) => {
                (Role::from_char(char::from(*c).to_ascii_lowercase())?, rest)
            }
            [b'P', rest @ ..] => (Role::Pawn, rest),
            _ => (Role::Pawn, head),
        };
        let head = match head {
            [rest @ .., b'x' | b':'] => rest,
            _ => head,
        };
        let (file, rank) = match head {
            [] => (None, None),
            [f @ b'a'..=b'h'] => (Some(File::new(u32::from(f - b'a'))), None),
            [r @ b'1'..=b'8'] => (None, Some(Rank::new(u32::from(r - b'1')))),
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => (
                Some(File::new(u32::from(f - b'a'))),
                Some(Rank::new(u32::from(r - b'1'))),
            ),
            _ => return None,
        };
        if promotion.is_some() && role != Role::Pawn {
            return None;
        }
        Some(SanText::Move {
            role,
            file,
            rank,
            to,
            promotion,
        })
    }
}

/// Whether `text` reads as a move in any notation [`parse_move_among`] accepts (syntax
/// only, no position).
pub(crate) fn is_move_text(text: &str) -> bool {
    MoveText::parse(text).is_some() || SanText::parse(text).is_some()
}

/// The move of `legal` a SAN text names (see [`Position::parse_san`]).
pub fn parse_san_among(text: &str, legal: &[Move]) -> Result<Move, MoveError> {
    let san = SanText::parse(text).ok_or_else(|| MoveError::Syntax(text.to_string()))?;
    let fits = |m: &&Move| match san {
        SanText::Castle(king_side) => {
            m.kind == MoveKind::Castle && (m.to.file() > m.from.file()) == king_side
        }
        SanText::Move {
            role,
            file,
            rank,
            to,
            promotion,
        } => {
            m.kind != MoveKind::Castle
                && m.role == role
                && m.to == to
                && file.is_none_or(|f| m.from.file() == f)
                && rank.is_none_or(|r| m.from.rank() == r)
                && match m.promotion {
                    Some(p) => promotion.unwrap_or(Role::Queen) == p,
                    None => promotion.is_none(),
                }
        }
    };
    let mut found = legal.iter().filter(fits);
    match (found.next(), found.next()) {
        (Some(m), None) => Ok(*m),
        (None, _) => Err(MoveError::Illegal(text.to_string())),
        (Some(a), Some(b)) => {
            let mut candidates: Vec<String> = [a, b]
                .into_iter()
                .chain(found)
                .map(|m| san_among(m, legal))
                .collect();
            candidates.sort();
            Err(MoveError::Ambiguous {
                text: text.to_string(),
                candidates,
            })
        }
    }
}

/// The move of `legal` a text names in UCI, long algebraic notation or SAN (see
/// [`Position::parse_move`]).
pub fn parse_move_among(text: &str, legal: &[Move]) -> Result<Move, MoveError> {
    let Some(t) = MoveText::parse(text) else {
        return parse_san_among(text, legal);
    };
    let piece = strip_marks(text)
        .chars()
        .next()
        .filter(|c| c.is_ascii_uppercase())
        .and_then(|c| Role::from_char(c.to_ascii_lowercase()));
    legal
        .iter()
        .find(|m| {
            m.from == t.from
                && m.to == t.to
                && match m.promotion {
                    Some(p) => t.promotion.unwrap_or(Role::Queen) == p,
                    None => t.promotion.is_none(),
                }
        })
        .filter(|m| piece.is_none_or(|r| r == m.role))
        .copied()
        .ok_or_else(|| MoveError::Illegal(text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use proptest::prelude::*;
    use rand::{Rng, SeedableRng};

    fn pos(fen: &str) -> Position {
        fen.parse().unwrap()
    }

    fn san(p: &Position, uci: &str, rules: &RuleSet) -> String {
        p.san(&p.parse_uci(uci, rules).unwrap(), rules)
    }

    #[test]
    fn writes_san() {
        let r = RuleSet::chesscom();
        let start = Position::startpos();
        assert_eq!(san(&start, "e2e4", &r), "e4");
        assert_eq!(san(&start, "b1c3", &r), "Nc3");
        // Captures, en passant, promotions with and without capture.
        let p = pos("r3k2r/1P4P1/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1");
        assert_eq!(san(&p, "e5d6", &r), "exd6");
        assert_eq!(san(&p, "e5e6", &r), "e6");
        assert_eq!(san(&p, "b7a8n", &r), "bxa8=N");
        assert_eq!(san(&p, "b7b8q", &r), "b8=Q");
        assert_eq!(san(&p, "g7h8r", &r), "gxh8=R");
        assert_eq!(san(&p, "e1g1", &r), "O-O");
        assert_eq!(san(&p, "e1c1", &r), "O-O-O");
        // The rooks on a1 and h1 both reach d1? No: the king is between. a1-d1 only.
        assert_eq!(san(&p, "a1d1", &r), "Rd1");
        assert_eq!(san(&p, "a1a8", &r), "Rxa8");
        // Disambiguation by file, by rank, by square.
        let p = pos("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
        assert_eq!(san(&p, "b1d2", &r), "Nbd2");
        assert_eq!(san(&p, "f1g3", &r), "Ng3");
        let p = pos("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
        assert_eq!(san(&p, "a1a3", &r), "R1a3");
        assert_eq!(san(&p, "a5a3", &r), "R5a3");
        let p = pos("4k3/8/8/8/8/Q1Q5/8/Q3K3 w - - 0 1");
        assert_eq!(san(&p, "a3b2", &r), "Qa3b2");
        assert_eq!(san(&p, "c3b2", &r), "Qcb2");
        assert_eq!(san(&p, "a1b2", &r), "Q1b2");
        // Fog of war: the king may walk into attack, and a pinned piece still counts.
        let p = pos("4k3/8/8/8/4r3/8/2N1N3/4K3 w - - 0 1");
        assert_eq!(san(&p, "e2d4", &r), "Ned4");
        assert_eq!(san(&p, "e1f1", &r), "Kf1");
        // Thesis rules: promotion to a queen only, still written.
        assert_eq!(
            san(
                &pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1"),
                "a7a8",
                &RuleSet::thesis()
            ),
            "a8=Q"
        );
    }

    #[test]
    fn reads_every_notation() {
        let r = RuleSet::chesscom();
        let p = pos("r3k2r/1P4P1/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1");
        let uci = |t: &str| p.parse_move(t, &r).map(|m| m.uci());
        assert_eq!(uci("exd6").unwrap(), "e5d6");
        assert_eq!(uci("exd6!?").unwrap(), "e5d6");
        assert_eq!(uci("e5d6").unwrap(), "e5d6");
        assert_eq!(uci("O-O").unwrap(), "e1g1");
        assert_eq!(uci("0-0-0+").unwrap(), "e1c1");
        assert_eq!(uci("Ke1g1").unwrap(), "e1g1");
        assert_eq!(uci("bxa8=N#").unwrap(), "b7a8n");
        assert_eq!(uci("bxa8N").unwrap(), "b7a8n");
        assert_eq!(uci("b8").unwrap(), "b7b8q");
        assert_eq!(uci("b7b8=R").unwrap(), "b7b8r");
        assert_eq!(uci("b7b8r").unwrap(), "b7b8r");
        assert_eq!(uci("Ra1xa8").unwrap(), "a1a8");
        assert_eq!(uci("Rxa8").unwrap(), "a1a8");
        assert_eq!(uci("Ra8").unwrap(), "a1a8");
        assert_eq!(uci("Pe5e6").unwrap(), "e5e6");
        // Errors: not a move, illegal, wrong piece letter, ambiguous.
        assert_eq!(uci("Nf9"), Err(MoveError::Syntax("Nf9".into())));
        assert_eq!(uci("hello"), Err(MoveError::Syntax("hello".into())));
        assert_eq!(uci("Kxb8=Q"), Err(MoveError::Syntax("Kxb8=Q".into())));
        assert_eq!(uci("Nf3"), Err(MoveError::Illegal("Nf3".into())));
        assert_eq!(uci("Qa1a8"), Err(MoveError::Illegal("Qa1a8".into())));
        assert_eq!(uci("e5e7"), Err(MoveError::Illegal("e5e7".into())));
        assert_eq!(uci("Ke1e2").unwrap(), "e1e2");
        let p3 = pos("4k3/8/8/8/R6R/8/8/4K3 w - - 0 1");
        assert_eq!(
            p3.parse_move("Rd4", &r),
            Err(MoveError::Ambiguous {
                text: "Rd4".into(),
                candidates: vec!["Rad4".into(), "Rhd4".into()],
            })
        );
        assert_eq!(p3.parse_move("Rhd4", &r).unwrap().uci(), "h4d4");
        // Castling rights gone: O-O is illegal.
        let p2 = pos("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1");
        assert_eq!(
            p2.parse_move("O-O", &r),
            Err(MoveError::Illegal("O-O".into()))
        );
        assert_eq!(
            p2.parse_move("O-O", &RuleSet::thesis()).unwrap().uci(),
            "e1g1"
        );
    }

    /// Plays a random game and checks SAN at every position: unique, and read back as
    /// the same move (by SAN and by the all-notation reader, as is the UCI text).
    /// Returns how many castlings, en passant captures, promotions and disambiguated
    /// piece moves were checked.
    fn check_playout(seed: u64, rules: RuleSet) -> [usize; 4] {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
        let mut game = Game::new(Position::startpos(), rules);
        let mut seen_kinds = [0; 4];
        for _ in 0..300 {
            let pos = game.position().clone();
            let legal = pos.legal_moves(&rules);
            if legal.is_empty() {
                break;
            }
            let mut seen = std::collections::HashSet::new();
            for m in &legal {
                let s = pos.san(m, &rules);
                assert!(seen.insert(s.clone()), "{s} twice in {pos}");
                assert_eq!(pos.parse_san(&s, &rules).as_ref(), Ok(m), "{s} in {pos}");
                assert_eq!(pos.parse_move(&s, &rules).as_ref(), Ok(m), "{s} in {pos}");
                assert_eq!(pos.parse_move(&m.uci(), &rules).as_ref(), Ok(m));
                seen_kinds[0] += usize::from(m.kind == MoveKind::Castle);
                seen_kinds[1] += usize::from(m.kind == MoveKind::EnPassant);
                seen_kinds[2] += usize::from(m.promotion.is_some());
                seen_kinds[3] += usize::from(
                    m.role != Role::Pawn
                        && m.kind != MoveKind::Castle
                        && s.len() > 3 + usize::from(m.is_capture()),
                );
            }
            // Avoid king captures while there is another move, so that games get long
            // enough for promotions and castling.
            let quiet: Vec<Move> = legal
                .iter()
                .filter(|m| !m.captures_king())
                .copied()
                .collect();
            let pool = if quiet.is_empty() { &legal } else { &quiet };
            let m = pool[rng.random_range(0..pool.len())];
            if game.play(&m).is_some() {
                break;
            }
        }
        seen_kinds
    }

    #[test]
    fn san_round_trips_in_fixed_random_games_covering_every_kind() {
        for rules in [RuleSet::thesis(), RuleSet::chesscom()] {
            let mut total = [0; 4];
            for seed in 0..12 {
                for (t, n) in total.iter_mut().zip(check_playout(seed, rules)) {
                    *t += n;
                }
            }
            let [castles, ep, promotions, disambiguated] = total;
            assert!(
                castles > 0 && promotions > 0 && disambiguated > 0,
                "{total:?}"
            );
            assert_eq!(ep > 0, rules.en_passant, "{total:?}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
        #[test]
        fn san_round_trips_in_random_games(seed in any::<u64>()) {
            check_playout(seed, RuleSet::thesis());
            check_playout(seed, RuleSet::chesscom());
        }
    }
}
