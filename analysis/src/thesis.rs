//! The thesis reproduction: the players of `fow tournament --preset thesis|thesis-extended`,
//! and `fow compare-thesis DIR`, which sets a tournament's ladder beside the thesis's
//! Table 2 and writes the tables and plot into the folder.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use fow_ratings::{
    kendall_tau, mle_elo, parse_match_matrix, spearman, summary_rows, Anchor, MleOptions,
    ResultMatrix, SummaryInput, SummaryOrder,
};
use fow_records::{GameRow, TimeRow, TournamentConfig, GAMES_FILE};
use fow_variants::RuleSet;

use crate::error::{input, write_failed, ReportError};
use crate::plot::{ladder_plot, Rung};
use crate::tables::{anchor, matrix_of, thesis_and_mle};

/// The thesis's ten bots, in the order of its Table 2 and crosstable (Figure 15).
pub const THESIS_BOTS: [&str; 10] = [
    "RandomMove",
    "CaptureKing",
    "CaptureLargest",
    "CaptureWithLargestDifference",
    "Supporter",
    "PositionaryEvaluator",
    "NeuralNetworkPlayer",
    "SimpleStockfish",
    "PossibleBoardGenerator",
    "PossibleBoardList",
];

/// The presets' NeuralNetworkPlayer: the thesis's own network, converted from its
/// `nn.txt` (`data/thesis/nn-thesis.safetensors`), with its move rule. It is compared
/// with the thesis's NeuralNetworkPlayer (a variant is compared with its base bot).
pub const THESIS_NN_SPEC: &str = "NeuralNetworkPlayer:weights=thesis";

/// The thesis's evolved PositionaryEvaluator parameters, relative to the repository root.
pub const THESIS_PE_PARAMS: &str = "data/thesis/positionary_evaluator_params.json";

/// Games per ordered pair in the presets, as in the thesis.
pub const PRESET_GAMES: u32 = 100;

/// The thesis's Table 2 (`index,player,points,elo_printed,elo_recomputed,avg_ms_per_move`),
/// compiled in so that `fow` needs no data folder to compare.
const TABLE2: &str = include_str!("../../data/thesis/table2.csv");
/// The thesis's result matrix (row i as White against column j, 100 games per cell).
const MATCH_RESULTS: &str = include_str!("../../data/thesis/match_results.txt");

/// The files [`compare`] writes into a tournament folder.
pub const FILES: [&str; 6] = [
    "crosstable.md",
    "ratings.md",
    "thesis-comparison.csv",
    "thesis-comparison.md",
    "thesis-correlation.csv",
    "ladder.svg",
];

/// A tournament preset of `fow tournament --preset`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Preset {
    /// The thesis's ten bots in its order, `thesis` rules, 100 games per ordered pair
    /// (9,000 games); the network is the thesis's own ([`THESIS_NN_SPEC`]).
    Thesis,
    /// The ten, then PositionaryEvaluator with the thesis's evolved parameters
    /// (data/thesis/positionary_evaluator_params.json, read from the current folder):
    /// 11,000 games at 100 per pair. The games among the ten are those of `thesis`.
    ThesisExtended,
}

