//! The view of a run: which workgroup, wave and lane are on show, and what the command on show
//! did (the selected wave before it, its events, whether it ran exactly one instruction). It
//! holds no machine: the readers take a view together with the run it shows, so one view type
//! can show any run.

use wave_engine::instr::{Guard, Instr};
use wave_engine::machine::{wave_op_flow, Behaviour, LaneState, Machine, Wave, WaveOpFlow};
use wave_engine::program::Kernel;

use crate::events::StepEvents;

/// Which workgroup, wave and lane the views show.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// Linear workgroup index in the grid (the machine runs workgroups one after another, so this
    /// is always the workgroup the machine holds).
    pub workgroup: u32,
    pub wave: u32,
    pub lane: u32,
}

/// The selected wave's registers and predicates before the last command that executed, so the
/// views can flag what changed.
#[derive(Clone, Debug, Default)]
pub(crate) struct Snapshot {
    pub(crate) workgroup: u32,
    pub(crate) wave: u32,
    pub(crate) registers: Vec<(u8, Vec<u32>)>,
    pub(crate) predicates: [u64; 4],
    /// The wave's lanes that were executing.
    pub(crate) active: u64,
    /// The wave's next instruction (`None` when it had finished).
    pub(crate) pc: Option<u32>,
    /// The machine's step count.
    pub(crate) step: u64,
    /// What that instruction moves between lanes, when it is a cross-lane operation.
    pub(crate) flow: Option<WaveOpFlow>,
}

/// The selected wave's registers, predicates, active lanes and next instruction in `machine`
/// (which runs `kernel`) now.
pub(crate) fn snapshot_of(
    machine: &Machine,
    selection: &Selection,
    used_registers: &[u8],
    kernel: Option<&Kernel>,
) -> Snapshot {
    let Some(wave) = machine.workgroup().waves().get(selection.wave as usize) else {
        return Snapshot::default();
    };
    Snapshot {
        workgroup: machine.workgroup().index(),
        wave: selection.wave,
        registers: used_registers
            .iter()
            .filter(|&&r| (r as u32) < wave.register_count())
            .map(|&r| (r, wave.row(r).to_vec()))
            .collect(),
        predicates: wave.predicates(),
        active: active_lanes(wave),
        pc: (!wave.is_done()).then_some(wave.pc()),
        step: machine.step_count(),
        flow: kernel
            .and_then(|k| k.code.get(wave.pc() as usize))
            .filter(|_| !wave.is_done())
            .and_then(|instr| wave_op_flow(wave, &as_run(machine.behaviour(), instr))),
    }
}

/// `instr` with the guard a machine of `behaviour` runs it under: the reference emulator reads
/// `@p0` as no guard (departure D9, reported as `Departure::P0Unconditional`) and runs the
/// instruction on every active lane; any other guard, and every guard in spec mode, stays.
pub(crate) fn as_run(behaviour: Behaviour, instr: &Instr) -> Instr {
    match (behaviour, instr.guard) {
        (Behaviour::WaveEmu, Guard::P0) => Instr {
            guard: Guard::Always,
            ..*instr
        },
        _ => *instr,
    }
}

/// The lanes of `wave` the lanes view shows as active, as a mask.
pub(crate) fn active_lanes(wave: &Wave) -> u64 {
    (0..wave.width().min(64))
        .filter(|&lane| wave.lane_state(lane) == LaneState::Active)
        .fold(0, |mask, lane| mask | 1 << lane)
}

/// What is on show of a run.
#[derive(Debug, Default)]
pub(crate) struct View {
    selection: Selection,
    /// The events of the command on show, and its departures from the spec among them.
    events: StepEvents,
    before: Snapshot,
    /// The command on show ran exactly one instruction of the selected wave (the one at
    /// `before.pc`): the caption describes that instruction.
    single_step: bool,
    /// What the last move in time has to say (a step past the end, nothing to go back to).
    travel_note: Option<String>,
}

impl View {
    pub(crate) fn selection(&self) -> Selection {
        self.selection
    }

    pub(crate) fn selection_mut(&mut self) -> &mut Selection {
        &mut self.selection
    }

    /// The selected wave of `machine`'s current workgroup.
    pub(crate) fn selected_wave<'m>(&self, machine: &'m Machine) -> Option<&'m Wave> {
        machine
            .workgroup()
            .waves()
            .get(self.selection.wave as usize)
    }

    /// Keeps the selection inside `machine`: its current workgroup, a wave and lane it has.
    pub(crate) fn clamp_to(&mut self, machine: &Machine) {
        self.selection.workgroup = machine.workgroup().index();
        let waves = machine.workgroup().waves().len() as u32;
        if self.selection.wave >= waves {
            self.selection.wave = waves.saturating_sub(1);
        }
        let width = machine.launch().wave_width;
        if self.selection.lane >= width {
            self.selection.lane = width.saturating_sub(1);
        }
    }

    pub(crate) fn before(&self) -> &Snapshot {
        &self.before
    }

    /// Remembers the selected wave of `machine` as it is now, as the "before" of the next
    /// command.
    pub(crate) fn take_before(
        &mut self,
        machine: Option<&Machine>,
        used_registers: &[u8],
        kernel: Option<&Kernel>,
    ) {
        self.before = match machine {
            Some(machine) => snapshot_of(machine, &self.selection, used_registers, kernel),
            None => Snapshot::default(),
        };
    }

    /// The snapshot is of the wave on show (not of another wave or workgroup).
    pub(crate) fn before_is_selected(&self) -> bool {
        self.before.workgroup == self.selection.workgroup && self.before.wave == self.selection.wave
    }

    pub(crate) fn events(&self) -> &StepEvents {
        &self.events
    }

    /// The sink the next command's events go to.
    pub(crate) fn events_mut(&mut self) -> &mut StepEvents {
        &mut self.events
    }

    pub(crate) fn single_step(&self) -> bool {
        self.single_step
    }

    pub(crate) fn set_single_step(&mut self, single: bool) {
        self.single_step = single;
    }

    /// Forgets what the command on show did: its events, and that it was a single step.
    pub(crate) fn clear_command(&mut self) {
        self.events.clear();
        self.single_step = false;
    }

    pub(crate) fn travel_note(&self) -> Option<&str> {
        self.travel_note.as_deref()
    }

    pub(crate) fn set_travel_note(&mut self, note: Option<String>) {
        self.travel_note = note;
    }
}
