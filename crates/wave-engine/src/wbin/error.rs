//! The two ways `.wbin` work fails: a malformed binary, and a source that cannot become one.

use std::fmt;

use crate::diagnostic::Diagnostic;

/// A binary that cannot be read (or written back as source): where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WbinError {
    /// Byte offset in the file of the field or instruction at fault.
    pub offset: usize,
    pub message: String,
}

impl WbinError {
    pub fn new(offset: usize, message: impl Into<String>) -> Self {
        WbinError {
            offset,
            message: message.into(),
        }
    }
}

impl fmt::Display for WbinError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {:#x}: {}", self.offset, self.message)
    }
}

impl std::error::Error for WbinError {}

/// A source that cannot be assembled: its compile errors, or the statements that have no
/// encoding (docs-dialect forms the engine accepts but `wave-asm` does not). Every diagnostic is
/// an error with its line and column filled in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssembleError {
    pub diagnostics: Vec<Diagnostic>,
}

impl fmt::Display for AssembleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, diagnostic) in self.diagnostics.iter().enumerate() {
            if index > 0 {
                writeln!(f)?;
            }
            write!(
                f,
                "{}:{}: {}",
                diagnostic.line, diagnostic.column, diagnostic.message
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for AssembleError {}
