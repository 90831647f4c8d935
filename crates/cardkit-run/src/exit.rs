//! The exit status of a run, as every command documents it.

use cardkit::report::Summary;

/// How a run ended, from best to worst: its exit status is [`code`].
///
/// [`code`]: ExitStatus::code
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ExitStatus {
    /// 0: every document checked is valid (and every input was read).
    Valid,
    /// 1: some document is invalid.
    Invalid,
    /// 2: a usage error, an input that could not be read, a target that
    /// failed, or nothing checked at all.
    Failed,
}

impl ExitStatus {
    /// The status of a run's summary: [`ExitStatus::Failed`] when a path
    /// could not be read, [`ExitStatus::Invalid`] when a document is
    /// invalid, [`ExitStatus::Valid`] otherwise.
    #[must_use]
    pub fn of(summary: &Summary) -> Self {
        if summary.unreadable > 0 {
            ExitStatus::Failed
        } else if summary.invalid > 0 {
            ExitStatus::Invalid
        } else {
            ExitStatus::Valid
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
            ExitStatus::Valid => 0,
            ExitStatus::Invalid => 1,
            ExitStatus::Failed => 2,
        }
    }
}

impl From<ExitStatus> for std::process::ExitCode {
    fn from(status: ExitStatus) -> Self {
        std::process::ExitCode::from(status.code())
    }
}
