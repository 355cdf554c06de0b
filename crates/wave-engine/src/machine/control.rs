//! Structured control flow, as spec v0.4 defines it (not as wave-emu does; docs/spec-departures.md
//! lists where the two differ).
//!
//! The rules in one place:
//! - lanes that `break` wait in their loop's break mask until the loop ends, even from inside an
//!   `if` (they are forgotten by every frame between them and the loop);
//! - lanes that `continue` wait in the loop's continue mask and rejoin at the next iteration;
//! - `halt` removes lanes from every frame: nothing brings them back;
//! - whenever the active mask becomes empty, the wave jumps to the innermost frame's next
//!   meeting point (`else` if lanes wait for it, else the `endif`/`endloop`) instead of running
//!   instructions with no lane.
//!
//! The reference's control flow (`reference::control`) builds on the same frames, events and
//! wave ends: the helpers it shares are here, and it differs only in its own rules.

use super::event::{Event, EventKind, EventSink};
use super::frame::{Frame, FrameKind, MAX_CALL_DEPTH, MAX_STACK_DEPTH};
use super::trap::TrapKind;
use super::wave::{CallRecord, Wave, WaveStatus};
use crate::instr::{flags, Guard, Instr};

/// Lanes of the wave where the instruction's guard holds.
#[inline(always)]
pub(super) fn guard_mask(wave: &Wave, guard: Guard) -> u64 {
    if guard == Guard::Always {
        return u64::MAX;
    }
    // Arithmetic rather than a `match`: this runs once per wave per instruction, and a jump
    // table there costs more than the rest of a simple instruction's bookkeeping.
    let (p, negate) = guard.predicate_bits();
    wave.predicates[p] ^ 0u64.wrapping_sub(negate as u64)
}

pub(super) fn emit<S: EventSink + ?Sized>(
    events: &mut S,
    wave: &Wave,
    pc: u32,
    mask: u64,
    kind: EventKind,
) {
    events.emit(Event {
        wave: wave.id,
        pc,
        mask,
        kind,
    });
}

/// The active mask just became empty: jump to the innermost frame's next meeting point (where
/// lanes wait to resume: its `else`, `endif` or `endloop`), or finish the wave when no frame is
/// open.
fn jump_to_meeting_point<S: EventSink + ?Sized>(wave: &mut Wave, pc: u32, events: &mut S) {
    match wave.stack.last() {
        Some(frame) => {
            let to = frame.resume_pc();
            wave.pc = to;
            emit(events, wave, pc, 0, EventKind::Skip { to });
        }
        None => finish(wave, pc, events),
    }
}

/// The wave is over: no lane runs any more.
pub(super) fn finish<S: EventSink + ?Sized>(wave: &mut Wave, pc: u32, events: &mut S) {
    wave.status = WaveStatus::Done;
    wave.active = 0;
    emit(events, wave, pc, 0, EventKind::WaveDone);
}

/// Opens a frame; the one past `MAX_STACK_DEPTH` fails, in both behaviours.
fn push(wave: &mut Wave, frame: Frame) -> Result<(), TrapKind> {
    if wave.stack.len() >= MAX_STACK_DEPTH {
        return Err(TrapKind::StackOverflow);
    }
    wave.stack.push(frame);
    Ok(())
}

/// The predicate operand of `if`, `break` or `continue` (negated in the playground's dialect).
pub(super) fn predicate_operand(wave: &Wave, instr: &Instr) -> u64 {
    let p = wave.predicates[instr.a as usize & 3];
    if instr.flags & flags::NEGATE_A != 0 {
        !p
    } else {
        p
    }
}

pub(super) fn exec_if<S: EventSink + ?Sized>(
    wave: &mut Wave,
    instr: &Instr,
    pc: u32,
    events: &mut S,
) -> Result<(), TrapKind> {
    if enter_if(wave, instr, pc, events)? == 0 {
        wave.pc = instr.imm;
        emit(events, wave, pc, 0, EventKind::Skip { to: instr.imm });
    } else {
        wave.pc = pc + 1;
    }
    Ok(())
}

/// `if`'s frame and mask, the same in both behaviours: pushes a frame with the sides computed
/// now and makes the then side active. Returns it; where the wave goes next is the caller's rule.
#[inline(always)]
pub(super) fn enter_if<S: EventSink + ?Sized>(
    wave: &mut Wave,
    instr: &Instr,
    pc: u32,
    events: &mut S,
) -> Result<u64, TrapKind> {
    let entry = wave.active;
    let then_mask = entry & predicate_operand(wave, instr);
    push(
        wave,
        Frame::new_if(pc, entry, then_mask, instr.imm, instr.target),
    )?;
    emit(events, wave, pc, entry, EventKind::Push(FrameKind::If));
    let else_mask = entry & !then_mask;
    if then_mask != 0 && else_mask != 0 {
        emit(
            events,
            wave,
            pc,
            then_mask,
            EventKind::Diverge { other: else_mask },
        );
    }
    wave.active = then_mask;
    Ok(then_mask)
}

pub(super) fn exec_else<S: EventSink + ?Sized>(wave: &mut Wave, pc: u32, events: &mut S) {
    let Some(frame) = wave.stack.last_mut() else {
        return finish(wave, pc, events);
    };
    frame.in_else = true;
    let else_mask = frame.else_mask;
    let end_pc = frame.end_pc;
    wave.active = else_mask;
    emit(events, wave, pc, else_mask, EventKind::Else);
    if else_mask == 0 {
        wave.pc = end_pc;
        emit(events, wave, pc, 0, EventKind::Skip { to: end_pc });
    } else {
        wave.pc = pc + 1;
    }
}

