//! The layout `wave-asm` writes, which a binary must have for its source to assemble back to
//! it: the code right after the header, then the names in kernel order, then the metadata and
//! nothing after it; each kernel's code right after the previous one's.

use super::container::{
    CODE_AT, HEADER_SIZE, KERNEL_RECORD_SIZE, METADATA_AT, RECORD_CODE_AT, SYMBOLS_AT,
};
use super::decode::Wbin;
use super::error::WbinError;

/// The file must be laid out as `wave-asm` lays it out, or its source would assemble to other
/// bytes: sections back to back after the header, names in kernel order, kernels' code back to
/// back in kernel order, nothing after the metadata.
pub(super) fn check(wbin: &Wbin) -> Result<(), WbinError> {
    let header = &wbin.header;
    let fail = |offset: usize, message: String| Err(WbinError::new(offset, message));
    if header.code.start() != HEADER_SIZE {
        return fail(
            CODE_AT,
            format!(
                "the code starts at {:#x}, not right after the header ({HEADER_SIZE:#x}) where wave-asm puts it",
                header.code.offset
            ),
        );
    }
    let Some(symbols) = header.symbols else {
        return fail(
            SYMBOLS_AT,
            "the file has no symbol table, so its kernels have no names for `.kernel NAME`"
                .to_string(),
        );
    };
    if symbols.start() != header.code.end() {
        return fail(
            SYMBOLS_AT,
            format!(
                "the symbol table starts at {:#x}, not right after the code ({:#x})",
                symbols.offset,
                header.code.end()
            ),
        );
    }
    if header.metadata.start() != symbols.end() {
        return fail(
            METADATA_AT,
            format!(
                "the metadata starts at {:#x}, not right after the symbol table ({:#x})",
                header.metadata.offset,
                symbols.end()
            ),
        );
    }
    let records = 4 + wbin.kernels.len() * KERNEL_RECORD_SIZE;
    if header.metadata.size as usize != records {
        return fail(
            METADATA_AT + 4,
            format!(
                "the metadata has {} bytes, but its {} kernels take {records}",
                header.metadata.size,
                wbin.kernels.len()
            ),
        );
    }
    if wbin.len != header.metadata.end() {
        return fail(
            header.metadata.end(),
            format!(
                "{} bytes follow the metadata, the last section",
                wbin.len - header.metadata.end()
            ),
        );
    }
    let (mut name_at, mut code_at) = (symbols.start(), 0usize);
    for (index, kernel) in wbin.kernels.iter().enumerate() {
        let name = kernel.name.as_deref().unwrap_or_default();
        if kernel.name_offset as usize != name_at {
            return fail(
                kernel.record_at,
                format!(
                    "kernel {index}'s name is at {:#x}, but the names before it end at {name_at:#x}",
                    kernel.name_offset
                ),
            );
        }
        if !is_writable_name(name) {
            return fail(
                name_at,
                format!("kernel name `{}` cannot be written after `.kernel` (names are letters, digits and `_`, and may not look like a register, a predicate or `sr_…`)", name.escape_debug()),
            );
        }
        if kernel.code_offset as usize != code_at {
            return fail(
                kernel.record_at + RECORD_CODE_AT,
                format!(
                    "kernel {index}'s code starts at {:#x}, but the code before it ends at {code_at:#x}",
                    kernel.code_offset
                ),
            );
        }
        name_at += name.len() + 1;
        code_at += kernel.code_size as usize;
    }
    if name_at != symbols.end() {
        return fail(
            SYMBOLS_AT + 4,
            format!(
                "the symbol table has {} bytes, but the kernel names take {}",
                symbols.size,
                name_at - symbols.start()
            ),
        );
    }
    if code_at != header.code.size as usize {
        return fail(
            header.code.start() + code_at,
            format!(
                "{} bytes of code belong to no kernel",
                header.code.size as usize - code_at
            ),
        );
    }
    Ok(())
}

/// A name the lexer reads back as the same identifier after `.kernel`.
fn is_writable_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    let looks_like_register =
        |prefix: u8| bytes.first() == Some(&prefix) && bytes.get(1).is_some_and(u8::is_ascii_digit);
    bytes
        .first()
        .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || *b == b'_')
        && !looks_like_register(b'r')
        && !looks_like_register(b'p')
        && !name.starts_with("sr")
}
