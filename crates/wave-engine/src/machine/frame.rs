//! Divergence-stack frames: one per open `if` or `loop` of a wave.

/// Deepest allowed nesting of `if`/`loop` frames per wave (the spec's minimum, wave-emu's limit).
pub(super) const MAX_STACK_DEPTH: usize = 32;
/// Deepest allowed `call` nesting per wave.
pub(super) const MAX_CALL_DEPTH: usize = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameKind {
    If,
    Loop,
}

/// One open construct. Masks are lane bitmasks (bit `l` = lane `l`). Lanes that leave a construct
/// early (`break`, `continue`, `halt`) are removed from the masks of every frame they leave, so
/// no frame can bring them back before their time (docs/spec-departures.md, "break inside if" and
/// "predicated halt").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    pub kind: FrameKind,
    /// Index of the `if` / `loop` instruction that pushed this frame.
    pub origin: u32,
    /// Lanes active when the construct was entered and still able to leave it at its end.
    pub entry: u64,
    /// `if`: lanes whose predicate held (the then side).
    pub then_mask: u64,
    /// `if`: lanes whose predicate failed (the else side).
    pub else_mask: u64,
    /// `if`: the wave is running the else side.
    pub in_else: bool,
    /// `loop`: lanes that broke out; they wait for the loop to end.
    pub break_mask: u64,
    /// `loop`: lanes that continued; they rejoin at the next iteration.
    pub continue_mask: u64,
    /// `if`: index of the matching `else` (or `endif` when there is none).
    pub else_pc: u32,
    /// Index of the matching `endif` / `endloop`: where this frame reconverges.
    pub end_pc: u32,
    /// `loop`: index of the first body instruction.
    pub body_pc: u32,
    /// `loop`: completed iterations so far.
    pub iterations: u32,
}

impl Frame {
    pub fn new_if(origin: u32, entry: u64, then_mask: u64, else_pc: u32, end_pc: u32) -> Self {
        Frame {
            kind: FrameKind::If,
            origin,
            entry,
            then_mask,
            else_mask: entry & !then_mask,
            in_else: false,
            break_mask: 0,
            continue_mask: 0,
            else_pc,
            end_pc,
            body_pc: 0,
            iterations: 0,
        }
    }

    pub fn new_loop(origin: u32, entry: u64, end_pc: u32) -> Self {
        Frame {
            kind: FrameKind::Loop,
            origin,
            entry,
            then_mask: 0,
            else_mask: 0,
            in_else: false,
            break_mask: 0,
            continue_mask: 0,
            else_pc: 0,
            end_pc,
            body_pc: origin + 1,
            iterations: 0,
        }
    }

    /// Lanes leave this frame for good (they halted, or left an enclosing construct).
    pub fn forget(&mut self, lanes: u64) {
        self.entry &= !lanes;
        self.then_mask &= !lanes;
        self.else_mask &= !lanes;
        self.break_mask &= !lanes;
        self.continue_mask &= !lanes;
    }

    /// Where a wave whose active mask just became empty inside this frame goes next: the `else`
    /// when lanes still wait for it, otherwise the reconvergence point.
    pub fn resume_pc(&self) -> u32 {
        match self.kind {
            FrameKind::If if !self.in_else && self.else_mask != 0 => self.else_pc,
            _ => self.end_pc,
        }
    }
}
