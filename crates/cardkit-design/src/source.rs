//! A design file read for the tools: a template or a card design in the
//! spec's shape, told apart by its members, validated and read into the
//! library's models.

use std::fmt;

use cardkit::model::{Card, Template};
use cardkit::report::Layout;
use cardkit::{Diagnostic, Document, Options, ParseError, Severity};
use cardkit_json::{Scanner, BOM};

use crate::layers::{LayerQueries, LayerQuery};

/// A template or a card design.
#[derive(Debug, Clone, PartialEq)]
pub enum Design {
    /// A template (root `name`, `context`, `card`).
    Template(Box<Template>),
    /// A card design (root `name`, `width`, `height`, `data`).
    Card(Box<Card>),
}

impl Design {
    /// Reads a template or a card design: a JSON object with a `context` or
    /// a `card` member is a template, any other a card design. Both are
    /// validated first, so an invalid one is reported with every problem.
    /// A frame that leaves its box out takes the card's, as the design tool
    /// draws it ([`crate::frame`]).
    ///
    /// # Errors
    /// [`ReadError`]: not an object, in the design tool's older layered
    /// layout, or invalid (not JSON included, nor nested deeper than
    /// documents may nest).
    pub fn read(bytes: &[u8]) -> Result<Design, ReadError> {
        Design::read_checked(bytes, Check::Validate)
    }

    /// Reads a design the import wrote and validated (see
    /// [`crate::import::Imported::documents`]): not validated a second time.
    pub(crate) fn read_imported(bytes: &[u8]) -> Result<Design, ReadError> {
        Design::read_checked(bytes, Check::AlreadyValid)
    }

    fn read_checked(bytes: &[u8], check: Check) -> Result<Design, ReadError> {
        // A UTF-8 byte order mark is skipped, as `validate` skips it.
        let text = bytes.strip_prefix(BOM).unwrap_or(bytes);
        // Told apart by the root's members alone, read by structure: the
        // document is not held twice.
        let root = members_at(text, first_byte(text));
        if let Some(found) = not_an_object(text) {
            return Err(ReadError::NotAnObject(found));
        }
        let layered = layered_markers(text, &root);
        if !layered.is_empty() {
            return Err(ReadError::Layered(layered));
        }
        let is_template = root
            .iter()
            .any(|(name, _)| name == "context" || name == "card");
        // The design tool's frame rule, where the file leaves a frame's box
        // out (`crate::frame`).
        let root_at = first_byte(text);
        if is_template {
            let mut template = typed::<Template>(bytes, "template", check)?;
            if let Some((_, card_at)) = root.iter().find(|(name, _)| name == "card") {
                crate::frame::apply(&mut template.card, text, *card_at);
            }
            Ok(Design::Template(Box::new(template)))
        } else {
            let mut card = typed::<Card>(bytes, "card design", check)?;
            crate::frame::apply(&mut card, text, root_at);
            Ok(Design::Card(Box::new(card)))
        }
    }

    /// The card design: the file's, or the template's `card`.
    #[must_use]
    pub fn card(&self) -> &Card {
        match self {
            Design::Template(template) => &template.card,
            Design::Card(card) => card,
        }
    }

    /// The template, if the file is one.
    #[must_use]
    pub fn template(&self) -> Option<&Template> {
        match self {
            Design::Template(template) => Some(template),
            Design::Card(_) => None,
        }
    }

    /// What the file is: `template` or `card design`.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Design::Template(_) => "template",
            Design::Card(_) => "card design",
        }
    }
}

impl LayerQueries for Design {
    fn layers(&self) -> LayerQuery<'_> {
        match self {
            Design::Template(template) => template.layers(),
            Design::Card(card) => card.layers(),
        }
    }
}