impl Preset {
    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Thesis => "thesis",
            Preset::ThesisExtended => "thesis-extended",
        }
    }

    /// The player specs, in table order: the thesis's bots, NeuralNetworkPlayer as
    /// [`THESIS_NN_SPEC`].
    pub fn players(self) -> Vec<String> {
        let mut players: Vec<String> = THESIS_BOTS
            .iter()
            .map(|&s| match s {
                "NeuralNetworkPlayer" => THESIS_NN_SPEC.to_string(),
                _ => s.to_string(),
            })
            .collect();
        if self == Preset::ThesisExtended {
            players.push(format!("PositionaryEvaluator:params={THESIS_PE_PARAMS}"));
        }
        players
    }

    /// The player specs the preset had before it played the thesis's own network: plain
    /// `NeuralNetworkPlayer` (fow's network, which that spec still names), as in
    /// `results/thesis-reproduction/`. A folder of this preset cannot be resumed with
    /// `--preset` (its games would mix two networks), only without it.
    pub fn players_with_fow_network(self) -> Vec<String> {
        self.players()
            .into_iter()
            .map(|s| {
                if s == THESIS_NN_SPEC {
                    "NeuralNetworkPlayer".to_string()
                } else {
                    s
                }
            })
            .collect()
    }

    /// Why `players` (a tournament folder's) are not this preset's, for `--resume`
    /// errors; `None` when they are.
    pub fn mismatch(self, players: &[String]) -> Option<String> {
        if players == self.players() {
            None
        } else if players == self.players_with_fow_network() {
            Some(format!(
                "it holds a --preset {} tournament played before the preset used the thesis's own network ({THESIS_NN_SPEC}): its NeuralNetworkPlayer is fow's network. Resume it without --preset (fow tournament --resume --out DIR keeps its players), or start a new folder",
                self.name()
            ))
        } else {
            Some(format!("players: {}", players.join(",")))
        }
    }

    /// Checks that the run resumed from `dir` (settings `cfg`) is this preset's: its
    /// players ([`Preset::mismatch`]) and the thesis's rules.
    pub fn check_resumed(self, cfg: &TournamentConfig, dir: &Path) -> Result<(), ReportError> {
        let why = match self.mismatch(&cfg.players) {
            Some(why) => why,
            None if cfg.rules != RuleSet::thesis() => format!("rules {}", cfg.rules),
            None => return Ok(()),
        };
        Err(input(format!(
            "{} does not hold a --preset {} tournament ({why})",
            dir.display(),
            self.name(),
        )))
    }

    /// Checks that the files the players read are where the specs say (the parameter file
    /// of `thesis-extended` is a path relative to the current folder).
    pub fn check_files(self) -> Result<(), ReportError> {
        if self == Preset::ThesisExtended && !Path::new(THESIS_PE_PARAMS).is_file() {
            return Err(input(format!(
                "--preset thesis-extended reads {THESIS_PE_PARAMS} relative to the current folder: run fow from the repository root"
            )));
        }
        Ok(())
    }
}

/// One line of the thesis's Table 2, with the interval our MLE gives its results.
struct Reference {
    name: &'static str,
    elo: f64,
    half_width: f64,
    ms_per_move: &'static str,
}

/// The thesis's ladder: `elo_recomputed` of its Table 2 and, for its intervals, the
/// maximum-likelihood fit of its result matrix (RandomMove = 0).
fn reference() -> Vec<Reference> {
    let mut lines = TABLE2.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    let column = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .expect("table2.csv has the column")
    };
    let (player, elo, ms) = (
        column("player"),
        column("elo_recomputed"),
        column("avg_ms_per_move"),
    );
    let rows: Vec<Vec<&'static str>> = lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split(',').collect())
        .collect();
    let names: Vec<String> = rows.iter().map(|r| r[player].to_string()).collect();
    let m = parse_match_matrix(MATCH_RESULTS, Some(names)).expect("the thesis's matrix parses");
    let fit = mle_elo(&m, Anchor::random_move_or_first(&m), &MleOptions::default())
        .expect("the thesis's matrix has a finite MLE");
    rows.iter()
        .enumerate()
        .map(|(i, r)| Reference {
            name: r[player],
            elo: r[elo].parse().expect("table2.csv's Elo is a number"),
            half_width: fit.half_widths[i],
            ms_per_move: r[ms],
        })
        .collect()
}

/// Our side of one comparison row.
struct Ours {
    label: String,
    games: u64,
    points: f64,
    thesis_elo: Option<f64>,
    mle_elo: Option<f64>,
    half_width: Option<f64>,
    ms_per_move: Option<f64>,
    think_seconds: f64,
}

