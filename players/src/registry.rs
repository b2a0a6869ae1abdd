//! The registry: every built-in bot with a one-line description and its parameters.

use crate::belief::board_list::Prior;
use crate::belief::information::Target;
use crate::bots;
use crate::external::{ExternalPlayer, UciPlayer};
use crate::parametrized::{Family, Parametrized};
use crate::player::Player;
use crate::spec::{PlayerSpec, SpecError};

/// One parameter a bot accepts.
#[derive(Clone, Copy, Debug)]
pub struct ParamInfo {
    /// The key in `Name:key=value`.
    pub name: &'static str,
    /// The value used when the key is absent.
    pub default: &'static str,
    /// What it does.
    pub description: &'static str,
}

/// A registered bot.
#[derive(Clone, Copy)]
pub struct BotInfo {
    /// The name used in specs.
    pub name: &'static str,
    /// One line on what it does.
    pub description: &'static str,
    /// The parameters it accepts.
    pub params: &'static [ParamInfo],
    /// For a bot whose behaviour is a vector of numbers: its [`Family`].
    pub family: Option<Family>,
    /// Whether a tournament without --players plays it ([`default_players`]): the
    /// thesis's bots, quick enough for the default run; slower bots are asked for by name.
    pub in_default: bool,
    build: fn(&PlayerSpec) -> Result<Box<dyn Player>, SpecError>,
}

fn plain<P: Player + Default + 'static>(_: &PlayerSpec) -> Result<Box<dyn Player>, SpecError> {
    Ok(Box::new(P::default()))
}

