//! The cap on how many results a CI format writes (`--max-results`): GitHub
//! code scanning refuses a SARIF run of more than 25,000 results, and
//! GitHub shows only the first few annotations of a job.
//!
//! The results kept are the first in report order, except that an error is
//! never left out while a warning is kept: when the cap is reached, a later
//! error takes the place of the last warning kept. Since a warning can be
//! displaced until the run ends, everything from the first warning on is
//! held back (at most the cap's results, and the text between them) and
//! written at the end, in report order; errors before any warning are
//! written as they come.

use std::io::{self, Write};

use cardkit::diagnostic::Severity;

/// How many results were left out by the cap, by severity.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LeftOut {
    /// Errors left out.
    pub errors: usize,
    /// Warnings left out.
    pub warnings: usize,
}

impl LeftOut {
    /// Results left out in all.
    #[must_use]
    pub fn total(&self) -> usize {
        self.errors + self.warnings
    }
}

/// Output held back while a warning in it may yet be displaced.
#[derive(Debug)]
enum Held {
    /// A result; `None` once an error displaced it.
    Result(Option<Vec<u8>>),
    /// Output that is not a result (a file's group, a note): always written.
    Text(Vec<u8>),
}

/// Results counted against a cap, and the output between them.
#[derive(Debug, Default)]
pub(crate) struct Cap {
    /// The most results written; `None`: every result.
    limit: Option<usize>,
    /// Written between two results (`,` in a JSON array).
    separator: &'static [u8],
    written: usize,
    held: Vec<Held>,
    /// Where the warnings still held are in `held`, in report order.
    held_warnings: Vec<usize>,
    held_results: usize,
    left_out: LeftOut,
}

impl Cap {
    /// A cap of `limit` results (`None`: no cap), with `separator` written
    /// between two results.
    pub(crate) fn new(limit: Option<usize>, separator: &'static [u8]) -> Self {
        Cap {
            limit,
            separator,
            ..Cap::default()
        }
    }

    /// The cap, if there is one.
    pub(crate) fn limit(&self) -> Option<usize> {
        self.limit
    }

    /// What the cap left out (complete once the run has ended).
    pub(crate) fn left_out(&self) -> LeftOut {
        self.left_out
    }

    /// Offers one result of `severity`: written, held back or left out.
    pub(crate) fn result(
        &mut self,
        out: &mut dyn Write,
        severity: Severity,
        bytes: Vec<u8>,
    ) -> io::Result<()> {
        let Some(limit) = self.limit else {
            return self.write_result(out, &bytes);
        };
        if self.written + self.held_results < limit {
            if self.held.is_empty() && severity == Severity::Error {
                return self.write_result(out, &bytes);
            }
            if severity == Severity::Warning {
                self.held_warnings.push(self.held.len());
            }
            self.held.push(Held::Result(Some(bytes)));
            self.held_results += 1;
            return Ok(());
        }
        match severity {
            Severity::Error => match self.held_warnings.pop() {
                Some(displaced) => {
                    self.held[displaced] = Held::Result(None);
                    self.left_out.warnings += 1;
                    self.held.push(Held::Result(Some(bytes)));
                }
                None => self.left_out.errors += 1,
            },
            Severity::Warning => self.left_out.warnings += 1,
        }
        Ok(())
    }

    /// Writes output that is not a result, after the results before it.
    pub(crate) fn text(&mut self, out: &mut dyn Write, bytes: &[u8]) -> io::Result<()> {
        match self.held.last_mut() {
            None => out.write_all(bytes),
            Some(Held::Text(text)) => {
                text.extend_from_slice(bytes);
                Ok(())
            }
            Some(Held::Result(_)) => {
                self.held.push(Held::Text(bytes.to_vec()));
                Ok(())
            }
        }
    }

    /// `out`, through which text is written in its place among the results.
    pub(crate) fn through<'a>(&'a mut self, out: &'a mut dyn Write) -> Through<'a> {
        Through { cap: self, out }
    }

    /// Writes what was held back: the run has ended, so no result held can
    /// be displaced any more.
    pub(crate) fn release(&mut self, out: &mut dyn Write) -> io::Result<()> {
        for held in std::mem::take(&mut self.held) {
            match held {
                Held::Result(Some(bytes)) => self.write_result(out, &bytes)?,
                Held::Result(None) => {}
                Held::Text(text) => out.write_all(&text)?,
            }
        }
        self.held_warnings.clear();
        self.held_results = 0;
        Ok(())
    }

    fn write_result(&mut self, out: &mut dyn Write, bytes: &[u8]) -> io::Result<()> {
        if self.written > 0 {
            out.write_all(self.separator)?;
        }
        self.written += 1;
        out.write_all(bytes)
    }
}

/// A writer of text among a cap's results (see [`Cap::text`]).
pub(crate) struct Through<'a> {
    cap: &'a mut Cap,
    out: &'a mut dyn Write,
}

impl Write for Through<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.cap.text(self.out, buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Severity::{Error as E, Warning as W};

    /// What a cap of `limit` writes of `results` (a letter for the
    /// severity and a number for the place), with a `|` written between
    /// the third and the fourth result as text.
    fn capped(limit: Option<usize>, results: &[Severity]) -> (String, LeftOut) {
        let mut cap = Cap::new(limit, b" ");
        let mut out = Vec::new();
        for (at, &severity) in results.iter().enumerate() {
            if at == 3 {
                write!(cap.through(&mut out), "|").unwrap();
            }
            let name = match severity {
                E => format!("e{at}"),
                W => format!("w{at}"),
            };
            cap.result(&mut out, severity, name.into_bytes()).unwrap();
        }
        cap.release(&mut out).unwrap();
        (String::from_utf8(out).unwrap(), cap.left_out())
    }

    #[test]
    fn keeps_the_first_results_in_report_order() {
        let (out, left_out) = capped(Some(3), &[W, E, W, W, E]);
        // The error after the cap takes the last warning's place.
        assert_eq!(out, "w0 e1| e4");
        assert_eq!(
            left_out,
            LeftOut {
                errors: 0,
                warnings: 2
            }
        );
    }

    #[test]
    fn errors_displace_every_warning_before_one_is_left_out() {
        let (out, left_out) = capped(Some(2), &[W, W, E, E, E]);
        assert_eq!(out, "e2| e3");
        assert_eq!(left_out.errors, 1);
        assert_eq!(left_out.warnings, 2);
    }

    #[test]
    fn no_cap_and_a_cap_not_reached_write_everything() {
        let results = [W, E, W, W, E, W];
        let (all, none_left) = capped(None, &results);
        assert_eq!(all, "w0 e1 w2| w3 e4 w5");
        assert_eq!(none_left.total(), 0);
        assert_eq!(capped(Some(6), &results), (all, none_left));
    }

    #[test]
    fn errors_before_any_warning_are_written_at_once() {
        let mut cap = Cap::new(Some(2), b",");
        let mut out = Vec::new();
        cap.result(&mut out, E, b"a".to_vec()).unwrap();
        assert_eq!(out, b"a");
        cap.result(&mut out, W, b"b".to_vec()).unwrap();
        write!(cap.through(&mut out), "|").unwrap();
        assert_eq!(out, b"a", "a warning and what follows it wait");
        cap.release(&mut out).unwrap();
        assert_eq!(out, b"a,b|");
    }
}
