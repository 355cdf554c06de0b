//! wave-emu's structured control flow (ISA notes §4.2), on the machine's own frames and events.
//!
//! Invariants of this mode, which the functions below keep and rely on:
//! - A frame is the reference's: an `if` frame keeps the entry, then and else masks computed at
//!   its `if`, a loop frame its entry and break masks. No lane is ever removed from a frame, so
//!   `endif` reconverges every lane that entered the `if`, lanes that broke (D1) or were taken
//!   out by a guarded `halt` (D7) included.
//! - `continue_mask` stays 0 (the reference has none); `body_pc` is the reference's
//!   `loop_start_pc`, the instruction after `loop`.
//! - Nothing is skipped. Every instruction moves the wave to `pc + 1` except a `continue` that
//!   jumps back (D2, D3), an `endloop` that iterates, `call` and `return`: an empty mask runs
//!   on in order (D12).
//! - The lowered targets kept in a frame (`else_pc`, `end_pc`) are for the views only: `endif`
//!   pops whatever frame is on top and fails unless it is an `if`, as the reference does.
//! - While the wave runs, `Wave::halted` holds exactly the lanes a guarded `halt` took out (any
//!   other `halt` ends the whole wave); a lane leaves it when a frame brings it back.

use super::super::control::{emit, enter_if, finish, predicate_operand};
use super::super::event::{EventKind, EventSink};
use super::super::frame::FrameKind;
use super::super::trap::TrapKind;
use super::super::wave::{Wave, WaveStatus};
use super::departure::{Departure, DepartureEvent};
use crate::instr::Instr;

/// `loop` and `call` are the spec's: `loop` pushes a frame whose body starts at the next
/// instruction, and `call` pushes the return point (8 deep) and jumps, whatever the mask.
pub(super) use super::super::control::{exec_call, exec_loop};

pub(super) fn depart(
    events: &mut dyn EventSink,
    wave: &Wave,
    pc: u32,
    mask: u64,
    departure: Departure,
) {
    events.depart(DepartureEvent {
        wave: wave.id,
        pc,
        mask,
        departure,
    });
}

/// After a frame set the active mask: reports the lanes it brought back that the spec would not
/// run here. Lanes a guarded `halt` took out are no longer halted. Lanes in a loop's break mask
/// are reported each time a frame brings them back, since every such point runs them where the
/// spec would not.
fn report_revivals(wave: &mut Wave, before: u64, pc: u32, events: &mut dyn EventSink) {
    let newly = wave.active & !before;
    if newly == 0 {
        return;
    }
    let halted_back = newly & wave.halted;
    if halted_back != 0 {
        wave.halted &= !halted_back;
        depart(
            events,
            wave,
            pc,
            halted_back,
            Departure::PredicatedHaltRevived,
        );
    }
    let broke = wave
        .stack
        .iter()
        .filter(|frame| frame.kind == FrameKind::Loop)
        .fold(0, |lanes, frame| lanes | frame.break_mask);
    let broke_back = newly & broke & !halted_back;
    if broke_back != 0 {
        depart(events, wave, pc, broke_back, Departure::BreakRevived);
    }
}

/// `if p`: push a frame with the sides computed now; the then side runs (perhaps with no lane).
pub(super) fn exec_if(
    wave: &mut Wave,
    instr: &Instr,
    pc: u32,
    events: &mut dyn EventSink,
) -> Result<(), TrapKind> {
    enter_if(wave, instr, pc, events)?;
    wave.pc = pc + 1;
    Ok(())
}

/// `else`: the else side computed at the `if` runs. A second `else` runs it again.
pub(super) fn exec_else(
    wave: &mut Wave,
    pc: u32,
    events: &mut dyn EventSink,
) -> Result<(), TrapKind> {
    let before = wave.active;
    let frame = match wave.stack.last_mut() {
        Some(frame) if frame.kind == FrameKind::If => frame,
        _ => return Err(TrapKind::ElseWithoutIf),
    };
    frame.in_else = true;
    let else_mask = frame.else_mask;
    wave.active = else_mask;
    wave.pc = pc + 1;
    emit(events, wave, pc, else_mask, EventKind::Else);
    report_revivals(wave, before, pc, events);
    Ok(())
}

/// `endif`: pop the top frame, which must be an `if`, and run every lane that entered it.
pub(super) fn exec_endif(
    wave: &mut Wave,
    pc: u32,
    events: &mut dyn EventSink,
) -> Result<(), TrapKind> {
    let before = wave.active;
    let frame = match wave.stack.last() {
        Some(frame) if frame.kind == FrameKind::If => *frame,
        _ => return Err(TrapKind::EndIfWithoutIf),
    };
    wave.stack.pop();
    wave.active = frame.entry;
    wave.pc = pc + 1;
    emit(events, wave, pc, frame.entry, EventKind::Pop(FrameKind::If));
    report_revivals(wave, before, pc, events);
    Ok(())
}

/// `break p`: the lanes join the innermost loop's break mask and stop; the wave never jumps,
/// however few lanes remain.
pub(super) fn exec_break(
    wave: &mut Wave,
    instr: &Instr,
    pc: u32,
    events: &mut dyn EventSink,
) -> Result<(), TrapKind> {
    let index = wave.innermost_loop().ok_or(TrapKind::BreakOutsideLoop)?;
    let leaving = wave.active & predicate_operand(wave, instr);
    wave.stack[index].break_mask |= leaving;
    wave.active &= !leaving;
    wave.pc = pc + 1;
    if leaving != 0 {
        emit(events, wave, pc, leaving, EventKind::Break);
    }
    Ok(())
}

