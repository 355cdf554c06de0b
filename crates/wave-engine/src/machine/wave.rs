//! One wave: its lanes' registers (structure of arrays), predicates, masks, divergence stack and
//! call stack.

use super::frame::{Frame, MAX_CALL_DEPTH, MAX_STACK_DEPTH};

/// Widest wave.
pub const MAX_LANES: usize = 64;
/// One register across every lane of a wave. Lanes at and beyond the wave's width belong to no
/// thread: full-wave writes may fill them with values nobody reads, so fast paths that look at a
/// whole row (a bound, a NaN test) may only decline on their account, never decide a result.
///
/// Aligned to a cache line: a 32-lane row is then exactly two lines and a vector of eight lanes
/// never straddles two (a plain `[u32; 64]` sits wherever the allocator puts it, 16-byte aligned).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub(crate) struct Row(pub [u32; MAX_LANES]);

// The fast paths' raw pointers step rows by `size_of::<Row>()` and read lanes from offset 0.
const _: () =
    assert!(std::mem::align_of::<Row>() == 64 && std::mem::size_of::<Row>() == 4 * MAX_LANES);

impl Row {
    /// Every lane `value`.
    pub(crate) const fn splat(value: u32) -> Row {
        Row([value; MAX_LANES])
    }
}

impl std::ops::Deref for Row {
    type Target = [u32; MAX_LANES];
    #[inline(always)]
    fn deref(&self) -> &[u32; MAX_LANES] {
        &self.0
    }
}

impl std::ops::DerefMut for Row {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [u32; MAX_LANES] {
        &mut self.0
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaveStatus {
    Ready,
    /// Waiting at a barrier for the rest of the workgroup.
    AtBarrier,
    /// No lane left: every lane halted or finished.
    Done,
}

/// Which of a lane's three MMA fragment stores a fragment is in: the same id in A, B and C
/// names three different fragments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FragmentStore {
    A,
    B,
    C,
}

/// One lane's 4x4 f32 MMA fragment (row-major).
#[derive(Clone, Copy, Debug)]
pub struct Fragment {
    pub store: FragmentStore,
    pub id: u8,
    pub lane: u32,
    pub tile: [f32; 16],
}

/// Fragments are machine state: equal when their bits are (a NaN equals itself, 0.0 and -0.0
/// differ), as registers, which hold the same floats as bits, compare.
impl PartialEq for Fragment {
    fn eq(&self, other: &Self) -> bool {
        self.store == other.store
            && self.id == other.id
            && self.lane == other.lane
            && self.tile.map(f32::to_bits) == other.tile.map(f32::to_bits)
    }
}

/// A `call` waiting for its `return`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallRecord {
    pub return_pc: u32,
    /// Divergence-stack depth at the call; `return` must find the same depth.
    pub stack_depth: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Wave {
    /// Index of the wave inside its workgroup.
    pub(crate) id: u32,
    /// Linear thread index of lane 0.
    pub(crate) first_thread: u32,
    pub(crate) width: u32,
    pub(crate) pc: u32,
    pub(crate) status: WaveStatus,
    /// Lanes executing now.
    pub(crate) active: u64,
    /// Lanes that belong to the workgroup (trailing lanes of a partial last wave do not).
    pub(crate) present: u64,
    /// Lanes that ran `halt`. In spec mode they stay halted. In `Behaviour::WaveEmu` the lanes a
    /// guarded `halt` took out are still held by the reference's frames, so an `endif`, `else`
    /// or `endloop` may bring one back (D7), clearing its bit here.
    pub(crate) halted: u64,
    /// Predicates p0..p3 as lane bitmasks.
    pub(crate) predicates: [u64; 4],
    /// `registers[r][lane]`: one fixed 64-lane row per register whatever the width, so lane loops
    /// have a constant trip count and compile to vector code without bounds checks.
    pub(crate) registers: Vec<Row>,
    pub(crate) register_count: u32,
    pub(crate) stack: Vec<Frame>,
    pub(crate) calls: Vec<CallRecord>,
    /// 4x4 f32 MMA fragments: each lane has three stores (A, B, C), each keyed by fragment id
    /// (a register number); allocated on first use only.
    pub(crate) fragments: Vec<Fragment>,
}

/// The mask with lanes `0..width` set.
#[inline]
pub const fn lanes_mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

impl Wave {
    pub(crate) fn new(id: u32, width: u32, workgroup_threads: u32, register_count: u32) -> Self {
        Wave {
            registers: vec![Row::splat(0); register_count as usize],
            stack: Vec::with_capacity(MAX_STACK_DEPTH),
            calls: Vec::with_capacity(MAX_CALL_DEPTH),
            ..Wave::without_storage(id, width, workgroup_threads, register_count)
        }
    }

    /// A new wave's fields, its registers and stacks empty.
    fn without_storage(id: u32, width: u32, workgroup_threads: u32, register_count: u32) -> Self {
        let first_thread = id * width;
        let lanes_in_workgroup = workgroup_threads.saturating_sub(first_thread).min(width);
        let present = lanes_mask(lanes_in_workgroup);
        Wave {
            id,
            first_thread,
            width,
            pc: 0,
            status: if present == 0 {
                WaveStatus::Done
            } else {
                WaveStatus::Ready
            },
            active: present,
            present,
            halted: 0,
            predicates: [0; 4],
            registers: Vec::new(),
            register_count,
            stack: Vec::new(),
            calls: Vec::new(),
            fragments: Vec::new(),
        }
    }

