//! Lane loops: apply a per-lane function to the lanes of a mask. Operands are first copied into
//! fixed-size rows so that the loops have no aliasing and no per-lane branching on operand kind,
//! and a full mask takes a plain loop the compiler vectorises.

use super::wave::{lanes_mask, Wave};
use crate::instr::{flags, Instr};

/// Widest wave; rows are stack arrays of this size.
pub const MAX_LANES: usize = 64;
pub type Row = [u32; MAX_LANES];

/// Register `reg` across the wave's lanes, or the immediate splatted when `is_imm`.
#[inline(always)]
pub fn operand(wave: &Wave, reg: u8, is_imm: bool, imm: u32) -> Row {
    let mut row = [0u32; MAX_LANES];
    let width = wave.width as usize;
    if is_imm {
        row[..width].fill(imm);
    } else {
        row[..width].copy_from_slice(wave.row(reg));
    }
    row
}

#[inline(always)]
pub fn src_a(wave: &Wave, instr: &Instr) -> Row {
    operand(wave, instr.a, instr.flags & flags::A_IMM != 0, instr.imm)
}

#[inline(always)]
pub fn src_b(wave: &Wave, instr: &Instr) -> Row {
    operand(wave, instr.b, instr.flags & flags::B_IMM != 0, instr.imm)
}

#[inline(always)]
pub fn src_c(wave: &Wave, instr: &Instr) -> Row {
    operand(wave, instr.c, instr.flags & flags::C_IMM != 0, instr.imm)
}

#[inline(always)]
pub fn src_d(wave: &Wave, instr: &Instr) -> Row {
    operand(wave, instr.d, false, 0)
}

/// Writes `value(lane)` into register `dst` for the lanes in `mask`.
#[inline(always)]
pub fn write_masked(wave: &mut Wave, dst: u8, mask: u64, value: impl Fn(usize) -> u32) {
    let width = wave.width as usize;
    let full = mask == lanes_mask(wave.width);
    let row = wave.row_mut(dst);
    if full {
        for (lane, slot) in row.iter_mut().enumerate().take(width) {
            *slot = value(lane);
        }
    } else {
        for (lane, slot) in row.iter_mut().enumerate().take(width) {
            if mask >> lane & 1 != 0 {
                *slot = value(lane);
            }
        }
    }
}

const IMMEDIATES: u8 = flags::A_IMM | flags::B_IMM | flags::C_IMM;

/// The register-only fast path: reads source rows and writes row `dst` in place, lane by lane.
/// Reading a lane's sources before writing that lane makes `dst == source` harmless. Lowering keeps
/// every register below the register-file size; checking the rows once up front lets the compiler
/// drop per-lane bounds checks (an impossible out-of-range row is simply not written).
macro_rules! map_registers {
    ($wave:expr, $dst:expr, $mask:expr, [$($src:ident),+], $f:expr) => {{
        let width = $wave.width as usize;
        let full = $mask == lanes_mask($wave.width);
        let registers = &mut $wave.registers[..];
        let len = registers.len();
        let dst = $dst as usize * width;
        $(let $src = $src as usize * width;)+
        if dst + width <= len $(&& $src + width <= len)+ {
            if full {
                for lane in 0..width {
                    registers[dst + lane] = $f($(registers[$src + lane]),+);
                }
            } else {
                for lane in 0..width {
                    if $mask >> lane & 1 != 0 {
                        registers[dst + lane] = $f($(registers[$src + lane]),+);
                    }
                }
            }
        }
    }};
}

#[inline(always)]
pub fn map1(wave: &mut Wave, instr: &Instr, mask: u64, f: impl Fn(u32) -> u32) {
    if instr.flags & IMMEDIATES == 0 {
        let a = instr.a;
        return map_registers!(wave, instr.dst, mask, [a], f);
    }
    let a = src_a(wave, instr);
    write_masked(wave, instr.dst, mask, |l| f(a[l]));
}

#[inline(always)]
pub fn map2(wave: &mut Wave, instr: &Instr, mask: u64, f: impl Fn(u32, u32) -> u32) {
    if instr.flags & IMMEDIATES == 0 {
        let (a, b) = (instr.a, instr.b);
        return map_registers!(wave, instr.dst, mask, [a, b], f);
    }
    let a = src_a(wave, instr);
    let b = src_b(wave, instr);
    write_masked(wave, instr.dst, mask, |l| f(a[l], b[l]));
}

#[inline(always)]
pub fn map3(wave: &mut Wave, instr: &Instr, mask: u64, f: impl Fn(u32, u32, u32) -> u32) {
    if instr.flags & IMMEDIATES == 0 {
        let (a, b, c) = (instr.a, instr.b, instr.c);
        return map_registers!(wave, instr.dst, mask, [a, b, c], f);
    }
    let a = src_a(wave, instr);
    let b = src_b(wave, instr);
    let c = src_c(wave, instr);
    write_masked(wave, instr.dst, mask, |l| f(a[l], b[l], c[l]));
}

#[inline(always)]
pub fn map4(wave: &mut Wave, instr: &Instr, mask: u64, f: impl Fn(u32, u32, u32, u32) -> u32) {
    let a = src_a(wave, instr);
    let b = src_b(wave, instr);
    let c = src_c(wave, instr);
    let d = src_d(wave, instr);
    write_masked(wave, instr.dst, mask, |l| f(a[l], b[l], c[l], d[l]));
}

/// Sets predicate `p` to `test(lane)` on the lanes in `mask`, leaving the others unchanged.
#[inline(always)]
pub fn set_predicate(wave: &mut Wave, p: u8, mask: u64, test: impl Fn(usize) -> bool) {
    let mut bits = 0u64;
    for lane in 0..wave.width as usize {
        bits |= (test(lane) as u64) << lane;
    }
    let slot = &mut wave.predicates[p as usize & 3];
    *slot = (*slot & !mask) | (bits & mask);
}

#[inline(always)]
pub fn compare(wave: &mut Wave, instr: &Instr, mask: u64, f: impl Fn(u32, u32) -> bool) {
    let a = src_a(wave, instr);
    let b = src_b(wave, instr);
    set_predicate(wave, instr.dst, mask, |l| f(a[l], b[l]));
}

/// A register pair (`r`, `r + 1`) of one lane as a u64, low word first.
#[inline(always)]
pub fn pair(wave: &Wave, r: u8, lane: usize) -> u64 {
    let lo = wave.register(r, lane as u32) as u64;
    let hi = wave.register(r.wrapping_add(1), lane as u32) as u64;
    lo | hi << 32
}

#[inline(always)]
pub fn set_pair(wave: &mut Wave, r: u8, lane: usize, value: u64) {
    wave.set_register(r, lane as u32, value as u32);
    wave.set_register(r.wrapping_add(1), lane as u32, (value >> 32) as u32);
}

/// Iterates the set bits of a mask, lowest first.
#[inline(always)]
pub fn each_lane(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let lane = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        Some(lane)
    })
}
