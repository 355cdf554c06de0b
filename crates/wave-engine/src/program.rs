//! What the front end produces and the machine runs: kernels of lowered instructions plus the
//! metadata and source map the views need.

use crate::instr::Instr;
pub use crate::validate::{Field, KernelError};

/// A half-open byte range into the source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub const fn new(start: u32, end: u32) -> Self {
        Span { start, end }
    }
}

/// A whole source file after lowering: one entry per `.kernel`.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Program {
    pub kernels: Vec<Kernel>,
}

impl Program {
    pub fn kernel(&self, name: &str) -> Option<&Kernel> {
        self.kernels.iter().find(|k| k.name == name)
    }
}

/// One kernel, ready to run. The front end's kernels keep the rules of [`crate::validate`]; the
/// fields are public, so a kernel built by hand is checked by [`Kernel::validate`], which
/// [`crate::machine::Machine::new`] calls.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Kernel {
    pub name: String,
    /// Span of the kernel's name in `.kernel NAME`.
    pub name_span: Span,
    /// The instructions; every structured target and call target is an index into this.
    pub code: Vec<Instr>,
    /// Per instruction: the span of its source statement (mnemonic through last operand).
    pub spans: Vec<Span>,
    /// Per instruction: its 1-based source line.
    pub lines: Vec<u32>,
    /// `.registers N` (32 when absent, as `wave-asm` writes it).
    pub register_count: u32,
    /// Registers the machine must allocate per lane: the highest register any instruction
    /// touches (including the second..fourth word of pairs/quads) plus one, at least
    /// `register_count`, at most 256. The machine never indexes beyond this.
    pub register_file_size: u32,
    /// Every register an instruction names, including the further words of pairs and quads,
    /// ascending and without repeats: what a register view lists.
    pub used_registers: Vec<u8>,
    /// `.local_memory N` in bytes; `None` when absent or 0 (the launch configuration decides).
    pub local_memory: Option<u32>,
    /// `.workgroup_size X, Y, Z` when X > 0 (it overrides the launch configuration).
    pub workgroup_size: Option<[u32; 3]>,
    /// Deepest structured nesting (if/loop frames) in the kernel.
    pub max_depth: u32,
    /// Labels defined in this kernel, with the index of the instruction they name.
    pub labels: Vec<(String, u32)>,
}
