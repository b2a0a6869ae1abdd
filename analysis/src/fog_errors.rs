//! Why each mistake and blunder of an analysed game happened under fog
//! ([`explain_errors`]): the move valued on the boards its mover could not tell apart
//! from the true one, beside its value on the true board, and a [`Cause`] for it; and
//! each side's win chance lost by cause ([`lost_by_cause`]).
//!
//! For each mistake and blunder, up to [`FogSettings::boards`] boards consistent with
//! the mover's observations are drawn ([`crate::consistent_boards`], weighted by the
//! mover's opponent model where it has one, [`crate::opponent_model`]), and the move is
//! valued on each as on the true board: the engine's value of the board and of the board
//! after the move, the drop in the mover's win chance between them. Their weighted mean
//! is `fog_drop`, the weighted share of boards where the drop is [`BAD_DROP`] or more is
//! `fog_bad`; for a belief bot whose belief replays ([`crate::replay_belief`]), the true
//! board's weight in its belief is `belief_truth`. [`Cause::of`] decides.
//!
//! Cost: two engine valuations per board, so at most `2 × boards` per mistake or blunder
//! (the same engine and depth as the analysis); tracking each side's boards up to its
//! last error (at most [`crate::TRACKED_BOARDS`] boards, each expanded by every opponent
//! move at each of its turns); and for a belief bot, replaying its thinking up to its last
//! error. Sides without mistakes or blunders cost nothing.

use fow_records::SavedGame;
use fow_variants::{Color, Position, RuleSet};

use crate::analysis::{win_chance, GameAnalysis, MoveLabel};
use crate::analyze::{value_of, AnalysisError, Evaluator};
use crate::consistent_boards::{consistent_boards, TRACKED_BOARDS};
use crate::error_cause::{Cause, BAD_DROP};
use crate::mover_belief::{opponent_model, replay_belief};

/// The default number of boards valued per mistake or blunder.
pub const DEFAULT_FOG_BOARDS: usize = 32;

/// How much of the fog the error analysis looks at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FogSettings {
    /// The most boards valued per mistake or blunder (0: no error analysis).
    pub boards: usize,
    /// The most boards tracked from turn to turn (a seeded sample when more fit).
    pub keep: usize,
}

impl Default for FogSettings {
    /// [`DEFAULT_FOG_BOARDS`] boards valued, [`TRACKED_BOARDS`] tracked.
    fn default() -> FogSettings {
        FogSettings {
            boards: DEFAULT_FOG_BOARDS,
            keep: TRACKED_BOARDS,
        }
    }
}

