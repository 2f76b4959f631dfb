//! The command's documentation generated from its own definition, so that it cannot drift: shell
//! completion scripts (`tongwen completions bash`) and the manual pages the packages install
//! (`tongwen man FOLDER`: `tongwen.1` and `tongwen-SUBCOMMAND.1` for each subcommand).

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::CommandFactory;
use clap_complete::Shell;

/// Print the completion script for `shell` to standard output.
pub fn completions<C: CommandFactory>(shell: Shell) -> Result<ExitCode> {
    let mut command = C::command();
    let mut out = io::stdout().lock();
    clap_complete::generate(shell, &mut command, "tongwen", &mut out);
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Write a manual page for the command and for each of its subcommands into `folder` (created if needed).
pub fn pages<C: CommandFactory>(folder: &Path) -> Result<ExitCode> {
    std::fs::create_dir_all(folder)
        .with_context(|| format!("cannot create {}", folder.display()))?;
    let command = C::command().name("tongwen");
    clap_mangen::generate_to(command, folder)
        .with_context(|| format!("cannot write the manual pages into {}", folder.display()))?;
    Ok(ExitCode::SUCCESS)
}
