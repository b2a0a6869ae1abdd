//! Seeds: a game's seed derives from a run's key and the game's identity, and each
//! player's seed from the game's seed, both through a keyed one-way function
//! (SipHash-2-4), so a game's seed does not depend on thread count, order, or which other
//! players are in the tournament, and a player's seed reveals nothing it may not know.
//!
//! What a player can learn from its seed: nothing. A player's seed is SipHash-2-4 of its
//! colour under the game seed as key, so recovering the game seed (and from it the other
//! player's seed) from a player's seed means searching 2^64 keys. A game's seed is
//! SipHash-2-4 of the game's identity (players, round) under the run's 128-bit key, so
//! game seeds (which `games.csv` records once a game has ended) reveal neither the key
//! nor the seeds of other games.
//!
//! What a public key means: a run's key comes either from a `--seed` (public: anyone who
//! knows the number can compute every game's and every player's seed, which is what
//! makes a run reproducible) or from the operating system's random source (secret: kept
//! in the results folder's [`SECRET_FILE`] so that the run can be resumed and reproduced
//! afterwards). Runs with program players and no `--seed` use a secret key.
//!
//! Folders written before 2026-11-24 used an unkeyed bijection (SplitMix64) for both
//! steps, which a program player could invert from its own seed; [`Seeding::Legacy`]
//! still computes their game seeds so that they can be read and checked, but no new game
//! is played with it.

use std::hash::Hasher;

use serde::{Deserialize, Serialize};
use siphasher::sip::SipHasher24;

/// The file of a results folder that holds a secret key (hex, 32 digits).
pub const SECRET_FILE: &str = "secret.key";

/// SplitMix64's output function: a fast, well-mixed bijection of 64-bit words. Not
/// one-way: used only for reading folders of the legacy derivation and for mixing
/// numbers that no player sees.
#[inline]
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// FNV-1a of a text: stable across platforms and releases (unlike `std`'s hasher).
/// Used by the legacy derivation only.
pub fn text_hash(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// How a folder's seeds were derived (recorded in `tournament.json`; absent in folders
/// written before keyed seeds, which read as [`Seeding::Legacy`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Seeding {
    /// SplitMix64 of the master seed and the players' FNV hashes (before 2026-11-24).
    /// Invertible: a program player could recover its opponent's seed. Read only.
    #[default]
    #[serde(rename = "splitmix64")]
    Legacy,
    /// SipHash-2-4 under the run's key (the current derivation).
    #[serde(rename = "siphash-2-4")]
    Keyed,
}

/// A run's 128-bit key: from a public `--seed`, or secret from the operating system.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct SeedKey([u64; 2]);

impl std::fmt::Debug for SeedKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print a key by accident.
        f.write_str("SeedKey(..)")
    }
}

/// The second half of a public key ("fow-seed" in ASCII): a fixed, documented constant.
const PUBLIC_HALF: u64 = 0x666f_772d_7365_6564;

impl SeedKey {
    /// The public key of `--seed seed`.
    pub fn public(seed: u64) -> SeedKey {
        SeedKey([seed, PUBLIC_HALF])
    }

    /// A fresh secret key from the operating system's random source.
    pub fn random() -> Result<SeedKey, String> {
        use rand::TryRngCore;
        let mut os = rand::rngs::OsRng;
        let mut word = || {
            os.try_next_u64()
                .map_err(|e| format!("cannot read the system's random source: {e}"))
        };
        Ok(SeedKey([word()?, word()?]))
    }

    /// The key as 32 hexadecimal digits (what [`SECRET_FILE`] holds).
    pub fn to_hex(&self) -> String {
        format!("{:016x}{:016x}", self.0[0], self.0[1])
    }

    /// Reads 32 hexadecimal digits (surrounding white space allowed).
    pub fn from_hex(text: &str) -> Result<SeedKey, String> {
        let t = text.trim();
        if t.len() != 32 || !t.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err("a key is 32 hexadecimal digits".into());
        }
        let half = |s: &str| u64::from_str_radix(s, 16).expect("checked hex digits");
        Ok(SeedKey([half(&t[..16]), half(&t[16..])]))
    }

    /// The key's 16 bytes (each half little-endian), for deriving other keys from it
    /// (see [`crate::mac`]).
    pub(crate) fn bytes(&self) -> [u8; 16] {
        let mut b = [0; 16];
        b[..8].copy_from_slice(&self.0[0].to_le_bytes());
        b[8..].copy_from_slice(&self.0[1].to_le_bytes());
        b
    }

    /// SipHash-2-4 under this key of the given parts (each length-prefixed, so no two
    /// different part lists hash the same text).
    pub fn derive(&self, parts: &[&[u8]]) -> u64 {
        let mut h = SipHasher24::new_with_keys(self.0[0], self.0[1]);
        for p in parts {
            h.write_u64(p.len() as u64);
            h.write(p);
        }
        h.finish()
    }
}

/// The public seed of a run that names none and has nobody it cannot trust.
pub const DEFAULT_SEED: u64 = 2023;

