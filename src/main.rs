//! `fow`: fog-of-war chess bots from the command line.
//!
//! The CLI only parses arguments, shows progress and prints; the work is in the library
//! crates (fow-variants, fow-players, fow-arena, fow-ratings). One file per subcommand.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// `println!` for results: a closed pipe drops the output, not the work (see [`out`]).
macro_rules! outln {
    () => {
        $crate::out::write(format_args!(""), true)
    };
    ($($arg:tt)*) => {
        $crate::out::write(format_args!($($arg)*), true)
    };
}

/// `print!` for results: a closed pipe drops the output, not the work (see [`out`]).
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::out::write(format_args!($($arg)*), false)
    };
}

mod accuracy;
mod analyze;
mod bench;
mod compare_thesis;
mod dataset;
mod error;
mod evolve;
mod export;
mod game_args;
mod import;
mod inputs;
mod jobs;
mod matches;
mod merge;
mod out;
mod params;
mod perft;
mod play;
mod players;
mod rate;
mod replay;
mod rules_args;
mod run_args;
mod serve;
mod tournament;
mod train;
mod tune;
mod tune_material;
mod tune_worker;
mod view;
mod web;

/// Fog-of-war chess bots: rules, players, tournaments, ratings.
///
/// Fog-of-war chess has no check: any pseudo-legal move is playable and capturing the
/// king wins. Each side sees only its own pieces and the squares they could move to.
#[derive(Parser)]
#[command(name = "fow", version, about, long_about = None, arg_required_else_help = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Tournament(tournament::Args),
    Match(matches::Args),
    Exploit(matches::ExploitArgs),
    Merge(merge::Args),
    CompareThesis(compare_thesis::Args),
    Rate(rate::Args),
    Replay(replay::Args),
    Export(export::Args),
    Import(import::Args),
    Players(players::Args),
    Perft(perft::Args),
    View(view::Args),
    Bench(bench::Args),
    TuneMaterial(tune_material::Args),
    Evolve(evolve::Args),
    Tune(tune::Args),
    #[command(hide = true)]
    TuneWorker(tune_worker::Args),
    Params(params::Args),
    Dataset(dataset::Args),
    Train(train::Args),
    Accuracy(accuracy::Args),
    Serve(serve::Args),
    Analyze(analyze::Args),
    Play(play::Args),
    Web(web::Args),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    let result = match cli.command {
        Command::Tournament(a) => tournament::run(a),
        Command::Match(a) => matches::run(a),
        Command::Exploit(a) => matches::exploit(a),
        Command::Merge(a) => merge::run(a),
        Command::CompareThesis(a) => compare_thesis::run(a),
        Command::Rate(a) => rate::run(a),
        Command::Replay(a) => replay::run(a),
        Command::Export(a) => export::run(a),
        Command::Import(a) => import::run(a),
        Command::Players(a) => players::run(a),
        Command::Perft(a) => perft::run(a),
        Command::View(a) => view::run(a),
        Command::Bench(a) => bench::run(a),
        Command::TuneMaterial(a) => tune_material::run(a),
        Command::Evolve(a) => evolve::run(a),
        Command::Tune(a) => tune::run(a),
        Command::TuneWorker(a) => tune_worker::run(a),
        Command::Params(a) => params::run(a),
        Command::Dataset(a) => dataset::run(a),
        Command::Train(a) => train::run(a),
        Command::Accuracy(a) => accuracy::run(a),
        Command::Serve(a) => serve::run(a),
        Command::Analyze(a) => analyze::run(a),
        Command::Play(a) => play::run(a),
        Command::Web(a) => web::run(a),
    };
    match result {
        Ok(()) => {
            // What the command's reads gave rise to, said once each (a failure's one
            // line is its error alone).
            for note in fow_records::take_notes() {
                eprintln!("note: {note}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("fow: error: {e}");
            ExitCode::from(e.code())
        }
    }
}

/// Help and version go out as clap writes them; a mistake on the command line becomes one
/// line like every other bad input (`fow: error: ...`, exit 2), keeping clap's hints
/// (possible values, similar names) and pointing to `--help` instead of the usage block.
/// Bare `fow` shows the usage, then says what is missing in the same `fow: error:` line.
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    use clap::CommandFactory;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        e.exit();
    }
    let help = match std::env::args().nth(1) {
        Some(sub) if Cli::command().find_subcommand(&sub).is_some() => format!("fow {sub} --help"),
        _ => "fow --help".to_string(),
    };
    if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        eprint!("{}", e.render());
        let what = if std::env::args().len() <= 1 {
            "no command given"
        } else {
            "no arguments given"
        };
        eprintln!("fow: error: {what} (see {help})");
        return ExitCode::from(2);
    }
    eprintln!(
        "fow: error: {} (see {help})",
        one_line(&e.render().to_string())
    );
    ExitCode::from(2)
}

/// Clap's error text on one line: the message, then its hints.
fn one_line(text: &str) -> String {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let mut line = lines
        .next()
        .unwrap_or("bad command line")
        .trim_start_matches("error:")
        .trim()
        .to_string();
    for l in lines {
        if l.starts_with("Usage:") || l.starts_with("For more information") {
            continue;
        }
        line.push_str(if line.ends_with(':') { " " } else { "; " });
        line.push_str(l.trim_start_matches("tip:").trim());
    }
    line
}
