//! Syntax classes for the editor, straight from the lexer (no parse needed, so it is cheap to run
//! on every keystroke and works on broken code).

use crate::diagnostic::Sink;
use crate::program::Span;
use crate::syntax::lexer::{lex, TokenKind};
use crate::syntax::mnemonics;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenClass {
    Mnemonic,
    Register,
    Predicate,
    SpecialRegister,
    Directive,
    Comment,
    Number,
    Label,
    Identifier,
    Punctuation,
    Invalid,
}

/// Classifies every token of `source` (whitespace and newlines are left out). Spans are byte
/// ranges, in order, never overlapping, always on char boundaries.
pub fn highlight(source: &str) -> Vec<(Span, TokenClass)> {
    if u32::try_from(source.len()).is_err() {
        return Vec::new();
    }
    let mut discarded = Sink::default();
    lex(source, &mut discarded)
        .into_iter()
        .filter_map(|token| {
            let class = match token.kind {
                TokenKind::Ident => {
                    let text = source
                        .get(token.span.start as usize..token.span.end as usize)
                        .unwrap_or("");
                    if mnemonics::resolve(text).is_some() {
                        TokenClass::Mnemonic
                    } else {
                        TokenClass::Identifier
                    }
                }
                TokenKind::Label => TokenClass::Label,
                TokenKind::Directive => TokenClass::Directive,
                TokenKind::Register(_) => TokenClass::Register,
                TokenKind::Predicate(_) => TokenClass::Predicate,
                TokenKind::Special(_) => TokenClass::SpecialRegister,
                TokenKind::Int(_) | TokenKind::Float(_) => TokenClass::Number,
                TokenKind::Comma | TokenKind::At | TokenKind::Bang => TokenClass::Punctuation,
                TokenKind::Comment => TokenClass::Comment,
                TokenKind::Invalid => TokenClass::Invalid,
                TokenKind::Newline => return None,
            };
            Some((token.span, class))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_a_line() {
        let source = "top: @!p1 iadd r1, r2, 0x10 ; done";
        let classes: Vec<TokenClass> = highlight(source).into_iter().map(|(_, c)| c).collect();
        use TokenClass::*;
        assert_eq!(
            classes,
            vec![
                Label,
                Punctuation,
                Punctuation,
                Predicate,
                Mnemonic,
                Register,
                Punctuation,
                Register,
                Punctuation,
                Number,
                Comment
            ]
        );
    }
}
