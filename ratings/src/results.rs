//! The round-robin result matrix.

use serde::{Deserialize, Serialize};

use crate::error::MatrixError;
use crate::score::{Score, Wdl};

/// Results of a tournament between named players, split by colour.
///
/// Cell `(i, j)` holds the results of player `i` playing **White** against player `j`, from
/// `i`'s point of view; the diagonal is always empty. The matrix is always square, with one
/// row per name. Accessors taking player indices return `None` for an index out of range.
///
/// ```
/// use fow_ratings::{ResultMatrix, Score};
/// let mut m = ResultMatrix::new(vec!["A".into(), "B".into()]);
/// m.add_game(0, 1, Score::Win)?; // A (White) beats B
/// m.add_game(1, 0, Score::Draw)?; // B (White) draws with A
/// assert_eq!(m.points_as_white(0, 1), Some(1.0));
/// assert_eq!(m.points_as_black(0, 1), Some(0.5));
/// assert_eq!(m.player_points(0), Some(1.5));
/// assert_eq!(m.player_games(1), Some(2));
/// # Ok::<(), fow_ratings::MatrixError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "RawResultMatrix")]
pub struct ResultMatrix {
    names: Vec<String>,
    cells: Vec<Vec<Wdl>>,
}

/// Unchecked serde form of [`ResultMatrix`]; validated by `from_cells` on deserialisation.
#[derive(Deserialize)]
struct RawResultMatrix {
    names: Vec<String>,
    cells: Vec<Vec<Wdl>>,
}

impl TryFrom<RawResultMatrix> for ResultMatrix {
    type Error = MatrixError;

    fn try_from(raw: RawResultMatrix) -> Result<Self, Self::Error> {
        ResultMatrix::from_cells(raw.names, raw.cells)
    }
}

/// Combined results of one unordered pair of players that met at least once.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Pair {
    /// Lower player index.
    pub i: usize,
    /// Higher player index.
    pub j: usize,
    /// Games between them, both colours.
    pub games: f64,
    /// Points of `i` in those games.
    pub points_i: f64,
}

impl ResultMatrix {
    /// An empty matrix (no games) for these players.
    pub fn new(names: Vec<String>) -> ResultMatrix {
        let n = names.len();
        ResultMatrix {
            names,
            cells: vec![vec![Wdl::default(); n]; n],
        }
    }

    /// A matrix from explicit cells: `cells[i][j]` = results of `i` as White against `j`.
    ///
    /// Fails unless `cells` is `n × n` for `n` names with an empty diagonal.
    ///
    /// ```
    /// use fow_ratings::{ResultMatrix, Wdl};
    /// let e = Wdl::default();
    /// let m = ResultMatrix::from_cells(
    ///     vec!["A".into(), "B".into()],
    ///     vec![vec![e, Wdl::new(7, 0, 3)], vec![Wdl::new(2, 1, 7), e]],
    /// )?;
    /// assert_eq!(m.player_points(0), Some(7.0 + 7.5));
    /// # Ok::<(), fow_ratings::MatrixError>(())
    /// ```
    pub fn from_cells(names: Vec<String>, cells: Vec<Vec<Wdl>>) -> Result<Self, MatrixError> {
        let players = names.len();
        if cells.len() != players {
            return Err(MatrixError::NotSquare {
                players,
                row: None,
                found: cells.len(),
            });
        }
        for (row, cells_row) in cells.iter().enumerate() {
            if cells_row.len() != players {
                return Err(MatrixError::NotSquare {
                    players,
                    row: Some(row),
                    found: cells_row.len(),
                });
            }
            if !cells_row[row].is_empty() {
                return Err(MatrixError::NonEmptyDiagonal { player: row });
            }
        }
        Ok(ResultMatrix { names, cells })
    }

    /// Number of players.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether there are no players.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Player names, in matrix order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Index of the first player with this exact name.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// All cells, row by row: `cells()[i][j]` = results of `i` as White against `j`.
    pub fn cells(&self) -> &[Vec<Wdl>] {
        &self.cells
    }

    /// Results of `white` playing White against `black`, from White's point of view.
    pub fn cell(&self, white: usize, black: usize) -> Option<Wdl> {
        self.cells.get(white)?.get(black).copied()
    }

    fn check_game(&self, white: usize, black: usize) -> Result<(), MatrixError> {
        let players = self.len();
        for index in [white, black] {
            if index >= players {
                return Err(MatrixError::PlayerOutOfRange { index, players });
            }
        }
        if white == black {
            return Err(MatrixError::SelfPlay { player: white });
        }
        Ok(())
    }

    /// Records one game; `score_for_white` is the result from White's point of view.
    pub fn add_game(
        &mut self,
        white: usize,
        black: usize,
        score_for_white: Score,
    ) -> Result<(), MatrixError> {
        self.check_game(white, black)?;
        self.cells[white][black].record(score_for_white);
        Ok(())
    }

