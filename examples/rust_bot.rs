//! A fog-of-war bot in Rust on `fow-variants`, speaking the fow bot protocol
//! (PROTOCOL.md) on stdin/stdout.
//!
//! It rebuilds its observation from the fog-FEN views (so it can check the legal moves
//! the arena sent), captures the heaviest visible piece it can, and otherwise plays a
//! random legal move drawn from the game's seed.
//!
//! ```sh
//! cargo build --release --example rust_bot
//! fow tournament --players "CaptureLargest,exec:cmd=target/release/examples/rust_bot,name=RustBot"
//! ```

use std::io::{self, BufRead, Write};

use fow_variants::{FogView, Observation, Role, RuleSet};
use serde_json::{json, Value};

/// The thesis's piece weights.
fn weight(role: Role) -> u32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 10,
        Role::King => 100,
    }
}

/// A small seeded generator (SplitMix64), enough for tie-breaking.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

fn main() -> io::Result<()> {
    let stdin = io::stdin().lock();
    let mut out = io::stdout().lock();
    let mut rules = RuleSet::thesis();
    let mut rng = Rng(0);
    let mut say = |v: Value| -> io::Result<()> {
        writeln!(out, "{v}")?;
        out.flush()
    };
    for line in stdin.lines() {
        let msg: Value = serde_json::from_str(&line?).map_err(io::Error::other)?;
        match msg["type"].as_str().unwrap_or("") {
            "hello" => {
                say(json!({"type": "hello", "protocol": 1, "name": "RustBot", "options": []}))?
            }
            "new_game" => {
                rules = serde_json::from_value(msg["rules"].clone()).map_err(io::Error::other)?;
                rng = Rng(msg["seed"].as_u64().unwrap_or(0));
                say(json!({"type": "ready"}))?;
            }
            "turn" => {
                let view: FogView = msg["view"]
                    .as_str()
                    .unwrap_or("")
                    .parse()
                    .map_err(io::Error::other)?;
                let ply = msg["ply"].as_u64().unwrap_or(0) as u32;
                let obs = Observation::from_views(view, None, ply, &rules);
                let moves = obs.legal_moves();
                let best = moves.iter().map(|m| m.capture.map_or(0, weight)).max();
                let top: Vec<_> = moves
                    .iter()
                    .filter(|m| Some(m.capture.map_or(0, weight)) == best)
                    .collect();
                let answer = if top.is_empty() {
                    json!({"type": "error", "message": "no legal move"})
                } else {
                    json!({"type": "move", "move": top[rng.below(top.len())].uci()})
                };
                say(answer)?;
            }
            "quit" => break,
            _ => {}
        }
    }
    Ok(())
}