/// `continue p`: the continuing lanes stop; when some continued, or none is left, the lanes that
/// did *not* continue jump back to the top of the loop (D3, D2).
pub(super) fn exec_continue(
    wave: &mut Wave,
    instr: &Instr,
    pc: u32,
    events: &mut dyn EventSink,
) -> Result<(), TrapKind> {
    let index = wave.innermost_loop().ok_or(TrapKind::ContinueOutsideLoop)?;
    let continuing = wave.active & predicate_operand(wave, instr);
    let staying = wave.active & !continuing;
    wave.active = staying;
    if continuing != 0 {
        emit(events, wave, pc, continuing, EventKind::Continue);
    }
    if staying == 0 || continuing != 0 {
        let frame = &mut wave.stack[index];
        frame.iterations += 1;
        wave.pc = frame.body_pc;
        emit(events, wave, pc, staying, EventKind::Iterate);
        if staying == 0 {
            depart(
                events,
                wave,
                pc,
                continuing,
                Departure::EmptyContinueJumpsBack,
            );
        } else {
            depart(events, wave, pc, staying, Departure::ContinueSentOthersBack);
        }
    } else {
        wave.pc = pc + 1;
    }
    Ok(())
}

/// `endloop`: the top frame must be a loop. While any lane that entered it has not broken, those
/// lanes run the body again (continued lanes and lanes a guarded halt took out among them);
/// otherwise the frame is popped and every lane that entered runs on.
pub(super) fn exec_endloop(
    wave: &mut Wave,
    pc: u32,
    events: &mut dyn EventSink,
) -> Result<(), TrapKind> {
    let before = wave.active;
    let frame = match wave.stack.last_mut() {
        Some(frame) if frame.kind == FrameKind::Loop => frame,
        _ => return Err(TrapKind::EndLoopWithoutLoop),
    };
    let remaining = frame.entry & !frame.break_mask;
    if remaining != 0 {
        frame.iterations += 1;
        wave.pc = frame.body_pc;
        wave.active = remaining;
        emit(events, wave, pc, remaining, EventKind::Iterate);
    } else {
        let entry = frame.entry;
        wave.stack.pop();
        wave.active = entry;
        wave.pc = pc + 1;
        emit(events, wave, pc, entry, EventKind::Pop(FrameKind::Loop));
    }
    report_revivals(wave, before, pc, events);
    Ok(())
}

/// `return` to the caller, frames opened since the call left as they are. `false` when there is
/// no caller: the wave is to end.
pub(super) fn return_to_caller(wave: &mut Wave, pc: u32, events: &mut dyn EventSink) -> bool {
    let Some(call) = wave.calls.pop() else {
        return false;
    };
    if call.stack_depth as usize != wave.stack.len() {
        depart(
            events,
            wave,
            pc,
            wave.active,
            Departure::ReturnLeftFramesOpen,
        );
    }
    emit(events, wave, pc, wave.active, EventKind::Return);
    wave.pc = call.return_pc;
    true
}

/// `barrier`: the wave waits, with or without active lanes, until the reference's release rule
/// lets it go (`super::barrier`).
pub(super) fn exec_barrier(wave: &mut Wave, pc: u32, events: &mut dyn EventSink) {
    wave.status = WaveStatus::AtBarrier;
    wave.pc = pc + 1;
    emit(events, wave, pc, wave.active, EventKind::BarrierWait);
}

/// Lanes the spec would still run if the active ones ended now: lanes parked in a frame, less
/// those a guarded `halt` took out.
fn waiting_lanes(wave: &Wave) -> u64 {
    let parked = wave
        .stack
        .iter()
        .fold(0, |lanes, frame| lanes | frame.entry);
    parked & !wave.active & !wave.halted
}

/// The whole wave ends here (`halt`, a `return` with no caller): `ran` are the lanes that ran
/// the instruction, the ones the spec would end. Reports the lanes the spec would have kept.
pub(super) fn halt_wave(wave: &mut Wave, ran: u64, pc: u32, events: &mut dyn EventSink) {
    let kept_by_spec = (wave.active & !ran) | waiting_lanes(wave);
    if kept_by_spec != 0 {
        depart(events, wave, pc, kept_by_spec, Departure::WholeWaveHalt);
    }
    if ran != 0 {
        emit(events, wave, pc, ran, EventKind::Halt);
    }
    end_wave(wave, ran, pc, events);
}

/// A guarded `halt`: the guarded lanes leave the active mask but stay in the frames; when no
/// lane is left, the whole wave ends.
pub(super) fn halt_guarded(wave: &mut Wave, lanes: u64, pc: u32, events: &mut dyn EventSink) {
    wave.active &= !lanes;
    wave.halted |= lanes;
    if lanes != 0 {
        emit(events, wave, pc, lanes, EventKind::Halt);
    }
    if wave.active == 0 {
        let kept_by_spec = waiting_lanes(wave);
        if kept_by_spec != 0 {
            depart(events, wave, pc, kept_by_spec, Departure::WholeWaveHalt);
        }
        end_wave(wave, 0, pc, events);
    } else {
        wave.pc = pc + 1;
    }
}

/// The wave is over: `ended` lanes (and any a guarded halt took out) count as halted, the rest
/// as finished. Also the reference's own end of a wave with no active lane and no frame, which
/// it makes at the wave's next pick.
pub(super) fn end_wave(wave: &mut Wave, ended: u64, pc: u32, events: &mut dyn EventSink) {
    wave.halted |= ended;
    finish(wave, pc, events);
}