static BOTS: &[BotInfo] = &[
    BotInfo {
        name: "RandomMove",
        description: "plays a uniformly random legal move",
        params: &[],
        family: None,
        in_default: true,
        build: plain::<bots::RandomMove>,
    },
    BotInfo {
        name: "CaptureKing",
        description: "captures the king when it can, otherwise a random move",
        params: &[],
        family: None,
        in_default: true,
        build: plain::<bots::CaptureKing>,
    },
    BotInfo {
        name: "CaptureLargest",
        description: "captures the heaviest visible piece it can (P1 N3 B3 R5 Q10 K100)",
        params: &[],
        family: None,
        in_default: true,
        build: plain::<bots::CaptureLargest>,
    },
    BotInfo {
        name: "CaptureWithLargestDifference",
        description: "maximises captured weight minus the weight of the moving piece",
        params: &[],
        family: None,
        in_default: true,
        build: plain::<bots::CaptureWithLargestDifference>,
    },
    BotInfo {
        name: "Supporter",
        description: "captured weight plus the number of its pieces (not pawns or king) defended after the move",
        params: &[],
        family: None,
        in_default: true,
        build: plain::<bots::Supporter>,
    },
    BotInfo {
        name: "PositionaryEvaluator",
        description: "piece-square and capture values (389 numbers, evolved by `fow evolve`); draws a move with probability proportional to exp(score)",
        params: &[ParamInfo {
            name: "params",
            default: "(shipped)",
            description: "a JSON parameter file (named values; missing names keep the shipped values)",
        }],
        family: Some(Family::of::<bots::PositionaryEvaluator>()),
        in_default: true,
        build: build_parametrized::<bots::PositionaryEvaluator>,
    },
    BotInfo {
        name: "NeuralNetworkPlayer",
        description: "the thesis's move network (from/to logits, plain-Rust inference); captures the king, else plays the move with the best log-probability",
        params: &[
            ParamInfo {
                name: "weights",
                default: "default",
                description: "default (fow's network, trained on PossibleBoardList's moves), thesis (the thesis's own network, converted from its nn.txt, with its move rule) or a .safetensors file (architecture in the .json beside it or in its metadata)",
            },
            ParamInfo {
                name: "temperature",
                default: "0",
                description: "0 plays the best move; T > 0 draws a move with probability proportional to exp(score / T)",
            },
        ],
        family: None,
        in_default: true,
        build: |spec| Ok(Box::new(bots::NeuralNetworkPlayer::from_spec(spec)?)),
    },
    BotInfo {
        name: "SimpleStockfish",
        description: "MyStockfish minimax on the visible board, fog squares impassable",
        params: DEPTH_3_SEARCH,
        family: None,
        in_default: true,
        build: |spec| {
            Ok(Box::new(bots::SimpleStockfish::new(bots::Thinking::from_spec(
                spec, 3, None,
            )?)))
        },
    },
    BotInfo {
        name: "PossibleBoardGenerator",
        description: "guesses one full board from the previous guess and the view, searches it with MyStockfish",
        params: DEPTH_3_SEARCH,
        family: None,
        in_default: true,
        build: |spec| {
            Ok(Box::new(bots::PossibleBoardGenerator::new(
                bots::Thinking::from_spec(spec, 3, None)?,
            )))
        },
    },
    BotInfo {
        name: "PossibleBoardList",
        description: "tracks every board consistent with what it saw; plays the move whose worst case over them is best",
        params: &[
            ParamInfo {
                name: "depth",
                default: "2",
                description: "MyStockfish depth on each board",
            },
            ParamInfo {
                name: "nodes",
                default: "150000",
                description: "search nodes per move over all boards, 0 for no limit (deterministic)",
            },
            TIME_PARAM,
            CAP_PARAM,
            SAMPLE_PARAM,
            GUESSES_PARAM,
        ],
        family: None,
        in_default: true,
        build: |spec| {
            let positive = |key: &str, default: usize| positive(spec, key, default);
            let d = bots::BoardListSettings::default();
            Ok(Box::new(bots::PossibleBoardList::new(bots::BoardListSettings {
                thinking: bots::Thinking::from_spec(spec, d.thinking.depth, d.thinking.nodes)?,
                cap: positive("cap", d.cap)?,
                sample: positive("sample", d.sample)?,
                guesses: positive("guesses", d.guesses)?,
            })))
        },
    },
    BotInfo {
        name: "BeliefSearch",
        description: "the boards consistent with what it saw (a seeded sample of 20,000 when more fit, drawn by an opponent model); plays the best mix of mean and worst case over the boards, a lost king counted as a heavy loss, less its king risk (not in the default tournament)",
        params: &[
            ParamInfo {
                name: "depth",
                default: "2",
                description: "MyStockfish depth on each board",
            },
            ParamInfo {
                name: "nodes",
                default: "1500000",
                description: "search nodes per move over all boards, 0 for no limit (deterministic)",
            },
            TIME_PARAM,
            ParamInfo {
                name: "cap",
                default: "20000",
                description: "with keep=0 only: most boards tracked exactly; above it the set is rebuilt from guesses",
            },
            SAMPLE_PARAM,
            ParamInfo {
                name: "guesses",
                default: "64",
                description: "boards guessed when the set is rebuilt (when no board is left, or with keep=0 past cap)",
            },
            ParamInfo {
                name: "mean",
                default: "0.5",
                description: "weight of a move's mean value over the boards, the rest on its worst case (0 to 1)",
            },
            ParamInfo {
                name: "king",
                default: "40",
                description: "what the king is worth in pawns: search values are cut to plus or minus this",
            },
            ParamInfo {
                name: "risk",
                default: "40",
                description: "pawns off a move per unit of its king risk (the share of all believed boards where the king can be taken right after it); 0 for off",
            },
            ParamInfo {
                name: "riskboards",
                default: "4096",
                description: "most boards the king-risk check looks at (a seeded sample of a larger set)",
            },
            ParamInfo {
                name: "keep",
                default: "20000",
                description: "most boards kept when more are consistent, a seeded sample (drawn by the opponent model, see model; no rebuild from guesses); 0 for PossibleBoardList's belief",
            },
            ParamInfo {
                name: "exposure",
                default: "0",
                description: "pawns off a move per line of fog leading to our king after it (king safety from what is seen); 0 for off",
            },
            ParamInfo {
                name: "repeat",
                default: "0.5",
                description: "pawns off a move per earlier time our pieces stood as after it (against draws by repetition, under rules that have them); 0 for off",
            },
            ParamInfo {
                name: "progress",
                default: "0",
                description: "pawns added to a pawn move or capture, times the share of the no-progress limit used up (against no-progress draws); 0 for off",
            },
            ParamInfo {
                name: "eval",
                default: "tapered",
                description: "the evaluation at the leaves: thesis (material) or tapered (plus pawn advance, development, king shelter, endgame king; middle game to endgame by material)",
            },
            ParamInfo {
                name: "model",
                default: "2",
                description: "with keep: draw the sample of boards by how likely an opponent model makes the move that led to each (a softmax of what the move gains at once, this sharp per pawn; 0 for every move alike); off for a uniform sample",
            },
            ParamInfo {
                name: "carry",
                default: "off",
                description: "with model: on carries each board's probability from turn to turn (the model's probabilities of all the opponent moves that led to it), draws the sample of boards kept by it, searches the likeliest boards first and weighs the mean and the king risk by it; search does the same but draws the sample as off does; off: the boards kept count alike",
            },
            ParamInfo {
                name: "info",
                default: "0",
                description: "pawns added to a move per bit of information the view right after it is expected to give (see infoabout) over the believed boards: moves that look where the enemy may be; 0 for off",
            },
            ParamInfo {
                name: "infoabout",
                default: "kq",
                description: "what info is about: kq (where the enemy king and queens stand) or all (every enemy piece)",
            },
            ParamInfo {
                name: "infoboards",
                default: "512",
                description: "most boards the information is judged over (a seeded sample of a larger set)",
            },
            ParamInfo {
                name: "quiesce",
                default: "captures",
                description: "what the search of each board looks at past its depth: recapture (the thesis's captures on the last square) or captures (every capture, standing pat on the evaluation; a king capture ends the line)",
            },
            ParamInfo {
                name: "deepen",
                default: "off",
                description: "on: once the sample of boards is searched at depth with nodes or time left, search it again a ply deeper, and so on (iterative deepening; the deepest complete pass decides)",
            },
        ],
        family: None,
        in_default: false,
        build: |spec| {
            let positive = |key: &str, default: usize| positive(spec, key, default);
            let d = bots::BeliefSearchSettings::default();
            let mean: f64 = spec.parsed("mean", d.mean)?;
            let king: f64 = spec.parsed("king", d.king)?;
            let risk: f64 = spec.parsed("risk", d.risk)?;
            let exposure: f64 = spec.parsed("exposure", d.exposure)?;
            let repeat: f64 = spec.parsed("repeat", d.repeat)?;
            let progress: f64 = spec.parsed("progress", d.progress)?;
            let info: f64 = spec.parsed("info", d.info)?;
            let model: Option<f64> = match spec.param("model") {
                None => d.model,
                Some("off") => None,
                Some(_) => match spec.parsed::<f64>("model", 0.0)? {
                    m if m >= 0.0 && m.is_finite() => Some(m),
                    m => {
                        return Err(SpecError::BadParam {
                            bot: spec.name.clone(),
                            message: format!("model must be off or 0 or more (per pawn), not {m}"),
                        })
                    }
                },
            };
            for (key, value) in [
                ("risk", risk),
                ("exposure", exposure),
                ("repeat", repeat),
                ("progress", progress),
                ("info", info),
            ] {
                if !(value >= 0.0 && value.is_finite()) {
                    return Err(SpecError::BadParam {
                        bot: spec.name.clone(),
                        message: format!("{key} must be 0 or more pawns, not {value}"),
                    });
                }
            }
            if !((0.0..=1.0).contains(&mean) && king > 0.0 && king.is_finite()) {
                return Err(SpecError::BadParam {
                    bot: spec.name.clone(),
                    message: format!(
                        "mean must be 0 to 1 and king a positive number of pawns (mean={mean}, king={king})"
                    ),
                });
            }
            Ok(Box::new(bots::BeliefSearch::new(bots::BeliefSearchSettings {
                thinking: bots::Thinking::from_spec(spec, d.thinking.depth, d.thinking.nodes)?,
                cap: positive("cap", d.cap)?,
                sample: positive("sample", d.sample)?,
                guesses: positive("guesses", d.guesses)?,
                mean,
                king,
                risk,
                risk_boards: positive("riskboards", d.risk_boards)?,
                keep: spec.parsed("keep", d.keep)?,
                exposure,
                repeat,
                eval: spec.parsed("eval", d.eval)?,
                progress,
                model,
                carry: choice(
                    spec,
                    "carry",
                    d.carry,
                    &[
                        ("off", Prior::Flat),
                        ("on", Prior::Carried),
                        ("search", Prior::Tracked),
                    ],
                )?,
                info,
                info_about: choice(
                    spec,
                    "infoabout",
                    d.info_about,
                    &[("kq", Target::KingQueen), ("all", Target::All)],
                )?,
                info_boards: positive("infoboards", d.info_boards)?,
                deepen: choice(spec, "deepen", d.deepen, &[("off", false), ("on", true)])?,
                capture_quiescence: choice(
                    spec,
                    "quiesce",
                    d.capture_quiescence,
                    &[("recapture", false), ("captures", true)],
                )?,
            })))
        },
    },
];

