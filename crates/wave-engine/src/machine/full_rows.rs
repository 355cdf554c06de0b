//! Register-only instructions on a workgroup in lockstep whose waves are all full (every lane of
//! a 32- or 64-lane wave active) and which have no guard: each destination row is computed whole,
//! with no mask, and the operand checks (immediates, register numbers) are done once for the
//! group instead of once per wave. The commonest integer, float and compare instructions only —
//! the ones loop counters, address arithmetic and loop tests are made of, marked `rows` in the
//! table of operations (`src/ops.rs`); everything else goes through the general dispatch
//! (`exec::step_group`).
//!
//! Each instruction's per-lane rule is the numeric function the general dispatch uses (both take
//! it from the table), so the two paths compute the same bits; the differential tests, the
//! fixtures and this module's tests (over every op marked `rows`) run both.

use super::lane_bits;
use super::wave::{Row, Wave};
use crate::instr::{flags, Guard, Instr, Op};

/// Runs `instr` on every wave of `waves` (each then moves on) and says so, or returns `false`,
/// running nothing, when it is not one of this module's instructions or its operands need the
/// general path.
///
/// # Safety
/// Every wave is `N` lanes wide with all `N` lanes active, and all have the same number of
/// registers. (The register numbers are checked here against the first wave's count, once; the
/// rows of the others are then read unchecked: the per-wave bound checks were a fifth of these
/// instructions' cost.)
#[inline(always)]
pub(super) unsafe fn step<const N: usize>(waves: &mut [Wave], instr: &Instr) -> bool {
    let Some(first) = waves.first() else {
        return false;
    };
    let registers = first.registers.len();
    let highest = instr.dst.max(instr.a).max(instr.b).max(instr.c) as usize;
    if instr.guard != Guard::Always
        || instr.flags & (flags::A_IMM | flags::B_IMM | flags::C_IMM) != 0
        || highest >= registers
    {
        return false;
    }
    // One arm per row of the table of operations marked `rows`: the row's numeric function over
    // whole rows.
    macro_rules! whole_row_arms {
        (() [$( $op:ident rows $kind:ident $function:path; )*]) => {
            match instr.op {
                $( Op::$op => whole_row!($kind $function), )*
                _ => return false,
            }
        };
    }
    macro_rules! whole_row {
        (map1 $f:path) => {
            map_rows::<N>(waves, instr, |a, _, _| $f(a))
        };
        (map2 $f:path) => {
            map_rows::<N>(waves, instr, |a, b, _| $f(a, b))
        };
        (map3 $f:path) => {
            map_rows::<N>(waves, instr, $f)
        };
        (compare $f:path) => {
            compare::<N>(waves, instr, $f)
        };
    }
    crate::ops::for_each_op!(rows => whole_row_arms());
    true
}

/// Writes [`WHOLE_ROW_OPS`] from the `rows` projection of the table of operations.
#[cfg(test)]
macro_rules! define_whole_row_ops {
    (() [$( $op:ident rows $kind:ident $function:path; )*]) => {
        /// Every op with a whole-row path, and whether it writes a predicate (a compare).
        const WHOLE_ROW_OPS: &[(Op, bool)] = &[$( (Op::$op, writes_predicate!($kind)), )*];
    };
}
#[cfg(test)]
macro_rules! writes_predicate {
    (compare) => {
        true
    };
    ($kind:ident) => {
        false
    };
}
#[cfg(test)]
crate::ops::for_each_op!(rows => define_whole_row_ops());

/// The first `N` lanes of register `r`'s row (rows are 64 lanes long; `N` is 32 or 64).
///
/// # Safety
/// `r < rows.len()`.
#[inline(always)]
unsafe fn lanes<const N: usize>(rows: &[Row], r: usize) -> &[u32; N] {
    debug_assert!(r < rows.len() && N <= 64);
    // SAFETY: `r` is in bounds (the caller's promise) and a row holds 64 >= N lanes.
    unsafe { &*(rows.get_unchecked(r).as_ptr() as *const [u32; N]) }
}

/// Register `r`'s row, for writing.
///
/// # Safety
/// `r < rows.len()`.
#[inline(always)]
unsafe fn row_mut(rows: &mut [Row], r: usize) -> &mut Row {
    debug_assert!(r < rows.len());
    // SAFETY: `r` is in bounds (the caller's promise).
    unsafe { rows.get_unchecked_mut(r) }
}

/// `f` of operand rows `a`, `b` and `c`, lane by lane, into `dst` on every wave. Binary and
/// unary instructions ignore the operands they do not have (their unused fields are register 0,
/// inside the file); the compiler drops the reads whose values go unused.
#[inline(always)]
fn map_rows<const N: usize>(waves: &mut [Wave], instr: &Instr, f: impl Fn(u32, u32, u32) -> u32) {
    let (a, b, c, dst) = (
        instr.a as usize,
        instr.b as usize,
        instr.c as usize,
        instr.dst as usize,
    );
    for wave in waves {
        let rows = &mut wave.registers;
        // SAFETY: (here and below) every register number is below the first wave's register
        // count (checked in `step`), which every wave shares (`step`'s caller's promise).
        let (a, b, c) = unsafe {
            (
                lanes::<N>(rows, a),
                lanes::<N>(rows, b),
                lanes::<N>(rows, c),
            )
        };
        // Computed whole before the store: the destination may be an operand.
        let mut computed = [0u32; N];
        for (lane, slot) in computed.iter_mut().enumerate() {
            *slot = f(a[lane], b[lane], c[lane]);
        }
        // SAFETY: as for the operands above.
        let dst_row = unsafe { row_mut(rows, dst) };
        dst_row[..N].copy_from_slice(&computed);
        wave.pc += 1;
    }
}

