//! The notices checked, as text (a line per notice, a line per reason
//! under a notice that fails, then the totals) or as one JSON document.

use std::io::{self, Write};

use cardkit_run::render::Text;

use super::{BuildSummary, Checked, Verdict};

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

fn build(side: &str, build: &BuildSummary, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "{side}: {} ({}, {})",
        Text::escape(&build.path),
        plural(build.files, "file"),
        plural(build.sets, "set")
    )
}

/// How a line names a notice: its id and its place, or its place alone
/// when it has no id.
fn named(verdict: &Verdict) -> String {
    let name = if verdict.place.is_empty() || verdict.place == verdict.notice {
        verdict.notice.clone()
    } else {
        format!("{} at {}", verdict.notice, verdict.place)
    };
    Text::escape(&name).into_owned()
}

/// The notices checked as text: each build, then a line per notice
/// (`pass` or `fail`, the notice and where it is, what it says) with a line
/// per reason under one that fails (its code, then why), then the totals.
///
/// # Errors
/// Writing failed.
pub fn text(checked: &Checked, out: &mut dyn Write) -> io::Result<()> {
    build("old", &checked.old, out)?;
    build("new", &checked.new, out)?;
    writeln!(out)?;
    for verdict in &checked.notices {
        let what = match &verdict.new {
            Some(new) => format!("merge {} -> {new}", verdict.old),
            None => format!("delete {}", verdict.old),
        };
        writeln!(out, "{} {}: {what}", verdict.verdict, named(verdict))?;
        for reason in &verdict.reasons {
            // A chain names notices by their place: a file's name.
            let message = reason.message();
            writeln!(out, "  {}: {}", reason.code(), Text::escape(&message))?;
        }
    }
    let s = &checked.summary;
    writeln!(
        out,
        "{}: {} passed, {} failed",
        plural(s.notices, "notice"),
        s.passed,
        s.failed
    )
}

/// The notices checked as one JSON document (the serialization of
/// [`Checked`]).
///
/// # Errors
/// Writing failed.
pub fn json(checked: &Checked, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, checked)?;
    writeln!(out)
}