/// The parameters of a program player (`exec`, `uci`): its own, then those of every
/// program's launch (`sandbox`, `bind`, `env.NAME`; see [`crate::external::Launch`]),
/// then the rest.
macro_rules! program_params {
    ([$($own:expr),* $(,)?], [$($rest:expr),* $(,)?]) => {
        &[
            $($own,)*
            ParamInfo {
                name: "sandbox",
                default: "none",
                description: "bwrap: run the program under bubblewrap, as an unprivileged user without network, shown only its own files (PROTOCOL.md)",
            },
            ParamInfo {
                name: "bind",
                default: "",
                description: "a file or folder shown read-only inside the sandbox (repeatable); never the results folder",
            },
            ParamInfo {
                name: "env.NAME",
                default: "",
                description: "sets NAME in the program's environment, which otherwise holds only PATH, HOME, TMPDIR and LANG",
            },
            $($rest,)*
        ]
    };
}

/// Players that run outside fow (`exec`, `uci`), built from a spec with open-ended
/// parameters.
static PROGRAMS: &[BotInfo] = &[BotInfo {
    name: "exec",
    description: "a bot running as a separate program, spoken to over stdin/stdout with the fow bot protocol (PROTOCOL.md)",
    params: program_params!(
        [
        ParamInfo {
            name: "cmd",
            default: "(required)",
            description: "the command line, run without a shell (quote a value with commas: cmd=\"...\")",
        },
        ParamInfo {
            name: "name",
            default: "(cmd)",
            description: "the name in the tables and in error messages",
        },
        ParamInfo {
            name: "timeout",
            default: "10000",
            description: "milliseconds the program may take for one move before it loses on time",
        },
        ParamInfo {
            name: "startup",
            default: "10000",
            description: "milliseconds from its start to its hello and ready",
        },
        ],
        [
        ParamInfo {
            name: "KEY",
            default: "",
            description: "any other key=value is an option for the program, sent in new_game",
        },
        ]
    ),
    family: None,
    in_default: false,
    build: |spec| Ok(Box::new(ExternalPlayer::from_spec(spec)?)),
}, BotInfo {
    name: "uci",
    description: "a UCI chess engine (e.g. Stockfish) on a full board guessed from the view; captures the king when it can, falls back to the heaviest capture when the engine's move is not legal",
    params: program_params!(
        [
        ParamInfo {
            name: "cmd",
            default: "(required)",
            description: "the engine's command line, run without a shell; a bare name is also looked for in /usr/games",
        },
        ParamInfo {
            name: "nodes",
            default: "2000",
            description: "go nodes N for each move (unless movetime is given)",
        },
        ParamInfo {
            name: "movetime",
            default: "",
            description: "go movetime MS for each move instead of nodes (not deterministic)",
        },
        ParamInfo {
            name: "board",
            default: "guess",
            description: "guess: one board kept across turns (as PossibleBoardGenerator); belief: a seeded random board of the exact belief set",
        },
        ParamInfo {
            name: "name",
            default: "(cmd)",
            description: "the name in the tables and in error messages",
        },
        ParamInfo {
            name: "timeout",
            default: "10000",
            description: "milliseconds the engine may take for one bestmove before it loses on time",
        },
        ParamInfo {
            name: "startup",
            default: "10000",
            description: "milliseconds from its start to uciok and readyok",
        },
        ],
        []
    ),
    family: None,
    in_default: false,
    build: |spec| Ok(Box::new(UciPlayer::from_spec(spec)?)),
}];

