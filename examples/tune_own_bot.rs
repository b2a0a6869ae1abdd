// Tuning a bot of one's own with fow's SPSA, without touching fow's code: the bot of
// `examples/tunable_rust_bot.rs` is registered under its name with its declared
// parameters (`fow_players::register`), so that its specs build, and fow-arena's tuner
// tunes its `greed` and `queen` against CaptureLargest (the chapter "Tuning a bot").
//
//     cargo run --release --example tune_own_bot -- /tmp/own-tune

#[allow(dead_code)]
#[path = "tunable_rust_bot.rs"]
mod bot;

use fow_arena::tune::{TuneConfig, Tuner};
use fow_players::tune::TuneSpace;
use fow_players::{register, BotInfo};
use fow_variants::RuleSet;

fn main() {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "/tmp/own-tune".into());
    let run = || -> Result<(), Box<dyn std::error::Error>> {
        register(BotInfo::new(
            bot::NAME,
            "a bot of one's own: greedy with probability greed",
            bot::PARAMS,
            |spec| Ok(Box::new(bot::Tunable::from_spec(spec)?)),
        ))?;
        let names = ["greed".to_string(), "queen".to_string()];
        let mut space = TuneSpace::declared("Tunable:greed=0.2,queen=3", &names)?;
        for p in &mut space.params {
            p.r_end = 0.05;
        }
        let against = vec!["CaptureLargest".to_string()];
        let config = TuneConfig::new(space, 40, 4, against, RuleSet::thesis(), Some(1))?;
        let mut tuner = Tuner::create(Some(std::path::Path::new(&dir)), config)?;
        println!("{}", tuner.summary());
        tuner.run(2, |log| {
            if (log.batch + 1) % 10 == 0 {
                println!(
                    "batch {:>2}: greed {:.3}, queen {:.2}",
                    log.batch + 1,
                    log.theta[0],
                    log.theta[1]
                );
            }
            true
        })?;
        print!("{}", tuner.report());
        Ok(())
    };
    if let Err(e) = run() {
        eprintln!("tune_own_bot: error: {e}");
        std::process::exit(2);
    }
}
