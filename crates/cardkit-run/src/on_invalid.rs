//! What a run that writes or compares documents (an export, a diff, Python's
//! tables) does with the ones that are invalid: one choice, worded once for
//! every command and surface.

/// What is done with invalid documents.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum OnInvalid {
    /// Stop: nothing is written or diffed, the diagnostics are printed.
    /// `stop`, the diff's former name for it, is taken too.
    #[default]
    #[cfg_attr(feature = "clap", value(alias = "stop"))]
    Fail,
    /// Leave invalid documents out, and report them.
    Skip,
    /// Use them too, as far as they go: their invalid or missing values
    /// are left empty (NULL in an export).
    Keep,
}

impl OnInvalid {
    /// Each choice, as every surface names it.
    pub const ALL: [OnInvalid; 3] = [OnInvalid::Fail, OnInvalid::Skip, OnInvalid::Keep];

    /// The choice's name: `fail`, `skip` or `keep`.
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            OnInvalid::Fail => "fail",
            OnInvalid::Skip => "skip",
            OnInvalid::Keep => "keep",
        }
    }

    /// The choice a name names (`stop` too, as [`OnInvalid::Fail`]).
    #[must_use]
    pub fn from_word(word: &str) -> Option<OnInvalid> {
        match word {
            "stop" => Some(OnInvalid::Fail),
            _ => Self::ALL.into_iter().find(|choice| choice.word() == word),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::OnInvalid;

    #[test]
    fn each_choice_is_read_back_from_its_word() {
        for choice in OnInvalid::ALL {
            assert_eq!(OnInvalid::from_word(choice.word()), Some(choice));
        }
        assert_eq!(OnInvalid::from_word("stop"), Some(OnInvalid::Fail));
        assert_eq!(OnInvalid::from_word("Fail"), None);
    }
}
