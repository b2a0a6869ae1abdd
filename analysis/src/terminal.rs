//! The interactive terminal viewer of a [`Replay`] (`fow replay` in a terminal): raw
//! mode and the alternate screen, three coloured boards side by side, keys to step. The
//! terminal is restored on every exit, a panic included.

use std::io::{self, Write};

use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::style::{
    Attribute, Color as Ink, Print, ResetColor, SetAttribute, SetBackgroundColor,
    SetForegroundColor,
};
use crossterm::{cursor, queue, terminal};
use fow_variants::shakmaty::{File, Rank};
use fow_variants::{piece_symbol, Bitboard, Board, Square};

use crate::replay::{header, move_facts, Replay};

/// Why the viewer did not run to the end.
#[derive(Debug)]
pub enum TerminalError {
    /// No terminal to take over (raw mode could not be entered): print instead.
    NoTerminal(io::Error),
    /// Drawing or reading keys failed.
    Io(io::Error),
}

/// The keys, as the help line shows them.
const HELP: &str = "→/l/space next  ←/h back  PgDn/PgUp ±10  Home/g start  End/G end  q/Esc quit";

/// Columns the three boards need (each 2 + 8 * 2, with gaps of 4).
const BOARDS_WIDTH: u16 = 3 * 18 + 2 * 4;

/// Square colours (256-colour palette, which nearly every terminal has).
const LIGHT: Ink = Ink::AnsiValue(223);
const DARK: Ink = Ink::AnsiValue(137);
const LIGHT_MOVED: Ink = Ink::AnsiValue(186);
const DARK_MOVED: Ink = Ink::AnsiValue(143);
const FOG: Ink = Ink::AnsiValue(240);
const FOG_TEXT: Ink = Ink::AnsiValue(248);
const PIECE: Ink = Ink::AnsiValue(16);

/// Shows `r` in the terminal until the user quits, pieces as Unicode symbols or
/// (`unicode` false) letters.
pub fn view_in_terminal(r: &Replay, unicode: bool) -> Result<(), TerminalError> {
    terminal::enable_raw_mode().map_err(TerminalError::NoTerminal)?;
    let _guard = Guard::enter().map_err(TerminalError::Io)?;
    let mut viewer = Viewer { r, unicode, ply: 0 };
    let mut out = io::stdout();
    viewer.draw(&mut out).map_err(TerminalError::Io)?;
    loop {
        match event::read().map_err(TerminalError::Io)? {
            Event::Key(key) if key.kind != KeyEventKind::Release => {
                if !viewer.key(key) {
                    return Ok(());
                }
            }
            Event::Resize(..) => {}
            _ => continue,
        }
        viewer.draw(&mut out).map_err(TerminalError::Io)?;
    }
}

/// Holds the terminal in raw mode on the alternate screen; dropping it (or a panic)
/// restores the terminal.
struct Guard;

impl Guard {
    /// Enters the alternate screen (raw mode is on already) and arms the panic hook.
    fn enter() -> io::Result<Guard> {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
        let mut out = io::stdout();
        let entered = queue!(
            out,
            terminal::EnterAlternateScreen,
            terminal::DisableLineWrap,
            cursor::Hide
        )
        .and_then(|()| out.flush());
        if let Err(e) = entered {
            restore();
            return Err(e);
        }
        Ok(Guard)
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

/// Leaves raw mode and the alternate screen and shows the cursor (harmless twice).
fn restore() {
    let mut out = io::stdout();
    let _ = queue!(
        out,
        ResetColor,
        cursor::Show,
        terminal::EnableLineWrap,
        terminal::LeaveAlternateScreen
    );
    let _ = out.flush();
    let _ = terminal::disable_raw_mode();
}

struct Viewer<'a> {
    r: &'a Replay,
    unicode: bool,
    ply: usize,
}

/// A piece of a line: text and its colours.
struct Span {
    text: String,
    fg: Option<Ink>,
    bg: Option<Ink>,
    bold: bool,
}

fn plain(text: impl Into<String>) -> Span {
    Span {
        text: text.into(),
        fg: None,
        bg: None,
        bold: false,
    }
}

fn bold(text: impl Into<String>) -> Span {
    Span {
        bold: true,
        ..plain(text)
    }
}

impl Viewer<'_> {
    fn last(&self) -> usize {
        self.r.frames.len() - 1
    }

