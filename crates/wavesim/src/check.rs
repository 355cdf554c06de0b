//! `wavesim check FILE`: every diagnostic as `FILE:LINE:COL: error|warning: message`, then the
//! source line and a caret line under the offending token.

use std::fmt::Write;

use wave_engine::compile;
use wave_engine::diagnostic::{severity_label, Diagnostic, LineIndex};

use crate::cli::CheckArgs;
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
    let text = format_all(&name, &source, &compiled.diagnostics);
    let errors = compiled.diagnostics.iter().filter(|d| d.is_error()).count();
    Ok(Report {
        text,
        errors,
        warnings: compiled.diagnostics.len() - errors,
        kernels: compiled.program.map_or(0, |p| p.kernels.len()),
    })
}

/// All diagnostics of one file, in the order given (the front end orders them by position).
pub fn format_all(file: &str, source: &str, diagnostics: &[Diagnostic]) -> String {
    let index = LineIndex::new(source);
    let mut out = String::new();
    for diagnostic in diagnostics {
        let excerpt = index.excerpt(diagnostic);
        let label = severity_label(diagnostic.severity);
        let (line, column) = (excerpt.line, excerpt.column);
        let _ = writeln!(
            out,
            "{file}:{line}:{column}: {label}: {}",
            diagnostic.message
        );
        let gutter = line.to_string();
        let pad = " ".repeat(gutter.len());
        let _ = writeln!(out, " {gutter} | {}", excerpt.text);
        let _ = writeln!(out, " {pad} | {}", excerpt.carets);
        if let Some(help) = &diagnostic.help {
            let _ = writeln!(out, " {pad} = help: {help}");
        }
    }
    out
}
