//! `wavesim asm FILE.wave -o FILE.wbin` writes the binary the upstream assembler (`wave-asm`)
//! would write; `wavesim dis FILE.wbin` prints it back as source.

use std::path::PathBuf;

use wave_engine::compile;
use wave_engine::diagnostic::render;
use wave_engine::wbin;
use wave_engine::Diagnostic;

use crate::cli::{AsmArgs, DisArgs};
use crate::source::{self, Failure};

/// Assembles the file and writes the binary; its warnings (forms that `wave-asm` encodes
/// differently from how the playground runs them) go to stderr.
pub fn assemble(args: &AsmArgs) -> Result<(), Failure> {
    let output = output_path(args)?;
    let source = source::read(&args.file)?;
    let file = args.file.display().to_string();
    let bytes = wbin::assemble(&source)
        .map_err(|error| Failure(with_file(&file, &source, &error.diagnostics)))?;
    let warnings: Vec<Diagnostic> = compile(&source)
        .diagnostics
        .into_iter()
        .filter(|d| !d.is_error())
        .collect();
    if !warnings.is_empty() {
        eprintln!("{}", with_file(&file, &source, &warnings));
    }
    std::fs::write(&output, bytes)
        .map_err(|e| Failure::new(format!("cannot write {}: {e}", output.display())))
}

/// `-o`, else the input with the extension `.wbin`; never the input itself.
fn output_path(args: &AsmArgs) -> Result<PathBuf, Failure> {
    let output = args
        .output
        .clone()
        .unwrap_or_else(|| args.file.with_extension("wbin"));
    if output == args.file {
        return Err(Failure::new(format!(
            "{}: the output would overwrite the input; name another with -o",
            output.display()
        )));
    }
    Ok(output)
}

/// The source text of a binary.
pub fn disassemble(args: &DisArgs) -> Result<String, Failure> {
    let path = &args.file;
    let bytes = std::fs::read(path)
        .map_err(|e| Failure::new(format!("cannot read {}: {e}", path.display())))?;
    if !wbin::is_wbin(&bytes) {
        return Err(Failure::new(format!(
            "{}: not a .wbin binary (it does not start with `WAVE`)",
            path.display()
        )));
    }
    wbin::disassemble(&bytes).map_err(|e| Failure::new(format!("{}: {e}", path.display())))
}

/// Diagnostics as `wavesim run` prints compile errors: the message, `--> FILE:LINE:COL`, the
/// line and carets.
fn with_file(file: &str, source: &str, diagnostics: &[Diagnostic]) -> String {
    diagnostics
        .iter()
        .map(|d| {
            render(source, std::slice::from_ref(d)).replacen("--> ", &format!("--> {file}:"), 1)
        })
        .collect::<String>()
        .trim_end()
        .to_string()
}
