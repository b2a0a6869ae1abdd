//! `fow rate`: rating fits for a `games.csv` or a thesis-style result matrix.

use std::path::{Path, PathBuf};

use fow_ratings::{parse_match_matrix, ResultMatrix, Score};
use fow_records::GameResult;

use crate::error::{input, CliError};
use crate::out::count;
use crate::rules_args::RulesArgs;
use fow_analysis::{fit, matrix_of, report, Method};

/// Fit ratings to recorded results.
///
/// FILE is what `fow replay` and `fow export` read, a results folder, its `games.csv`, a
/// PGN file or a folder of PGN files (every game is checked against its rules, and a
/// tournament's against its schedule, first; undecided PGN games are left out), or a
/// matrix like the thesis's `match_results.txt` (row i, column j: `(wins/draws/losses)`
/// of i as White against j).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The results folder, games.csv, PGN file or folder, or matrix file.
    pub file: PathBuf,
    /// Columns beside the default fit (BayesElo's model with 95% intervals): thesis (the
    /// thesis's iterative Elo, K = 1; also shown when it disagrees with the default fit), mle
    /// (maximum likelihood counting a draw as half a win) or both.
    #[arg(long, value_enum, default_value_t = Method::Bayeselo)]
    pub method: Method,
    /// Fix one player's rating: NAME=VALUE (VALUE defaults to 0). Without it the ratings are
    /// relative to the pool average, and the thesis and MLE columns have RandomMove = 0 (else
    /// the first rated player).
    #[arg(long, value_name = "NAME=VALUE")]
    pub anchor: Option<String>,
    /// Player names for a matrix file, in row order (default P1, P2, ...).
    #[arg(long, value_delimiter = ',', value_name = "A,B,...")]
    pub names: Option<Vec<String>>,
    /// Write crosstable.csv, ratings.csv and los.csv into this folder.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Rules for PGN games without a Rules tag or chess.com's Fog of War variant tag
    /// (results folders and games.csv use their tournament.json).
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// Reads the file, fits and prints.
pub fn run(mut a: Args) -> Result<(), CliError> {
    let rules = a.rules.rule_set()?;
    // The same resolution as replay and export: a results folder stands for its
    // games.csv, any other folder for its PGN files.
    a.file = fow_records::games_csv_of(&a.file);
    if a.file.is_dir() {
        return rate_matrix(&a, pgn_matrix(&a, &rules)?);
    }
    let text = std::fs::read(&a.file).map_err(|e| input(format!("{}: {e}", a.file.display())))?;
    let is_games_csv = a.file.extension().is_some_and(|x| x == "csv") || text.starts_with(b"id,");
    let is_pgn = a
        .file
        .extension()
        .is_some_and(|x| x.eq_ignore_ascii_case("pgn"))
        || String::from_utf8_lossy(&text)
            .trim_start_matches('\u{feff}')
            .trim_start()
            .starts_with('[');
    let m = if is_pgn {
        pgn_matrix(&a, &rules)?
    } else if is_games_csv {
        let games = fow_records::read_games(&a.file)?;
        let mut players: Vec<String> = Vec::new();
        for g in &games {
            for p in [&g.white, &g.black] {
                if !players.contains(p) {
                    players.push(p.clone());
                }
            }
        }
        // Named as every table names them: a program's name= where given.
        let (labels, games) = fow_analysis::labelled(&players, games);
        matrix_of(&ordered(&a, labels)?, &games)?
    } else {
        let text = String::from_utf8(text)
            .map_err(|e| input(format!("{}: not text: {e}", a.file.display())))?;
        parse_match_matrix(&text, a.names.clone())
            .map_err(|e| input(format!("{}: {e}", a.file.display())))?
    };
    rate_matrix(&a, m)
}

/// Fits the matrix and prints (and with --out writes) the tables.
fn rate_matrix(a: &Args, m: ResultMatrix) -> Result<(), CliError> {
    if m.total_games() == 0 {
        return Err(input(format!("{}: no games", a.file.display())));
    }
    let fits = fit(&m, a.anchor.as_deref(), a.method)?;
    // The folder's lock (made if needed), held while its tables are written.
    let _lock = a.out.as_deref().map(fow_records::lock_folder).transpose()?;
    out!("{}", report(&m, &fits, None, a.out.as_deref())?);
    Ok(())
}

/// The players in `--names` order, which must list exactly them.
fn ordered(a: &Args, players: Vec<String>) -> Result<Vec<String>, CliError> {
    let Some(order) = &a.names else {
        return Ok(players);
    };
    if order.len() != players.len() || !players.iter().all(|p| order.contains(p)) {
        return Err(input(format!(
            "--names must list exactly the players of {}: {}",
            a.file.display(),
            players.join(", ")
        )));
    }
    Ok(order.clone())
}

/// The result matrix of a PGN file or folder's games (each replayed under its rules,
/// `rules` for those that name none); undecided games are left out with a note.
fn pgn_matrix(a: &Args, rules: &fow_variants::RuleSet) -> Result<ResultMatrix, CliError> {
    let games =
        fow_records::load_games(Path::new(&a.file), rules).map_err(|e| input(e.to_string()))?;
    let mut players: Vec<String> = Vec::new();
    let mut decided = Vec::new();
    for g in &games {
        let Some(result) = g.result else {
            continue;
        };
        for p in [&g.white, &g.black] {
            if !players.contains(p) {
                players.push(p.clone());
            }
        }
        decided.push((g, result));
    }
    let undecided = games.len() - decided.len();
    if undecided > 0 {
        outln!(
            "note: {} of {} left out: undecided (result *)",
            undecided,
            count(games.len(), "game")
        );
    }
    // Named as every table names them: a program's name= where given.
    let labels = fow_players::player_labels(&players);
    let mut m = ResultMatrix::new(ordered(a, labels.clone())?);
    for (g, result) in decided {
        let idx = |name: &String| {
            let label = &labels[players.iter().position(|p| p == name).expect("listed")];
            m.index_of(label).expect("every player was listed")
        };
        let (w, b) = (idx(&g.white), idx(&g.black));
        let score = match result {
            GameResult::WhiteWins => Score::Win,
            GameResult::BlackWins => Score::Loss,
            GameResult::Draw => Score::Draw,
        };
        m.add_game(w, b, score)
            .map_err(|e| input(format!("{}: {e}", g.source)))?;
    }
    Ok(m)
}
