//! A person's game against a bot ([`HumanGame`], `fow play`): the bot and the seed
//! chosen, the person's colour drawn, the results folder made before the game (so that
//! a folder that cannot be written fails first), the game played and saved, and its
//! end shown ([`game_summary`]).

use std::path::Path;

use fow_players::{Player, PlayerSpec};
use fow_records::seed::{game_seed, player_seeds, random_seed, run_seed, SeedKey};
use fow_records::{GameRecord, Reason, RecordError, RunFolder, GAMES_FILE};
use fow_variants::{board_diagram, side_name, Color, Position, RuleSet};

use crate::human::{save_game_folder, HumanPlayer};
use crate::play::{play_game, GameOptions};

/// A person at the board: a [`Player`] whose moves a person makes, and who may stop
/// before the game's end by the rules (resign, leave), which loses the game.
pub trait Person: Player {
    /// How the person stopped early (`resigned`, `left (interrupted)`), if they did.
    fn left(&self) -> Option<String>;
}

impl Person for HumanPlayer {
    fn left(&self) -> Option<String> {
        self.stopped().map(|s| s.to_string())
    }
}

/// A game of a person against a bot, ready to be played.
pub struct HumanGame {
    bot: Box<dyn Player>,
    bot_name: String,
    name: String,
    color: Color,
    seed: u64,
    rules: RuleSet,
    folder: RunFolder,
}

impl HumanGame {
    /// A game against the bot `bot` (a player spec) for the person `name`, who plays
    /// `color` (`None`: drawn from the seed), under `rules`, saved to `out` (default: a
    /// fresh `results/play/<UTC timestamp>`). Without `seed`, a fresh one from the
    /// system's random source: a person takes part, who must not know it beforehand.
    pub fn new(
        bot: &str,
        name: &str,
        color: Option<Color>,
        seed: Option<u64>,
        rules: RuleSet,
        out: Option<&Path>,
    ) -> Result<HumanGame, RecordError> {
        let spec: PlayerSpec = bot.parse()?;
        let mut bot = spec.build()?;
        let bot_name = spec.to_string();
        let given = name;
        let name = name.trim();
        if name.is_empty() || name.contains(',') || name == bot_name {
            return Err(RecordError::Settings(format!(
                "--name '{given}' must be non-empty, without commas, and differ from the bot's"
            )));
        }
        let seed = match run_seed(seed, true) {
            Some(s) => s,
            None => random_seed().map_err(RecordError::System)?,
        };
        let color = color.unwrap_or(match player_seeds(seed)[0] & 1 {
            0 => Color::White,
            _ => Color::Black,
        });
        let folder = RunFolder::create(out, "results/play", "")?;
        if folder.dir().join(GAMES_FILE).exists() {
            return Err(RecordError::folder(
                folder.dir(),
                "already holds games; choose another --out".to_string(),
            ));
        }
        fow_players::external::check_hidden(&spec, &[folder.dir().to_path_buf()])?;
        bot.hide(folder.dir());
        Ok(HumanGame {
            bot,
            bot_name,
            name: name.to_string(),
            color,
            seed,
            rules,
            folder,
        })
    }

    /// The bot's spec, as the saved game names it.
    pub fn bot_name(&self) -> &str {
        &self.bot_name
    }

    /// The person's colour.
    pub fn color(&self) -> Color {
        self.color
    }

    /// The master seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Where the game is saved.
    pub fn dir(&self) -> &Path {
        self.folder.dir()
    }

    /// Plays the game with `human` at the person's colour and saves it: a game the
    /// person left (resigned, quit, ended the input, interrupted) is lost by them. The
    /// person is a [`HumanPlayer`] at a terminal, or any other [`Person`] (the browser's,
    /// in fow-web).
    pub fn play(mut self, human: &mut dyn Person) -> Result<GameRecord, RecordError> {
        let (white, black) = match self.color {
            Color::White => (self.name.as_str(), self.bot_name.as_str()),
            Color::Black => (self.bot_name.as_str(), self.name.as_str()),
        };
        let opts = GameOptions::new(self.rules);
        // The game seed as the saved folder's schedule derives it from the master seed.
        let seed = game_seed(&SeedKey::public(self.seed), white, black, 0);
        let mut rec = match self.color {
            Color::White => play_game(human, self.bot.as_mut(), white, black, seed, &opts),
            Color::Black => play_game(self.bot.as_mut(), human, white, black, seed, &opts),
        };
        if let Some(stop) = human.left() {
            rec.reason = Reason::Resignation;
            rec.detail = format!("{} {stop}", side_name(self.color));
        }
        save_game_folder(&self.folder, &rec, self.seed)?;
        Ok(rec)
    }
}

/// The end of a person's game (they played `human`): result, every move and the true
/// board.
pub fn game_summary(rec: &GameRecord, human: Color, unicode: bool) -> String {
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