/// `endif`, and `endloop` when the loop is over: pop and reconverge on the entry lanes.
fn pop_and_reconverge<S: EventSink + ?Sized>(wave: &mut Wave, pc: u32, events: &mut S) {
    let Some(frame) = wave.stack.pop() else {
        return finish(wave, pc, events);
    };
    wave.active = frame.entry;
    emit(events, wave, pc, frame.entry, EventKind::Pop(frame.kind));
    if frame.entry == 0 {
        jump_to_meeting_point(wave, pc, events);
    } else {
        wave.pc = pc + 1;
    }
}

pub(super) fn exec_endif<S: EventSink + ?Sized>(wave: &mut Wave, pc: u32, events: &mut S) {
    pop_and_reconverge(wave, pc, events);
}

pub(super) fn exec_loop<S: EventSink + ?Sized>(
    wave: &mut Wave,
    instr: &Instr,
    pc: u32,
    events: &mut S,
) -> Result<(), TrapKind> {
    push(wave, Frame::new_loop(pc, wave.active, instr.target))?;
    emit(
        events,
        wave,
        pc,
        wave.active,
        EventKind::Push(FrameKind::Loop),
    );
    wave.pc = pc + 1;
    Ok(())
}

pub(super) fn exec_endloop<S: EventSink + ?Sized>(wave: &mut Wave, pc: u32, events: &mut S) {
    let Some(frame) = wave.stack.last_mut() else {
        return finish(wave, pc, events);
    };
    let next = wave.active | frame.continue_mask;
    if next != 0 {
        frame.continue_mask = 0;
        frame.iterations += 1;
        let body_pc = frame.body_pc;
        wave.active = next;
        wave.pc = body_pc;
        emit(events, wave, pc, next, EventKind::Iterate);
    } else {
        pop_and_reconverge(wave, pc, events);
    }
}

/// The lanes a `break` or `continue` takes out of the loop: active, guard and predicate hold.
#[inline(always)]
pub(super) fn leaving_lanes(wave: &Wave, instr: &Instr) -> u64 {
    wave.active & guard_mask(wave, instr.guard) & predicate_operand(wave, instr)
}

/// `break` (when `is_break`) or `continue`: the chosen lanes leave every frame above their loop
/// and wait in the loop's break or continue mask.
pub(super) fn exec_break_continue<S: EventSink + ?Sized>(
    wave: &mut Wave,
    instr: &Instr,
    pc: u32,
    is_break: bool,
    events: &mut S,
) {
    let leaving = leaving_lanes(wave, instr);
    if leaving != 0 {
        if let Some(loop_index) = wave.innermost_loop() {
            for frame in &mut wave.stack[loop_index + 1..] {
                frame.forget(leaving);
            }
            let frame = &mut wave.stack[loop_index];
            if is_break {
                frame.break_mask |= leaving;
            } else {
                frame.continue_mask |= leaving;
            }
        }
        wave.active &= !leaving;
        let kind = if is_break {
            EventKind::Break
        } else {
            EventKind::Continue
        };
        emit(events, wave, pc, leaving, kind);
    }
    if wave.active == 0 {
        jump_to_meeting_point(wave, pc, events);
    } else {
        wave.pc = pc + 1;
    }
}

/// `halt`: only the executing lanes end; no frame remembers them.
pub(super) fn halt_lanes<S: EventSink + ?Sized>(
    wave: &mut Wave,
    lanes: u64,
    pc: u32,
    events: &mut S,
) {
    if lanes != 0 {
        for frame in &mut wave.stack {
            frame.forget(lanes);
        }
        wave.halted |= lanes;
        wave.active &= !lanes;
        emit(events, wave, pc, lanes, EventKind::Halt);
    }
    if wave.active == 0 {
        jump_to_meeting_point(wave, pc, events);
    } else {
        wave.pc = pc + 1;
    }
}

pub(super) fn exec_call<S: EventSink + ?Sized>(
    wave: &mut Wave,
    instr: &Instr,
    pc: u32,
    events: &mut S,
) -> Result<(), TrapKind> {
    if wave.calls.len() >= MAX_CALL_DEPTH {
        return Err(TrapKind::CallStackOverflow);
    }
    wave.calls.push(CallRecord {
        return_pc: pc + 1,
        stack_depth: wave.stack.len() as u32,
    });
    emit(events, wave, pc, wave.active, EventKind::Call);
    wave.pc = instr.target;
    Ok(())
}

/// `return`: back to the caller; with no caller it ends the executing lanes, like `halt`.
pub(super) fn exec_return<S: EventSink + ?Sized>(
    wave: &mut Wave,
    pc: u32,
    lanes: u64,
    events: &mut S,
) -> Result<(), TrapKind> {
    match wave.calls.last().copied() {
        None => {
            halt_lanes(wave, lanes, pc, events);
            Ok(())
        }
        Some(call) if call.stack_depth as usize != wave.stack.len() => {
            Err(TrapKind::ReturnInsideConstruct)
        }
        Some(call) => {
            wave.calls.pop();
            emit(events, wave, pc, wave.active, EventKind::Return);
            wave.pc = call.return_pc;
            Ok(())
        }
    }
}
