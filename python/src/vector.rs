//! `fow.VecGames`: N games stepped at once with numpy arrays in and out, for agents that
//! train on batches. Each step plays one move in every game, in parallel (rayon), and
//! writes the side to move's observation and legal-action mask of every game straight
//! into the arrays it returns; a game that ends starts again at once (auto-reset, as
//! gymnasium's vector environments do).

use fow_records::seed::mix;
use fow_variants::{Color, Game, GameEnd, Move, Observation, Position, RuleSet};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyDict, PyTuple};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;

use crate::arrays::view;
use crate::encoding::{action_of, uci_of, ACTIONS};
use crate::error::fow_error;
use crate::planes::{bitboards, write_mask, write_packed_mask, write_planes, PLANES, VIEW_BYTES};
use crate::rules::read_rules;

/// The most games one `VecGames` holds (each keeps a few kilobytes of move tables).
const MAX_GAMES: usize = 1 << 16;

/// What the `reason` array's codes mean: 0 while a game goes on, then why it ended.
const REASONS: [&str; 6] = [
    "",
    "king captured",
    "no progress",
    "repetition",
    "no legal moves",
    "max plies",
];

/// The code of a truncation by `max_plies` in the `reason` array.
const TRUNCATED: u8 = 5;

/// One game of the batch: the game, the side to move's observation (one slot per colour,
/// refreshed in place), and the game's own random stream for `step_random`.
struct Lane {
    game: Game,
    slots: [Option<Observation>; 2],
    rng: Pcg64Mcg,
    /// The last step's reward for the side that moved, and its reason code (0: going on).
    reward: f32,
    reason: u8,
}

