//! Writes the JSON that the `structured` and `differential_schema` targets
//! generate from a fuzz input, so that a saved input can be looked at or
//! timed with the CLI: `cargo run --release --example generated -- FILE > doc.json`.
use arbitrary::{Arbitrary, Unstructured};
use cardkit_fuzz::Json;
use std::io::Write;

fn main() {
    let path = std::env::args_os()
        .nth(1)
        .expect("usage: generated FUZZ-INPUT");
    let input = std::fs::read(&path).expect("the fuzz input is readable");
    let json = Json::arbitrary_take_rest(Unstructured::new(&input)).expect("the input generates JSON");
    std::io::stdout()
        .write_all(json.text.as_bytes())
        .expect("stdout is writable");
}
