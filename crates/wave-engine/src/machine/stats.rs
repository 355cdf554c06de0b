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
    /// Per instruction index: times executed, active lanes summed over those executions, and the
    /// lanes the executing waves have (their width less lanes beyond the workgroup), summed: the
    /// per-line SIMD efficiency is `per_pc_active_lanes / per_pc_lane_slots`.
    pub per_pc_count: Vec<u64>,
    pub per_pc_active_lanes: Vec<u64>,
    pub per_pc_lane_slots: Vec<u64>,
}

impl Stats {
    pub fn for_code_len(len: usize) -> Self {
        Stats {
            per_pc_count: vec![0; len],
            per_pc_active_lanes: vec![0; len],
            per_pc_lane_slots: vec![0; len],
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