    /// Makes this wave what [`Wave::new`] makes with the same arguments, keeping its allocations
    /// (the next workgroup's waves are this one's).
    pub(crate) fn reset(
        &mut self,
        id: u32,
        width: u32,
        workgroup_threads: u32,
        register_count: u32,
    ) {
        let fresh = Wave::without_storage(id, width, workgroup_threads, register_count);
        let mut old = std::mem::replace(self, fresh);
        old.registers.clear();
        old.registers.resize(register_count as usize, Row::splat(0));
        old.stack.clear();
        old.calls.clear();
        old.fragments.clear();
        (self.registers, self.stack, self.calls, self.fragments) =
            (old.registers, old.stack, old.calls, old.fragments);
    }

    /// The value of register `r` in `lane`.
    #[inline]
    pub fn register(&self, r: u8, lane: u32) -> u32 {
        self.registers[r as usize][lane as usize % MAX_LANES]
    }

    #[inline]
    pub(crate) fn set_register(&mut self, r: u8, lane: u32, value: u32) {
        self.registers[r as usize][lane as usize % MAX_LANES] = value;
    }

    /// Register `r` across the wave's lanes.
    #[inline]
    pub fn row(&self, r: u8) -> &[u32] {
        &self.registers[r as usize][..self.width as usize]
    }

    #[inline]
    pub(crate) fn row_mut(&mut self, r: u8) -> &mut [u32] {
        let width = self.width as usize;
        &mut self.registers[r as usize][..width]
    }

    pub fn predicate(&self, p: u8, lane: u32) -> bool {
        self.predicates[p as usize & 3] >> lane & 1 != 0
    }

    pub fn depth(&self) -> usize {
        self.stack.len()
    }

    /// Index of the wave inside its workgroup.
    #[inline]
    pub fn id(&self) -> u32 {
        self.id
    }

    /// Lanes in the wave.
    #[inline]
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The next instruction's index in the kernel's code.
    #[inline]
    pub fn pc(&self) -> u32 {
        self.pc
    }

    #[inline]
    pub fn status(&self) -> WaveStatus {
        self.status
    }

    /// No lane of the wave is left: every lane halted or finished.
    #[inline]
    pub fn is_done(&self) -> bool {
        self.status == WaveStatus::Done
    }

    /// Lanes executing now, as a mask.
    #[inline]
    pub fn active(&self) -> u64 {
        self.active
    }

    /// Lanes that belong to the workgroup, as a mask.
    #[inline]
    pub fn present(&self) -> u64 {
        self.present
    }

    /// Lanes that ran `halt`, as a mask.
    #[inline]
    pub fn halted(&self) -> u64 {
        self.halted
    }

    /// Linear thread index of lane 0.
    #[inline]
    pub fn first_thread(&self) -> u32 {
        self.first_thread
    }

    /// Predicates p0..p3 as lane masks.
    #[inline]
    pub fn predicates(&self) -> [u64; 4] {
        self.predicates
    }

    /// Registers each lane has (`r0` up to one below this).
    #[inline]
    pub fn register_count(&self) -> u32 {
        self.register_count
    }

    /// The divergence stack, outermost frame first.
    #[inline]
    pub fn stack(&self) -> &[Frame] {
        &self.stack
    }

    /// The calls under way, outermost first.
    #[inline]
    pub fn calls(&self) -> &[CallRecord] {
        &self.calls
    }

    /// Index of the innermost loop frame, if any.
    pub fn innermost_loop(&self) -> Option<usize> {
        self.stack
            .iter()
            .rposition(|f| f.kind == super::frame::FrameKind::Loop)
    }
}

/// Why a lane is or is not executing, as the lanes view explains it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneState {
    Active,
    /// The lane is beyond the workgroup's threads (a partial last wave).
    OutsideWorkgroup,
    Halted,
    /// The wave finished: the lane ran to its end.
    Finished,
    /// Waiting for the `else` side: the `if` at `origin` did not take it.
    WaitingForElse {
        origin: u32,
    },
    /// Took the then side of the `if` at `origin` and waits at its `endif` while the else side runs.
    WaitingAtEndif {
        origin: u32,
    },
    /// Broke out of the loop at `origin`; waits for the loop to end.
    BrokeOut {
        origin: u32,
    },
    /// Continued in the loop at `origin`; rejoins at its next iteration.
    Continued {
        origin: u32,
    },
    /// Inactive for another reason (a predicated-off instruction never parks a lane, so this is
    /// a lane that entered a construct's frame inactive; kept for completeness).
    Inactive,
}

impl Wave {
    /// The state of `lane`, found from the innermost frame that parks it.
    pub fn lane_state(&self, lane: u32) -> LaneState {
        let bit = 1u64.checked_shl(lane).unwrap_or(0);
        if self.present & bit == 0 {
            return LaneState::OutsideWorkgroup;
        }
        if self.halted & bit != 0 {
            return LaneState::Halted;
        }
        if self.status == WaveStatus::Done {
            return LaneState::Finished;
        }
        if self.active & bit != 0 {
            return LaneState::Active;
        }
        for frame in self.stack.iter().rev() {
            let origin = frame.origin;
            match frame.kind {
                super::frame::FrameKind::Loop if frame.break_mask & bit != 0 => {
                    return LaneState::BrokeOut { origin }
                }
                super::frame::FrameKind::Loop if frame.continue_mask & bit != 0 => {
                    return LaneState::Continued { origin }
                }
                super::frame::FrameKind::If if !frame.in_else && frame.else_mask & bit != 0 => {
                    return LaneState::WaitingForElse { origin }
                }
                super::frame::FrameKind::If if frame.in_else && frame.then_mask & bit != 0 => {
                    return LaneState::WaitingAtEndif { origin }
                }
                _ => {}
            }
        }
        LaneState::Inactive
    }
}
