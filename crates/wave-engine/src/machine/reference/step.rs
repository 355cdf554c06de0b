//! One instruction of one wave, the way wave-emu 0.1.2 runs it (ISA notes §4.2–4.3).
//!
//! Only control flow and the guard rules differ from spec mode; every other instruction runs
//! through the machine's own [`exec::step`], which computes exactly what the reference computes
//! for the lanes it is given, and counts memory traffic and atomic lanes the same way.
//!
//! Guards, as the reference reads them:
//! - `@p0` is no guard at all (D9); `@!p0` is a guard.
//! - A guarded `halt` is never counted; it takes its lanes out of the active mask and ends the
//!   whole wave when none is left (D6, D7).
//! - Other sync instructions (`barrier`, `return`, fences, `wait`, `nop`) are skipped, and not
//!   counted, when no active lane meets the guard; otherwise they act for the whole wave.
//! - A guarded structured instruction (`if` … `endloop`, `call`) runs on the guarded lanes, then
//!   the active mask is put back as it was; its frame changes and jumps stay (D8). A guarded
//!   `call` is not a sync instruction there: it calls even when no lane meets the guard.
//! - Everything else runs on the active lanes that meet the guard, as in spec mode.

use super::super::control::guard_mask;
use super::super::event::EventSink;
use super::super::exec::{self, Env, Fault};
use super::super::frame::FrameKind;
use super::super::wave::Wave;
use super::control;
use super::departure::Departure;
use crate::instr::{Guard, Instr, Op};

/// Executes the instruction at `wave.pc` (which is `instr`) the reference's way and moves the
/// wave on. The wave is ready; its active mask may be empty. Instructions the reference does not
/// count in its statistics add to `env.counts.uncounted_control`.
///
/// # Safety
/// What [`exec::step`] requires: every register operand of `instr` lies inside the wave's
/// register file, and the wave is at most 64 lanes wide.
pub(in crate::machine) unsafe fn step(
    wave: &mut Wave,
    instr: &Instr,
    env: &mut Env,
    events: &mut dyn EventSink,
) -> Result<(), Fault> {
    use Op::*;
    let pc = wave.pc;
    let before = wave.active;
    if before == 0 && !spec_meets_here(wave, instr.op) {
        control::depart(events, wave, pc, 0, Departure::RanWithNoLane);
    }
    let guard = if instr.guard == Guard::P0 {
        let ignored = before & !wave.predicates[0];
        if ignored != 0 {
            control::depart(events, wave, pc, ignored, Departure::P0Unconditional);
        }
        Guard::Always
    } else {
        instr.guard
    };
    let guarded = guard != Guard::Always;
    let chosen = before & guard_mask(wave, guard);
    match instr.op {
        Halt if guarded => {
            env.counts.uncounted_control += 1;
            control::halt_guarded(wave, chosen, pc, events);
        }
        Halt => control::halt_wave(wave, before, pc, events),
        Barrier | Return | Nop | Wait | FenceAcquire | FenceRelease | FenceAcqRel
            if guarded && chosen == 0 =>
        {
            env.counts.uncounted_control += 1;
            wave.pc = pc + 1;
        }
        Barrier => control::exec_barrier(wave, pc, events),
        Return => {
            if !control::return_to_caller(wave, pc, events) {
                control::halt_wave(wave, chosen, pc, events);
            }
        }
        Nop | Wait | FenceAcquire | FenceRelease | FenceAcqRel => wave.pc = pc + 1,
        If | Else | EndIf | Loop | Break | Continue | EndLoop | Call => {
            if guarded {
                wave.active = chosen;
                if instr.op == Call && chosen == 0 {
                    control::depart(events, wave, pc, 0, Departure::GuardedCallWithNoLane);
                }
            }
            let result = structured(wave, instr, pc, events);
            if guarded {
                if wave.active != chosen {
                    let changed = wave.active ^ chosen;
                    control::depart(
                        events,
                        wave,
                        pc,
                        changed,
                        Departure::GuardedControlMaskRestored,
                    );
                }
                wave.active = before;
            }
            result?;
        }
        _ => {
            let unguarded_p0 = Instr { guard, ..*instr };
            // SAFETY: this function's contract is the same; only the guard differs.
            unsafe { exec::step(wave, &unguarded_p0, env, events) }?;
        }
    }
    Ok(())
}

/// Whether spec mode too runs `op` with no lane active here: it is the `else`, `endif` or
/// `endloop` of a construct that was entered with lanes, the meeting point spec mode jumps to
/// when a path of that construct runs out of lanes (an `else` only when lanes wait for it).
fn spec_meets_here(wave: &Wave, op: Op) -> bool {
    let Some(frame) = wave.stack.last() else {
        return false;
    };
    frame.entry != 0
        && match op {
            Op::EndIf => frame.kind == FrameKind::If,
            Op::Else => frame.kind == FrameKind::If && !frame.in_else && frame.else_mask != 0,
            Op::EndLoop => frame.kind == FrameKind::Loop,
            _ => false,
        }
}

/// The structured instructions and `call`, on the wave's active lanes as they stand.
fn structured(
    wave: &mut Wave,
    instr: &Instr,
    pc: u32,
    events: &mut dyn EventSink,
) -> Result<(), Fault> {
    match instr.op {
        Op::If => control::exec_if(wave, instr, pc, events)?,
        Op::Else => control::exec_else(wave, pc, events)?,
        Op::EndIf => control::exec_endif(wave, pc, events)?,
        Op::Loop => control::exec_loop(wave, instr, pc, events)?,
        Op::Break => control::exec_break(wave, instr, pc, events)?,
        Op::Continue => control::exec_continue(wave, instr, pc, events)?,
        Op::EndLoop => control::exec_endloop(wave, pc, events)?,
        _ => control::exec_call(wave, instr, pc, events)?,
    }
    Ok(())
}
