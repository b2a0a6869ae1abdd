//! [`TuneSpace`]: a player and the parameters of it that the tuner moves.

use std::fmt;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::param::Kind;
use crate::player::Player;
use crate::spec::{PlayerSpec, SpecError};

/// fishtest's default `r_end`: the learning rate at the end of a run, as a share of
/// `c_end` squared (`a_end = r_end * c_end^2`).
pub const DEFAULT_R_END: f64 = 0.002;

/// One parameter the tuner moves.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneParam {
    /// Its name in tables and files (a UCI option's own name).
    pub name: String,
    /// The spec key that sets it (`mean`, `option.Hash`).
    pub key: String,
    /// Where tuning starts.
    pub start: f64,
    /// The smallest value tried.
    pub min: f64,
    /// The largest value tried.
    pub max: f64,
    /// Whole numbers only: a candidate's value is rounded (stochastically, per game pair,
    /// as fishtest's workers round).
    pub int: bool,
    /// SPSA's perturbation at the end of the run (fishtest's `c_end`).
    pub c_end: f64,
    /// SPSA's learning rate at the end of the run (fishtest's `r_end`).
    pub r_end: f64,
}

/// What a player says of one of its parameters: its type, current value and range (a
/// built-in bot's declaration, a program's `hello`, a UCI engine's `option` line).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Declared {
    /// Its value when not set.
    pub default: f64,
    /// The smallest value allowed.
    pub min: f64,
    /// The largest value allowed (infinite: no limit).
    pub max: f64,
    /// Whole numbers only.
    pub int: bool,
}

/// A tuning setup that cannot be used: where it is wrong and why.
#[derive(Clone, Debug, PartialEq)]
pub enum TuneError {
    /// The settings (an unknown parameter, a start outside its range, min above max...).
    Settings(String),
    /// A tune file's content, at a 1-based line.
    File {
        /// The file.
        path: PathBuf,
        /// The line.
        line: u64,
        /// What is wrong.
        message: String,
    },
    /// The player's spec.
    Spec(SpecError),
}

impl fmt::Display for TuneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TuneError::Settings(m) => f.write_str(m),
            TuneError::File {
                path,
                line,
                message,
            } => write!(f, "{}:{line}: {message}", path.display()),
            TuneError::Spec(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for TuneError {}

impl From<SpecError> for TuneError {
    fn from(e: SpecError) -> TuneError {
        TuneError::Spec(e)
    }
}

/// A player and the parameters of it that the tuner moves.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneSpace {
    /// The player's spec, every parameter not tuned fixed as it says.
    pub player: String,
    /// The tuned parameters, in table order.
    pub params: Vec<TuneParam>,
}

