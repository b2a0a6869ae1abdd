//! How often a belief would have held the true board in games already played: each game
//! of a results folder (or a `games.csv` or PGN file) is replayed for the side a named
//! player played, and a BeliefSearch belief built from a spec follows that side's
//! observations and moves (no search: [`BeliefSearch::observe`] and
//! [`BeliefSearch::commit`]). Only the spec's belief settings matter (`keep`, `model`,
//! `carry`, `guesses`, `cap`). Unlike `players/examples/belief_truth.rs`, which plays new
//! games, the games are the same for every belief compared, so two specs differ only by
//! their beliefs. From the repository root:
//!
//! ```text
//! cargo run --release -p fow-arena --example belief_hold -- \
//!     results/strength/subgame/thesis-400 SubgameSolver BeliefSearch 40
//! cargo run --release -p fow-arena --example belief_hold -- \
//!     results/strength/subgame/thesis-400 SubgameSolver BeliefSearch:keep=100000 40
//! ```
//!
//! The arguments are the games, the player whose side is replayed, the belief's spec and
//! optionally how many games at most (from the first). Each side's belief gets the seed
//! 1000 + the game's index. Prints the share of the side's turns with the true board in
//! the belief, by phase (plies 1–20, 21–40, 41–80, later), at the last turn of each game,
//! the belief's mean size, the times it emptied and was rebuilt from guesses, and the
//! wall time (the only figure that depends on the machine).

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use fow_arena::exact_belief::{phase_of, PHASES};
use fow_players::bots::{BeliefSearch, BeliefSearchSettings};
use fow_players::{GameStart, Player, PlayerSpec};
use fow_records::load_games;
use fow_variants::{Color, Game, Observation, RuleSet};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("belief_hold: error: {e}");
            eprintln!("usage: belief_hold GAMES PLAYER SPEC [MAX_GAMES]");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let [path, name, spec, rest @ ..] = args else {
        return Err("three arguments or four expected".into());
    };
    let most: usize = match rest {
        [] => usize::MAX,
        [n] => n
            .parse()
            .map_err(|_| format!("not a number of games: {n}"))?,
        _ => return Err("three arguments or four expected".into()),
    };
    let games = load_games(Path::new(path), &RuleSet::thesis()).map_err(|e| e.to_string())?;
    let parsed: PlayerSpec = spec.parse().map_err(|e| format!("{spec}: {e}"))?;
    if parsed.name != "BeliefSearch" {
        return Err(format!("{spec}: a BeliefSearch spec expected"));
    }
    let settings = BeliefSearchSettings::from_spec(&parsed).map_err(|e| e.to_string())?;
    let mut held = [(0u64, 0u64); PHASES.len()];
    let (mut sides, mut last_held, mut sizes, mut empties) = (0u64, 0u64, 0u64, 0u64);
    let started = Instant::now();
    for (g, rec) in games.iter().take(most).enumerate() {
        let side = if rec.white == *name {
            Color::White
        } else if rec.black == *name {
            Color::Black
        } else {
            continue;
        };
        sides += 1;
        let mut bot = BeliefSearch::new(settings);
        bot.start(
            &GameStart::new(side, rec.rules, 1000 + g as u64).with_position(rec.start.clone()),
        );
        let mut game = Game::new(rec.start.clone(), rec.rules);
        let mut slot = None;
        let mut holds = false;
        for m in &rec.moves {
            if game.position().turn() == side {
                let ply = game.ply() as usize + 1;
                bot.observe(Observation::for_game(&mut slot, &game), Instant::now());
                let truth = game.position().repetition_key(&rec.rules);
                holds = bot
                    .boards()
                    .iter()
                    .any(|b| b.repetition_key(&rec.rules) == truth);
                let phase = phase_of(ply);
                held[phase].0 += 1;
                held[phase].1 += u64::from(holds);
                sizes += bot.boards().len() as u64;
                bot.commit(*m);
            }
            game.play(m);
        }
        last_held += u64::from(holds);
        empties += u64::from(bot.log().empties);
    }
    let (turns, with_truth) = held.iter().fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    if turns == 0 {
        return Err(format!("{path}: no game of {name} with a move of its own"));
    }
    let share = |(n, h): (u64, u64)| format!("{:.1}%", 100.0 * h as f64 / n.max(1) as f64);
    println!(
        "{spec}: true board held at {} of {turns} turns (plies 1-20 {}, 21-40 {}, 41-80 {}, later {}); \
         at the last turn of {last_held} of {sides} games; mean size {:.0}; {empties} rebuilds after an empty set; {:.1} s",
        share((turns, with_truth)),
        share(held[0]),
        share(held[1]),
        share(held[2]),
        share(held[3]),
        sizes as f64 / turns as f64,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
