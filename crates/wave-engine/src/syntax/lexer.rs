//! The lexer: source text to tokens with byte spans. It never fails: anything it cannot read
//! becomes an [`TokenKind::Invalid`] token plus an error diagnostic, so the parser can go on.

use crate::diagnostic::Sink;
use crate::instr::SpecialRegister;
use crate::program::Span;
use crate::syntax::suggest::closest;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TokenKind {
    /// A bare word; may carry dotted suffixes (`icmp.lt`, `device_load_u32.cached`).
    Ident,
    /// `name:`; the span covers the name and the colon.
    Label,
    /// `.name` (directives, scopes, cache hints written apart from the mnemonic).
    Directive,
    Register(u8),
    Predicate(u8),
    Special(SpecialRegister),
    Int(i64),
    Float(f64),
    Comma,
    At,
    Bang,
    Newline,
    Comment,
    /// Unreadable text; a diagnostic has already been reported for it.
    Invalid,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
}

/// `wave-asm`'s immediate range: anything from i32::MIN to u32::MAX.
pub(crate) const IMMEDIATE_MIN: i64 = -(1 << 31);
pub(crate) const IMMEDIATE_MAX: i64 = (1 << 32) - 1;

pub(crate) fn lex(source: &str, sink: &mut Sink) -> Vec<Token> {
    lex_lines(source, 0, source.len(), sink)
}

/// Lexes `source[start..end]`, with spans into the whole `source`. `start` must begin a line
/// and `end` must end one (just past its line break, or the end of the source): no token spans
/// a line break, so lexing a source a few lines at a time gives exactly the tokens of [`lex`].
pub(crate) fn lex_lines(source: &str, start: usize, end: usize, sink: &mut Sink) -> Vec<Token> {
    let end = end.min(source.len());
    let mut lexer = Lexer {
        source,
        bytes: &source.as_bytes()[..end],
        pos: start.min(end),
        tokens: Vec::new(),
        sink,
    };
    lexer.run();
    lexer.tokens
}

struct Lexer<'s, 'd> {
    source: &'s str,
    bytes: &'s [u8],
    pos: usize,
    tokens: Vec<Token>,
    sink: &'d mut Sink,
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn is_word_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn span(start: usize, end: usize) -> Span {
    Span::new(start as u32, end as u32)
}

impl Lexer<'_, '_> {
    fn peek(&self, ahead: usize) -> Option<u8> {
        self.bytes.get(self.pos + ahead).copied()
    }

    fn push(&mut self, kind: TokenKind, start: usize) {
        self.tokens.push(Token {
            kind,
            span: span(start, self.pos),
        });
    }

    fn run(&mut self) {
        while let Some(byte) = self.peek(0) {
            let start = self.pos;
            match byte {
                b' ' | b'\t' | b'\r' => self.pos += 1,
                b'\n' => {
                    self.pos += 1;
                    self.push(TokenKind::Newline, start);
                }
                b';' | b'#' => {
                    while self.peek(0).is_some_and(|b| b != b'\n') {
                        self.pos += 1;
                    }
                    self.push(TokenKind::Comment, start);
                }
                b',' => {
                    self.pos += 1;
                    self.push(TokenKind::Comma, start);
                }
                b'@' => {
                    self.pos += 1;
                    self.push(TokenKind::At, start);
                }
                b'!' => {
                    self.pos += 1;
                    self.push(TokenKind::Bang, start);
                }
                b'.' if self.peek(1).is_some_and(is_word_start) => {
                    self.pos += 1;
                    self.take_word_bytes();
                    self.push(TokenKind::Directive, start);
                }
                b'0'..=b'9' => self.number(start),
                b'-' if self.peek(1).is_some_and(|b| b.is_ascii_digit()) => self.number(start),
                b if is_word_start(b) => self.word(start),
                _ => self.invalid_run(start),
            }
        }
    }

    fn take_word_bytes(&mut self) {
        while self.peek(0).is_some_and(is_word_byte) {
            self.pos += 1;
        }
    }

    /// Characters that start no token: one Invalid token for the whole run.
    fn invalid_run(&mut self, start: usize) {
        let rest = &self.source[start..];
        let mut end = start;
        for (offset, c) in rest.char_indices() {
            // A run of odd characters (and any letters glued to it, like `été`) is one token.
            let starts_token = matches!(c, ' ' | '\t' | '\r' | '\n' | ';' | '#' | ',' | '@' | '!');
            if offset > 0 && starts_token {
                break;
            }
            end = start + offset + c.len_utf8();
        }
        self.pos = end;
        let text = &self.source[start..end];
        self.sink
            .error(span(start, end), format!("unexpected `{text}`"));
        self.push(TokenKind::Invalid, start);
    }

