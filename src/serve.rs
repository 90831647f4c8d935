//! `cardkit serve`: the validation service, with its limits; the service is
//! the `cardkit-serve` crate's.

use std::io::{self, Write};
use std::net::SocketAddr;
use std::time::Duration;

use cardkit_run::{ExitStatus, Settings, Surface, MAX_JOBS};
use cardkit_serve::Config;

use crate::options::ConfigFile;

#[derive(clap::Args)]
pub struct Args {
    /// The address to listen on; port 0 takes a free port (the address taken
    /// is printed). Example: --addr 0.0.0.0:8080
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "HOST:PORT")]
    addr: SocketAddr,

    /// The largest body taken, after decoding gzip or zstd: bytes, or with a
    /// unit (KB, MB, GB, KiB, MiB, GiB). Larger bodies get 413.
    /// Example: --max-body 512MiB
    #[arg(long, default_value = "4GiB", value_name = "SIZE", value_parser = size)]
    max_body: u64,

    /// How long one request may take, in seconds, its body and its report
    /// included. Slower requests get 408 (or, once their report has begun,
    /// end it with the body unreadable). Example: --timeout 60
    #[arg(long, default_value_t = Config::DEFAULT_TIMEOUT.as_secs(), value_name = "SECS",
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    timeout: u64,

    /// How many requests are served at once; more are refused at once with
    /// 503 and `Retry-After`. Example: --max-concurrent 16
    #[arg(long, default_value_t = 64, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=65_536))]
    max_concurrent: u32,

    /// How many renders (POST /v1/render) run at once, each also one of
    /// --max-concurrent; more are refused at once with 503 and `Retry-After`.
    /// Example: --max-renders 2
    #[arg(long, default_value_t = Config::DEFAULT_MAX_RENDERS as u32, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=4096))]
    max_renders: u32,

    /// The folder renders (POST /v1/render) read the designs' frames,
    /// symbols, art and fonts from, as `cardkit render --assets`; without
    /// it, assets are drawn as placeholders. Example: --assets assets/
    #[arg(long, value_name = "DIR")]
    assets: Option<std::path::PathBuf>,

    /// How long a connection may stay open with no request being served
    /// (sending nothing, part of a head, or only HTTP/2's preface, settings
    /// and pings), in seconds; it is then closed. Example: --idle-timeout 10
    #[arg(long, default_value_t = Config::DEFAULT_IDLE_TIMEOUT.as_secs(), value_name = "SECS",
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    idle_timeout: u64,

    /// The slowest a body may come, in bytes a second over each
    /// --body-window of waiting for it; slower bodies get 408 and free their
    /// slot. 0 takes any rate (up to --timeout). Example: --min-body-rate 10KiB
    #[arg(long, default_value = "1KiB", value_name = "SIZE", value_parser = rate)]
    min_body_rate: u64,

    /// The window over which --min-body-rate is measured, in seconds.
    /// Example: --body-window 30
    #[arg(long, default_value_t = Config::DEFAULT_BODY_WINDOW.as_secs(), value_name = "SECS",
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    body_window: u64,

    /// How many threads each validation may use, from 1 to 256 (default: one
    /// per core), as `cardkit validate --jobs`. Example: --jobs 1
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..=MAX_JOBS as i64))]
    jobs: Option<u16>,

    #[command(flatten)]
    file: ConfigFile,
}

fn size(text: &str) -> Result<u64, String> {
    let size: bytesize::ByteSize = text
        .trim()
        .parse()
        .map_err(|why| format!("`{text}` is not a size ({why}); e.g. 1048576, 512MiB, 4GiB"))?;
    if size.as_u64() == 0 {
        return Err("the size must be above 0".to_owned());
    }
    Ok(size.as_u64())
}

fn rate(text: &str) -> Result<u64, String> {
    if text.trim() == "0" {
        return Ok(0);
    }
    size(text)
}

pub fn run(args: &Args) -> io::Result<ExitStatus> {
    if let Some(Err(why)) = args
        .assets
        .as_deref()
        .map(|dir| crate::options::existing_dir("--assets", dir))
    {
        let _ = writeln!(io::stderr(), "cardkit serve: error: {why}");
        return Ok(ExitStatus::Error);
    }
    // The configuration file's options are the defaults of every request,
    // which its query parameters override.
    let file = match args.file.read() {
        Ok(file) => file,
        Err(error) => {
            let _ = writeln!(io::stderr(), "cardkit serve: error: {error}");
            return Ok(ExitStatus::Error);
        }
    };
    let mut config = Config {
        max_body: args.max_body,
        timeout: Duration::from_secs(args.timeout),
        max_concurrent: args.max_concurrent as usize,
        max_renders: args.max_renders as usize,
        assets: args.assets.clone(),
        idle_timeout: Duration::from_secs(args.idle_timeout),
        min_body_rate: args.min_body_rate,
        body_window: Duration::from_secs(args.body_window),
        ..Config::default()
    };
    if let Some(file) = &file {
        config.defaults = file.settings(Settings::default());
        // Named as the file names them: the flags are not given here.
        if let Err(why) = config.defaults.check(Surface::Config) {
            let _ = writeln!(
                io::stderr(),
                "cardkit serve: error: {}: {why}",
                file.path.display()
            );
            return Ok(ExitStatus::Error);
        }
        if let Some(jobs) = &file.jobs {
            config.jobs = jobs.value;
        }
    }
    if let Some(jobs) = args.jobs {
        config.jobs = usize::from(jobs);
    }
    let options = file.map_or(String::new(), |file| {
        format!("; the options of {}", file.path.display())
    });
    cardkit_serve::run(args.addr, config, |addr| {
        let _ = writeln!(
            io::stderr(),
            "cardkit serve: listening on http://{addr} (Ctrl-C or SIGTERM stops){options}"
        );
    })
    .map_err(|error| io::Error::new(error.kind(), format!("serve on {}: {error}", args.addr)))?;
    let _ = writeln!(io::stderr(), "cardkit serve: stopped");
    Ok(ExitStatus::Success)
}
