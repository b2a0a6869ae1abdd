//! The registry: every built-in bot with a one-line description and its parameters.

use crate::bots;
use crate::external::{ExternalPlayer, UciPlayer};
use crate::param::Param;
use crate::parametrized::{Family, ParamError, Parametrized};
use crate::player::Player;
use crate::spec::{PlayerSpec, SpecError};

/// A registered bot.
#[derive(Clone, Copy)]
pub struct BotInfo {
    /// The name used in specs.
    pub name: &'static str,
    /// One line on what it does.
    pub description: &'static str,
    /// The parameters it accepts.
    pub params: &'static [Param],
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
        params: bots::positionary_evaluator::PARAMS,
        family: Some(Family::of::<bots::PositionaryEvaluator>()),
        in_default: true,
        build: build_parametrized::<bots::PositionaryEvaluator>,
    },
    BotInfo {
        name: "NeuralNetworkPlayer",
        description: "the thesis's move network (from/to logits, plain-Rust inference); captures the king, else plays the move with the best log-probability",
        params: bots::neural_network::PARAMS,
        family: None,
        in_default: true,
        build: |spec| Ok(Box::new(bots::NeuralNetworkPlayer::from_spec(spec)?)),
    },
    BotInfo {
        name: "SimpleStockfish",
        description: "MyStockfish minimax on the visible board, fog squares impassable",
        params: bots::simple_stockfish::PARAMS,
        family: None,
        in_default: true,
        build: |spec| Ok(Box::new(bots::SimpleStockfish::from_spec(spec)?)),
    },
    BotInfo {
        name: "PossibleBoardGenerator",
        description: "guesses one full board from the previous guess and the view, searches it with MyStockfish",
        params: bots::possible_board_generator::PARAMS,
        family: None,
        in_default: true,
        build: |spec| Ok(Box::new(bots::PossibleBoardGenerator::from_spec(spec)?)),
    },
    BotInfo {
        name: "PossibleBoardList",
        description: "tracks every board consistent with what it saw; plays the move whose worst case over them is best",
        params: bots::possible_board_list::PARAMS,
        family: None,
        in_default: true,
        build: |spec| {
            Ok(Box::new(bots::PossibleBoardList::new(
                bots::BoardListSettings::from_spec(spec)?,
            )))
        },
    },
    BotInfo {
        name: "Planted",
        description: "a tuner's test target: CaptureLargest's move with a chance that falls with the distance of (x, y) from a planted point (px, py), else a random move (not in the default tournament)",
        params: bots::planted::PARAMS,
        family: None,
        in_default: false,
        build: |spec| Ok(Box::new(bots::Planted::from_spec(spec)?)),
    },
    BotInfo {
        name: "BeliefSearch",
        description: "the boards consistent with what it saw (a seeded sample of 20,000 when more fit, drawn by an opponent model); plays the best mix of mean and worst case over the boards, a lost king counted as a heavy loss, less its king risk (not in the default tournament)",
        params: bots::belief_search::PARAMS,
        family: None,
        in_default: false,
        build: |spec| {
            Ok(Box::new(bots::BeliefSearch::new(
                bots::BeliefSearchSettings::from_spec(spec)?,
            )))
        },
    },
    BotInfo {
        name: "SubgameSolver",
        description: "BeliefSearch's belief and scores; a subgame over its best moves (4 within a pawn) and a sample of the believed boards (the opponent knowing only its own view after the move, its replies valued by MyStockfish) solved by predictive CFR+ for a mixed strategy, a move drawn from it with its seed (not in the default tournament)",
        params: bots::subgame_solver::PARAMS,
        family: None,
        in_default: false,
        build: |spec| {
            Ok(Box::new(bots::SubgameSolver::new(
                bots::SubgameSolverSettings::from_spec(spec)?,
            )))
        },
    },
    BotInfo {
        name: "Exploiter",
        description: "an approximate best response to one built-in bot it knows by spec (target=SPEC), not by seed: copies of the target replay the histories it believes possible and it plays BeliefSearch's scoring over their boards (fow exploit; not in the default tournament)",
        params: bots::exploiter::PARAMS,
        family: None,
        in_default: false,
        build: build_exploiter,
    },
];

/// Builds an `Exploiter`: its target must be a built-in bot other than an exploiter (a
/// program would be launched once per particle).
fn build_exploiter(spec: &PlayerSpec) -> Result<Box<dyn Player>, SpecError> {
    let settings = bots::ExploiterSettings::from_spec(spec)?;
    let target = settings.target.clone();
    if PROGRAMS.iter().any(|p| p.name == target.name) || target.name == "Exploiter" {
        return Err(SpecError::BadParam {
            bot: "Exploiter".into(),
            message: format!("target must be a built-in bot, not {}", target.name),
        });
    }
    build(&target)?;
    Ok(Box::new(bots::Exploiter::new(
        &settings,
        Box::new(move || build(&target).expect("the target was built once already")),
    )))
}