    /// Applies a key; false to quit.
    fn key(&mut self, key: KeyEvent) -> bool {
        let last = self.last();
        match key.code {
            KeyCode::Char('q') | KeyCode::Esc => return false,
            KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => return false,
            KeyCode::Right | KeyCode::Char('l') | KeyCode::Char(' ') | KeyCode::Enter => {
                self.ply = (self.ply + 1).min(last)
            }
            KeyCode::Left | KeyCode::Char('h') | KeyCode::Backspace => {
                self.ply = self.ply.saturating_sub(1)
            }
            KeyCode::PageDown => self.ply = (self.ply + 10).min(last),
            KeyCode::PageUp => self.ply = self.ply.saturating_sub(10),
            KeyCode::Home | KeyCode::Char('g') => self.ply = 0,
            KeyCode::End | KeyCode::Char('G') => self.ply = last,
            _ => {}
        }
        true
    }

    /// The screen's lines for the current ply.
    fn lines(&self) -> Vec<Vec<Span>> {
        let r = self.r;
        let frame = &r.frames[self.ply];
        let mut lines: Vec<Vec<Span>> = Vec::new();
        let head = header(r);
        lines.push(vec![bold(format!("fow replay  {}", head[0]))]);
        for h in &head[1..] {
            lines.push(vec![plain(h.clone())]);
        }
        lines.push(vec![]);
        let facts = move_facts(frame);
        lines.push(vec![
            bold(format!("ply {}/{}: ", frame.ply, self.last())),
            bold(facts[0].clone()),
        ]);
        for f in &facts[1..] {
            lines.push(vec![plain(f.clone())]);
        }
        match r.analysis_line(frame.ply) {
            Some(a) => lines.push(vec![plain(a)]),
            None if r.analysis.is_some() && frame.ply > 0 => {
                lines.push(vec![plain("analysis: none for this move")])
            }
            None => {}
        }
        lines.push(vec![]);
        let moved: Bitboard = frame.played.as_ref().map_or(Bitboard::EMPTY, |p| {
            let mut b = Bitboard::from(p.mv.from) | Bitboard::from(p.mv.to);
            if let Some((_, sq)) = p.capture {
                b.add(sq);
            }
            b
        });
        let boards = [
            ("true board", frame.position.board(), Bitboard::FULL),
            ("White sees", frame.white.board(), frame.white.visible()),
            ("Black sees", frame.black.board(), frame.black.visible()),
        ];
        let mut title = Vec::new();
        for (i, (name, _, _)) in boards.iter().enumerate() {
            let gap = if i == 0 { "" } else { "    " };
            title.push(plain(format!("{gap}{name:<18}")));
        }
        lines.push(title);
        for rank in Rank::ALL.into_iter().rev() {
            let mut line = Vec::new();
            for (i, (_, board, visible)) in boards.iter().enumerate() {
                let gap = if i == 0 { "" } else { "    " };
                line.push(plain(format!("{gap}{} ", rank.char())));
                for file in File::ALL {
                    line.push(self.square(board, *visible, moved, Square::from_coords(file, rank)));
                }
            }
            lines.push(line);
        }
        let mut files = Vec::new();
        for i in 0..boards.len() {
            let gap = if i == 0 { "" } else { "    " };
            files.push(plain(format!("{gap}  a b c d e f g h ")));
        }
        lines.push(files);
        lines.push(vec![]);
        if self.ply == self.last() {
            lines.push(vec![bold(format!(
                "end: {}",
                fow_records::outcome_text(&r.game)
            ))]);
        } else {
            lines.push(vec![]);
        }
        lines.push(vec![plain(HELP)]);
        lines
    }

    /// One square, two columns wide.
    fn square(&self, board: &Board, visible: Bitboard, moved: Bitboard, sq: Square) -> Span {
        let light = (sq.file() as u32 + sq.rank() as u32) % 2 == 1;
        if !visible.contains(sq) {
            return Span {
                text: if self.unicode { "░░" } else { "??" }.to_string(),
                fg: Some(FOG_TEXT),
                bg: Some(FOG),
                bold: false,
            };
        }
        let bg = match (light, moved.contains(sq)) {
            (true, false) => LIGHT,
            (false, false) => DARK,
            (true, true) => LIGHT_MOVED,
            (false, true) => DARK_MOVED,
        };
        let text = match board.piece_at(sq) {
            None => "  ".to_string(),
            Some(p) if self.unicode => format!("{} ", piece_symbol(p)),
            Some(p) => format!("{} ", p.char()),
        };
        Span {
            text,
            fg: Some(PIECE),
            bg: Some(bg),
            bold: true,
        }
    }

