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

/// Each bot's parameters are declared once, beside it (`PARAMS`), with their defaults:
/// every default, written in a spec as `fow players` shows it, reads back as the
/// settings' default, and every searcher takes depth, nodes and time.
#[test]
fn declared_defaults_written_in_a_spec_give_the_default_settings() {
    let spec_of = |name: &str| -> PlayerSpec {
        let info = find(name).unwrap();
        let params: Vec<String> = info
            .params
            .iter()
            .map(|p| format!("{}={}", p.name, p.default_text()))
            .collect();
        match params.is_empty() {
            true => name.parse().unwrap(),
            false => format!("{name}:{}", params.join(",")).parse().unwrap(),
        }
    };
    assert_eq!(
        BoardListSettings::from_spec(&spec_of("PossibleBoardList")).unwrap(),
        BoardListSettings::default()
    );
    assert_eq!(
        BeliefSearchSettings::from_spec(&spec_of("BeliefSearch")).unwrap(),
        BeliefSearchSettings::default()
    );
    // The shipped defaults themselves (what the strength results were measured with).
    let d = BeliefSearchSettings::default();
    assert_eq!((d.thinking.depth, d.thinking.nodes), (2, Some(1_500_000)));
    assert_eq!(
        (d.cap, d.sample, d.guesses, d.keep),
        (20_000, 48, 64, 20_000)
    );
    assert_eq!(
        (d.mean, d.king, d.risk, d.repeat, d.model),
        (0.5, 40.0, 40.0, 0.5, Some(2.0))
    );
    assert!(d.capture_quiescence && !d.deepen);
    let d = BoardListSettings::default();
    assert_eq!((d.thinking.depth, d.thinking.nodes), (2, Some(150_000)));
    assert_eq!((d.cap, d.sample, d.guesses), (20_000, 48, 64));
    for bot in registry() {
        let spec = spec_of(bot.name);
        if bot
            .params
            .iter()
            .all(|p| !p.default_text().starts_with('('))
        {
            assert!(spec.build().is_ok(), "{spec}");
        }
    }
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
