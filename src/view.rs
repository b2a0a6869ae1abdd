//! `fow view`: a position and what each side sees.

use fow_variants::{board_diagram, diagrams_side_by_side, FogView, Position};

use crate::error::{input, CliError};
use crate::rules_args::RulesArgs;

/// Show a position and each side's view: a fog-FEN line and a diagram per side.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The position as FEN (quote it).
    pub fen: String,
    /// ASCII diagrams instead of Unicode pieces.
    #[arg(long)]
    pub ascii: bool,
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// Prints the position and both views side by side.
pub fn run(a: Args) -> Result<(), CliError> {
    let rules = a.rules.rule_set()?;
    let pos = Position::from_fen(&a.fen).map_err(input)?;
    let unicode = !a.ascii;
    let white = FogView::of(&pos, fow_variants::Color::White, &rules);
    let black = FogView::of(&pos, fow_variants::Color::Black, &rules);
    outln!("position: {pos}");
    outln!("rules:    {rules}");
    outln!("white:    {white}");
    outln!("black:    {black}");
    outln!();
    out!(
        "{}",
        diagrams_side_by_side(&[
            ("true board", board_diagram(pos.board(), unicode)),
            ("white sees", white.diagram(unicode)),
            ("black sees", black.diagram(unicode)),
        ])
    );
    Ok(())
}
