//! [`Eval`]: which static evaluation a search uses, the thesis's ([`super::evaluate`]),
//! the tapered one ([`super::tapered`]) or the learned one ([`super::learned`]).

/// Which static evaluation a [`crate::search::SearchBoard`] keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Eval {
    /// The thesis's piece values ([`super::evaluate::material`]), what every thesis bot
    /// searches with.
    #[default]
    Thesis,
    /// The thesis's piece values plus positional terms, tapered from middle game to
    /// endgame ([`crate::search::tapered`]).
    Tapered,
    /// A tapered evaluation whose piece values by square were fitted to game results
    /// ([`crate::search::learned`]).
    Learned,
}

impl std::str::FromStr for Eval {
    type Err = String;

    /// `thesis`, `tapered` or `learned`.
    fn from_str(s: &str) -> Result<Eval, String> {
        match s {
            "thesis" => Ok(Eval::Thesis),
            "tapered" => Ok(Eval::Tapered),
            "learned" => Ok(Eval::Learned),
            _ => Err(format!(
                "unknown evaluation {s:?} (thesis, tapered, learned)"
            )),
        }
    }
}

impl std::fmt::Display for Eval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Eval::Thesis => "thesis",
            Eval::Tapered => "tapered",
            Eval::Learned => "learned",
        })
    }
}
