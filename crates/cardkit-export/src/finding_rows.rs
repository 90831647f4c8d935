//! The rows of `reference_findings`: each finding of the run's references
//! written with its place in the words of the rules written as SQL
//! (`references.rs`), so that both give the same rows.

use cardkit::references::Placed;

use crate::layout::{layout, FindingFact, Source};
use crate::rows::{Cell, TableRows};

/// Writes `placed` as a row of `table`, the rows of `reference_findings`.
pub(crate) fn push(table: &mut TableRows, placed: Placed<'_>) {
    let diagnostic = placed.diagnostic;
    let at = &placed.finding.at;
    let member = at.member_pointer();
    let within = member.strip_prefix(placed.document).unwrap_or(&member);
    let place = FindingPlace::of(within);
    let row = table.push_row();
    for (column, def) in layout().tables[layout().reference_findings]
        .columns
        .iter()
        .enumerate()
    {
        let Source::Finding(fact) = def.source else {
            if let (Source::OwnerKey, Some(code)) = (def.source, placed.set_code) {
                table.set_text(row, column, code);
            }
            continue;
        };
        let integer = |n: usize| Cell::Integer(i64::try_from(n).unwrap_or(i64::MAX));
        match fact {
            FindingFact::Code => table.set_text(row, column, diagnostic.code.as_str()),
            FindingFact::Kind => table.set_text(row, column, place.kind),
            FindingFact::Position => {
                if let Some(position) = place.position {
                    table.set(row, column, integer(position));
                }
            }
            FindingFact::Field => table.set_text(row, column, &place.field),
            FindingFact::Item => {
                if let Some(item) = at.item {
                    table.set(row, column, integer(item));
                }
            }
            FindingFact::Value => table.set_text(row, column, &placed.finding.value),
            FindingFact::Severity => {
                table.set_text(row, column, diagnostic.severity.as_str());
            }
            FindingFact::Message => table.set_text(row, column, &diagnostic.message()),
            FindingFact::Input => table.set_text(row, column, placed.file),
            FindingFact::Pointer => table.set_text(row, column, &at.pointer()),
            FindingFact::Line => table.set(row, column, integer(at.line)),
            FindingFact::RelatedInput => {
                if let Some(related) = &diagnostic.related {
                    let file = related.file.as_deref().unwrap_or(placed.file);
                    table.set_text(row, column, file);
                }
            }
            FindingFact::RelatedPointer => {
                if let Some(related) = &diagnostic.related {
                    table.set_text(row, column, &related.pointer);
                }
            }
        }
    }
}

/// Where in its document a finding's value is, in the words of the rules
/// written as SQL: a value of a record (`card`, `token`, `sealed`, by its
/// position in its list) or of the set itself (`set`), and the member from
/// there, nested members joined by `.` (`relatedCards.reverseRelated`).
struct FindingPlace {
    kind: &'static str,
    position: Option<usize>,
    field: String,
}

impl FindingPlace {
    /// The place of the value (or list) at `within`, a JSON Pointer from
    /// its document. The members on the way are never renamed by the
    /// publishers' names (`--names`), so they are the spec's.
    fn of(within: &str) -> FindingPlace {
        let segments: Vec<String> = within
            .split('/')
            .skip(1)
            .map(|s| s.replace("~1", "/").replace("~0", "~"))
            .collect();
        let record = match segments.first().map(String::as_str) {
            Some("cards") => Some("card"),
            Some("tokens") => Some("token"),
            Some("sealedProduct") => Some("sealed"),
            _ => None,
        };
        let position = segments.get(1).and_then(|s| s.parse::<usize>().ok());
        match (record, position) {
            (Some(kind), Some(position)) => FindingPlace {
                kind,
                position: Some(position),
                field: segments[2..].join("."),
            },
            _ => FindingPlace {
                kind: "set",
                position: None,
                field: segments.join("."),
            },
        }
    }
}
