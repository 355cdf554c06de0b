//! Teaching questions written as comments: `; ?mask`, `; ?next`, `; ?stack`, `; ?value r4`. They
//! travel with the source (share links, `.wave` files) and mean nothing to the assembler; the
//! front end reads them so a malformed one is reported where it is written, as a warning (a
//! kernel with a typo in a question still runs).

use crate::diagnostic::Sink;
use crate::program::Span;
use crate::syntax::lexer::{Token, TokenKind};
use crate::syntax::suggest::closest;

/// What a question asks about the instruction it belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuestionKind {
    /// Which lanes are active after it.
    Mask,
    /// Which line runs next.
    Next,
    /// How deep the divergence stack is after it.
    Stack,
    /// What a lane holds in this register after it.
    Value(u8),
}

/// A question and where it is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Question {
    pub kind: QuestionKind,
    /// The comment's span.
    pub span: Span,
}

const NAMES: [&str; 4] = ["mask", "next", "stack", "value"];

/// Why a question cannot be read: the message and a help line.
type Unreadable = (String, String);

/// Reads a comment's text (with its `;` or `#`): `None` when it asks nothing (no `?` first).
pub fn read(comment: &str) -> Option<Result<QuestionKind, Unreadable>> {
    let body = comment.get(1..)?.trim_start();
    let asked = body.strip_prefix('?')?;
    let mut words = asked.split_whitespace();
    let name = words.next().unwrap_or("");
    let argument = words.next();
    let extra = words.next();
    let kind = match name {
        "mask" | "next" | "stack" => {
            if let Some(word) = argument {
                return Some(Err((
                    format!("`?{name}` takes nothing after it, found `{word}`"),
                    format!("write `; ?{name}` alone; a note for the learner goes on another comment line"),
                )));
            }
            match name {
                "mask" => QuestionKind::Mask,
                "next" => QuestionKind::Next,
                _ => QuestionKind::Stack,
            }
        }
        "value" => {
            let Some(register) = argument else {
                return Some(Err((
                    "`?value` needs the register it asks about".to_string(),
                    "write e.g. `; ?value r4`".to_string(),
                )));
            };
            let number = register
                .strip_prefix('r')
                .and_then(|digits| digits.parse::<u8>().ok())
                .filter(|&n| n <= 254);
            match (number, extra) {
                (Some(n), None) => QuestionKind::Value(n),
                (Some(_), Some(word)) => {
                    return Some(Err((
                        format!("`?value {register}` takes nothing more, found `{word}`"),
                        "a question asks about one register".to_string(),
                    )))
                }
                (None, _) => {
                    return Some(Err((
                        format!("`{register}` is not a register"),
                        "`?value` asks about a register r0–r254, e.g. `; ?value r4`".to_string(),
                    )))
                }
            }
        }
        "" => {
            return Some(Err((
                "a question mark with no question".to_string(),
                "questions are `?mask`, `?next`, `?stack` and `?value rN`".to_string(),
            )))
        }
        other => {
            let help = match closest(other, NAMES) {
                Some(near) => format!("did you mean `?{near}`?"),
                None => "questions are `?mask`, `?next`, `?stack` and `?value rN`".to_string(),
            };
            return Some(Err((format!("unknown question `?{other}`"), help)));
        }
    };
    Some(Ok(kind))
}

/// The questions among `tokens`' comments, in order; a malformed one becomes a warning.
pub fn questions(source: &str, tokens: &[Token], sink: &mut Sink) -> Vec<Question> {
    let mut found = Vec::new();
    for token in tokens.iter().filter(|t| t.kind == TokenKind::Comment) {
        let text = source
            .get(token.span.start as usize..token.span.end as usize)
            .unwrap_or("");
        match read(text) {
            Some(Ok(kind)) => found.push(Question {
                kind,
                span: token.span,
            }),
            Some(Err((message, help))) => {
                sink.warning(token.span, message).with_help(help);
            }
            None => {}
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_each_kind_and_ignores_plain_comments() {
        assert_eq!(read("; ?mask"), Some(Ok(QuestionKind::Mask)));
        assert_eq!(read("#?next"), Some(Ok(QuestionKind::Next)));
        assert_eq!(read(";   ?stack  "), Some(Ok(QuestionKind::Stack)));
        assert_eq!(read("; ?value r4"), Some(Ok(QuestionKind::Value(4))));
        assert_eq!(read("; is this a question? no"), None);
        assert_eq!(read(";"), None);
    }

    #[test]
    fn malformed_questions_say_what_is_wrong() {
        let message = |text: &str| match read(text) {
            Some(Err((message, help))) => format!("{message} / {help}"),
            other => panic!("{text}: {other:?}"),
        };
        assert_eq!(
            message("; ?masks"),
            "unknown question `?masks` / did you mean `?mask`?"
        );
        assert!(message("; ?value").starts_with("`?value` needs the register"));
        assert!(message("; ?value r255").starts_with("`r255` is not a register"));
        assert!(message("; ?value r4 r5").starts_with("`?value r4` takes nothing more"));
        assert!(message("; ?next line 3").starts_with("`?next` takes nothing after it"));
        assert!(message("; ?").starts_with("a question mark with no question"));
    }
}
