//! The progress bar on standard error, when it is a terminal.

use std::cell::RefCell;
use std::io::{self, IsTerminal};

use cardkit::report::Summary;
use cardkit_run::render::words::plural;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Inputs at least this large get a progress bar (on a terminal).
const LARGE: u64 = 32 << 20;

/// A progress bar per input large enough (or of unknown size), shown on
/// standard error when it is a terminal and the run is not quiet.
pub struct Bar {
    shown: bool,
    bar: RefCell<Option<ProgressBar>>,
}

impl Bar {
    pub fn new(quiet: bool) -> Self {
        Bar {
            shown: !quiet && io::stderr().is_terminal(),
            bar: RefCell::new(None),
        }
    }
}

impl cardkit_run::Progress for Bar {
    fn start(&self, size: Option<u64>) {
        let large = size.is_none_or(|size| size >= LARGE);
        if !self.shown || !large {
            return;
        }
        // Sizes in MB (10^6 bytes), as the summary gives them.
        let template = if size.is_some() {
            "{bar:30} {decimal_bytes}/{decimal_total_bytes} {decimal_bytes_per_sec} {msg}"
        } else {
            "{spinner} {decimal_bytes} {decimal_bytes_per_sec} {msg}"
        };
        let style =
            ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar());
        let bar =
            ProgressBar::with_draw_target(size, ProgressDrawTarget::stderr()).with_style(style);
        *self.bar.borrow_mut() = Some(bar);
    }

    fn read(&self, bytes: u64) {
        if let Some(bar) = &*self.bar.borrow() {
            bar.inc(bytes);
        }
    }

    fn document(&self, _: &cardkit::DocumentReport, summary: &Summary) {
        if let Some(bar) = &*self.bar.borrow() {
            bar.set_message(format!(
                "{}, {}",
                plural(summary.documents, "document"),
                plural(summary.error_count(), "error"),
            ));
        }
    }

    fn done(&self) {
        if let Some(bar) = self.bar.borrow_mut().take() {
            bar.finish_and_clear();
        }
    }
}
