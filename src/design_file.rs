//! How the design commands report a file they cannot use; the file itself
//! is read by the library (`cardkit_design::file`).

/// Writes `cardkit COMMAND: error: MESSAGE` on standard error.
pub fn error(command: &str, message: &str) {
    eprintln!("cardkit {command}: error: {message}");
}
