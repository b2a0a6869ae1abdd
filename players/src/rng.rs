//! [`BotRng`]: the random generator every built-in bot draws from.

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// The generator every built-in bot draws from: portable, seeded, fast.
pub type BotRng = Pcg64Mcg;

/// A generator before `start` gives the real seed.
pub(crate) fn unseeded() -> BotRng {
    BotRng::seed_from_u64(0)
}
