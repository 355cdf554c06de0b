//! Diagnostics: what the front end tells the user, with a source position the editor can mark.

use crate::program::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Severity {
    Error,
    /// Accepted, but worth knowing (portability to `wave-asm`, suspicious code).
    Warning,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    /// The offending token (byte range into the source).
    pub span: Span,
    /// 1-based line of `span.start`.
    pub line: u32,
    /// 1-based column of `span.start`, counted in chars (not bytes).
    pub column: u32,
    pub help: Option<String>,
}

impl Diagnostic {
    /// A diagnostic whose `line`/`column` are still unknown; [`LineIndex::locate_all`] fills them.
    pub fn new(severity: Severity, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            severity,
            message: message.into(),
            span,
            line: 0,
            column: 0,
            help: None,
        }
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Collects diagnostics while the passes run (lexer, parser, lowering).
#[derive(Debug, Default)]
pub struct Sink {
    pub list: Vec<Diagnostic>,
}

impl Sink {
    pub fn error(&mut self, span: Span, message: impl Into<String>) -> &mut Diagnostic {
        self.list
            .push(Diagnostic::new(Severity::Error, span, message));
        let last = self.list.len() - 1;
        &mut self.list[last]
    }

    pub fn warning(&mut self, span: Span, message: impl Into<String>) -> &mut Diagnostic {
        self.list
            .push(Diagnostic::new(Severity::Warning, span, message));
        let last = self.list.len() - 1;
        &mut self.list[last]
    }
}

impl Diagnostic {
    /// Builder-style help text, used right after [`Sink::error`] / [`Sink::warning`].
    pub fn with_help(&mut self, help: impl Into<String>) -> &mut Self {
        self.help = Some(help.into());
        self
    }
}

/// Maps byte offsets to 1-based line and char-column numbers.
#[derive(Clone, Debug)]
pub struct LineIndex<'s> {
    source: &'s str,
    /// Byte offset where each line starts.
    line_starts: Vec<usize>,
}

impl<'s> LineIndex<'s> {
    pub fn new(source: &'s str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(
            source
                .bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex {
            source,
            line_starts,
        }
    }

    /// 1-based (line, column) of a byte offset; offsets past the end clamp to the end, and an
    /// offset inside a multi-byte char counts as that char.
    pub fn locate(&self, offset: u32) -> (u32, u32) {
        let offset = (offset as usize).min(self.source.len());
        let line = self.line_starts.partition_point(|&start| start <= offset) - 1;
        let start = self.line_starts[line];
        let column = self.source[start..]
            .char_indices()
            .take_while(|(i, _)| start + i < offset)
            .count();
        (line as u32 + 1, column as u32 + 1)
    }

    /// Text of a 1-based line, without its line break.
    pub fn line_text(&self, line: u32) -> &'s str {
        let index = (line as usize).saturating_sub(1);
        let Some(&start) = self.line_starts.get(index) else {
            return "";
        };
        let end = self
            .line_starts
            .get(index + 1)
            .map_or(self.source.len(), |next| next - 1);
        self.source[start..end].trim_end_matches('\r')
    }

    pub fn locate_all(&self, diagnostics: &mut [Diagnostic]) {
        for diagnostic in diagnostics {
            let (line, column) = self.locate(diagnostic.span.start);
            diagnostic.line = line;
            diagnostic.column = column;
        }
    }
}

/// Convenience for callers that have only the source: 1-based (line, column) of a byte offset.
pub fn line_column(source: &str, offset: u32) -> (u32, u32) {
    LineIndex::new(source).locate(offset)
}

/// Where a diagnostic points, for text renderers: its line and column, the source line, and a
/// caret line under the span (tabs kept, so the carets line up however a terminal expands them).
pub struct Excerpt<'s> {
    pub line: u32,
    pub column: u32,
    pub text: &'s str,
    pub carets: String,
}

impl<'s> LineIndex<'s> {
    pub fn excerpt(&self, diagnostic: &Diagnostic) -> Excerpt<'s> {
        let (line, column) = self.locate(diagnostic.span.start);
        let text = self.line_text(line);
        let width = self
            .source
            .get(diagnostic.span.start as usize..diagnostic.span.end as usize)
            .map_or(1, |s| s.lines().next().unwrap_or("").chars().count().max(1));
        let indent: String = text
            .chars()
            .take(column.saturating_sub(1) as usize)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        Excerpt {
            line,
            column,
            text,
            carets: format!("{indent}{}", "^".repeat(width)),
        }
    }
}

/// `"error"` or `"warning"`.
pub fn severity_label(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

/// Renders diagnostics as plain text, compiler style, with the source line and a caret underline.
/// Used by the snapshot tests and by `wavesim run` for compile errors.
pub fn render(source: &str, diagnostics: &[Diagnostic]) -> String {
    let index = LineIndex::new(source);
    let mut out = String::new();
    for diagnostic in diagnostics {
        let excerpt = index.excerpt(diagnostic);
        let gutter = excerpt.line.to_string();
        let pad = " ".repeat(gutter.len());
        out.push_str(&format!(
            "{}: {}\n",
            severity_label(diagnostic.severity),
            diagnostic.message
        ));
        out.push_str(&format!("{pad}--> {}:{}\n", excerpt.line, excerpt.column));
        out.push_str(&format!("{gutter} | {}\n", excerpt.text));
        out.push_str(&format!("{pad} | {}\n", excerpt.carets));
        if let Some(help) = &diagnostic.help {
            out.push_str(&format!("{pad} = help: {help}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locate_counts_chars_not_bytes() {
        let source = "ab\n\u{e9}\u{e9}x\n";
        let index = LineIndex::new(source);
        assert_eq!(index.locate(0), (1, 1));
        assert_eq!(index.locate(3), (2, 1));
        assert_eq!(index.locate(7), (2, 3));
        assert_eq!(index.locate(999), (3, 1));
        assert_eq!(index.line_text(2), "\u{e9}\u{e9}x");
    }
}
