//! The designs a design file holds, as every design command reads them: a
//! template or card design in the spec's shape as it is; a file of the
//! design tool's own (a template in its older layered layout, the classic
//! save file of several cards) converted in memory by the import's own code
//! ([`crate::import`]), exactly as `cardkit import` converts it, with what
//! was detected and the import's report kept for the command to show.

use std::fmt;
use std::path::Path;

use cardkit::report::FileReport;
use cardkit::{Diagnostic, Severity};

use crate::import::{file_names, import, Format, ImportOptions};
use crate::source::{Design, ReadError};

/// Every design of one file, with how it was read.
#[derive(Debug)]
pub struct Designs {
    /// The designs, in file order: one for a template or card design, one
    /// per converted card of a classic save file.
    pub documents: Vec<Named>,
    /// How the file was converted, when it was not in the spec's shape.
    pub converted: Option<Converted>,
}

/// One design of a file.
#[derive(Debug)]
pub struct Named {
    /// The design.
    pub design: Design,
    /// Its name as `cardkit import -o DIR` names its file, without `.json`
    /// (`myrel-death-taxes`); `""` for a file in the spec's shape.
    pub name: String,
    /// Where it is in the file: `""` for the root, `/3` for the fourth entry
    /// of a classic save file.
    pub pointer: String,
    /// The converted document as `cardkit import` writes it, when the file
    /// was converted: the text the tools that read bytes (the asset
    /// manifest) read instead of the file's.
    pub json: Option<String>,
}

/// How a file of the design tool's own was converted in memory.
#[derive(Debug)]
pub struct Converted {
    /// The format the import read it as.
    pub format: Format,
    /// What the file is, in words: `a template in the design tool's older
    /// layered layout`, `the design tool's classic save file (13 cards)`.
    pub what: String,
    /// The import's report: what could not be carried over, at its pointer
    /// in the file.
    pub report: FileReport,
}

impl Converted {
    /// The one line a command shows for a converted file: what it is, and
    /// that it was converted as `cardkit import` would convert it.
    #[must_use]
    pub fn note(&self, path: &Path) -> String {
        let warnings = self
            .report
            .documents
            .iter()
            .flat_map(|document| &document.diagnostics)
            .filter(|diagnostic| diagnostic.severity == Severity::Warning)
            .count();
        let lost = match warnings {
            0 => String::new(),
            1 => " (1 import warning: --verbose shows it)".to_owned(),
            n => format!(" ({n} import warnings: --verbose shows them)"),
        };
        format!(
            "note: {} is {}; converted in memory as `cardkit import` would{lost}",
            path.display(),
            self.what
        )
    }
}

impl Designs {
    /// Reads `bytes`: a template or card design in the spec's shape as it
    /// is ([`Design::read`]); a template in the older layered layout or a
    /// classic save file converted by [`import`] with its default options.
    ///
    /// # Errors
    /// [`ReadError`]: as [`Design::read`], or [`ReadError::NotConverted`]
    /// when no document of the design tool's file could be converted.
    pub fn read(bytes: &[u8]) -> Result<Designs, ReadError> {
        match Design::read(bytes) {
            Ok(design) => Ok(Designs {
                documents: vec![Named {
                    design,
                    name: String::new(),
                    pointer: String::new(),
                    json: None,
                }],
                converted: None,
            }),
            Err(ReadError::Layered(_)) => Designs::converted(bytes),
            // An array: the classic save file, if the import reads it so.
            Err(error @ ReadError::NotAnObject("an array")) => {
                Designs::converted(bytes).map_err(|other| match other {
                    ReadError::NotConverted(_, None) => error,
                    other => other,
                })
            }
            Err(error) => Err(error),
        }
    }