impl TuneSpace {
    /// The space of a built-in bot's declared parameters `names` (at least one), each
    /// starting where `player` sets it (else at its default), within its declared range;
    /// an open-ended range is tuned up to twice the start (at least the lower end plus
    /// one). Steps: `c_end` a twentieth of the range (at least 0.5 for whole numbers),
    /// `r_end` [`DEFAULT_R_END`].
    pub fn declared(player: &str, names: &[String]) -> Result<TuneSpace, TuneError> {
        let spec: PlayerSpec = player.parse()?;
        let Some(info) = crate::find(&spec.name).filter(|_| !is_program(&spec)) else {
            if !is_program(&spec) {
                // An unknown bot: the spec's own error names the known ones.
                spec.build()?;
            }
            return Err(TuneError::Settings(format!(
                "'{}' is a program: fow does not know its parameters, so give them in a --tune-file",
                spec.name
            )));
        };
        let tunable: Vec<&str> = info
            .params
            .iter()
            .filter(|p| declared_of(&p.kind).is_some())
            .map(|p| p.name)
            .collect();
        if names.is_empty() {
            return Err(TuneError::Settings(format!(
                "name the parameters of {} to tune with --params (its numeric ones: {})",
                spec.name,
                tunable.join(", ")
            )));
        }
        let mut params = Vec::new();
        for name in names {
            if let Some(d) = family_declared(&spec, name)? {
                params.push(TuneParam::with_defaults(
                    name, name, d.default, None, None, d,
                )?);
                continue;
            }
            let p = info.params.iter().find(|p| p.name == name).ok_or_else(|| {
                TuneError::Settings(format!(
                    "{} has no parameter '{name}' (its numeric ones: {})",
                    spec.name,
                    tunable.join(", ")
                ))
            })?;
            let d = declared_of(&p.kind).ok_or_else(|| {
                TuneError::Settings(format!(
                    "{}'s {name} is not a number ({}); numeric ones: {}",
                    spec.name,
                    p.range_text(),
                    tunable.join(", ")
                ))
            })?;
            let start = match spec.param(name) {
                Some(v) => v.parse::<f64>().map_err(|_| {
                    TuneError::Settings(format!(
                        "{player}: {name}={v} is not a number to start tuning from"
                    ))
                })?,
                None => d.default,
            };
            params.push(TuneParam::with_defaults(name, name, start, None, None, d)?);
        }
        let space = TuneSpace {
            player: spec.to_string(),
            params,
        };
        space.check()?;
        Ok(space)
    }

    /// The spec of the candidate with `values` (one per parameter, clamped to its range;
    /// whole numbers written without a fraction).
    pub fn spec(&self, values: &[f64]) -> PlayerSpec {
        let mut spec: PlayerSpec = self.player.parse().expect("a checked spec");
        for (p, &v) in self.params.iter().zip(values) {
            let text = p.value_text(v);
            match spec.params.iter_mut().find(|(k, _)| *k == p.key) {
                Some((_, old)) => *old = text,
                None => spec.params.push((p.key.clone(), text)),
            }
        }
        spec
    }

    /// The candidate with `values`, built.
    pub fn build(&self, values: &[f64]) -> Result<Box<dyn Player>, SpecError> {
        self.spec(values).build()
    }

    /// The start of every parameter.
    pub fn start(&self) -> Vec<f64> {
        self.params.iter().map(|p| p.start).collect()
    }

    /// Each value within its parameter's range.
    pub fn clamp(&self, values: &[f64]) -> Vec<f64> {
        self.params
            .iter()
            .zip(values)
            .map(|(p, &v)| v.clamp(p.min, p.max))
            .collect()
    }

    /// Checks the space: at least one parameter, names unique, each range and step sane
    /// and the start inside its range, and the start's spec builds.
    pub fn check(&self) -> Result<(), TuneError> {
        if self.params.is_empty() {
            return Err(TuneError::Settings("no parameters to tune".into()));
        }
        for (i, p) in self.params.iter().enumerate() {
            if self.params[..i].iter().any(|q| q.key == p.key) {
                return Err(TuneError::Settings(format!(
                    "parameter '{}' is given twice",
                    p.name
                )));
            }
            p.check()?;
        }
        self.build(&self.start())?;
        Ok(())
    }
}

impl TuneParam {
    /// A parameter starting at `start` within `declared`'s range, with the default steps
    /// unless `c_end` or `r_end` is given (see [`TuneSpace::declared`]).
    pub fn with_defaults(
        name: &str,
        key: &str,
        start: f64,
        c_end: Option<f64>,
        r_end: Option<f64>,
        declared: Declared,
    ) -> Result<TuneParam, TuneError> {
        let max = match declared.max.is_finite() {
            true => declared.max,
            false => (2.0 * start).max(declared.min + 1.0),
        };
        let width = max - declared.min;
        let p = TuneParam {
            name: name.into(),
            key: key.into(),
            start,
            min: declared.min,
            max,
            int: declared.int,
            c_end: c_end.unwrap_or(match declared.int {
                true => (width / 20.0).max(0.5),
                false => width / 20.0,
            }),
            r_end: r_end.unwrap_or(DEFAULT_R_END),
        };
        p.check()?;
        Ok(p)
    }

