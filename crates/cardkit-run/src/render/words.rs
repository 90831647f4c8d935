//! The sentences that every renderer shares: notes on what was not shown,
//! the totals of a run, and what each code means in one line.

use std::collections::BTreeMap;

use super::cap::LeftOut;
use cardkit::diagnostic::Code;
use cardkit::report::{DocumentReport, KEPT_ERRORS, KEPT_WARNINGS_PER_CODE};
use cardkit::report::{Summary, Suppressed};

/// What a document counted but did not keep (none when it kept all).
#[must_use]
pub fn omitted(document: &DocumentReport) -> Option<String> {
    if document.omitted.is_empty() {
        return None;
    }
    let at = if document.pointer.is_empty() {
        "(the root)"
    } else {
        &document.pointer
    };
    Some(format!(
        "{} more problems of the document at {at} were counted but not kept (a document keeps {KEPT_ERRORS} errors and {KEPT_WARNINGS_PER_CODE} warnings of each code)",
        document.omitted.total(),
    ))
}

/// Warnings of one kind counted but not shown.
#[must_use]
pub fn suppressed(hidden: &Suppressed) -> String {
    format!(
        "{} more {} {}s like {} not shown ({} in all)",
        hidden.total - hidden.shown,
        hidden.code,
        hidden.severity.as_str(),
        hidden.pattern,
        hidden.total
    )
}

/// `checked 3 documents in 2 files: 1 valid, 2 invalid`, and the paths
/// that could not be read.
#[must_use]
pub fn checked(summary: &Summary) -> String {
    let files = plural(summary.files + summary.unreadable, "file");
    let documents = plural(summary.documents, "document");
    let mut line = format!(
        "checked {documents} in {files}: {} valid, {} invalid",
        summary.valid, summary.invalid
    );
    if summary.unreadable > 0 {
        line.push_str(&format!(
            ", {} unreadable",
            plural(summary.unreadable, "path")
        ));
    }
    line
}

/// `errors: 3 (missing_field 2, wrong_type 1)` and the same for warnings,
/// for those there are; then how many the configuration ignored, and how
/// many files found were skipped.
#[must_use]
pub fn counts(summary: &Summary) -> Vec<String> {
    [
        ("errors", &summary.errors, summary.error_count()),
        ("warnings", &summary.warnings, summary.warning_count()),
    ]
    .into_iter()
    .filter(|&(_, _, total)| total > 0)
    .map(|(label, counts, total)| format!("{label}: {total} ({})", by_code(counts)))
    .chain(ignored(summary))
    .chain(read(summary))
    .chain(skipped(summary))
    .collect()
}

/// `read: 3 files under the publishers' names, 1 under the spec's; as of
/// v5.2.0 (3 files), v5.2.1 (1)`, when files had names or versions to tell.
#[must_use]
pub fn read(summary: &Summary) -> Option<String> {
    if summary.read_under.is_empty() {
        return None;
    }
    let mut line = String::from("read: ");
    let mut under: Vec<(&String, &usize)> = summary.read_under.iter().collect();
    // The names most files use first.
    under.sort_by(|a, b| b.1.cmp(a.1));
    for (i, (names, &files)) in under.iter().enumerate() {
        let words = cardkit::schema::Names::named(names).map_or("", cardkit::schema::Names::words);
        if i == 0 {
            line.push_str(&format!("{} under {words}", plural(files, "file")));
        } else {
            line.push_str(&format!(", {files} under {words}"));
        }
    }
    if !summary.checked_as_of.is_empty() {
        let versions: Vec<String> = summary
            .checked_as_of
            .iter()
            .rev()
            .map(|(version, &files)| format!("{version} ({})", plural(files, "file")))
            .collect();
        line.push_str(&format!("; as of {}", versions.join(", ")));
    }
    Some(line)
}

/// `3 files would be read as they declare themselves with --names auto`,
/// for each option that would change the verdict of some files.
#[must_use]
pub fn ways_out(summary: &Summary) -> Vec<String> {
    summary
        .ways_out
        .iter()
        .map(|(flag, &files)| {
            format!(
                "{} read as {} declare{} {} with {flag}",
                were(files, "file")
                    .replace(" was", " would be")
                    .replace(" were", " would be"),
                if files == 1 { "it" } else { "they" },
                if files == 1 { "s" } else { "" },
                if files == 1 { "itself" } else { "themselves" },
            )
        })
        .collect()
}

/// `12 JSON files are not card documents: skipped`, when files found were
/// skipped.
#[must_use]
pub fn skipped(summary: &Summary) -> Option<String> {
    (summary.skipped > 0).then(|| match summary.skipped {
        1 => "1 JSON file is not a card document: skipped".to_owned(),
        n => format!("{n} JSON files are not card documents: skipped"),
    })
}

/// `ignored: 12 (by cardkit.toml)`, when a configuration ignored any.
#[must_use]
pub fn ignored(summary: &Summary) -> Option<String> {
    (summary.ignored > 0).then(|| {
        format!(
            "ignored: {} (by {})",
            summary.ignored,
            summary.ignored_by.unwrap_or("the configuration")
        )
    })
}

