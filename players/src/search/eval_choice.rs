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

impl Eval {
    /// Every evaluation, in the order of [`Eval::NAMES`].
    pub const ALL: [Eval; 3] = [Eval::Thesis, Eval::Tapered, Eval::Learned];
    /// Their names in specs (`eval=...`), in the order of [`Eval::ALL`].
    pub const NAMES: [&'static str; 3] = ["thesis", "tapered", "learned"];
}

impl std::str::FromStr for Eval {
    type Err = String;

    /// `thesis`, `tapered` or `learned`.
    fn from_str(s: &str) -> Result<Eval, String> {
        Eval::NAMES
            .iter()
            .position(|n| *n == s)
            .map(|i| Eval::ALL[i])
            .ok_or_else(|| format!("unknown evaluation {s:?} ({})", Eval::NAMES.join(", ")))
    }
}

impl std::fmt::Display for Eval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(Eval::NAMES[*self as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_evaluation_reads_back_from_its_name() {
        for (i, e) in Eval::ALL.iter().enumerate() {
            assert_eq!(*e as usize, i, "ALL is in declaration order");
            assert_eq!(e.to_string().parse::<Eval>(), Ok(*e));
        }
        let e = "material".parse::<Eval>().unwrap_err();
        assert!(e.contains("thesis, tapered, learned"), "{e}");
    }
}
