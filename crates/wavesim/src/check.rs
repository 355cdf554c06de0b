//! `wavesim check FILE`: every diagnostic in `report`'s layout.

use wave_engine::compile;

use crate::cli::CheckArgs;
use crate::report;
use crate::source::{self, Failure};

/// What `check` prints on stdout and its verdict.
pub struct Report {
    pub text: String,
    pub errors: usize,
    pub warnings: usize,
    pub kernels: usize,
}

pub fn check(args: &CheckArgs) -> Result<Report, Failure> {
    let source = source::read(&args.file)?;
    let compiled = compile(&source);
    let name = args.file.display().to_string();
    let text = report::diagnostics(&name, &source, &compiled.diagnostics);
    let errors = compiled.diagnostics.iter().filter(|d| d.is_error()).count();
    Ok(Report {
        text,
        errors,
        warnings: compiled.diagnostics.len() - errors,
        kernels: compiled.program.map_or(0, |p| p.kernels.len()),
    })
}
