//! A person at a terminal as a [`Player`]: [`HumanPlayer`] shows its side's fogged view
//! and reads moves and commands from a text input; [`save_game_folder`] writes the game
//! as a one-game results folder that every game-reading command opens.

use std::fmt;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use fow_players::{Budget, GameStart, Player, PlayerError, PlayerErrorKind};
use fow_variants::shakmaty::{File, Rank};
use fow_variants::{
    parse_move_among, role_name, san_among, side_name, Color, FogView, Move, Observation, Piece,
    Square,
};

use fow_records::GameRecord;
use fow_records::RecordError;
use fow_records::TournamentConfig;
use fow_records::{FolderKind, GameRow, RunFolder, Tables};

/// How a human's game stopped before its end by the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HumanStop {
    /// `resign` was entered.
    Resigned,
    /// `quit` was entered.
    Quit,
    /// The input ended (or could not be read).
    InputEnded,
    /// The player was interrupted (Ctrl-C at `fow play`): the flag given to
    /// [`HumanPlayer::interrupted_by`] was set.
    Interrupted,
}

impl fmt::Display for HumanStop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HumanStop::Resigned => "resigned",
            HumanStop::Quit => "quit",
            HumanStop::InputEnded => "left (end of input)",
            HumanStop::Interrupted => "left (interrupted)",
        })
    }
}

/// The commands a human may type besides moves.
pub const HUMAN_HELP: &str = "\
Enter a move in SAN (e4, Nf3, exd5, O-O, e8=Q) or UCI (e2e4, g1f3, e7e8q), or a command:
  moves    list your legal moves
  board    show your view again
  help     this text
  resign   give up the game (it is saved)
  quit     stop playing (counts as resigning; the game is saved)
  Ctrl-C   the same as quit (fow play then exits with status 130)
There is no check in fog-of-war chess: any move is allowed, and capturing the king wins.";

/// A person playing through a text input and output (a terminal, or pipes in tests).
///
/// Each turn it writes the side's fogged view (a diagram with fog, its own last move and
/// what changed in sight since then) and a prompt, then reads lines until one is a legal
/// move: moves in SAN or UCI, and the commands of [`HUMAN_HELP`]. Anything else gets a
/// message and a new prompt. `resign`, `quit`, the end of the input and an interrupt (see
/// [`HumanPlayer::interrupted_by`]) end the game: [`Player::choose`] answers an error (the
/// arena records a loss) and [`HumanPlayer::stopped`] says which it was. It never sees the
/// true position.
pub struct HumanPlayer {
    input: Box<dyn BufRead + Send>,
    output: Box<dyn Write + Send>,
    unicode: bool,
    echo: bool,
    color: Color,
    last_move: Option<String>,
    stopped: Option<HumanStop>,
    /// Why the last turn gave no move (the human stopped), for [`Player::take_error`].
    error: Option<PlayerError>,
    /// Set (by a signal handler) when the human interrupts the game.
    interrupt: Option<&'static AtomicBool>,
}

impl HumanPlayer {
    /// A human reading `input` and writing to `output`; `unicode` draws pieces and fog
    /// as Unicode symbols, else as ASCII letters and `?`.
    pub fn new(
        input: Box<dyn BufRead + Send>,
        output: Box<dyn Write + Send>,
        unicode: bool,
    ) -> HumanPlayer {
        HumanPlayer {
            input,
            output,
            unicode,
            echo: false,
            color: Color::White,
            last_move: None,
            stopped: None,
            error: None,
            interrupt: None,
        }
    }

    /// Stops the game as [`HumanStop::Interrupted`] once `flag` is set: at the next turn,
    /// or at once when the input then fails or ends (a Ctrl-C handler sets the flag, and
    /// the read it interrupts fails: see [`Interruptible`]).
    pub fn interrupted_by(mut self, flag: &'static AtomicBool) -> HumanPlayer {
        self.interrupt = Some(flag);
        self
    }

    fn interrupted(&self) -> bool {
        self.interrupt.is_some_and(|f| f.load(Ordering::SeqCst))
    }

