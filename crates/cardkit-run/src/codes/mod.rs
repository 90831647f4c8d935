//! Every diagnostic code explained: what it means, a short document that has it, the
//! diagnostic cardkit gives for it and how to fix it (`cardkit explain
//! CODE`, as `rustc --explain`).
//!
//! ```
//! use cardkit_run::codes::explain_code;
//! use cardkit::Code;
//!
//! let explained = explain_code(Code::MissingField);
//! assert!(explained.meaning.starts_with("A required member is absent"));
//! // The diagnostic shown is the validator's own, on the example.
//! assert_eq!(explained.diagnostics[0].code, Code::MissingField);
//! assert!(explained.text().contains("error[missing_field]"));
//! ```
//!
//! Every code has its explanation (the match in [`explanation`] is
//! exhaustive), and the tests validate every example.

use std::borrow::Cow;

use serde::Serialize;

mod imported;
mod references;

use crate::render::Text;
use cardkit::diagnostic::{Code, Diagnostic, Severity};
use cardkit::model::Kind;
use cardkit::references::check_slice;
use cardkit::validate::{as_of_version, validate, Options};

/// The facts about one code, as written in the library.
#[derive(Debug, Clone)]
pub struct CodeExplanation {
    /// What the code means, and when its severity changes.
    pub meaning: &'static str,
    /// A short document that has the code.
    pub example: Example,
    /// How to fix it.
    pub fix: &'static str,
}

/// A document that has a code, and the options it is validated with.
#[derive(Debug, Clone)]
pub struct Example {
    /// The document (JSON).
    pub document: Cow<'static, str>,
    /// `--kind`, when the example names it.
    pub kind: Option<Kind>,
    /// `--deny-unknown-fields`.
    pub deny_unknown_fields: bool,
    /// `--as-of`.
    pub as_of: Option<&'static str>,
    /// `--warn deprecated`.
    pub warn_deprecated: bool,
    /// The example is a design tool's file, for `cardkit import` (a code of
    /// the import's own, which the validator never gives).
    pub imported: bool,
    /// `--references`: the example's references between documents are
    /// checked.
    pub references: bool,
}

impl Example {
    /// The name the example is validated under in the explanation.
    pub const PATH: &'static str = "example.json";

    const fn of(document: &'static str) -> Example {
        Example::with(document, false)
    }

    const fn imported(document: &'static str) -> Example {
        Example::with(document, true)
    }

    const fn with(document: &'static str, imported: bool) -> Example {
        Example {
            document: Cow::Borrowed(document),
            kind: None,
            deny_unknown_fields: false,
            as_of: None,
            warn_deprecated: false,
            imported,
            references: false,
        }
    }

    const fn referencing(document: &'static str) -> Example {
        let mut example = Example::with(document, false);
        example.references = true;
        example
    }

    /// The validator's options the example names.
    #[must_use]
    pub fn options(&self) -> Options {
        Options {
            kind: self.kind,
            deny_unknown_fields: self.deny_unknown_fields,
            as_of: self.as_of.and_then(|tag| as_of_version(tag).ok()),
            warn_deprecated: self.warn_deprecated,
            ..Options::DEFAULT
        }
    }

    /// The command that validates it: `cardkit validate --as-of v5.2.0
    /// example.json`.
    #[must_use]
    pub fn command(&self) -> String {
        if self.imported {
            return format!("cardkit import {}", Example::PATH);
        }
        let mut command = String::from("cardkit validate");
        if let Some(kind) = self.kind {
            command.push_str(&format!(" --kind {kind}"));
        }
        if self.deny_unknown_fields {
            command.push_str(" --deny-unknown-fields");
        }
        if let Some(as_of) = self.as_of {
            command.push_str(&format!(" --as-of {as_of}"));
        }
        if self.warn_deprecated {
            command.push_str(" --warn deprecated");
        }
        if self.references {
            command.push_str(" --references");
        }
        command.push(' ');
        command.push_str(Example::PATH);
        command
    }
}

/// A code explained, with the diagnostics of that code that the validator
/// gives for the example: what `cardkit explain CODE` shows.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CodeExplained {
    /// The code.
    pub code: Code,
    /// Its severity unless options change it.
    pub severity: Severity,
    /// What it means.
    pub meaning: &'static str,
    /// The example document.
    pub example: String,
    /// The command that validates it.
    pub command: String,
    /// The diagnostics of this code that validating the example gives.
    pub diagnostics: Vec<Diagnostic>,
    /// How to fix it.
    pub fix: &'static str,
}

