//! One workgroup: its waves, its local memory, round-robin scheduling and barriers.

use super::config::ResolvedLaunch;
use super::event::{Event, EventKind, EventSink};
use super::memory::Memory;
use super::wave::{Wave, WaveStatus};

#[derive(Clone, Debug, PartialEq)]
pub struct Workgroup {
    /// Linear index in the grid (x fastest).
    pub(crate) index: u32,
    pub(crate) id: [u32; 3],
    pub(crate) waves: Vec<Wave>,
    pub(crate) local: Memory,
    /// Next wave to consider, as wave-emu rotates: one instruction per pick.
    pub(crate) next_pick: usize,
    /// Wave-instructions executed in this workgroup (the budget counts these).
    pub(crate) executed: u64,
}

impl Workgroup {
    /// Workgroup `index` of the launch: an empty one, restarted (which sets every field).
    pub(crate) fn new(index: u32, launch: &ResolvedLaunch, register_file_size: u32) -> Self {
        let mut workgroup = Workgroup {
            index,
            id: [0; 3],
            waves: Vec::with_capacity(launch.waves_per_workgroup() as usize),
            local: Memory::zeroed(launch.local_memory),
            next_pick: 0,
            executed: 0,
        };
        workgroup.restart(index, launch, register_file_size);
        workgroup
    }

    /// Makes this workgroup what [`Workgroup::new`] makes with the same arguments, reusing the
    /// waves' register files and the local memory, which is not written again when it is still
    /// zero: a grid of many workgroups then allocates and zeroes once, not once a workgroup.
    pub(crate) fn restart(&mut self, index: u32, launch: &ResolvedLaunch, register_file_size: u32) {
        let threads = launch.workgroup_threads();
        let count = launch.waves_per_workgroup() as usize;
        self.waves.truncate(count);
        for (w, wave) in self.waves.iter_mut().enumerate() {
            wave.reset(w as u32, launch.wave_width, threads, register_file_size);
        }
        for w in self.waves.len()..count {
            let wave = Wave::new(w as u32, launch.wave_width, threads, register_file_size);
            self.waves.push(wave);
        }
        for wave in &mut self.waves {
            for &(register, value) in &launch.initial_registers {
                wave.row_mut(register).fill(value);
            }
        }
        if self.local.len() == launch.local_memory as usize {
            self.local.zero();
        } else {
            self.local = Memory::zeroed(launch.local_memory);
        }
        self.index = index;
        self.id = grid_position(index, launch);
        self.next_pick = 0;
        self.executed = 0;
    }

    /// Linear index in the grid (x fastest).
    pub fn index(&self) -> u32 {
        self.index
    }

    /// Position in the grid.
    pub fn id(&self) -> [u32; 3] {
        self.id
    }

    pub fn waves(&self) -> &[Wave] {
        &self.waves
    }

    pub fn local(&self) -> &Memory {
        &self.local
    }

    /// The wave the round-robin considers next.
    pub fn next_pick(&self) -> usize {
        self.next_pick
    }

    /// Wave-instructions executed in this workgroup (the budget counts these).
    pub fn executed(&self) -> u64 {
        self.executed
    }

    pub fn is_done(&self) -> bool {
        self.waves.iter().all(|w| w.status == WaveStatus::Done)
    }

    /// The wave to run next, round-robin from `next_pick`; `None` when no wave is ready.
    #[inline]
    pub fn pick(&self) -> Option<usize> {
        pick_from(&self.waves, self.next_pick)
    }
}

/// The workgroup's position in the grid from its linear index (x fastest).
fn grid_position(index: u32, launch: &ResolvedLaunch) -> [u32; 3] {
    let [gx, gy, _] = launch.grid;
    [
        index % gx.max(1),
        (index / gx.max(1)) % gy.max(1),
        index / (gx.max(1) * gy.max(1)).max(1),
    ]
}

/// Releases the waves waiting at a barrier when every live wave is there (finished waves never
/// block); whether it did. It takes the waves alone: the run loop holds the workgroup's other
/// fields borrowed.
pub(crate) fn release_barrier_if_complete<S: EventSink + ?Sized>(
    waves: &mut [Wave],
    events: &mut S,
) -> bool {
    let waiting = waves
        .iter()
        .filter(|w| w.status == WaveStatus::AtBarrier)
        .count();
    let live = waves
        .iter()
        .filter(|w| w.status != WaveStatus::Done)
        .count();
    if waiting == 0 || waiting != live {
        return false;
    }
    release_waiting(waves, events);
    true
}

/// Lets every wave waiting at a barrier go on (each already stands after its `barrier`), with a
/// release event each. Spec mode calls it when every live wave waits; the reference's rule
/// (`reference::barrier`) decides otherwise when.
pub(crate) fn release_waiting<S: EventSink + ?Sized>(waves: &mut [Wave], events: &mut S) {
    for wave in waves {
        if wave.status == WaveStatus::AtBarrier {
            wave.status = WaveStatus::Ready;
            events.emit(Event {
                wave: wave.id,
                pc: wave.pc,
                mask: wave.active,
                kind: EventKind::BarrierRelease,
            });
        }
    }
}

/// The first ready wave at or after `from` (0 when `from` is past the end), wrapping once. No `%`:
/// this runs once per executed instruction.
#[inline(always)]
pub(crate) fn pick_from(waves: &[Wave], from: usize) -> Option<usize> {
    let start = if from < waves.len() { from } else { 0 };
    let ready = |w: &usize| waves[*w].status == WaveStatus::Ready;
    (start..waves.len())
        .find(ready)
        .or_else(|| (0..start).find(ready))
}
