//! `fow play`: a person against a bot in the terminal, seeing only their own fogged view.

use std::io::{BufReader, IsTerminal};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use fow_arena::{play_game, save_game_folder, GameOptions, HumanPlayer, Interruptible};
use fow_players::PlayerSpec;
use fow_records::{GameRecord, Reason, GAMES_FILE};
use fow_variants::{board_diagram, side_name, Color, Position};

use crate::error::{input, CliError};
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

/// Set by the first Ctrl-C (SIGINT) during the game.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The SIGINT handler of the game: the first Ctrl-C sets [`INTERRUPTED`] (the human's
/// pending read fails, and the game is saved as left), a second one exits at once.
extern "C" fn on_interrupt(_: libc::c_int) {
    if INTERRUPTED.swap(true, Ordering::SeqCst) {
        // Only async-signal-safe calls here.
        unsafe { libc::_exit(130) };
    }
}

/// Catches Ctrl-C for the rest of the game, without `SA_RESTART`, so that the read
/// waiting for the human's next line is interrupted.
fn catch_interrupt() -> Result<(), CliError> {
    // SAFETY: a zeroed sigaction is a valid value; the handler only touches an atomic
    // and calls _exit.
    let done = unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_interrupt as extern "C" fn(libc::c_int) as libc::sighandler_t;
        action.sa_flags = 0;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGINT, &action, std::ptr::null_mut())
    };
    if done != 0 {
        return Err(CliError::Failed(format!(
            "cannot catch Ctrl-C: {}",
            std::io::Error::last_os_error()
        )));
    }
    Ok(())
}

/// Plays the game, saves it and shows it.
pub fn run(a: Args) -> Result<(), CliError> {
    let rules = a.rules.rule_set()?;
    let spec: PlayerSpec = a.bot.parse().map_err(input)?;
    let mut bot = spec.build().map_err(input)?;
    let bot_name = spec.to_string();
    let name = a.name.trim();
    if name.is_empty() || name.contains(',') || name == bot_name {
        return Err(input(format!(
            "--name '{}' must be non-empty, without commas, and differ from the bot's",
            a.name
        )));
    }
    // A human takes part: without --seed, a fresh seed the human cannot know.
    let seed = match fow_records::seed::run_seed(a.seed, true) {
        Some(s) => s,
        None => fow_records::seed::random_seed().map_err(CliError::Failed)?,
    };
    let color = match a.color {
        Side::White => Color::White,
        Side::Black => Color::Black,
        Side::Random => {
            if fow_records::seed::player_seeds(seed)[0] & 1 == 0 {
                Color::White
            } else {
                Color::Black
            }
        }
    };
    // The folder is made and locked now, so that an --out that cannot be written (or
    // that another fow command writes) fails before the game, not after it.
    let (dir, _lock) = match a.out.clone() {
        Some(dir) => {
            let lock = fow_records::lock_folder(&dir)?;
            (dir, lock)
        }
        None => {
            let stamp = crate::tournament::default_out("");
            fow_records::fresh_folder(
                &PathBuf::from("results/play").join(stamp.file_name().expect("a timestamp")),
            )?
        }
    };
    if dir.join(GAMES_FILE).exists() {
        return Err(input(format!(
            "{} already holds games; choose another --out",
            dir.display()
        )));
    }
    fow_players::external::check_hidden(&spec, std::slice::from_ref(&dir)).map_err(input)?;
    bot.hide(&dir);
    let unicode = !a.ascii;
    outln!(
        "You play {} against {bot_name} (rules {rules}, seed {seed}).",
        side_name(color)
    );
    outln!(
        "You see your pieces and the squares they can reach; {} is fog. Type help for help.",
        if unicode { "░" } else { "?" }
    );
    // Input from a pipe or file is echoed after the prompt, so the output reads like
    // the terminal session it stands for.
    let echo = !std::io::stdin().is_terminal();
    // From here on Ctrl-C ends the game as the human leaving it, and the game is saved.
    catch_interrupt()?;
    let mut human = HumanPlayer::new(
        Box::new(BufReader::new(Interruptible::new(
            std::io::stdin(),
            &INTERRUPTED,
        ))),
        Box::new(std::io::stdout()),
        unicode,
    )
    .echo(echo)
    .interrupted_by(&INTERRUPTED);
    let (white_name, black_name) = match color {
        Color::White => (name, bot_name.as_str()),
        Color::Black => (bot_name.as_str(), name),
    };
    let opts = GameOptions::new(rules);
    // The game seed as the saved folder's schedule derives it from the master seed.
    let game_seed = fow_records::seed::game_seed(
        &fow_records::seed::SeedKey::public(seed),
        white_name,
        black_name,
        0,
    );
    let mut rec = match color {
        Color::White => play_game(
            &mut human,
            bot.as_mut(),
            white_name,
            black_name,
            game_seed,
            &opts,
        ),
        Color::Black => play_game(
            bot.as_mut(),
            &mut human,
            white_name,
            black_name,
            game_seed,
            &opts,
        ),
    };
    if let Some(stop) = human.stopped() {
        rec.reason = Reason::Resignation;
        rec.detail = format!("{} {stop}", side_name(color));
    }
    save_game_folder(&dir, &rec, seed)?;
    out!("{}", summary(&rec, color, unicode));
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

/// The end of the game: result, every move and the true board.
fn summary(rec: &GameRecord, human: Color, unicode: bool) -> String {
    let mut s = String::from("\nGame over: ");
    let verdict = match rec.result.winner() {
        Some(c) if c == human => "you win",
        Some(_) => "you lose",
        None => "a draw",
    };
    s.push_str(&format!("{} ({verdict}), {}", rec.result, rec.reason));
    if !rec.detail.is_empty() {
        s.push_str(&format!(": {}", rec.detail));
    }
    s.push_str(".\n\nThe whole game:\n");
    let mut pos = Position::startpos();
    let mut line = String::new();
    for m in &rec.moves {
        let text = pos.san(m, &rec.rules);
        if pos.turn().is_white() {
            line.push_str(&format!("{}. {text} ", pos.fullmoves()));
        } else {
            if line.is_empty() {
                line.push_str(&format!("{}... ", pos.fullmoves()));
            }
            line.push_str(&format!("{text}\n"));
            s.push_str(&line);
            line.clear();
        }
        pos.play(m);
    }
    if !line.is_empty() {
        s.push_str(line.trim_end());
        s.push('\n');
    }
    if rec.moves.is_empty() {
        s.push_str("(no moves)\n");
    }
    s.push_str("\nThe true board at the end:\n");
    s.push_str(&board_diagram(pos.board(), unicode));
    s
}
