//! `fow.Game`: a game of fog-of-war chess under a rule set, with both sides' views and
//! information states.

use fow_variants::{Color, FogView, Move, Observation, Outcome, Position, RuleSet};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyType};

use crate::arrays::u8_array;
use crate::color::{color_name, parse_color};
use crate::encoding::{action_of, ACTIONS};
use crate::error::fow_error;
use crate::history::{info_tensor, info_text, Turn, INFO_PLANES};
use crate::moves::find_move;
use crate::observation::PyObservation;
use crate::planes::{write_mask, write_planes, PLANES};
use crate::rules::read_rules;

/// A game of fog-of-war chess: the true position, the moves so far, the result, and
/// what each side has seen.
///
/// `Game(rules="thesis", fen=None, **switches)`: `rules` is a preset (`"thesis"`,
/// `"chesscom"`) and switches change it (`en_passant=True`, `draw_plies=50`,
/// `repetition=3`, `promotion="any"`, `castling="rights"`); `fen` a start position.
///
/// >>> g = fow.Game()
/// >>> g.play("e2e4")
/// >>> g.view("black")
/// 'rnbqkbnr/pppppppp/8/8/????????/????????/????????/???????? b kq -'
#[pyclass(name = "Game", module = "fow", skip_from_py_object)]
#[derive(Clone)]
pub struct PyGame {
    game: fow_variants::Game,
    start: Position,
    moves: Vec<Move>,
    outcome: Option<Outcome>,
    /// Each side's view right after its own last move.
    previous: [Option<FogView>; 2],
    /// Each side's turns so far.
    turns: [Vec<Turn>; 2],
    legal: Vec<Move>,
}

