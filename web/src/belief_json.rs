//! The belief overlay's JSON ([`Beliefs::json`]): what a belief bot believed at a ply of
//! a saved game, replayed from the game record by [`fow_analysis::belief_overlay`] (the
//! bot, rebuilt from its spec and seed, replays its own belief from its observations
//! under the run's node budget). The whole game's overlay of one side is replayed once
//! and kept ([`Beliefs`]), so that stepping through a game costs one replay.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use fow_analysis::{belief_overlay, replay_budget, BeliefOverlay, OverlayPlies};
use fow_players::Budget;
use fow_records::{replay_frames, TournamentConfig, CONFIG_FILE};
use fow_variants::{Color, Role};
use serde_json::{json, Value};

use crate::game_json::saved_game;

/// How many games' overlays are kept.
pub const KEPT: usize = 64;

/// A game's side: its folder, its number and whether White.
type SideKey = (PathBuf, u64, bool);

/// The overlays replayed so far, by folder, game and side.
#[derive(Default)]
pub struct Beliefs {
    kept: Mutex<HashMap<SideKey, Arc<Option<BeliefOverlay>>>>,
}

impl Beliefs {
    /// The belief of `side` in game `number` of the run in `dir` when frame `ply` is shown
    /// (the position after `ply` moves): the belief it held before its move from that
    /// position, or before its last move before it.
    pub fn json(&self, dir: &Path, number: u64, side: Color, ply: usize) -> Result<Value, String> {
        let game = saved_game(dir, number)?;
        let budget = if dir.join(CONFIG_FILE).is_file() {
            let cfg = TournamentConfig::load(dir).map_err(|e| e.to_string())?;
            match replay_budget(&cfg) {
                Some(b) => b,
                None => {
                    return Ok(json!({
                        "message": "this run played under a clock: its bots' beliefs do not replay",
                    }))
                }
            }
        } else {
            Budget::default()
        };
        let key = (dir.to_path_buf(), number, side.is_white());
        let kept = self
            .kept
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
            .cloned();
        let overlay = match kept {
            Some(o) => o,
            None => {
                let o = Arc::new(belief_overlay(&game, side, &budget, OverlayPlies::Every));
                let mut map = self.kept.lock().unwrap_or_else(|e| e.into_inner());
                if map.len() >= KEPT {
                    map.clear();
                }
                map.insert(key, o.clone());
                o
            }
        };
        let Some(overlay) = overlay.as_ref() else {
            return Ok(json!({
                "message": format!(
                    "{} is not a belief bot whose belief replays from this game (see the manual's Belief overlay)",
                    game.player(side)
                ),
            }));
        };
        // The turn before the move from frame `ply`, else the last one before it.
        let Some(turn) = overlay.turns.iter().rev().find(|t| t.ply <= ply + 1) else {
            return Ok(json!({
                "spec": overlay.spec,
                "message": "no move of this side yet",
            }));
        };
        let frames = replay_frames(&game);
        let before = turn.ply - 1;
        let view = frames.get(before).map(|f| {
            let v = f.view(side);
            fow_analysis::cells(v.board(), v.visible())
        });
        let enemy = !side;
        let heat: serde_json::Map<String, Value> = turn
            .heat
            .as_ref()
            .map(|h| {
                Role::ALL
                    .into_iter()
                    .map(|r| (r.of(enemy).char().to_string(), json!(h.of(r))))
                    .collect()
            })
            .unwrap_or_default();
        Ok(json!({
            "spec": overlay.spec,
            "seed": overlay.seed.to_string(),
            "nodes": overlay.nodes,
            "method": format!(
                "Replayed from the game record: {} rebuilt with seed {} and asked for each of its moves with the observations it had{}; it played every recorded move.",
                overlay.spec,
                overlay.seed,
                overlay.nodes.map_or(String::new(), |n| format!(", {n} nodes a move"))
            ),
            "turn": {
                "ply": before,
                "move": turn.uci,
                "boards": turn.boards,
                "state": turn.state,
                "exact": matches!(turn.state, fow_analysis::BeliefState::Exact),
                "truth_rank": turn.truth_rank,
                "truth_in": turn.truth_rank.is_some(),
                "truth_share": turn.truth_share,
                "view": view,
                "heat": heat,
                "subgame": turn.subgame,
            },
        }))
    }
}
