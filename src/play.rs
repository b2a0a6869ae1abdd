//! `fow play`: a person against a bot in the terminal, seeing only their own fogged view.

use std::io::{BufReader, IsTerminal};
use std::path::PathBuf;
use std::sync::atomic::Ordering;

use fow_arena::{
    catch_interrupt, game_summary, HumanGame, HumanPlayer, Interruptible, INTERRUPTED,
};
use fow_variants::{side_name, Color};

use crate::error::CliError;
use crate::rules_args::RulesArgs;

/// Play a bot in the terminal.
///
/// You see only what your side sees: your pieces and the squares they can move to; the
/// rest is fog. Enter moves in SAN (e4, Nf3, O-O) or UCI (e2e4), or `moves`, `board`,
/// `help`, `resign`, `quit`. There is no check: any move is allowed and capturing the
/// king wins. The game is saved as a results folder (games.csv and tournament.json)
/// that `fow replay`, `fow export` and `fow analyze` read, also after `resign`, `quit`,
/// the end of the input or Ctrl-C (all four lose the game; after Ctrl-C fow exits with
/// status 130, and a second Ctrl-C exits at once without saving). At the end the whole
/// game and the true board are shown.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The bot to play, as a player spec (see `fow players`), e.g. `SimpleStockfish` or
    /// `PossibleBoardList:nodes=50000`.
    #[arg(long, value_name = "SPEC")]
    pub bot: String,
    /// Your colour; random draws it from the seed.
    #[arg(long, value_enum, default_value_t = Side::White)]
    pub color: Side,
    /// The master seed (the game's and the bot's randomness derive from it); default: a
    /// fresh one from the system's random source, printed and saved so the game can be
    /// replayed with the same bot choices.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Where to save the game (default: `results/play/<UTC timestamp>`).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Your name in the saved game.
    #[arg(long, default_value = "Human")]
    pub name: String,
    /// ASCII diagrams instead of Unicode pieces.
    #[arg(long)]
    pub ascii: bool,
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// The human's colour.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Play White.
    White,
    /// Play Black.
    Black,
    /// Drawn from the seed.
    Random,
}

/// Plays the game, saves it and shows it.
pub fn run(a: Args) -> Result<(), CliError> {
    let color = match a.color {
        Side::White => Some(Color::White),
        Side::Black => Some(Color::Black),
        Side::Random => None,
    };
    let rules = a.rules.rule_set()?;
    let game = HumanGame::new(&a.bot, &a.name, color, a.seed, rules, a.out.as_deref())?;
    let (color, dir) = (game.color(), game.dir().to_path_buf());
    let unicode = !a.ascii;
    outln!(
        "You play {} against {} (rules {rules}, seed {}).",
        side_name(color),
        game.bot_name(),
        game.seed()
    );
    outln!(
        "You see your pieces and the squares they can reach; {} is fog. Type help for help.",
        if unicode { "░" } else { "?" }
    );
    // From here on Ctrl-C ends the game as the human leaving it, and the game is saved.
    catch_interrupt()?;
    let input = Interruptible::new(std::io::stdin(), &INTERRUPTED);
    let mut human = HumanPlayer::new(
        Box::new(BufReader::new(input)),
        Box::new(std::io::stdout()),
        unicode,
    )
    // Input from a pipe or file is echoed after the prompt, so the output reads like
    // the terminal session it stands for.
    .echo(!std::io::stdin().is_terminal())
    .interrupted_by(&INTERRUPTED);
    let rec = game.play(&mut human)?;
    out!("{}", game_summary(&rec, color, unicode));
    outln!(
        "\nSaved to {} (fow replay {} shows it again).",
        dir.display(),
        dir.display()
    );
    if INTERRUPTED.load(Ordering::SeqCst) {
        // Interrupted, as a shell reports a Ctrl-C: 128 + SIGINT, the game saved.
        std::process::exit(130);
    }
    Ok(())
}