/// A compare: with every lane active, the predicate's `N` lane bits become the results (the bits
/// above a 32-lane wave's width keep what they held, as in the general path).
#[inline(always)]
fn compare<const N: usize>(waves: &mut [Wave], instr: &Instr, f: impl Fn(u32, u32) -> bool) {
    let (a, b, p) = (instr.a as usize, instr.b as usize, instr.dst as usize & 3);
    for wave in waves {
        let rows = &wave.registers;
        // SAFETY: as in `map_rows`: `a` and `b` are below the first wave's register count
        // (checked in `step`), which every wave shares (`step`'s caller's promise).
        let (a, b) = unsafe { (lanes::<N>(rows, a), lanes::<N>(rows, b)) };
        let mut results = [0u32; N];
        for (lane, result) in results.iter_mut().enumerate() {
            *result = if f(a[lane], b[lane]) { u32::MAX } else { 0 };
        }
        let lanes = u64::MAX >> (64 - N);
        let slot = &mut wave.predicates[p];
        *slot = (*slot & !lanes) | lane_bits::pack(&results);
        wave.pc += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::step;
    use crate::instr::{Guard, Instr, Op};
    use crate::machine::exec::{self, Env};
    use crate::machine::memory::Memory;
    use crate::machine::wave::Wave;

    const REGISTERS: u32 = 6;

    /// Three full waves of `width` lanes with varied register bits (small values, negatives and
    /// equal pairs, so the compares go both ways) and predicate bits to keep above the width.
    fn waves(width: u32) -> Vec<Wave> {
        let mut state = 0x1234_5678_9ABC_DEF0u64;
        (0..3)
            .map(|id| {
                let mut wave = Wave::new(id, width, 3 * width, REGISTERS);
                for register in 0..REGISTERS as u8 {
                    for lane in 0..width {
                        state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
                        let bits = (state >> 33) as u32;
                        let value = match lane % 4 {
                            0 => bits % 7,
                            1 => bits.wrapping_neg() % 9,
                            _ => bits,
                        };
                        wave.set_register(register, lane, value);
                    }
                }
                wave.predicates = [u64::MAX, 0xAAAA_AAAA_AAAA_AAAA, 0, 0x0F0F_0F0F_0F0F_0F0F];
                wave
            })
            .collect()
    }

    /// Writes one quiet NaN over every NaN in `register` of the wave's `width` lanes.
    fn one_quiet_nan(wave: &mut Wave, register: u8, width: u32) {
        for lane in 0..width {
            if f32::from_bits(wave.register(register, lane)).is_nan() {
                wave.set_register(register, lane, f32::NAN.to_bits());
            }
        }
    }

    fn whole_rows_equal_the_general_dispatch<const N: usize>() {
        let (mut device, mut local) = (Memory::zeroed(0), Memory::zeroed(0));
        let env = Env {
            device: &mut device,
            local: &mut local,
            workgroup_id: [0; 3],
            workgroup_size: [3 * N as u32, 1, 1],
            grid_size: [1; 3],
            num_waves: 3,
            avx2_fma: None,
            counts: Default::default(),
        };
        for &(op, compare) in super::WHOLE_ROW_OPS {
            // The destination is also a source: the row must be computed whole before the store.
            let instr = Instr {
                dst: if compare { 1 } else { 2 },
                a: 2,
                b: 3,
                c: 4,
                ..Instr::new(op)
            };
            let mut fast = waves(N as u32);
            let mut general = fast.clone();
            // SAFETY: every wave is `N` lanes wide with all lanes active (`Wave::new` of a
            // workgroup that fills it) and has `REGISTERS` registers.
            assert!(unsafe { step::<N>(&mut fast, &instr) }, "{op:?}");
            assert!(exec::step_group(&mut general, &instr, &env), "{op:?}");
            if cfg!(miri) && matches!(op, Op::FAdd | Op::FSub | Op::FMul) {
                // Miri gives each NaN a random payload, so two correct runs of the same float
                // op may differ in a NaN's bits; natively the payloads must match too.
                for wave in fast.iter_mut().chain(general.iter_mut()) {
                    one_quiet_nan(wave, instr.dst, N as u32);
                }
            }
            assert_eq!(fast, general, "{op:?} on {N} lanes");
        }
    }

    #[test]
    fn whole_rows_of_32_lanes_equal_the_general_dispatch() {
        whole_rows_equal_the_general_dispatch::<32>();
    }

    #[test]
    fn whole_rows_of_64_lanes_equal_the_general_dispatch() {
        whole_rows_equal_the_general_dispatch::<64>();
    }

    #[test]
    fn registers_past_the_file_a_guard_or_an_immediate_send_it_to_the_general_path() {
        let declined = [
            Instr {
                a: REGISTERS as u8,
                ..Instr::new(Op::IAdd)
            },
            Instr {
                dst: 255,
                ..Instr::new(Op::Mov)
            },
            Instr {
                guard: Guard::when(1),
                ..Instr::new(Op::IAdd)
            },
            Instr {
                flags: crate::instr::flags::B_IMM,
                ..Instr::new(Op::IAdd)
            },
            Instr::new(Op::IDiv),
        ];
        for instr in declined {
            let mut group = waves(32);
            let before = group.clone();
            // SAFETY: as above; the register numbers are what `step` checks.
            assert!(!unsafe { step::<32>(&mut group, &instr) }, "{instr:?}");
            assert_eq!(group, before, "{instr:?} ran");
        }
    }
}
