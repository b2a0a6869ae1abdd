//! Tune files: the parameters of a player to tune, written by hand (TOML, or JSON with
//! the same fields), for program players and UCI engines whose parameters fow does not
//! declare, or to override a built-in bot's ranges and steps.
//!
//! ```toml
//! # The player, unless the command line names it.
//! player = "exec:cmd=python3 examples/tunable_bot.py"
//!
//! [[param]]
//! name = "greedy"   # its key in the spec (a UCI engine: the option's name)
//! start = 0.5       # else the value the player declares, else min
//! min = 0.0         # min and max: else the player's declared range
//! max = 1.0
//! int = false       # whole numbers only (else as declared; default false)
//! c_end = 0.05      # SPSA steps (default: a twentieth of the range, and 0.002)
//! r_end = 0.002
//! ```

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::space::{Declared, TuneError, TuneParam, TuneSpace};
use crate::spec::PlayerSpec;

/// One `[[param]]` of a tune file.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParamEntry {
    /// The parameter's name (its spec key; a UCI engine's option name).
    pub name: String,
    /// Where tuning starts.
    pub start: Option<f64>,
    /// The smallest value tried.
    pub min: Option<f64>,
    /// The largest value tried.
    pub max: Option<f64>,
    /// Whole numbers only.
    pub int: Option<bool>,
    /// SPSA's `c_end`.
    pub c_end: Option<f64>,
    /// SPSA's `r_end`.
    pub r_end: Option<f64>,
}

/// A tune file as read.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneFile {
    /// Where it was read from.
    pub path: PathBuf,
    /// The player it names, if it names one.
    pub player: Option<String>,
    /// Its parameters, each with the line of its name.
    pub params: Vec<(ParamEntry, u64)>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    player: Option<String>,
    #[serde(default)]
    param: Vec<ParamEntry>,
}

/// Reads the tune file at `path`: JSON when its name ends in `.json`, TOML otherwise.
/// A syntax error, an unknown field or a value of the wrong type is an error naming the
/// file and line.
pub fn read_tune_file(path: &Path) -> Result<TuneFile, TuneError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| TuneError::Settings(format!("{}: {e}", path.display())))?;
    let at = |line: u64, message: String| TuneError::File {
        path: path.to_path_buf(),
        line: line.max(1),
        message,
    };
    let raw: Raw = if path.extension().is_some_and(|e| e == "json") {
        serde_json::from_str(&text).map_err(|e| at(e.line() as u64, e.to_string()))?
    } else {
        toml::from_str(&text).map_err(|e| {
            let line = e.span().map_or(1, |s| {
                text[..s.start.min(text.len())].matches('\n').count() + 1
            });
            at(line as u64, e.message().to_string())
        })?
    };
    let line_of = |name: &str| {
        let quoted = format!("\"{name}\"");
        text.lines()
            .position(|l| l.contains("name") && l.contains(&quoted))
            .map_or(1, |i| i as u64 + 1)
    };
    Ok(TuneFile {
        path: path.to_path_buf(),
        player: raw.player,
        params: raw
            .param
            .into_iter()
            .map(|p| {
                let line = line_of(&p.name);
                (p, line)
            })
            .collect(),
    })
}

impl TuneFile {
    /// The space of this file's parameters for `player` (the command line's, else the
    /// file's). `declared` says what the player declares of a parameter (a built-in bot's
    /// declaration, a program's `hello`, a UCI engine's spin option), to fill in what the
    /// file leaves out; a parameter neither gives a range for is an error at its line. A
    /// UCI engine's parameter is set with the spec key `option.NAME`.
    pub fn space(
        &self,
        player: Option<&str>,
        declared: impl Fn(&str) -> Option<Declared>,
    ) -> Result<TuneSpace, TuneError> {
        let player = player
            .or(self.player.as_deref())
            .ok_or_else(|| TuneError::File {
                path: self.path.clone(),
                line: 1,
                message: "names no player (player = \"SPEC\"), and none is given".into(),
            })?;
        let spec: PlayerSpec = player.parse()?;
        let uci = spec.name == "uci";
        if self.params.is_empty() {
            return Err(TuneError::File {
                path: self.path.clone(),
                line: 1,
                message: "has no [[param]] to tune".into(),
            });
        }
        let mut params = Vec::new();
        for (e, line) in &self.params {
            let at = |message: String| TuneError::File {
                path: self.path.clone(),
                line: *line,
                message: format!("parameter '{}': {message}", e.name),
            };
            let d = declared(&e.name);
            let (Some(min), Some(max)) = (e.min.or(d.map(|d| d.min)), e.max.or(d.map(|d| d.max)))
            else {
                return Err(at(format!(
                    "give its min and max ({} declares no range for it)",
                    spec.name
                )));
            };
            let key = match uci {
                // A spec key holds no space: `Skill Level` is `option.Skill_Level`.
                true => format!("option.{}", e.name.replace(' ', "_")),
                false => e.name.clone(),
            };
            // The start: the file's, else the value the spec sets, else the declared one.
            let set = spec.param(&key).and_then(|v| v.parse::<f64>().ok());
            let decl = Declared {
                default: e.start.or(set).or(d.map(|d| d.default)).unwrap_or(min),
                min,
                max,
                int: e.int.or(d.map(|d| d.int)).unwrap_or(false),
            };
            let p = TuneParam::with_defaults(&e.name, &key, decl.default, e.c_end, e.r_end, decl)
                .map_err(|err| match err {
                TuneError::Settings(m) => at(m
                    .strip_prefix(&format!("parameter '{}': ", e.name))
                    .unwrap_or(&m)
                    .to_string()),
                other => other,
            })?;
            params.push(p);
        }
        let space = TuneSpace {
            player: spec.to_string(),
            params,
        };
        space.check()?;
        Ok(space)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, text: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        (dir, path)
    }

