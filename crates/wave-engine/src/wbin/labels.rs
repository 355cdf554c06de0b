//! Call targets as `wave-asm` computes them. Its label table is built in a first pass that
//! counts 8 bytes only for the mnemonics it flags as extended ([`Encoding::label_bytes`]) and 4
//! for every other, although most three-register instructions take 8; the count runs over the
//! whole file, across kernels. So a label's stored offset is its true offset minus 4 for every
//! such instruction before it (spec departure D5). Each boundary between instructions still has
//! its own count, because every instruction counts at least 4, which lets the disassembler map
//! a stored target back to the instruction its label named.
//!
//! [`Encoding::label_bytes`]: super::opcodes::Encoding::label_bytes

use crate::instr::Op;

use super::opcodes::encoding_of;

/// For every kernel, the label-table count at each instruction boundary: entry `i` is where a
/// label placed before instruction `i` points (the last entry: a label after the last
/// instruction). `kernels` lists each kernel's operations in file order.
pub fn label_offsets<K, I>(kernels: K) -> Vec<Vec<u32>>
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
}
