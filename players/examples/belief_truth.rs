//! How often a bot's belief holds the true board: plays BeliefSearch against
//! PossibleBoardList (thesis rules, the standard start, colours alternating, seeds 1000 +
//! game and 2000 + game) and, at each of BeliefSearch's turns, checks whether the true
//! position is among the boards it believes possible. From the repository root:
//!
//! ```text
//! cargo run --release -p fow-players --example belief_truth -- 20 0
//! cargo run --release -p fow-players --example belief_truth -- 20 20000
//! ```
//!
//! The arguments are the number of games, BeliefSearch's `keep` (0: PossibleBoardList's
//! belief, rebuilt from guesses past 20,000 boards; N: a seeded uniform sample of N boards
//! when more fit) and, optionally, its `model` (the sample weighted by an opponent model
//! of that sharpness; `off`, the default, for uniform) and `carry` (`on`: each board's
//! probability carried from turn to turn; `search`: carried beside the sample; `off`, the
//! default). Prints the share of turns
//! with the true board in the set, the probability the belief gives the true board (its
//! weight over the set's total; 1/size when the boards count alike; 0 when it is
//! missing), the set's size by powers of ten, the rebuilds and samples, and the wall time
//! the belief took per turn (the only figure that depends on the machine).

use std::process::ExitCode;

use fow_players::belief::board_list::Prior;
use fow_players::bots::{BeliefSearch, BeliefSearchSettings, BoardListSettings, PossibleBoardList};
use fow_players::{Budget, GameStart, Player};
use fow_variants::{Color, FogView, Game, Observation, Position, RuleSet};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // MODEL: `off` (None) or a sharpness of 0 or more (Some).
    let model_arg = |text: &str| -> Option<Option<f64>> {
        match text {
            "off" => Some(None),
            m => m.parse().ok().filter(|m: &f64| *m >= 0.0).map(Some),
        }
    };
    let carry_arg = |text: &str| match text {
        "on" => Some(Prior::Carried),
        "search" => Some(Prior::Tracked),
        "off" => Some(Prior::Flat),
        _ => None,
    };
    let parsed: Option<(u64, usize, Option<f64>, Prior)> = match args.as_slice() {
        [games, keep, rest @ ..] if rest.len() <= 2 => {
            let model = rest.first().map_or(Some(None), |m| model_arg(m));
            let carry = rest.get(1).map_or(Some(Prior::Flat), |c| carry_arg(c));
            match (games.parse().ok(), keep.parse().ok(), model, carry) {
                (Some(g), Some(k), Some(m), Some(c)) => Some((g, k, m, c)),
                _ => None,
            }
        }
        _ => None,
    };
    let Some((games, keep, model, carry)) = parsed else {
        eprintln!("usage: belief_truth GAMES KEEP [MODEL [CARRY]] (KEEP 0: PossibleBoardList's belief; MODEL: off or 0 or more; CARRY: off, on or search)");
        return ExitCode::from(2);
    };
    let rules = RuleSet::thesis();
    let (mut turns, mut with_truth, mut rebuilds, mut update_s) = (0u64, 0u64, 0u64, 0.0);
    let mut truth_probability = 0.0;
    let mut sizes = [0u64; 7];
    for g in 0..games {
        let color = if g % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let mut bot = BeliefSearch::new(BeliefSearchSettings {
            keep,
            model,
            carry,
            ..BeliefSearchSettings::default()
        });
        bot.start(&GameStart::new(color, rules, 1000 + g));
        let mut opponent = PossibleBoardList::new(BoardListSettings::default());
        opponent.start(&GameStart::new(!color, rules, 2000 + g));
        let mut game = Game::new(Position::startpos(), rules);
        let mut previous: [Option<FogView>; 2] = [None, None];
        loop {
            let pos = game.position().clone();
            let side = pos.turn();
            let obs = Observation::new(&pos, &rules, game.ply(), previous[side as usize].clone());
            if obs.move_count() == 0 {
                break;
            }
            let m = if side == color {
                let m = bot.choose(&obs, &Budget::default());
                let key = pos.repetition_key(&rules);
                turns += 1;
                if let Some(i) = bot
                    .boards()
                    .iter()
                    .position(|b| b.repetition_key(&rules) == key)
                {
                    with_truth += 1;
                    let total: f64 = bot.weights().iter().sum();
                    truth_probability += bot.weights()[i] / total;
                }
                let n = bot.boards().len().max(1) as f64;
                sizes[(n.log10().floor() as usize).min(sizes.len() - 1)] += 1;
                m
            } else {
                opponent.choose(&obs, &Budget::default())
            };
            let end = game.play(&m);
            previous[side as usize] = Some(FogView::of(game.position(), side, &rules));
            if end.is_some() {
                break;
            }
        }
        rebuilds += u64::from(bot.log().overflows + bot.log().empties);
        update_s += bot.log().update_time.as_secs_f64();
    }
    let share = |n: u64| 100.0 * n as f64 / turns.max(1) as f64;
    let model = model.map_or("off".to_string(), |m| m.to_string());
    let carry = match carry {
        Prior::Flat => "off",
        Prior::Carried => "on",
        Prior::Tracked => "search",
    };
    println!("BeliefSearch:keep={keep},model={model},carry={carry} against PossibleBoardList, {games} games, {turns} turns");
    println!(
        "true board in the belief: {:.1}% of turns",
        share(with_truth)
    );
    println!(
        "probability given to the true board: {:.4} on average",
        truth_probability / turns.max(1) as f64
    );
    let labels = [
        "1-9", "10-99", "100-999", "1e3-1e4", "1e4-1e5", "1e5-1e6", "1e6+",
    ];
    let by_size: Vec<String> = labels
        .iter()
        .zip(sizes)
        .map(|(l, n)| format!("{l}: {:.1}%", share(n)))
        .collect();
    println!("boards believed: {}", by_size.join(", "));
    println!(
        "rebuilds or samples: {rebuilds} ({:.2} a turn)",
        rebuilds as f64 / turns.max(1) as f64
    );
    println!(
        "belief update: {:.2} ms a turn",
        1000.0 * update_s / turns.max(1) as f64
    );
    ExitCode::SUCCESS
}
