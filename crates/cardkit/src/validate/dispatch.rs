//! Validation dispatched in one place: one input is read as JSON Lines or as
//! one value, on this thread or on several. The readers below it
//! (`stream`, `parallel`) never choose among themselves.

use std::io;

use crate::diagnostic::Detail;
use cardkit_json::{Syntax, BOM};

use super::container::{container, diagnostic, Outside};
use super::documents::Stop;
use super::options::Options;
use super::parallel;
use super::part::Sink;
use super::source::Source;
use super::stream::{for_each_line, validate_line, Sequential};
use crate::report::Layout;

/// Validates every document of `src`.
pub(crate) fn validate_source(
    src: &mut Source<'_>,
    options: &Options,
    jobs: usize,
    mut sink: Sink<'_>,
) -> io::Result<Layout> {
    // Lines that come over time are taken as they come; otherwise the first
    // MiB is read to tell the layout whatever the order of the root's members.
    let first = if options.json_lines && src.buffering.eager_lines {
        BOM.len()
    } else {
        src.buffering.retain.max(BOM.len())
    };
    src.fill_to(first)?;
    let start = if src.bytes().starts_with(BOM) {
        src.base + BOM.len()
    } else {
        src.base
    };
    if options.json_lines {
        lines(src, start, options, jobs, sink)?;
        return Ok(Layout::Array);
    }
    if jobs > 1 && !src.small(start) {
        return parallel::validate(src, start, options, jobs, sink);
    }
    let mut documents = Sequential {
        options,
        line: None,
        sink: sink.reborrow(),
    };
    let (layout, outside, outcome) = container(src, start, options, &mut documents);
    if let Some(report) = outside.into_report() {
        documents.sink.outside(report);
    }
    match outcome {
        Err(Stop::Io(error)) => Err(error),
        _ => Ok(layout),
    }
}

/// Validates each line of JSON Lines as its own value, on `jobs` threads.
fn lines(
    src: &mut Source<'_>,
    start: usize,
    options: &Options,
    jobs: usize,
    mut sink: Sink<'_>,
) -> io::Result<()> {
    // Batches for other threads would hold lines back from their reports.
    let any = if jobs > 1 && !src.buffering.eager_lines && !src.small(start) {
        parallel::lines(src, start, options, jobs, sink.reborrow())?
    } else {
        let mut any = false;
        for_each_line(src, start, &mut |line, at, number| {
            any = true;
            validate_line(line, at, number, options, sink.reborrow());
        })?;
        any
    };
    if !any {
        let at = src.end();
        let detail = Detail::Syntax(Syntax::EmptyInput);
        // An empty input is `invalid_json`, which no configuration ignores.
        let mut diagnostics = vec![diagnostic(options, detail, at, String::new())];
        src.locate(&mut diagnostics)?;
        let outside = Outside::of(diagnostics);
        if let Some(report) = outside.into_report() {
            sink.outside(report);
        }
    }
    Ok(())
}