    fn draw(&self, out: &mut impl Write) -> io::Result<()> {
        let (width, height) = terminal::size().unwrap_or((80, 24));
        let mut lines = self.lines();
        if width < BOARDS_WIDTH || (height as usize) < lines.len() {
            lines.insert(
                0,
                vec![bold(format!(
                    "(the terminal is {width}x{height}; {BOARDS_WIDTH}x{} shows everything)",
                    lines.len() + 1
                ))],
            );
        }
        queue!(out, terminal::Clear(terminal::ClearType::All))?;
        for (row, line) in lines.iter().enumerate().take(height as usize) {
            queue!(out, cursor::MoveTo(0, row as u16))?;
            for span in line {
                if span.bold {
                    queue!(out, SetAttribute(Attribute::Bold))?;
                }
                if let Some(c) = span.fg {
                    queue!(out, SetForegroundColor(c))?;
                }
                if let Some(c) = span.bg {
                    queue!(out, SetBackgroundColor(c))?;
                }
                queue!(out, Print(&span.text))?;
                if span.bold || span.fg.is_some() || span.bg.is_some() {
                    queue!(out, SetAttribute(Attribute::Reset), ResetColor)?;
                }
            }
        }
        out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fow_records::SavedGame;
    use fow_variants::RuleSet;

    fn replay() -> Replay {
        let game = SavedGame::from_uci("A", "B", RuleSet::thesis(), &["e2e4", "e7e5", "g1f3"])
            .expect("a legal game");
        Replay::new(game, None, String::new())
    }

    fn press(v: &mut Viewer<'_>, code: KeyCode) -> bool {
        v.key(KeyEvent::new(code, KeyModifiers::NONE))
    }

    /// Steps stay within the game's plies; q, Esc and Ctrl-C quit.
    #[test]
    fn keys_step_within_the_game_and_quit() {
        let r = replay();
        let mut v = Viewer {
            r: &r,
            unicode: false,
            ply: 0,
        };
        assert!(press(&mut v, KeyCode::Left));
        assert_eq!(v.ply, 0);
        assert!(press(&mut v, KeyCode::Char('l')));
        assert!(press(&mut v, KeyCode::Char(' ')));
        assert_eq!(v.ply, 2);
        assert!(press(&mut v, KeyCode::PageDown));
        assert_eq!(v.ply, 3);
        assert!(press(&mut v, KeyCode::Char('g')));
        assert_eq!(v.ply, 0);
        assert!(press(&mut v, KeyCode::Char('G')));
        assert_eq!(v.ply, 3);
        assert!(press(&mut v, KeyCode::PageUp));
        assert_eq!(v.ply, 0);
        assert!(!press(&mut v, KeyCode::Char('q')));
        assert!(!press(&mut v, KeyCode::Esc));
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert!(!v.key(ctrl_c));
    }

    /// The screen: the header in bold, the ply over the last, three boards of eight
    /// ranks with fog drawn as `??` in ASCII, the result only at the end, then the keys.
    #[test]
    fn screen_shows_the_ply_the_boards_and_at_the_end_the_result() {
        let r = replay();
        let text = |v: &Viewer<'_>| -> Vec<String> {
            v.lines()
                .iter()
                .map(|l| l.iter().map(|s| s.text.as_str()).collect())
                .collect()
        };
        let mut v = Viewer {
            r: &r,
            unicode: false,
            ply: 1,
        };
        let lines = text(&v);
        assert_eq!(lines[0], "fow replay  A vs B: A (White) vs B (Black)");
        assert!(lines.contains(&"ply 1/3: 1. e4 (e2e4), no capture".to_string()));
        let rank_8 = lines.iter().find(|l| l.starts_with("8 ")).expect("rank 8");
        assert_eq!(
            rank_8,
            "8 r n b q k b n r     8 ????????????????    8 r n b q k b n r "
        );
        assert!(!lines.iter().any(|l| l.starts_with("end: ")));
        assert_eq!(lines.last().map(String::as_str), Some(HELP));
        v.ply = 3;
        let lines = text(&v);
        let result = format!("end: {}", fow_records::outcome_text(&r.game));
        assert!(lines.contains(&result), "{lines:?}");
    }
}
