//! How an export run ends ([`Exporter::end`]): once every input has been
//! read, the run is committed or left behind, in the one order every front
//! end (the `cardkit export` command, Python's `read_tables`) follows; each
//! front end only words the [`Ending`] its own way.

use crate::{Error, Exporter, OnInvalid, Totals};

/// What reading the inputs came to, as the front end's run saw it: the
/// facts [`Exporter::end`] decides on besides the exporter's own.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InputsRead {
    /// Why the run stopped before its end (the target refused rows, the
    /// caller was interrupted), if it did.
    pub stopped: Option<String>,
    /// No input was found in the paths given.
    pub none_found: bool,
    /// How many inputs could not be read to their end.
    pub unreadable: usize,
}

/// How an export run ended. Only [`Ending::Exported`] leaves anything in
/// the target: every other ending has left nothing of the run behind.
#[derive(Debug)]
pub enum Ending {
    /// The run stopped before its end ([`InputsRead::stopped`]): why.
    Aborted(String),
    /// No input was found in the paths given.
    NothingFound,
    /// Inputs could not be read, under [`OnInvalid::Fail`]: how many.
    Unreadable { inputs: usize },
    /// The target refused the rows or could not commit them.
    StoreFailed(Error),
    /// Documents are invalid or cannot be exported, under
    /// [`OnInvalid::Fail`]: how many were left out.
    Invalid { left_out: usize },
    /// Everything was committed: what the run did (boxed: the totals are
    /// many times the size of every other ending).
    Exported(Box<Totals>),
}

impl Exporter {
    /// Ends the run once every input has been read: aborts it when `read`
    /// says it stopped, found no input, or (under [`OnInvalid::Fail`])
    /// could not read one; commits it otherwise, unless a document is
    /// invalid under [`OnInvalid::Fail`]. The checks are made in that
    /// order, so that the first reason is the one told.
    #[must_use]
    pub fn end(mut self, read: InputsRead) -> Ending {
        if let Some(why) = read.stopped {
            self.abort();
            return Ending::Aborted(why);
        }
        if read.none_found {
            self.abort();
            return Ending::NothingFound;
        }
        if read.unreadable > 0 && self.on_invalid() == OnInvalid::Fail {
            self.abort();
            return Ending::Unreadable {
                inputs: read.unreadable,
            };
        }
        match self.finish() {
            Err(error) => Ending::StoreFailed(error),
            Ok(totals) if totals.failed => Ending::Invalid {
                left_out: totals.left_out,
            },
            Ok(totals) => Ending::Exported(Box::new(totals)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arrow::{Collected, Tables};

    /// An exporter into Arrow tables that has read the smallest valid set
    /// and, when `invalid`, a set that is not valid.
    fn read_sets(on_invalid: OnInvalid, invalid: bool) -> (Exporter, Collected) {
        let (store, collected) = Tables::new();
        let mut exporter = Exporter::with_store(Box::new(store), on_invalid, 1);
        let set = serde_json::to_vec(&cardkit::schema::minimal::dummy(cardkit::Kind::Set))
            .expect("a set");
        let options = cardkit::Options::default();
        exporter
            .input("set.json", &set[..], &options, |_| {}, |_| {})
            .expect("the set is read");
        if invalid {
            let broken = br#"{"code": 3, "cards": "none"}"#;
            exporter
                .input("broken.json", &broken[..], &options, |_| {}, |_| {})
                .expect("the broken set is read");
        }
        (exporter, collected)
    }

    #[test]
    fn a_run_read_whole_is_committed() {
        let (exporter, collected) = read_sets(OnInvalid::Fail, false);
        let Ending::Exported(totals) = exporter.end(InputsRead::default()) else {
            panic!("not exported");
        };
        assert_eq!(totals.exported, 1);
        assert!(collected.take().is_some());
    }

    #[test]
    fn the_first_reason_to_stop_is_told_and_nothing_is_committed() {
        let stopped = InputsRead {
            stopped: Some("the target refused rows".into()),
            none_found: true,
            unreadable: 1,
        };
        let (exporter, collected) = read_sets(OnInvalid::Fail, false);
        let ending = exporter.end(stopped);
        assert!(matches!(&ending, Ending::Aborted(why) if why == "the target refused rows"));
        assert!(collected.take().is_none());

        let (exporter, collected) = read_sets(OnInvalid::Fail, false);
        let nothing = InputsRead {
            none_found: true,
            unreadable: 1,
            ..InputsRead::default()
        };
        assert!(matches!(exporter.end(nothing), Ending::NothingFound));
        assert!(collected.take().is_none());
    }

    #[test]
    fn an_unreadable_input_fails_the_run_only_under_fail() {
        let unreadable = || InputsRead {
            unreadable: 2,
            ..InputsRead::default()
        };
        let (exporter, collected) = read_sets(OnInvalid::Fail, false);
        assert!(matches!(
            exporter.end(unreadable()),
            Ending::Unreadable { inputs: 2 }
        ));
        assert!(collected.take().is_none());

        let (exporter, _) = read_sets(OnInvalid::Skip, false);
        assert!(matches!(exporter.end(unreadable()), Ending::Exported(_)));
    }

    #[test]
    fn an_invalid_document_fails_the_run_only_under_fail() {
        let (exporter, collected) = read_sets(OnInvalid::Fail, true);
        assert!(matches!(
            exporter.end(InputsRead::default()),
            Ending::Invalid { left_out: 1 }
        ));
        assert!(collected.take().is_none());

        let (exporter, _) = read_sets(OnInvalid::Skip, true);
        let Ending::Exported(totals) = exporter.end(InputsRead::default()) else {
            panic!("not exported");
        };
        assert_eq!((totals.exported, totals.left_out), (1, 1));
    }
}