/// One row of the comparison: a thesis bot and/or one of our players.
struct Row {
    /// Index into [`reference()`], when the player is (a variant of) a thesis bot.
    thesis: Option<usize>,
    /// Our player; `None` for a thesis bot that did not play here.
    ours: Option<Ours>,
    /// Whether this row stands for its thesis bot in the rank correlation (the bot under
    /// its plain name, else its first variant).
    primary: bool,
}

impl Row {
    /// Our MLE rating minus the thesis's, when both exist.
    fn difference(&self, refs: &[Reference]) -> Option<f64> {
        let ours = self.ours.as_ref()?.mle_elo?;
        Some(ours - refs[self.thesis?].elo)
    }
}

/// The base bot of a table label: the spec's name (`PositionaryEvaluator:params=...` →
/// `PositionaryEvaluator`).
fn base_name(label: &str) -> String {
    label
        .parse::<fow_players::PlayerSpec>()
        .map(|s| s.name)
        .unwrap_or_else(|_| label.to_string())
}

/// Fits `games` (players named by `labels`, the table names of `cfg.players`), compares
/// with the thesis, writes the files of [`FILES`] into `dir` and returns the comparison
/// (Markdown) to print.
pub fn compare(
    dir: &Path,
    cfg: &TournamentConfig,
    labels: &[String],
    games: &[GameRow],
    times: &[TimeRow],
) -> Result<String, ReportError> {
    let refs = reference();
    let thesis_index = |label: &str| {
        let base = base_name(label);
        refs.iter().position(|r| r.name == base)
    };
    if labels.iter().all(|l| thesis_index(l).is_none()) {
        return Err(input(format!(
            "{}: none of the players is one of the thesis's bots ({})",
            dir.display(),
            THESIS_BOTS.join(", ")
        )));
    }
    if games.is_empty() {
        return Err(input(format!(
            "{}: no games",
            dir.join(GAMES_FILE).display()
        )));
    }
    let m = matrix_of(labels, games)?;
    let fits = thesis_and_mle(&m, anchor(&m, None)?)?;
    let ms = crate::tables::ms_per_move(labels, games, times);
    let think = think_seconds(labels, games, times);
    let ours = |i: usize| Ours {
        label: labels[i].clone(),
        games: m.player_games(i).unwrap_or(0),
        points: m.player_points(i).unwrap_or(0.0),
        thesis_elo: fits.thesis.as_ref().map(|f| f.ratings[i]),
        mle_elo: fits.mle.as_ref().map(|f| f.ratings[i]),
        half_width: fits.mle.as_ref().map(|f| f.half_widths[i]),
        ms_per_move: ms[i],
        think_seconds: think[i],
    };

    // Rows: each thesis bot in the thesis's order (its plain spec first, then its
    // variants), then players that are not thesis bots.
    let mut rows = Vec::new();
    for (t, r) in refs.iter().enumerate() {
        let mut mine: Vec<usize> = (0..labels.len())
            .filter(|&i| thesis_index(&labels[i]) == Some(t))
            .collect();
        mine.sort_by_key(|&i| labels[i] != r.name);
        if mine.is_empty() {
            rows.push(Row {
                thesis: Some(t),
                ours: None,
                primary: false,
            });
        }
        for (k, &i) in mine.iter().enumerate() {
            rows.push(Row {
                thesis: Some(t),
                ours: Some(ours(i)),
                primary: k == 0,
            });
        }
    }
    for i in (0..labels.len()).filter(|&i| thesis_index(&labels[i]).is_none()) {
        rows.push(Row {
            thesis: None,
            ours: Some(ours(i)),
            primary: false,
        });
    }
    let (ladder_ours, ladder_thesis): (Vec<f64>, Vec<f64>) = rows
        .iter()
        .filter(|r| r.primary)
        .filter_map(|r| Some((r.ours.as_ref()?.mle_elo?, refs[r.thesis?].elo)))
        .unzip();
    let rho = spearman(&ladder_ours, &ladder_thesis);
    let tau = kendall_tau(&ladder_ours, &ladder_thesis);

    let mut notes = fits.notes.clone();
    if m.index_of("RandomMove").is_none() {
        notes.push(format!(
            "RandomMove did not play here, so our ratings are anchored at {} = 0 and differ from the thesis's by a shift; compare the ranks, not the differences",
            labels[0]
        ));
    }
    if cfg.rules != RuleSet::thesis() {
        notes.push(format!(
            "these games were played under rules {}, not the thesis's",
            cfg.rules
        ));
    }
    let scheduled = cfg.pairings().len();
    if games.len() < scheduled {
        let preset = [Preset::Thesis, Preset::ThesisExtended]
            .into_iter()
            .find(|p| p.players() == cfg.players)
            .map_or(String::new(), |p| format!(" --preset {}", p.name()));
        notes.push(format!(
            "only {} of the {scheduled} scheduled games are on disk (an interrupted run: finish it with fow tournament{preset} --resume --out {})",
            games.len(),
            dir.display()
        ));
    }

    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        fs::write(&p, text).map_err(|e| write_failed(&p, e))
    };
    write("crosstable.md", &crosstable_md(&m))?;
    write("ratings.md", &ratings_md(&m, &fits, &ms)?)?;
    write("thesis-comparison.csv", &comparison_csv(&rows, &refs))?;
    let md = comparison_md(cfg, games.len(), &rows, &refs, rho, tau, &notes);
    write("thesis-comparison.md", &md)?;
    write(
        "thesis-correlation.csv",
        &format!(
            "measure,value,players\nspearman_rho,{},{n}\nkendall_tau_b,{},{n}\n",
            rho.map_or(String::new(), |v| format!("{v:.4}")),
            tau.map_or(String::new(), |v| format!("{v:.4}")),
            n = ladder_ours.len()
        ),
    )?;
    plot(&dir.join("ladder.svg"), &rows, &refs)?;
    Ok(md)
}

