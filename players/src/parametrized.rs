//! [`Parametrized`]: bots whose behaviour is a vector of numbers, and their parameter
//! files.
//!
//! A parameter file is JSON with the bot's name and its values by parameter name:
//!
//! ```json
//! {"bot": "PositionaryEvaluator", "values": {"capture.pawn": 1.5, "capture.knight": 3.1}}
//! ```
//!
//! A file may name only some parameters (the rest keep the bot's defaults), which lets
//! the output of `fow tune-material` (capture values only) load as it is. Unknown names are
//! an error. Load one with `Name:params=path/to/file.json`.

use std::collections::HashSet;
use std::path::Path;

use crate::player::Player;

/// A bot whose behaviour is a vector of numbers: it can be built from one, read back, and
/// each number has a name.
pub trait Parametrized: Player + Sized + 'static {
    /// The registered name.
    const NAME: &'static str;
    /// The name of each parameter, in vector order.
    fn param_names() -> Vec<String>;
    /// How many parameters there are (override when names are costly to build).
    fn param_count() -> usize {
        Self::param_names().len()
    }
    /// The default vector (what `Name` alone plays with).
    fn default_params() -> Vec<f64>;
    /// A bot playing with `params` (as long as [`Parametrized::param_names`]).
    fn from_params(params: &[f64]) -> Self;
    /// The vector this bot plays with.
    fn params(&self) -> &[f64];
}

/// A [`Parametrized`] type seen through function pointers, so that code working for any
/// parametrized bot (evolution, the registry) can hold one without generics.
#[derive(Clone, Copy)]
pub struct Family {
    /// The registered name.
    pub name: &'static str,
    /// See [`Parametrized::param_names`].
    pub param_names: fn() -> Vec<String>,
    /// See [`Parametrized::default_params`].
    pub default_params: fn() -> Vec<f64>,
    /// See [`Parametrized::param_count`].
    pub param_count: fn() -> usize,
    build: fn(&[f64]) -> Box<dyn Player>,
}

fn build_boxed<P: Parametrized>(params: &[f64]) -> Box<dyn Player> {
    Box::new(P::from_params(params))
}

impl Family {
    /// The family of `P`.
    pub const fn of<P: Parametrized>() -> Family {
        Family {
            name: P::NAME,
            param_names: P::param_names,
            default_params: P::default_params,
            param_count: P::param_count,
            build: build_boxed::<P>,
        }
    }

    /// A player with `params`, which must have one value per parameter.
    pub fn build(&self, params: &[f64]) -> Result<Box<dyn Player>, ParamError> {
        let n = (self.param_count)();
        if params.len() != n {
            return Err(ParamError(format!(
                "{} takes {n} parameters, not {}",
                self.name,
                params.len()
            )));
        }
        if let Some(i) = params.iter().position(|v| !v.is_finite()) {
            return Err(ParamError(format!(
                "{}: parameter {} is not a finite number",
                self.name,
                (self.param_names)()[i]
            )));
        }
        Ok((self.build)(params))
    }

