//! The instructions a machine runs, checked once when it is built.
//!
//! [`Code`] can only be made by [`Code::new`], which refuses a kernel that breaks a rule of
//! [`crate::validate`], and its fields are private to this module: inside the machine, every
//! register operand of every instruction lies inside [`Code::register_file_size`] registers, and
//! every wave the machine builds has exactly that many (`Workgroup::new`). The fast paths that
//! read registers without a bound check per lane rest on this, together with the local checks
//! written beside each `unsafe` block.

use crate::instr::Instr;
use crate::program::Kernel;
use crate::validate::KernelError;

pub(super) struct Code {
    instrs: Vec<Instr>,
    register_file_size: u32,
}

impl Code {
    /// The kernel's instructions, once [`Kernel::validate`] has accepted them.
    pub(super) fn new(kernel: &Kernel) -> Result<Code, KernelError> {
        kernel.validate()?;
        Ok(Code {
            instrs: kernel.code.clone(),
            // `validate` refused anything above 256; an empty file still gets one register.
            register_file_size: kernel.register_file_size.max(1),
        })
    }

    #[inline(always)]
    pub(super) fn instrs(&self) -> &[Instr] {
        &self.instrs
    }

    /// Registers per lane: every register operand of every instruction lies below this.
    #[inline(always)]
    pub(super) fn register_file_size(&self) -> u32 {
        self.register_file_size
    }
}
