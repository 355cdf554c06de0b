//! Loads, stores and atomics, lane by lane in lane order (so atomics are deterministic).

use super::cpu::Avx2Fma;
use super::full_wave_load;
use super::lanes::{each_lane, src_a, src_b, src_c, store_row, Row, MAX_LANES};
use super::memory::{bytes_at, Memory, OutOfBounds};
use super::trap::{MemorySpace, TrapKind};
use super::wave::lanes_mask;
use super::wave::Wave;
use crate::instr::{flags, Instr, Op};

/// A fault in one lane.
pub(super) struct LaneFault {
    pub kind: TrapKind,
    pub lane: u32,
}

fn fault(space: MemorySpace, lane: usize, oob: OutOfBounds) -> LaneFault {
    LaneFault {
        kind: TrapKind::MemoryOutOfBounds {
            space,
            address: oob.address,
            width: oob.width,
        },
        lane: lane as u32,
    }
}

/// Bytes moved by a load or store op, and how many registers that spans.
pub(super) fn access_width(op: Op) -> u32 {
    use Op::*;
    match op {
        LocalLoadU8 | LocalStoreU8 | DeviceLoadU8 | DeviceStoreU8 => 1,
        LocalLoadU16 | LocalStoreU16 | DeviceLoadU16 | DeviceStoreU16 => 2,
        LocalLoadU64 | LocalStoreU64 | DeviceLoadU64 | DeviceStoreU64 => 8,
        DeviceLoadU128 | DeviceStoreU128 => 16,
        _ => 4,
    }
}

pub(super) fn load(
    wave: &mut Wave,
    instr: &Instr,
    mask: u64,
    memory: &Memory,
    space: MemorySpace,
) -> Result<(), LaneFault> {
    let width = access_width(instr.op);
    let addresses = src_a(wave, instr);
    for lane in each_lane(mask) {
        let address = addresses[lane];
        let lane_u32 = lane as u32;
        match width {
            1 => {
                let [b] = memory
                    .read::<1>(address)
                    .map_err(|e| fault(space, lane, e))?;
                wave.set_register(instr.dst, lane_u32, b as u32);
            }
            2 => {
                let bytes = memory
                    .read::<2>(address)
                    .map_err(|e| fault(space, lane, e))?;
                wave.set_register(instr.dst, lane_u32, u16::from_le_bytes(bytes) as u32);
            }
            4 => {
                let value = memory
                    .read_u32(address)
                    .map_err(|e| fault(space, lane, e))?;
                wave.set_register(instr.dst, lane_u32, value);
            }
            _ => {
                // u64 / u128: consecutive registers, low word first. The whole access is checked
                // first, so a fault leaves no register half-written.
                let start = address as usize;
                let words = match memory
                    .bytes()
                    .get(start..start.wrapping_add(width as usize))
                {
                    Some(words) if start <= usize::MAX - 16 => words,
                    _ => return Err(fault(space, lane, OutOfBounds { address, width })),
                };
                for (index, word) in words.chunks_exact(4).enumerate() {
                    let value = u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
                    wave.set_register(instr.dst.wrapping_add(index as u8), lane_u32, value);
                }
            }
        }
    }
    Ok(())
}

/// Whether every lane's access of `width` bytes fits in `len` bytes of memory: every address at
/// most `len - width`. The test ors each address's excess over that limit (a saturating
/// subtraction) over the first 32 (or 64) lanes — a constant count, no horizontal reduction, so it
/// compiles to a few independent vector instructions. Lanes beyond the wave's width may hold
/// stale values; they can only make this answer `false`, which sends the access down the checked
/// path.
#[inline(always)]
fn all_lanes_fit(wave: &Wave, addresses: &Row, width: u32, len: usize) -> bool {
    let Some(limit) = (len as u64).checked_sub(width as u64) else {
        return false;
    };
    // Every u32 address is at most u32::MAX, so a larger limit means "anything fits".
    let limit = limit.min(u32::MAX as u64) as u32;
    #[inline(always)]
    fn excess<const N: usize>(addresses: &[u32], limit: u32) -> u32 {
        addresses[..N]
            .iter()
            .fold(0, |over, &address| over | address.saturating_sub(limit))
    }
    let over = if wave.width <= 32 {
        excess::<32>(&addresses[..], limit)
    } else {
        excess::<MAX_LANES>(&addresses[..], limit)
    };
    over == 0
}

/// The lanes of `mask` below `lane`: those a load wrote before `lane` faulted (loads go lane by
/// lane, like the reference emulator's).
#[inline(always)]
pub(super) fn lanes_before(mask: u64, lane: usize) -> u64 {
    mask & ((1u64 << lane) - 1)
}