/// Total thinking seconds of each player over the games on disk.
fn think_seconds(players: &[String], games: &[GameRow], times: &[TimeRow]) -> Vec<f64> {
    let by_id: std::collections::HashMap<u64, &GameRow> = games.iter().map(|g| (g.id, g)).collect();
    let mut sum = vec![0.0; players.len()];
    for t in times {
        let Some(g) = by_id.get(&t.id) else { continue };
        for (name, ms) in [(&g.white, t.white_ms), (&g.black, t.black_ms)] {
            if let Some(i) = players.iter().position(|p| p == name) {
                sum[i] += ms / 1000.0;
            }
        }
    }
    sum
}

/// A Markdown table; `|` in a cell is escaped. `right[k]` right-aligns column k.
fn markdown_table(header: &[String], rows: &[Vec<String>], right: &[bool]) -> String {
    let cell = |s: &str| s.replace('|', "\\|");
    let line = |cells: &[String]| {
        let inner: Vec<String> = cells.iter().map(|c| cell(c)).collect();
        format!("| {} |\n", inner.join(" | "))
    };
    let mut out = line(header);
    let rule: Vec<String> = (0..header.len())
        .map(|k| {
            if right.get(k) == Some(&true) {
                "---:"
            } else {
                "---"
            }
            .to_string()
        })
        .collect();
    out.push_str(&format!("|{}|\n", rule.join("|")));
    for r in rows {
        out.push_str(&line(r));
    }
    out
}

fn fixed(value: Option<f64>, decimals: usize) -> String {
    value.map_or_else(|| "-".to_string(), |v| format!("{v:.decimals$}"))
}

