//! Shards: a run's schedule split over machines. Shard `I/N` plays the games whose
//! number (for paired schedules, whose pair's number) is `I - 1` modulo `N`, so every
//! shard gets a fair mix of players, rounds and openings; `fow merge` joins the shards'
//! folders into the results of the whole run.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Shard `index` of `count` (1-based: `1/4` to `4/4`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shard {
    /// Which shard, 1 to `count`.
    pub index: u32,
    /// How many shards the run is split into (at least 1).
    pub count: u32,
}

impl Shard {
    /// Whether game `id` belongs to this shard; in a paired schedule a pair (games `2k`
    /// and `2k + 1`) stays whole.
    ///
    /// ```
    /// use fow_records::Shard;
    /// let s: Shard = "2/3".parse().unwrap();
    /// assert_eq!((0..8).filter(|&id| s.holds(id, false)).collect::<Vec<_>>(), [1, 4, 7]);
    /// assert_eq!((0..8).filter(|&id| s.holds(id, true)).collect::<Vec<_>>(), [2, 3]);
    /// ```
    pub fn holds(&self, id: u64, paired: bool) -> bool {
        let unit = if paired { id / 2 } else { id };
        // No game belongs to a shard that does not exist (0/N, I/0, I > N: read from
        // an edited file), so its rows are refused rather than a division by zero.
        self.count > 0 && unit % u64::from(self.count) + 1 == u64::from(self.index)
    }
}

impl FromStr for Shard {
    type Err = String;
    /// `I/N` with 1 ≤ I ≤ N.
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("'{s}' is not a shard: write I/N with 1 <= I <= N, e.g. 2/4");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u32 = i.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_games_and_keep_pairs_whole() {
        for paired in [false, true] {
            for count in 1..6u32 {
                let shards: Vec<Shard> = (1..=count).map(|index| Shard { index, count }).collect();
                for id in 0..100u64 {
                    let owners = shards.iter().filter(|s| s.holds(id, paired)).count();
                    assert_eq!(owners, 1, "game {id} of {count} shards");
                    if paired {
                        let pair = id - id % 2;
                        assert_eq!(
                            shards.iter().position(|s| s.holds(pair, true)),
                            shards.iter().position(|s| s.holds(pair + 1, true))
                        );
                    }
                }
            }
        }
        for bad in ["0/3", "4/3", "1/0", "x/2", "2", "1/2/3", "-1/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert_eq!("3/4".parse::<Shard>().unwrap().to_string(), "3/4");
    }
}
