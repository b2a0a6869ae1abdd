//! The live feed of a run (`--live`, [`RunPlan::live`](crate::RunPlan::live)): who may
//! play while it is written. Each game's file ([`fow_records::LiveFile`]) holds both
//! sides' moves while the game runs, so no player may be able to read it: built-in bots
//! read no files, and a program player in the sandbox (`sandbox=bwrap`) is shown nothing
//! of the results folder ([`fow_players::Player::hide`]); a program player outside it
//! runs with the user's rights and could.

use fow_players::PlayerSpec;
use fow_records::seed::is_program;
use fow_records::{LiveFile, RecordError};
use fow_variants::Move;

use crate::play::MoveSink;

/// Each move goes to the game's live file as it is played.
impl MoveSink for LiveFile {
    fn moved(&mut self, m: &Move) {
        self.push(m);
    }
}

/// Refuses a live feed for a run of `players` (their specs as given) when one of them is
/// a program player (`exec:`, `uci:`) outside the sandbox, saying why and what to do.
///
/// ```
/// # use fow_arena::check_live;
/// let specs = |s: &[&str]| s.iter().map(|p| p.to_string()).collect::<Vec<_>>();
/// assert!(check_live(&specs(&["RandomMove", "exec:cmd=./bot,sandbox=bwrap"])).is_ok());
/// let e = check_live(&specs(&["RandomMove", "exec:cmd=./bot,name=Bot"])).unwrap_err();
/// assert!(e.to_string().contains("Bot runs without the sandbox"), "{e}");
/// ```
pub fn check_live(players: &[String]) -> Result<(), RecordError> {
    let open: Vec<String> = players
        .iter()
        .filter(|p| is_program(p))
        .filter(|p| {
            p.parse::<PlayerSpec>()
                .is_ok_and(|s| s.param("sandbox") != Some("bwrap"))
        })
        .map(|p| fow_players::player_label(p))
        .collect();
    if open.is_empty() {
        return Ok(());
    }
    let who = match open.as_slice() {
        [one] => format!("{one} runs"),
        many => format!("{} run", many.join(", ")),
    };
    Err(RecordError::Settings(format!(
        "--live writes both sides' moves into the results folder's live/ as each game is played, and {who} without the sandbox, so it could read its opponent's moves there: add sandbox=bwrap to its spec (see docs/src/protocol.md), or leave out --live"
    )))
}