    fn word(&mut self, start: usize) {
        self.take_word_bytes();
        let base_end = self.pos;
        // Dotted suffixes glued to the word: `icmp.lt`, `r3.hi`, `device_load_u32.cached`.
        while self.peek(0) == Some(b'.') && self.peek(1).is_some_and(is_word_start) {
            self.pos += 1;
            self.take_word_bytes();
        }
        let base = &self.source[start..base_end];
        let suffix = &self.source[base_end..self.pos];
        let whole = span(start, self.pos);
        let kind = self.classify_word(base, suffix, whole);
        if kind == TokenKind::Invalid && self.peek(0) == Some(b':') {
            // `r2loop:` was meant as a label: one error is enough, the colon goes with it.
            self.pos += 1;
        }
        if kind == TokenKind::Ident && suffix.is_empty() && self.peek(0) == Some(b':') {
            self.pos += 1;
            self.push(TokenKind::Label, start);
            return;
        }
        self.push(kind, start);
    }

    fn classify_word(&mut self, base: &str, suffix: &str, whole: Span) -> TokenKind {
        let bytes = base.as_bytes();
        let digit_after_first = bytes.len() > 1 && bytes[1].is_ascii_digit();
        if bytes[0] == b'r' && digit_after_first {
            return self.register(base, suffix, whole);
        }
        if bytes[0] == b'p' && digit_after_first {
            return self.predicate(base, suffix, whole);
        }
        if base.starts_with("sr_") {
            let name = format!("{base}{suffix}");
            if let Some(sr) = SpecialRegister::from_name(&name) {
                return TokenKind::Special(sr);
            }
            let names = SpecialRegister::ALL.iter().map(|(_, n)| *n);
            let diagnostic = self
                .sink
                .error(whole, format!("unknown special register `{name}`"));
            let by_prefix = SpecialRegister::ALL
                .iter()
                .map(|(_, n)| *n)
                .find(|n| n.starts_with(name.as_str()));
            match by_prefix.or_else(|| closest(&name, names)) {
                Some(near) => diagnostic.with_help(format!("did you mean `{near}`?")),
                None => diagnostic.with_help(
                    "special registers are `sr_thread_id_x`, `sr_lane_id`, `sr_wave_width`, …",
                ),
            };
            return TokenKind::Invalid;
        }
        TokenKind::Ident
    }

    fn register(&mut self, base: &str, suffix: &str, whole: Span) -> TokenKind {
        let digits = &base[1..];
        if !digits.bytes().all(|b| b.is_ascii_digit()) {
            self.sink
                .error(whole, format!("`{base}` is not a register"))
                .with_help("a word that starts with `r` and a digit is read as a register, so it cannot be a name");
            return TokenKind::Invalid;
        }
        if !matches!(suffix, "" | ".lo" | ".hi") {
            self.sink
                .error(whole, format!("unknown register suffix `{suffix}`"))
                .with_help("only `.lo` and `.hi` are accepted (and ignored)");
            return TokenKind::Invalid;
        }
        match digits.parse::<u32>() {
            Ok(n) if n <= 254 => TokenKind::Register(n as u8),
            _ => {
                self.sink.error(
                    whole,
                    format!("register `{base}` is out of range: registers must be 0-254"),
                );
                TokenKind::Invalid
            }
        }
    }

    fn predicate(&mut self, base: &str, suffix: &str, whole: Span) -> TokenKind {
        let digits = &base[1..];
        if !digits.bytes().all(|b| b.is_ascii_digit()) || !suffix.is_empty() {
            self.sink
                .error(whole, format!("`{base}{suffix}` is not a predicate register"))
                .with_help("a word that starts with `p` and a digit is read as a predicate, so it cannot be a name");
            return TokenKind::Invalid;
        }
        match digits.parse::<u32>() {
            Ok(n) if n <= 3 => TokenKind::Predicate(n as u8),
            _ => {
                self.sink.error(
                    whole,
                    format!("predicate `{base}` does not exist: predicates are p0-p3"),
                );
                TokenKind::Invalid
            }
        }
    }

