//! The parser: tokens to [`Item`]s. Statements may share a line (`label: instr`, or two
//! instructions in a row, as `wave-asm` allows). On an error it reports, skips to the end of the
//! line and goes on, so one pass finds every problem.

use crate::diagnostic::Sink;
use crate::instr::Guard;
use crate::program::Span;
use crate::syntax::ast::{Directive, Item, ItemKind, Operand, OperandKind, Scope, Statement};
use crate::syntax::lexer::{Token, TokenKind};
use crate::syntax::mnemonics;

pub(crate) fn parse(source: &str, tokens: &[Token], sink: &mut Sink) -> Vec<Item> {
    let tokens: Vec<Token> = tokens
        .iter()
        .copied()
        .filter(|t| t.kind != TokenKind::Comment)
        .collect();
    let mut parser = Parser {
        source,
        tokens,
        pos: 0,
        items: Vec::new(),
        sink,
    };
    parser.run();
    parser.items
}

struct Parser<'s, 'd> {
    source: &'s str,
    tokens: Vec<Token>,
    pos: usize,
    items: Vec<Item>,
    sink: &'d mut Sink,
}

fn join(a: Span, b: Span) -> Span {
    Span::new(a.start.min(b.start), a.end.max(b.end))
}

impl Parser<'_, '_> {
    fn peek(&self) -> Option<Token> {
        self.tokens.get(self.pos).copied()
    }

    fn text(&self, span: Span) -> &str {
        self.source
            .get(span.start as usize..span.end as usize)
            .unwrap_or("")
    }

    fn describe(&self, token: Token) -> String {
        match token.kind {
            TokenKind::Newline => "the end of the line".to_string(),
            _ => format!("`{}`", self.text(token.span)),
        }
    }

    /// The span just past the end of the previous token (for "missing …" messages at EOL).
    fn end_of_previous(&self) -> Span {
        let end = self
            .pos
            .checked_sub(1)
            .and_then(|i| self.tokens.get(i))
            .map_or(0, |t| t.span.end);
        Span::new(end, end)
    }

    fn skip_line(&mut self) {
        while let Some(token) = self.peek() {
            if token.kind == TokenKind::Newline {
                break;
            }
            self.pos += 1;
        }
    }

    fn run(&mut self) {
        while let Some(token) = self.peek() {
            match token.kind {
                TokenKind::Newline => self.pos += 1,
                TokenKind::Directive => self.directive(token),
                TokenKind::Label => {
                    self.pos += 1;
                    let name = self.text(token.span).trim_end_matches(':').to_string();
                    self.items.push(Item {
                        kind: ItemKind::Label(name),
                        span: token.span,
                    });
                }
                TokenKind::At | TokenKind::Ident => self.statement(),
                TokenKind::Invalid => self.skip_line(),
                _ => {
                    let found = self.describe(token);
                    self.sink.error(
                        token.span,
                        format!("expected an instruction, a label or a directive, found {found}"),
                    );
                    self.skip_line();
                }
            }
        }
    }

    /// After a complete directive or statement, only another statement may follow on the line.
    fn expect_line_end(&mut self, after: &str) {
        if let Some(token) = self.peek() {
            if token.kind != TokenKind::Newline {
                let found = self.describe(token);
                self.sink
                    .error(token.span, format!("unexpected {found} after {after}"));
                self.skip_line();
            }
        }
    }

    fn directive(&mut self, token: Token) {
        self.pos += 1;
        let name = self.text(token.span).to_string();
        let directive = match name.as_str() {
            ".kernel" => {
                let name = match self.peek() {
                    Some(Token {
                        kind: TokenKind::Ident,
                        span,
                    }) if !self.text(span).contains('.') => {
                        self.pos += 1;
                        Some((self.text(span).to_string(), span))
                    }
                    Some(Token {
                        kind: TokenKind::Invalid,
                        ..
                    }) => {
                        self.pos += 1;
                        None
                    }
                    other => {
                        let (span, found) = match other {
                            Some(t) if t.kind != TokenKind::Newline => (t.span, self.describe(t)),
                            _ => (token.span, "nothing".to_string()),
                        };
                        self.sink
                            .error(span, format!("`.kernel` expects a kernel name, found {found}"))
                            .with_help("kernel names are letters, digits and `_`, and must not look like a register (`r2x`, `p0x`)");
                        if other.is_some_and(|t| t.kind != TokenKind::Newline) {
                            self.pos += 1;
                        }
                        None
                    }
                };
                Directive::Kernel { name }
            }
            ".end" => Directive::End,
            ".registers" => {
                let value = self.directive_number(token, &name);
                let value = value.and_then(|v| {
                    if (1..=255).contains(&v.0) {
                        Some(v.0)
                    } else {
                        self.sink
                            .error(v.1, format!("`.registers {}` is out of range", v.0))
                            .with_help("a thread has 1 to 255 registers (r0-r254)");
                        None
                    }
                });
                Directive::Registers(value)
            }
            ".local_memory" => {
                Directive::LocalMemory(self.directive_number(token, &name).map(|v| v.0))
            }
            ".workgroup_size" => Directive::WorkgroupSize(self.workgroup_size(token)),
            _ => {
                let diagnostic = self
                    .sink
                    .error(token.span, format!("invalid directive `{name}`"));
                if Scope::from_word(&name).is_some() || mnemonics::CACHE_HINTS.contains(&&name[1..])
                {
                    diagnostic.with_help("scopes and cache hints belong inside an instruction");
                } else {
                    diagnostic.with_help(
                        "directives are `.kernel`, `.end`, `.registers`, `.local_memory` and `.workgroup_size`",
                    );
                }
                self.skip_line();
                return;
            }
        };
        let span = join(token.span, self.end_of_previous());
        self.items.push(Item {
            kind: ItemKind::Directive(directive),
            span,
        });
        self.expect_line_end(&format!("`{name}`"));
    }