    /// The value as a spec writes it: whole numbers without a fraction, reals in the
    /// shortest form that reads back the same.
    pub fn value_text(&self, v: f64) -> String {
        let v = v.clamp(self.min, self.max);
        match self.int {
            true => format!("{}", v.round() as i64),
            false => format!("{v}"),
        }
    }

    fn check(&self) -> Result<(), TuneError> {
        let bad = |why: String| {
            Err(TuneError::Settings(format!(
                "parameter '{}': {why}",
                self.name
            )))
        };
        if !(self.min.is_finite() && self.max.is_finite()) {
            return bad("its range needs finite min and max".into());
        }
        if self.min > self.max {
            return bad(format!("min {} is above max {}", self.min, self.max));
        }
        if !(self.min..=self.max).contains(&self.start) {
            return bad(format!(
                "the start {} is outside its range {} to {}",
                self.start, self.min, self.max
            ));
        }
        if !(self.c_end.is_finite() && self.c_end > 0.0) {
            return bad(format!("c_end must be more than 0, not {}", self.c_end));
        }
        if !(self.r_end.is_finite() && self.r_end > 0.0) {
            return bad(format!("r_end must be more than 0, not {}", self.r_end));
        }
        Ok(())
    }
}

/// What the built-in bot of `player` declares of its parameter `name` (its type and
/// range, its value in `player` or else its default), when it is numeric.
pub fn builtin_declared(player: &PlayerSpec, name: &str) -> Option<Declared> {
    if let Ok(Some(d)) = family_declared(player, name) {
        return Some(d);
    }
    let info = crate::find(&player.name)?;
    let p = info.params.iter().find(|p| p.name == name)?;
    let mut d = declared_of(&p.kind)?;
    if let Some(v) = player.param(name).and_then(|v| v.parse::<f64>().ok()) {
        d.default = v;
    }
    Some(d)
}

/// The tuning range of a family's numbers (PositionaryEvaluator's 389), which declare
/// none: -10 to 10, widened to one past the start.
pub const FAMILY_RANGE: f64 = 10.0;

/// What a family bot says of its number `name` (its value in `player`: the `params` file
/// or the shipped values, then the spec's own `name=value`), or `None` when `name` is
/// not one of its numbers.
fn family_declared(player: &PlayerSpec, name: &str) -> Result<Option<Declared>, TuneError> {
    let Some(family) = crate::find(&player.name).and_then(|b| b.family) else {
        return Ok(None);
    };
    let Some(i) = (family.param_names)().iter().position(|n| n == name) else {
        return Ok(None);
    };
    let v = crate::registry::family_numbers(&family, player)?[i];
    Ok(Some(Declared {
        default: v,
        min: (-FAMILY_RANGE).min(v - 1.0),
        max: FAMILY_RANGE.max(v + 1.0),
        int: false,
    }))
}

/// Whether `spec` runs a program (`exec:`, `uci:`), whose parameters fow does not know.
fn is_program(spec: &PlayerSpec) -> bool {
    spec.name == "exec" || spec.name == "uci"
}

