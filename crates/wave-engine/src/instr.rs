//! The lowered instruction: what the machine executes.
//!
//! Every instruction is a 16-byte `Copy` value. The front end resolves everything it can
//! (operand kinds, structured-control-flow targets, call targets, immediates) so the machine's
//! loop is one `match` on [`Op`] with no look-ups and no allocation.

/// Writes the [`Op`] enum from the `ops` projection of the table of operations (`src/ops.rs`).
macro_rules! define_op {
    (() [$( $(#[$doc:meta])* $op:ident, )*]) => {
        /// One operation, in the order of the table of operations (`src/ops.rs`), which follows
        /// the WAVE ISA reference and then lists the forms only the WAVE docs use (`wave-asm`
        /// rejects them; the front end accepts them with a warning).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(u8)]
        pub enum Op {
            $( $(#[$doc])* $op, )*
        }

        impl Op {
            /// Every operation, in discriminant order.
            pub const ALL: &'static [Op] = &[$(Op::$op),*];
        }
    };
}
crate::ops::for_each_op!(ops => define_op());

/// Execution guard: run on lanes where predicate `p` holds (or does not, when negated).
/// One byte (not an enum with a payload, which takes two) so that [`Instr`] stays 16 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum Guard {
    #[default]
    Always,
    P0,
    P1,
    P2,
    P3,
    NotP0,
    NotP1,
    NotP2,
    NotP3,
}

impl Guard {
    const POSITIVE: [Guard; 4] = [Guard::P0, Guard::P1, Guard::P2, Guard::P3];
    const NEGATED: [Guard; 4] = [Guard::NotP0, Guard::NotP1, Guard::NotP2, Guard::NotP3];

    /// `@pN`: run where predicate `p` (taken modulo 4) holds.
    pub const fn when(p: u8) -> Guard {
        Self::POSITIVE[(p & 3) as usize]
    }

    /// `@!pN`: run where predicate `p` (taken modulo 4) does not hold.
    pub const fn unless(p: u8) -> Guard {
        Self::NEGATED[(p & 3) as usize]
    }

    /// For a guard other than `Always`: the predicate's index and whether it is negated, from
    /// the discriminant alone (P0..P3 are 1..=4, NotP0..NotP3 are 5..=8).
    #[inline(always)]
    pub const fn predicate_bits(self) -> (usize, bool) {
        let index = (self as u8).wrapping_sub(1);
        ((index & 3) as usize, index >= 4)
    }

    /// The predicate number and whether it is negated; `None` for [`Guard::Always`].
    pub const fn predicate(self) -> Option<(u8, bool)> {
        if matches!(self, Guard::Always) {
            return None;
        }
        let (index, negated) = self.predicate_bits();
        Some((index as u8, negated))
    }
}

/// `Instr::flags` bits.
pub mod flags {
    /// Source `a` is the immediate `imm` instead of a register (dialect immediate operands).
    pub const A_IMM: u8 = 1 << 0;
    /// Source `b` is the immediate `imm`.
    pub const B_IMM: u8 = 1 << 1;
    /// Source `c` is the immediate `imm`.
    pub const C_IMM: u8 = 1 << 2;
    /// Atomics: the old value is not written (no `rd`, or `rd` = r0 as `wave-asm` encodes it).
    pub const NO_DST: u8 = 1 << 3;
    /// `break`/`continue`/predicate ops: predicate operand `a` is negated (`!p`).
    pub const NEGATE_A: u8 = 1 << 4;
    /// Predicate logic: predicate operand `b` is negated.
    pub const NEGATE_B: u8 = 1 << 5;
}

/// One lowered instruction. Register and predicate operands are plain numbers; which fields an op
/// reads is documented on [`Op`]. Unused fields are zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Instr {
    pub op: Op,
    pub guard: Guard,
    pub flags: u8,
    pub dst: u8,
    pub a: u8,
    pub b: u8,
    pub c: u8,
    pub d: u8,
    /// Immediate value (`mov_imm`, dialect immediates) or the `If` else-target.
    pub imm: u32,
    /// Resolved instruction index for structured ops and `call`.
    pub target: u32,
}

impl Instr {
    /// An instruction with every operand zero.
    pub const fn new(op: Op) -> Self {
        Instr {
            op,
            guard: Guard::Always,
            flags: 0,
            dst: 0,
            a: 0,
            b: 0,
            c: 0,
            d: 0,
            imm: 0,
            target: 0,
        }
    }
}

/// The 20 special registers readable with `mov_sr`, by their encoding index.
#[rustfmt::skip]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum SpecialRegister {
    ThreadIdX = 0,
    ThreadIdY,
    ThreadIdZ,
    WaveId,
    LaneId,
    WorkgroupIdX,
    WorkgroupIdY,
    WorkgroupIdZ,
    WorkgroupSizeX,
    WorkgroupSizeY,
    WorkgroupSizeZ,
    GridSizeX,
    GridSizeY,
    GridSizeZ,
    WaveWidth,
    NumWaves,
    MmaSupported,
    MmaM,
    MmaN,
    MmaK,
}

impl SpecialRegister {
    /// Every special register with its assembly name, in index order.
    pub const ALL: [(SpecialRegister, &'static str); 20] = [
        (SpecialRegister::ThreadIdX, "sr_thread_id_x"),
        (SpecialRegister::ThreadIdY, "sr_thread_id_y"),
        (SpecialRegister::ThreadIdZ, "sr_thread_id_z"),
        (SpecialRegister::WaveId, "sr_wave_id"),
        (SpecialRegister::LaneId, "sr_lane_id"),
        (SpecialRegister::WorkgroupIdX, "sr_workgroup_id_x"),
        (SpecialRegister::WorkgroupIdY, "sr_workgroup_id_y"),
        (SpecialRegister::WorkgroupIdZ, "sr_workgroup_id_z"),
        (SpecialRegister::WorkgroupSizeX, "sr_workgroup_size_x"),
        (SpecialRegister::WorkgroupSizeY, "sr_workgroup_size_y"),
        (SpecialRegister::WorkgroupSizeZ, "sr_workgroup_size_z"),
        (SpecialRegister::GridSizeX, "sr_grid_size_x"),
        (SpecialRegister::GridSizeY, "sr_grid_size_y"),
        (SpecialRegister::GridSizeZ, "sr_grid_size_z"),
        (SpecialRegister::WaveWidth, "sr_wave_width"),
        (SpecialRegister::NumWaves, "sr_num_waves"),
        (SpecialRegister::MmaSupported, "sr_mma_supported"),
        (SpecialRegister::MmaM, "sr_mma_m"),
        (SpecialRegister::MmaN, "sr_mma_n"),
        (SpecialRegister::MmaK, "sr_mma_k"),
    ];

    pub fn from_name(name: &str) -> Option<SpecialRegister> {
        Self::ALL
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(sr, _)| *sr)
    }

    pub fn name(self) -> &'static str {
        Self::ALL[self as usize].1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instructions_stay_compact() {
        assert!(
            std::mem::size_of::<Instr>() <= 16,
            "Instr grew to {}",
            std::mem::size_of::<Instr>()
        );
    }

    #[test]
    fn predicate_bits_name_the_guarded_predicate_for_every_guard() {
        // `when`/`unless` pick guards by table, independently of the discriminant arithmetic.
        for p in 0..4u8 {
            for (guard, negated) in [(Guard::when(p), false), (Guard::unless(p), true)] {
                assert_eq!(guard.predicate_bits(), (p as usize, negated), "{guard:?}");
                assert_eq!(guard.predicate(), Some((p, negated)), "{guard:?}");
            }
        }
        assert_eq!(Guard::Always.predicate(), None);
    }

    #[test]
    fn special_register_names_round_trip_in_index_order() {
        for (index, (sr, name)) in SpecialRegister::ALL.iter().enumerate() {
            assert_eq!(*sr as usize, index);
            assert_eq!(SpecialRegister::from_name(name), Some(*sr));
            assert_eq!(sr.name(), *name);
        }
        assert_eq!(SpecialRegister::from_name("sr_nope"), None);
    }
}
