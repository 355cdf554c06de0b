//! Reading a `.wave` file (or a `.wbin` binary, as its disassembly), and the one error type the
//! commands return.

use std::fmt;
use std::path::Path;

use wave_engine::wbin;

/// A failed command: the complete text for stderr (already prefixed with `error: `).
#[derive(Debug)]
pub struct Failure(pub String);

impl Failure {
    pub fn new(message: impl fmt::Display) -> Self {
        Failure(format!("error: {message}"))
    }
}

/// The file's text. Unreadable files and bytes that are not UTF-8 are errors that name the file
/// (and, for bad bytes, the line and column where the text stops being UTF-8). A `.wbin` binary
/// (it starts with `WAVE`) reads as its disassembly, so every command takes binaries too; a
/// malformed one is an error naming the file and the byte at fault.
pub fn read(path: &Path) -> Result<String, Failure> {
    let bytes = std::fs::read(path)
        .map_err(|e| Failure::new(format!("cannot read {}: {e}", path.display())))?;
    if wbin::is_wbin(&bytes) {
        return wbin::disassemble(&bytes).map_err(|e| {
            Failure::new(format!("{}: not a valid .wbin binary: {e}", path.display()))
        });
    }
    String::from_utf8(bytes).map_err(|e| {
        let valid = e.utf8_error().valid_up_to();
        let prefix = String::from_utf8_lossy(&e.as_bytes()[..valid]);
        let line = prefix.matches('\n').count() + 1;
        let column = prefix.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        let byte = e.as_bytes().get(valid).copied().unwrap_or(0);
        // A place in the file, so the layout of every located problem (see `report`).
        Failure(format!(
            "{}:{line}:{column}: error: the file is not UTF-8 text: byte {byte:#04x} at offset {valid}",
            crate::report::escape(&path.display().to_string())
        ))
    })
}