/// The crosstable as Markdown: the row player's points as White / as Black against each
/// column player (columns numbered like the rows).
fn crosstable_md(m: &ResultMatrix) -> String {
    let n = m.len();
    let mut header: Vec<String> = ["#", "Player", "Games", "Points"]
        .map(String::from)
        .to_vec();
    header.extend((1..=n).map(|k| k.to_string()));
    let cell = |w: usize, b: usize| m.cell(w, b).filter(|c| !c.is_empty());
    let rows: Vec<Vec<String>> = (0..n)
        .map(|i| {
            let mut row = vec![
                (i + 1).to_string(),
                m.names()[i].clone(),
                m.player_games(i).unwrap_or(0).to_string(),
                format!("{:.1}", m.player_points(i).unwrap_or(0.0)),
            ];
            row.extend((0..n).map(|j| {
                if i == j {
                    return "-".to_string();
                }
                let white = cell(i, j).map(|c| c.points());
                let black = cell(j, i).map(|c| c.reversed().points());
                format!("{}/{}", fixed(white, 1), fixed(black, 1))
            }));
            row
        })
        .collect();
    let mut right = vec![true, false, true, true];
    right.extend(std::iter::repeat_n(true, n));
    let mut out = String::from("# Crosstable\n\n");
    out.push_str(&markdown_table(&header, &rows, &right));
    out.push_str(
        "\nCell: the row player's points as White / as Black against the column player.\n",
    );
    out
}

/// The ratings (like the thesis's Table 2) as Markdown, with the average wall-clock
/// milliseconds per move.
fn ratings_md(
    m: &ResultMatrix,
    fits: &crate::tables::Fits,
    ms: &[Option<f64>],
) -> Result<String, ReportError> {
    let mut inp = SummaryInput::new(m);
    inp.thesis = fits.thesis.as_ref();
    inp.mle = fits.mle.as_ref();
    inp.ms_per_move = Some(ms);
    inp.order = SummaryOrder::Given;
    let header: Vec<String> = [
        "#",
        "Player",
        "Games",
        "Points",
        "Score",
        "Elo (thesis method)",
        "Elo (MLE)",
        "±95%",
        "ms/move",
    ]
    .map(String::from)
    .to_vec();
    let rows: Vec<Vec<String>> = summary_rows(&inp)
        .map_err(input)?
        .into_iter()
        .map(|r| {
            vec![
                r.index.to_string(),
                r.player,
                r.games.to_string(),
                format!("{:.1}", r.points),
                r.score_percent.map_or("-".into(), |s| format!("{s:.1}%")),
                fixed(r.thesis_elo, 2),
                fixed(r.mle_elo, 2),
                fixed(r.mle_half_width, 1),
                fixed(r.ms_per_move, 3),
            ]
        })
        .collect();
    let mut out = String::from("# Ratings\n\n");
    out.push_str(&markdown_table(
        &header,
        &rows,
        &[true, false, true, true, true, true, true, true, true],
    ));
    out.push_str(
        "\nRandomMove = 0 (else the first player). Elo (thesis method): the thesis's iteration \
         (K = 1, all games at once); Elo (MLE): maximum likelihood, ±95% its interval. \
         ms/move: the arena's wall clock (not deterministic).\n",
    );
    for n in &fits.notes {
        let _ = writeln!(out, "\nNote: {n}.");
    }
    Ok(out)
}

fn yes_no(b: Option<bool>) -> String {
    match b {
        Some(true) => "yes".into(),
        Some(false) => "no".into(),
        None => String::new(),
    }
}

/// Whether the difference lies outside our interval, and outside the combined interval
/// √(ours² + thesis's²) of the difference of two independent estimates.
fn outside(row: &Row, refs: &[Reference]) -> (Option<bool>, Option<bool>) {
    let (Some(d), Some(o)) = (row.difference(refs), row.ours.as_ref()) else {
        return (None, None);
    };
    let Some(h) = o.half_width else {
        return (None, None);
    };
    let t = refs[row.thesis.expect("a difference has a thesis row")].half_width;
    if h == 0.0 && t == 0.0 {
        // The anchor on both sides (RandomMove = 0): nothing to test.
        return (None, None);
    }
    (Some(d.abs() > h), Some(d.abs() > h.hypot(t)))
}