/// Builds a parametrized bot: its shipped parameters, or those of `params=FILE`.
fn build_parametrized<P: Parametrized>(spec: &PlayerSpec) -> Result<Box<dyn Player>, SpecError> {
    let family = Family::of::<P>();
    let params = match spec.param("params") {
        None => P::default_params(),
        Some(path) => family
            .load(std::path::Path::new(path))
            .map_err(|e| SpecError::BadParam {
                bot: P::NAME.to_string(),
                message: e.to_string(),
            })?,
    };
    family.build(&params).map_err(|e| SpecError::BadParam {
        bot: P::NAME.to_string(),
        message: e.to_string(),
    })
}

/// The parameters of a bot searching at depth 3 by default.
/// The belief set's size limit (PossibleBoardList, BeliefSearch).
const CAP_PARAM: ParamInfo = ParamInfo {
    name: "cap",
    default: "20000",
    description: "most boards tracked exactly; above it the set is rebuilt from guesses",
};

/// The boards searched per move (PossibleBoardList, BeliefSearch).
const SAMPLE_PARAM: ParamInfo = ParamInfo {
    name: "sample",
    default: "48",
    description: "most boards searched per move (a seeded random sample of a larger set)",
};

/// The boards guessed at a rebuild (PossibleBoardList, BeliefSearch).
const GUESSES_PARAM: ParamInfo = ParamInfo {
    name: "guesses",
    default: "64",
    description: "boards guessed when the set is rebuilt",
};

