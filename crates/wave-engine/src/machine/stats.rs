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

    /// Fraction of lane slots that did useful work, 0..=1 (1 when nothing ran).
    pub fn simd_efficiency(&self) -> f64 {
        if self.lane_slots == 0 {
            1.0
        } else {
            self.active_lane_instructions as f64 / self.lane_slots as f64
        }
    }
}