    /// One non-negative integer argument; `None` (diagnosed) otherwise.
    fn directive_number(&mut self, directive: Token, name: &str) -> Option<(u32, Span)> {
        match self.peek() {
            Some(Token {
                kind: TokenKind::Int(value),
                span,
            }) => {
                self.pos += 1;
                match u32::try_from(value) {
                    Ok(v) => Some((v, span)),
                    Err(_) => {
                        self.sink
                            .error(span, format!("`{name}` needs a value of 0 or more"));
                        None
                    }
                }
            }
            Some(Token {
                kind: TokenKind::Invalid,
                ..
            }) => {
                self.pos += 1;
                None
            }
            other => {
                let (span, found) = match other {
                    Some(t) if t.kind != TokenKind::Newline => {
                        self.pos += 1;
                        (t.span, self.describe(t))
                    }
                    _ => (directive.span, "nothing".to_string()),
                };
                self.sink.error(
                    span,
                    format!("`{name}` expects a whole number, found {found}"),
                );
                None
            }
        }
    }

    fn workgroup_size(&mut self, directive: Token) -> Option<[u32; 3]> {
        let mut size = [0u32; 3];
        let mut valid = true;
        for (axis, slot) in size.iter_mut().enumerate() {
            if axis > 0 {
                match self.peek() {
                    Some(Token {
                        kind: TokenKind::Comma,
                        ..
                    }) => self.pos += 1,
                    other => {
                        let span = other
                            .filter(|t| t.kind != TokenKind::Newline)
                            .map_or(self.end_of_previous(), |t| t.span);
                        self.sink.error(
                            span,
                            "`.workgroup_size` expects three values separated by commas: X, Y, Z",
                        );
                        self.skip_line();
                        return None;
                    }
                }
            }
            match self.directive_number(directive, ".workgroup_size") {
                Some((value, _)) => *slot = value,
                None => valid = false,
            }
        }
        if valid && size[0] > 0 && (size[1] == 0 || size[2] == 0) {
            self.sink
                .error(directive.span, "`.workgroup_size` Y and Z must be 1 or more")
                .with_help("X = 0 means \"use the launch configuration\"; otherwise every axis needs at least one thread");
            return None;
        }
        valid.then_some(size)
    }

