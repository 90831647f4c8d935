//! The exit status of a run, as every command documents it.

use cardkit::report::Summary;

/// How a run ended, from best to worst: its exit status is [`code`]. The
/// three mean the same on every command, as for `grep` and `diff`.
///
/// [`code`]: ExitStatus::code
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ExitStatus {
    /// 0: the command's answer is yes: every document checked is valid
    /// (and every input was read), the builds are the same, layers were
    /// found, every asset is there.
    Success,
    /// 1: the command's answer is no: a document is invalid or left out,
    /// the builds differ, no layer matches, an asset is missing.
    Failure,
    /// 2: the command could not answer: a usage error, an input that could
    /// not be read, a target that failed, or nothing checked at all.
    Error,
}

impl ExitStatus {
    /// The status of a run's summary: [`ExitStatus::Error`] when a path
    /// could not be read, [`ExitStatus::Failure`] when a document is
    /// invalid, [`ExitStatus::Success`] otherwise.
    #[must_use]
    pub fn of(summary: &Summary) -> Self {
        if summary.unreadable > 0 {
            ExitStatus::Error
        } else if summary.invalid > 0 {
            ExitStatus::Failure
        } else {
            ExitStatus::Success
        }
    }

    /// The worse of two.
    #[must_use]
    pub fn and(self, other: ExitStatus) -> Self {
        self.max(other)
    }

    /// The process's exit status: 0, 1 or 2.
    #[must_use]
    pub fn code(self) -> u8 {
        match self {
            ExitStatus::Success => 0,
            ExitStatus::Failure => 1,
            ExitStatus::Error => 2,
        }
    }
}

impl From<ExitStatus> for std::process::ExitCode {
    fn from(status: ExitStatus) -> Self {
        std::process::ExitCode::from(status.code())
    }
}