    /// Writes each line read after its prompt, as a terminal would show it typed: for
    /// input from a pipe or file, so that a transcript shows what was entered.
    pub fn echo(mut self, echo: bool) -> HumanPlayer {
        self.echo = echo;
        self
    }

    /// Whether (and how) the human stopped the game early.
    pub fn stopped(&self) -> Option<HumanStop> {
        self.stopped
    }

    fn stop(&mut self, how: HumanStop) -> Result<Move, PlayerError> {
        self.stopped = Some(how);
        Err(PlayerError {
            kind: PlayerErrorKind::Other,
            message: format!("{} {how}", side_name(self.color)),
        })
    }

    /// One turn's screen: the move number, the last move, the changes and the diagram.
    fn show_turn(&mut self, obs: &Observation) -> std::io::Result<()> {
        let number = obs.ply() / 2 + 1;
        let out = &mut self.output;
        writeln!(out)?;
        writeln!(
            out,
            "Move {number}, {} to play.",
            side_name(obs.color()).to_lowercase()
        )?;
        match (&self.last_move, obs.previous()) {
            (Some(m), Some(prev)) => {
                writeln!(out, "Your last move: {m}.")?;
                for line in describe_changes(prev, obs.view()) {
                    writeln!(out, "  {line}")?;
                }
            }
            _ if obs.ply() > 0 => writeln!(out, "{} has moved.", side_name(!obs.color()))?,
            _ => {}
        }
        write!(out, "{}", view_diagram(obs.view(), self.unicode))?;
        Ok(())
    }

    /// Reads one line; `None` at the end of the input or when it cannot be read.
    fn read_line(&mut self) -> Option<Result<String, String>> {
        let mut buf = Vec::new();
        match self.input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(
                String::from_utf8(buf)
                    .map(|s| s.trim().to_string())
                    .map_err(|_| "that line is not valid UTF-8 text".to_string()),
            ),
        }
    }

    fn turn(&mut self, obs: &Observation) -> std::io::Result<Result<Move, PlayerError>> {
        if self.interrupted() {
            return Ok(self.stop(HumanStop::Interrupted));
        }
        self.show_turn(obs)?;
        loop {
            write!(self.output, "{}> ", side_name(obs.color()).to_lowercase())?;
            self.output.flush()?;
            let line = match self.read_line() {
                None => {
                    writeln!(self.output)?;
                    let how = if self.interrupted() {
                        HumanStop::Interrupted
                    } else {
                        HumanStop::InputEnded
                    };
                    return Ok(self.stop(how));
                }
                Some(Err(message)) => {
                    if self.echo {
                        writeln!(self.output)?;
                    }
                    writeln!(self.output, "{message}; type help for help")?;
                    continue;
                }
                Some(Ok(line)) => line,
            };
            if self.echo {
                writeln!(self.output, "{line}")?;
            }
            match line.to_ascii_lowercase().as_str() {
                "" => writeln!(
                    self.output,
                    "Type a move (e4 or e2e4), or moves, board, help, resign, quit."
                )?,
                "help" | "?" | "h" => writeln!(self.output, "{HUMAN_HELP}")?,
                "moves" => {
                    let list: Vec<String> = obs.legal_moves().iter().map(|m| san(m, obs)).collect();
                    writeln!(self.output, "{} legal moves:", list.len())?;
                    for chunk in list.chunks(12) {
                        writeln!(self.output, "  {}", chunk.join(" "))?;
                    }
                }
                "board" | "view" => {
                    write!(self.output, "{}", view_diagram(obs.view(), self.unicode))?
                }
                "resign" => return Ok(self.stop(HumanStop::Resigned)),
                "quit" | "exit" => return Ok(self.stop(HumanStop::Quit)),
                _ => match parse_move(&line, obs) {
                    Ok(m) => {
                        let text = san(&m, obs);
                        writeln!(self.output, "You play {text}.")?;
                        self.last_move = Some(text);
                        return Ok(Ok(m));
                    }
                    Err(e) => writeln!(self.output, "{e}; type moves to list your legal moves")?,
                },
            }
        }
    }
}

