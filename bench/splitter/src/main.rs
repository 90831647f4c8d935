//! Where does each set of a catalog end? The parallel validator must know
//! before it hands a set to another thread. This times three ways of finding
//! the ends of the sets of `{"meta": …, "data": {"<CODE>": <set>, …}}`:
//!
//! - `skip_raw`: cardkit's structural skip (brackets and quotes, eight bytes
//!   at a time), one call per set, as `validate/parallel.rs` did;
//! - `skip_indexed`: the same answer from cardkit's structural index (64
//!   bytes at a time, with AVX2 or NEON where the processor has it), as
//!   `validate/parallel.rs` does;
//! - `sonic-rs`: `to_object_iter`, which skips each value with SIMD;
//! - `serde_json`: a map of `RawValue`s, the scalar baseline.
//!
//! Usage: cargo run --release -- CATALOG [ROUNDS]; prints the median MB/s
//! of each over the rounds, and checks that all four find the same ends.
use std::time::Instant;

use cardkit_json::{skip_indexed, skip_raw, Indexer, Scanner};

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: splitter CATALOG [ROUNDS]");
    let rounds: usize = args
        .next()
        .map_or(7, |r| r.parse().expect("ROUNDS is a number"));
    let bytes = std::fs::read(&path).expect("the catalog is readable");
    let data = data_value(&bytes);
    let input = &bytes[data.clone()];

    let expected = by_skip_raw(input);
    assert_eq!(
        by_skip_indexed(input),
        expected,
        "the index finds the same ends"
    );
    assert_eq!(by_sonic(input), expected, "sonic-rs finds the same ends");
    assert_eq!(by_serde(input), expected, "serde_json finds the same ends");
    println!(
        "{} sets in {:.1} MB",
        expected.len(),
        input.len() as f64 / 1e6
    );
    println!("the index's path: {}", Indexer::new().path());

    for (name, split) in [
        ("skip_raw", by_skip_raw as fn(&[u8]) -> Vec<usize>),
        ("skip_indexed", by_skip_indexed),
        ("sonic-rs", by_sonic),
        ("serde_json", by_serde),
    ] {
        let mut rates: Vec<f64> = (0..rounds)
            .map(|_| {
                let start = Instant::now();
                let ends = split(input);
                let seconds = start.elapsed().as_secs_f64();
                assert_eq!(ends.len(), expected.len());
                input.len() as f64 / 1e6 / seconds
            })
            .collect();
        rates.sort_by(f64::total_cmp);
        println!(
            "{name:>12}: {:7.0} MB/s (median of {rounds})",
            rates[rounds / 2]
        );
    }
}

/// The byte range of the root object's `data` value.
fn data_value(bytes: &[u8]) -> std::ops::Range<usize> {
    let member = Scanner::new(bytes, 0)
        .members()
        .find(|m| m.name == "data")
        .expect("the catalog has data");
    let end = skip_raw(bytes, member.value_at).expect("data is whole");
    member.value_at..end
}

/// The offset just after each set, by `skip_raw`, reading member names
/// with the scanner.
fn by_skip_raw(input: &[u8]) -> Vec<usize> {
    by_skip(input, skip_raw)
}

/// The same, by `skip_indexed`.
fn by_skip_indexed(input: &[u8]) -> Vec<usize> {
    by_skip(input, skip_indexed)
}

fn by_skip(input: &[u8], skip: fn(&[u8], usize) -> Result<usize, usize>) -> Vec<usize> {
    let mut ends = Vec::new();
    let mut scan = Scanner::new(input, 0);
    if !scan.open().expect("an object") {
        return ends;
    }
    loop {
        scan.member_name().expect("a member name");
        let end = skip(input, scan.pos).expect("a whole set");
        ends.push(end);
        scan.pos = end;
        if !scan.after_member().expect("`,` or `}`") {
            return ends;
        }
    }
}

fn by_sonic(input: &[u8]) -> Vec<usize> {
    let base = input.as_ptr() as usize;
    sonic_rs::to_object_iter(input)
        .map(|member| {
            let (_, value) = member.expect("well-formed");
            let raw = value.as_raw_str().as_bytes();
            raw.as_ptr() as usize - base + raw.len()
        })
        .collect()
}

fn by_serde(input: &[u8]) -> Vec<usize> {
    let base = input.as_ptr() as usize;
    let map: std::collections::BTreeMap<&str, &serde_json::value::RawValue> =
        serde_json::from_slice(input).expect("well-formed");
    let mut ends: Vec<usize> = map
        .values()
        .map(|raw| {
            let text = raw.get();
            text.as_ptr() as usize - base + text.len()
        })
        .collect();
    ends.sort_unstable();
    ends
}
