//! The thesis bots' choices on positions built for them.

use fow_players::{registry, Budget, GameStart, PlayerSpec};
use fow_variants::{Observation, Position, RuleSet};

/// The set of moves (UCI) a bot chooses from `fen` over many seeds.
fn choices(bot: &str, fen: &str, seeds: u64) -> Vec<String> {
    let rules = RuleSet::thesis();
    let pos = Position::from_fen(fen).unwrap();
    let obs = Observation::new(&pos, &rules, 10, None);
    let mut seen: Vec<String> = (0..seeds)
        .map(|seed| {
            let mut p = bot.parse::<PlayerSpec>().unwrap().build().unwrap();
            p.start(&GameStart::new(pos.turn(), rules, seed).with_position(pos.clone()));
            let m = p.choose(&obs, &Budget::default());
            assert!(obs.is_legal(&m));
            m.uci()
        })
        .collect();
    seen.sort();
    seen.dedup();
    seen
}

#[test]
fn capture_king_takes_the_king_and_otherwise_moves_at_random() {
    // The rook on d1 can take the king on d8 or the queen on a1.
    let fen = "3k4/8/8/8/8/8/8/q2R2K1 w - - 0 1";
    assert_eq!(choices("CaptureKing", fen, 50), ["d1d8"]);
    let spread = choices("CaptureKing", "4k3/8/8/8/8/8/8/3RK3 w - - 0 1", 200);
    assert!(spread.len() > 10, "{spread:?}");
}

#[test]
fn capture_largest_prefers_the_heaviest_victim() {
    // Knight c3 can take a pawn on b5 or a rook on e4.
    let fen = "4k3/8/8/1p6/4r3/2N5/8/4K3 w - - 0 1";
    assert_eq!(choices("CaptureLargest", fen, 50), ["c3e4"]);
}

#[test]
fn capture_with_largest_difference_captures_cheaply() {
    // Pawn d3 takes knight e4 (3-1 = 2); queen takes rook a8 (5-10 = -5).
    let fen = "r3k3/8/8/8/4n3/3P4/8/Q3K3 w - - 0 1";
    assert_eq!(choices("CaptureWithLargestDifference", fen, 50), ["d3e4"]);
    // With nothing to take, only pawn moves score best (-1).
    let quiet = choices(
        "CaptureWithLargestDifference",
        "4k3/8/8/8/8/8/P7/R3K3 w - - 0 1",
        60,
    );
    assert_eq!(quiet, ["a2a3", "a2a4"]);
}

#[test]
fn supporter_defends_its_pieces() {
    // Rooks a1 and b2 defend nothing; exactly four moves make them defend each other.
    let fen = "7k/8/8/8/8/8/1R6/R6K w - - 0 1";
    assert_eq!(
        choices("Supporter", fen, 100),
        ["a1a2", "a1b1", "b2a2", "b2b1"]
    );
    // A capture adds the victim's weight: Rxa8 (5) beats any support.
    let fen = "r6k/8/8/8/8/8/1R6/R6K w - - 0 1";
    assert_eq!(choices("Supporter", fen, 50), ["a1a8"]);
}

/// The first moves of `bot` (seeded `seed`) against a RandomMove with a fixed seed.
fn game_moves(bot: &str, seed: u64) -> Vec<String> {
    let rules = RuleSet::thesis();
    let mut me = bot.parse::<PlayerSpec>().unwrap().build().unwrap();
    let mut other = "RandomMove".parse::<PlayerSpec>().unwrap().build().unwrap();
    me.start(&GameStart::new(fow_variants::Color::White, rules, seed));
    other.start(&GameStart::new(fow_variants::Color::Black, rules, 99));
    let mut game = fow_variants::Game::new(Position::startpos(), rules);
    let mut out = Vec::new();
    let mut last_view = None;
    for ply in 0..16u32 {
        let pos = game.position().clone();
        let mine = ply % 2 == 0;
        let obs = Observation::new(
            &pos,
            &rules,
            ply,
            if mine { last_view.clone() } else { None },
        );
        let m = if mine {
            me.choose(&obs, &Budget::default())
        } else {
            other.choose(&obs, &Budget::default())
        };
        assert!(obs.is_legal(&m), "{bot}: {m}");
        out.push(m.uci());
        let end = game.play(&m);
        if mine {
            last_view = Some(fow_variants::FogView::of(
                game.position(),
                fow_variants::Color::White,
                &rules,
            ));
        }
        if end.is_some() {
            break;
        }
    }
    out
}

#[test]
fn every_bot_is_deterministic_per_seed_and_varies_across_seeds() {
    for bot in registry() {
        // BeliefSearch's default budget (1.5 million nodes a move) is slow in a debug
        // build; a small one takes the same code paths.
        let name = match bot.name {
            "BeliefSearch" => "BeliefSearch:nodes=20000,depth=2",
            // An exploiter needs its target; a quick one, and few copies of it.
            "Exploiter" => "Exploiter:target=RandomMove,particles=2",
            name => name,
        };
        let a = game_moves(name, 1);
        assert_eq!(a, game_moves(name, 1), "{}", bot.name);
        // At its default temperature 0 the network player takes the seed only for ties,
        // which real-valued scores practically never have; its sampling must use it.
        let spec = match bot.name {
            "NeuralNetworkPlayer" => "NeuralNetworkPlayer:temperature=1",
            _ => name,
        };
        let a = game_moves(spec, 1);
        assert!(
            (2..12).any(|seed| game_moves(spec, seed) != a),
            "{spec} never varies"
        );
    }
}

#[test]
fn registry_names_are_unique_and_described() {
    let names: Vec<_> = registry().iter().map(|b| b.name).collect();
    let mut dedup = names.clone();
    dedup.sort();
    dedup.dedup();
    assert_eq!(names.len(), dedup.len());
    assert!(registry().iter().all(|b| !b.description.is_empty()));
    assert_eq!(names[0], "RandomMove");
}