/// What a code means, in one line.
#[must_use]
pub fn code_summary(code: Code) -> &'static str {
    match code {
        Code::InvalidJson => "The input is not well-formed JSON.",
        Code::MissingField => "A required member is absent.",
        Code::WrongType => "A value has another JSON type than its field's.",
        Code::NullNotAllowed => "`null` where the field does not allow it.",
        Code::ConstMismatch => "A constant field has another value.",
        Code::EnumMismatch => "A value outside its enumeration.",
        Code::InvalidFormat => "A string that is not a valid uuid, date, uri or color.",
        Code::MissingDiscriminator => "A layer or filter without its `type` tag.",
        Code::UnknownDiscriminator => "A `type` tag that names no known shape.",
        Code::NoMatchingShape => "A value that matches none of its union's shapes.",
        Code::OutOfRange => "An integer beyond the 64-bit range.",
        Code::TooDeep => "Nesting deeper than the documented limit.",
        Code::UnknownKind => "The document's kind could not be told from its content.",
        Code::UnknownField => "A member the spec does not define.",
        Code::DuplicateKey => "The same key twice in one object; the last one wins.",
        Code::NewerField => "A field introduced after the version validated against.",
        Code::DeprecatedField => "A deprecated field is present.",
        Code::DroppedMember => "Importing: a member the spec's shapes have no place for.",
        Code::DerivedValue => "Importing: a value derived rather than carried over.",
        Code::UnknownTextCode => "Importing: a text code the spec's text layers give no meaning.",
        Code::NotConvertible => "Importing: an input that cannot be converted.",
        Code::DanglingReference => {
            "References: a record, card or set named that no document holds."
        }
        Code::DuplicateId => "References: an id or set code that another record or set has too.",
        Code::DuplicatePrinting => "References: the same printing twice in a set.",
        Code::SetCodeMismatch => "References: a record's set code is not its set's.",
        Code::AsymmetricFaces => "References: a card's other face does not name it back.",
        Code::VariationElsewhere => "References: a variation that is a record of another set.",
    }
}

fn by_code(counts: &BTreeMap<Code, usize>) -> String {
    counts
        .iter()
        .map(|(code, n)| format!("{code} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `n` of a thing and its verb, in words: `1 document was`, `3 documents
/// were`.
#[must_use]
pub fn were(n: usize, word: &str) -> String {
    format!(
        "{} {}",
        plural(n, word),
        if n == 1 { "was" } else { "were" }
    )
}

/// `n` of a thing, in words: `1 document`, `3 documents`.
#[must_use]
pub fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// What `--max-results` left out, and how to see it: `41,642 results were
/// left out (cap 25,000): 1,000 errors and 40,642 warnings; run with
/// --max-results 0 or --format json to see them all` (`word`: what the
/// format calls a result).
#[must_use]
pub fn left_out(left_out: LeftOut, cap: usize, word: &str) -> String {
    let total = left_out.total();
    let were = if total == 1 { "was" } else { "were" };
    let noun = if total == 1 {
        word.to_owned()
    } else {
        format!("{word}s")
    };
    format!(
        "{} {noun} {were} left out (cap {}): {} and {}; run with --max-results 0 or --format json to see {}",
        grouped(total),
        grouped(cap),
        grouped_plural(left_out.errors, "error"),
        grouped_plural(left_out.warnings, "warning"),
        if total == 1 { "it" } else { "them all" },
    )
}

/// `n` of a thing, its digits grouped by thousands: `1 error`, `40,642
/// warnings`.
fn grouped_plural(n: usize, word: &str) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("{} {word}{s}", grouped(n))
}

/// `n` with its digits grouped by thousands, as the README writes numbers:
/// `25,000`.
#[must_use]
pub fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut text = String::with_capacity(digits.len() + digits.len() / 3);
    for (at, digit) in digits.chars().enumerate() {
        if at > 0 && (digits.len() - at).is_multiple_of(3) {
            text.push(',');
        }
        text.push(digit);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_grouped_by_thousands() {
        for (n, text) in [
            (0, "0"),
            (999, "999"),
            (1_000, "1,000"),
            (25_000, "25,000"),
            (1_234_567, "1,234,567"),
        ] {
            assert_eq!(grouped(n), text);
        }
    }

    #[test]
    fn what_the_cap_left_out_in_words() {
        let many = LeftOut {
            errors: 1_000,
            warnings: 40_642,
        };
        assert_eq!(
            left_out(many, 25_000, "result"),
            "41,642 results were left out (cap 25,000): 1,000 errors and 40,642 warnings; \
             run with --max-results 0 or --format json to see them all"
        );
        let one = LeftOut {
            errors: 0,
            warnings: 1,
        };
        assert_eq!(
            left_out(one, 50, "annotation"),
            "1 annotation was left out (cap 50): 0 errors and 1 warning; \
             run with --max-results 0 or --format json to see it"
        );
    }
}
