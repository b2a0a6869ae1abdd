//! Tags that make what a run writes tamper-evident: HMAC-SHA256 under a key derived
//! from the run's [`SeedKey`], over each row of `games.csv` and over the settings in
//! `tournament.json`.
//!
//! A rule-legal forgery (a king-capturing last move dropped and the game recorded as a
//! timeout, a win appended by a bot that can write to the folder, a `nodes` value edited
//! in the settings) passes every check against the rules and the schedule; it does not
//! pass its tag, which only the holder of the run's key can compute. With a secret key
//! (`secret.key`, readable by its owner only) a tag that checks means the row is as the
//! run wrote it. With a public `--seed` the key is public too: tags are computed and
//! checked the same way, so they catch an edit by accident, but anyone can recompute them.
//!
//! The key: `HMAC-SHA256(run key bytes, "fow results tag key v1")`, so the tags never
//! reuse the seed derivation ([`SeedKey::derive`]). Each tag is the HMAC of a domain
//! ("games.csv row", "tournament.json") and length-prefixed parts, so no two different
//! part lists are tagged alike.

use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::files::GameRow;
use crate::seed::SeedKey;

type HmacSha256 = Hmac<Sha256>;

/// The label the tag key derives from the run's key under.
const KEY_LABEL: &[u8] = b"fow results tag key v1";
/// The domain of a row's tag.
const ROW_DOMAIN: &[u8] = b"games.csv row";
/// The domain of the settings' tag.
const SETTINGS_DOMAIN: &[u8] = b"tournament.json";
/// The domain of a run's identity, which every row's tag includes.
const RUN_DOMAIN: &[u8] = b"run";

/// HMAC-SHA256 of `message` under `key` (any length).
fn hmac(key: &[u8], message: &[&[u8]]) -> HmacSha256 {
    let mut m = HmacSha256::new_from_slice(key).expect("HMAC takes keys of any length");
    for part in message {
        m.update(part);
    }
    m
}

/// Lower-case hexadecimal.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Bytes from hexadecimal (`None`: not an even number of hex digits).
fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok())
        .collect()
}

/// The key a run's tags are computed under.
#[derive(Clone)]
pub(crate) struct TagKey([u8; 32]);

impl TagKey {
    /// The tag key of a run's key.
    pub(crate) fn of(key: &SeedKey) -> TagKey {
        TagKey(
            hmac(&key.bytes(), &[KEY_LABEL])
                .finalize()
                .into_bytes()
                .into(),
        )
    }

    /// The HMAC of `domain` and `parts`, each length-prefixed.
    fn mac(&self, domain: &[u8], parts: &[&[u8]]) -> HmacSha256 {
        let mut m = hmac(&self.0, &[]);
        for p in std::iter::once(&domain).chain(parts) {
            m.update(&(p.len() as u64).to_le_bytes());
            m.update(p);
        }
        m
    }

    /// The tag of `domain` and `parts`, in hexadecimal (64 digits).
    fn tag(&self, domain: &[u8], parts: &[&[u8]]) -> String {
        hex(&self.mac(domain, parts).finalize().into_bytes())
    }

    /// Whether `tag` (hexadecimal) is the tag of `domain` and `parts` (compared in
    /// constant time).
    fn verify(&self, domain: &[u8], parts: &[&[u8]], tag: &str) -> bool {
        unhex(tag).is_some_and(|t| self.mac(domain, parts).verify_slice(&t).is_ok())
    }

    /// The tag of the settings as canonical JSON.
    pub(crate) fn settings_tag(&self, canonical: &str) -> String {
        self.tag(SETTINGS_DOMAIN, &[canonical.as_bytes()])
    }

    /// Whether `tag` is the tag of the settings as canonical JSON.
    pub(crate) fn settings_verify(&self, canonical: &str, tag: &str) -> bool {
        self.verify(SETTINGS_DOMAIN, &[canonical.as_bytes()], tag)
    }

    /// The tagger of the rows of the run whose settings, without their shard, are
    /// `canonical_run` (so that the shards of a run tag their rows alike, and a row
    /// of another run under the same key does not check).
    pub(crate) fn rows(&self, canonical_run: &str) -> RowTagger {
        let run = self
            .mac(RUN_DOMAIN, &[canonical_run.as_bytes()])
            .finalize()
            .into_bytes()
            .into();
        RowTagger {
            key: self.clone(),
            run,
        }
    }
}