/// The parameters of a program player (`exec`, `uci`): its own, then those of every
/// program's launch (`sandbox`, `bind`, `env.NAME`; see [`crate::external::Launch`]),
/// then the rest.
macro_rules! program_params {
    ([$($own:expr),* $(,)?], [$($rest:expr),* $(,)?]) => {
        &[
            $($own,)*
            Param::text("sandbox", "none", "bwrap: run the program under bubblewrap, as an unprivileged user without network, shown only its own files (PROTOCOL.md)"),
            Param::text("bind", "", "a file or folder shown read-only inside the sandbox (repeatable); never the results folder"),
            Param::text("env.NAME", "", "sets NAME in the program's environment, which otherwise holds only PATH, HOME, TMPDIR and LANG"),
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
        Param::text("cmd", "(required)", "the command line, run without a shell (quote a value with commas: cmd=\"...\")"),
        Param::text("name", "(cmd)", "the name in the tables and in error messages"),
        Param::int("timeout", 10000, 1, i64::MAX, "milliseconds the program may take for one move before it loses on time"),
        Param::int("startup", 10000, 1, i64::MAX, "milliseconds from its start to its hello and ready"),
        ],
        [
        Param::text("KEY", "", "any other key=value is an option for the program, sent in new_game"),
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
        Param::text("cmd", "(required)", "the engine's command line, run without a shell; a bare name is also looked for in /usr/games"),
        Param::int("nodes", 2000, 1, i64::MAX, "go nodes N for each move (unless movetime is given)"),
        Param::text("movetime", "", "go movetime MS for each move instead of nodes (not deterministic)"),
        Param::text("board", "guess", "guess: one board kept across turns (as PossibleBoardGenerator); belief: a seeded random board of the exact belief set"),
        Param::text("name", "(cmd)", "the name in the tables and in error messages"),
        Param::int("timeout", 10000, 1, i64::MAX, "milliseconds the engine may take for one bestmove before it loses on time"),
        Param::int("startup", 10000, 1, i64::MAX, "milliseconds from its start to uciok and readyok"),
        ],
        [
        Param::text("option.NAME", "", "sets the engine's option NAME (as the engine lists it, a space written _) with setoption after uciok, checked against its type and range (repeatable): option.Hash=64"),
        ]
    ),
    family: None,
    in_default: false,
    build: |spec| Ok(Box::new(UciPlayer::from_spec(spec)?)),
}];

/// Builds a parametrized bot: its shipped parameters, or those of `params=FILE`.
fn build_parametrized<P: Parametrized>(spec: &PlayerSpec) -> Result<Box<dyn Player>, SpecError> {
    let family = Family::of::<P>();
    let params = family_numbers(&family, spec)?;
    family.build(&params).map_err(|e| SpecError::BadParam {
        bot: P::NAME.to_string(),
        message: e.to_string(),
    })
}

/// The numbers of a family bot's spec: its `params` file (else the shipped values), then
/// each number the spec sets by name (`capture.pawn=3`).
pub fn family_numbers(family: &Family, spec: &PlayerSpec) -> Result<Vec<f64>, SpecError> {
    let bad = |message: String| SpecError::BadParam {
        bot: family.name.to_string(),
        message,
    };
    let mut params = match spec.param("params") {
        None => (family.default_params)(),
        Some(path) => family
            .load(std::path::Path::new(path))
            .map_err(|e| bad(e.to_string()))?,
    };
    let names = (family.param_names)();
    for (k, v) in &spec.params {
        if let Some(i) = names.iter().position(|n| n == k) {
            params[i] = v
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| bad(format!("{k} must be a finite number, not '{v}'")))?;
        }
    }
    Ok(params)
}

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

/// The bot registered under `name`: a built-in one, or one a program using the library
/// added with [`register`].
pub fn find(name: &str) -> Option<&'static BotInfo> {
    BOTS.iter().find(|b| b.name == name).or_else(|| {
        let added = ADDED.read().unwrap_or_else(|e| e.into_inner());
        added.iter().copied().find(|b| b.name == name)
    })
}

/// Bots added at run time by a program using the library ([`register`]).
static ADDED: std::sync::RwLock<Vec<&'static BotInfo>> = std::sync::RwLock::new(Vec::new());

impl BotInfo {
    /// A bot of your own, to [`register`]: its name in specs, a line on what it does,
    /// its declared parameters, and how to build it from a spec (reading them).
    pub const fn new(
        name: &'static str,
        description: &'static str,
        params: &'static [Param],
        build: fn(&PlayerSpec) -> Result<Box<dyn Player>, SpecError>,
    ) -> BotInfo {
        BotInfo {
            name,
            description,
            params,
            family: None,
            in_default: false,
            build,
        }
    }
}