/// The seed policy of every command, in one place: the seed given (`--seed`, public);
/// else, when someone fow cannot trust takes part (a program player, or a human, who
/// could compute a bot's random choices from a public seed), `None`, for a secret (a
/// tournament's or match's secret key, a fresh random seed for `fow evolve` and `fow
/// play`); else [`DEFAULT_SEED`].
///
/// ```
/// use fow_records::seed::{run_seed, DEFAULT_SEED};
/// assert_eq!(run_seed(Some(7), true), Some(7));
/// assert_eq!(run_seed(None, true), None);
/// assert_eq!(run_seed(None, false), Some(DEFAULT_SEED));
/// ```
pub fn run_seed(given: Option<u64>, untrusted: bool) -> Option<u64> {
    match given {
        Some(s) => Some(s),
        None if untrusted => None,
        None => Some(DEFAULT_SEED),
    }
}

/// Whether a spec runs a program (`exec:`, `uci:`): a player fow cannot trust.
///
/// ```
/// use fow_records::seed::is_program;
/// assert!(is_program("exec:cmd=python3 bot.py"));
/// assert!(!is_program("PossibleBoardList:cap=100"));
/// ```
pub fn is_program(spec: &str) -> bool {
    spec.parse::<fow_players::PlayerSpec>()
        .is_ok_and(|s| s.name == "exec" || s.name == "uci")
}

/// A fresh 64-bit seed from the operating system's random source.
pub fn random_seed() -> Result<u64, String> {
    SeedKey::random().map(|k| k.0[0])
}

/// The seed of game `round` between `white` and `black` (spec texts) under `key`.
pub fn game_seed(key: &SeedKey, white: &str, black: &str, round: u32) -> u64 {
    key.derive(&[
        b"game",
        white.as_bytes(),
        black.as_bytes(),
        &round.to_le_bytes(),
    ])
}

/// The legacy (SplitMix64) seed of a game under `master`: for reading folders written
/// before keyed seeds only.
pub fn legacy_game_seed(master: u64, white: &str, black: &str, round: u32) -> u64 {
    let mut h = mix(master);
    h = mix(h ^ text_hash(white));
    h = mix(h ^ text_hash(black).rotate_left(17));
    mix(h ^ u64::from(round))
}

/// The seeds handed to White's and Black's players for a game seed: SipHash-2-4 of the
/// colour under the game seed as key.
pub fn player_seeds(game_seed: u64) -> [u64; 2] {
    let key = SeedKey([game_seed, 0x706c_6179_6572_7321]); // "players!"
    [key.derive(&[b"white"]), key.derive(&[b"black"])]
}

/// The seeds of the two sides of a paired game (`[first, second]` player of the
/// meeting), whichever colour each has: SipHash-2-4 of the side under the game seed as
/// key, like [`player_seeds`]. Each player keeps its seed in both games of a pair, so
/// that a bot meeting itself plays two different games.
pub fn side_seeds(game_seed: u64) -> [u64; 2] {
    let key = SeedKey([game_seed, 0x7369_6465_7321_2121]); // "sides!!!"
    [key.derive(&[b"first"]), key.derive(&[b"second"])]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_depend_on_every_part() {
        let k = SeedKey::public(1);
        let s = game_seed(&k, "A", "B", 0);
        assert_eq!(s, game_seed(&k, "A", "B", 0));
        assert_ne!(s, game_seed(&SeedKey::public(2), "A", "B", 0));
        assert_ne!(s, game_seed(&k, "B", "A", 0));
        assert_ne!(s, game_seed(&k, "A", "B", 1));
        // Length prefixes: moving a character between the names changes the seed.
        assert_ne!(game_seed(&k, "AB", "C", 0), game_seed(&k, "A", "BC", 0));
        let [w, b] = player_seeds(s);
        assert_ne!(w, b);
    }

    #[test]
    fn siphash_matches_the_reference_vector() {
        // The SipHash paper's test vector (Aumasson & Bernstein 2012, appendix A): key
        // 00 01 .. 0f, message 00 01 .. 0e (15 bytes), SipHash-2-4 = a129ca6149be45e5.
        let key = SeedKey([0x0706_0504_0302_0100, 0x0f0e_0d0c_0b0a_0908]);
        let mut h = SipHasher24::new_with_keys(key.0[0], key.0[1]);
        h.write(&(0u8..15).collect::<Vec<u8>>());
        assert_eq!(h.finish(), 0xa129_ca61_49be_45e5);
    }

    #[test]
    fn keys_round_trip_as_hex() {
        let k = SeedKey::random().unwrap();
        assert_eq!(SeedKey::from_hex(&k.to_hex()).unwrap(), k);
        assert_ne!(SeedKey::random().unwrap(), k);
        assert!(SeedKey::from_hex("12").is_err());
        assert!(SeedKey::from_hex(&"g".repeat(32)).is_err());
        assert_eq!(format!("{k:?}"), "SeedKey(..)");
    }

    #[test]
    fn the_legacy_derivation_is_pinned() {
        // Folders written before keyed seeds must still check against their schedule.
        assert_eq!(mix(0), 0xe220_a839_7b1d_cdaf);
        assert_eq!(
            legacy_game_seed(1, "A", "B", 0),
            legacy_game_seed(1, "A", "B", 0)
        );
    }
}
