//! Call targets as `wave-asm` computes them. Its label table is built in a first pass that
//! counts 8 bytes only for the mnemonics it flags as extended ([`Encoding::label_bytes`]) and 4
//! for every other, although most three-register instructions take 8; the count runs over the
//! whole file, across kernels. So a label's stored offset is its true offset minus 4 for every
//! such instruction before it (spec departure D5). Each boundary between instructions still has
//! its own count, because every instruction counts at least 4, which lets the disassembler map
//! a stored target back to the instruction its label named.
//!
//! [`Encoding::label_bytes`]: super::opcodes::Encoding::label_bytes

use crate::instr::{Instr, Op};

use super::opcodes::encoding_of;

/// For every kernel, the label-table count at each instruction boundary: entry `i` is where a
/// label placed before instruction `i` points (the last entry: a label after the last
/// instruction). `kernels` lists each kernel's operations in file order.
pub(super) fn label_offsets<K, I>(kernels: K) -> Vec<Vec<u32>>
where
    K: IntoIterator<Item = I>,
    I: IntoIterator<Item = Op>,
{
    let mut count = 0u32;
    kernels
        .into_iter()
        .map(|ops| {
            let mut offsets = vec![count];
            for op in ops {
                let bytes = encoding_of(op).map_or(4, |encoding| encoding.label_bytes);
                count = count.wrapping_add(bytes);
                offsets.push(count);
            }
            offsets
        })
        .collect()
}

/// Where `wave-emu` 0.1.2 sees instruction `index` of a kernel's `code` (`code.len()`: just past
/// the last one): its byte offset from the start of the kernel in the binary `wave-asm` 0.1.2
/// writes, the pc that emulator's error messages print. That older encoding spends 8 bytes on
/// exactly the mnemonics its label table counts as 8 ([`Encoding::label_bytes`]) and 4 on every
/// other, so the offset is the label-table count from the kernel's first instruction.
///
/// [`Encoding::label_bytes`]: super::opcodes::Encoding::label_bytes
pub fn wave_emu_pc(code: &[Instr], index: u32) -> u32 {
    code.iter()
        .take(index as usize)
        .map(|instr| encoding_of(instr.op).map_or(4, |encoding| encoding.label_bytes))
        .fold(0u32, u32::wrapping_add)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_extended_mnemonics_count_eight_and_the_count_runs_across_kernels() {
        let offsets = label_offsets([
            vec![Op::MovImm, Op::Call, Op::IAdd, Op::Call, Op::Halt],
            vec![Op::Fma, Op::Halt],
        ]);
        assert_eq!(offsets[0], vec![0, 8, 16, 20, 28, 32]);
        assert_eq!(offsets[1], vec![32, 40, 44]);
    }

    #[test]
    fn wave_emu_pcs_count_the_older_encoding_from_the_kernel_start() {
        let program = crate::compile(
            ".kernel k\n    mov_imm r1, 1\n    iadd r2, r1, r1\n    fma r3, r1, r1, r1\n    halt\n.end\n",
        )
        .program
        .expect("compiles");
        let code = &program.kernels[0].code;
        let pcs: Vec<u32> = (0..=code.len() as u32)
            .map(|i| wave_emu_pc(code, i))
            .collect();
        assert_eq!(pcs, vec![0, 8, 12, 20, 24]);
    }
}
