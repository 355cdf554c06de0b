//! Source text to items: lexer, parser, the mnemonic table and the editor's highlighter.

pub(crate) mod ast;
pub mod highlight;
pub(crate) mod lexer;
pub mod mnemonics;
pub(crate) mod parser;
pub mod questions;
pub(crate) mod suggest;

pub use highlight::{highlight, TokenClass};
