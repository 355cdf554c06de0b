//! The front end's entry point: source text to a [`Program`] plus every diagnostic, in one pass.

use crate::diagnostic::{Diagnostic, LineIndex, Sink};
use crate::lower::lower;
use crate::program::{Program, Span};
use crate::syntax::{lexer::lex, parser::parse};

#[derive(Clone, Debug, PartialEq)]
pub struct Compiled {
    /// Every error and warning, ordered by position.
    pub diagnostics: Vec<Diagnostic>,
    /// `Some` exactly when there is no error.
    pub program: Option<Program>,
}

impl Compiled {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Compiles WAVE assembly. Never panics; keeps going after errors so the editor can show them all.
pub fn compile(source: &str) -> Compiled {
    let mut sink = Sink::default();
    // Spans are u32 byte offsets.
    if u32::try_from(source.len()).is_err() {
        sink.error(Span::new(0, 0), "the source is too large (4 GiB or more)");
        return Compiled {
            diagnostics: sink.list,
            program: None,
        };
    }
    let tokens = lex(source, &mut sink);
    let items = parse(source, &tokens, &mut sink);
    let lines = LineIndex::new(source);
    let program = lower(&items, &lines, &mut sink);
    let mut diagnostics = sink.list;
    diagnostics.sort_by_key(|d| (d.span.start, d.span.end));
    lines.locate_all(&mut diagnostics);
    let failed = diagnostics.iter().any(Diagnostic::is_error);
    Compiled {
        diagnostics,
        program: (!failed).then_some(program),
    }
}
