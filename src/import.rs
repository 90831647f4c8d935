//! `cardkit import`: reads the design tool's files, writes the documents the
//! library converts them to, and renders the report of what could not be
//! carried over in `validate`'s formats.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use cardkit::report::{Summary, WarningFilter};
use cardkit_design::file::DesignFile;
use cardkit_design::import::{file_names, import, From, ImportOptions, ImportedDocument};
use cardkit_run::output::{self, Refused, Rules};
use cardkit_run::render::Renderer;
use cardkit_run::{ExitStatus, UntilClosed};

use crate::output::ReportFormat;

#[derive(clap::Args)]
pub struct Args {
    /// The design tool's files: layered templates and card designs, classic
    /// save files (`*.cardconjurer`); `-` reads standard input (once).
    /// Example: cardkit import template.json saved-cards.cardconjurer
    #[arg(required = true, value_name = "FILE")]
    files: Vec<String>,

    /// The inputs' format: `auto` (told from the content), `layered`
    /// (templates and card designs) or `classic` (the save file).
    /// Example: --from classic
    #[arg(long, value_enum, default_value_t = From::Auto)]
    from: From,

    /// The output's `asset_root_url`: a URL (`https://…`), or a directory,
    /// written as its absolute path. Example: --asset-root https://cards.example.org/
    #[arg(long, value_name = "URL|DIR")]
    asset_root: Option<String>,

    /// Copies a group's `filters` (the spec's Group has none) onto the
    /// layers under it, rather than leaving them out. Example: --push-filters
    #[arg(long)]
    push_filters: bool,

    /// Where the documents go: a file for one document, a directory for
    /// several (file names from the documents' names, made unique). Without
    /// it, documents go to standard output (JSON for one, JSON Lines for
    /// several) and the report to standard error. Example: -o cards/
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,

    /// Replaces files already at the outputs (never an input); without it,
    /// an output that exists is an error and nothing is written.
    #[arg(long)]
    force: bool,

    /// The report's format, as for validate: `text`, `concise`, `json`,
    /// `github`, `sarif` or `junit`. Example: --format json
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    format: ReportFormat,
}

impl Args {
    /// What the arguments ask that cannot be done, beyond what clap checks:
    /// the options of the import, with `--asset-root` resolved.
    pub fn options(&self) -> Result<ImportOptions, String> {
        crate::options::check_paths(&self.files)?;
        let asset_root = match &self.asset_root {
            None => None,
            Some(root) if root.contains("://") => Some(root.clone()),
            Some(dir) => {
                let path = Path::new(dir);
                if !path.is_dir() {
                    return Err(format!(
                        "--asset-root {dir}: neither a URL (scheme://…) nor a directory"
                    ));
                }
                let absolute = path
                    .canonicalize()
                    .map_err(|error| format!("--asset-root {dir}: {error}"))?;
                Some(absolute.to_string_lossy().into_owned())
            }
        };
        Ok(ImportOptions {
            from: self.from,
            asset_root,
            push_filters: self.push_filters,
        })
    }
}

/// Every warning is shown: each one is something the output lost.
fn renderer(format: ReportFormat, colored: bool) -> Box<dyn Renderer> {
    let every = || WarningFilter::new(usize::MAX);
    format.renderer(every(), every(), colored, None)
}

pub fn run(args: &Args, options: &ImportOptions) -> io::Result<ExitStatus> {
    // The report goes where the documents do not.
    let to_stdout = args.output.is_some();
    let colored = if to_stdout {
        anstream::AutoStream::choice(&io::stdout()) != anstream::ColorChoice::Never
    } else {
        anstream::AutoStream::choice(&io::stderr()) != anstream::ColorChoice::Never
    };
    let mut renderer = renderer(args.format, colored);
    let mut report: Box<dyn Write> = if to_stdout {
        Box::new(io::BufWriter::new(UntilClosed::new(io::stdout().lock())))
    } else {
        Box::new(io::BufWriter::new(io::stderr().lock()))
    };
    let mut summary = Summary::default();
    let mut documents: Vec<ImportedDocument> = Vec::new();
    for file in &args.files {
        // The bytes as they are: the import reads the older layouts too.
        let input = match DesignFile::read(file) {
            Ok(input) => input,
            Err(why) => {
                renderer.unreadable(&mut report, file, &why.reason())?;
                summary.unreadable += 1;
                continue;
            }
        };
        let bytes = input.bytes();
        let imported = import(bytes, options);
        renderer.file(&mut report, file, &imported.report)?;
        summary.add(&imported.report, bytes.len() as u64);
        documents.extend(imported.documents);
    }
    let written = write_documents(args, &documents);
    if let Err(why) = &written {
        summary.unreadable += 1;
        let _ = writeln!(io::stderr(), "cardkit import: error: {why}");
    }
    renderer.finish(&mut report, &summary)?;
    report.flush()?;
    Ok(ExitStatus::of(&summary))
}

/// Writes the documents: to `-o` (a file for one, a directory for several)
/// or to standard output. Never over an input, nor over a file already
/// there without `--force`.
fn write_documents(args: &Args, documents: &[ImportedDocument]) -> Result<(), String> {
    let Some(output) = &args.output else {
        let mut out = io::BufWriter::new(io::stdout().lock());
        let written = if let [document] = documents {
            out.write_all(document.to_json_pretty().as_bytes())
        } else {
            documents
                .iter()
                .try_for_each(|document| writeln!(out, "{}", document.to_json_line()))
        };
        return match written.and_then(|()| out.flush()) {
            Err(error) if error.kind() != io::ErrorKind::BrokenPipe => Err(error.to_string()),
            _ => Ok(()),
        };
    };
    let inputs: Vec<PathBuf> = args
        .files
        .iter()
        .filter(|file| *file != "-")
        .map(PathBuf::from)
        .collect();
    let targets: Vec<PathBuf> = if documents.len() == 1 && args.files.len() == 1 && !output.is_dir()
    {
        vec![output.clone()]
    } else {
        if documents.is_empty() {
            return Ok(());
        }
        fs::create_dir_all(output).map_err(|error| format!("{}: {error}", output.display()))?;
        let names: Vec<&str> = documents
            .iter()
            .map(|document| document.name.as_str())
            .collect();
        file_names(&names)
            .into_iter()
            .map(|name| output.join(name))
            .collect()
    };
    let rules = Rules {
        inputs: &inputs,
        replace: args.force,
        suffix: ".tmp",
    };
    // Every target refused before any is written: an input (or a link to
    // one), a file already there without --force.
    for target in &targets {
        output::check(target, &rules).map_err(|why| why.to_string())?;
    }
    for (document, target) in documents.iter().zip(&targets) {
        output::write(target, &rules, |file| {
            file.write_all(document.to_json_pretty().as_bytes())
                .map(|()| true)
                .map_err(|error| Refused::Io(target.clone(), error))
        })
        .map_err(|why| why.to_string())?;
    }
    Ok(())
}
