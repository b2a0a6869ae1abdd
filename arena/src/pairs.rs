//! The game pairs of a paired schedule (`fow match`), scored for the first player of
//! each meeting: the raw material of a match's statistics (pentanomial counts, SPRT).

use std::collections::HashMap;

use fow_records::GameResult;
use fow_records::GameRow;
use fow_records::RecordError;
use fow_records::TournamentConfig;

/// One finished pair: the same game seed with colours swapped.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairResult {
    /// The pair's number in the schedule (its games are `2 * pair` and `2 * pair + 1`).
    pub pair: u64,
    /// The other player of the meeting (an index into the players; the first is the
    /// first player of the meeting, index 0 in a gauntlet).
    pub opponent: usize,
    /// The first player's score in the pair's first game (where it has White) and in its
    /// second (where it has Black): 0, 0.5 or 1 each.
    pub scores: [f64; 2],
}

impl PairResult {
    /// The first player's points in the pair: 0, 0.5, 1, 1.5 or 2.
    pub fn points(&self) -> f64 {
        self.scores[0] + self.scores[1]
    }
}

/// The first player's score in a game it played with White (`white`) or Black.
pub fn score_of(result: GameResult, white: bool) -> f64 {
    match (result, white) {
        (GameResult::Draw, _) => 0.5,
        (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => 1.0,
        _ => 0.0,
    }
}

/// Every complete pair among `games` (rows of a paired schedule, any order), in schedule
/// order; a pair with a game missing is left out. An error for a schedule that is not
/// paired or a row that does not fit it.
pub fn pair_results(
    config: &TournamentConfig,
    games: &[GameRow],
) -> Result<Vec<PairResult>, RecordError> {
    if !config.paired {
        return Err(RecordError::Settings(
            "the games are not played in pairs (not a match)".into(),
        ));
    }
    let schedule = config.pairings();
    let by_id: HashMap<u64, &GameRow> = games.iter().map(|g| (g.id, g)).collect();
    let mut pairs = Vec::new();
    for k in 0..schedule.len() as u64 / 2 {
        let (Some(g0), Some(g1)) = (by_id.get(&(2 * k)), by_id.get(&(2 * k + 1))) else {
            continue;
        };
        let p0 = &schedule[2 * k as usize];
        let result = |g: &GameRow| {
            g.game_result()
                .map_err(|e| RecordError::Settings(format!("game {}: {e}", g.id)))
        };
        pairs.push(PairResult {
            pair: k,
            opponent: p0.black,
            scores: [score_of(result(g0)?, true), score_of(result(g1)?, false)],
        });
    }
    Ok(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_variants::RuleSet;

    fn row(id: u64, result: &str) -> GameRow {
        GameRow {
            id,
            result: result.into(),
            ..GameRow::default()
        }
    }

    #[test]
    fn pairs_score_the_first_player_with_both_colours() {
        let mut c = TournamentConfig::new(
            vec!["A".into(), "B".into()],
            3,
            RuleSet::thesis(),
            Some(1),
            None,
        )
        .unwrap();
        c.gauntlet = true;
        c.paired = true;
        // Pair 0: A wins with White, draws with Black; pair 1: A loses with White and wins
        // with Black; pair 2 is
        // missing its second game.
        let games = [
            row(0, "1-0"),
            row(1, "1/2-1/2"),
            row(3, "0-1"),
            row(2, "0-1"),
            row(4, "1-0"),
        ];
        let p = pair_results(&c, &games).unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!((p[0].pair, p[0].opponent, p[0].scores), (0, 1, [1.0, 0.5]));
        // In game 3 A has Black: 0-1 is A's win.
        assert_eq!(p[1].scores, [0.0, 1.0]);
        assert_eq!(p[1].points(), 1.0);
        c.paired = false;
        assert!(pair_results(&c, &games).is_err());
    }
}
