//! The editor's views of the source: the engine's highlighting, diagnostics, teaching questions,
//! and the tables the editor's completion and highlighting use.

use wave_engine::{Severity, TokenClass};

use crate::build::Build;

/// A piece of one line: its text and, for a token, its class name (for CSS: "mnemonic",
/// "register", "predicate", "special", "directive", "comment", "number", "label", "ident",
/// "punct", "invalid"). Whitespace pieces have no class. The pieces of a line concatenate to
/// exactly that line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HighlightSpan {
    pub text: String,
    pub class: Option<&'static str>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiagnosticView {
    /// "error" or "warning".
    pub severity: &'static str,
    /// 1-based line and char column of the start.
    pub line: u32,
    pub column: u32,
    /// Byte range in the source (for the underline).
    pub start: u32,
    pub end: u32,
    pub message: String,
    pub help: Option<String>,
}

pub fn class_name(class: TokenClass) -> &'static str {
    match class {
        TokenClass::Mnemonic => "mnemonic",
        TokenClass::Register => "register",
        TokenClass::Predicate => "predicate",
        TokenClass::SpecialRegister => "special",
        TokenClass::Directive => "directive",
        TokenClass::Comment => "comment",
        TokenClass::Number => "number",
        TokenClass::Label => "label",
        TokenClass::Identifier => "ident",
        TokenClass::Punctuation => "punct",
        TokenClass::Invalid => "invalid",
    }
}

/// Every diagnostic of `build`'s source, in source order.
pub(crate) fn diagnostic_views(build: &Build) -> Vec<DiagnosticView> {
    build
        .diagnostics()
        .iter()
        .map(|d| DiagnosticView {
            severity: match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            },
            line: d.line,
            column: d.column,
            start: d.span.start,
            end: d.span.end,
            message: d.message.clone(),
            help: d.help.clone(),
        })
        .collect()
}

/// The mnemonic table for the editor's completion and highlighting: one `name<TAB>operands`
/// line per mnemonic (`icmp_eq\tpd, rs1, rs2`), the predicate-logic forms included.
pub fn mnemonic_table() -> String {
    use wave_engine::syntax::mnemonics::{MNEMONICS, PREDICATE_LOGIC};
    let mut table = String::new();
    let mut add = |name: &str, operands: &str| {
        table.push_str(name);
        table.push('\t');
        table.push_str(operands);
        table.push('\n');
    };
    for entry in MNEMONICS {
        add(entry.name, &entry.signature());
    }
    for (name, _, slots) in PREDICATE_LOGIC {
        let operands: Vec<&str> = slots.iter().map(|slot| slot.name).collect();
        add(name, &operands.join(", "));
    }
    table
}

/// The cache hints a mnemonic may carry (`.cached`), space-separated.
pub fn cache_hint_names() -> String {
    wave_engine::syntax::mnemonics::CACHE_HINTS.join(" ")
}

/// Every special register's name, space-separated.
pub fn special_register_names() -> String {
    let names: Vec<&str> = wave_engine::instr::SpecialRegister::ALL
        .iter()
        .map(|(_, name)| *name)
        .collect();
    names.join(" ")
}

/// The UTF-16 offsets (what a browser editor counts) of byte offsets into `text`, in the order
/// given. An offset past the end or inside a character is taken at the next character boundary.
pub fn utf16_offsets(text: &str, bytes: &[u32]) -> Vec<u32> {
    if text.is_ascii() {
        return bytes.iter().map(|&b| b.min(text.len() as u32)).collect();
    }
    let mut order: Vec<usize> = (0..bytes.len()).collect();
    order.sort_by_key(|&i| bytes[i]);
    let mut out = vec![0u32; bytes.len()];
    let mut chars = text.char_indices().peekable();
    let mut units = 0u32;
    for i in order {
        let target = bytes[i] as usize;
        while let Some(&(at, c)) = chars.peek() {
            if at >= target {
                break;
            }
            units += c.len_utf16() as u32;
            chars.next();
        }
        out[i] = units;
    }
    out
}

/// Any source split into lines (without line breaks), each as highlighted pieces: the engine's
/// lexer's view, which the editor's own highlighting (JavaScript, drawn line by line) is tested
/// against.
pub fn highlight_lines(source: &str) -> Vec<Vec<HighlightSpan>> {
    let tokens = wave_engine::highlight(source);
    let mut lines = Vec::new();
    let mut next_token = 0;
    let mut line_start = 0usize;
    for raw in source.split('\n') {
        let line_end = line_start + raw.len();
        let mut pieces = Vec::new();
        let mut at = line_start;
        let push = |from: usize, to: usize, class: Option<&'static str>, pieces: &mut Vec<_>| {
            if to > from {
                pieces.push(HighlightSpan {
                    text: source[from..to].to_string(),
                    class,
                });
            }
        };
        while let Some(&(span, class)) = tokens.get(next_token) {
            let (s, e) = (span.start as usize, span.end as usize);
            if s >= line_end {
                break;
            }
            let e = e.min(line_end);
            push(at, s.max(at), None, &mut pieces);
            push(s.max(at), e, Some(class_name(class)), &mut pieces);
            at = at.max(e);
            next_token += 1;
        }
        push(at, line_end, None, &mut pieces);
        lines.push(pieces);
        line_start = line_end + 1;
    }
    lines
}
