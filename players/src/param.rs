//! Typed parameters: what a bot declares beside its code, once, and what every reader
//! of parameters uses — `fow players`, spec parsing and its error messages, the bot's
//! own `Default` settings.
//!
//! A [`Param`] has a name (the key in `Name:key=value`), a [`Kind`] holding its type,
//! its default and its range, and a one-line doc. A bot lists its parameters in a
//! `PARAMS` slice in its own file and builds its settings from a spec through the typed
//! getters ([`Param::read_int`], [`Param::read_real`], ...), which give the default when
//! the key is absent, check the range and say what is wrong. Its `Default` settings are
//! those of a spec that sets nothing, so that no default is written twice.
//!
//! ```
//! use fow_players::param::Param;
//! use fow_players::PlayerSpec;
//! const DEPTH: Param = Param::int("depth", 2, 1, 32, "search depth in plies");
//! let spec: PlayerSpec = "SimpleStockfish:depth=4".parse().unwrap();
//! assert_eq!(DEPTH.read_int(&spec).unwrap(), 4);
//! assert_eq!(DEPTH.read_int(&"SimpleStockfish".parse().unwrap()).unwrap(), 2);
//! let e = DEPTH.read_int(&"SimpleStockfish:depth=40".parse().unwrap()).unwrap_err();
//! assert_eq!(e.to_string(), "SimpleStockfish: depth must be 1 to 32, not 40");
//! assert_eq!(DEPTH.default_text(), "2");
//! assert_eq!(DEPTH.range_text(), "integer, 1 to 32");
//! ```

use crate::spec::{PlayerSpec, SpecError};

/// A parameter's type, default and range.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// A whole number from `min` to `max`.
    Int {
        /// The value when the key is absent.
        default: i64,
        /// The smallest value allowed.
        min: i64,
        /// The largest value allowed ([`i64::MAX`]: no limit).
        max: i64,
    },
    /// A finite real number from `min` to `max` (`open`: more than `min`).
    Real {
        /// The value when the key is absent.
        default: f64,
        /// The smallest value allowed (or the bound it must exceed, when `open`).
        min: f64,
        /// The largest value allowed (infinite: no limit).
        max: f64,
        /// Whether `min` itself is excluded.
        open: bool,
    },
    /// A real number as [`Kind::Real`] (closed range), or `off`.
    RealOrOff {
        /// The value when the key is absent (`None`: off).
        default: Option<f64>,
        /// The smallest value allowed.
        min: f64,
        /// The largest value allowed (infinite: no limit).
        max: f64,
    },
    /// One of named values.
    Choice {
        /// The value when the key is absent (one of `choices`).
        default: &'static str,
        /// The names allowed.
        choices: &'static [&'static str],
    },
    /// `on` or `off`.
    Flag {
        /// The value when the key is absent.
        default: bool,
    },
    /// Free text (a file, a command line), read by the bot itself.
    Text {
        /// What the key's absence means, as shown by `fow players`.
        default: &'static str,
    },
}

/// One parameter a bot accepts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Param {
    /// The key in `Name:key=value`.
    pub name: &'static str,
    /// Its type, default and range.
    pub kind: Kind,
    /// What it does, in one line.
    pub doc: &'static str,
}

impl Param {
    /// A whole number from `min` to `max` ([`i64::MAX`] for no limit).
    pub const fn int(
        name: &'static str,
        default: i64,
        min: i64,
        max: i64,
        doc: &'static str,
    ) -> Param {
        Param {
            name,
            kind: Kind::Int { default, min, max },
            doc,
        }
    }

    /// A finite real number from `min` to `max` ([`f64::INFINITY`] for no limit).
    pub const fn real(
        name: &'static str,
        default: f64,
        min: f64,
        max: f64,
        doc: &'static str,
    ) -> Param {
        Param::real_in(name, default, min, max, false, doc)
    }

    /// A finite real number more than `min`.
    pub const fn positive_real(
        name: &'static str,
        default: f64,
        min: f64,
        doc: &'static str,
    ) -> Param {
        Param::real_in(name, default, min, f64::INFINITY, true, doc)
    }

