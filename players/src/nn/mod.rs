//! The neural-network player's data: how an observation becomes network input
//! ([`encode`]), the training examples ([`dataset`]), and the network itself
//! ([`network`], inference in plain Rust from a `.safetensors` file), and the thesis's
//! own network converted from its `nn.txt` ([`thesis`]).
//!
//! ## Encoding (the thesis's 14 x 64 planes, optionally twice)
//! Everything is from the mover's point of view: squares are flipped top to bottom for
//! Black (`sq ^ 56`), so the mover always plays "up". Each square holds one of 14 plane
//! codes ([`encode::FOG`], [`encode::EMPTY`], own pawn..king = 2..7, enemy pawn..king =
//! 8..13). Input feature `plane * 64 + square` is 1.0 for the code on that square and
//! 0.0 otherwise: 896 inputs. With the `previous` input switched on, the view right after
//! the mover's previous move follows as another 896 inputs (all fog before its first
//! move): 1792 inputs.
//!
//! ## Output
//! 128 logits: 64 for the origin square, then 64 for the destination square (mover's
//! point of view). A move's score is log_softmax(from)\[f\] + log_softmax(to)\[t\]; a
//! promotion is always to the piece the rules give first (queen). The thesis's own
//! network (a sigmoid network, [`network::Activation`]) gives 128 values in (0, 1)
//! instead, and a move scores their product.

pub mod accuracy;
pub mod dataset;
pub mod encode;
pub mod network;
pub mod thesis;

pub use network::{Activation, Activations, Architecture, Network, NetworkError};
