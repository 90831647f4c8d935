//! The diff as text, in the style of the validator: the summary first, then
//! each set that changed, then the drift, then the references the change
//! breaks (or the summary alone, for `--stat`).

use std::io::{self, Write};

use cardkit_run::render::Text;

use crate::data::{BrokenReference, Change, Diff, FieldChange, RecordDiff, SetDiff};
use crate::value::Json;

/// How a set at the root of its file is named: its pointer is empty.
pub const THE_ROOT: &str = "(the root)";

/// The longest value written whole; longer ones are cut (with `…`).
const VALUE_CHARS: usize = 100;

fn value(v: Option<&Json>) -> String {
    shown(v.map(Json::to_string))
}

/// A value's JSON text as shown: cut when long, escaped.
fn shown(text: Option<String>) -> String {
    let Some(text) = text else {
        return "(absent)".to_owned();
    };
    let text = if text.chars().count() > VALUE_CHARS {
        let cut: String = text.chars().take(VALUE_CHARS).collect();
        format!("{cut}…")
    } else {
        text
    };
    Text::escape(&text).into_owned()
}

fn plural(n: usize, word: &str) -> String {
    format!(
        "{} {word}{}",
        count(n as u64),
        if n == 1 { "" } else { "s" }
    )
}

/// The diff as text.
///
/// # Errors
/// Writing failed.
pub fn text(diff: &Diff, out: &mut dyn Write) -> io::Result<()> {
    builds(diff, out)?;
    if !diff.problems.is_empty() {
        writeln!(out)?;
        for p in &diff.problems {
            writeln!(
                out,
                "{} {}: {}",
                Text::escape(&p.path),
                Text::escape(&p.at),
                Text::escape(&p.message)
            )?;
        }
    }
    writeln!(out)?;
    totals(diff, out)?;
    for set in &diff.sets {
        writeln!(out)?;
        write_set(set, out)?;
    }
    if !diff.drift.is_empty() {
        writeln!(out)?;
        write_drift(diff, out)?;
    }
    if let Some(broken) = diff.references.as_ref().filter(|b| !b.is_empty()) {
        writeln!(out)?;
        write_references(broken, out)?;
    }
    Ok(())
}

/// The summary alone, as text: each build, then the totals.
///
/// # Errors
/// Writing failed.
pub fn text_stat(diff: &Diff, out: &mut dyn Write) -> io::Result<()> {
    builds(diff, out)?;
    writeln!(out)?;
    totals(diff, out)
}

/// A line for each build.
fn builds(diff: &Diff, out: &mut dyn Write) -> io::Result<()> {
    for (label, side) in [("old", &diff.old), ("new", &diff.new)] {
        writeln!(
            out,
            "{label}: {} ({}, {}{})",
            Text::escape(&side.path),
            plural(side.sets, "set"),
            plural(side.records, "record"),
            side.date
                .as_ref()
                .map_or(String::new(), |d| format!(", dated {d}"))
        )?;
    }
    Ok(())
}

/// The totals.
fn totals(diff: &Diff, out: &mut dyn Write) -> io::Result<()> {
    let s = &diff.summary;
    writeln!(
        out,
        "sets: {} added, {} removed, {} changed",
        count(s.sets_added as u64),
        count(s.sets_removed as u64),
        count(s.sets_changed as u64)
    )?;
    writeln!(
        out,
        "records: {} added, {} removed, {} changed, {} re-keyed; {} re-identified; {} changed",
        count(s.records_added as u64),
        count(s.records_removed as u64),
        count(s.records_changed as u64),
        count(s.records_rekeyed as u64),
        count(s.records_reidentified as u64),
        plural(s.field_changes, "value"),
    )?;
    writeln!(
        out,
        "numbers: {} written another way (same value, not a change)",
        count(s.numbers_rewritten as u64)
    )?;
    writeln!(out, "drift: {}", plural(s.drift, "field"))?;
    writeln!(out, "migrations: {}", count(s.migrations as u64))?;
    if let (Some(broken), Some(fixed)) = (s.references_broken, s.references_fixed) {
        writeln!(
            out,
            "references: {} broken, {} fixed",
            count(broken as u64),
            count(fixed as u64)
        )?;
    }
    Ok(())
}

