//! Reading a `.wave` file, and the one error type the commands return.

use std::fmt;
use std::path::Path;

/// A failed command: the complete text for stderr (already prefixed with `error: `).
#[derive(Debug)]
pub struct Failure(pub String);

impl Failure {
    pub fn new(message: impl fmt::Display) -> Self {
        Failure(format!("error: {message}"))
    }
}

/// The file's text. Unreadable files and bytes that are not UTF-8 are errors that name the file
/// (and, for bad bytes, the line and column where the text stops being UTF-8).
pub fn read(path: &Path) -> Result<String, Failure> {
    let bytes = std::fs::read(path)
        .map_err(|e| Failure::new(format!("cannot read {}: {e}", path.display())))?;
    String::from_utf8(bytes).map_err(|e| {
        let valid = e.utf8_error().valid_up_to();
        let prefix = String::from_utf8_lossy(&e.as_bytes()[..valid]);
        let line = prefix.matches('\n').count() + 1;
        let column = prefix.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        Failure::new(format!(
            "{}:{line}:{column}: the file is not UTF-8 text (byte {valid:#x})",
            path.display()
        ))
    })
}