    fn number(&mut self, start: usize) {
        if self.peek(0) == Some(b'-') {
            self.pos += 1;
        }
        let body_start = self.pos;
        let hex = self.peek(0) == Some(b'0') && matches!(self.peek(1), Some(b'x' | b'X'));
        while let Some(b) = self.peek(0) {
            let exponent_sign =
                !hex && matches!(b, b'+' | b'-') && matches!(self.bytes[self.pos - 1], b'e' | b'E');
            if is_word_byte(b) || b == b'.' || exponent_sign {
                self.pos += 1;
            } else {
                break;
            }
        }
        let whole = span(start, self.pos);
        let text = &self.source[start..self.pos];
        let negative = body_start > start;
        let body = &self.source[body_start..self.pos];
        let kind = match parse_number(body, negative) {
            Ok(NumberValue::Float(value)) => TokenKind::Float(value),
            Ok(NumberValue::Int(value)) if (IMMEDIATE_MIN..=IMMEDIATE_MAX).contains(&value) => {
                TokenKind::Int(value)
            }
            Ok(NumberValue::Int(_)) | Err(NumberError::TooBig) => {
                self.sink
                    .error(whole, format!("immediate value `{text}` is out of range"))
                    .with_help(
                        "immediates must fit in 32 bits: -2147483648 to 4294967295 (0xffffffff)",
                    );
                TokenKind::Invalid
            }
            Err(NumberError::UpperHexPrefix) => {
                self.sink
                    .error(whole, format!("invalid number `{text}`"))
                    .with_help("write hexadecimal with a lowercase `0x` prefix");
                TokenKind::Invalid
            }
            Err(NumberError::Malformed) => {
                self.sink.error(whole, format!("invalid number `{text}`"));
                TokenKind::Invalid
            }
        };
        self.push(kind, start);
    }
}

enum NumberValue {
    Int(i64),
    Float(f64),
}

enum NumberError {
    TooBig,
    UpperHexPrefix,
    Malformed,
}

fn parse_number(body: &str, negative: bool) -> Result<NumberValue, NumberError> {
    let sign = if negative { -1 } else { 1 };
    if body.starts_with("0X") {
        return Err(NumberError::UpperHexPrefix);
    }
    if let Some(hex) = body.strip_prefix("0x") {
        let digits: String = hex.chars().filter(|c| *c != '_').collect();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(NumberError::Malformed);
        }
        let value = u64::from_str_radix(&digits, 16).map_err(|_| NumberError::TooBig)?;
        let value = i64::try_from(value).map_err(|_| NumberError::TooBig)?;
        return Ok(NumberValue::Int(sign * value));
    }
    let digits: String = body.chars().filter(|c| *c != '_').collect();
    if digits.bytes().all(|b| b.is_ascii_digit()) && !digits.is_empty() {
        let value = digits.parse::<u64>().map_err(|_| NumberError::TooBig)?;
        let value = i64::try_from(value).map_err(|_| NumberError::TooBig)?;
        return Ok(NumberValue::Int(sign * value));
    }
    // Floats: digits with a `.` and/or an exponent; no letters other than `e`.
    let float_shaped = digits
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'));
    if float_shaped {
        if let Ok(value) = digits.parse::<f64>() {
            if value.is_finite() {
                return Ok(NumberValue::Float(sign as f64 * value));
            }
            return Err(NumberError::TooBig);
        }
    }
    Err(NumberError::Malformed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(source: &str) -> (Vec<TokenKind>, usize) {
        let mut sink = Sink::default();
        let tokens = lex(source, &mut sink);
        (tokens.iter().map(|t| t.kind).collect(), sink.list.len())
    }

    #[test]
    fn reads_registers_numbers_and_words() {
        let (tokens, errors) = kinds("loop: iadd r3.hi, p2, -0x1_0, 1.5e2 ; hi\n");
        assert_eq!(errors, 0);
        assert_eq!(
            tokens,
            vec![
                TokenKind::Label,
                TokenKind::Ident,
                TokenKind::Register(3),
                TokenKind::Comma,
                TokenKind::Predicate(2),
                TokenKind::Comma,
                TokenKind::Int(-16),
                TokenKind::Comma,
                TokenKind::Float(150.0),
                TokenKind::Comment,
                TokenKind::Newline,
            ]
        );
    }

    #[test]
    fn range_errors_become_invalid_tokens() {
        for bad in [
            "r255",
            "p4",
            "4294967296",
            "-2147483649",
            "0X10",
            "sr_nope",
            "r2loop",
            "1.2.3",
        ] {
            let (tokens, errors) = kinds(bad);
            assert_eq!(tokens, vec![TokenKind::Invalid], "{bad}");
            assert_eq!(errors, 1, "{bad}");
        }
        assert_eq!(kinds("4294967295").0, vec![TokenKind::Int(4294967295)]);
        assert_eq!(kinds("-2147483648").0, vec![TokenKind::Int(-2147483648)]);
    }
}
