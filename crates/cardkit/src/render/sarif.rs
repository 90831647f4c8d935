//! SARIF 2.1.0, as GitHub code scanning reads it: one run of the `cardkit`
//! tool with a rule per code, and one result per diagnostic with its file,
//! region, JSON Pointer and a fingerprint that stays the same from run to run
//! while the problem does. Results are written as they come; what is known
//! only at the end (paths that could not be read, counts of what was not
//! shown) follows them as notifications of the run's invocation.

use std::hash::Hasher;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use percent_encoding::{utf8_percent_encode, AsciiSet, CONTROLS};
use serde::Serialize;
use serde_json::json;

use super::renderer::{FileEnd, Renderer};
use super::words;
use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::report::DocumentReport;
use crate::report::{Summary, WarningFilter};

/// Where the tool, and the section on its codes, are documented.
pub const INFORMATION_URI: &str = env!("CARGO_PKG_REPOSITORY");

/// The SARIF renderer.
#[derive(Debug)]
pub struct Sarif {
    filter: WarningFilter,
    /// Paths under it are written relative to it.
    base: Option<PathBuf>,
    head_written: bool,
    results_written: usize,
    notifications: Vec<serde_json::Value>,
    unreadable: bool,
}

impl Sarif {
    /// A SARIF renderer that reports repeated warnings as `filter` allows;
    /// file paths under `base` (the working directory) are made relative to
    /// it.
    #[must_use]
    pub fn new(filter: WarningFilter, base: Option<PathBuf>) -> Self {
        Sarif {
            filter,
            base,
            head_written: false,
            results_written: 0,
            notifications: Vec::new(),
            unreadable: false,
        }
    }

    /// The URI of `path`: relative (percent-encoded) when it is relative or
    /// under the base directory, else a `file` URI.
    #[must_use]
    pub fn uri(&self, path: &str) -> String {
        let path = Path::new(path);
        let relative = match &self.base {
            Some(base) if path.is_absolute() => path.strip_prefix(base).ok(),
            _ if path.is_relative() => Some(path),
            _ => None,
        };
        match relative {
            Some(relative) => {
                let text = relative.to_string_lossy().replace('\\', "/");
                let text = text.strip_prefix("./").unwrap_or(&text);
                utf8_percent_encode(text, PATH).to_string()
            }
            None => format!(
                "file://{}",
                utf8_percent_encode(&path.to_string_lossy(), PATH)
            ),
        }
    }
}

/// What a URI path may not hold as it is (RFC 3986): controls, space and
/// the delimiters other than `/`.
const PATH: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'[')
    .add(b']')
    .add(b'\\')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult<'a> {
    rule_id: &'static str,
    rule_index: usize,
    level: &'static str,
    message: Text,
    locations: [Location<'a>; 1],
    partial_fingerprints: Fingerprints,
    properties: Properties<'a>,
}

#[derive(Serialize)]
struct Text {
    text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location<'a> {
    physical_location: PhysicalLocation<'a>,
    logical_locations: [LogicalLocation<'a>; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation<'a> {
    artifact_location: ArtifactLocation<'a>,
    region: Region,
}

#[derive(Serialize)]
struct ArtifactLocation<'a> {
    uri: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: usize,
    start_column: usize,
    end_line: usize,
    end_column: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LogicalLocation<'a> {
    fully_qualified_name: &'a str,
}

#[derive(Serialize)]
struct Fingerprints {
    #[serde(rename = "cardkit/v1")]
    cardkit: String,
}

#[derive(Serialize)]
struct Properties<'a> {
    pointer: &'a str,
    /// The whole pointer's length when `pointer` was cut.
    #[serde(skip_serializing_if = "Option::is_none")]
    pointer_bytes: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    field: Option<&'a str>,
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// The same for the same problem in the same place, run after run, even
/// when the offending value or the file's lines around it change: the code
/// and the pointer, hashed (FNV-1a, fixed).
fn fingerprint(diagnostic: &Diagnostic) -> String {
    let mut hash = fnv::FnvHasher::default();
    for part in [diagnostic.code.as_str(), &diagnostic.pointer] {
        hash.write(part.as_bytes());
        hash.write_u8(0);
    }
    // A cut pointer: its whole length tells apart keys alike in their start.
    if let Some(bytes) = diagnostic.pointer_bytes {
        hash.write(bytes.to_string().as_bytes());
    }
    format!("{:016x}", hash.finish())
}

fn rules() -> Vec<serde_json::Value> {
    Code::ALL
        .iter()
        .map(|&code| {
            json!({
                "id": code.as_str(),
                "shortDescription": {"text": words::code_summary(code)},
                "help": {"text": format!(
                    "{} See the error codes in cardkit's README.",
                    words::code_summary(code)
                )},
                "helpUri": format!("{INFORMATION_URI}#error-codes"),
                "defaultConfiguration": {"level": level(code.default_severity())},
            })
        })
        .collect()
}

impl Renderer for Sarif {
    fn begin_file(&mut self, out: &mut dyn Write, _path: &str) -> io::Result<()> {
        self.head(out)
    }

