//! SARIF 2.1.0, as GitHub code scanning reads it: one run of the `cardkit`
//! tool with a rule per code, and one result per diagnostic with its file,
//! region, JSON Pointer and a fingerprint that stays the same from run to run
//! while the problem does. Results are written as they come; what is known
//! only at the end (paths that could not be read, counts of what was not
//! shown) follows them as notifications of the run's invocation. A cap
//! (`--max-results`) keeps a run within what code scanning accepts (results
//! from the first warning on are then held until the end, see `cap.rs`),
//! and a notification says how many results it left out.

use std::hash::Hasher;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use percent_encoding::{utf8_percent_encode, AsciiSet, CONTROLS};
use serde::Serialize;
use serde_json::json;

use super::cap::Cap;
use super::renderer::{FileEnd, Renderer};
use super::words;
use cardkit::diagnostic::{Code, Diagnostic, Severity};
use cardkit::report::{DocumentReport, Reading};
use cardkit::report::{Summary, WarningFilter};

/// Where the tool, and the section on its codes, are documented.
pub const INFORMATION_URI: &str = env!("CARGO_PKG_REPOSITORY");

/// The SARIF renderer.
#[derive(Debug)]
pub struct Sarif {
    filter: WarningFilter,
    /// Paths under it are written relative to it.
    base: Option<PathBuf>,
    head_written: bool,
    cap: Cap,
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
            cap: Cap::new(None, b","),
            notifications: Vec::new(),
            unreadable: false,
        }
    }

    /// The most results GitHub code scanning accepts in one run: it refuses
    /// a log with more, so this is `--max-results`' default for SARIF.
    pub const DEFAULT_MAX_RESULTS: usize = 25_000;

    /// The same renderer writing at most `limit` results (`None`: all),
    /// errors kept before warnings, with a notification of what was left
    /// out.
    #[must_use]
    pub fn max_results(mut self, limit: Option<usize>) -> Self {
        self.cap = Cap::new(limit, b",");
        self
    }

    /// The URI of `path` (RFC 3986): a relative reference, percent-encoded,
    /// when it is relative or under the base directory, else a `file` URI.
    /// A relative reference whose first segment holds a `:` starts with
    /// `./`, so that it is not read as a scheme (`./a:b.json`); a `\` is a
    /// separator on Windows only, and elsewhere a character of the name
    /// (`%5C`).
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
                let text = slashed(&relative.to_string_lossy());
                let mut text = text.as_str();
                while let Some(rest) = text.strip_prefix("./") {
                    text = rest;
                }
                let encoded = utf8_percent_encode(text, PATH).to_string();
                let first = encoded.split('/').next().unwrap_or_default();
                if first.contains(':') {
                    format!("./{encoded}")
                } else {
                    encoded
                }
            }
            None => {
                let text = slashed(&path.to_string_lossy());
                // `C:/x` on Windows: the path of `file:///C:/x`.
                let root = if text.starts_with('/') { "" } else { "/" };
                format!("file://{root}{}", utf8_percent_encode(&text, PATH))
            }
        }
    }
}

/// A path with `/` between its components: Windows' `\` made `/`; on other
/// systems a `\` is part of a name, and stays (to be percent-encoded).
fn slashed(path: &str) -> String {
    if cfg!(windows) {
        path.replace('\\', "/")
    } else {
        path.to_owned()
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
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = SarifResult))]
#[serde(rename_all = "camelCase")]
pub struct SarifResult<'a> {
    rule_id: &'static str,
    rule_index: usize,
    level: &'static str,
    message: Text,
    locations: [Location<'a>; 1],
    /// The second place the result is about (`--references`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related_locations: Vec<RelatedLocation>,
    partial_fingerprints: Fingerprints,
    properties: Properties<'a>,
}

#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = SarifMessage))]
pub struct Text {
    text: String,
}

#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = SarifLocation))]
#[serde(rename_all = "camelCase")]
pub struct Location<'a> {
    physical_location: PhysicalLocation<'a>,
    logical_locations: [LogicalLocation<'a>; 1],
}

#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = SarifRelatedLocation))]
#[serde(rename_all = "camelCase")]
pub struct RelatedLocation {
    id: usize,
    physical_location: RelatedPhysicalLocation,
    message: Text,
}

#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = SarifRelatedPhysicalLocation))]
#[serde(rename_all = "camelCase")]
pub struct RelatedPhysicalLocation {
    artifact_location: RelatedArtifact,
    region: Region,
}

#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = SarifRelatedArtifact))]
pub struct RelatedArtifact {
    uri: String,
}

#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = SarifPhysicalLocation))]
#[serde(rename_all = "camelCase")]
pub struct PhysicalLocation<'a> {
    artifact_location: ArtifactLocation<'a>,
    region: Region,
}