    const fn real_in(
        name: &'static str,
        default: f64,
        min: f64,
        max: f64,
        open: bool,
        doc: &'static str,
    ) -> Param {
        Param {
            name,
            kind: Kind::Real {
                default,
                min,
                max,
                open,
            },
            doc,
        }
    }

    /// A real number from `min` to `max`, or `off`.
    pub const fn real_or_off(
        name: &'static str,
        default: Option<f64>,
        min: f64,
        max: f64,
        doc: &'static str,
    ) -> Param {
        Param {
            name,
            kind: Kind::RealOrOff { default, min, max },
            doc,
        }
    }

    /// One of `choices`.
    pub const fn choice(
        name: &'static str,
        default: &'static str,
        choices: &'static [&'static str],
        doc: &'static str,
    ) -> Param {
        Param {
            name,
            kind: Kind::Choice { default, choices },
            doc,
        }
    }

    /// `on` or `off`.
    pub const fn flag(name: &'static str, default: bool, doc: &'static str) -> Param {
        Param {
            name,
            kind: Kind::Flag { default },
            doc,
        }
    }

    /// Free text; `default` says what its absence means.
    pub const fn text(name: &'static str, default: &'static str, doc: &'static str) -> Param {
        Param {
            name,
            kind: Kind::Text { default },
            doc,
        }
    }

    /// The default as a spec would write it (`fow players` shows it).
    pub fn default_text(&self) -> String {
        match self.kind {
            Kind::Int { default, .. } => default.to_string(),
            Kind::Real { default, .. } => default.to_string(),
            Kind::RealOrOff { default, .. } => default.map_or("off".into(), |d| d.to_string()),
            Kind::Choice { default, .. } | Kind::Text { default } => default.to_string(),
            Kind::Flag { default } => on_off(default).to_string(),
        }
    }

    /// The type and range in words (`integer, 1 to 32`, `one of thesis, tapered`).
    pub fn range_text(&self) -> String {
        match self.kind {
            Kind::Int { min, max, .. } if max == i64::MAX => format!("integer, {min} or more"),
            Kind::Int { min, max, .. } => format!("integer, {min} to {max}"),
            Kind::Real { min, max, open, .. } => format!("number, {}", real_range(min, max, open)),
            Kind::RealOrOff { min, max, .. } => {
                format!("off or a number, {}", real_range(min, max, false))
            }
            Kind::Choice { choices, .. } => format!("one of {}", choices.join(", ")),
            Kind::Flag { .. } => "on or off".into(),
            Kind::Text { .. } => "text".into(),
        }
    }

    fn bad(&self, spec: &PlayerSpec, message: String) -> SpecError {
        SpecError::BadParam {
            bot: spec.name.clone(),
            message,
        }
    }

    /// The value of an integer parameter in `spec` (its default when absent), checked
    /// against its range.
    pub fn read_int(&self, spec: &PlayerSpec) -> Result<i64, SpecError> {
        let Kind::Int { default, min, max } = self.kind else {
            panic!("{} is not an integer parameter", self.name)
        };
        let v: i64 = spec.parsed(self.name, default)?;
        if v < min || v > max {
            let range = match max {
                i64::MAX => format!("at least {min}"),
                _ => format!("{min} to {max}"),
            };
            return Err(self.bad(spec, format!("{} must be {range}, not {v}", self.name)));
        }
        Ok(v)
    }

    /// [`Param::read_int`] as a count (`usize`).
    pub fn read_count(&self, spec: &PlayerSpec) -> Result<usize, SpecError> {
        let v = self.read_int(spec)?;
        usize::try_from(v).map_err(|_| self.bad(spec, format!("{} is too large", self.name)))
    }

    /// The value of a real parameter in `spec` (its default when absent), checked
    /// against its range.
    pub fn read_real(&self, spec: &PlayerSpec) -> Result<f64, SpecError> {
        let Kind::Real {
            default,
            min,
            max,
            open,
        } = self.kind
        else {
            panic!("{} is not a real parameter", self.name)
        };
        let v: f64 = spec.parsed(self.name, default)?;
        self.check_real(spec, v, min, max, open)
    }

    fn check_real(
        &self,
        spec: &PlayerSpec,
        v: f64,
        min: f64,
        max: f64,
        open: bool,
    ) -> Result<f64, SpecError> {
        let below = if open { v <= min } else { v < min };
        if !v.is_finite() || below || v > max {
            return Err(self.bad(
                spec,
                format!(
                    "{} must be {}, not {v}",
                    self.name,
                    real_range(min, max, open)
                ),
            ));
        }
        Ok(v)
    }

    /// The value of a real-or-off parameter in `spec` (`None`: off).
    pub fn read_real_or_off(&self, spec: &PlayerSpec) -> Result<Option<f64>, SpecError> {
        let Kind::RealOrOff { default, min, max } = self.kind else {
            panic!("{} is not a real-or-off parameter", self.name)
        };
        match spec.param(self.name) {
            None => Ok(default),
            Some("off") => Ok(None),
            Some(_) => {
                let v: f64 = spec.parsed(self.name, 0.0)?;
                self.check_real(spec, v, min, max, false)
                    .map(Some)
                    .map_err(|_| {
                        self.bad(
                            spec,
                            format!(
                                "{} must be off or a number, {}, not {v}",
                                self.name,
                                real_range(min, max, false)
                            ),
                        )
                    })
            }
        }
    }

    /// The value of a choice parameter in `spec` (its default when absent), mapped
    /// through `values` (one per choice, in the declared order).
    pub fn read_choice<T: Copy>(&self, spec: &PlayerSpec, values: &[T]) -> Result<T, SpecError> {
        let Kind::Choice { default, choices } = self.kind else {
            panic!("{} is not a choice parameter", self.name)
        };
        assert_eq!(
            choices.len(),
            values.len(),
            "{}: one value per choice",
            self.name
        );
        let given = spec.param(self.name).unwrap_or(default);
        match choices.iter().position(|c| *c == given) {
            Some(i) => Ok(values[i]),
            None => Err(self.bad(
                spec,
                format!(
                    "{} must be one of {}, not {given}",
                    self.name,
                    choices.join(", ")
                ),
            )),
        }
    }

    /// The value of a flag in `spec` (its default when absent).
    pub fn read_flag(&self, spec: &PlayerSpec) -> Result<bool, SpecError> {
        let Kind::Flag { default } = self.kind else {
            panic!("{} is not a flag", self.name)
        };
        match spec.param(self.name) {
            None => Ok(default),
            Some("on") => Ok(true),
            Some("off") => Ok(false),
            Some(other) => Err(self.bad(
                spec,
                format!("{} must be one of off, on, not {other}", self.name),
            )),
        }
    }
}

