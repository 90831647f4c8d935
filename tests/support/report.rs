//! The JSON report of `cardkit validate --format json`: running the command
//! for it, parsing it, and reading its keys and diagnostic codes.

use serde_json::Value;

use super::cardkit;

/// Runs `cardkit validate --format json ARGS…` and parses its output.
pub fn json_report(args: &[&str], stdin: Option<&str>, code: i32) -> Value {
    let mut cmd = cardkit();
    cmd.args(["validate", "--format", "json"]).args(args);
    if let Some(stdin) = stdin {
        cmd.write_stdin(stdin);
    }
    parse(&cmd.assert().code(code).get_output().stdout)
}

pub fn parse(output: &[u8]) -> Value {
    serde_json::from_slice(output).unwrap_or_else(|error| {
        panic!(
            "--format json output is not JSON ({error}):\n{}",
            String::from_utf8_lossy(output)
        )
    })
}

pub fn keys(value: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {value}"))
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}

pub fn codes(document: &Value) -> Vec<&str> {
    document["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| d["code"].as_str().expect("code"))
        .collect()
}