    /// Records several games of `white` (as White) against `black` at once.
    pub fn add_results(&mut self, white: usize, black: usize, wdl: Wdl) -> Result<(), MatrixError> {
        self.check_game(white, black)?;
        self.cells[white][black].merge(wdl);
        Ok(())
    }

    /// Points of `i` playing White against `j`.
    pub fn points_as_white(&self, i: usize, j: usize) -> Option<f64> {
        Some(self.cell(i, j)?.points())
    }

    /// Points of `i` playing Black against `j`.
    pub fn points_as_black(&self, i: usize, j: usize) -> Option<f64> {
        Some(self.cell(j, i)?.reversed().points())
    }

    /// All results of `i` against `j` (both colours), from `i`'s point of view.
    pub fn head_to_head(&self, i: usize, j: usize) -> Option<Wdl> {
        let mut wdl = self.cell(i, j)?;
        wdl.merge(self.cell(j, i)?.reversed());
        Some(wdl)
    }

    /// All results of player `i` (both colours, all opponents).
    pub fn player_results(&self, i: usize) -> Option<Wdl> {
        let mut total = Wdl::default();
        for j in 0..self.len() {
            total.merge(self.head_to_head(i, j)?);
        }
        (i < self.len()).then_some(total)
    }

    /// Total points of player `i`.
    pub fn player_points(&self, i: usize) -> Option<f64> {
        (i < self.len()).then(|| {
            (0..self.len())
                .map(|j| self.cells[i][j].points() + self.cells[j][i].reversed().points())
                .sum()
        })
    }

    /// Total games of player `i`.
    pub fn player_games(&self, i: usize) -> Option<u64> {
        (i < self.len()).then(|| {
            (0..self.len())
                .map(|j| self.cells[i][j].games() + self.cells[j][i].games())
                .sum()
        })
    }

    /// Number of games in the whole matrix.
    pub fn total_games(&self) -> u64 {
        self.cells.iter().flatten().map(Wdl::games).sum()
    }

    /// Number of drawn games in the whole matrix.
    pub fn total_draws(&self) -> u64 {
        self.cells
            .iter()
            .flatten()
            .map(|wdl| u64::from(wdl.draws))
            .sum()
    }