fn comparison_csv(rows: &[Row], refs: &[Reference]) -> String {
    let mut out = String::from(
        "thesis_index,thesis_player,player,games,points,score_percent,thesis_method_elo,mle_elo,mle_ci95,\
         thesis_elo,thesis_ci95,difference,outside_our_ci95,outside_combined_ci95,\
         avg_ms_per_move,think_seconds,thesis_avg_ms_per_move\n",
    );
    let num = |v: Option<f64>, d: usize| v.map_or(String::new(), |v| format!("{v:.d$}"));
    for r in rows {
        let t = r.thesis.map(|t| &refs[t]);
        let o = r.ours.as_ref();
        let (out_ours, out_both) = outside(r, refs);
        let fields = [
            r.thesis.map_or(String::new(), |t| (t + 1).to_string()),
            t.map_or(String::new(), |t| t.name.to_string()),
            o.map_or(String::new(), |o| o.label.clone()),
            o.map_or(String::new(), |o| o.games.to_string()),
            o.map_or(String::new(), |o| o.points.to_string()),
            num(
                o.filter(|o| o.games > 0)
                    .map(|o| 100.0 * o.points / o.games as f64),
                2,
            ),
            num(o.and_then(|o| o.thesis_elo), 2),
            num(o.and_then(|o| o.mle_elo), 2),
            num(o.and_then(|o| o.half_width), 2),
            num(t.map(|t| t.elo), 2),
            num(t.map(|t| t.half_width), 2),
            num(r.difference(refs), 2),
            yes_no(out_ours),
            yes_no(out_both),
            num(o.and_then(|o| o.ms_per_move), 3),
            num(o.map(|o| o.think_seconds), 3),
            t.map_or(String::new(), |t| t.ms_per_move.to_string()),
        ];
        let quoted: Vec<String> = fields
            .iter()
            .map(|f| {
                if f.contains([',', '"', '\n']) {
                    format!("\"{}\"", f.replace('"', "\"\""))
                } else {
                    f.clone()
                }
            })
            .collect();
        out.push_str(&quoted.join(","));
        out.push('\n');
    }
    out
}

