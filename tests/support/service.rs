//! `cardkit serve` started as a process on a free port, for the tests that
//! ask it over HTTP; killed when dropped.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, ChildStderr, Command, Stdio};

/// A running `cardkit serve`.
pub struct Service {
    pub child: Child,
    /// `HOST:PORT` it listens on.
    pub addr: String,
    /// Its first line on standard error (where it listens).
    pub first_line: String,
    /// The rest of its standard error.
    pub stderr: BufReader<ChildStderr>,
}

impl Service {
    /// `cardkit serve --addr 127.0.0.1:0 ARGS…`, run in `dir`.
    pub fn start_in(dir: &Path, args: &[&str]) -> Service {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cardkit"))
            .current_dir(dir)
            .args(["serve", "--addr", "127.0.0.1:0"])
            .args(args)
            .stderr(Stdio::piped())
            .spawn()
            .expect("cardkit serve starts");
        let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
        let mut first_line = String::new();
        stderr.read_line(&mut first_line).expect("the first line");
        let addr = first_line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_else(|| panic!("no address in {first_line:?}"))
            .to_owned();
        Service {
            child,
            addr,
            first_line,
            stderr,
        }
    }

    /// `cardkit serve --addr 127.0.0.1:0 --no-config`, as the tests that
    /// want the service's own defaults run it.
    pub fn start() -> Service {
        Service::start_in(&super::workspace_dir(), &["--no-config"])
    }

    /// The URL of `path_and_query` on the service.
    pub fn url(&self, path_and_query: &str) -> String {
        format!("http://{}{path_and_query}", self.addr)
    }
}

impl Drop for Service {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
