//! What checking the references adds to a diff (`bench/diff.sh`): diffs
//! two builds once, with the references checked or not, on JOBS threads
//! (invalid documents diffed as far as they parse), and prints the seconds
//! it took and what it found.
//!
//! ```sh
//! diff_references OLD NEW on|off [JOBS]
//! ```

use std::time::Instant;

use cardkit_diff::{diff, DiffOptions};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, old, new, mode, rest @ ..] = args.as_slice() else {
        eprintln!("usage: diff_references OLD NEW on|off [JOBS]");
        std::process::exit(2);
    };
    let options = DiffOptions {
        jobs: rest.first().and_then(|j| j.parse().ok()).unwrap_or(2),
        references: mode == "on",
        on_invalid: cardkit_diff::OnInvalid::Keep,
        ..DiffOptions::default()
    };
    let started = Instant::now();
    match diff(old.as_ref(), new.as_ref(), &options) {
        Ok(d) => println!(
            "{:.2} s; {} documents invalid or not sets; {} records added, removed, changed or re-keyed; references: {:?} broken, {:?} fixed",
            started.elapsed().as_secs_f64(),
            d.problems.len(),
            d.summary.records_added
                + d.summary.records_removed
                + d.summary.records_changed
                + d.summary.records_rekeyed,
            d.summary.references_broken,
            d.summary.references_fixed
        ),
        Err(error) => {
            eprintln!("diff_references: {error}");
            std::process::exit(2);
        }
    }
}
