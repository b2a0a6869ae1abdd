//! Prints the thesis tables and the MLE-versus-thesis comparison.
use fow_ratings::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/thesis/");
    let table2 = std::fs::read_to_string(format!("{dir}table2.csv"))?;
    let names = table2
        .lines()
        .skip(1)
        .filter_map(|l| l.split(',').nth(1).map(String::from))
        .collect();
    let text = std::fs::read_to_string(format!("{dir}match_results.txt"))?;
    let m = parse_match_matrix(&text, Some(names))?;
    let anchor = Anchor::random_move_or_first(&m);
    let thesis = thesis_elo(&m, anchor, &ThesisOptions::default())?;
    let mle = mle_elo(&m, anchor, &MleOptions::default())?;
    print!("{}", crosstable_text(&m));
    println!();
    let input = SummaryInput {
        thesis: Some(&thesis),
        mle: Some(&mle),
        ..SummaryInput::new(&m)
    };
    print!("{}", summary_text(&input)?);
    println!(
        "thesis: {} iterations, converged {}; MLE: {} iterations, draw rate {}, log-likelihood {}",
        thesis.iterations, thesis.converged, mle.iterations, mle.draw_rate, mle.log_likelihood
    );
    for i in 0..m.len() {
        println!(
            "{:<30} thesis {:>14.8} mle {:>14.8} diff {:+.2e} se {:.3}",
            m.names()[i],
            thesis.ratings[i],
            mle.ratings[i],
            mle.ratings[i] - thesis.ratings[i],
            mle.std_errors[i]
        );
    }
    Ok(())
}
