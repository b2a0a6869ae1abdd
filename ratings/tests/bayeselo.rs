//! fow's BayesElo fit against BayesElo's own output on a published example.
//!
//! Source: the `poprank` project (github.com/poprl/poprank), `test/test_bayeselo.py`,
//! `test_implementation_against_bayeselo`, whose docstring holds the ratings table that
//! Rémi Coulom's BayesElo printed for the 7,999 games of 17 chess engines in its fixture
//! `test/fixtures/computer_chess.short.json` (one `[white, black, result]` per game; the
//! test calls it `shortened_games`). The games were aggregated here into the results of
//! each (White, Black) pair, below. poprank reproduces that table with BayesElo's plain
//! `mm` (its `bayeselo` function: eloAdvantage 32.8 and eloDraw 97.3 held fixed, prior 2,
//! ratings rescaled), so BayesElo's settings were `elo`, `mm`, `ratings`; the ± columns are
//! then those `mm` computes (the diagonal of the Hessian, `variance`). The printed table:
//!
//! ```text
//!  1 Hiarcs 11.1         215   23   23   700   63%   120   26%
//!  2 Hiarcs 11           201   22   22   800   64%    96   25%
//!  3 Shredder 10         200   19   19   999   61%   116   22%
//!  4 Loop for Chess960   186   18   18  1100   61%    98   26%
//!  5 Hiarcs X54          179   22   22   800   64%    70   24%
//!  6 Spike 1.2 Turin     155   18   18  1100   57%   101   26%
//!  7 Fruit 2.2.1         152   18   18  1100   56%   101   24%
//!  8 Naum 2.1            108   19   19  1000   51%    98   25%
//!  9 Glaurung 1.2.1       71   18   18  1199   47%    88   23%
//! 10 Pharaon 3.5.1       -29   17   17  1500   43%    24   19%
//! 11 Ufim 8.02           -78   17   17  1500   41%    -9   17%
//! 12 Movei 00.8.383      -94   19   19  1200   43%   -32   18%
//! 13 Movei 00.8.366     -136   26   26   600   53%  -158   17%
//! 14 Hermann 1.9        -216   28   28   500   44%  -166   17%
//! 15 Hermann 1.7        -283   27   27   600   35%  -161   16%
//! 16 Aice 0.99.2        -303   25   25   700   33%  -166   15%
//! 17 Ayito 0.2.994      -328   27   27   600   32%  -185   12%
//! ```
//!
//! Columns: rank, name, Elo, +, −, games, score, average opponent, draws.

use fow_ratings::{bayeselo, BayesEloOptions, ResultMatrix, Wdl};

/// The players, in the order of BayesElo's table.
const PLAYERS: [&str; 17] = [
    "Hiarcs 11.1",
    "Hiarcs 11",
    "Shredder 10",
    "Loop for Chess960",
    "Hiarcs X54",
    "Spike 1.2 Turin",
    "Fruit 2.2.1",
    "Naum 2.1",
    "Glaurung 1.2.1",
    "Pharaon 3.5.1",
    "Ufim 8.02",
    "Movei 00.8.383",
    "Movei 00.8.366",
    "Hermann 1.9",
    "Hermann 1.7",
    "Aice 0.99.2",
    "Ayito 0.2.994",
];

/// BayesElo's table: (Elo, ±, games, score %, average opponent, draws %).
const BAYESELO: [(i32, i32, u64, i32, i32, i32); 17] = [
    (215, 23, 700, 63, 120, 26),
    (201, 22, 800, 64, 96, 25),
    (200, 19, 999, 61, 116, 22),
    (186, 18, 1100, 61, 98, 26),
    (179, 22, 800, 64, 70, 24),
    (155, 18, 1100, 57, 101, 26),
    (152, 18, 1100, 56, 101, 24),
    (108, 19, 1000, 51, 98, 25),
    (71, 18, 1199, 47, 88, 23),
    (-29, 17, 1500, 43, 24, 19),
    (-78, 17, 1500, 41, -9, 17),
    (-94, 19, 1200, 43, -32, 18),
    (-136, 26, 600, 53, -158, 17),
    (-216, 28, 500, 44, -166, 17),
    (-283, 27, 600, 35, -161, 16),
    (-303, 25, 700, 33, -166, 15),
    (-328, 27, 600, 32, -185, 12),
];