fn index(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// Game `i`'s random stream under `seed`: distinct games and seeds give unrelated streams.
fn lane_rng(seed: u64, i: usize) -> Pcg64Mcg {
    Pcg64Mcg::seed_from_u64(mix(mix(seed) ^ i as u64))
}

impl Lane {
    fn new(rules: RuleSet, rng: Pcg64Mcg) -> Lane {
        let mut lane = Lane {
            game: Game::new(Position::startpos(), rules),
            slots: [None, None],
            rng,
            reward: 0.0,
            reason: 0,
        };
        lane.observe();
        lane
    }

    /// Builds the side to move's observation and lists its legal moves.
    fn observe(&mut self) -> usize {
        let pos = self.game.position();
        let slot = &mut self.slots[index(pos.turn())];
        let obs = Observation::for_turn(slot, pos, self.game.rules(), self.game.ply());
        obs.legal_moves().len()
    }

    /// The side to move's observation.
    fn observation(&self) -> &Observation {
        self.slots[index(self.game.position().turn())]
            .as_ref()
            .expect("observed after every move")
    }

    /// The legal move with action number `action`, if there is one.
    fn find(&self, action: i128) -> Option<Move> {
        self.observation()
            .legal_moves()
            .iter()
            .find(|m| action_of(m) as i128 == action)
            .copied()
    }

    /// A uniformly random legal move from the game's stream.
    fn random_move(&mut self) -> Move {
        let n = self.observation().legal_moves().len();
        let i = self.rng.random_range(0..n);
        self.observation().legal_moves()[i]
    }

    /// Starts the game again.
    fn restart(&mut self) {
        self.game = Game::new(Position::startpos(), *self.game.rules());
        self.observe();
    }

    /// Plays a legal move; a game that ends (or reaches `max_plies`) starts again.
    fn play(&mut self, m: Move, max_plies: Option<u32>) {
        let mover = self.game.position().turn();
        let mut outcome = self.game.play(&m);
        if outcome.is_none() && self.observe() == 0 {
            outcome = Some(fow_variants::Outcome {
                winner: None,
                end: GameEnd::NoLegalMoves,
            });
        }
        (self.reward, self.reason) = match outcome {
            Some(o) => (
                match o.winner {
                    Some(w) if w == mover => 1.0,
                    Some(_) => -1.0,
                    None => 0.0,
                },
                match o.end {
                    GameEnd::KingCaptured => 1,
                    GameEnd::NoProgress => 2,
                    GameEnd::Repetition => 3,
                    GameEnd::NoLegalMoves => 4,
                },
            ),
            None if max_plies.is_some_and(|p| self.game.ply() >= p) => (0.0, TRUNCATED),
            None => (0.0, 0),
        };
        if self.reason != 0 {
            self.restart();
        }
    }

    /// Writes the side to move's planes (bytes, or bitboards when `packed`) and mask.
    fn write(&self, packed: bool, planes: &mut [u8], mask: &mut [u8]) {
        let obs = self.observation();
        if packed {
            for (out, bits) in planes.chunks_exact_mut(8).zip(bitboards(obs.view())) {
                out.copy_from_slice(&bits.to_le_bytes());
            }
            write_packed_mask(obs.legal_moves(), mask);
        } else {
            write_planes(obs.view(), planes);
            write_mask(obs.legal_moves(), mask);
        }
    }
}

/// How an action array reads: a 1-d integer array of one action per game.
fn read_actions(py: Python<'_>, actions: &Bound<'_, PyAny>, n: usize) -> PyResult<Vec<i128>> {
    let np = py.import("numpy")?;
    let a = np.call_method1("asarray", (actions,))?;
    let shape: Vec<usize> = a.getattr("shape")?.extract()?;
    let kind: String = a.getattr("dtype")?.getattr("kind")?.extract()?;
    if kind != "i" && kind != "u" {
        let dtype = a.getattr("dtype")?.str()?.to_string();
        return Err(fow_error(format!(
            "actions are integers (one action number per game), not {dtype}"
        )));
    }
    if shape != [n] {
        let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
        let comma = if shape.len() == 1 { "," } else { "" };
        return Err(fow_error(format!(
            "actions have shape ({n},), one per game, not ({}{comma})",
            dims.join(", ")
        )));
    }
    let unsigned = kind == "u";
    let bytes = a
        .call_method1("astype", (if unsigned { "<u8" } else { "<i8" },))?
        .call_method0("tobytes")?;
    let bytes: &[u8] = bytes.extract()?;
    Ok(bytes
        .chunks_exact(8)
        .map(|c| {
            let b: [u8; 8] = c.try_into().expect("8 bytes");
            if unsigned {
                u64::from_le_bytes(b) as i128
            } else {
                i64::from_le_bytes(b) as i128
            }
        })
        .collect())
}

/// A seed: an integer from 0 to 2**64 - 1.
fn read_seed(value: i128) -> PyResult<u64> {
    u64::try_from(value).map_err(|_| {
        fow_error(format!(
            "a seed is an integer from 0 to 2**64 - 1, not {value}"
        ))
    })
}

/// The error for game `i`'s action `a`, which is no legal move there.
fn illegal(i: usize, a: i128, legal: usize) -> PyErr {
    match usize::try_from(a).ok().and_then(uci_of) {
        Some(uci) => fow_error(format!(
            "game {i}: illegal move {uci} (action {a}): not among the {legal} legal moves"
        )),
        None => fow_error(format!(
            "game {i}: {a} is not an action (0 to {})",
            ACTIONS - 1
        )),
    }
}

/// A raw pointer to a new bytearray's bytes, to write disjoint parts of it from several
/// threads.
#[derive(Clone, Copy)]
struct Bytes(*mut u8);

// SAFETY: `Bytes` only hands out disjoint parts of one buffer (see `Bytes::zeroed`),
// which the threads write without sharing.
unsafe impl Send for Bytes {}
unsafe impl Sync for Bytes {}

impl Bytes {
    /// The `len` bytes at `offset`, zeroed.
    ///
    /// # Safety
    /// The range lies in the buffer, which outlives the slice, and no other slice of
    /// that range is alive.
    unsafe fn zeroed<'a>(self, offset: usize, len: usize) -> &'a mut [u8] {
        let p = self.0.add(offset);
        std::ptr::write_bytes(p, 0, len);
        std::slice::from_raw_parts_mut(p, len)
    }
}

/// A new bytearray of `len` bytes not yet written, and a pointer to them: unlike
/// `PyByteArray::new_with`, which first zeroes the whole buffer on the calling thread,
/// each part is zeroed just before it is filled, by the thread that fills it. The caller
/// writes every byte (through `Bytes::zeroed`) before Python sees the buffer.
fn unwritten_bytearray(py: Python<'_>, len: usize) -> PyResult<(Bound<'_, PyByteArray>, Bytes)> {
    let size = pyo3::ffi::Py_ssize_t::try_from(len)
        .map_err(|_| fow_error(format!("{len} bytes are too many for one array")))?;
    // SAFETY: with a null source CPython allocates `size` bytes and copies nothing; a
    // null result (no memory) becomes the Python error.
    let buf = unsafe {
        Bound::from_owned_ptr_or_err(
            py,
            pyo3::ffi::PyByteArray_FromStringAndSize(std::ptr::null(), size),
        )?
    };
    let buf = buf.cast_into::<PyByteArray>()?;
    // SAFETY: the bytearray is alive and not resized while the pointer is used.
    let data = unsafe { pyo3::ffi::PyByteArray_AsString(buf.as_ptr()) };
    Ok((buf, Bytes(data.cast())))
}

/// N games of fog-of-war chess stepped together, with numpy arrays in and out.
///
/// `VecGames(n, rules="thesis", seed=0, max_plies=None, packed=False, **switches)`: `n`
/// games (1 to 65536) from the standard start under `rules` and its switches (as
/// `fow.Game`). Each step plays one move in every game; `max_plies` cuts a game off
/// (truncates it) after that many plies.
///
/// The arrays describe the side to move in each game, as `fow.Game` does:
///
/// - observations: uint8 `(n, 16, 8, 8)`, the planes of `Game.tensor(turn)`; with
///   `packed=True`, uint64 `(n, 16)`, plane `p` of game `i` as a bitboard (bit
///   `rank * 8 + file`, a1 = bit 0);
/// - masks: uint8 `(n, fow.ACTIONS)`, 1 where an action is legal; packed, uint8
///   `(n, fow.ACTIONS // 8)`, bit `a % 8` of byte `a // 8` (read them with
///   `numpy.unpackbits(masks, axis=1, bitorder="little")`).
///
/// Auto-reset: a game that ends (a king captured, a draw) or reaches `max_plies` starts
/// again from the start within the same step; that step's `dones` is True for it and its
/// observation and mask are the new game's first. Nothing is random in the rules, so a
/// reset is the same every time; the random streams serve only `random_actions` and
/// `step_random` (game `i`'s stream follows from `seed` and `i`).
///
/// >>> v = fow.VecGames(4, seed=1)
/// >>> obs, masks = v.reset()
/// >>> obs.shape, masks.shape
/// ((4, 16, 8, 8), (4, 4288))
/// >>> obs, masks, rewards, dones, info = v.step(v.random_actions())
#[pyclass(name = "VecGames", module = "fow")]
pub struct PyVecGames {
    lanes: Vec<Lane>,
    rules: RuleSet,
    seed: u64,
    max_plies: Option<u32>,
    packed: bool,
}

impl PyVecGames {
    /// Bytes of one game's observation and of its mask.
    fn sizes(&self) -> (usize, usize) {
        if self.packed {
            (PLANES * 8, ACTIONS / 8)
        } else {
            (VIEW_BYTES, ACTIONS)
        }
    }

    /// The observations and masks now (and, `with_step`, the last step's rewards, dones
    /// and info), after `play` has run on every game in parallel.
    fn advance<'py>(
        &mut self,
        py: Python<'py>,
        with_step: bool,
        play: impl Fn(usize, &mut Lane) + Sync,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let n = self.lanes.len();
        let (ob, mb) = self.sizes();
        // One buffer: observations, masks, rewards, then dones, truncated, turn and
        // reason, each a numpy view of its part; every part before the small arrays is a
        // whole number of 8-byte words, so each starts 8-byte aligned.
        let (o_obs, o_mask) = (0, n * ob);
        let o_rew = o_mask + n * mb;
        let o_small = o_rew + 4 * n;
        let (o_done, o_trunc, o_turn, o_reason) =
            (o_small, o_small + n, o_small + 2 * n, o_small + 3 * n);
        let len = o_small + 4 * n;
        let packed = self.packed;
        let lanes = &mut self.lanes;
        let (buf, bytes) = unwritten_bytearray(py, len)?;
        py.detach(|| {
            lanes
                .par_iter_mut()
                .enumerate()
                .with_min_len(16)
                .for_each(|(i, lane)| {
                    play(i, lane);
                    // SAFETY: game i's parts of the observations and of the masks are
                    // its own; no other game's and no other part overlaps them.
                    let (p, m) = unsafe {
                        (
                            bytes.zeroed(o_obs + i * ob, ob),
                            bytes.zeroed(o_mask + i * mb, mb),
                        )
                    };
                    lane.write(packed, p, m);
                });
            // SAFETY: the rewards and the small arrays, after the parallel part, which
            // did not touch them; together with it every byte is written.
            let (rewards, small) =
                unsafe { (bytes.zeroed(o_rew, 4 * n), bytes.zeroed(o_small, 4 * n)) };
            for (i, lane) in lanes.iter().enumerate() {
                rewards[4 * i..4 * i + 4].copy_from_slice(&lane.reward.to_le_bytes());
                small[i] = u8::from(lane.reason != 0);
                small[n + i] = u8::from(lane.reason == TRUNCATED);
                small[2 * n + i] = index(lane.game.position().turn()) as u8;
                small[3 * n + i] = lane.reason;
            }
        });
        let obs = if packed {
            view(&buf, "<u8", o_obs, &[n, PLANES])?
        } else {
            view(&buf, "uint8", o_obs, &[n, PLANES, 8, 8])?
        };
        let masks = view(&buf, "uint8", o_mask, &[n, mb])?;
        if !with_step {
            return PyTuple::new(py, [obs, masks]);
        }
        let info = PyDict::new(py);
        info.set_item("turn", view(&buf, "uint8", o_turn, &[n])?)?;
        info.set_item("truncated", view(&buf, "bool", o_trunc, &[n])?)?;
        info.set_item("reason", view(&buf, "uint8", o_reason, &[n])?)?;
        PyTuple::new(
            py,
            [
                obs,
                masks,
                view(&buf, "<f4", o_rew, &[n])?,
                view(&buf, "bool", o_done, &[n])?,
                info.into_any(),
            ],
        )
    }
}