/// Fills each mistake's and blunder's `cause`, `boards`, `fog_drop`, `fog_bad` and
/// `belief_truth` in `analysis` (the analysis of `game` by `engine`; other moves get
/// the defaults), calling `progress(done, total)` after each error. Returns how many
/// positions the engine valued. Deterministic when the engine is.
pub fn explain_errors(
    game: &SavedGame,
    analysis: &mut GameAnalysis,
    engine: &mut dyn Evaluator,
    settings: &FogSettings,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<usize, AnalysisError> {
    for m in &mut analysis.moves {
        (m.cause, m.boards, m.fog_drop, m.fog_bad, m.fog_from) = (Cause::None, 0, 0.0, 0.0, 0);
        m.belief_truth = None;
    }
    if settings.boards == 0 {
        return Ok(0);
    }
    let errors = |side: Color| -> Vec<usize> {
        let mover = if side.is_white() { "white" } else { "black" };
        analysis
            .moves
            .iter()
            .filter(|m| {
                m.mover == mover && matches!(m.label, MoveLabel::Mistake | MoveLabel::Blunder)
            })
            .map(|m| m.ply)
            .collect()
    };
    let plies = [errors(Color::White), errors(Color::Black)];
    let total = plies[0].len() + plies[1].len();
    let (mut done, mut valued) = (0, 0);
    for (side, plies) in [Color::White, Color::Black].into_iter().zip(&plies) {
        if plies.is_empty() {
            continue;
        }
        let spec = if side.is_white() {
            &game.white
        } else {
            &game.black
        };
        let model = opponent_model(spec);
        let sets = consistent_boards(game, side, plies, settings.keep, settings.boards, model);
        let beliefs = replay_belief(game, side, plies);
        for (k, (&ply, set)) in plies.iter().zip(&sets).enumerate() {
            let uci = &game.moves[ply - 1].uci();
            let mut stats = FogStats::default();
            for (board, weight) in &set.boards {
                let drop =
                    drop_on(board, uci, &game.rules, engine).map_err(|message| AnalysisError {
                        ply: ply - 1,
                        fen: board.fen(),
                        message,
                    })?;
                if let Some(drop) = drop {
                    valued += 2;
                    stats.add(drop, *weight);
                }
            }
            let m = analysis
                .moves
                .iter_mut()
                .find(|m| m.ply == ply)
                .expect("an analysed ply");
            m.belief_truth = beliefs.as_ref().map(|b| b[k]);
            if stats.boards > 0 {
                m.boards = stats.boards;
                m.fog_drop = stats.drop / stats.weight;
                m.fog_bad = stats.bad / stats.weight;
                m.fog_from = set.from_ply;
                m.cause = Cause::of(m.fog_bad, m.belief_truth);
            }
            done += 1;
            progress(done, total);
        }
    }
    Ok(valued)
}

/// The weighted sums over the boards valued for one move.
#[derive(Default)]
struct FogStats {
    boards: usize,
    weight: f64,
    drop: f64,
    bad: f64,
}

impl FogStats {
    fn add(&mut self, drop: f64, weight: f64) {
        self.boards += 1;
        self.weight += weight;
        self.drop += weight * drop;
        if drop >= BAD_DROP {
            self.bad += weight;
        }
    }
}

/// The drop in the mover's win chance when the move `uci` is played on `board` (the
/// mover to move), each side valued by `engine`; `None` when the move does not fit the
/// board (it always does on a board consistent with the mover's view).
fn drop_on(
    board: &Position,
    uci: &str,
    rules: &RuleSet,
    engine: &mut dyn Evaluator,
) -> Result<Option<f64>, String> {
    let Ok(m) = board.parse_uci(uci, rules) else {
        return Ok(None);
    };
    let sign = if board.turn().is_white() { 1.0 } else { -1.0 };
    let before = value_of(board, rules, engine)?.cp;
    let mut after = board.clone();
    after.play(&m);
    let after = value_of(&after, rules, engine)?.cp;
    Ok(Some(
        (win_chance(sign * before) - win_chance(sign * after)).max(0.0),
    ))
}

/// One side's mistakes and blunders by cause: for each of [`Cause::Decision`],
/// [`Cause::Luck`], [`Cause::Belief`] and [`Cause::None`] (not explained), how many
/// moves and the win chance (percentage points, on the true board) they lost.
pub fn lost_by_cause(analysis: &GameAnalysis, white: bool) -> [(Cause, usize, f64); 4] {
    let side = if white { "white" } else { "black" };
    [Cause::Decision, Cause::Luck, Cause::Belief, Cause::None].map(|cause| {
        let moves = analysis.moves.iter().filter(|m| {
            m.mover == side
                && m.cause == cause
                && matches!(m.label, MoveLabel::Mistake | MoveLabel::Blunder)
        });
        moves.fold((cause, 0, 0.0), |(c, n, d), m| (c, n + 1, d + m.drop))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::{analyze_game, MyStockfishEvaluator};
    use crate::highlight_moves::test_game;

    /// Black's knight on b8 goes to a6 or c6, both in White's fog; everything else Black
    /// could do, White would see. White's queen then goes where the knight may be
    /// attacking.
    const KNIGHT: &str = "1n5k/6pp/4B1PP/8/8/8/8/4Q1K1 b - - 0 1";

    /// The analysis of `moves` from [`KNIGHT`] at depth 2, its errors explained.
    fn explained(moves: &str) -> GameAnalysis {
        let game = test_game(KNIGHT, moves);
        let mut engine = MyStockfishEvaluator::new(2, None);
        let mut a = analyze_game(&game, &mut engine).unwrap();
        let mut calls = 0;
        explain_errors(
            &game,
            &mut a,
            &mut engine,
            &FogSettings::default(),
            &mut |_, _| calls += 1,
        )
        .unwrap();
        assert_eq!(calls, 1, "one error");
        a
    }

    #[test]
    fn a_move_losing_only_on_the_true_board_is_luck() {
        // The knight went to c6, which attacks a5 (a6 would not): the queen is lost.
        let a = explained("b8c6 e1a5");
        let m = &a.moves[1];
        assert_eq!(m.label, MoveLabel::Blunder);
        assert_eq!((m.boards, m.fog_bad, m.cause), (2, 0.5, Cause::Luck));
        assert!(m.fog_drop > 10.0 && m.fog_drop < m.drop, "{m:?}");
        assert_eq!(m.belief_truth, None);
        // Black's knight move is no error and is not explained.
        assert_eq!((a.moves[0].cause, a.moves[0].boards), (Cause::None, 0));
    }

    #[test]
    fn a_move_losing_on_every_board_is_a_decision() {
        // b4 is attacked from a6 and from c6 alike.
        let a = explained("b8c6 e1b4");
        let m = &a.moves[1];
        assert_eq!(m.label, MoveLabel::Blunder);
        assert_eq!((m.boards, m.fog_bad, m.cause), (2, 1.0, Cause::Decision));
        assert_eq!(
            lost_by_cause(&a, true),
            [
                (Cause::Decision, 1, m.drop),
                (Cause::Luck, 0, 0.0),
                (Cause::Belief, 0, 0.0),
                (Cause::None, 0, 0.0)
            ]
        );
        assert_eq!(lost_by_cause(&a, false)[0], (Cause::Decision, 0, 0.0));
    }

    #[test]
    fn no_boards_no_explanation() {
        let game = test_game(KNIGHT, "b8c6 e1b4");
        let mut engine = MyStockfishEvaluator::new(2, None);
        let mut a = analyze_game(&game, &mut engine).unwrap();
        let off = FogSettings {
            boards: 0,
            ..FogSettings::default()
        };
        assert_eq!(
            explain_errors(&game, &mut a, &mut engine, &off, &mut |_, _| {}),
            Ok(0)
        );
        assert_eq!((a.moves[1].cause, a.moves[1].boards), (Cause::None, 0));
    }

    #[test]
    fn the_new_fields_round_trip_and_older_csvs_still_read() {
        let a = explained("b8c6 e1a5");
        let game = test_game(KNIGHT, "b8c6 e1a5");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.csv");
        crate::analyze::write_analysis_csv(&path, &a).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.lines().next().unwrap().ends_with(
            "king_left_capturable,phase,highlight,cause,boards,fog_drop,fog_bad,fog_from,belief_truth"
        ));
        assert_eq!(crate::read_analysis(&path, &game).unwrap(), a.moves);
        // A CSV written before these fields: they read as empty.
        let old: String = text
            .lines()
            .map(|l| l.split(',').take(13).collect::<Vec<_>>().join(",") + "\n")
            .collect();
        std::fs::write(&path, old).unwrap();
        let rows = crate::read_analysis(&path, &game).unwrap();
        assert_eq!(
            (rows[1].cause, rows[1].boards, rows[1].belief_truth),
            (Cause::None, 0, None)
        );
    }

    /// PossibleBoardList keeping a single board (rebuilt from two guesses whenever more
    /// fit) against RandomMove, as the arena plays them with seed 9: its third move (the
    /// knight to e5) is a mistake that its own belief, replayed, could not see coming.
    #[test]
    fn a_mistake_made_on_a_belief_without_the_truth_is_belief() {
        let spec = "PossibleBoardList:depth=1,nodes=2000,sample=4,cap=1,guesses=2";
        let rules = fow_variants::RuleSet::thesis();
        let (w, b): (fow_players::PlayerSpec, fow_players::PlayerSpec) =
            (spec.parse().unwrap(), "RandomMove".parse().unwrap());
        let (mut pw, mut pb) = (w.build().unwrap(), b.build().unwrap());
        let opts = fow_arena::GameOptions::new(rules);
        let rec = fow_arena::play_game(pw.as_mut(), pb.as_mut(), spec, "RandomMove", 9, &opts);
        let mut game = SavedGame::from_uci(spec, "RandomMove", rules, &[]).unwrap();
        game.moves = rec.moves[..5].to_vec();
        game.seed = Some(9);
        let mut engine = MyStockfishEvaluator::new(2, None);
        let mut a = analyze_game(&game, &mut engine).unwrap();
        let fog = FogSettings::default();
        explain_errors(&game, &mut a, &mut engine, &fog, &mut |_, _| {}).unwrap();
        let m = &a.moves[4];
        assert_eq!(m.uci, "f3e5");
        assert!(
            matches!(m.label, MoveLabel::Mistake | MoveLabel::Blunder),
            "{m:?}"
        );
        assert_eq!(m.belief_truth, Some(0.0), "the truth is not in its belief");
        assert!(m.fog_bad <= 0.5, "{m:?}");
        assert_eq!(m.cause, Cause::Belief);
        // Without its seed the belief does not replay: the same move is bad luck.
        game.seed = None;
        explain_errors(&game, &mut a, &mut engine, &fog, &mut |_, _| {}).unwrap();
        assert_eq!(
            (a.moves[4].cause, a.moves[4].belief_truth),
            (Cause::Luck, None)
        );
    }
}