#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = SarifArtifactLocation))]
pub struct ArtifactLocation<'a> {
    uri: &'a str,
}

#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = SarifRegion))]
#[serde(rename_all = "camelCase")]
pub struct Region {
    start_line: usize,
    start_column: usize,
    end_line: usize,
    end_column: usize,
}

#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = SarifLogicalLocation))]
#[serde(rename_all = "camelCase")]
pub struct LogicalLocation<'a> {
    fully_qualified_name: &'a str,
}

#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = SarifFingerprints))]
pub struct Fingerprints {
    #[serde(rename = "cardkit/v1")]
    cardkit: String,
}

#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = SarifResultProperties))]
pub struct Properties<'a> {
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

/// A rule of the log's tool: one per code, described from the code's
/// explanation (what `cardkit explain CODE` says).
#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = SarifRule))]
#[serde(rename_all = "camelCase")]
pub struct Rule {
    /// The code.
    id: &'static str,
    /// The code in one sentence.
    short_description: Text,
    /// What the code means.
    full_description: Text,
    /// What it means and how to fix it, with an example.
    help: Help,
    /// Where codes are documented.
    help_uri: String,
    /// The code's severity unless options change it.
    default_configuration: Configuration,
}

/// A rule's help, as text and as Markdown.
#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = SarifHelp))]
pub struct Help {
    /// Plain text.
    text: String,
    /// GitHub-flavoured Markdown.
    markdown: String,
}

/// A rule's default configuration.
#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = SarifConfiguration))]
pub struct Configuration {
    /// `error` or `warning`.
    level: &'static str,
}

/// The tool of the log, and its rules.
#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = SarifTool))]
pub struct Tool {
    /// cardkit.
    driver: Driver,
}

/// cardkit as the log's tool.
#[derive(Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = SarifDriver))]
#[serde(rename_all = "camelCase")]
pub struct Driver {
    /// `cardkit`.
    name: &'static str,
    /// cardkit's version.
    version: &'static str,
    /// Where cardkit is documented.
    information_uri: &'static str,
    /// One rule per code, in the order of `ruleIndex`.
    rules: Vec<Rule>,
}

/// A SARIF 2.1.0 log: one run of cardkit, its rules, one result per
/// diagnostic shown, and the invocation. (The renderer writes it piece by
/// piece; this is the shape of what it writes.)
#[cfg(feature = "openapi")]
#[derive(utoipa::ToSchema)]
#[schema(as = Sarif)]
pub struct Log<'a> {
    /// The SARIF 2.1.0 schema's address.
    #[serde(rename = "$schema")]
    pub schema: &'static str,
    /// `2.1.0`.
    #[schema(pattern = r"^2\.1\.0$")]
    pub version: &'static str,
    /// One run, of cardkit.
    pub runs: Vec<LogRun<'a>>,
}

/// The one run of a log.
#[cfg(feature = "openapi")]
#[derive(utoipa::ToSchema)]
#[schema(as = SarifRun)]
pub struct LogRun<'a> {
    /// cardkit and its rules.
    pub tool: Tool,
    /// One result per diagnostic shown.
    pub results: Vec<SarifResult<'a>>,
    /// The run's invocation: whether every input was read, notifications
    /// (inputs that could not be read, what was not shown), the totals.
    #[schema(value_type = Vec<std::collections::BTreeMap<String, serde_json::Value>>)]
    pub invocations: Vec<serde_json::Value>,
}

fn rules() -> Vec<Rule> {
    Code::ALL
        .iter()
        .map(|&code| {
            let explanation = crate::codes::explanation(code);
            let example = &explanation.example;
            let fix = capitalized(explanation.fix);
            Rule {
                id: code.as_str(),
                short_description: Text {
                    text: words::code_summary(code).to_owned(),
                },
                full_description: Text {
                    text: explanation.meaning.to_owned(),
                },
                help: Help {
                    text: format!(
                        "{} To fix it: {} For an example, run `cardkit explain {code}`.",
                        explanation.meaning, explanation.fix
                    ),
                    markdown: format!(
                        "{}\n\n**To fix it:** {fix}\n\nFor example, `{}` on\n\n```json\n{}\n```\n\n(`cardkit explain {code}` shows the diagnostics it gives.)",
                        explanation.meaning,
                        example.command(),
                        example.document.trim_end(),
                    ),
                },
                help_uri: format!("{INFORMATION_URI}#error-codes"),
                default_configuration: Configuration {
                    level: level(code.default_severity()),
                },
            }
        })
        .collect()
}

/// `text` with its first letter a capital.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

impl Renderer for Sarif {
    fn begin_file(&mut self, out: &mut dyn Write, _path: &str) -> io::Result<()> {
        self.head(out)
    }

