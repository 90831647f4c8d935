//! The parse floor of the benchmarks: reads a file and parses it with
//! `serde_json` into `IgnoredAny`, which checks that it is well-formed JSON
//! and nothing else. No validator can be faster than this on one thread.
//!
//! ```sh
//! cargo run --release -p cardkit --example parse_floor -- catalog.json
//! ```

use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::args_os().nth(1) else {
        eprintln!("usage: parse_floor FILE");
        return ExitCode::from(2);
    };
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(error) => {
            eprintln!("parse_floor: {}: {error}", path.to_string_lossy());
            return ExitCode::from(2);
        }
    };
    match serde_json::from_slice::<serde::de::IgnoredAny>(&bytes) {
        Ok(_) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("parse_floor: {error}");
            ExitCode::FAILURE
        }
    }
}
