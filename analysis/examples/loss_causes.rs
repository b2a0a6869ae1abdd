//! Where a bot's lost games turned: for each game of a results folder (or `games.csv`,
//! or PGN) that the bot lost, the first lasting loss of material to a capture, and
//! whether the capturing piece stood where the bot could see it when it made the move
//! before. From the repository root:
//!
//! ```text
//! cargo run --release -p fow-analysis --example loss_causes -- results/strength/vs-pbl-thesis BeliefSearch
//! ```
//!
//! The arguments are the games and a prefix of the bot's name (`BeliefSearch` matches
//! `BeliefSearch:eval=tapered`). A lasting loss is an opponent's capture after which the
//! bot's material balance (pawn 1, knight and bishop 3, rook 5, queen 9), counted after
//! its own reply, is at least 3 pawns below what it was before its move preceding the
//! capture: a recaptured trade is not one. "Seen" means the capturing piece's square was
//! in the bot's view (`FogView::visible`, the arena's own rule) when it chose that move;
//! otherwise the piece was in its fog. Losses with no lasting material loss are
//! classified by the piece that took the king, the same way. Prints counts by kind and
//! by the piece lost, then one line per lost game.

use std::path::Path;
use std::process::ExitCode;

use fow_records::{load_games, replay_frames, Frame, GameResult};
use fow_variants::{Board, Color, Role, RuleSet, Square};

/// The bot's material minus the opponent's, in pawns (kings count 0).
fn balance(board: &Board, us: Color) -> i32 {
    let worth = |role: Role| match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    };
    board
        .iter()
        .map(|(_, p)| {
            if p.color == us {
                worth(p.role)
            } else {
                -worth(p.role)
            }
        })
        .sum()
}

/// A piece kind in words.
fn name(role: Role) -> String {
    format!("{role:?}").to_lowercase()
}

/// What turned a lost game: the capture (its ply, the piece lost, the piece that took
/// it and whether that piece was seen).
struct Turn {
    ply: usize,
    lost: Role,
    taker: Role,
    seen: bool,
    move_text: String,
}

/// Whether the piece that made the move leading to `frames[k + 1]` stood, at the
/// bot's decision before (`frames[k - 1]`), on a square the bot saw.
fn taker_seen(frames: &[Frame], k: usize, us: Color) -> bool {
    let from: Square = frames[k + 1].played.as_ref().expect("a move").mv.from;
    let decision = k.saturating_sub(1);
    frames[decision].view(us).visible().contains(from)
}

/// The first lasting material loss of `us` in `frames`, else the king capture.
fn turning_point(frames: &[Frame], us: Color) -> Option<Turn> {
    let last = frames.len() - 1;
    for k in 1..last {
        let Some(played) = frames[k + 1].played.as_ref() else {
            continue;
        };
        if played.mover == us {
            continue;
        }
        let Some((piece, _)) = played.capture else {
            continue;
        };
        if piece.color != us {
            continue;
        }
        let before = balance(frames[k - 1].position.board(), us);
        let after = balance(frames[(k + 2).min(last)].position.board(), us);
        if piece.role == Role::King || before - after >= 3 {
            return Some(Turn {
                ply: k,
                lost: piece.role,
                taker: played.mv.role,
                seen: taker_seen(frames, k, us),
                move_text: played.numbered(),
            });
        }
    }
    None
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [path, bot] = args.as_slice() else {
        eprintln!("usage: loss_causes GAMES BOT (GAMES: a results folder, games.csv or PGN; BOT: a prefix of the bot's name)");
        return ExitCode::from(2);
    };
    let games = match load_games(Path::new(path), &RuleSet::thesis()) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("loss_causes: error: {e}");
            return ExitCode::from(2);
        }
    };
    let (mut losses, mut lines) = (0u32, Vec::new());
    // [material lost, taker seen / in fog], [king taken, seen / in fog]
    let mut counts = [[0u32; 2]; 2];
    let mut by_piece = std::collections::BTreeMap::<(String, &str), u32>::new();
    for game in &games {
        let us = if game.white.starts_with(bot.as_str()) {
            Color::White
        } else if game.black.starts_with(bot.as_str()) {
            Color::Black
        } else {
            continue;
        };
        let lost = match game.result {
            Some(GameResult::WhiteWins) => us == Color::Black,
            Some(GameResult::BlackWins) => us == Color::White,
            _ => false,
        };
        if !lost {
            continue;
        }
        losses += 1;
        let frames = replay_frames(game);
        let Some(turn) = turning_point(&frames, us) else {
            lines.push(format!(
                "game {}: {} plies, no capture of its pieces decided it ({})",
                game.number,
                game.moves.len(),
                game.termination
            ));
            continue;
        };
        let where_ = if turn.seen { "seen" } else { "in the fog" };
        let kind = usize::from(turn.lost == Role::King);
        counts[kind][usize::from(!turn.seen)] += 1;
        *by_piece.entry((name(turn.lost), where_)).or_insert(0) += 1;
        lines.push(format!(
            "game {}: ply {} {}: its {} taken by a {} {} ({} plies)",
            game.number,
            turn.ply + 1,
            turn.move_text,
            name(turn.lost),
            name(turn.taker),
            where_,
            game.moves.len()
        ));
    }
    println!("{losses} games lost by {bot} in {path}");
    println!(
        "  first lasting material loss: {} (taker in the fog {}, seen {})",
        counts[0][0] + counts[0][1],
        counts[0][1],
        counts[0][0]
    );
    println!(
        "  king taken with no lasting material loss before: {} (taker in the fog {}, seen {})",
        counts[1][0] + counts[1][1],
        counts[1][1],
        counts[1][0]
    );
    for ((piece, where_), n) in &by_piece {
        println!("  {piece} lost first, taker {where_}: {n}");
    }
    for line in lines {
        println!("{line}");
    }
    ExitCode::SUCCESS
}
