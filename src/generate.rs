//! `cardkit completions SHELL` and `cardkit man`: the shell completions and
//! the manual page, generated from the same definition of the command line
//! as its help.

use std::io::{self, Write};

use cardkit_run::ExitStatus;
use clap::Command;
use clap_complete::Shell;

#[derive(clap::Args)]
pub struct Completions {
    /// The shell: bash, zsh, fish, powershell or elvish.
    /// Example: cardkit completions bash > /etc/bash_completion.d/cardkit
    #[arg(value_name = "SHELL")]
    shell: Shell,
}

pub fn completions(args: &Completions, mut command: Command) -> io::Result<ExitStatus> {
    // Generated into memory first: clap_complete panics on a failed write,
    // and a reader that goes away (`| head`) is no error of ours.
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "cardkit", &mut script);
    io::stdout().lock().write_all(&script)?;
    Ok(ExitStatus::Success)
}

/// The manual page of `cardkit` and, after it, of each of its commands
/// (`cardkit-validate(1)`, …), in roff.
pub fn man(command: Command) -> io::Result<ExitStatus> {
    let mut out = io::stdout().lock();
    clap_mangen::Man::new(command.clone()).render(&mut out)?;
    pages_of(&command, "cardkit", &mut out)?;
    Ok(ExitStatus::Success)
}

/// The pages of `command`'s subcommands, named after `name`
/// (`cardkit-migrate`, then `cardkit-migrate-apply`), at every depth.
fn pages_of(command: &Command, name: &str, out: &mut dyn Write) -> io::Result<()> {
    for sub in command.get_subcommands() {
        let name = format!("{name}-{}", sub.get_name());
        let page = sub.clone().name(&name).version(env!("CARGO_PKG_VERSION"));
        clap_mangen::Man::new(page).render(out)?;
        pages_of(sub, &name, out)?;
    }
    Ok(())
}