/// A reader whose reads fail once `flag` is set, and that retries a read a signal
/// interrupted (`EINTR`) otherwise: the input of a [`HumanPlayer`] that a Ctrl-C handler
/// stops. A plain reader retries an interrupted read and would wait on for the next line.
pub struct Interruptible<R> {
    inner: R,
    flag: &'static AtomicBool,
}

impl<R> Interruptible<R> {
    /// `inner`, failing its reads once `flag` is set.
    pub fn new(inner: R, flag: &'static AtomicBool) -> Interruptible<R> {
        Interruptible { inner, flag }
    }
}

impl<R: std::io::Read> std::io::Read for Interruptible<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            if self.flag.load(Ordering::SeqCst) {
                return Err(std::io::Error::other("interrupted"));
            }
            match self.inner.read(buf) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                r => return r,
            }
        }
    }
}

/// The move a human typed (SAN, UCI or long algebraic), among the observation's legal
/// moves: the text is read against what the side sees, never the true position.
fn parse_move(text: &str, obs: &Observation) -> Result<Move, String> {
    parse_move_among(text, obs.legal_moves()).map_err(|e| e.to_string())
}

/// A legal move of the observation in SAN.
fn san(m: &Move, obs: &Observation) -> String {
    san_among(m, obs.legal_moves())
}

impl Player for HumanPlayer {
    fn start(&mut self, game: &GameStart) {
        self.color = game.color;
        self.last_move = None;
        self.stopped = None;
    }

    fn choose(&mut self, obs: &Observation, _budget: &Budget) -> Move {
        let answer = match self.turn(obs) {
            Ok(answer) => answer,
            Err(_) if self.interrupted() => self.stop(HumanStop::Interrupted),
            // The terminal is gone: like the end of the input.
            Err(_) => self.stop(HumanStop::InputEnded),
        };
        answer.unwrap_or_else(|e| {
            self.error = Some(e);
            Move::NULL
        })
    }

    fn take_error(&mut self) -> Option<PlayerError> {
        self.error.take()
    }
}

fn piece_name(p: Piece) -> String {
    format!(
        "{} {}",
        side_name(p.color).to_lowercase(),
        role_name(p.role)
    )
}

/// What changed in a side's sight between `before` (right after its own previous move)
/// and `now` (its turn again), in words: its pieces that were captured, enemy pieces that
/// came into sight, and enemy pieces that left squares it still sees.
pub fn describe_changes(before: &FogView, now: &FogView) -> Vec<String> {
    let us = now.color();
    let mut lines = Vec::new();
    for sq in before.ours() {
        let Some(mine) = before.piece_at(sq) else {
            continue;
        };
        if now.piece_at(sq) != Some(mine) {
            let by = match now.piece_at(sq) {
                Some(p) if p.color != us => format!(" by the {} now there", role_name(p.role)),
                _ => String::new(),
            };
            lines.push(format!(
                "Your {} on {sq} was captured{by}.",
                role_name(mine.role)
            ));
        }
    }
    let mut seen = Vec::new();
    for sq in now.theirs() {
        if let Some(p) = now.piece_at(sq) {
            if before.piece_at(sq) != Some(p) && !before.ours().contains(sq) {
                seen.push(format!("{} on {sq}", piece_name(p)));
            }
        }
    }
    if !seen.is_empty() {
        lines.push(format!("Now in sight: {}.", seen.join(", ")));
    }
    let mut gone = Vec::new();
    for sq in before.theirs() {
        if let Some(p) = before.piece_at(sq) {
            if now.visible().contains(sq) && now.piece_at(sq) != Some(p) {
                gone.push(format!("{} from {sq}", piece_name(p)));
            }
        }
    }
    if !gone.is_empty() {
        lines.push(format!("Gone: {}.", gone.join(", ")));
    }
    if lines.is_empty() {
        lines.push("Nothing you can see has changed.".to_string());
    }
    lines
}

