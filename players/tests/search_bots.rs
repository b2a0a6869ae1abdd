//! The search and belief-state bots: tactics, parameters, budgets.

use fow_players::bots::{BeliefSearchSettings, BoardListSettings};
use fow_players::{find, registry, Budget, GameStart, PlayerSpec};
use fow_variants::{Observation, Position, RuleSet};

const SEARCHERS: [&str; 3] = [
    "SimpleStockfish",
    "PossibleBoardGenerator",
    "PossibleBoardList",
];

fn choose(spec: &str, fen: &str, seed: u64, budget: &Budget) -> String {
    let rules = RuleSet::thesis();
    let pos = Position::from_fen(fen).unwrap();
    let obs = Observation::new(&pos, &rules, 10, None);
    let mut p = spec.parse::<PlayerSpec>().unwrap().build().unwrap();
    p.start(&GameStart::new(pos.turn(), rules, seed).with_position(pos.clone()));
    let m = p.choose(&obs, budget);
    assert!(obs.is_legal(&m), "{spec}: {m}");
    m.uci()
}

#[test]
fn searchers_capture_the_king_and_win_material() {
    for bot in SEARCHERS {
        for seed in 0..3 {
            // The rook takes the king.
            assert_eq!(
                choose(
                    bot,
                    "k7/8/8/8/8/8/8/R3K3 w - - 0 1",
                    seed,
                    &Budget::default()
                ),
                "a1a8",
                "{bot}"
            );
            // The bishop takes an undefended queen.
            assert_eq!(
                choose(
                    bot,
                    "4k3/8/8/8/8/2q5/8/B3K3 w - - 0 1",
                    seed,
                    &Budget::default()
                ),
                "a1c3",
                "{bot}"
            );
        }
    }
}

#[test]
fn a_tiny_node_budget_still_gives_a_legal_move() {
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    for bot in SEARCHERS {
        choose(
            bot,
            fen,
            1,
            &Budget {
                nodes: Some(1),
                time: None,
                clock: None,
            },
        );
        choose(&format!("{bot}:nodes=5"), fen, 1, &Budget::default());
    }
}

#[test]
fn a_time_limit_stops_thinking_with_a_legal_move() {
    // Unlimited nodes and a deep search, stopped by a 1 ms limit: still a legal move.
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    choose(
        "SimpleStockfish:depth=12,time=1",
        fen,
        1,
        &Budget::default(),
    );
    choose(
        "PossibleBoardGenerator:depth=12,time=1",
        fen,
        1,
        &Budget::default(),
    );
    choose(
        "PossibleBoardList:depth=8,nodes=0,time=1",
        fen,
        1,
        &Budget::default(),
    );
    // When the deadline stops the search of the first board, the belief-set bots search
    // it at depth 1 instead, which sees the free queen (as would any deeper search that
    // finishes in time: the result does not depend on the machine's speed).
    for bot in ["PossibleBoardList", "BeliefSearch"] {
        assert_eq!(
            choose(
                &format!("{bot}:depth=8,nodes=0,time=1"),
                "4k3/8/8/8/8/2q5/8/B3K3 w - - 0 1",
                1,
                &Budget::default()
            ),
            "a1c3",
            "{bot}"
        );
    }
}

#[test]
fn registry_defaults_are_the_settings_defaults() {
    let info = find("PossibleBoardList").unwrap();
    let d = BoardListSettings::default();
    let default_of = |k: &str| info.params.iter().find(|p| p.name == k).unwrap().default;
    assert_eq!(default_of("depth"), d.thinking.depth.to_string());
    assert_eq!(default_of("nodes"), d.thinking.nodes.unwrap().to_string());
    assert_eq!(default_of("cap"), d.cap.to_string());
    assert_eq!(default_of("sample"), d.sample.to_string());
    assert_eq!(default_of("guesses"), d.guesses.to_string());
    let info = find("BeliefSearch").unwrap();
    let d = BeliefSearchSettings::default();
    let default_of = |k: &str| info.params.iter().find(|p| p.name == k).unwrap().default;
    assert_eq!(default_of("depth"), d.thinking.depth.to_string());
    assert_eq!(default_of("nodes"), d.thinking.nodes.unwrap().to_string());
    for (key, value) in [
        ("cap", d.cap),
        ("sample", d.sample),
        ("guesses", d.guesses),
        ("riskboards", d.risk_boards),
        ("keep", d.keep),
        ("infoboards", d.info_boards),
    ] {
        assert_eq!(default_of(key), value.to_string(), "{key}");
    }
    for (key, value) in [
        ("mean", d.mean),
        ("king", d.king),
        ("risk", d.risk),
        ("exposure", d.exposure),
        ("repeat", d.repeat),
        ("progress", d.progress),
        ("info", d.info),
        ("model", d.model.expect("a model by default")),
    ] {
        assert_eq!(default_of(key).parse::<f64>().unwrap(), value, "{key}");
    }
    assert_eq!(default_of("eval"), d.eval.to_string());
    assert_eq!(default_of("carry"), "off");
    assert_eq!(d.carry, fow_players::belief::board_list::Prior::Flat);
    assert_eq!(default_of("infoabout"), "kq");
    assert_eq!(
        d.info_about,
        fow_players::belief::information::Target::KingQueen
    );
    let quiesce = if d.capture_quiescence {
        "captures"
    } else {
        "recapture"
    };
    assert_eq!(default_of("quiesce"), quiesce);
    assert_eq!(default_of("deepen"), if d.deepen { "on" } else { "off" });
    for name in SEARCHERS {
        let bot = registry().iter().find(|b| b.name == name).unwrap();
        for p in ["depth", "nodes", "time"] {
            assert!(bot.params.iter().any(|x| x.name == p), "{name} takes {p}");
        }
    }
}

#[test]
fn bad_parameters_are_rejected() {
    for spec in [
        "SimpleStockfish:depth=0",
        "SimpleStockfish:depth=three",
        "PossibleBoardList:cap=0",
        "PossibleBoardList:sample=-1",
        "PossibleBoardGenerator:width=3",
        "BeliefSearch:keep=-1",
        "BeliefSearch:exposure=-0.5",
        "BeliefSearch:repeat=x",
        "BeliefSearch:progress=-1",
        "BeliefSearch:eval=material",
        "BeliefSearch:model=-1",
        "BeliefSearch:model=sharp",
        "BeliefSearch:carry=yes",
        "BeliefSearch:info=-1",
        "BeliefSearch:info=inf",
        "BeliefSearch:infoabout=queen",
        "BeliefSearch:infoboards=0",
        "BeliefSearch:quiesce=all",
        "BeliefSearch:deepen=yes",
    ] {
        assert!(
            spec.parse::<PlayerSpec>().unwrap().build().is_err(),
            "{spec}"
        );
    }
    for spec in [
        "BeliefSearch:model=off",
        "BeliefSearch:model=0",
        "BeliefSearch:model=8",
        "BeliefSearch:carry=on",
        "BeliefSearch:carry=search",
        "BeliefSearch:carry=off",
        "BeliefSearch:info=0.5,infoabout=all,infoboards=64",
        "BeliefSearch:infoabout=kq",
        "BeliefSearch:quiesce=captures",
        "BeliefSearch:quiesce=recapture",
        "BeliefSearch:deepen=on",
        "BeliefSearch:deepen=off,time=50,nodes=0",
    ] {
        assert!(
            spec.parse::<PlayerSpec>().unwrap().build().is_ok(),
            "{spec}"
        );
    }
}
