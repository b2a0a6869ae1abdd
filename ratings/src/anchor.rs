//! Fixing the rating scale's origin.

use serde::{Deserialize, Serialize};

use crate::results::ResultMatrix;

/// Both fits determine ratings only up to a common shift; the anchor fixes it by giving
/// one player a chosen rating.
///
/// ```
/// use fow_ratings::{Anchor, ResultMatrix};
/// let m = ResultMatrix::new(vec!["Bot".into(), "RandomMove".into()]);
/// assert_eq!(Anchor::random_move_or_first(&m), Anchor { index: 1, value: 0.0 });
/// let m = ResultMatrix::new(vec!["Bot".into(), "Other".into()]);
/// assert_eq!(Anchor::random_move_or_first(&m), Anchor { index: 0, value: 0.0 });
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Anchor {
    /// Index of the anchored player.
    pub index: usize,
    /// Rating given to that player.
    pub value: f64,
}

impl Anchor {
    /// The thesis's convention: the player named `RandomMove` is rated 0; if there is no such
    /// player, the first player (index 0) is rated 0.
    pub fn random_move_or_first(matrix: &ResultMatrix) -> Anchor {
        Anchor {
            index: matrix.index_of("RandomMove").unwrap_or(0),
            value: 0.0,
        }
    }

    /// Whether the anchor names a player of a matrix with `players` players.
    pub(crate) fn in_range(&self, players: usize) -> bool {
        self.index < players
    }
}