/// A view as a diagram from its side's point of view (White's view with rank 8 at the
/// top, Black's with rank 1 at the top): pieces, `.` for a visible empty square and fog
/// as `░` (`?` in ASCII).
pub fn view_diagram(view: &FogView, unicode: bool) -> String {
    let white = view.color().is_white();
    let ranks: Vec<Rank> = if white {
        Rank::ALL.into_iter().rev().collect()
    } else {
        Rank::ALL.to_vec()
    };
    let files: Vec<File> = if white {
        File::ALL.to_vec()
    } else {
        File::ALL.into_iter().rev().collect()
    };
    let mut s = String::new();
    for &rank in &ranks {
        s.push(rank.char());
        for &file in &files {
            let sq = Square::from_coords(file, rank);
            s.push(' ');
            s.push(match view.piece_at(sq) {
                _ if !view.visible().contains(sq) => {
                    if unicode {
                        '░'
                    } else {
                        '?'
                    }
                }
                None => '.',
                Some(p) if unicode => fow_variants::piece_symbol(p),
                Some(p) => p.char(),
            });
        }
        s.push('\n');
    }
    s.push(' ');
    for &file in &files {
        s.push(' ');
        s.push(file.char());
    }
    s.push('\n');
    s
}

/// Writes `rec` as a one-game results folder in `folder`: `tournament.json` (of kind
/// `play`: its players, rules and the master seed `seed` that `rec`'s game seed derives
/// from, as the schedule of a one-game tournament derives it; tagged under that public
/// seed), `games.csv` (the game as id 0) and `times.csv`.
/// The folder must not hold a run or games already.
pub fn save_game_folder(
    folder: &RunFolder,
    rec: &GameRecord,
    seed: u64,
) -> Result<(), RecordError> {
    let mut config = TournamentConfig::new(
        vec![rec.white.clone(), rec.black.clone()],
        1,
        rec.rules,
        Some(seed),
        None,
    )?;
    config.kind = Some(FolderKind::Play);
    let mut tables = Tables::default();
    tables.push(GameRow::new(0, 0, rec), rec);
    folder.save(&config, tables)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_variants::{Position, RuleSet};

    fn view(fen: &str, color: Color) -> FogView {
        FogView::of(&fen.parse::<Position>().unwrap(), color, &RuleSet::thesis())
    }

    #[test]
    fn changes_name_captures_and_pieces_in_sight() {
        // White's knight on e5, seen right after White's move; then Black's pawn d6
        // takes it (d6xe5).
        let before = view("4k3/8/3p4/4N3/8/8/8/4K3 b - - 0 1", Color::White);
        let now = view("4k3/8/8/4p3/8/8/8/4K3 w - - 0 2", Color::White);
        let lines = describe_changes(&before, &now);
        assert_eq!(lines, ["Your knight on e5 was captured."], "{lines:?}");
        // A rook comes into sight of the white king.
        let before = view("3rk3/8/8/8/8/8/8/4K3 b - - 0 1", Color::White);
        let now = view("4k3/8/8/8/8/8/8/3rK3 w - - 0 2", Color::White);
        let lines = describe_changes(&before, &now);
        assert_eq!(lines, ["Now in sight: black rook on d1."], "{lines:?}");
        assert_eq!(
            describe_changes(&now, &now),
            ["Nothing you can see has changed."]
        );
    }

    #[test]
    fn black_sees_its_board_from_its_side() {
        let v = view(&Position::startpos().fen(), Color::Black);
        let d = view_diagram(&v, false);
        let lines: Vec<&str> = d.lines().collect();
        assert_eq!(lines[0], "1 ? ? ? ? ? ? ? ?");
        assert_eq!(lines[7], "8 r n b k q b n r");
        assert_eq!(lines[8], "  h g f e d c b a");
        let w = view_diagram(&view(&Position::startpos().fen(), Color::White), true);
        assert!(w.starts_with("8 ░ ░"), "{w}");
        assert!(w.ends_with("  a b c d e f g h\n"));
    }
}