    fn statement(&mut self) {
        let mut guard = None;
        if let Some(at) = self.peek().filter(|t| t.kind == TokenKind::At) {
            self.pos += 1;
            let negated = self.peek().is_some_and(|t| t.kind == TokenKind::Bang);
            if negated {
                self.pos += 1;
            }
            match self.peek() {
                Some(Token {
                    kind: TokenKind::Predicate(index),
                    span,
                }) => {
                    self.pos += 1;
                    let g = if negated {
                        Guard::unless(index)
                    } else {
                        Guard::when(index)
                    };
                    guard = Some((g, join(at.span, span)));
                }
                Some(Token {
                    kind: TokenKind::Invalid,
                    ..
                }) => {
                    self.skip_line();
                    return;
                }
                other => {
                    let span = other
                        .filter(|t| t.kind != TokenKind::Newline)
                        .map_or(at.span, |t| t.span);
                    self.sink
                        .error(span, "`@` must be followed by a predicate: `@p1` or `@!p1`");
                    self.skip_line();
                    return;
                }
            }
        }
        let mnemonic = match self.peek() {
            Some(token) if token.kind == TokenKind::Ident => token,
            other => {
                let (span, found) = match other {
                    Some(t) if t.kind != TokenKind::Newline => (t.span, self.describe(t)),
                    _ => (self.end_of_previous(), "the end of the line".to_string()),
                };
                if other.is_none_or(|t| t.kind != TokenKind::Invalid) {
                    self.sink.error(
                        span,
                        format!("expected an instruction after the predicate, found {found}"),
                    );
                }
                self.skip_line();
                return;
            }
        };
        self.pos += 1;
        // A cache hint written apart (`device_load_u32 .cached r1, r0`) is accepted too.
        while let Some(token) = self.peek() {
            let is_hint = token.kind == TokenKind::Directive
                && mnemonics::CACHE_HINTS.contains(&&self.text(token.span)[1..]);
            if !is_hint {
                break;
            }
            self.pos += 1;
        }
        let mut operands = Vec::new();
        if self.starts_first_operand() {
            loop {
                match self.operand() {
                    Some(operand) => operands.push(operand),
                    None => {
                        // Stands for the unreadable operand, so no count error follows.
                        operands.push(Operand {
                            kind: OperandKind::Invalid,
                            span: self.end_of_previous(),
                        });
                        self.skip_line();
                        break;
                    }
                }
                if self.peek().is_some_and(|t| t.kind == TokenKind::Comma) {
                    self.pos += 1;
                } else {
                    break;
                }
            }
        }
        let end = operands.last().map_or(mnemonic.span, |o| o.span);
        self.items.push(Item {
            span: join(mnemonic.span, end),
            kind: ItemKind::Statement(Statement {
                guard,
                mnemonic: self.text(mnemonic.span).to_string(),
                mnemonic_span: mnemonic.span,
                span: join(mnemonic.span, end),
                operands,
            }),
        });
    }

    /// Whether the next token is the first operand of the statement just read, rather than the
    /// start of the next statement on the same line.
    fn starts_first_operand(&self) -> bool {
        let Some(token) = self.peek() else {
            return false;
        };
        match token.kind {
            TokenKind::Register(_)
            | TokenKind::Predicate(_)
            | TokenKind::Special(_)
            | TokenKind::Int(_)
            | TokenKind::Float(_)
            | TokenKind::Bang
            | TokenKind::Invalid
            | TokenKind::Comma => true,
            // Any `.word` that is not a directive is an attempted operand (`.gpu` for a scope).
            TokenKind::Directive => !matches!(
                self.text(token.span),
                ".kernel" | ".end" | ".registers" | ".local_memory" | ".workgroup_size"
            ),
            TokenKind::Ident => mnemonics::resolve(self.text(token.span)).is_none(),
            TokenKind::Label | TokenKind::At | TokenKind::Newline | TokenKind::Comment => false,
        }
    }

    /// One operand; `None` after reporting an error (the caller skips the line).
    fn operand(&mut self) -> Option<Operand> {
        let Some(token) = self.peek().filter(|t| t.kind != TokenKind::Newline) else {
            self.sink
                .error(self.end_of_previous(), "expected an operand after `,`");
            return None;
        };
        self.pos += 1;
        let kind = match token.kind {
            TokenKind::Register(n) => OperandKind::Register(n),
            TokenKind::Predicate(index) => OperandKind::Predicate {
                index,
                negated: false,
            },
            TokenKind::Special(sr) => OperandKind::Special(sr),
            TokenKind::Int(v) => OperandKind::Int(v),
            TokenKind::Float(v) => OperandKind::Float(v),
            TokenKind::Invalid => OperandKind::Invalid,
            TokenKind::Directive | TokenKind::Ident => {
                let text = self.text(token.span);
                match Scope::from_word(text) {
                    Some(scope) => OperandKind::Scope(scope),
                    None if token.kind == TokenKind::Ident && !text.contains('.') => {
                        OperandKind::Name(text.to_string())
                    }
                    None => {
                        self.sink
                            .error(token.span, format!("`{text}` is not a valid operand"))
                            .with_help("scopes are `.wave`, `.workgroup`, `.device` and `.system`");
                        return None;
                    }
                }
            }
            TokenKind::Bang => match self.peek() {
                Some(Token {
                    kind: TokenKind::Predicate(index),
                    span,
                }) => {
                    self.pos += 1;
                    return Some(Operand {
                        kind: OperandKind::Predicate {
                            index,
                            negated: true,
                        },
                        span: join(token.span, span),
                    });
                }
                _ => {
                    self.sink
                        .error(token.span, "`!` must be followed by a predicate (`!p1`)");
                    return None;
                }
            },
            _ => {
                let found = self.describe(token);
                self.sink
                    .error(token.span, format!("expected an operand, found {found}"));
                return None;
            }
        };
        Some(Operand {
            kind,
            span: token.span,
        })
    }
}