/// (White, Black, White's wins, draws, White's losses), players numbered as in
/// [`PLAYERS`]; the games of `computer_chess.short.json`, aggregated.
const GAMES: [(usize, usize, u32, u32, u32); 160] = [
    (0, 2, 26, 15, 9),
    (0, 3, 24, 13, 13),
    (0, 5, 22, 12, 16),
    (0, 6, 25, 14, 11),
    (0, 7, 27, 16, 7),
    (0, 8, 31, 12, 7),
    (0, 9, 39, 8, 3),
    (1, 2, 20, 17, 13),
    (1, 3, 24, 16, 10),
    (1, 5, 22, 13, 15),
    (1, 6, 22, 15, 13),
    (1, 7, 21, 16, 13),
    (1, 8, 27, 15, 8),
    (1, 9, 33, 10, 7),
    (1, 10, 41, 6, 3),
    (2, 0, 24, 10, 16),
    (2, 1, 22, 15, 13),
    (2, 3, 25, 12, 13),
    (2, 4, 22, 10, 18),
    (2, 5, 22, 13, 15),
    (2, 6, 26, 7, 17),
    (2, 7, 29, 11, 10),
    (2, 8, 25, 8, 16),
    (2, 9, 40, 6, 4),
    (2, 10, 39, 5, 6),
    (3, 0, 25, 12, 13),
    (3, 1, 19, 15, 16),
    (3, 2, 22, 11, 17),
    (3, 4, 20, 13, 17),
    (3, 5, 20, 14, 16),
    (3, 6, 17, 22, 11),
    (3, 7, 21, 17, 12),
    (3, 8, 24, 14, 12),
    (3, 9, 32, 10, 8),
    (3, 10, 38, 8, 4),
    (3, 11, 37, 6, 7),
    (4, 2, 20, 11, 19),
    (4, 3, 17, 17, 16),
    (4, 5, 22, 13, 15),
    (4, 6, 19, 13, 18),
    (4, 8, 22, 13, 15),
    (4, 9, 36, 12, 2),
    (4, 10, 28, 11, 11),
    (4, 11, 39, 6, 5),
    (5, 0, 14, 14, 22),
    (5, 1, 18, 13, 19),
    (5, 2, 15, 14, 21),
    (5, 3, 13, 14, 23),
    (5, 4, 14, 17, 19),
    (5, 6, 18, 14, 18),
    (5, 7, 18, 11, 21),
    (5, 8, 29, 12, 9),
    (5, 9, 39, 8, 3),
    (5, 10, 37, 5, 8),
    (5, 11, 36, 13, 1),
    (6, 0, 15, 12, 23),
    (6, 1, 12, 14, 24),
    (6, 2, 17, 8, 25),
    (6, 3, 10, 23, 17),
    (6, 4, 16, 13, 21),
    (6, 5, 14, 20, 16),
    (6, 7, 20, 10, 20),
    (6, 8, 32, 11, 7),
    (6, 9, 36, 7, 7),
    (6, 10, 34, 10, 6),
    (6, 11, 41, 3, 6),
    (7, 0, 13, 18, 19),
    (7, 1, 12, 11, 27),
    (7, 2, 14, 9, 27),
    (7, 3, 7, 15, 28),
    (7, 5, 13, 19, 18),
    (7, 6, 20, 12, 18),
    (7, 8, 26, 11, 13),
    (7, 9, 33, 9, 8),
    (7, 10, 31, 10, 9),
    (7, 11, 30, 11, 9),
    (8, 0, 7, 12, 31),
    (8, 1, 7, 7, 36),
    (8, 2, 15, 13, 22),
    (8, 3, 12, 16, 22),
    (8, 4, 7, 10, 33),
    (8, 5, 12, 13, 25),
    (8, 6, 15, 8, 27),
    (8, 7, 23, 10, 17),
    (8, 9, 26, 11, 13),
    (8, 10, 34, 13, 3),
    (8, 11, 28, 13, 9),
    (8, 12, 37, 7, 6),
    (9, 0, 4, 12, 34),
    (9, 1, 8, 10, 32),
    (9, 2, 3, 11, 36),
    (9, 3, 6, 10, 34),
    (9, 4, 3, 11, 36),
    (9, 5, 11, 10, 29),
    (9, 6, 7, 12, 31),
    (9, 7, 17, 12, 21),
    (9, 8, 10, 13, 27),
    (9, 10, 22, 14, 14),
    (9, 11, 23, 13, 14),
    (9, 12, 34, 12, 4),
    (9, 13, 38, 6, 6),
    (9, 14, 33, 10, 7),
    (9, 15, 40, 9, 1),
    (10, 1, 9, 8, 33),
    (10, 2, 5, 9, 36),
    (10, 3, 5, 5, 40),
    (10, 4, 5, 11, 34),
    (10, 5, 8, 12, 30),
    (10, 6, 8, 7, 35),
    (10, 7, 7, 11, 32),
    (10, 8, 7, 11, 32),
    (10, 9, 22, 8, 20),
    (10, 11, 19, 10, 21),
    (10, 12, 22, 11, 17),
    (10, 13, 28, 11, 11),
    (10, 14, 33, 7, 10),
    (10, 15, 37, 4, 9),
    (10, 16, 37, 4, 9),
    (11, 3, 10, 2, 38),
    (11, 4, 5, 9, 36),
    (11, 5, 0, 14, 36),
    (11, 6, 3, 7, 40),
    (11, 7, 9, 8, 33),
    (11, 8, 8, 9, 33),
    (11, 9, 13, 11, 26),
    (11, 10, 21, 11, 18),
    (11, 13, 29, 9, 12),
    (11, 14, 31, 10, 9),
    (11, 15, 31, 12, 7),
    (11, 16, 36, 10, 4),
    (12, 8, 11, 8, 31),
    (12, 9, 11, 12, 27),
    (12, 10, 19, 7, 24),
    (12, 14, 34, 10, 6),
    (12, 15, 35, 7, 8),
    (12, 16, 35, 6, 9),
    (13, 9, 9, 6, 35),
    (13, 10, 17, 9, 24),
    (13, 11, 13, 10, 27),
    (13, 15, 23, 13, 14),
    (13, 16, 33, 6, 11),
    (14, 9, 12, 4, 34),
    (14, 10, 10, 8, 32),
    (14, 11, 9, 10, 31),
    (14, 12, 17, 8, 25),
    (14, 15, 20, 11, 19),
    (14, 16, 21, 6, 23),
    (15, 9, 6, 4, 40),
    (15, 10, 5, 8, 37),
    (15, 11, 8, 5, 37),
    (15, 12, 11, 8, 31),
    (15, 13, 12, 9, 29),
    (15, 14, 25, 3, 22),
    (15, 16, 29, 3, 18),
    (16, 10, 5, 7, 38),
    (16, 11, 6, 6, 38),
    (16, 12, 7, 6, 37),
    (16, 13, 22, 5, 23),
    (16, 14, 25, 6, 19),
    (16, 15, 19, 7, 24),
];