/// Explains `code`: its explanation, and the diagnostics of that code on
/// the example: the validator's, or for the codes of `cardkit import`
/// ([`Code::is_import`]), those importing the example gives, as recorded.
#[must_use]
pub fn explain_code(code: Code) -> CodeExplained {
    let explanation = explanation(code);
    let example = &explanation.example;
    let diagnostics = if example.imported {
        imported::diagnostics(code, &example.document)
    } else if example.references {
        let outcome = check_slice(
            example.document.as_bytes(),
            &example.options(),
            Severity::Warning,
        );
        outcome
            .reports
            .into_iter()
            .flat_map(|(_, report, _)| report.diagnostics)
            .filter(|diagnostic| diagnostic.code == code)
            .collect()
    } else {
        validate(example.document.as_bytes(), &example.options())
            .documents
            .into_iter()
            .flat_map(|document| document.diagnostics)
            .filter(|diagnostic| diagnostic.code == code)
            .collect()
    };
    CodeExplained {
        code,
        severity: code.default_severity(),
        meaning: explanation.meaning,
        example: example.document.clone().into_owned(),
        command: example.command(),
        diagnostics,
        fix: explanation.fix,
    }
}

impl CodeExplained {
    /// The explanation as text: the code and its severity, what it means,
    /// the example with its command and the diagnostics it gives, and how
    /// to fix it.
    #[must_use]
    pub fn text(&self) -> String {
        let mut out = format!("{} ({})\n\n", self.code, self.severity.as_str());
        out.push_str(&format!("{}\n\n", self.meaning));
        out.push_str(&format!("For example, `{}` on\n\n", self.command));
        for line in self.example.lines() {
            out.push_str(&format!("    {}\n", shortened(line)));
        }
        out.push_str("\ngives\n\n");
        for diagnostic in &self.diagnostics {
            out.push_str(&Text::diagnostic(Example::PATH, diagnostic));
        }
        out.push_str(&format!("How to fix it: {}\n", self.fix));
        out
    }
}

/// A line of an example as shown: whole, or (a value nested past the
/// limit) its start and its end around how much is left out.
fn shortened(line: &str) -> Cow<'_, str> {
    const SHOWN: usize = 48;
    let chars = line.chars().count();
    if chars <= 3 * SHOWN {
        return line.into();
    }
    let head: String = line.chars().take(SHOWN).collect();
    let tail: String = line.chars().skip(chars - SHOWN).collect();
    format!("{head} … ({} more characters) … {tail}", chars - 2 * SHOWN).into()
}

/// A migration with the members a migration must have, around `rest`.
macro_rules! migration {
    ($($rest:literal),*) => {
        concat!(
            "{\n",
            "  \"object\": \"migration\",\n",
            "  \"uri\": \"https://catalog.example.org/migrations/1\",\n",
            "  \"migration_strategy\": \"merge\",\n",
            "  \"old_catalogA_id\": \"2b3c4d5e-6f70-4182-9394-a5b6c7d8e9f0\",\n",
            $($rest,)*
            "}\n"
        )
    };
}

/// A card of 750 × 1050 with `children` in its top group.
macro_rules! card {
    ($($children:literal),*) => {
        concat!(
            "{\n",
            "  \"name\": \"Fire Elemental\", \"width\": 750, \"height\": 1050,\n",
            "  \"data\": {\"children\": [\n",
            $($children,)*
            "  ]}\n",
            "}\n"
        )
    };
}

/// A set of no cards, with the members a set must have.
const SET: &str = r#"{
  "code": "TST", "name": "Test Set", "type": "expansion", "releaseDate": "2024-01-05",
  "baseSetSize": 0, "totalSetSize": 0, "isFoilOnly": false, "isOnlineOnly": false,
  "iconCode": "tst", "languages": ["English"], "translations": {},
  "cards": [], "tokens": [], "sealedProduct": null
}
"#;