fn comparison_md(
    cfg: &TournamentConfig,
    on_disk: usize,
    rows: &[Row],
    refs: &[Reference],
    rho: Option<f64>,
    tau: Option<f64>,
    notes: &[String],
) -> String {
    let mut out = String::from("# fow against the thesis\n\n");
    let _ = writeln!(
        out,
        "{} players, {} {} per ordered pair ({on_disk} of {} games on disk), rules {}, seed {}, node budget {}.\n",
        cfg.players.len(),
        cfg.games_per_pair,
        if cfg.games_per_pair == 1 { "game" } else { "games" },
        cfg.pairings().len(),
        cfg.rules,
        cfg.seed.map_or("secret".to_string(), |s| s.to_string()),
        cfg.nodes
            .map_or("per bot (defaults)".to_string(), |n| format!("{n} per move for every searcher"))
    );
    let header: Vec<String> = [
        "#",
        "Thesis bot",
        "Player here",
        "Score",
        "Elo (thesis method)",
        "Elo (MLE)",
        "±95%",
        "Thesis Elo",
        "Thesis ±95%",
        "Difference",
        "Outside our ±95%",
        "Outside combined ±95%",
        "ms/move",
        "Thesis ms/move",
    ]
    .map(String::from)
    .to_vec();
    let table: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let t = r.thesis.map(|t| &refs[t]);
            let o = r.ours.as_ref();
            let (out_ours, out_both) = outside(r, refs);
            let dash = |s: String| if s.is_empty() { "-".to_string() } else { s };
            vec![
                r.thesis.map_or("-".into(), |t| (t + 1).to_string()),
                t.map_or("-".into(), |t| t.name.to_string()),
                o.map_or("(not played)".into(), |o| {
                    if t.is_some_and(|t| t.name == o.label) {
                        "same".into()
                    } else {
                        o.label.clone()
                    }
                }),
                o.filter(|o| o.games > 0).map_or("-".into(), |o| {
                    format!("{:.1}%", 100.0 * o.points / o.games as f64)
                }),
                fixed(o.and_then(|o| o.thesis_elo), 1),
                fixed(o.and_then(|o| o.mle_elo), 1),
                fixed(o.and_then(|o| o.half_width), 1),
                fixed(t.map(|t| t.elo), 1),
                fixed(t.map(|t| t.half_width), 1),
                r.difference(refs)
                    .map_or("-".into(), |d| format!("{d:+.1}")),
                dash(yes_no(out_ours)),
                dash(yes_no(out_both)),
                fixed(o.and_then(|o| o.ms_per_move), 3),
                t.map_or("-".into(), |t| t.ms_per_move.to_string()),
            ]
        })
        .collect();
    let mut right = vec![true, false, false];
    right.extend(std::iter::repeat_n(true, 11));
    out.push_str(&markdown_table(&header, &table, &right));
    let total: f64 = rows
        .iter()
        .filter_map(|r| r.ours.as_ref())
        .map(|o| o.think_seconds)
        .sum();
    if total > 0.0 {
        let mut shares: Vec<(&str, f64)> = rows
            .iter()
            .filter_map(|r| r.ours.as_ref())
            .map(|o| (o.label.as_str(), o.think_seconds))
            .collect();
        shares.sort_by(|a, b| b.1.total_cmp(&a.1));
        let parts: Vec<String> = shares
            .iter()
            .filter(|s| s.1 >= 0.005 * total)
            .map(|(name, secs)| format!("{name} {:.1}%", 100.0 * secs / total))
            .collect();
        let _ = writeln!(
            out,
            "\nThinking time (wall clock, both sides of every game on disk): {total:.1} s, of which {}{}.",
            parts.join(", "),
            if parts.len() < shares.len() { ", the rest under 0.5% each" } else { "" }
        );
    }
    let primaries = rows.iter().filter(|r| r.primary).count();
    let _ = writeln!(
        out,
        "\nRank correlation of the two ladders (our MLE Elo against the thesis's, {primaries} thesis bots{}): Spearman's rho = {}, Kendall's tau-b = {}.",
        if rows.iter().any(|r| r.thesis.is_some() && r.ours.is_some() && !r.primary) {
            "; a variant is left out when its bot plays under its plain name"
        } else {
            ""
        },
        fixed(rho, 3),
        fixed(tau, 3)
    );
    out.push_str(
        "\nRandomMove = 0 on both sides. Thesis Elo: `elo_recomputed` of its Table 2 \
         (data/thesis/table2.csv); Thesis ±95%: our maximum-likelihood interval for its \
         result matrix (data/thesis/match_results.txt). Difference: our MLE Elo minus the \
         thesis's (where the thesis method converges both fits agree). Outside our ±95%: \
         the thesis's rating lies outside our interval; Outside combined ±95%: the \
         difference exceeds √(ours² + thesis's²), the interval of a difference of two \
         independent estimates. A variant (`Bot:key=value`) is compared with its base bot. \
         ms/move: the arena's wall clock on this machine (not deterministic); the thesis's \
         as printed in its Table 2.\n",
    );
    for n in notes {
        let _ = writeln!(out, "\nNote: {n}.");
    }
    out
}

