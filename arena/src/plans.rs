//! What the two runs people start play when they are not told: a tournament's players
//! and games, a match's game pairs. `fow tournament`, `fow match` and the Python
//! package's `fow.tournament` and `fow.match` take them from here.

/// Games per ordered pair of a tournament when not given.
pub const TOURNAMENT_GAMES: u32 = 20;
/// Games of a match against each opponent without an SPRT, when not given.
pub const MATCH_GAMES: u32 = 100;
/// The most games of a match with an SPRT against its opponent, when not given.
pub const SPRT_GAMES: u32 = 20_000;

/// The players of a new tournament: `players`, else every bot of
/// [`fow_players::default_players`]; with a gauntlet, its player first (and left out of
/// the default players; given players are kept as given).
///
/// ```
/// use fow_arena::tournament_players;
/// let given = vec!["RandomMove".to_string(), "CaptureKing".to_string()];
/// assert_eq!(tournament_players(Some(given.clone()), None), given);
/// let gauntlet = tournament_players(None, Some("Supporter"));
/// assert_eq!(gauntlet[0], "Supporter");
/// assert_eq!(gauntlet.iter().filter(|p| *p == "Supporter").count(), 1);
/// ```
pub fn tournament_players(players: Option<Vec<String>>, gauntlet: Option<&str>) -> Vec<String> {
    let given = players.is_some();
    let mut players = players.unwrap_or_else(|| {
        fow_players::default_players()
            .into_iter()
            .map(String::from)
            .collect()
    });
    if let Some(first) = gauntlet {
        if !given {
            players.retain(|p| p != first);
        }
        players.insert(0, first.to_string());
    }
    players
}

/// The game pairs against each of `opponents` opponents of a new match of `games` games
/// each (default [`MATCH_GAMES`], or [`SPRT_GAMES`] at most with an SPRT): an even
/// number, since games come in pairs; an SPRT takes one opponent.
///
/// ```
/// use fow_arena::{match_pairs, MATCH_GAMES};
/// assert_eq!(match_pairs(None, false, 3), Ok(MATCH_GAMES / 2));
/// assert_eq!(match_pairs(Some(8), true, 1), Ok(4));
/// assert!(match_pairs(Some(7), false, 1).is_err());
/// assert!(match_pairs(None, true, 2).is_err());
/// ```
pub fn match_pairs(games: Option<u32>, sprt: bool, opponents: usize) -> Result<u32, String> {
    if sprt && opponents != 1 {
        return Err("an SPRT takes one opponent (a gauntlet has several)".into());
    }
    let games = games.unwrap_or(match sprt {
        true => SPRT_GAMES,
        false => MATCH_GAMES,
    });
    if games == 0 || games % 2 == 1 {
        return Err(format!(
            "the games of a match must be a positive even number (games come in pairs), not {games}"
        ));
    }
    Ok(games / 2)
}
