//! `tongwen bench`: speed and memory figures (filled in by the speed issue).

use std::process::ExitCode;

use anyhow::Result;

#[derive(clap::Args)]
pub struct BenchArgs {}

pub fn run(_args: BenchArgs) -> Result<ExitCode> {
    anyhow::bail!("the benchmark is not written yet")
}