    /// Every unordered pair `i < j` that met at least once, with colours merged.
    pub(crate) fn pairs(&self) -> Vec<Pair> {
        let n = self.len();
        let mut pairs = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                let a = self.cells[i][j];
                let b = self.cells[j][i];
                let games = (a.games() + b.games()) as f64;
                if games > 0.0 {
                    pairs.push(Pair {
                        i,
                        j,
                        games,
                        points_i: a.points() + b.reversed().points(),
                    });
                }
            }
        }
        pairs
    }

    /// The results among some of the players only: new player `k` is old player
    /// `players[k]`, and games against the players left out are dropped. Fails when an
    /// index is out of range or repeated.
    ///
    /// ```
    /// use fow_ratings::{ResultMatrix, Wdl};
    /// let mut m = ResultMatrix::new(vec!["A".into(), "B".into(), "C".into()]);
    /// m.add_results(0, 2, Wdl::new(1, 0, 0))?;
    /// m.add_results(2, 1, Wdl::new(0, 1, 0))?;
    /// let cb = m.subset(&[2, 1])?;
    /// assert_eq!(cb.names(), ["C", "B"]);
    /// assert_eq!(cb.cell(0, 1), Some(Wdl::new(0, 1, 0)));
    /// assert_eq!(cb.total_games(), 1);
    /// # Ok::<(), fow_ratings::MatrixError>(())
    /// ```
    pub fn subset(&self, players: &[usize]) -> Result<ResultMatrix, MatrixError> {
        let n = self.len();
        let mut seen = vec![false; n];
        for &index in players {
            if index >= n {
                return Err(MatrixError::PlayerOutOfRange { index, players: n });
            }
            if std::mem::replace(&mut seen[index], true) {
                return Err(MatrixError::RepeatedPlayer { index });
            }
        }
        let names = players.iter().map(|&k| self.names[k].clone()).collect();
        let cells = players
            .iter()
            .map(|&a| players.iter().map(|&b| self.cells[a][b]).collect())
            .collect();
        Ok(ResultMatrix { names, cells })
    }

    /// The same tournament with players reordered: new player `k` is old player `order[k]`.
    #[cfg(test)]
    pub(crate) fn permuted(&self, order: &[usize]) -> ResultMatrix {
        let names = order.iter().map(|&k| self.names[k].clone()).collect();
        let cells = order
            .iter()
            .map(|&a| order.iter().map(|&b| self.cells[a][b]).collect())
            .collect();
        ResultMatrix { names, cells }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: usize) -> Vec<String> {
        (1..=n).map(|k| format!("P{k}")).collect()
    }

    #[test]
    fn add_game_tracks_colours() {
        let mut m = ResultMatrix::new(names(3));
        m.add_game(0, 1, Score::Win).unwrap();
        m.add_game(0, 1, Score::Loss).unwrap();
        m.add_game(1, 0, Score::Loss).unwrap();
        m.add_game(2, 0, Score::Draw).unwrap();
        assert_eq!(m.cell(0, 1), Some(Wdl::new(1, 0, 1)));
        assert_eq!(m.cell(1, 0), Some(Wdl::new(0, 0, 1)));
        assert_eq!(m.points_as_white(0, 1), Some(1.0));
        assert_eq!(m.points_as_black(0, 1), Some(1.0));
        assert_eq!(m.points_as_black(0, 2), Some(0.5));
        assert_eq!(m.head_to_head(0, 1), Some(Wdl::new(2, 0, 1)));
        assert_eq!(m.head_to_head(1, 0), Some(Wdl::new(1, 0, 2)));
        assert_eq!(m.player_points(0), Some(2.5));
        assert_eq!(m.player_games(0), Some(4));
        assert_eq!(m.player_results(2), Some(Wdl::new(0, 1, 0)));
        assert_eq!(m.total_games(), 4);
        assert_eq!(m.total_draws(), 1);
        let total: f64 = (0..3).map(|i| m.player_points(i).unwrap()).sum();
        assert_eq!(total, 4.0);
    }

    #[test]
    fn subset_rejects_bad_and_repeated_indices() {
        let m = ResultMatrix::new(names(3));
        assert_eq!(
            m.subset(&[0, 3]),
            Err(MatrixError::PlayerOutOfRange {
                index: 3,
                players: 3
            })
        );
        assert_eq!(
            m.subset(&[1, 1]),
            Err(MatrixError::RepeatedPlayer { index: 1 })
        );
        assert!(m.subset(&[]).unwrap().is_empty());
    }

    #[test]
    fn bad_indices_are_errors_not_panics() {
        let mut m = ResultMatrix::new(names(2));
        assert_eq!(
            m.add_game(0, 2, Score::Win),
            Err(MatrixError::PlayerOutOfRange {
                index: 2,
                players: 2
            })
        );
        assert_eq!(
            m.add_results(1, 1, Wdl::new(1, 0, 0)),
            Err(MatrixError::SelfPlay { player: 1 })
        );
        assert_eq!(m.cell(2, 0), None);
        assert_eq!(m.points_as_black(0, 5), None);
        assert_eq!(m.player_points(2), None);
        assert_eq!(m.player_games(2), None);
        assert_eq!(m.player_results(2), None);
        assert_eq!(m.total_games(), 0);
    }

    #[test]
    fn from_cells_validates_shape() {
        let e = Wdl::default();
        let x = Wdl::new(1, 0, 0);
        assert!(matches!(
            ResultMatrix::from_cells(names(2), vec![vec![e, x]]),
            Err(MatrixError::NotSquare { row: None, .. })
        ));
        assert_eq!(
            ResultMatrix::from_cells(names(2), vec![vec![e, x], vec![e]]),
            Err(MatrixError::NotSquare {
                players: 2,
                row: Some(1),
                found: 1
            })
        );
        assert_eq!(
            ResultMatrix::from_cells(names(2), vec![vec![e, x], vec![e, x]]),
            Err(MatrixError::NonEmptyDiagonal { player: 1 })
        );
        let m = ResultMatrix::from_cells(names(2), vec![vec![e, x], vec![x, e]]).unwrap();
        assert_eq!(m.index_of("P2"), Some(1));
        assert_eq!(m.index_of("P3"), None);
    }

    #[test]
    fn pairs_merge_colours_and_skip_unplayed() {
        let mut m = ResultMatrix::new(names(3));
        m.add_results(0, 1, Wdl::new(3, 2, 1)).unwrap();
        m.add_results(1, 0, Wdl::new(1, 0, 4)).unwrap();
        let pairs = m.pairs();
        assert_eq!(
            pairs,
            vec![Pair {
                i: 0,
                j: 1,
                games: 11.0,
                points_i: 4.0 + 4.0
            }]
        );
    }

    #[test]
    fn serde_round_trip_validates() {
        let mut m = ResultMatrix::new(names(2));
        m.add_game(0, 1, Score::Win).unwrap();
        let json = serde_json::to_string(&m).unwrap();
        let back: ResultMatrix = serde_json::from_str(&json).unwrap();
        assert_eq!(back, m);
        let bad = r#"{"names":["A","B"],"cells":[[{"wins":1,"draws":0,"losses":0}]]}"#;
        assert!(serde_json::from_str::<ResultMatrix>(bad).is_err());
    }

    #[test]
    fn permuted_reorders_rows_and_columns() {
        let mut m = ResultMatrix::new(names(3));
        m.add_results(0, 2, Wdl::new(5, 1, 2)).unwrap();
        let p = m.permuted(&[2, 0, 1]);
        assert_eq!(p.names()[0], "P3");
        assert_eq!(p.cell(1, 0), Some(Wdl::new(5, 1, 2)));
    }
}