fn matrix() -> ResultMatrix {
    let mut m = ResultMatrix::new(PLAYERS.iter().map(|p| p.to_string()).collect());
    for (white, black, wins, draws, losses) in GAMES {
        m.add_results(white, black, Wdl::new(wins, draws, losses))
            .unwrap();
    }
    m
}

/// Rounds like BayesElo's `RoundDouble`: half away from zero.
fn round(x: f64) -> i32 {
    x.round() as i32
}

#[test]
fn the_aggregated_games_match_bayeselo_s_counts() {
    let m = matrix();
    assert_eq!(m.total_games(), 7999);
    for (i, &(_, _, games, score, _, draws)) in BAYESELO.iter().enumerate() {
        let results = m.player_results(i).unwrap();
        assert_eq!(results.games(), games, "{}", PLAYERS[i]);
        let percent = |x: f64| 100.0 * x / games as f64;
        // BayesElo prints whole percents; a .5 may go either way.
        let near = |got: f64, printed: i32| (got - f64::from(printed)).abs() <= 0.5;
        assert!(near(percent(results.points()), score), "{}", PLAYERS[i]);
        assert!(
            near(percent(f64::from(results.draws)), draws),
            "{}",
            PLAYERS[i]
        );
    }
}

#[test]
fn ratings_match_bayeselo_s_table() {
    let m = matrix();
    let fit = bayeselo(&m, None, &BayesEloOptions::fixed_parameters()).unwrap();
    assert_eq!((fit.elo_advantage, fit.elo_draw), (32.8, 97.3));
    for (i, &(elo, plus_minus, _, _, _, _)) in BAYESELO.iter().enumerate() {
        let rating = fit.ratings[i];
        assert_eq!(round(rating), elo, "{}: {rating}", PLAYERS[i]);
        // `mm` prints 1.96 σ from the Hessian's diagonal (opponents taken as exact).
        let interval = 1.959_963_984_540_054 * fit.std_errors_exact_opponents[i];
        assert_eq!(round(interval), plus_minus, "{}: ±{interval}", PLAYERS[i]);
    }
}

#[test]
fn average_opponents_match_bayeselo_s_table() {
    // BayesElo's "oppo." column: the game-weighted mean rating of the opponents.
    let m = matrix();
    let fit = bayeselo(&m, None, &BayesEloOptions::fixed_parameters()).unwrap();
    for (i, &(_, _, games, _, opponent, _)) in BAYESELO.iter().enumerate() {
        let total: f64 = (0..PLAYERS.len())
            .map(|j| m.head_to_head(i, j).unwrap().games() as f64 * fit.ratings[j])
            .sum();
        let mean = total / games as f64;
        assert_eq!(round(mean), opponent, "{}: {mean}", PLAYERS[i]);
    }
}
