//! One wave: its lanes' registers (structure of arrays), predicates, masks, divergence stack and
//! call stack.

use super::frame::{Frame, MAX_CALL_DEPTH, MAX_STACK_DEPTH};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaveStatus {
    Ready,
    /// Waiting at a barrier for the rest of the workgroup.
    AtBarrier,
    /// No lane left: every lane halted or finished.
    Done,
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
    pub id: u32,
    /// Linear thread index of lane 0.
    pub first_thread: u32,
    pub width: u32,
    pub pc: u32,
    pub status: WaveStatus,
    /// Lanes executing now.
    pub active: u64,
    /// Lanes that belong to the workgroup (trailing lanes of a partial last wave do not).
    pub present: u64,
    pub halted: u64,
    /// Predicates p0..p3 as lane bitmasks.
    pub predicates: [u64; 4],
    /// `registers[r * width + lane]`.
    pub registers: Vec<u32>,
    pub register_count: u32,
    pub stack: Vec<Frame>,
    pub calls: Vec<CallRecord>,
    /// 4x4 f32 MMA fragments, per lane, keyed by fragment id; allocated on first use only.
    pub fragments: Vec<(u8, u32, [f32; 16])>,
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
    pub fn new(id: u32, width: u32, workgroup_threads: u32, register_count: u32) -> Self {
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
            registers: vec![0; (register_count * width) as usize],
            register_count,
            stack: Vec::with_capacity(MAX_STACK_DEPTH),
            calls: Vec::with_capacity(MAX_CALL_DEPTH),
            fragments: Vec::new(),
        }
    }

    /// The value of register `r` in `lane`.
    #[inline]
    pub fn register(&self, r: u8, lane: u32) -> u32 {
        self.registers[r as usize * self.width as usize + lane as usize]
    }

    #[inline]
    pub fn set_register(&mut self, r: u8, lane: u32, value: u32) {
        let width = self.width as usize;
        self.registers[r as usize * width + lane as usize] = value;
    }

    /// Register `r` across all lanes.
    #[inline]
    pub fn row(&self, r: u8) -> &[u32] {
        let width = self.width as usize;
        &self.registers[r as usize * width..(r as usize + 1) * width]
    }

    #[inline]
    pub fn row_mut(&mut self, r: u8) -> &mut [u32] {
        let width = self.width as usize;
        &mut self.registers[r as usize * width..(r as usize + 1) * width]
    }

    pub fn predicate(&self, p: u8, lane: u32) -> bool {
        self.predicates[p as usize & 3] >> lane & 1 != 0
    }

    pub fn depth(&self) -> usize {
        self.stack.len()
    }

    /// Index of the innermost loop frame, if any.
    pub fn innermost_loop(&self) -> Option<usize> {
        self.stack
            .iter()
            .rposition(|f| f.kind == super::frame::FrameKind::Loop)
    }
}