/// A 32-, 64- or 128-bit load (`WORDS` = 1, 2 or 4) into consecutive registers, low word first,
/// lane by lane: each lane's whole access is checked before any of its words is written, a fault
/// names the first lane out of bounds, and the lanes before it keep what they loaded. When every
/// lane is active the wave goes through `full_wave_load` first, which checks whole blocks of
/// lanes at a time and hands back the first lane it could not vouch for; the checked loop below
/// goes on from there. Destination registers past the register file take the general path.
///
/// # Safety
/// `instr.a < wave.registers.len()` and `wave.width <= 64`: the full-wave path reads the address
/// row through a raw pointer. (The destination range is checked here.)
#[inline(always)]
pub(super) unsafe fn load_words<const WORDS: usize>(
    wave: &mut Wave,
    instr: &Instr,
    mask: u64,
    memory: &Memory,
    space: MemorySpace,
    avx2: Option<Avx2Fma>,
) -> Result<(), LaneFault> {
    if instr.dst as usize + WORDS > wave.registers.len() {
        return load(wave, instr, mask, memory, space);
    }
    let bytes = memory.bytes();
    let mut todo = mask;
    if mask == lanes_mask(wave.width) {
        let (address_register, dst) = (instr.a as usize, instr.dst as usize);
        // SAFETY: `dst + WORDS` is inside the register file (checked at the top); the address
        // register and the width are this function's contract.
        match unsafe { full_wave_load::load::<WORDS>(wave, address_register, dst, bytes, avx2) } {
            None => return Ok(()),
            // The lanes below `first` are loaded; they only wrote their own lanes, so the
            // addresses from `first` on are still the ones the instruction read.
            Some(first) => todo &= !lanes_before(mask, first),
        }
    }
    load_lanes::<WORDS>(wave, instr, todo, bytes, space)
}

/// [`load_words`]'s checked loop on lanes `todo`, in lane order: what the full-wave path left, or
/// every lane of a wave it did not take.
///
/// The destination registers `instr.dst .. instr.dst + WORDS` lie inside the register file.
#[inline(always)]
pub(super) fn load_lanes<const WORDS: usize>(
    wave: &mut Wave,
    instr: &Instr,
    todo: u64,
    bytes: &[u8],
    space: MemorySpace,
) -> Result<(), LaneFault> {
    let addresses = &wave.registers[instr.a as usize];
    let mut rows = [Row::splat(0); WORDS];
    let (mut written, mut result) = (todo, Ok(()));
    for lane in each_lane(todo) {
        let address = addresses[lane];
        let Some(chunk) = bytes_at(bytes, address, 4 * WORDS) else {
            written = lanes_before(todo, lane);
            let width = 4 * WORDS as u32;
            result = Err(fault(space, lane, OutOfBounds { address, width }));
            break;
        };
        for (row, word) in rows.iter_mut().zip(chunk.chunks_exact(4)) {
            row[lane] = u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
        }
    }
    for (offset, row) in rows.iter().enumerate() {
        store_row(wave, instr.dst + offset as u8, written, row);
    }
    result
}

pub(super) fn store(
    wave: &Wave,
    instr: &Instr,
    mask: u64,
    memory: &mut Memory,
    space: MemorySpace,
) -> Result<(), LaneFault> {
    let width = access_width(instr.op);
    let registers_only = instr.flags & (flags::A_IMM | flags::B_IMM) == 0;
    let stored_at_once = registers_only
        && match width {
            8 => store_words_full_wave::<2>(wave, instr, mask, memory),
            16 => store_words_full_wave::<4>(wave, instr, mask, memory),
            _ => false,
        };
    if stored_at_once {
        return Ok(());
    }
    let addresses = src_a(wave, instr);
    let values = src_b(wave, instr);
    for lane in each_lane(mask) {
        let address = addresses[lane];
        let value = values[lane];
        let result = match width {
            1 => memory.write(address, [value as u8]),
            2 => memory.write(address, (value as u16).to_le_bytes()),
            4 => memory.write_u32(address, value),
            _ => {
                let words = width / 4;
                if address
                    .checked_add(width)
                    .is_none_or(|end| end as usize > memory.len())
                {
                    Err(OutOfBounds { address, width })
                } else {
                    for word in 0..words {
                        let value = wave.register(instr.b.wrapping_add(word as u8), lane as u32);
                        memory
                            .write_u32(address + word * 4, value)
                            .map_err(|e| fault(space, lane, e))?;
                    }
                    Ok(())
                }
            }
        };
        result.map_err(|e| fault(space, lane, e))?;
    }
    Ok(())
}

