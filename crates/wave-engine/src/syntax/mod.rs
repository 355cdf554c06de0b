//! Source text to items: lexer, parser, the mnemonic table and the editor's highlighter.

pub mod ast;
pub mod highlight;
pub mod lexer;
pub mod mnemonics;
pub mod parser;
pub mod questions;
pub mod suggest;

pub use highlight::{highlight, TokenClass};