/// Adds a bot of a program using the library, so that specs naming it build (in
/// matches, tournaments and the tuner, whose [`crate::tune::TuneSpace::declared`] reads
/// its parameters) as a built-in bot's do. A name already taken is refused.
///
/// ```
/// use fow_players::{register, BotInfo, Player, PlayerSpec, SpecError};
/// use fow_players::param::Param;
/// use fow_players::bots::RandomMove;
/// const LEVEL: Param = Param::int("level", 3, 1, 9, "how hard it tries");
/// fn build(spec: &PlayerSpec) -> Result<Box<dyn Player>, SpecError> {
///     LEVEL.read_int(spec)?;
///     Ok(Box::new(RandomMove::default()))
/// }
/// static PARAMS: &[Param] = &[LEVEL];
/// register(BotInfo::new("MyBot", "my own bot", PARAMS, build)).unwrap();
/// let spec: PlayerSpec = "MyBot:level=5".parse().unwrap();
/// assert!(spec.build().is_ok());
/// assert!("MyBot:level=10".parse::<PlayerSpec>().unwrap().build().is_err());
/// ```
pub fn register(info: BotInfo) -> Result<(), SpecError> {
    let mut added = ADDED.write().unwrap_or_else(|e| e.into_inner());
    let taken = BOTS.iter().chain(PROGRAMS).any(|b| b.name == info.name)
        || added.iter().any(|b| b.name == info.name);
    let valid = !info.name.is_empty()
        && info
            .name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if taken || !valid {
        return Err(SpecError::BadParam {
            bot: info.name.to_string(),
            message: match taken {
                true => "this name is taken by another bot".into(),
                false => "a bot's name is letters, digits, '_' and '-'".into(),
            },
        });
    }
    added.push(Box::leak(Box::new(info)));
    Ok(())
}

/// The [`Family`] of the parametrized bot `name`; the error lists the parametrized bots.
pub fn family(name: &str) -> Result<Family, ParamError> {
    find(name).and_then(|b| b.family).ok_or_else(|| {
        let names: Vec<&str> = BOTS
            .iter()
            .filter(|b| b.family.is_some())
            .map(|b| b.name)
            .collect();
        ParamError(format!(
            "'{name}' is not a parametrized bot (parametrized: {})",
            names.join(", ")
        ))
    })
}

impl BotInfo {
    /// This bot's declared parameters as `spec` sets them (`fow params show`), one line
    /// each: the name, the value in the spec or else the default, the default and the
    /// range; or one line saying it takes none. A spec that does not build is an error.
    pub fn settings_lines(&self, spec: &PlayerSpec) -> Result<Vec<String>, SpecError> {
        spec.build()?;
        if self.params.is_empty() {
            return Ok(vec![format!("{} takes no parameters", self.name)]);
        }
        let width = self.params.iter().map(|p| p.name.len()).max().unwrap_or(0);
        Ok(self
            .params
            .iter()
            .map(|p| {
                let default = p.default_text();
                let value = spec.param(p.name).unwrap_or(&default);
                format!(
                    "{:width$}  {value:<12} (default {default}; {})",
                    p.name,
                    p.range_text()
                )
            })
            .collect())
    }
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
    match info.family {
        None => crate::param::check_names(info.params, spec)?,
        // A family's numbers may also be set one by one (`capture.pawn=3`), as the
        // tuner sets them: the other keys must be declared.
        Some(f) => {
            let numbers = (f.param_names)();
            let named = PlayerSpec {
                name: spec.name.clone(),
                params: spec
                    .params
                    .iter()
                    .filter(|(k, _)| !numbers.contains(k))
                    .cloned()
                    .collect(),
            };
            crate::param::check_names(info.params, &named)?;
        }
    }
    (info.build)(spec)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A parametrized bot's family by name; another name is refused, listing them.
    #[test]
    fn families_by_name() {
        assert_eq!(
            family("PositionaryEvaluator").unwrap().name,
            "PositionaryEvaluator"
        );
        let e = family("RandomMove").err().expect("not parametrized");
        assert_eq!(
            e.0,
            "'RandomMove' is not a parametrized bot (parametrized: PositionaryEvaluator)"
        );
    }

    /// The settings of a spec: values set, defaults otherwise, names aligned.
    #[test]
    fn settings_lines_show_values_and_defaults() {
        let random = find("RandomMove").unwrap();
        let spec: PlayerSpec = "RandomMove".parse().unwrap();
        assert_eq!(
            random.settings_lines(&spec).unwrap(),
            ["RandomMove takes no parameters"]
        );
        let bot = BOTS
            .iter()
            .find(|b| b.params.len() > 1)
            .expect("a bot with parameters");
        let first = &bot.params[0];
        let spec: PlayerSpec = bot.name.parse().unwrap();
        let lines = bot.settings_lines(&spec).unwrap();
        assert_eq!(lines.len(), bot.params.len());
        let width = bot.params.iter().map(|p| p.name.len()).max().unwrap();
        let default = first.default_text();
        assert!(
            lines[0].starts_with(&format!(
                "{:width$}  {default:<12} (default {default}; ",
                first.name
            )),
            "{lines:?}"
        );
        let bad: PlayerSpec = format!("{}:nonsense=1", bot.name).parse().unwrap();
        assert!(bot.settings_lines(&bad).is_err());
    }
}