/// A u64 or u128 store (`WORDS` = 2 or 4) of a full wave whose accesses all fit: each lane's
/// words written in lane order (the order of the checked path, so overlapping lanes end the
/// same), with one bound check for the wave instead of one per lane. Returns `false`, writing
/// nothing, for anything else (a partial mask, a possible fault, registers past the file), which
/// the checked path then handles.
#[inline(always)]
pub(super) fn store_words_full_wave<const WORDS: usize>(
    wave: &Wave,
    instr: &Instr,
    mask: u64,
    memory: &mut Memory,
) -> bool {
    if mask != lanes_mask(wave.width) || instr.b as usize + WORDS > wave.registers.len() {
        return false;
    }
    let addresses = &wave.registers[instr.a as usize];
    let (bytes, mut pages) = memory.bytes_and_pages_mut();
    if !all_lanes_fit(wave, addresses, 4 * WORDS as u32, bytes.len()) {
        return false;
    }
    let values: [&Row; WORDS] =
        std::array::from_fn(|word| &wave.registers[instr.b as usize + word]);
    for (lane, &address) in addresses[..wave.width as usize].iter().enumerate() {
        let start = address as usize;
        // SAFETY: every lane's `start + 4 * WORDS <= bytes.len()` (`all_lanes_fit` above).
        let slot = unsafe { bytes.get_unchecked_mut(start..start + 4 * WORDS) };
        pages.mark(start, start + 4 * WORDS);
        for (word, chunk) in slot.chunks_exact_mut(4).enumerate() {
            chunk.copy_from_slice(&values[word][lane].to_le_bytes());
        }
    }
    true
}

/// The common case, a u32 scatter in lane order.
#[cfg_attr(target_arch = "x86_64", inline(always))]
#[cfg_attr(not(target_arch = "x86_64"), inline(never))]
pub(super) fn store_u32(
    wave: &Wave,
    instr: &Instr,
    mask: u64,
    memory: &mut Memory,
    space: MemorySpace,
) -> Result<(), LaneFault> {
    let (addresses, values) = (wave.row(instr.a), wave.row(instr.b));
    let (bytes, mut pages) = memory.bytes_and_pages_mut();
    for lane in each_lane(mask) {
        let (address, value) = (addresses[lane], values[lane]);
        let start = address as usize;
        match bytes.get_mut(start..start.wrapping_add(4)) {
            Some(slot) if start <= usize::MAX - 4 => {
                slot.copy_from_slice(&value.to_le_bytes());
                pages.mark(start, start + 4);
            }
            _ => return Err(fault(space, lane, OutOfBounds { address, width: 4 })),
        }
    }
    Ok(())
}

/// The new memory value of an atomic read-modify-write. Min and max are unsigned (as wave-emu);
/// compare-and-swap really compares and swaps (wave-emu runs it as an add:
/// docs/spec-departures.md, "atomic CAS").
#[inline]
fn atomic_update(op: Op, old: u32, value: u32, desired: u32) -> u32 {
    use crate::numeric::{bitwise, int};
    use Op::*;
    match op {
        LocalAtomicAdd | AtomicAdd => int::iadd(old, value),
        LocalAtomicSub | AtomicSub => int::isub(old, value),
        LocalAtomicMin | AtomicMin => int::umin(old, value),
        LocalAtomicMax | AtomicMax => int::umax(old, value),
        LocalAtomicAnd | AtomicAnd => bitwise::and(old, value),
        LocalAtomicOr | AtomicOr => bitwise::or(old, value),
        LocalAtomicXor | AtomicXor => bitwise::xor(old, value),
        LocalAtomicExchange | AtomicExchange => value,
        LocalAtomicCas | AtomicCas => {
            if old == value {
                desired
            } else {
                old
            }
        }
        _ => old,
    }
}

pub(super) fn atomic(
    wave: &mut Wave,
    instr: &Instr,
    mask: u64,
    memory: &mut Memory,
    space: MemorySpace,
) -> Result<(), LaneFault> {
    let addresses = src_a(wave, instr);
    let values = src_b(wave, instr);
    let desired = src_c(wave, instr);
    let writes_old = instr.flags & flags::NO_DST == 0;
    for lane in each_lane(mask) {
        let address = addresses[lane];
        let old = memory
            .read_u32(address)
            .map_err(|e| fault(space, lane, e))?;
        let new = atomic_update(instr.op, old, values[lane], desired[lane]);
        memory
            .write_u32(address, new)
            .map_err(|e| fault(space, lane, e))?;
        if writes_old {
            wave.set_register(instr.dst, lane as u32, old);
        }
    }
    Ok(())
}

// proptest is a native-only dev-dependency.
#[cfg(all(test, not(target_arch = "wasm32")))]
#[path = "load_words_tests.rs"]
mod load_words_tests;
