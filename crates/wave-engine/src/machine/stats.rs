//! Run statistics: what the statistics view and `wavesim --stats` report.

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Stats {
    /// Wave-instructions executed (one per wave per step).
    pub wave_instructions: u64,
    /// Sum over executed wave-instructions of their active lanes.
    pub active_lane_instructions: u64,
    /// Sum over executed wave-instructions of the lanes their wave has (its width, less lanes
    /// beyond the workgroup): the denominator of SIMD efficiency.
    pub lane_slots: u64,
    /// `if`s that split the wave into two non-empty sides.
    pub divergent_branches: u64,
    pub max_stack_depth: u32,
    pub barriers: u64,
    pub waves_executed: u64,
    pub workgroups_executed: u64,
    /// Per instruction index (one record each, so the hot loop touches one cache line per
    /// instruction): see [`PcStats`].
    pub per_pc: Vec<PcStats>,
    /// What the reference emulator's statistics need beyond the per-pc counts (see
    /// [`super::reference_stats`]).
    pub reference: ReferenceCounts,
}

/// Counts the reference emulator's statistics block is built from that the per-pc records do
/// not give: memory traffic per lane (a guard leaves lanes out), atomic lanes, guarded control
/// instructions it does not count, and `if`s with lanes on the else side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ReferenceCounts {
    pub device_loads: u64,
    pub device_load_bytes: u64,
    pub device_stores: u64,
    pub device_store_bytes: u64,
    pub local_loads: u64,
    pub local_load_bytes: u64,
    pub local_stores: u64,
    pub local_store_bytes: u64,
    /// Lanes that ran an atomic (the reference counts each, besides the instruction).
    pub atomic_lanes: u64,
    /// Guarded `call`, `return`, `halt` and `barrier` executions the reference does not count:
    /// every guarded `halt`, and the others when the guard leaves no lane.
    pub uncounted_control: u64,
    /// `if`s that sent at least one lane to the else side (the reference's "divergent branch").
    pub ifs_with_else_lanes: u64,
}

impl ReferenceCounts {
    /// Records a load or store of `op` by `lanes` lanes.
    #[inline(always)]
    pub fn record_access(&mut self, op: crate::instr::Op, lanes: u64) {
        use crate::instr::Op::*;
        let bytes = lanes * u64::from(super::memory_ops::access_width(op));
        let (count, total) = match op {
            LocalLoadU8 | LocalLoadU16 | LocalLoadU32 | LocalLoadU64 => {
                (&mut self.local_loads, &mut self.local_load_bytes)
            }
            LocalStoreU8 | LocalStoreU16 | LocalStoreU32 | LocalStoreU64 => {
                (&mut self.local_stores, &mut self.local_store_bytes)
            }
            DeviceLoadU8 | DeviceLoadU16 | DeviceLoadU32 | DeviceLoadU64 | DeviceLoadU128 => {
                (&mut self.device_loads, &mut self.device_load_bytes)
            }
            _ => (&mut self.device_stores, &mut self.device_store_bytes),
        };
        *count += lanes;
        *total += bytes;
    }

    pub fn add(&mut self, other: &ReferenceCounts) {
        self.device_loads += other.device_loads;
        self.device_load_bytes += other.device_load_bytes;
        self.device_stores += other.device_stores;
        self.device_store_bytes += other.device_store_bytes;
        self.local_loads += other.local_loads;
        self.local_load_bytes += other.local_load_bytes;
        self.local_stores += other.local_stores;
        self.local_store_bytes += other.local_store_bytes;
        self.atomic_lanes += other.atomic_lanes;
        self.uncounted_control += other.uncounted_control;
        self.ifs_with_else_lanes += other.ifs_with_else_lanes;
    }
}

/// What one instruction index did over the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PcStats {
    /// Times executed.
    pub count: u64,
    /// Active lanes summed over those executions.
    pub active_lanes: u64,
    /// Lanes the executing waves have (their width less lanes beyond the workgroup), summed: the
    /// line's SIMD efficiency is `active_lanes / lane_slots`.
    pub lane_slots: u64,
}

impl Stats {
    pub fn for_code_len(len: usize) -> Self {
        Stats {
            per_pc: vec![PcStats::default(); len],
            ..Stats::default()
        }
    }

    /// After an `if` or `loop` at `pc` ran on `wave` (pushing its frame, unless it trapped): the
    /// deepest stack so far, and for an `if`, whether its frame splits the wave into two
    /// non-empty sides, and whether it sends any lane to the else side (the reference's
    /// "divergent branch": `then != active && else != 0`, the same thing).
    #[inline(always)]
    pub(super) fn record_frame_push(
        &mut self,
        wave: &super::wave::Wave,
        op: crate::instr::Op,
        pc: u32,
    ) {
        self.max_stack_depth = self.max_stack_depth.max(wave.stack.len() as u32);
        if op == crate::instr::Op::If {
            if let Some(frame) = wave.stack.last().filter(|f| f.origin == pc) {
                if frame.then_mask != 0 && frame.else_mask != 0 {
                    self.divergent_branches += 1;
                }
                if frame.else_mask != 0 {
                    self.reference.ifs_with_else_lanes += 1;
                }
            }
        }
    }

    /// Fraction of lane slots that did useful work, 0..=1 (1 when nothing ran).
    pub fn simd_efficiency(&self) -> f64 {
        if self.lane_slots == 0 {
            1.0
        } else {
            self.active_lane_instructions as f64 / self.lane_slots as f64
        }
    }
}