/// Why a design file could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// JSON, but not an object: the type found.
    NotAnObject(&'static str),
    /// In the design tool's older layered layout: the members that tell it.
    Layered(Vec<&'static str>),
    /// Invalid as the kind it was taken for (not JSON included, nor
    /// nesting deeper than [`cardkit::validate::MAX_DEPTH`]): shown with its
    /// first [`LISTED_ERRORS`] errors, one a line.
    Invalid(&'static str, ParseError),
    /// A file of the design tool's own none of whose designs the import
    /// could convert ([`crate::designs::Designs::read`]): its errors, one a
    /// line, and the format it was read as (`None`: none the import reads).
    NotConverted(Vec<String>, Option<crate::import::Format>),
}

/// The most errors of an invalid design its message lists, one a line; the
/// rest are counted, and `cardkit validate` reports every one.
pub const LISTED_ERRORS: usize = 10;

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::NotAnObject(found) => write!(
                f,
                "expected a template or a card design (a JSON object), found {found}"
            ),
            ReadError::Layered(markers) => write!(
                f,
                "this template is in the design tool's older layered layout ({}), not the \
                 spec's shape; `cardkit import` converts it",
                markers.join(", ")
            ),
            ReadError::Invalid(kind, ParseError::Invalid(report)) => {
                let errors: Vec<&Diagnostic> = report
                    .documents
                    .iter()
                    .flat_map(|document| &document.diagnostics)
                    .filter(|diagnostic| diagnostic.severity == Severity::Error)
                    .collect();
                let count = errors.len();
                write!(
                    f,
                    "invalid {kind}: {count} error{}",
                    if count == 1 { "" } else { "s" }
                )?;
                for diagnostic in errors.iter().take(LISTED_ERRORS) {
                    write!(
                        f,
                        "\n  {}:{}: {} at {:?}: {}",
                        diagnostic.line,
                        diagnostic.column,
                        diagnostic.code,
                        diagnostic.pointer_shown(),
                        diagnostic.message()
                    )?;
                }
                if count > LISTED_ERRORS {
                    write!(
                        f,
                        "\n  … and {} more (`cardkit validate` reports every one)",
                        count - LISTED_ERRORS
                    )?;
                }
                Ok(())
            }
            ReadError::Invalid(kind, error) => write!(f, "invalid {kind}: {error}"),
            ReadError::NotConverted(errors, format) => {
                match format {
                    Some(format) => write!(
                        f,
                        "in the design tool's {} format, but the import converts none of its \
                         designs",
                        format.as_str()
                    )?,
                    None => write!(f, "not a design file the import reads")?,
                }
                for error in errors.iter().take(LISTED_ERRORS) {
                    write!(f, "\n  {error}")?;
                }
                if errors.len() > LISTED_ERRORS {
                    write!(
                        f,
                        "\n  … and {} more (`cardkit import` reports every one)",
                        errors.len() - LISTED_ERRORS
                    )?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for ReadError {}

/// The stack a design is read into its model on: room for
/// [`cardkit::validate::MAX_DEPTH`] levels of layers (reserved, not
/// touched beyond what the nesting uses).
const MODEL_STACK_BYTES: usize = 256 << 20;

/// Validates `bytes` as one bare document of `T`'s kind, then reads it into
/// `T` (as [`cardkit::from_slice`] does), at any depth the validator lets
/// through ([`cardkit::validate::MAX_DEPTH`] arrays and objects: more than
/// 512 levels of groups): serde_json's own limit of 128 is lifted and the
/// stack grown as the nesting needs. Nesting deeper than that is the
/// validator's `too_deep` error, at its place.
/// Whether a design is validated before it is read into the model.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Check {
    Validate,
    /// The import validated it as it wrote it.
    AlreadyValid,
}

fn typed<T: Document>(bytes: &[u8], kind: &'static str, check: Check) -> Result<T, ReadError> {
    if check == Check::Validate {
        let options = Options {
            kind: Some(T::KIND),
            ..Options::default()
        };
        let report = cardkit::validate(bytes, &options);
        if !report.is_valid() {
            return Err(ReadError::Invalid(
                kind,
                ParseError::Invalid(Box::new(report)),
            ));
        }
        if report.layout != Layout::Bare {
            return Err(ReadError::Invalid(kind, ParseError::NotBare(report.layout)));
        }
    }
    let text = bytes.strip_prefix(BOM).unwrap_or(bytes);
    // The layers are internally tagged (`type`): each is buffered, then
    // read from the buffer by serde's own deserializer, which recurses
    // without growing the stack as serde_stacker does. So the whole read
    // runs on a stack sized for the deepest nesting the validator passes.
    let read = stacker::grow(MODEL_STACK_BYTES, || {
        let mut deserializer = serde_json::Deserializer::from_slice(text);
        deserializer.disable_recursion_limit();
        let deserializer = serde_stacker::Deserializer::new(&mut deserializer);
        T::deserialize(deserializer)
    });
    let mut document = read.map_err(|error| ReadError::Invalid(kind, ParseError::Model(error)))?;
    document.complete();
    Ok(document)
}

/// Where the first byte that is not white space is.
fn first_byte(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .position(|b| !matches!(b, b' ' | b'\n' | b'\r' | b'\t'))
        .unwrap_or(bytes.len())
}

/// The JSON type of the root, when it is a value but not an object.
fn not_an_object(bytes: &[u8]) -> Option<&'static str> {
    let rest = &bytes[first_byte(bytes)..];
    match rest.first()? {
        b'[' => Some("an array"),
        b'"' => Some("a string"),
        b'-' | b'0'..=b'9' => Some("a number"),
        _ if rest.starts_with(b"true") || rest.starts_with(b"false") => Some("a boolean"),
        _ if rest.starts_with(b"null") => Some("null"),
        // Not JSON: the validator says where and why.
        _ => None,
    }
}

/// The members of the object at `at` (none if there is none there): each
/// name and where its value starts.
fn members_at(bytes: &[u8], at: usize) -> Vec<(String, usize)> {
    if bytes.get(at) != Some(&b'{') {
        return Vec::new();
    }
    Scanner::new(bytes, at)
        .members()
        .map(|member| (member.name.into_owned(), member.value_at))
        .collect()
}

/// The members of a template that only the older layered layout has.
fn layered_markers(bytes: &[u8], root: &[(String, usize)]) -> Vec<&'static str> {
    let at = |members: &[(String, usize)], name: &str| {
        members
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, value)| *value)
    };
    let mut markers = Vec::new();
    if at(root, "metadata").is_some_and(|v| bytes[v] == b'{') {
        markers.push("/metadata");
    }
    if let Some(context) = at(root, "context") {
        let context = members_at(bytes, context);
        if at(&context, "imageSets").is_some_and(|v| bytes[v] == b'{') {
            markers.push("/context/imageSets is an object");
        }
        if at(&context, "symbolExtension").is_some() {
            markers.push("/context/symbolExtension");
        }
        if at(&context, "ui").is_some() {
            markers.push("/context/ui");
        }
    }
    markers
}