/// The references the change breaks: each finding's code and place, then
/// what it is about and what is wrong.
fn write_references(broken: &[BrokenReference], out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "references broken")?;
    for r in broken {
        let place = match &r.file {
            Some(file) => format!("in {} at {}", Text::escape(file), Text::escape(&r.pointer)),
            None => format!("at {}", Text::escape(&r.pointer)),
        };
        let record = r.record.as_ref().map_or(String::new(), |uuid| {
            format!(", record {}", Text::escape(uuid))
        });
        writeln!(
            out,
            "  {} {place} (set {}{record}, {}): {}",
            r.code,
            Text::escape(&r.set),
            Text::escape(&r.field),
            Text::escape(&r.message)
        )?;
    }
    Ok(())
}

fn write_drift(diff: &Diff, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "drift")?;
    for d in &diff.drift {
        let what = match d.kind {
            crate::DriftKind::TypeChanged => {
                format!("{} -> {}", d.old_types.join(", "), d.new_types.join(", "))
            }
            crate::DriftKind::NewValues => d
                .values
                .iter()
                .map(|(v, n)| {
                    let json = serde_json::Value::from(v.as_str()).to_string();
                    format!("{} ({})", shown(Some(json)), count(*n))
                })
                .collect::<Vec<_>>()
                .join(", "),
            _ => d
                .old_types
                .iter()
                .chain(&d.new_types)
                .cloned()
                .collect::<Vec<_>>()
                .join(", "),
        };
        writeln!(
            out,
            "  {} {}: {what}; {}, e.g. {}",
            d.kind.as_str(),
            Text::escape(&d.pattern),
            plural(usize::try_from(d.count).unwrap_or(usize::MAX), "value"),
            Text::escape(&d.example)
        )?;
    }
    Ok(())
}

fn write_set(set: &SetDiff, out: &mut dyn Write) -> io::Result<()> {
    let at = set.new_pointer.as_ref().or(set.old_pointer.as_ref());
    let at = at.map_or("", String::as_str);
    // A build that is a directory names the set's file (in the new build,
    // or the old one for a removed set), then the pointer when the set is
    // not the file's root.
    let place = match set.new_file.as_ref().or(set.old_file.as_ref()) {
        Some(file) if at.is_empty() => format!("in {}", Text::escape(file)),
        Some(file) => format!("in {} at {}", Text::escape(file), Text::escape(at)),
        None if at.is_empty() => format!("at {THE_ROOT}"),
        None => format!("at {}", Text::escape(at)),
    };
    writeln!(
        out,
        "set {}: {} ({}) {place}",
        Text::escape(&set.code),
        set.change.as_str(),
        plural(set.records, "record"),
    )?;
    write_fields(&set.fields, "  ", out)?;
    for record in &set.changes {
        write_record(record, out)?;
    }
    Ok(())
}

fn write_record(r: &RecordDiff, out: &mut dyn Write) -> io::Result<()> {
    let mark = match r.change {
        Change::Added => '+',
        Change::Removed => '-',
        Change::Changed => '~',
        Change::Rekeyed => '>',
    };
    let mut label = String::new();
    if let Some(number) = &r.number {
        label.push_str(&format!(" #{number}"));
    }
    if let Some(name) = &r.name {
        label.push_str(&format!(" {name:?}"));
    }
    let uuid = match &r.old_uuid {
        Some(old) => format!("uuid {old} -> {}", r.uuid),
        None => r.uuid.clone(),
    };
    let at = r.new_pointer.as_ref().or(r.old_pointer.as_ref());
    writeln!(
        out,
        "  {mark} {} {}{}{} at {}",
        r.list,
        Text::escape(&uuid),
        Text::escape(&label),
        if r.reidentified {
            " (re-identified)"
        } else {
            ""
        },
        Text::escape(at.map_or("", String::as_str))
    )?;
    write_fields(&r.fields, "      ", out)
}

fn write_fields(fields: &[FieldChange], indent: &str, out: &mut dyn Write) -> io::Result<()> {
    for f in fields {
        writeln!(
            out,
            "{indent}{}: {} -> {}",
            Text::escape(&f.pointer),
            value(f.old.as_ref()),
            value(f.new.as_ref())
        )?;
    }
    Ok(())
}

/// A number with thousands separators (`12,345`).
#[must_use]
pub fn count(n: impl Into<u64>) -> String {
    let digits = n.into().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}