/// A declared parameter's type and range, for the numeric kinds.
fn declared_of(kind: &Kind) -> Option<Declared> {
    match *kind {
        Kind::Int { default, min, max } => Some(Declared {
            default: default as f64,
            min: min as f64,
            max: if max == i64::MAX {
                f64::INFINITY
            } else {
                max as f64
            },
            int: true,
        }),
        Kind::Real {
            default,
            min,
            max,
            open,
        } => Some(Declared {
            default,
            // An open lower end: the smallest value tried is just inside it.
            min: if open {
                min + (1e-3f64).max(min.abs() * 1e-3)
            } else {
                min
            },
            max,
            int: false,
        }),
        Kind::RealOrOff { default, min, max } => Some(Declared {
            default: default.unwrap_or(min),
            min,
            max,
            int: false,
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_parameters_give_their_range_and_steps() {
        let names = ["mean".to_string(), "sample".to_string(), "king".to_string()];
        let s = TuneSpace::declared("BeliefSearch:sample=20", &names).unwrap();
        let [mean, sample, king] = &s.params[..] else {
            panic!("{s:?}")
        };
        assert_eq!(
            (mean.start, mean.min, mean.max, mean.int),
            (0.5, 0.0, 1.0, false)
        );
        assert!((mean.c_end - 0.05).abs() < 1e-12);
        assert_eq!(
            (sample.start, sample.min, sample.max, sample.int),
            (20.0, 1.0, 40.0, true)
        );
        assert_eq!((king.start, king.max), (40.0, 80.0));
        assert!(king.min > 0.0 && king.min < 0.01);
        assert_eq!(
            s.spec(&[0.25, 13.4, 50.0]).to_string(),
            "BeliefSearch:sample=13,mean=0.25,king=50"
        );
        assert_eq!(
            s.spec(&[2.0, 0.0, 50.0]).to_string(),
            "BeliefSearch:sample=1,mean=1,king=50"
        );
    }

    #[test]
    fn bad_setups_say_what_is_wrong() {
        let err = |player: &str, names: &[&str]| {
            let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
            TuneSpace::declared(player, &names).unwrap_err().to_string()
        };
        assert!(
            err("Planted", &["z"]).contains("no parameter 'z' (its numeric ones: x, y, px, py)")
        );
        assert!(err("Planted", &[]).contains("--params"));
        assert!(err("BeliefSearch", &["eval"]).contains("is not a number"));
        assert!(err("exec:cmd=x", &["a"]).contains("--tune-file"));
        assert!(err("NoSuchBot", &["a"]).contains("unknown bot"));
        assert!(err("Planted:x=zero", &["x"]).contains("not a number to start"));
        let p = TuneParam::with_defaults(
            "a",
            "a",
            5.0,
            None,
            None,
            Declared {
                default: 0.0,
                min: 0.0,
                max: 1.0,
                int: false,
            },
        );
        assert!(p.unwrap_err().to_string().contains("outside its range"));
        let p = TuneParam::with_defaults(
            "a",
            "a",
            0.5,
            Some(0.0),
            None,
            Declared {
                default: 0.0,
                min: 0.0,
                max: 1.0,
                int: false,
            },
        );
        assert!(p.unwrap_err().to_string().contains("c_end"));
    }
}

#[cfg(test)]
mod family_tests {
    use super::*;

    #[test]
    fn a_familys_numbers_are_tuned_by_name_and_set_in_the_spec() {
        let names = ["capture.pawn".to_string(), "knight.e4".to_string()];
        let s = TuneSpace::declared("PositionaryEvaluator:capture.pawn=2", &names).unwrap();
        assert_eq!(s.params[0].start, 2.0);
        assert_eq!((s.params[0].min, s.params[0].max), (-10.0, 10.0));
        let spec = s.spec(&[3.5, -1.25]);
        assert_eq!(
            spec.to_string(),
            "PositionaryEvaluator:capture.pawn=3.5,knight.e4=-1.25"
        );
        let family = crate::family("PositionaryEvaluator").unwrap();
        let numbers = crate::family_numbers(&family, &spec).unwrap();
        let names = (family.param_names)();
        let at = |n: &str| numbers[names.iter().position(|x| x == n).unwrap()];
        assert_eq!((at("capture.pawn"), at("knight.e4")), (3.5, -1.25));
        assert!(spec.build().is_ok());
        let bad: PlayerSpec = "PositionaryEvaluator:capture.pawn=x".parse().unwrap();
        assert!(bad
            .build()
            .err()
            .unwrap()
            .to_string()
            .contains("finite number"));
    }
}