fn plot(path: &Path, rows: &[Row], refs: &[Reference]) -> Result<(), ReportError> {
    let left: Vec<Rung> = refs
        .iter()
        .map(|r| Rung {
            label: r.name.to_string(),
            elo: r.elo,
            half_width: None,
        })
        .collect();
    let mut right = Vec::new();
    let mut links = Vec::new();
    for r in rows {
        let Some(o) = &r.ours else { continue };
        let Some(elo) = o.mle_elo else { continue };
        if let Some(t) = r.thesis {
            links.push((t, right.len()));
        }
        right.push(Rung {
            label: short_label(&o.label),
            elo,
            half_width: o.half_width,
        });
    }
    ladder_plot(
        path,
        "Elo ladders, RandomMove = 0: the thesis (Table 2) and fow (MLE, 95% intervals)",
        ["thesis", "fow"],
        &left,
        &right,
        &links,
    )
}

/// A label for the plot: parameter values that are paths shortened to their file name.
fn short_label(label: &str) -> String {
    let Ok(spec) = label.parse::<fow_players::PlayerSpec>() else {
        return label.to_string();
    };
    let mut spec = spec;
    for (_, v) in &mut spec.params {
        if v.contains('/') {
            if let Some(name) = Path::new(v.as_str()).file_name() {
                *v = name.to_string_lossy().into_owned();
            }
        }
    }
    spec.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compiled_in_table_is_the_thesis_ladder() {
        let refs = reference();
        let names: Vec<&str> = refs.iter().map(|r| r.name).collect();
        assert_eq!(names, THESIS_BOTS);
        assert_eq!(refs[0].elo, 0.0);
        assert_eq!(refs[9].elo, 1525.73);
        assert_eq!(refs[9].ms_per_move, "475");
        assert_eq!(refs[0].half_width, 0.0);
        // 100 games per cell: intervals of 60-82 Elo (`fow rate` on the matrix agrees).
        assert!((refs[1].half_width - 60.84).abs() < 0.01);
        assert!(refs[1..]
            .iter()
            .all(|r| (55.0..85.0).contains(&r.half_width)));
    }

    #[test]
    fn presets_list_the_thesis_bots_in_order() {
        let mut ten = THESIS_BOTS.to_vec();
        ten[6] = "NeuralNetworkPlayer:weights=thesis";
        assert_eq!(Preset::Thesis.players(), ten);
        assert_eq!(base_name(THESIS_NN_SPEC), "NeuralNetworkPlayer");
        assert_eq!(short_label(THESIS_NN_SPEC), THESIS_NN_SPEC);
        let spec: fow_players::PlayerSpec = THESIS_NN_SPEC.parse().unwrap();
        assert!(spec.build().is_ok());
        // The list before the thesis's network (results/thesis-reproduction's).
        assert_eq!(Preset::Thesis.players_with_fow_network(), THESIS_BOTS);
        assert_eq!(Preset::Thesis.mismatch(&Preset::Thesis.players()), None);
        let old: Vec<String> = THESIS_BOTS.iter().map(|s| s.to_string()).collect();
        let why = Preset::Thesis.mismatch(&old).unwrap();
        assert!(why.contains("without --preset"), "{why}");
        let ext = Preset::ThesisExtended.players();
        assert_eq!(ext[..10], ten);
        assert_eq!(
            Preset::ThesisExtended.players_with_fow_network()[..10],
            THESIS_BOTS
        );
        assert_eq!(
            ext[10],
            "PositionaryEvaluator:params=data/thesis/positionary_evaluator_params.json"
        );
        assert_eq!(base_name(&ext[10]), "PositionaryEvaluator");
        assert_eq!(
            short_label(&ext[10]),
            "PositionaryEvaluator:params=positionary_evaluator_params.json"
        );
    }

    #[test]
    fn markdown_escapes_pipes() {
        let t = markdown_table(
            &["a".into(), "b".into()],
            &[vec!["x|y".into(), "1".into()]],
            &[false, true],
        );
        assert_eq!(t, "| a | b |\n|---|---:|\n| x\\|y | 1 |\n");
    }
}
