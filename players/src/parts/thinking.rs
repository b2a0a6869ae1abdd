//! [`Thinking`]: how long a search bot may think (depth, node budget, time limit), shared
//! by the bots built on MyStockfish.

use std::time::{Duration, Instant};

use crate::param::Param;
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

/// A search bot's `depth` parameter (plies, 1 to 32), with its default.
pub const fn depth_param(default: i64, doc: &'static str) -> Param {
    Param::int("depth", default, 1, 32, doc)
}

/// A search bot's `nodes` parameter (nodes per move, 0 for no limit), with its default.
pub const fn nodes_param(default: i64, doc: &'static str) -> Param {
    Param::int("nodes", default, 0, i64::MAX, doc)
}

/// A search bot's `time` parameter (milliseconds per move, 0 for no limit).
pub const TIME_PARAM: Param = Param::int(
    "time",
    0,
    0,
    i64::MAX,
    "milliseconds per move, 0 for no limit; the search stops and plays its best move so far (not deterministic)",
);

/// The thinking parameters of a bot searching one board at depth 3 with no node limit
/// by default (SimpleStockfish, PossibleBoardGenerator).
pub const DEPTH_3_SEARCH: [Param; 3] = [
    depth_param(3, "search depth in plies"),
    nodes_param(0, "search nodes per move, 0 for no limit (deterministic)"),
    TIME_PARAM,
];

impl Thinking {
    /// Reads `depth`, `nodes` and `time` (milliseconds) from `spec` as the bot declares
    /// them (`[depth, nodes, time]`, see [`depth_param`]); `nodes=0` or `time=0` mean no
    /// limit.
    pub fn from_spec(spec: &PlayerSpec, params: &[Param; 3]) -> Result<Thinking, SpecError> {
        let [depth, nodes, time] = params;
        let depth = depth.read_int(spec)? as i32;
        let (nodes, time) = (nodes.read_int(spec)?, time.read_int(spec)?);
        Ok(Thinking {
            depth,
            nodes: (nodes > 0).then_some(nodes as u64),
            time: (time > 0).then(|| Duration::from_millis(time as u64)),
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
        let t = Thinking::from_spec(&spec, &DEPTH_3_SEARCH).unwrap();
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
        let plain = Thinking::from_spec(
            &"X".parse().unwrap(),
            &[depth_param(3, ""), nodes_param(9, ""), TIME_PARAM],
        )
        .unwrap();
        assert_eq!(plain.nodes, Some(9));
        assert_eq!(plain.limits(&Budget::default(), now).deadline, None);
        assert!(Thinking::from_spec(&"X:depth=0".parse().unwrap(), &DEPTH_3_SEARCH).is_err());
        assert!(Thinking::from_spec(&"X:nodes=lots".parse().unwrap(), &DEPTH_3_SEARCH).is_err());
    }

    #[test]
    fn under_a_clock_the_allocation_decides_and_no_node_count() {
        let spec: PlayerSpec = "X:nodes=500".parse().unwrap();
        let t = Thinking::from_spec(&spec, &DEPTH_3_SEARCH).unwrap();
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
