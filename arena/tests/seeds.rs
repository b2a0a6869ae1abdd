//! A player must not be able to predict its opponent's randomness from its own seed
//! (issue 28). The attack of the report: a program player inverts its seed to the game
//! seed, derives its opponent's seed and replays the opponent's random choices. Against
//! the SplitMix64 derivation used before, it predicts every move of RandomMove (the
//! control below); against the keyed derivation it does no better than chance.

use std::sync::{Arc, Mutex};

use fow_arena::{play_game, GameOptions};
use fow_players::bots::RandomMove;
use fow_players::{Budget, GameStart, Player};
use fow_records::seed::{game_seed, mix, SeedKey};
use fow_variants::{Color, Move, Observation, RuleSet};

/// The inverse of SplitMix64's output function ([`mix`]).
fn unmix(mut z: u64) -> u64 {
    // Inverse of z ^ (z >> s): repeated shifts until all bits are restored.
    let unshift = |mut x: u64, s: u32| {
        let mut y = x;
        for _ in 0..(64 / s) {
            y = x ^ (y >> s);
        }
        x = y;
        x
    };
    // Modular inverses of the two odd multipliers.
    let inv = |a: u64| {
        let mut x = a; // Newton's iteration: x = x * (2 - a x), 6 rounds reach 64 bits.
        for _ in 0..6 {
            x = x.wrapping_mul(2u64.wrapping_sub(a.wrapping_mul(x)));
        }
        x
    };
    z = unshift(z, 31);
    z = z.wrapping_mul(inv(0x94d0_49bb_1331_11eb));
    z = unshift(z, 27);
    z = z.wrapping_mul(inv(0xbf58_476d_1ce4_e5b9));
    z = unshift(z, 30);
    z.wrapping_sub(0x9e37_79b9_7f4a_7c15)
}

/// The derivation before keyed seeds: player seeds were `mix(game_seed ^ colour tag)`.
const WHITE_TAG: u64 = 0x5748_4954_4500_0000;
const BLACK_TAG: u64 = 0x424c_4143_4b00_0000;

/// The attacker's guess of Black's seed from White's: the inversion of the report.
fn predicted_black_seed(white_seed: u64) -> u64 {
    let game = unmix(white_seed) ^ WHITE_TAG;
    mix(game ^ BLACK_TAG)
}

/// White: a RandomMove that tells the attacker its seed (what a program player receives
/// in its `new_game`). With `legacy`, it is started with the old derivation's seed.
struct Spy {
    inner: RandomMove,
    seen: Arc<Mutex<Option<u64>>>,
    legacy: Option<u64>,
}

impl Player for Spy {
    fn start(&mut self, game: &GameStart) {
        let seed = self.legacy.map_or(game.seed, |g| mix(g ^ WHITE_TAG));
        *self.seen.lock().unwrap() = Some(seed);
        let mut game = game.clone();
        game.seed = seed;
        self.inner.start(&game);
    }
    fn choose(&mut self, obs: &Observation, budget: &Budget) -> Move {
        self.inner.choose(obs, budget)
    }
}

/// Black: RandomMove, watched. Before each of its moves the attacker's replica (a
/// RandomMove started with the predicted seed and shown the same observation) guesses.
struct Watched {
    inner: RandomMove,
    replica: Option<RandomMove>,
    seen: Arc<Mutex<Option<u64>>>,
    legacy: Option<u64>,
    rules: RuleSet,
    /// Guesses that matched, and the chance a blind guess would match (sum of 1/n).
    hits: u32,
    turns: u32,
    chance: f64,
    variance: f64,
}

impl Player for Watched {
    fn start(&mut self, game: &GameStart) {
        let seed = self.legacy.map_or(game.seed, |g| mix(g ^ BLACK_TAG));
        let mut game = game.clone();
        game.seed = seed;
        self.inner.start(&game);
        self.rules = game.rules;
        self.replica = None;
    }
    fn choose(&mut self, obs: &Observation, budget: &Budget) -> Move {
        let replica = self.replica.get_or_insert_with(|| {
            let white = self.seen.lock().unwrap().expect("White started first");
            let mut r = RandomMove::new();
            r.start(&GameStart::new(
                Color::Black,
                self.rules,
                predicted_black_seed(white),
            ));
            r
        });
        let guess = replica.choose(obs, budget);
        let real = self.inner.choose(obs, budget);
        let p = 1.0 / obs.move_count() as f64;
        self.turns += 1;
        self.hits += u32::from(guess == real);
        self.chance += p;
        self.variance += p * (1.0 - p);
        real
    }
}

/// Plays `games` RandomMove games and returns (hits, turns, chance, variance) of the
/// attack on Black; with `legacy`, the players get the old derivation's seeds.
fn attack(games: u32, legacy: bool) -> (u32, u32, f64, f64) {
    let key = SeedKey::public(2023);
    let opts = GameOptions::new(RuleSet::thesis());
    let mut total = (0, 0, 0.0, 0.0);
    for k in 0..games {
        let seed = game_seed(&key, "exec:cmd=attacker", "RandomMove", k);
        let seen = Arc::new(Mutex::new(None));
        let mut white = Spy {
            inner: RandomMove::new(),
            seen: seen.clone(),
            legacy: legacy.then_some(seed),
        };
        let mut black = Watched {
            inner: RandomMove::new(),
            replica: None,
            seen,
            legacy: legacy.then_some(seed),
            rules: RuleSet::thesis(),
            hits: 0,
            turns: 0,
            chance: 0.0,
            variance: 0.0,
        };
        play_game(
            &mut white,
            &mut black,
            "attacker",
            "RandomMove",
            seed,
            &opts,
        );
        total.0 += black.hits;
        total.1 += black.turns;
        total.2 += black.chance;
        total.3 += black.variance;
    }
    total
}

#[test]
fn the_attack_predicts_every_move_under_the_old_derivation() {
    // The control: the attacker is competent, so the next test can fail.
    let (hits, turns, _, _) = attack(20, true);
    assert!(turns > 200);
    assert_eq!(hits, turns);
}

#[test]
fn a_player_cannot_predict_its_opponents_random_moves_from_its_seed() {
    let (hits, turns, chance, variance) = attack(20, false);
    assert!(turns > 200, "{turns}");
    eprintln!("the attack predicted {hits} of {turns} moves; blind guessing expects {chance:.1}");
    // No better than chance: within 5 standard deviations of a blind guess.
    let limit = chance + 5.0 * variance.sqrt();
    assert!(
        f64::from(hits) <= limit,
        "{hits} of {turns} moves predicted; blind guessing expects {chance:.1} (limit {limit:.1})"
    );
}

#[test]
fn unmix_inverts_mix() {
    for x in [0u64, 1, 42, u64::MAX, 0x0123_4567_89ab_cdef] {
        assert_eq!(unmix(mix(x)), x);
    }
}

#[test]
fn folders_of_the_legacy_derivation_still_match_their_schedule() {
    // results/thesis-reproduction was written before keyed seeds: its tournament.json has
    // no `seeding`, and its games carry the SplitMix64 seeds of its schedule.
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../results/thesis-reproduction");
    let config = fow_records::TournamentConfig::load(&dir).unwrap();
    assert_eq!(config.seeding, fow_records::seed::Seeding::Legacy);
    let games = fow_records::read_games(&dir.join("games.csv")).unwrap();
    let schedule = config.pairings();
    assert_eq!(games.len(), schedule.len());
    for (g, p) in games.iter().zip(&schedule) {
        assert_eq!((g.id, g.seed), (p.id, p.seed));
    }
}