#[pymethods]
impl PyVecGames {
    #[new]
    #[pyo3(signature = (n, rules="thesis", seed=0, max_plies=None, packed=false, **switches))]
    fn new(
        n: i128,
        rules: &str,
        seed: i128,
        max_plies: Option<i128>,
        packed: bool,
        switches: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let rules = read_rules(rules, switches)?;
        let seed = read_seed(seed)?;
        if !(1..=MAX_GAMES as i128).contains(&n) {
            return Err(fow_error(format!(
                "n is the number of games, 1 to {MAX_GAMES}, not {n}"
            )));
        }
        let max_plies = match max_plies {
            None => None,
            Some(p) if (1..=i128::from(u32::MAX)).contains(&p) => Some(p as u32),
            Some(p) => {
                return Err(fow_error(format!(
                    "max_plies is at least 1 (or None for no limit), not {p}"
                )))
            }
        };
        let lanes = (0..n as usize)
            .into_par_iter()
            .map(|i| Lane::new(rules, lane_rng(seed, i)))
            .collect();
        Ok(PyVecGames {
            lanes,
            rules,
            seed,
            max_plies,
            packed,
        })
    }

    /// Starts every game again and returns `(observations, masks)` of the side to move.
    /// With `seed`, the random streams of `random_actions` and `step_random` start again
    /// from it (otherwise they go on).
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<i128>) -> PyResult<Bound<'py, PyTuple>> {
        let seed = seed.map(read_seed).transpose()?;
        if let Some(s) = seed {
            self.seed = s;
        }
        self.advance(py, false, |i, lane| {
            lane.restart();
            if let Some(s) = seed {
                lane.rng = lane_rng(s, i);
            }
        })
    }

    /// Plays `actions[i]` in game `i` for every game and returns `(observations, masks,
    /// rewards, dones, info)`:
    ///
    /// - observations and masks: the side to move's, after the move (after the reset, in
    ///   a game that ended);
    /// - rewards: float32 `(n,)` for the side that just moved: +1 when it won, -1 when it
    ///   lost, 0 otherwise (the other side's reward is the opposite);
    /// - dones: bool `(n,)`, True where the game ended or was truncated (and restarted);
    /// - info: `turn` (uint8 `(n,)`, 0 White, 1 Black: the side to move in the arrays),
    ///   `truncated` (bool `(n,)`, True where `max_plies` cut the game off) and `reason`
    ///   (uint8 `(n,)`, an index into `VecGames.REASONS`; 0 where the game goes on).
    ///
    /// `actions` is any integer array (or list) of shape `(n,)`. An action that is not
    /// legal in its game raises `FowError` naming the game and the move, and no game
    /// changes.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let actions = read_actions(py, actions, self.lanes.len())?;
        let moves: Vec<Option<Move>> = py.detach(|| {
            self.lanes
                .par_iter()
                .zip(actions.par_iter())
                .with_min_len(64)
                .map(|(lane, &a)| lane.find(a))
                .collect()
        });
        if let Some(i) = moves.iter().position(Option::is_none) {
            let legal = self.lanes[i].observation().legal_moves().len();
            return Err(illegal(i, actions[i], legal));
        }
        let max_plies = self.max_plies;
        self.advance(py, true, |i, lane| {
            lane.play(moves[i].expect("checked above"), max_plies)
        })
    }

    /// Plays a uniformly random legal move in every game, drawn in Rust from each game's
    /// random stream, and returns what `step` returns. The same as
    /// `step(random_actions())`, without the round trip through Python.
    fn step_random<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let max_plies = self.max_plies;
        self.advance(py, true, |_, lane| {
            let m = lane.random_move();
            lane.play(m, max_plies)
        })
    }

    /// A uniformly random legal action for every game (int64 `(n,)`), drawn from each
    /// game's random stream.
    fn random_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let actions: Vec<i64> = py.detach(|| {
            self.lanes
                .par_iter_mut()
                .with_min_len(64)
                .map(|lane| action_of(&lane.random_move()) as i64)
                .collect()
        });
        let n = actions.len();
        crate::arrays::array(py, "<i8", &[n], 8 * n, |b| {
            for (out, a) in b.chunks_exact_mut(8).zip(&actions) {
                out.copy_from_slice(&a.to_le_bytes());
            }
        })
    }

    /// The side to move in each game: uint8 `(n,)`, 0 White, 1 Black.
    #[getter]
    fn turn<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::arrays::u8_array(py, &[self.lanes.len()], |b| {
            for (out, lane) in b.iter_mut().zip(&self.lanes) {
                *out = index(lane.game.position().turn()) as u8;
            }
        })
    }

    /// Plies played in each game since its start: uint32 `(n,)`.
    #[getter]
    fn plies<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let n = self.lanes.len();
        crate::arrays::array(py, "<u4", &[n], 4 * n, |b| {
            for (out, lane) in b.chunks_exact_mut(4).zip(&self.lanes) {
                out.copy_from_slice(&lane.game.ply().to_le_bytes());
            }
        })
    }

    /// Game `i`'s true position as FEN (for checks and debugging; a player must not see
    /// it).
    fn fen(&self, i: i128) -> PyResult<String> {
        usize::try_from(i)
            .ok()
            .and_then(|i| self.lanes.get(i))
            .map(|l| l.game.position().fen())
            .ok_or_else(|| fow_error(format!("there is no game {i} of {}", self.lanes.len())))
    }

    /// The number of games.
    fn __len__(&self) -> usize {
        self.lanes.len()
    }

    /// Whether observations and masks come packed as bits.
    #[getter]
    fn packed(&self) -> bool {
        self.packed
    }

    /// The seed of the random streams.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// The ply limit, or `None`.
    #[getter]
    fn max_plies(&self) -> Option<u32> {
        self.max_plies
    }

    /// The rule set's name (`thesis`, `chesscom` or `custom`).
    #[getter]
    fn rules_name(&self) -> &'static str {
        self.rules.name()
    }

    /// Every rule switch as `key=value` text.
    #[getter]
    fn switches(&self) -> String {
        self.rules.switches()
    }

    /// What the `reason` codes mean: `REASONS[code]` (`""` for a game going on).
    #[classattr]
    #[allow(non_snake_case)]
    fn REASONS(py: Python<'_>) -> PyResult<Py<PyTuple>> {
        Ok(PyTuple::new(py, REASONS)?.unbind())
    }

    /// The settings, as the constructor takes them.
    fn __repr__(&self) -> String {
        format!(
            "fow.VecGames(n={}, rules={}, seed={}, max_plies={}, packed={})",
            self.lanes.len(),
            self.rules,
            self.seed,
            self.max_plies
                .map_or_else(|| "None".to_string(), |p| p.to_string()),
            if self.packed { "True" } else { "False" }
        )
    }
}
