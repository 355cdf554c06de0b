//! A whole workgroup in lockstep: every wave ready at the same pc. As long as the instructions
//! keep it so, the run loop hands the workgroup to [`run_lockstep`], which runs them one after
//! another, each on every wave in wave order — the order round-robin picks give such a
//! workgroup — without going back to pick, form a group and test the budget per instruction.
//!
//! What keeps lockstep: register-only instructions, loads and stores (`exec::keeps_lockstep`);
//! a `break` or `continue` that takes no lane out on any wave (it only moves the waves on); an
//! `endloop` that starts the next iteration on every wave with the same lanes (no lane waits in
//! a continue mask). Anything else, or such an instruction that would split the waves, ends the
//! stretch before it; it then runs in the run loop as usual.

use super::control;
use super::event::{EventSink, NoEvents};
use super::exec::{self, Env, Fault};
use super::frame::FrameKind;
use super::full_rows;
use super::lanes;
use super::stats::PcStats;
use super::wave::Wave;
use crate::instr::{Instr, Op};

/// A stretch to run: the workgroup's waves, all ready at the same pc with the same active lanes,
/// and how far it may go.
pub(super) struct Stretch<'r, 'm> {
    pub waves: &'r mut [Wave],
    pub code: &'r [Instr],
    pub env: &'r mut Env<'m>,
    pub events: &'r mut dyn EventSink,
    /// Each instruction of the stretch is recorded here as a group of every wave.
    pub per_pc: &'r mut [PcStats],
    /// The stretch stops before a breakpoint (not at its first instruction, which the caller
    /// checked).
    pub breakpoints: &'r [bool],
    /// At most this many instructions, each on every wave.
    pub max_rounds: u64,
    /// Active lanes and lane slots of one round (every wave once): what `per_pc` records.
    pub active: u64,
    pub slots: u64,
}

/// How a stretch ended.
pub(super) struct StretchEnd {
    /// Instructions that ran on every wave.
    pub rounds: u64,
    /// (pc, member, fault): member `member` faulted at `pc`; the members before it ran it.
    pub fault: Option<(u32, usize, Fault)>,
}

/// Whether a workgroup in lockstep at `op` may hand it to [`run_lockstep`].
#[inline(always)]
pub(super) fn may_start(op: Op) -> bool {
    exec::keeps_lockstep(op) || matches!(op, Op::Break | Op::Continue | Op::EndLoop)
}

/// [`run_lockstep`] compiled as a function of its own, so that its registers are allocated for
/// the stretch alone rather than together with the run loop around it (a GEMM spends nearly all
/// its time in here). The portable copy; the run loop calls it when it holds no `Avx2Fma`.
///
/// # Safety
/// As for [`run_lockstep`].
#[inline(never)]
pub(super) unsafe fn run_lockstep_portable(stretch: Stretch) -> StretchEnd {
    // SAFETY: this function's contract is `run_lockstep`'s.
    unsafe { run_lockstep(stretch) }
}

/// [`run_lockstep_portable`] compiled for the features of the run loop's AVX2 copy.
///
/// # Safety
/// As for [`run_lockstep`], and the CPU has AVX2, FMA, POPCNT, BMI1/2 and LZCNT (an `Avx2Fma`
/// exists).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma,popcnt,bmi1,bmi2,lzcnt")]
#[inline(never)]
pub(super) unsafe fn run_lockstep_avx2(stretch: Stretch) -> StretchEnd {
    // SAFETY: this function's contract includes `run_lockstep`'s.
    unsafe { run_lockstep(stretch) }
}