/// Tags and checks the rows of one run's `games.csv`
/// ([`TournamentConfig::row_tagger`](crate::TournamentConfig::row_tagger)).
#[derive(Clone)]
pub struct RowTagger {
    key: TagKey,
    run: [u8; 32],
}

impl std::fmt::Debug for RowTagger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print a key by accident.
        f.write_str("RowTagger(..)")
    }
}

impl RowTagger {
    /// The parts a row's tag covers: the run, then every column but `tag`, as written.
    fn with_parts<T>(&self, row: &GameRow, f: impl FnOnce(&[&[u8]]) -> T) -> T {
        let (id, round, seed, plies) = (
            row.id.to_string(),
            row.round.to_string(),
            row.seed.to_string(),
            row.plies.to_string(),
        );
        f(&[
            &self.run,
            id.as_bytes(),
            round.as_bytes(),
            row.white.as_bytes(),
            row.black.as_bytes(),
            seed.as_bytes(),
            row.result.as_bytes(),
            row.reason.as_bytes(),
            plies.as_bytes(),
            row.detail.as_bytes(),
            row.moves.as_bytes(),
            row.start.as_bytes(),
        ])
    }

    /// The tag of `row` (its `tag` column left out), in hexadecimal.
    pub fn tag(&self, row: &GameRow) -> String {
        self.with_parts(row, |parts| self.key.tag(ROW_DOMAIN, parts))
    }

    /// Whether `row`'s `tag` column is its tag.
    pub fn verify(&self, row: &GameRow) -> bool {
        self.with_parts(row, |parts| self.key.verify(ROW_DOMAIN, parts, &row.tag))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_sha256_matches_rfc_4231() {
        // RFC 4231, test case 1: key 0x0b x 20, data "Hi There".
        let tag = hmac(&[0x0b; 20], &[b"Hi There"]).finalize().into_bytes();
        assert_eq!(
            hex(&tag),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        );
        // Test case 2: key "Jefe", data "what do ya want for nothing?" (in two updates).
        let tag = hmac(b"Jefe", &[b"what do ya want ", b"for nothing?"])
            .finalize()
            .into_bytes();
        assert_eq!(
            hex(&tag),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        assert_eq!(unhex(&hex(&tag)).unwrap(), tag.to_vec());
        assert!(unhex("abc").is_none() && unhex("zz").is_none());
    }

    fn row() -> GameRow {
        GameRow {
            id: 3,
            white: "A".into(),
            black: "B".into(),
            seed: 9,
            result: "1-0".into(),
            reason: "king captured".into(),
            plies: 5,
            moves: "e2e4 f7f6 d1h5 a7a6 h5e8".into(),
            ..GameRow::default()
        }
    }

    #[test]
    fn a_row_checks_only_as_tagged_under_its_key_and_run() {
        let key = TagKey::of(&SeedKey::public(1));
        let t = key.rows("{\"run\":1}");
        let mut r = row();
        r.tag = t.tag(&r);
        assert_eq!(r.tag.len(), 64);
        assert!(t.verify(&r));
        // Any column changed, another key, another run: the tag does not check.
        for edit in [
            |r: &mut GameRow| r.id = 4,
            |r: &mut GameRow| r.reason = "timeout".into(),
            |r: &mut GameRow| r.moves = "e2e4 f7f6 d1h5 a7a6".into(),
            |r: &mut GameRow| r.detail = "x".into(),
            |r: &mut GameRow| r.start = "8/8/8/8/8/8/8/K6k w - - 0 1".into(),
            // Length prefixes: moving a character between columns changes the tag.
            |r: &mut GameRow| {
                r.white = "AB".into();
                r.black = String::new()
            },
        ] {
            let mut e = r.clone();
            edit(&mut e);
            assert!(!t.verify(&e));
        }
        assert!(!TagKey::of(&SeedKey::public(2))
            .rows("{\"run\":1}")
            .verify(&r));
        assert!(!key.rows("{\"run\":2}").verify(&r));
        let mut bad = r.clone();
        bad.tag = "not hex".into();
        assert!(!t.verify(&bad));
        bad.tag = String::new();
        assert!(!t.verify(&bad));
        assert_eq!(format!("{t:?}"), "RowTagger(..)");
    }
}
