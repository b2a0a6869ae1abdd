//! Time controls: `--tc 10+0.1`, seconds plus an increment per move (Fischer), a clock per
//! side. Games under a clock depend on the machine's speed, so they are not
//! deterministic; node budgets stay the deterministic default.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// A Fischer time control: each side starts with `base` and gets `increment` after each
/// move it makes in time; a side whose clock runs out loses (`time forfeit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct TimeControl {
    /// Each side's time at the start.
    pub base: Duration,
    /// Time added after each move.
    pub increment: Duration,
}

/// The longest base or increment accepted (a day), so that sums cannot overflow.
const MOST: f64 = 86_400.0;

impl FromStr for TimeControl {
    type Err = String;

    /// Reads `BASE[+INCREMENT]`, both in seconds (`10+0.1`, `60`, `0.5+0.05`).
    fn from_str(text: &str) -> Result<TimeControl, String> {
        let bad = |why: &str| format!("time control '{}': {why}", fow_variants::quote(text));
        let (base, inc) = match text.split_once('+') {
            Some((b, i)) => (b, i),
            None => (text, "0"),
        };
        let secs = |t: &str, what: &str| -> Result<Duration, String> {
            let v: f64 = t
                .trim()
                .parse()
                .map_err(|_| bad(&format!("the {what} is not a number of seconds")))?;
            if !v.is_finite() || !(0.0..=MOST).contains(&v) {
                return Err(bad(&format!("the {what} must be 0 to {MOST} seconds")));
            }
            Ok(Duration::from_secs_f64(v))
        };
        let tc = TimeControl {
            base: secs(base, "base time")?,
            increment: secs(inc, "increment")?,
        };
        if tc.base.is_zero() {
            return Err(bad("the base time must be more than 0 seconds"));
        }
        Ok(tc)
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}+{}",
            self.base.as_secs_f64(),
            self.increment.as_secs_f64()
        )
    }
}

impl TryFrom<String> for TimeControl {
    type Error = String;
    fn try_from(s: String) -> Result<TimeControl, String> {
        s.parse()
    }
}

impl From<TimeControl> for String {
    fn from(tc: TimeControl) -> String {
        tc.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_base_plus_increment() {
        let tc: TimeControl = "10+0.1".parse().unwrap();
        assert_eq!(tc.base, Duration::from_secs(10));
        assert_eq!(tc.increment, Duration::from_millis(100));
        assert_eq!(tc.to_string(), "10+0.1");
        assert_eq!(
            "60".parse::<TimeControl>().unwrap().increment,
            Duration::ZERO
        );
        for bad in ["", "x+1", "10+y", "-1+0", "0+1", "1e9", "nan", "10+0.1+2"] {
            let e = bad.parse::<TimeControl>().unwrap_err();
            assert!(e.starts_with("time control '"), "{bad}: {e}");
        }
        let json = serde_json::to_string(&tc).unwrap();
        assert_eq!(json, "\"10+0.1\"");
        assert_eq!(serde_json::from_str::<TimeControl>(&json).unwrap(), tc);
    }
}