/// Runs the stretch's waves through at most `max_rounds` instructions, stopping before a
/// breakpoint and before anything that does not keep lockstep. Each instruction is recorded in
/// `per_pc` as a group of every wave would be.
///
/// # Safety
/// Every register operand of every instruction of `code` lies inside each wave's register file,
/// and every wave is at most 64 lanes wide (what [`exec::load_or_store_each`] requires): the
/// machine's validated code on its own waves.
#[inline(always)]
pub(super) unsafe fn run_lockstep(stretch: Stretch) -> StretchEnd {
    let Stretch {
        waves,
        code,
        env,
        events,
        per_pc,
        breakpoints,
        max_rounds,
        active,
        slots,
    } = stretch;
    let members = waves.len() as u64;
    let record = |per_pc: &mut [PcStats], pc: usize| {
        if let Some(record) = per_pc.get_mut(pc) {
            record.count += members;
            record.active_lanes += active;
            record.lane_slots += slots;
        }
    };
    let at_breakpoint = |pc: usize| breakpoints.get(pc).copied().unwrap_or(false);
    let Some(first) = waves.first() else {
        return StretchEnd {
            rounds: 0,
            fault: None,
        };
    };
    let mut pc = first.pc as usize;
    let mut rounds = 0;
    // The width when every wave is a full wave of one width with one register count (the
    // condition of `full_rows`), else 0. A stretch keeps the waves' lanes; it is worked out again
    // after an `endloop` that changed them, the one place a stretch hands lanes back.
    let full_width = |waves: &[Wave]| {
        let width = waves.first().map_or(0, |wave| wave.width);
        let registers = waves.first().map_or(0, |wave| wave.registers.len());
        let full = waves.iter().all(|wave| {
            wave.width == width
                && wave.active == super::wave::lanes_mask(width)
                && wave.registers.len() == registers
        });
        if full {
            width
        } else {
            0
        }
    };
    let mut full_lanes = full_width(waves);
    // A fast run's sink drops every event: then the loop's `endloop`s, one per wave per
    // iteration, emit into a `NoEvents` of their own, inlined, rather than call through `dyn`.
    let listening = events.is_listening();
    while rounds < max_rounds {
        if rounds > 0 && !breakpoints.is_empty() && at_breakpoint(pc) {
            break;
        }
        let Some(instr) = code.get(pc) else { break };
        match instr.op {
            Op::Fma => {
                // A run of `fma` (a GEMM's inner loop) goes wave by wave: one call, operands
                // checked once, each wave's operand rows still in the cache for its next `fma`.
                let left = (max_rounds - rounds).min(usize::MAX as u64) as usize;
                let mut run = code[pc..]
                    .iter()
                    .take(left)
                    .take_while(|next| next.op == Op::Fma)
                    .count();
                if !breakpoints.is_empty() {
                    if let Some(at) = (pc + 1..pc + run).position(at_breakpoint) {
                        run = at + 1;
                    }
                }
                for wave in waves.iter_mut() {
                    wave.pc += run as u32;
                }
                lanes::fma_run(waves, &code[pc..pc + run], env.avx2_fma);
                for at in pc..pc + run {
                    record(per_pc, at);
                }
                rounds += run as u64;
                pc += run;
                continue;
            }
            Op::Break | Op::Continue => {
                let stays = |w: &Wave| w.active != 0 && control::leaving_lanes(w, instr) == 0;
                if !waves.iter().all(stays) {
                    break;
                }
                for wave in waves.iter_mut() {
                    wave.pc += 1;
                }
            }
            Op::EndLoop => {
                let iterates = |w: &Wave| {
                    w.active != 0
                        && w.stack.last().is_some_and(|frame| {
                            frame.kind == FrameKind::Loop && frame.continue_mask == 0
                        })
                };
                if !waves.iter().all(iterates) {
                    break;
                }
                let mut lanes_changed = false;
                for wave in waves.iter_mut() {
                    let before = wave.active;
                    if listening {
                        control::exec_endloop(wave, pc as u32, events);
                    } else {
                        control::exec_endloop(wave, pc as u32, &mut NoEvents);
                    }
                    lanes_changed |= wave.active != before;
                }
                // Only the lanes can change here, so the same lanes keep the same answer.
                if lanes_changed {
                    full_lanes = full_width(waves);
                }
                record(per_pc, pc);
                rounds += 1;
                // Every wave went back to the same loop's body.
                pc = waves[0].pc as usize;
                debug_assert!(waves.iter().all(|w| w.pc as usize == pc));
                continue;
            }
            // Register-only on full waves: whole rows, operands checked once for the group.
            // SAFETY: `full_lanes` is 32 or 64 only when every wave is that wide with every lane active
            // and all have the same register count (`full_width`).
            _ if full_lanes == 32 && unsafe { full_rows::step::<32>(waves, instr) } => {}
            // SAFETY: as for 32 lanes, with every wave 64 wide.
            _ if full_lanes == 64 && unsafe { full_rows::step::<64>(waves, instr) } => {}
            // Register-only: `step_group` runs it (one dispatch) and says so.
            _ if exec::step_group(waves, instr, env) => {}
            op if exec::keeps_lockstep(op) => {
                // A load or a store; a plain load on full waves skips the per-wave questions
                // (`exec::load_full_waves`).
                let plain_load = if full_lanes != 0 {
                    // SAFETY: `instr` is an instruction of `code` (this function's contract), and
                    // `full_lanes` is nonzero only when every wave has every lane active and all
                    // have the same register count.
                    unsafe { exec::load_full_waves(waves, instr, env) }
                } else {
                    None
                };
                let done = match plain_load {
                    Some(done) => done,
                    // SAFETY: `instr` is an instruction of `code` (this function's contract).
                    None => unsafe { exec::load_or_store_each(waves, instr, env) },
                };
                if let Err((member, fault)) = done {
                    return StretchEnd {
                        rounds,
                        fault: Some((pc as u32, member, fault)),
                    };
                }
            }
            _ => break,
        }
        record(per_pc, pc);
        rounds += 1;
        pc += 1;
    }
    StretchEnd {
        rounds,
        fault: None,
    }
}
