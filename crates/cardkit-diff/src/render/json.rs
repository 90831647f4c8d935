//! The diff as one JSON document, and as JSON Lines.

use std::io::{self, Write};

use serde::Serialize;
use serde_json::{json, Value};

use crate::data::Diff;

/// The diff as one JSON document (the serialization of [`Diff`]).
///
/// # Errors
/// Writing failed.
pub fn json(diff: &Diff, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, diff)?;
    writeln!(out)
}

fn line(out: &mut dyn Write, kind: &str, value: impl Serialize) -> io::Result<()> {
    let mut value = serde_json::to_value(value)?;
    if let Value::Object(members) = &mut value {
        let mut typed = serde_json::Map::new();
        typed.insert("type".into(), json!(kind));
        typed.append(members);
        value = Value::Object(typed);
    }
    serde_json::to_writer(&mut *out, &value)?;
    writeln!(out)
}

/// The diff as JSON Lines: `{"type": "build", "side": "old"|"new", …}`,
/// a `problem` line per document that is invalid or not a set, a `set`
/// line per set that changed (without its records), a `record` line per
/// record (with `set`, its set's code), a `drift` line per field, and a
/// closing `summary` line.
///
/// # Errors
/// Writing failed.
pub fn json_lines(diff: &Diff, out: &mut dyn Write) -> io::Result<()> {
    for (side, build) in [("old", &diff.old), ("new", &diff.new)] {
        let mut value = serde_json::to_value(build)?;
        value["side"] = json!(side);
        line(out, "build", value)?;
    }
    for problem in &diff.problems {
        line(out, "problem", problem)?;
    }
    for set in &diff.sets {
        let mut value = serde_json::to_value(set)?;
        if let Value::Object(members) = &mut value {
            members.remove("changes");
        }
        line(out, "set", value)?;
        for record in &set.changes {
            let mut value = serde_json::to_value(record)?;
            value["set"] = json!(set.code);
            line(out, "record", value)?;
        }
    }
    for drift in &diff.drift {
        line(out, "drift", drift)?;
    }
    line(out, "summary", &diff.summary)
}