/// A set of one token, which has the deprecated `hasFoil`, `hasNonFoil` and
/// `reverseRelated`, as tokens must.
const SET_WITH_TOKEN: &str = r#"{
  "code": "TST", "name": "Test Set", "type": "token", "releaseDate": "2024-01-05",
  "baseSetSize": 0, "totalSetSize": 1, "isFoilOnly": false, "isOnlineOnly": false,
  "iconCode": "tst", "languages": ["English"], "translations": {},
  "cards": [], "sealedProduct": null,
  "tokens": [{
    "uuid": "5f8d1a2e-3b4c-4d5e-8f6a-7b8c9d0e1f2a", "name": "Goblin", "number": "1",
    "setCode": "TST", "language": "English", "layout": "token", "type": "Token Creature — Goblin",
    "types": ["Creature"], "subtypes": ["Goblin"], "supertypes": [], "colors": ["R"],
    "colorIdentity": ["R"], "availability": ["paper"], "finishes": ["nonfoil"],
    "borderColor": "black", "frameVersion": "2015", "hasFoil": false, "hasNonFoil": true,
    "identifiers": {}, "relatedCards": {}, "reverseRelated": []
  }]
}
"#;

/// How deep the example of `too_deep` nests: one more than documents may.
const TOO_DEEP: usize = cardkit::schema::MAX_DEPTH + 1;