    fn converted(bytes: &[u8]) -> Result<Designs, ReadError> {
        let imported = import(bytes, &ImportOptions::default());
        let Some(format) = imported.format else {
            return Err(ReadError::NotConverted(
                first_errors(&imported.report),
                None,
            ));
        };
        let names: Vec<&str> = imported
            .documents
            .iter()
            .map(|document| document.name.as_str())
            .collect();
        let names: Vec<String> = file_names(&names)
            .into_iter()
            .map(|name| name.trim_end_matches(".json").to_owned())
            .collect();
        let mut documents = Vec::new();
        for (document, name) in imported.documents.iter().zip(names) {
            let json = document.to_json_pretty();
            let design = Design::read_imported(json.as_bytes())?;
            documents.push(Named {
                design,
                name,
                pointer: document.pointer.clone(),
                json: Some(json),
            });
        }
        if documents.is_empty() {
            return Err(ReadError::NotConverted(
                first_errors(&imported.report),
                Some(format),
            ));
        }
        let what = match format {
            Format::Classic => {
                let cards = imported.report.documents.len();
                format!(
                    "the design tool's classic save file ({cards} card{})",
                    if cards == 1 { "" } else { "s" }
                )
            }
            _ => match documents[0].design {
                Design::Template(_) => {
                    "a template in the design tool's older layered layout".to_owned()
                }
                Design::Card(_) => "a card design of the design tool".to_owned(),
            },
        };
        Ok(Designs {
            documents,
            converted: Some(Converted {
                format,
                what,
                report: imported.report,
            }),
        })
    }

    /// The designs a command takes: every one, or the one `card` names (its
    /// name as `cardkit import -o DIR` names its file, with or without
    /// `.json`, or its pointer in the file, `/3`).
    ///
    /// # Errors
    /// [`Choice`] when `card` names none of them.
    pub fn select(self, card: Option<&str>) -> Result<Vec<Named>, Choice> {
        let Some(card) = card else {
            return Ok(self.documents);
        };
        let wanted = card.trim_end_matches(".json");
        let names = self.names();
        let found = self.documents.into_iter().find(|named| {
            named.pointer == card || (!named.name.is_empty() && named.name == wanted)
        });
        match found {
            Some(named) => Ok(vec![named]),
            None => Err(Choice {
                asked: Some(card.to_owned()),
                names,
            }),
        }
    }

    /// The one design a command takes: the file's only one, or the one
    /// `card` names ([`Designs::select`]).
    ///
    /// # Errors
    /// [`Choice`] when the file holds several and `card` names none, or
    /// `card` names none of them.
    pub fn one(self, card: Option<&str>) -> Result<Named, Choice> {
        if card.is_none() && self.documents.len() > 1 {
            return Err(Choice {
                asked: None,
                names: self.names(),
            });
        }
        let mut chosen = self.select(card)?;
        Ok(chosen.remove(0))
    }

    fn names(&self) -> Vec<String> {
        self.documents
            .iter()
            .map(|named| named.name.clone())
            .filter(|name| !name.is_empty())
            .collect()
    }
}

/// A file of several designs where one is wanted, or a `--card` that names
/// none of them: the names there are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// The name asked for, if one was.
    pub asked: Option<String>,
    /// The names of the file's designs, as `cardkit import -o DIR` names
    /// their files.
    pub names: Vec<String>,
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.asked {
            Some(asked) if self.names.is_empty() => {
                write!(f, "--card {asked}: the file holds one design, not several")
            }
            Some(asked) => write!(
                f,
                "--card {asked} names none of the file's designs: {}",
                self.names.join(", ")
            ),
            None => write!(
                f,
                "the file holds {} designs: name one with --card NAME ({}), the names \
                 `cardkit import -o DIR` gives their files",
                self.names.len(),
                self.names.join(", ")
            ),
        }
    }
}

impl std::error::Error for Choice {}

/// The errors of a report, one a line, for a file nothing was converted of.
fn first_errors(report: &FileReport) -> Vec<String> {
    report
        .documents
        .iter()
        .flat_map(|document| &document.diagnostics)
        .filter(|diagnostic| diagnostic.severity == Severity::Error)
        .map(|diagnostic: &Diagnostic| {
            format!(
                "{} at {:?}: {}",
                diagnostic.code,
                diagnostic.pointer_shown(),
                diagnostic.message()
            )
        })
        .collect()
}
