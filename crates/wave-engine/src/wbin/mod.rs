//! `.wbin`, the binary the upstream assembler (`wave-asm`, spec v0.4) writes: assembling a source
//! into it byte for byte as `wave-asm` does, decoding one, and disassembling one back into source
//! that [`crate::compile()`] accepts and that assembles to the same bytes.
//!
//! The file is a 32-byte header, the code of every kernel back to back, the kernel names
//! (NUL-terminated) and the per-kernel metadata; the `container` module has the layout and `word`
//! the instruction words. These choices of the upstream assembler are mirrored on purpose,
//! because the binary is what `wave-asm` writes, not what the playground would run:
//! - a float immediate stores the low 32 bits of its f64 pattern, and `@p0` encodes as
//!   "no predicate";
//! - `atomic_cas`/`local_atomic_cas` carry the modifier of `add` (the desired value sits in
//!   rs3, which tells them apart when it is not r0; when it is, only the call targets can,
//!   see the `add_or_cas` module);
//! - a `call` target is the label's offset as `wave-asm`'s label table counts it: only the
//!   mnemonics it flags as extended count 8 bytes, every other one 4, and the count runs
//!   over the whole file (spec departure D5). The disassembler inverts that count, so a call lands
//!   on the instruction its label named.

mod add_or_cas;
mod assemble;
mod container;
mod decode;
mod disassemble;
mod error;
mod labels;
mod layout;
mod opcodes;
mod word;

pub use assemble::assemble;
pub use container::{Header, Section, MAGIC};
pub use decode::{decode, Wbin, WbinKernel};
pub use disassemble::disassemble;
pub use error::{AssembleError, WbinError};
pub use labels::wave_emu_pc;
pub use word::{Instruction, Operand};

/// True when `bytes` start with the `.wbin` magic (`WAVE`): such a file is a binary, not text.
pub fn is_wbin(bytes: &[u8]) -> bool {
    bytes.starts_with(&MAGIC)
}