    fn warnings_shown(&self) -> Option<usize> {
        self.filter.warnings_shown()
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
                related_locations: diagnostic
                    .related
                    .iter()
                    .map(|related| RelatedLocation {
                        id: 1,
                        physical_location: RelatedPhysicalLocation {
                            artifact_location: RelatedArtifact {
                                uri: related
                                    .file
                                    .as_deref()
                                    .map_or_else(|| uri.clone(), |file| self.uri(file)),
                            },
                            region: Region {
                                start_line: related.line,
                                start_column: related.column,
                                end_line: related.line,
                                end_column: related.column + 1,
                            },
                        },
                        message: Text {
                            text: format!("{} ({})", related.message, related.pointer),
                        },
                    })
                    .collect(),
                partial_fingerprints: Fingerprints {
                    cardkit: fingerprint(diagnostic),
                },
                properties: Properties {
                    pointer: &diagnostic.pointer,
                    pointer_bytes: diagnostic.pointer_bytes,
                    field: diagnostic.field.as_deref(),
                },
            };
            let mut line = b"\n".to_vec();
            serde_json::to_writer(&mut line, &result)?;
            self.cap.result(out, diagnostic.severity, line)?;
        }
        self.filter.admit_folded(&document.folded);
        if let Some(note) = words::omitted(document) {
            self.notify("warning", note, Some(uri));
        }
        Ok(())
    }

    fn reading(&mut self, _out: &mut dyn Write, path: &str, reading: &Reading) -> io::Result<()> {
        let uri = self.uri(path);
        self.notify("note", reading.said(), Some(uri));
        Ok(())
    }

    fn end_file(&mut self, _out: &mut dyn Write, path: &str, end: FileEnd<'_>) -> io::Result<()> {
        if let Some(hint) = end.hint {
            let uri = self.uri(path);
            self.notify("note", hint.to_owned(), Some(uri));
        }
        if let Some(error) = end.error {
            self.unreadable = true;
            let uri = self.uri(path);
            self.notify("error", format!("cannot read: {error}"), Some(uri));
        }
        Ok(())
    }

    fn finish(&mut self, out: &mut dyn Write, summary: &Summary) -> io::Result<()> {
        self.head(out)?;
        self.cap.release(out)?;
        for hidden in self.filter.suppressed() {
            self.notify("note", words::suppressed(&hidden), None);
        }
        let left_out = self.cap.left_out();
        if let (Some(cap), 1..) = (self.cap.limit(), left_out.total()) {
            self.notify("warning", words::left_out(left_out, cap, "result"), None);
            if let Some(notification) = self.notifications.last_mut() {
                notification["properties"] = json!({
                    "maxResults": cap,
                    "resultsLeftOut": left_out.total(),
                    "errorsLeftOut": left_out.errors,
                    "warningsLeftOut": left_out.warnings,
                });
            }
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
        if let Some(read) = words::read(summary) {
            invocation["properties"]["read"] = json!(read);
            invocation["properties"]["readUnder"] = json!(summary.read_under);
            invocation["properties"]["checkedAsOf"] = json!(summary.checked_as_of);
        }
        if !summary.ways_out.is_empty() {
            invocation["properties"]["waysOut"] = json!(words::ways_out(summary));
        }
        if let Some(ignored) = words::ignored(summary) {
            invocation["properties"]["ignored"] = json!(summary.ignored);
            invocation["properties"]["ignoredNote"] = json!(ignored);
        }
        if let Some(skipped) = words::skipped(summary) {
            invocation["properties"]["skipped"] = json!(summary.skipped);
            invocation["properties"]["skippedNote"] = json!(skipped);
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
        let tool = Tool {
            driver: Driver {
                name: "cardkit",
                version: env!("CARGO_PKG_VERSION"),
                information_uri: INFORMATION_URI,
                rules: rules(),
            },
        };
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_uri_references() {
        let sarif = Sarif::new(WarningFilter::new(3), Some(PathBuf::from("/work")));
        for (path, uri) in [
            ("a:b.json", "./a:b.json"),
            ("http:x.json", "./http:x.json"),
            ("./c:d.json", "./c:d.json"),
            ("dir/a:b.json", "dir/a:b.json"),
            ("50%.json", "50%25.json"),
            ("with space.json", "with%20space.json"),
            ("naïve.json", "na%C3%AFve.json"),
            ("#hash?.json", "%23hash%3F.json"),
            ("./examples/set.json", "examples/set.json"),
            ("/work/sets/a:b.json", "sets/a:b.json"),
            ("/work/a:b.json", "./a:b.json"),
            ("/elsewhere/a b.json", "file:///elsewhere/a%20b.json"),
        ] {
            assert_eq!(sarif.uri(path), uri, "{path}");
        }
        // A backslash is a separator on Windows only.
        let expected = if cfg!(windows) {
            "back/slash.json"
        } else {
            "back%5Cslash.json"
        };
        assert_eq!(sarif.uri("back\\slash.json"), expected);
    }
}
