//! [`Thinking`]: how long a search bot may think (depth, node budget, time limit), shared
//! by the bots built on MyStockfish.

use std::time::{Duration, Instant};

use crate::player::Budget;
use crate::search::Limits;
use crate::spec::{PlayerSpec, SpecError};

/// A search bot's thinking settings, read from its spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thinking {
    /// Search depth in plies.
    pub depth: i32,
    /// Nodes per move (`None`: no limit). Deterministic.
    pub nodes: Option<u64>,
    /// Wall time per move (`None`: no limit). Not deterministic: the search stops where
    /// the clock says and the bot plays the best move found so far.
    pub time: Option<Duration>,
}

impl Thinking {
    /// Reads `depth`, `nodes` and `time` (milliseconds) from `spec`; `nodes=0` or
    /// `time=0` mean no limit.
    pub fn from_spec(
        spec: &PlayerSpec,
        depth: i32,
        nodes: Option<u64>,
    ) -> Result<Thinking, SpecError> {
        let depth: i32 = spec.parsed("depth", depth)?;
        if !(1..=32).contains(&depth) {
            return Err(SpecError::BadParam {
                bot: spec.name.clone(),
                message: format!("depth must be 1 to 32, not {depth}"),
            });
        }
        let nodes: u64 = spec.parsed("nodes", nodes.unwrap_or(0))?;
        let time: u64 = spec.parsed("time", 0)?;
        Ok(Thinking {
            depth,
            nodes: (nodes > 0).then_some(nodes),
            time: (time > 0).then(|| Duration::from_millis(time)),
        })
    }

    /// The limits for one move that starts at `started`: the tighter of these settings
    /// and the arena's `budget`. Under a clock the bot searches for the clock's
    /// [allocation](crate::TimeLeft::allocation) (or its own `time=` if shorter) with no
    /// node limit: the clock, not a node count, decides.
    pub fn limits(&self, budget: &Budget, started: Instant) -> Limits {
        if let Some(clock) = budget.clock {
            let time = match self.time {
                Some(t) => t.min(clock.allocation()),
                None => clock.allocation(),
            };
            return Limits {
                nodes: None,
                deadline: Some(started + time),
            };
        }
        let nodes = match (self.nodes, budget.nodes) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let time = match (self.time, budget.time) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Limits {
            nodes,
            deadline: time.map(|t| started + t),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_spec_and_takes_the_tighter_limit() {
        let spec: PlayerSpec = "X:depth=2,nodes=500,time=20".parse().unwrap();
        let t = Thinking::from_spec(&spec, 3, None).unwrap();
        assert_eq!(t.depth, 2);
        assert_eq!(t.nodes, Some(500));
        assert_eq!(t.time, Some(Duration::from_millis(20)));
        let now = Instant::now();
        let l = t.limits(
            &Budget {
                nodes: Some(100),
                time: Some(Duration::from_millis(50)),
                clock: None,
            },
            now,
        );
        assert_eq!(l.nodes, Some(100));
        assert_eq!(l.deadline, Some(now + Duration::from_millis(20)));
        let plain = Thinking::from_spec(&"X".parse().unwrap(), 3, Some(9)).unwrap();
        assert_eq!(plain.nodes, Some(9));
        assert_eq!(plain.limits(&Budget::default(), now).deadline, None);
        assert!(Thinking::from_spec(&"X:depth=0".parse().unwrap(), 3, None).is_err());
        assert!(Thinking::from_spec(&"X:nodes=lots".parse().unwrap(), 3, None).is_err());
    }

    #[test]
    fn under_a_clock_the_allocation_decides_and_no_node_count() {
        let spec: PlayerSpec = "X:nodes=500".parse().unwrap();
        let t = Thinking::from_spec(&spec, 3, None).unwrap();
        let now = Instant::now();
        let clock = crate::TimeLeft {
            remaining: Duration::from_millis(6000),
            increment: Duration::from_millis(100),
        };
        let l = t.limits(
            &Budget {
                nodes: Some(100),
                time: None,
                clock: Some(clock),
            },
            now,
        );
        assert_eq!(l.nodes, None);
        assert_eq!(l.deadline, Some(now + Duration::from_millis(300)));
    }
}