/// What the code means, an example document that has it, and how to
/// fix it.
#[must_use]
pub fn explanation(code: Code) -> CodeExplanation {
    let (meaning, example, fix) = match code {
        Code::InvalidJson => (
            "The input is not well-formed JSON: a syntax error (here a comma before `}`), \
             invalid UTF-8, a control character in a string, a lone surrogate escape, a \
             number beyond the 64-bit float range (`1e400`), content after the document, or \
             an empty input. Reading stops there; documents before it are still reported \
             (in JSON Lines, the other lines are read).",
            Example::of(migration!(
                "  \"note\": \"Merged the duplicate printing.\",\n"
            )),
            "correct the JSON where the line and column point (the message says what was \
             expected there), then validate again: problems after that place were not looked \
             for yet.",
        ),
        Code::MissingField => (
            "A required member is absent. The pointer names the missing member (the place it \
             would have); the line and column point at the object it is missing from.",
            Example::of(concat!(
                "{\n",
                "  \"object\": \"migration\",\n",
                "  \"uri\": \"https://catalog.example.org/migrations/1\",\n",
                "  \"old_catalogA_id\": \"2b3c4d5e-6f70-4182-9394-a5b6c7d8e9f0\"\n",
                "}\n"
            )),
            "add the member with a value of its type; `cardkit explain KIND POINTER` \
             (with the pointer of the diagnostic) says what it holds.",
        ),
        Code::WrongType => (
            "A value of another JSON type than the field's. Nothing is coerced: `\"750\"` \
             is not an integer, nor is `5.5`.",
            Example::of(concat!(
                "{\n",
                "  \"name\": \"Fire Elemental\",\n",
                "  \"width\": \"750\",\n",
                "  \"height\": 1050\n",
                "}\n"
            )),
            "write the value as the type the message expects (here the number `750`, \
             without quotes).",
        ),
        Code::NullNotAllowed => (
            "`null` for a field that may not be null: a field with a default but no `?` in \
             the spec (it may be left out, not set to null), or `Migration.id`.",
            Example::of(migration!("  \"id\": null\n")),
            "leave the member out to take its default, or give it a value of its type.",
        ),
        Code::ConstMismatch => (
            "A constant field (`Migration.object`, `Mask.type`, …) with another value than \
             its constant.",
            Example::of(concat!(
                "{\n",
                "  \"object\": \"Migration\",\n",
                "  \"uri\": \"https://catalog.example.org/migrations/1\",\n",
                "  \"migration_strategy\": \"merge\",\n",
                "  \"old_catalogA_id\": \"2b3c4d5e-6f70-4182-9394-a5b6c7d8e9f0\"\n",
                "}\n"
            )),
            "write the constant exactly as the message gives it (case counts).",
        ),
        Code::EnumMismatch => (
            "A value outside its enumeration; the message lists the allowed values.",
            Example::of(card!(
                "    {\"type\": \"text\", \"text\": \"Fire Elemental\", \"size\": 38, \"x\": 64, \
                 \"y\": 58,\n",
                "     \"width\": 560, \"height\": 50, \"align\": \"middle\"}\n"
            )),
            "use one of the allowed values (here `center`).",
        ),
        Code::InvalidFormat => (
            "A string that is not a valid `uuid`, `date`, `uri` or `color`; the message \
             names which. `cardkit explain KIND POINTER` gives the format's definition.",
            Example::of(migration!("  \"created_at\": \"15/01/2023\"\n")),
            "write the value in its format (a date is `YYYY-MM-DD`: here `2023-01-15`).",
        ),
        Code::MissingDiscriminator => (
            "A layer in `children`, or an image filter, without its `type`, which says \
             which shape it has (the card's top group may leave it out).",
            Example::of(card!(
                "    {\"name\": \"art\", \"src\": \"art/fire-elemental.jpg\"}\n"
            )),
            "add `type` with the shape meant (here `\"type\": \"image\"`).",
        ),
        Code::UnknownDiscriminator => (
            "A `type` tag that names no known shape; the message lists the allowed tags.",
            Example::of(card!(
                "    {\"type\": \"video\", \"name\": \"art\", \"src\": \"art/intro.mp4\"}\n"
            )),
            "use one of the allowed tags; a layer of another kind cannot be written in this \
             format.",
        ),
        Code::NoMatchingShape => (
            "A value of a plain union (a text filter) that matches none of its shapes; the \
             message says why each one does not.",
            Example::of(card!(
                "    {\"type\": \"text\", \"text\": \"Fire Elemental\", \"size\": 38, \"x\": 64, \
                 \"y\": 58,\n",
                "     \"width\": 560, \"height\": 50, \"filters\": [{\"type\": \"glow\"}]}\n"
            )),
            "make the value one of the shapes the message names (here a `shadow` or a \
             `colorOverlay` filter).",
        ),
        Code::OutOfRange => (
            "An integer beyond the signed and unsigned 64-bit range (below \
             -9223372036854775808 or above 18446744073709551615).",
            Example::of(concat!(
                "{\n",
                "  \"name\": \"Fire Elemental\",\n",
                "  \"width\": 99999999999999999999,\n",
                "  \"height\": 1050\n",
                "}\n"
            )),
            "use a value within the range; a number that large is a mistake in the data.",
        ),
        Code::TooDeep => (
            "Arrays and objects nested more than 1,100 deep (over 512 levels of layer groups \
             fit). What is deeper is read past, not checked.",
            Example {
                document: Cow::Owned(SET.replace(
                    "\"sealedProduct\": null",
                    &format!(
                        "\"sealedProduct\": null,\n  \"booster\": {{\"default\": {}{}}}",
                        "[".repeat(TOO_DEEP),
                        "]".repeat(TOO_DEEP)
                    ),
                )),
                ..Example::of("")
            },
            "flatten the data: nothing in the format nests that deep, so it is likely made \
             by a program gone wrong.",
        ),
        Code::UnknownKind => (
            "With `--kind auto` (the default), a document whose kind cannot be told from its \
             members (here `name`, which templates, cards and sets all have). Also a member \
             beside an early `data` that names a document kind, when the input is too long \
             to have seen it before `data` was read as a container.",
            Example::of("{\"name\": \"Fire Elemental\"}\n"),
            "name the kind with `--kind template|card|set|migration`, or add the members the \
             document is missing; put a document's own fields before a long `meta`.",
        ),
        Code::UnknownField => (
            "A member the spec does not define, with the nearest known name when one is \
             close. A warning; an error with `--deny-unknown-fields`.",
            Example::of(migration!("  \"creatd_at\": \"2023-01-15\"\n")),
            "rename a misspelt member to the name suggested, or remove the member; if it is \
             data you mean to keep, know that consumers of the format ignore it.",
        ),
        Code::DuplicateKey => (
            "The same key twice in one object. The later value wins, as in every JSON \
             parser, and the problems of the earlier value are not reported.",
            Example::of(migration!(
                "  \"note\": \"Merged.\",\n",
                "  \"note\": \"Merged the duplicate printing.\"\n"
            )),
            "keep one of the two members.",
        ),
        Code::NewerField => (
            "With `--as-of vX.Y.Z`, a field introduced after that version, which consumers \
             written against it do not know. A warning; an error with `--strict-version`.",
            Example {
                as_of: Some("v5.2.0"),
                ..Example::of(SET)
            },
            "leave the field out for those consumers, or validate against a later version \
             (`cardkit fields KIND --since vX.Y.Z` lists the fields of later versions).",
        ),
        Code::DeprecatedField => (
            "With `--warn deprecated`, a deprecated field that is present. A warning; \
             repeated ones are summarised per field.",
            Example {
                warn_deprecated: true,
                ..Example::of(SET_WITH_TOKEN)
            },
            "move to the field that replaces it (`cardkit explain KIND POINTER` says which), \
             keeping the deprecated one while consumers still read it.",
        ),
        Code::DroppedMember => (
            "`cardkit import`: a member of the design tool's file that the spec's shapes have \
             no place for (a template's `metadata.creator`, the ids of its image sets, a \
             group's `filters`, a classic save file's `artZoom` or a frame's `erase`). The \
             output leaves it out; the pointer is the member's place in the input. A warning.",
            Example::imported(concat!(
                "{\n",
                "  \"metadata\": {\"name\": \"Plain Frame\", \"creator\": \"A. Designer\"},\n",
                "  \"context\": {\"imageSets\": {}},\n",
                "  \"card\": {\"name\": \"\", \"width\": 750, \"height\": 1050}\n",
                "}\n"
            )),
            "nothing, if the member can go; otherwise keep the input beside the output (for \
             a group's `filters`, `--push-filters` copies them onto the group's layers).",
        ),
        Code::DerivedValue => (
            "`cardkit import`: a value of the output that the input does not hold as such: \
             derived from other members (a symbol set's `name` from its `srcPrefix`) or from \
             the design tool's conventions (its defaults, its card size). The message says \
             what was written and where it comes from. A warning.",
            Example::imported(concat!(
                "{\n",
                "  \"metadata\": {\"name\": \"Plain Frame\"},\n",
                "  \"context\": {\"symbolExtension\": {\"symbolSets\": [\n",
                "    {\"srcPrefix\": \"custom/symbols/\", \"prototype\": {},\n",
                "     \"symbols\": [{\"src\": \"fire.svg\", \"name\": \"r\"}]}\n",
                "  ]}},\n",
                "  \"card\": {\"name\": \"\", \"width\": 750, \"height\": 1050}\n",
                "}\n"
            )),
            "check the value in the output, and change it there if another is meant.",
        ),
        Code::UnknownTextCode => (
            "`cardkit import`: a text code of the design tool's classic save file (in \
             braces, e.g. `{fontbelerenbsc}`) that the spec's text layers give no meaning. \
             The text is kept as written; a renderer shows the code or leaves it out. Known \
             are `{line}`, `{i}`, `{/i}` and `{year}`. A warning.",
            Example::imported(concat!(
                "[{\"key\": \"Fire Elemental\", \"data\": {\"width\": 750, \"height\": 1050,\n",
                "  \"text\": {\"title\": {\"name\": \"Title\", \"text\": \"{fontbelerenbsc}Fire Elemental\",\n",
                "    \"x\": 0.08, \"y\": 0.05, \"width\": 0.84, \"height\": 0.05, \"size\": 0.038,\n",
                "    \"font\": \"belerenb\", \"color\": \"white\"}}}}]\n"
            )),
            "rewrite the text without the code (a font or size of its own is a text layer \
             of its own), or leave it for a renderer that knows it.",
        ),
        Code::NotConvertible => (
            "`cardkit import`: an input that is none of the design tool's formats (a layered \
             template with `metadata` or image sets by id, a template or card design in the \
             spec's shape, a classic save file: an array of `{key, data}`), or a document in \
             it that cannot become one of the spec's (an entry without `data`, a template \
             without `card`). Nothing is written for it. An error.",
            Example::imported("{\"cards\": [{\"name\": \"Fire Elemental\"}]}\n"),
            "give the import a file of the design tool (`--from layered|classic` names the \
             format when it cannot be told), or complete what the message names.",
        ),
        code => {
            let (meaning, example, fix) = references::explanation(code);
            (meaning, Example::referencing(example), fix)
        }
    };
    CodeExplanation {
        meaning,
        example,
        fix,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn examples_are_shown_short() {
        let explained = explain_code(Code::TooDeep);
        let text = explained.text();
        assert!(text.contains("more characters)"), "{text}");
        // The pointer of the diagnostic is written whole, as reports do.
        assert!(text.len() < 4000, "{} bytes", text.len());
        let explained = explain_code(Code::NewerField);
        assert!(explained.command.ends_with("--as-of v5.2.0 example.json"));
        assert!(explained.text().contains("    \"code\": \"TST\""));
    }
}
