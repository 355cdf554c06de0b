//! The front end's entry point: source text to a [`Program`] plus every diagnostic, in one pass.

use crate::diagnostic::{Diagnostic, LineIndex, Sink};
use crate::lower::lower;
use crate::program::{Program, Span};
use crate::syntax::ast::Item;
use crate::syntax::lexer::lex_lines;
use crate::syntax::parser::parse;
use crate::syntax::questions::{questions, Question};

#[derive(Clone, Debug, PartialEq)]
pub struct Compiled {
    /// Every error and warning, ordered by position.
    pub diagnostics: Vec<Diagnostic>,
    /// `Some` exactly when there is no error.
    pub program: Option<Program>,
    /// The teaching questions written in comments, in source order (malformed ones are
    /// warnings instead).
    pub questions: Vec<Question>,
}

impl Compiled {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Compiles WAVE assembly. Never panics; keeps going after errors so the editor can show them all.
pub fn compile(source: &str) -> Compiled {
    CompileJob::new(source.to_string()).finish().1
}

/// A compile done a few lines at a time, so that a long source never holds a caller (the page's
/// main thread) for long: [`CompileJob::advance`] lexes and parses the next lines, and
/// [`CompileJob::finish`] lowers the whole program. Whatever the steps, the result is exactly
/// [`compile`]'s: no token and no statement spans a line break, and lowering sees every item
/// in order.
pub struct CompileJob {
    source: String,
    sink: Sink,
    items: Vec<Item>,
    questions: Vec<Question>,
    /// Byte offset where the next line to lex begins.
    lexed: usize,
}

impl CompileJob {
    pub fn new(source: String) -> CompileJob {
        let mut sink = Sink::default();
        // Spans are u32 byte offsets: a source too long for them is not read at all.
        let lexed = if u32::try_from(source.len()).is_err() {
            sink.error(Span::new(0, 0), "the source is too large (4 GiB or more)");
            source.len()
        } else {
            0
        };
        CompileJob {
            source,
            sink,
            items: Vec::new(),
            questions: Vec::new(),
            lexed,
        }
    }

    /// Lexes and parses up to `lines` more lines. True when every line is read and only
    /// [`CompileJob::finish`] is left.
    pub fn advance(&mut self, lines: usize) -> bool {
        if self.lexed >= self.source.len() {
            return true;
        }
        let rest = &self.source[self.lexed..];
        let end = match lines.checked_sub(1) {
            Some(more) => rest
                .match_indices('\n')
                .nth(more)
                .map_or(self.source.len(), |(at, _)| self.lexed + at + 1),
            None => self.lexed,
        };
        let tokens = lex_lines(&self.source, self.lexed, end, &mut self.sink);
        let asked = questions(&self.source, &tokens, &mut self.sink);
        self.questions.extend(asked);
        let parsed = parse(&self.source, &tokens, &mut self.sink);
        self.items.extend(parsed);
        self.lexed = end;
        self.lexed >= self.source.len()
    }

    /// Reads what is left, lowers the program and sorts the diagnostics. Gives the source back.
    pub fn finish(mut self) -> (String, Compiled) {
        while !self.advance(usize::MAX) {}
        let too_large = u32::try_from(self.source.len()).is_err();
        let lines = LineIndex::new(&self.source);
        let program = (!too_large).then(|| lower(&self.items, &lines, &mut self.sink));
        let mut diagnostics = self.sink.list;
        diagnostics.sort_by_key(|d| (d.span.start, d.span.end));
        lines.locate_all(&mut diagnostics);
        let failed = diagnostics.iter().any(Diagnostic::is_error);
        let compiled = Compiled {
            diagnostics,
            program: program.filter(|_| !failed),
            questions: self.questions,
        };
        (self.source, compiled)
    }
}