/// A real range in words: `more than 0`, `0 to 1`, `0 or more`.
fn real_range(min: f64, max: f64, open: bool) -> String {
    match (open, max.is_finite()) {
        (true, _) => format!("more than {min}"),
        (false, true) => format!("{min} to {max}"),
        (false, false) => format!("{min} or more"),
    }
}

fn on_off(b: bool) -> &'static str {
    if b {
        "on"
    } else {
        "off"
    }
}

/// The declaration named `name` in `params`.
pub fn find<'a>(params: &'a [Param], name: &str) -> Option<&'a Param> {
    params.iter().find(|p| p.name == name)
}

/// Checks that every key of `spec` is declared in `params`: the error names the first
/// key that is not, with the known ones (as for every built-in bot, so that a bot of
/// one's own, built from a spec outside the registry, refuses a misspelt key alike).
///
/// ```
/// use fow_players::param::{check_names, Param};
/// const PARAMS: &[Param] = &[Param::real("greed", 1.0, 0.0, 1.0, "")];
/// assert!(check_names(PARAMS, &"Mine:greed=0.5".parse().unwrap()).is_ok());
/// let e = check_names(PARAMS, &"Mine:gred=0.5".parse().unwrap()).unwrap_err();
/// assert_eq!(e.to_string(), "Mine: unknown parameter 'gred' (known: greed)");
/// ```
pub fn check_names(params: &[Param], spec: &PlayerSpec) -> Result<(), SpecError> {
    for (k, _) in &spec.params {
        if find(params, k).is_none() {
            let known: Vec<&str> = params.iter().map(|p| p.name).collect();
            return Err(SpecError::BadParam {
                bot: spec.name.clone(),
                message: if known.is_empty() {
                    format!("unknown parameter '{k}' (this bot takes none)")
                } else {
                    format!("unknown parameter '{k}' (known: {})", known.join(", "))
                },
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(text: &str) -> PlayerSpec {
        text.parse().unwrap()
    }

    #[test]
    fn each_kind_reads_its_default_its_values_and_refuses_the_rest() {
        let mean = Param::real("mean", 0.5, 0.0, 1.0, "");
        assert_eq!(mean.read_real(&spec("B")).unwrap(), 0.5);
        assert_eq!(mean.read_real(&spec("B:mean=1")).unwrap(), 1.0);
        for bad in ["B:mean=1.5", "B:mean=-0.1", "B:mean=NaN", "B:mean=inf"] {
            let e = mean.read_real(&spec(bad)).unwrap_err().to_string();
            assert!(e.contains("mean must be 0 to 1"), "{e}");
        }
        let king = Param::positive_real("king", 40.0, 0.0, "");
        assert!(king.read_real(&spec("B:king=0")).is_err());
        assert_eq!(king.read_real(&spec("B:king=0.5")).unwrap(), 0.5);
        let model = Param::real_or_off("model", Some(2.0), 0.0, f64::INFINITY, "");
        assert_eq!(model.read_real_or_off(&spec("B")).unwrap(), Some(2.0));
        assert_eq!(model.read_real_or_off(&spec("B:model=off")).unwrap(), None);
        assert_eq!(
            model.read_real_or_off(&spec("B:model=0")).unwrap(),
            Some(0.0)
        );
        let e = model
            .read_real_or_off(&spec("B:model=-1"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("model must be off or a number, 0 or more, not -1"),
            "{e}"
        );
        let eval = Param::choice("eval", "tapered", &["thesis", "tapered"], "");
        assert_eq!(eval.read_choice(&spec("B"), &[1, 2]).unwrap(), 2);
        assert_eq!(
            eval.read_choice(&spec("B:eval=thesis"), &[1, 2]).unwrap(),
            1
        );
        let e = eval
            .read_choice(&spec("B:eval=x"), &[1, 2])
            .unwrap_err()
            .to_string();
        assert!(
            e.ends_with("eval must be one of thesis, tapered, not x"),
            "{e}"
        );
        let deepen = Param::flag("deepen", false, "");
        assert!(deepen.read_flag(&spec("B:deepen=on")).unwrap());
        assert!(deepen.read_flag(&spec("B:deepen=yes")).is_err());
        let cap = Param::int("cap", 20_000, 1, i64::MAX, "");
        assert_eq!(cap.read_count(&spec("B")).unwrap(), 20_000);
        let e = cap.read_count(&spec("B:cap=0")).unwrap_err().to_string();
        assert!(e.ends_with("cap must be at least 1, not 0"), "{e}");
        assert!(cap.read_count(&spec("B:cap=many")).is_err());
    }

    #[test]
    fn defaults_and_ranges_are_written_as_a_spec_would_write_them() {
        assert_eq!(
            Param::real("k", 40.0, 0.0, f64::INFINITY, "").default_text(),
            "40"
        );
        assert_eq!(Param::real("k", 0.5, 0.0, 1.0, "").default_text(), "0.5");
        assert_eq!(
            Param::real_or_off("m", None, 0.0, 1.0, "").default_text(),
            "off"
        );
        assert_eq!(Param::flag("d", true, "").default_text(), "on");
        assert_eq!(
            Param::int("c", 1, 1, i64::MAX, "").range_text(),
            "integer, 1 or more"
        );
        assert_eq!(
            Param::positive_real("k", 1.0, 0.0, "").range_text(),
            "number, more than 0"
        );
    }
}
