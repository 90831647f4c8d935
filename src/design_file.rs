//! Reading the design file a template command is given: a path, or `-` for
//! standard input; a file that cannot be read or is not a design is a
//! message naming it.

use std::io::Read;
use std::path::Path;

use cardkit_design::source::Design;

/// The bytes of `path` (`-`: standard input).
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    let read = if path == Path::new("-") {
        std::io::stdin().lock().read_to_end(&mut bytes).map(|_| ())
    } else {
        std::fs::read(path).map(|read| bytes = read)
    };
    read.map(|()| bytes)
        .map_err(|error| format!("{}: cannot read: {error}", path.display()))
}

/// The template or card design in `path`.
pub fn read_design(path: &Path) -> Result<Design, String> {
    let bytes = read_bytes(path)?;
    Design::read(&bytes).map_err(|error| format!("{}: {error}", path.display()))
}

/// Writes `cardkit COMMAND: error: MESSAGE` on standard error.
pub fn error(command: &str, message: &str) {
    eprintln!("cardkit {command}: error: {message}");
}