/// A count parameter of `spec` that must be at least 1.
/// The value named by `key` among `choices` (its name in a spec, its value), `default`
/// when the spec does not set it; an error naming the choices for any other name.
fn choice<T: Copy>(
    spec: &PlayerSpec,
    key: &str,
    default: T,
    choices: &[(&str, T)],
) -> Result<T, SpecError> {
    let Some(given) = spec.param(key) else {
        return Ok(default);
    };
    match choices.iter().find(|(name, _)| *name == given) {
        Some(&(_, value)) => Ok(value),
        None => {
            let names: Vec<&str> = choices.iter().map(|(name, _)| *name).collect();
            Err(SpecError::BadParam {
                bot: spec.name.clone(),
                message: format!("{key} must be one of {}, not {given}", names.join(", ")),
            })
        }
    }
}

fn positive(spec: &PlayerSpec, key: &str, default: usize) -> Result<usize, SpecError> {
    let v: usize = spec.parsed(key, default)?;
    if v == 0 {
        return Err(SpecError::BadParam {
            bot: spec.name.clone(),
            message: format!("{key} must be at least 1"),
        });
    }
    Ok(v)
}

const DEPTH_3_SEARCH: &[ParamInfo] = &[
    ParamInfo {
        name: "depth",
        default: "3",
        description: "search depth in plies",
    },
    NODES_PARAM,
    TIME_PARAM,
];

const NODES_PARAM: ParamInfo = ParamInfo {
    name: "nodes",
    default: "0",
    description: "search nodes per move, 0 for no limit (deterministic)",
};

const TIME_PARAM: ParamInfo = ParamInfo {
    name: "time",
    default: "0",
    description: "milliseconds per move, 0 for no limit; the search stops and plays its best move so far (not deterministic)",
};

/// Every registered bot, in the thesis's ladder order.
pub fn registry() -> &'static [BotInfo] {
    BOTS
}

/// The names of the bots a tournament without --players plays, in registry order (see
/// [`BotInfo::in_default`]).
pub fn default_players() -> Vec<&'static str> {
    BOTS.iter()
        .filter(|b| b.in_default)
        .map(|b| b.name)
        .collect()
}

/// The players that run outside fow (`exec`, `uci`): not bots themselves, so not in
/// [`registry`] (nor in a default tournament), but built by [`build`] like any bot.
pub fn programs() -> &'static [BotInfo] {
    PROGRAMS
}

/// The bot registered under `name`.
pub fn find(name: &str) -> Option<&'static BotInfo> {
    BOTS.iter().find(|b| b.name == name)
}

impl PlayerSpec {
    /// Builds a fresh player from the registry (see [`build`]).
    pub fn build(&self) -> Result<Box<dyn Player>, SpecError> {
        build(self)
    }
}

/// Builds a player from a spec, checking the bot name and its parameter names.
pub fn build(spec: &PlayerSpec) -> Result<Box<dyn Player>, SpecError> {
    if let Some(program) = PROGRAMS.iter().find(|b| b.name == spec.name) {
        return (program.build)(spec);
    }
    let info = find(&spec.name).ok_or_else(|| SpecError::UnknownBot {
        name: spec.name.clone(),
        known: BOTS
            .iter()
            .chain(PROGRAMS)
            .map(|b| b.name.to_string())
            .collect(),
    })?;
    for (k, _) in &spec.params {
        if !info.params.iter().any(|p| p.name == k) {
            let known: Vec<&str> = info.params.iter().map(|p| p.name).collect();
            return Err(SpecError::BadParam {
                bot: info.name.to_string(),
                message: if known.is_empty() {
                    format!("unknown parameter '{k}' (this bot takes none)")
                } else {
                    format!("unknown parameter '{k}' (known: {})", known.join(", "))
                },
            });
        }
    }
    (info.build)(spec)
}
