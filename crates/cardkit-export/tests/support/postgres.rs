//! A throwaway PostgreSQL server for a test: a temporary data directory and a
//! Unix socket in it (no TCP port), started with the machine's `initdb` and
//! `pg_ctl` and stopped when dropped. PostgreSQL refuses to run as root, so
//! as root they run as the `postgres` user (`runuser`).

use std::path::{Path, PathBuf};
use std::process::Command;

/// A running server.
pub struct Server {
    dir: tempfile::TempDir,
    pub url: String,
}

/// Where `pg_ctl` and `initdb` are: on `PATH`, or the newest
/// `/usr/lib/postgresql/*/bin`.
fn bin(name: &str) -> PathBuf {
    let on_path = Command::new("sh")
        .args(["-c", &format!("command -v {name}")])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    on_path.unwrap_or_else(|| {
        let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path().join("bin").join(name))
            .filter(|p| p.is_file())
            .collect();
        found.sort();
        found.pop().unwrap_or_else(|| PathBuf::from(name))
    })
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// Runs a PostgreSQL program, as `postgres` when this is root.
fn run(program: &Path, args: &[&str]) {
    let output = command(program, args)
        .output()
        .unwrap_or_else(|e| panic!("{} cannot run: {e}", program.display()));
    assert!(
        output.status.success(),
        "{} {args:?} failed: {}{}",
        program.display(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

fn command(program: &Path, args: &[&str]) -> Command {
    let mut command = if is_root() {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(program);
        c
    } else {
        Command::new(program)
    };
    command.args(args);
    command
}

impl Server {
    /// Makes a cluster in a temporary directory and starts it.
    pub fn start() -> Server {
        let dir = tempfile::Builder::new()
            .prefix("cardkit-pg-")
            .tempdir()
            .expect("a temporary folder");
        if is_root() {
            let status = Command::new("chown")
                .args(["-R", "postgres:postgres"])
                .arg(dir.path())
                .status()
                .expect("chown runs");
            assert!(
                status.success(),
                "the data directory cannot be given to postgres"
            );
        }
        let data = dir.path().join("data");
        let data_text = data.display().to_string();
        let socket = dir.path().display().to_string();
        run(
            &bin("initdb"),
            &[
                "-D",
                &data_text,
                "-U",
                "postgres",
                "-A",
                "trust",
                "--no-sync",
                "-E",
                "UTF8",
            ],
        );
        let options = format!("-k {socket} -c listen_addresses='' -c fsync=off");
        let log = dir.path().join("log").display().to_string();
        run(
            &bin("pg_ctl"),
            &["-D", &data_text, "-l", &log, "-o", &options, "-w", "start"],
        );
        let url = format!("postgresql://postgres@/postgres?host={socket}");
        Server { dir, url }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let data = self.dir.path().join("data").display().to_string();
        // Not a panic while a failed test unwinds: the server's own
        // directory goes with the temporary folder either way.
        let _ = command(
            &bin("pg_ctl"),
            &["-D", &data, "-m", "immediate", "-w", "stop"],
        )
        .output();
    }
}
