//! What `wave-emu` 0.1.2 says when a run fails: its `EmulatorError` text for each trap a machine
//! in [`Behaviour::WaveEmu`](super::super::Behaviour) reports, with the reference's numbers.
//! `wavesim run --compat wave-emu` prints it after `Error: `, as the reference's `main` does, and
//! the differential test compares it with the reference's own error on every failing program.

use super::super::trap::{Trap, TrapKind};
use crate::instr::Instr;
use crate::wbin::wave_emu_pc;

/// The reference's bounds error: an access is checked as a whole and named by its first byte,
/// as a 64-bit address.
pub fn wave_emu_out_of_bounds(address: u64) -> String {
    format!("memory access out of bounds: address 0x{address:016x}")
}

/// `trap`, from a run of `code` in `Behaviour::WaveEmu`, in the reference's words:
/// - memory: the faulting lane's own address (the first active lane in lane order that faults);
/// - pcs: the byte offset of the instruction in the binary `wave-asm` 0.1.2 writes
///   ([`wave_emu_pc`]);
/// - the instruction limit: the count one past it (the reference tests its count after the step
///   that passes it) and that step's pc;
/// - a deadlock: `workgroup_id`, the workgroup that trapped.
pub fn wave_emu_error(trap: &Trap, code: &[Instr], workgroup_id: [u32; 3]) -> String {
    let pc = || wave_emu_pc(code, trap.pc);
    let control_flow = |what: &str| format!("control flow error: {what}");
    match trap.kind {
        TrapKind::MemoryOutOfBounds { address, .. } => wave_emu_out_of_bounds(u64::from(address)),
        TrapKind::StackOverflow => "stack overflow: control flow".to_string(),
        TrapKind::CallStackOverflow => "stack overflow: call".to_string(),
        // The reference decodes past the end of the code and its decoder gives up there.
        TrapKind::RanOffEnd => {
            let pc = pc();
            format!("invalid instruction at PC 0x{pc:08x}: unexpected end of code at offset {pc}")
        }
        TrapKind::BudgetExceeded { limit } => format!(
            "instruction limit exceeded: {} instructions (limit: {limit}) at PC 0x{:08x}",
            limit.saturating_add(1),
            pc()
        ),
        TrapKind::ElseWithoutIf => control_flow("else without matching if"),
        TrapKind::EndIfWithoutIf => control_flow("endif without matching if"),
        TrapKind::EndLoopWithoutLoop => control_flow("endloop without matching loop"),
        TrapKind::BreakOutsideLoop => control_flow("break outside of loop"),
        TrapKind::ContinueOutsideLoop => control_flow("continue outside of loop"),
        TrapKind::BarrierDeadlock => {
            let [x, y, z] = workgroup_id;
            format!(
                "deadlock detected: workgroup ({x},{y},{z}) deadlocked - waves waiting at different barriers"
            )
        }
        // Spec mode's check only: a machine in `Behaviour::WaveEmu` returns as the reference
        // does, leaving the frames open, so this trap cannot happen there.
        TrapKind::ReturnInsideConstruct => trap.kind.to_string(),
    }
}
