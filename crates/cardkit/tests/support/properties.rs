//! What the property tests (`properties_*.rs`) share: their configuration,
//! the text of a report's diagnostics, and the line and column of an offset.
//!
//! The runs are deterministic (fixed seed). Longer runs, by hand:
//!
//! ```sh
//! CARDKIT_PROPTEST_CASES=20000 cargo test --release -p cardkit --test 'properties_*'
//! CARDKIT_PROPTEST_SEED=7 cargo test -p cardkit --test 'properties_*'   # another seed
//! ```

use cardkit::validate::FileReport;
use proptest::test_runner::{Config, FileFailurePersistence, RngSeed};

// ---------------------------------------------------------------------------
// Configuration

/// `default` cases unless `CARDKIT_PROPTEST_CASES` says otherwise (scaled by
/// `scale`), from a fixed seed unless `CARDKIT_PROPTEST_SEED` says otherwise.
pub fn config(default: u32, scale: u32) -> Config {
    let cases = std::env::var("CARDKIT_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse::<u32>().ok())
        .map_or(default, |n| (n / scale).max(1));
    let seed = std::env::var("CARDKIT_PROPTEST_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x00CA_4DC1_7EB1);
    Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        max_shrink_iters: 4096,
        ..Config::default()
    }
}

pub fn errors_text(report: &FileReport) -> String {
    let mut out = String::new();
    for doc in &report.documents {
        for d in &doc.diagnostics {
            out.push_str(&format!(
                "{} {} {:?} {:?} @{} {}:{}: {}\n",
                d.severity.as_str(),
                d.code,
                d.pointer,
                d.field,
                d.offset,
                d.line,
                d.column,
                d.message()
            ));
        }
    }
    out
}

/// 1-based line and column (in characters) of a byte offset.
/// The 1-based line and column of `offset`; columns count characters, that
/// is the bytes that do not continue a UTF-8 sequence.
pub fn line_column(text: impl AsRef<[u8]>, offset: usize) -> (usize, usize) {
    let before = &text.as_ref()[..offset];
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let column = 1 + before[line_start..]
        .iter()
        .filter(|&&b| b & 0xC0 != 0x80)
        .count();
    // A byte order mark opening the text is no column (editors do not show
    // it).
    let bom = line_start == 0 && before.starts_with("\u{feff}".as_bytes());
    (line, column - usize::from(bom))
}