    /// Reads a parameter file for this family: the defaults, overridden by every value
    /// the file names.
    pub fn load(&self, path: &Path) -> Result<Vec<f64>, ParamError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| ParamError(format!("{}: {e}", path.display())))?;
        self.parse(&text)
            .map_err(|e| ParamError(format!("{}: {}", path.display(), e.0)))
    }

    /// Reads a plain list of numbers from `path`: whitespace-separated, one per parameter
    /// in parameter order (as the thesis stores its PositionaryEvaluator parameters), each
    /// finite. Errors name the file, and the line of a word that is not a number.
    pub fn load_numbers(&self, path: &Path) -> Result<Vec<f64>, ParamError> {
        let file = path.display();
        let text = std::fs::read_to_string(path).map_err(|e| ParamError(format!("{file}: {e}")))?;
        let mut values = Vec::new();
        for (i, line) in text.lines().enumerate() {
            for word in line.split_whitespace() {
                let v = word.parse().ok().filter(|v: &f64| v.is_finite());
                let v = v.ok_or_else(|| {
                    ParamError(format!("{file}:{}: '{word}' is not a number", i + 1))
                })?;
                values.push(v);
            }
        }
        self.build(&values)
            .map_err(|e| ParamError(format!("{file}: {e}")))?;
        Ok(values)
    }

    /// [`Family::load`] from text.
    pub fn parse(&self, text: &str) -> Result<Vec<f64>, ParamError> {
        self.parse_over(text, (self.default_params)())
    }

    /// Parameter file text applied over `base` (every value it names replaces `base`'s).
    pub fn parse_over(&self, text: &str, base: Vec<f64>) -> Result<Vec<f64>, ParamError> {
        let json: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| ParamError(format!("line {}: not valid JSON: {e}", e.line())))?;
        let obj = json.as_object().ok_or_else(|| {
            ParamError("expected a JSON object {\"bot\": ..., \"values\": {...}}".into())
        })?;
        if let Some(bot) = obj.get("bot").and_then(|b| b.as_str()) {
            if bot != self.name {
                return Err(ParamError(format!(
                    "parameters for {bot}, not for {}",
                    self.name
                )));
            }
        }
        let values = obj
            .get("values")
            .and_then(|v| v.as_object())
            .ok_or_else(|| ParamError("no \"values\" object".into()))?;
        let names = (self.param_names)();
        let mut params = base;
        for (k, v) in values {
            let i = names
                .iter()
                .position(|n| n == k)
                .ok_or_else(|| ParamError(format!("{} has no parameter '{k}'", self.name)))?;
            params[i] = v
                .as_f64()
                .filter(|x| x.is_finite())
                .ok_or_else(|| ParamError(format!("'{k}' is not a number")))?;
        }
        Ok(params)
    }

    /// The parameter file text for `params` (every value, in parameter order).
    pub fn to_json(&self, params: &[f64]) -> String {
        let names = (self.param_names)();
        let mut out = String::new();
        out.push_str(&format!(
            "{{\n  \"bot\": {:?},\n  \"values\": {{\n",
            self.name
        ));
        for (i, (n, v)) in names.iter().zip(params).enumerate() {
            let sep = if i + 1 < names.len() { "," } else { "" };
            out.push_str(&format!(
                "    {}: {}{sep}\n",
                serde_json::to_string(n).expect("a string"),
                serde_json::to_string(v).expect("a finite number")
            ));
        }
        out.push_str("  }\n}\n");
        out
    }
}

/// Checks that parameter names are unique (a test helper for implementors).
pub fn names_are_unique(names: &[String]) -> bool {
    names.iter().collect::<HashSet<_>>().len() == names.len()
}

/// A parameter vector or file that does not fit its bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamError(pub String);

impl std::fmt::Display for ParamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParamError {}

#[cfg(test)]
mod tests {
    /// A plain list of numbers: read back in order; a word that is not a number and a
    /// wrong count are errors naming the file (and the line).
    #[test]
    fn numbers_load_in_parameter_order() {
        let family = crate::registry::family("PositionaryEvaluator").unwrap();
        let defaults = (family.default_params)();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.txt");
        let text: Vec<String> = defaults.iter().map(|v| v.to_string()).collect();
        std::fs::write(&path, text.join("\n")).unwrap();
        assert_eq!(family.load_numbers(&path).unwrap(), defaults);
        let file = path.display();
        std::fs::write(&path, "1 2\n3 x\n").unwrap();
        let e = family.load_numbers(&path).unwrap_err();
        assert_eq!(e.0, format!("{file}:2: 'x' is not a number"));
        std::fs::write(&path, "1 inf\n").unwrap();
        let e = family.load_numbers(&path).unwrap_err();
        assert_eq!(e.0, format!("{file}:1: 'inf' is not a number"));
        std::fs::write(&path, "1\n").unwrap();
        let e = family.load_numbers(&path).unwrap_err();
        let n = defaults.len();
        assert_eq!(
            e.0,
            format!("{file}: PositionaryEvaluator takes {n} parameters, not 1")
        );
    }
}
