//! The PGN tags fow writes and reads besides the standard ones.

/// PGN tag naming the rule set as `RuleSet`'s `Display` writes it (`thesis`,
/// `chesscom`, `custom(...)`).
pub const RULES_TAG: &str = "Rules";
/// PGN tag with every rule switch as `key=value` text (informative; [`RULES_TAG`] wins).
pub const SWITCHES_TAG: &str = "RuleSwitches";
/// PGN tag with the game's seed.
pub const SEED_TAG: &str = "Seed";
/// PGN tag with the game's number in its tournament.
pub const GAME_TAG: &str = "FowGame";
/// PGN tag with the details of a player failure (the `detail` column of `games.csv`).
/// A game read from `games.csv` carries its non-empty detail as this tag in
/// [`SavedGame::tags`](crate::SavedGame::tags).
pub const DETAIL_TAG: &str = "FowDetail";
/// The `Variant` tag of fog-of-war games, ours and chess.com's.
pub const VARIANT: &str = "Fog of War";