    #[test]
    fn toml_and_json_read_alike_and_fill_in_what_the_player_declares() {
        let toml = "player = \"Planted:px=0.2\"\n\n[[param]]\nname = \"x\"\nstart = 0.9\nc_end = 0.1\n\n[[param]]\nname = \"y\"\nmin = 0.1\nmax = 0.6\n";
        let (_d, path) = file("t.toml", toml);
        let f = read_tune_file(&path).unwrap();
        assert_eq!(f.params[1].1, 9, "the line of y's name");
        let decl = |name: &str| {
            (name == "x" || name == "y").then_some(Declared {
                default: 0.5,
                min: 0.0,
                max: 1.0,
                int: false,
            })
        };
        let s = f.space(None, decl).unwrap();
        assert_eq!(s.player, "Planted:px=0.2");
        assert_eq!((s.params[0].start, s.params[0].c_end), (0.9, 0.1));
        assert_eq!(
            (s.params[1].start, s.params[1].min, s.params[1].max),
            (0.5, 0.1, 0.6)
        );
        let json = r#"{"player": "Planted:px=0.2", "param": [{"name": "x", "start": 0.9, "c_end": 0.1}, {"name": "y", "min": 0.1, "max": 0.6}]}"#;
        let (_e, jpath) = file("t.json", json);
        assert_eq!(
            read_tune_file(&jpath).unwrap().space(None, decl).unwrap(),
            s
        );
    }

    #[test]
    fn mistakes_name_the_file_and_line() {
        let (_d, path) = file(
            "t.toml",
            "player = \"Planted\"\n[[param]]\nname = \"x\"\nstart = oops\n",
        );
        let e = read_tune_file(&path).unwrap_err().to_string();
        assert!(e.contains("t.toml:4:"), "{e}");
        let (_d, path) = file("t.toml", "[[param]]\nname = \"x\"\nsteps = 3\n");
        let e = read_tune_file(&path).unwrap_err().to_string();
        assert!(e.contains("t.toml:3:") && e.contains("steps"), "{e}");
        let (_d, path) = file(
            "t.toml",
            "[[param]]\nname = \"x\"\n\n[[param]]\nname = \"w\"\nmin = 2\nmax = 1\n",
        );
        let f = read_tune_file(&path).unwrap();
        let none = |_: &str| None;
        let e = f
            .space(Some("exec:cmd=true"), none)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("t.toml:2: parameter 'x': give its min and max"),
            "{e}"
        );
        let e = f
            .space(Some("exec:cmd=true"), |n: &str| {
                (n == "x").then_some(Declared {
                    default: 0.0,
                    min: 0.0,
                    max: 1.0,
                    int: false,
                })
            })
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("t.toml:5: parameter 'w': min 2 is above max 1"),
            "{e}"
        );
        let (_d, path) = file("t.json", "{\"param\": [\n {\"name\": 3}]}");
        assert!(read_tune_file(&path)
            .unwrap_err()
            .to_string()
            .contains("t.json:2:"));
    }

    #[test]
    fn a_uci_option_is_set_through_option_keys() {
        let (_d, path) = file(
            "t.toml",
            "[[param]]\nname = \"Skill Level\"\nmin = 0\nmax = 20\nint = true\n",
        );
        let f = read_tune_file(&path).unwrap();
        // `true` stands for an engine: the spec is built, not started.
        let s = f.space(Some("uci:cmd=true"), |_| None).unwrap();
        let p = &s.params[0];
        assert_eq!(
            (p.name.as_str(), p.key.as_str()),
            ("Skill Level", "option.Skill_Level")
        );
        assert_eq!((p.start, p.int), (0.0, true));
        assert_eq!(
            s.spec(&[7.4]).to_string(),
            "uci:cmd=true,option.Skill_Level=7"
        );
    }
}