fn side(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl PyGame {
    /// A game from `start` under `rules`.
    pub fn from_position(start: Position, rules: RuleSet) -> PyGame {
        let mut g = PyGame {
            game: fow_variants::Game::new(start.clone(), rules),
            start,
            moves: Vec::new(),
            outcome: None,
            previous: [None, None],
            turns: [Vec::new(), Vec::new()],
            legal: Vec::new(),
        };
        g.refresh();
        g
    }

    fn refresh(&mut self) {
        self.legal.clear();
        if self.outcome.is_none() {
            let pos = self.game.position();
            pos.legal_moves_into(self.game.rules(), &mut self.legal);
            if self.legal.is_empty() {
                self.outcome = Some(Outcome {
                    winner: None,
                    end: fow_variants::GameEnd::NoLegalMoves,
                });
            }
        }
    }

    /// The true position.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// The rules.
    pub fn rules(&self) -> &RuleSet {
        self.game.rules()
    }

    /// The legal moves of the side to move (none when the game is over).
    pub fn legal(&self) -> &[Move] {
        &self.legal
    }

    /// The side to move's observation, as a bot receives it.
    pub fn observation_now(&self) -> Observation {
        let pos = self.game.position();
        Observation::new(
            pos,
            self.game.rules(),
            self.game.ply(),
            self.previous[side(pos.turn())].clone(),
        )
    }

    /// Plays a legal move (the caller checked it).
    pub fn play_move(&mut self, m: Move) {
        let mover = self.game.position().turn();
        let rules = *self.game.rules();
        let seen = FogView::of(self.game.position(), mover, &rules);
        self.outcome = self.game.play(&m);
        let after = FogView::of(self.game.position(), mover, &rules);
        self.previous[side(mover)] = Some(after.clone());
        self.turns[side(mover)].push(Turn {
            seen,
            played: m,
            after,
        });
        self.moves.push(m);
        self.refresh();
    }

    /// Whether the game is over.
    pub fn over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The result, if over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// What `color` sees now.
    pub fn view_of(&self, color: Color) -> FogView {
        FogView::of(self.game.position(), color, self.game.rules())
    }

    /// The side that played the last move, if any.
    fn last_mover(&self) -> Option<Color> {
        let n = self.moves.len();
        let first = self.start.turn();
        (n > 0).then(|| if n % 2 == 1 { first } else { !first })
    }

    /// `color`'s turns so far, and its view now unless that view is already its last
    /// turn's view after the move: so when it is to move, before its first move (Black at
    /// the start sees its side of the start position) and when the game ended on the
    /// other side's move.
    pub fn history(&self, color: Color) -> (&[Turn], Option<FogView>) {
        let now = (self.last_mover() != Some(color)).then(|| self.view_of(color));
        (&self.turns[side(color)], now)
    }
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (rules="thesis", fen=None, **switches))]
    fn new(rules: &str, fen: Option<&str>, switches: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let rules = read_rules(rules, switches)?;
        let start = match fen {
            Some(f) => Position::from_fen(f).map_err(fow_error)?,
            None => Position::startpos(),
        };
        if start.legal_moves(&rules).is_empty()
            || !start.has_king(Color::White)
            || !start.has_king(Color::Black)
        {
            return Err(fow_error(format!(
                "the position '{}' cannot start a game: each side needs its king, and the side to move a legal move",
                fow_variants::quote(&start.fen())
            )));
        }
        Ok(PyGame::from_position(start, rules))
    }

    /// The rule set's name (`thesis`, `chesscom` or `custom`).
    #[getter]
    fn rules_name(&self) -> &'static str {
        self.game.rules().name()
    }

    /// Every rule switch as `key=value` text.
    #[getter]
    fn switches(&self) -> String {
        self.game.rules().switches()
    }

    /// The true position as FEN.
    #[getter]
    fn fen(&self) -> String {
        self.game.position().fen()
    }

    /// The position the game started from, as FEN.
    #[getter]
    fn start_fen(&self) -> String {
        self.start.fen()
    }

    /// The side to move: `"white"` or `"black"`.
    #[getter]
    fn turn(&self) -> &'static str {
        color_name(self.game.position().turn())
    }

    /// Plies played.
    #[getter]
    fn ply(&self) -> u32 {
        self.game.ply()
    }

    /// The moves played, in UCI.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.moves.iter().map(|m| m.uci()).collect()
    }

    /// The side to move's legal moves in UCI (none when the game is over), in fow's
    /// generation order.
    fn legal_moves(&self) -> Vec<String> {
        self.legal.iter().map(|m| m.uci()).collect()
    }

    /// The side to move's legal moves as action numbers, in the same order.
    fn legal_actions(&self) -> Vec<usize> {
        self.legal.iter().map(action_of).collect()
    }

    /// The legal-action mask: a uint8 array of `fow.ACTIONS`, 1 where legal.
    fn mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        u8_array(py, &[ACTIONS], |b| write_mask(&self.legal, b))
    }

    /// Plays a move, given as UCI text or an action number. Raises `FowError` for an
    /// illegal move or when the game is over.
    fn play(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        if let Some(o) = self.outcome {
            return Err(fow_error(format!(
                "the game is over ({})",
                fow_records_reason(o)
            )));
        }
        let m = find_move(&self.legal, mv)?;
        self.play_move(m);
        Ok(())
    }

    /// Whether the game is over.
    #[getter]
    fn is_over(&self) -> bool {
        self.over()
    }

    /// `"1-0"`, `"0-1"`, `"1/2-1/2"`, or `"*"` while the game goes on.
    #[getter]
    fn result(&self) -> &'static str {
        match self.outcome {
            None => "*",
            Some(o) => match o.winner {
                Some(Color::White) => "1-0",
                Some(Color::Black) => "0-1",
                None => "1/2-1/2",
            },
        }
    }

    /// The winner, `"white"` or `"black"`; `None` for a draw or a game going on.
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        self.outcome.and_then(|o| o.winner).map(color_name)
    }

    /// Why the game ended (`"king captured"`, `"no progress"`, `"repetition"`,
    /// `"no legal moves"`), or `None` while it goes on.
    #[getter]
    fn reason(&self) -> Option<String> {
        self.outcome.map(fow_records_reason)
    }

    /// A copy of the game, to play on without changing this one.
    fn clone(&self) -> PyGame {
        Clone::clone(self)
    }

    fn __copy__(&self) -> PyGame {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        Clone::clone(self)
    }

    /// Pickling: the game is its rules, start and moves, replayed on loading (so a game
    /// can cross to another process, or sit in a pickled OpenSpiel state).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, ReplayArgs)> {
        let replay = py.get_type::<PyGame>().getattr("replay")?;
        Ok((replay, (self.moves(), self.switches(), self.start.fen())))
    }

    /// What `color` sees now, as fog-FEN (`?` for fog).
    fn view(&self, color: &Bound<'_, PyAny>) -> PyResult<String> {
        Ok(self.view_of(parse_color(color)?).to_string())
    }

    /// What `color` sees now as a uint8 array of shape `(16, 8, 8)` (`fow.PLANES`; the
    /// planes are documented in the manual and `help(fow)`).
    fn tensor<'py>(
        &self,
        py: Python<'py>,
        color: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let v = self.view_of(parse_color(color)?);
        u8_array(py, &[PLANES, 8, 8], |b| write_planes(&v, b))
    }

    /// The side to move's observation: all a bot is given for its move.
    fn observation(&self) -> PyResult<PyObservation> {
        if self.over() {
            return Err(fow_error("the game is over: no side is to move"));
        }
        Ok(PyObservation::new(self.observation_now()))
    }

    /// `color`'s perfect-recall information state as text: one line per turn (what it
    /// saw, what it played, what it saw then); `now` with its view when it has seen more
    /// since (it is to move, Black before its first move, or the game ended on the other
    /// side's move); and `over` with the result and its reason when the game is over.
    fn info_state(&self, color: &Bound<'_, PyAny>) -> PyResult<String> {
        let c = parse_color(color)?;
        let (turns, now) = self.history(c);
        let over = self
            .outcome
            .map(|o| format!("{} ({})", self.result(), fow_records_reason(o)));
        Ok(info_text(
            color_name(c),
            turns,
            now.as_ref(),
            over.as_deref(),
        ))
    }

    /// `color`'s information state as a uint8 array of shape `(rows, 38, 8, 8)`: a row
    /// per turn (the view, the move, the view after), then a row with the view now and
    /// zeros for the rest when the text has a `now` line.
    fn info_state_tensor<'py>(
        &self,
        py: Python<'py>,
        color: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (turns, now) = self.history(parse_color(color)?);
        let rows = turns.len() + usize::from(now.is_some());
        u8_array(py, &[rows, INFO_PLANES, 8, 8], |b| {
            info_tensor(turns, now.as_ref(), b)
        })
    }

    /// The true board as a diagram.
    fn board(&self) -> String {
        fow_variants::board_diagram(self.game.position().board(), false)
    }

    /// What `color` sees as a diagram (`?` for fog).
    fn diagram(&self, color: &Bound<'_, PyAny>) -> PyResult<String> {
        Ok(self.view_of(parse_color(color)?).diagram(false))
    }

    /// The number of leaf nodes `depth` plies ahead (as `fow perft`; a captured king ends
    /// a line).
    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        let pos = self.game.position().clone();
        let rules = *self.game.rules();
        py.detach(move || fow_variants::perft(&pos, depth, &rules))
    }

    fn __repr__(&self) -> String {
        format!(
            "fow.Game(rules={}, fen='{}', ply={}, result={})",
            self.game.rules(),
            self.game.position().fen(),
            self.game.ply(),
            self.result()
        )
    }

    fn __str__(&self) -> String {
        self.board()
    }

    /// A game from a results folder's or a PGN's start and moves (UCI), checked move by move.
    #[classmethod]
    #[pyo3(signature = (moves, rules="thesis", fen=None, **switches))]
    fn replay(
        _cls: &Bound<'_, PyType>,
        moves: Vec<String>,
        rules: &str,
        fen: Option<&str>,
        switches: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyGame> {
        let mut g = PyGame::new(rules, fen, switches)?;
        for (i, m) in moves.iter().enumerate() {
            if g.over() {
                return Err(fow_error(format!(
                    "move {} ({m}): the game was already over",
                    i + 1
                )));
            }
            let mv = crate::encoding::action_of_uci(m)
                .map_err(fow_error)
                .and_then(|a| crate::moves::find_action(&g.legal, a as i64))
                .map_err(|e| fow_error(format!("move {} ({m}): {e}", i + 1)))?;
            g.play_move(mv);
        }
        Ok(g)
    }
}

/// `Game.replay`'s arguments that rebuild a game: its moves (UCI), rules and start (FEN).
type ReplayArgs = (Vec<String>, String, String);

/// The reason a game ended, as results folders write it.
pub fn fow_records_reason(o: Outcome) -> String {
    fow_records::Reason::from(o.end).to_string()
}
