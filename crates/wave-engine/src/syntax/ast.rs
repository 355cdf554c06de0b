//! What the parser produces: a flat list of items (directives, labels, statements) with spans.

use crate::instr::{Guard, SpecialRegister};
use crate::program::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    Wave,
    Workgroup,
    Device,
    System,
}

impl Scope {
    /// `.wave` or the bare word `wave`, and so on.
    pub fn from_word(word: &str) -> Option<Scope> {
        match word.strip_prefix('.').unwrap_or(word) {
            "wave" => Some(Scope::Wave),
            "workgroup" => Some(Scope::Workgroup),
            "device" => Some(Scope::Device),
            "system" => Some(Scope::System),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum OperandKind {
    Register(u8),
    Predicate {
        index: u8,
        negated: bool,
    },
    Special(SpecialRegister),
    Scope(Scope),
    Int(i64),
    Float(f64),
    /// A bare identifier: a label reference.
    Name(String),
    /// Unreadable (already diagnosed by the lexer); matches any slot silently.
    Invalid,
}

impl OperandKind {
    /// How messages name this kind of operand.
    pub(crate) fn describe(&self) -> &'static str {
        match self {
            OperandKind::Register(_) => "a register",
            OperandKind::Predicate { .. } => "a predicate",
            OperandKind::Special(_) => "a special register",
            OperandKind::Scope(_) => "a scope",
            OperandKind::Int(_) => "an integer",
            OperandKind::Float(_) => "a float",
            OperandKind::Name(_) => "a name",
            OperandKind::Invalid => "an invalid operand",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Operand {
    pub kind: OperandKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Statement {
    /// `@pN` / `@!pN` and the span of the prefix.
    pub guard: Option<(Guard, Span)>,
    /// As written, including dotted suffixes and cache hints.
    pub mnemonic: String,
    pub mnemonic_span: Span,
    pub operands: Vec<Operand>,
    /// Mnemonic through last operand.
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Directive {
    /// `.kernel NAME`; `None` when the name was missing or unreadable (already diagnosed).
    Kernel {
        name: Option<(String, Span)>,
    },
    End,
    /// Values are `None` when unreadable (already diagnosed).
    Registers(Option<u32>),
    LocalMemory(Option<u32>),
    WorkgroupSize(Option<[u32; 3]>),
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ItemKind {
    Directive(Directive),
    Label(String),
    Statement(Statement),
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Item {
    pub kind: ItemKind,
    /// The directive through its arguments, the label with its colon, or the statement.
    pub span: Span,
}
