//! How `wavesim` reports a problem in a file, whatever it is (a compile error, a warning, a
//! trap): `FILE:LINE:COL: error|warning: MESSAGE`, then the source line and a caret line under
//! the place, then any help. Characters a terminal would act on (control bytes, escape
//! sequences) are printed escaped, as `\x1b`, never raw.

use std::fmt::Write;

use wave_engine::diagnostic::{severity_label, Diagnostic, LineIndex};

/// Every diagnostic of one file, in the order given (the front end orders them by position).
pub fn diagnostics(file: &str, source: &str, diagnostics: &[Diagnostic]) -> String {
    let index = LineIndex::new(source);
    let mut out = String::new();
    let file = escape(file);
    for diagnostic in diagnostics {
        let excerpt = index.excerpt(diagnostic);
        let label = severity_label(diagnostic.severity);
        let (line, column) = (excerpt.line, excerpt.column);
        let _ = writeln!(
            out,
            "{file}:{line}:{column}: {label}: {}",
            escape(&diagnostic.message)
        );
        let (text, carets) = escape_under_carets(excerpt.text, &excerpt.carets);
        let gutter = line.to_string();
        let pad = " ".repeat(gutter.len());
        let _ = writeln!(out, " {gutter} | {text}");
        let _ = writeln!(out, " {pad} | {carets}");
        if let Some(help) = &diagnostic.help {
            let _ = writeln!(out, " {pad} = help: {}", escape(help));
        }
    }
    out
}

/// A character a terminal shows as itself (tabs included).
fn printable(c: char) -> bool {
    c == '\t' || !c.is_control()
}

/// `text` with every other control character written as `\xNN` (or `\u{NNNN}` beyond a byte).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        push_escaped(&mut out, c);
    }
    out
}

fn push_escaped(out: &mut String, c: char) {
    if printable(c) {
        out.push(c);
    } else if (c as u32) < 0x100 {
        let _ = write!(out, "\\x{:02x}", c as u32);
    } else {
        let _ = write!(out, "\\u{{{:04x}}}", c as u32);
    }
}

/// The source line escaped, and its caret line widened to match: a caret (or space) under a
/// character that became `\x01` is repeated under each of its four characters.
fn escape_under_carets(text: &str, carets: &str) -> (String, String) {
    let mut line = String::with_capacity(text.len());
    let mut under = String::with_capacity(carets.len());
    let mut marks = carets.chars();
    for c in text.chars() {
        let before = line.chars().count();
        push_escaped(&mut line, c);
        let width = line.chars().count() - before;
        let mark = marks.next().unwrap_or(' ');
        under.extend(std::iter::repeat_n(mark, width));
    }
    // Carets past the end of the line (a place at its end) stay as they are.
    under.extend(marks);
    (line, under.trim_end().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_and_the_carets_follow() {
        assert_eq!(
            escape("a\u{1b}[31mb\u{0}\tc\u{85}"),
            "a\\x1b[31mb\\x00\tc\\x85"
        );
        let (text, carets) = escape_under_carets("x\u{1}yz", " ^^^");
        assert_eq!(text, "x\\x01yz");
        assert_eq!(carets, " ^^^^^^");
        let (text, carets) = escape_under_carets("\tab", "\t ^");
        assert_eq!((text.as_str(), carets.as_str()), ("\tab", "\t ^"));
    }
}
