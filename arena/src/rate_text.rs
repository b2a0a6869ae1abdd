//! [`rate_text`]: how fast games go, as a progress bar shows it.

/// A progress bar's rate of games, rounded to what a reader can take in: "84 games/s",
/// "8.4 games/s", or for games slower than one a second "12.5 s/game"; "- games/s"
/// before there is a rate.
pub fn rate_text(per_sec: f64) -> String {
    if !per_sec.is_finite() || per_sec <= 0.0 {
        "- games/s".to_string()
    } else if per_sec >= 99.95 {
        format!("{per_sec:.0} games/s")
    } else if per_sec >= 0.995 {
        format!("{per_sec:.1} games/s")
    } else {
        format!("{:.1} s/game", 1.0 / per_sec)
    }
}

#[cfg(test)]
mod tests {
    use super::rate_text;

    #[test]
    fn rates_are_rounded_with_their_unit() {
        assert_eq!(rate_text(8.4138), "8.4 games/s");
        assert_eq!(rate_text(84.138), "84.1 games/s");
        assert_eq!(rate_text(841.38), "841 games/s");
        assert_eq!(rate_text(99.96), "100 games/s");
        assert_eq!(rate_text(1.0), "1.0 games/s");
        assert_eq!(rate_text(0.08), "12.5 s/game");
        assert_eq!(rate_text(0.0), "- games/s");
        assert_eq!(rate_text(f64::NAN), "- games/s");
    }
}
