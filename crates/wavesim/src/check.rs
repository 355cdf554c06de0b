//! `wavesim check FILE`: every diagnostic as `FILE:LINE:COL: error|warning: message`, then the
//! source line and a caret line under the offending token.

use std::fmt::Write;

use wave_engine::diagnostic::{Diagnostic, LineIndex};
use wave_engine::{compile, Severity};

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
        let label = match diagnostic.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let (line, column) = index.locate(diagnostic.span.start);
        let _ = writeln!(
            out,
            "{file}:{line}:{column}: {label}: {}",
            diagnostic.message
        );
        let text = index.line_text(line);
        let width = source
            .get(diagnostic.span.start as usize..diagnostic.span.end as usize)
            .and_then(|s| s.lines().next())
            .map_or(1, |s| s.chars().count().max(1));
        let gutter = line.to_string();
        let pad = " ".repeat(gutter.len());
        // Tabs stay tabs so the caret lines up however the terminal expands them.
        let indent: String = text
            .chars()
            .take(column.saturating_sub(1) as usize)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        let _ = writeln!(out, " {gutter} | {text}");
        let _ = writeln!(out, " {pad} | {indent}{}", "^".repeat(width));
        if let Some(help) = &diagnostic.help {
            let _ = writeln!(out, " {pad} = help: {help}");
        }
    }
    out
}
