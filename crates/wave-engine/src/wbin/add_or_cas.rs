//! An atomic add and a CAS whose desired value is r0 are the same bytes: `wave-asm` gives CAS
//! the add's modifier, and the desired register (rs3) is then 0 too. Its label table still tells
//! them apart, counting the add as 4 bytes and the CAS as 8, so when calls follow, only some
//! readings put every call target on an instruction of its kernel. [`resolve`] picks such a
//! reading, with as few CAS as possible (the decoder's default is add).

use std::collections::BTreeMap;

use crate::instr::Op;

use super::decode::WbinKernel;
use super::opcodes::encoding_of;
use super::word::{Instruction, Operand};

/// The CAS that `instruction` may also be, if it is an add with no desired register.
fn cas_reading(instruction: &Instruction) -> Option<Op> {
    match instruction.op {
        Op::LocalAtomicAdd => Some(Op::LocalAtomicCas),
        Op::AtomicAdd => Some(Op::AtomicCas),
        _ => None,
    }
}

fn call_targets(kernel: &WbinKernel) -> Vec<u32> {
    let mut targets: Vec<u32> = kernel
        .instructions
        .iter()
        .flat_map(|instruction| &instruction.operands)
        .filter_map(|operand| match operand {
            Operand::Target(target) => Some(*target),
            _ => None,
        })
        .collect();
    targets.sort_unstable();
    targets.dedup();
    targets
}

/// Rewrites as CAS (desired r0) the adds that the call targets show were written as CAS. Leaves
/// everything as it is when no reading fits; the disassembler then reports the call.
pub(super) fn resolve(kernels: &mut [WbinKernel]) {
    let ambiguous = kernels
        .iter()
        .flat_map(|k| &k.instructions)
        .any(|i| cas_reading(i).is_some());
    let targets: Vec<Vec<u32>> = kernels.iter().map(call_targets).collect();
    if !ambiguous || targets.iter().all(Vec::is_empty) {
        return;
    }
    // States are the number of CAS read so far; the label count at a boundary is the all-add
    // count plus 4 per CAS. Each ambiguous instruction records, per state after it, the state
    // before it, preferring the add.
    let mut states = vec![0u32];
    let mut choices: Vec<((usize, usize), BTreeMap<u32, u32>)> = Vec::new();
    let mut count = 0u32;
    for (k, kernel) in kernels.iter().enumerate() {
        let targets = &targets[k];
        // Per state: how many of this kernel's targets it has landed on.
        let mut hit: BTreeMap<u32, usize> = states.iter().map(|&c| (c, 0)).collect();
        for index in 0..=kernel.instructions.len() {
            hit.retain(|&cas, landed| {
                let at = count.wrapping_add(cas.wrapping_mul(4));
                match targets.get(*landed) {
                    Some(&target) if target < at => false,
                    Some(&target) if target == at => {
                        *landed += 1;
                        true
                    }
                    _ => true,
                }
            });
            let Some(instruction) = kernel.instructions.get(index) else {
                break;
            };
            if cas_reading(instruction).is_some() {
                // Two paths can reach a state (an add, or a CAS from one state lower); they land
                // on the same count next, so the one that has landed on more targets is the one
                // that can still be valid. On a tie, the add.
                let mut best: BTreeMap<u32, (usize, bool, u32)> = BTreeMap::new();
                for (&cas, &landed) in &hit {
                    for next in [cas, cas + 1] {
                        let candidate = (landed, next == cas, cas);
                        let better = best
                            .get(&next)
                            .is_none_or(|&(l, add, _)| (landed, next == cas) > (l, add));
                        if better {
                            best.insert(next, candidate);
                        }
                    }
                }
                hit = best
                    .iter()
                    .map(|(&next, &(landed, _, _))| (next, landed))
                    .collect();
                let parents = best
                    .iter()
                    .map(|(&next, &(_, _, from))| (next, from))
                    .collect();
                choices.push(((k, index), parents));
            }
            let bytes = encoding_of(instruction.op).map_or(4, |e| e.label_bytes);
            count = count.wrapping_add(bytes);
        }
        states = hit
            .into_iter()
            .filter(|(_, landed)| *landed == targets.len())
            .map(|(cas, _)| cas)
            .collect();
    }
    let Some(mut cas) = states.into_iter().min() else {
        return;
    };
    for ((k, index), parents) in choices.iter().rev() {
        let before = parents.get(&cas).copied().unwrap_or(cas);
        if before != cas {
            if let Some(instruction) = kernels
                .get_mut(*k)
                .and_then(|k| k.instructions.get_mut(*index))
            {
                read_as_cas(instruction);
            }
        }
        cas = before;
    }
}

/// The same bytes as CAS: expected is the add's value, desired r0, placed before the scope.
fn read_as_cas(instruction: &mut Instruction) {
    let Some(cas) = cas_reading(instruction) else {
        return;
    };
    instruction.op = cas;
    let at = match instruction.operands.last() {
        Some(Operand::Scope(_)) => instruction.operands.len() - 1,
        _ => instruction.operands.len(),
    };
    instruction.operands.insert(at, Operand::Register(0));
}