    fn document(
        &mut self,
        out: &mut dyn Write,
        path: &str,
        document: &DocumentReport,
    ) -> io::Result<()> {
        let uri = self.uri(path);
        for diagnostic in &document.diagnostics {
            if !self.filter.admit(diagnostic) {
                continue;
            }
            let result = SarifResult {
                rule_id: diagnostic.code.as_str(),
                rule_index: diagnostic.code.index(),
                level: level(diagnostic.severity),
                message: Text {
                    text: diagnostic.message(),
                },
                locations: [Location {
                    physical_location: PhysicalLocation {
                        artifact_location: ArtifactLocation { uri: &uri },
                        region: Region {
                            start_line: diagnostic.line,
                            start_column: diagnostic.column,
                            end_line: diagnostic.line,
                            end_column: diagnostic.column + 1,
                        },
                    },
                    logical_locations: [LogicalLocation {
                        fully_qualified_name: &diagnostic.pointer,
                    }],
                }],
                partial_fingerprints: Fingerprints {
                    cardkit: fingerprint(diagnostic),
                },
                properties: Properties {
                    pointer: &diagnostic.pointer,
                    pointer_bytes: diagnostic.pointer_bytes,
                    field: diagnostic.field.as_deref(),
                },
            };
            if self.results_written > 0 {
                out.write_all(b",")?;
            }
            self.results_written += 1;
            out.write_all(b"\n")?;
            serde_json::to_writer(&mut *out, &result)?;
        }
        if let Some(note) = words::omitted(document) {
            self.notify("warning", note, Some(uri));
        }
        Ok(())
    }

    fn end_file(&mut self, _out: &mut dyn Write, path: &str, end: FileEnd<'_>) -> io::Result<()> {
        if let Some(error) = end.error {
            self.unreadable = true;
            let uri = self.uri(path);
            self.notify("error", format!("cannot read: {error}"), Some(uri));
        }
        Ok(())
    }

    fn finish(&mut self, out: &mut dyn Write, summary: &Summary) -> io::Result<()> {
        self.head(out)?;
        for hidden in self.filter.suppressed() {
            self.notify("note", words::suppressed(&hidden), None);
        }
        let mut invocation = json!({
            "executionSuccessful": !self.unreadable,
            "toolExecutionNotifications": self.notifications,
            "properties": {
                "summary": words::checked(summary),
                "documents": summary.documents,
                "valid": summary.valid,
                "invalid": summary.invalid,
            },
        });
        if let Some(ignored) = words::ignored(summary) {
            invocation["properties"]["ignored"] = json!(summary.ignored);
            invocation["properties"]["ignoredNote"] = json!(ignored);
        }
        out.write_all(b"\n],\n\"invocations\":[")?;
        serde_json::to_writer(&mut *out, &invocation)?;
        out.write_all(b"]}]}\n")
    }
}

impl Sarif {
    /// Writes the head of the log (the tool and its rules) and opens the
    /// results, once.
    fn head(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.head_written {
            return Ok(());
        }
        self.head_written = true;
        let tool = json!({
            "driver": {
                "name": "cardkit",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": INFORMATION_URI,
                "rules": rules(),
            }
        });
        out.write_all(
            b"{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\",\n\"runs\":[{\"tool\":",
        )?;
        serde_json::to_writer(&mut *out, &tool)?;
        out.write_all(b",\n\"results\":[")?;
        Ok(())
    }

    fn notify(&mut self, level: &str, text: String, uri: Option<String>) {
        let mut notification = json!({"level": level, "message": {"text": text}});
        if let Some(uri) = uri {
            notification["locations"] =
                json!([{"physicalLocation": {"artifactLocation": {"uri": uri}}}]);
        }
        self.notifications.push(notification);
    }
}
