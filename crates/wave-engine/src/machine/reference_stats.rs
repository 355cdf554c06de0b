//! The reference emulator's statistics, counted its way (`wave-emu --stats`): instruction
//! categories as it files them (moves under control, compares and `select` under integer, MMA
//! under float), atomics counted once per instruction and once more per lane, loads and stores
//! per lane with their bytes, guarded `halt`s and guarded control instructions that leave no lane
//! not counted, and a "divergent branch" for every `if` that sends a lane to its else side.
//! Built after a run from the per-instruction records and [`ReferenceCounts`], so the run loop
//! pays nothing for it.

use super::stats::{ReferenceCounts, Stats};
use crate::instr::{Instr, Op};

/// The categories the reference files instructions under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Category {
    Integer,
    Float,
    Memory,
    Control,
    Wave,
    Atomic,
}

/// Writes [`category`] from the `category` projection of the table of operations.
macro_rules! define_category {
    (() [$( $op:ident $category:ident; )*]) => {
        /// Where the reference files `op`.
        pub(crate) fn category(op: Op) -> Category {
            match op {
                $( Op::$op => Category::$category, )*
            }
        }
    };
}
crate::ops::for_each_op!(category => define_category());

/// The figures of the reference's statistics block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ReferenceStats {
    pub instructions: u64,
    pub integer_ops: u64,
    pub float_ops: u64,
    pub memory_ops: u64,
    pub control_ops: u64,
    pub wave_ops: u64,
    pub atomic_ops: u64,
    pub device_loads: u64,
    pub device_load_bytes: u64,
    pub device_stores: u64,
    pub device_store_bytes: u64,
    pub local_loads: u64,
    pub local_load_bytes: u64,
    pub local_stores: u64,
    pub local_store_bytes: u64,
    pub barriers: u64,
    pub divergent_branches: u64,
    pub workgroups_executed: u64,
    pub waves_executed: u64,
}

impl ReferenceStats {
    /// The block for a run of `code` that left `stats`.
    pub fn of(stats: &Stats, code: &[Instr]) -> ReferenceStats {
        let ReferenceCounts {
            device_loads,
            device_load_bytes,
            device_stores,
            device_store_bytes,
            local_loads,
            local_load_bytes,
            local_stores,
            local_store_bytes,
            atomic_lanes,
            uncounted_control,
            ifs_with_else_lanes,
        } = stats.reference;
        let mut figures = ReferenceStats {
            device_loads,
            device_load_bytes,
            device_stores,
            device_store_bytes,
            local_loads,
            local_load_bytes,
            local_stores,
            local_store_bytes,
            barriers: stats.barriers,
            divergent_branches: ifs_with_else_lanes,
            workgroups_executed: stats.workgroups_executed,
            waves_executed: stats.waves_executed,
            atomic_ops: atomic_lanes,
            ..ReferenceStats::default()
        };
        for (record, instr) in stats.per_pc.iter().zip(code) {
            let slot = match category(instr.op) {
                Category::Integer => &mut figures.integer_ops,
                Category::Float => &mut figures.float_ops,
                Category::Memory => &mut figures.memory_ops,
                Category::Control => &mut figures.control_ops,
                Category::Wave => &mut figures.wave_ops,
                Category::Atomic => &mut figures.atomic_ops,
            };
            *slot += record.count;
            figures.instructions += record.count;
        }
        figures.control_ops -= uncounted_control.min(figures.control_ops);
        figures.instructions -= uncounted_control.min(figures.instructions);
        figures
    }
}
