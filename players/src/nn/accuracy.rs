//! How often a network's first choice is the move played: top-1 (and top-3) accuracy over
//! the legal moves of dataset examples, in plain Rust.

use fow_variants::RuleSet;

use super::dataset::Example;
use super::encode::active_inputs;
use super::network::{Activations, Network};

/// Accuracy of a network on a set of examples.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Accuracy {
    /// Examples scored.
    pub examples: u64,
    /// Examples whose played move scored best among the legal moves.
    pub top1: u64,
    /// Examples whose played move was among the three best.
    pub top3: u64,
    /// Sum of the legal-move counts (for the random baseline).
    pub legal: u64,
    /// Sum over examples of 1 / legal-move count: the expected top-1 of a random mover.
    pub random_top1: f64,
}

impl Accuracy {
    /// Top-1 accuracy in [0, 1].
    pub fn top1_rate(&self) -> f64 {
        self.top1 as f64 / self.examples.max(1) as f64
    }

    /// Top-3 accuracy in [0, 1].
    pub fn top3_rate(&self) -> f64 {
        self.top3 as f64 / self.examples.max(1) as f64
    }

    /// A uniformly random mover's expected top-1 accuracy.
    pub fn random_rate(&self) -> f64 {
        self.random_top1 / self.examples.max(1) as f64
    }
}

/// Scores every example's legal moves with `net` ([`Network::move_score`]: for a ReLU
/// network its from logit plus its to logit, which ranks moves as
/// log_softmax(from) + log_softmax(to) does; for a sigmoid network the thesis's product) and
/// counts how often the played move ranks first (ties count against it) and in the top
/// three.
pub fn evaluate(net: &Network, examples: &[Example], rules: &RuleSet) -> Accuracy {
    let mut acc = Accuracy::default();
    let mut act = Activations::default();
    let mut active = Vec::with_capacity(128);
    let previous = net.architecture().previous;
    for e in examples {
        active_inputs(&e.now, previous.then_some(&e.prev), &mut active);
        let out = net.forward(&active, &mut act);
        let pairs = e.legal_pairs(rules);
        if pairs.is_empty() {
            continue;
        }
        let score = |(f, t): (u8, u8)| net.move_score(out, f as usize, t as usize);
        let played = score((e.from, e.to));
        let better = pairs
            .iter()
            .filter(|&&p| p != (e.from, e.to) && score(p) >= played)
            .count();
        acc.examples += 1;
        acc.legal += pairs.len() as u64;
        acc.random_top1 += 1.0 / pairs.len() as f64;
        if better == 0 {
            acc.top1 += 1;
        }
        if better < 3 {
            acc.top3 += 1;
        }
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::dataset::game_examples;
    use crate::nn::network::Architecture;
    use fow_variants::{Color, Position};

    #[test]
    fn a_network_that_prefers_the_played_squares_scores_them_first() {
        let rules = RuleSet::thesis();
        let pos = Position::startpos();
        let m = pos.parse_uci("g1f3", &rules).unwrap();
        let ex = game_examples(&pos, &[m], &rules, Some(Color::White), |_| true).unwrap();
        // No hidden layer: logits = bias; bias favours g1 -> f3.
        let arch = Architecture {
            inputs: 896,
            previous: false,
            hidden: vec![],
            outputs: 128,
            activation: Default::default(),
        };
        let mut bias = vec![0.0f32; 128];
        bias[6] = 5.0; // g1
        bias[64 + 21] = 5.0; // f3
        let net = Network::from_layers(arch.clone(), vec![(vec![0.0; 896 * 128], bias)]).unwrap();
        let a = evaluate(&net, &ex, &rules);
        assert_eq!((a.examples, a.top1, a.top3, a.legal), (1, 1, 1, 20));
        assert!((a.random_rate() - 0.05).abs() < 1e-12);
        // A flat network ties everything: the played move is not strictly first.
        let flat =
            Network::from_layers(arch, vec![(vec![0.0; 896 * 128], vec![0.0; 128])]).unwrap();
        assert_eq!(evaluate(&flat, &ex, &rules).top1, 0);
    }
}
