//! The fast path of a 32-, 64- or 128-bit load (`WORDS` = 1, 2 or 4) that every lane of the wave
//! performs: the values go straight into the destination rows, eight lanes at a time.
//!
//! Each block of eight lanes is classified by its addresses first, because two patterns dominate
//! real kernels: all lanes at one address (a value every thread needs: one read, broadcast) and
//! lanes at consecutive elements (coalesced: one contiguous read, dealt out to the rows). Anything
//! else is gathered lane by lane (with AVX2 gathers in the AVX2 loop).
//!
//! Bounds are checked per block, as the pattern allows: a uniform block checks its one access, a
//! consecutive block its one range, any other block all eight addresses. A block that does not
//! fit is left alone and its first lane handed back: the caller's checked loop goes on from there
//! and finds the faulting lane. (A separate pass over the whole address row first cost a sixth of
//! the naive GEMM's time.)
//!
//! The destination rows may include the address register (`load_u64 r4, r5`). That is safe here
//! because a block's addresses are read before any of its lanes is written, and a block writes
//! only its own lanes.

use super::cpu::Avx2Fma;
use super::memory::bytes_at;
use super::wave::{Row, Wave};

/// Loads every lane `0..wave.width` of register `address_register`'s addresses into registers
/// `dst .. dst + WORDS`, low word first, in blocks in lane order. `None` when every lane is loaded;
/// `Some(first)` when the lanes below `first` are loaded and nothing from `first` on is written
/// (an access from `first` on may be out of bounds).
///
/// With `avx2` (x86-64 CPUs with AVX2) the blocks go through AVX2 code.
///
/// # Safety
/// `address_register < wave.registers.len()`, `dst + WORDS <= wave.registers.len()` and
/// `wave.width <= 64` (the AVX2 path reads and writes the rows through raw pointers).
#[inline(always)]
pub(super) unsafe fn load<const WORDS: usize>(
    wave: &mut Wave,
    address_register: usize,
    dst: usize,
    bytes: &[u8],
    avx2: Option<Avx2Fma>,
) -> Option<usize> {
    let width = wave.width as usize;
    debug_assert!(address_register < wave.registers.len());
    debug_assert!(dst + WORDS <= wave.registers.len() && width <= super::wave::MAX_LANES);
    if bytes.len() < 4 * WORDS {
        // No access fits: the checked loop reports lane 0.
        return Some(0);
    }
    #[cfg(target_arch = "x86_64")]
    if avx2.is_some() && bytes.len() <= i32::MAX as usize {
        // SAFETY: an `Avx2Fma` exists only on CPUs with AVX2 (`Avx2Fma::detect`); both register
        // ranges lie inside the register file and `width <= 64` (this function's contract);
        // `4 * WORDS <= bytes.len()` (checked just above) and `bytes` is below 2 GiB (so gather
        // offsets taken as signed are right).
        return unsafe {
            load_avx2::<WORDS>(&mut wave.registers, width, address_register, dst, bytes)
        };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = avx2;
    load_portable::<WORDS>(&mut wave.registers, width, address_register, dst, bytes)
}

/// [`load`] through the AVX2 blocks on each wave of a workgroup in lockstep, in wave order, each
/// wave's pc moved on before its lanes are loaded: what does not change from wave to wave (the
/// memory's size, the operands, the CPU) is settled once for all of them, and the wave loop runs
/// inside the AVX2 code. `None` when every wave is loaded; `Some((member, first))` when wave
/// `member` stopped at lane `first` as [`load`] stops: the waves before it are loaded, its lanes
/// below `first` too, and neither its pc nor anything after it has moved.
///
/// # Safety
/// For every wave, [`load`]'s contract: `address_register` and `dst + WORDS` inside its register
/// file, at most 64 lanes, and every lane of its width active.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) unsafe fn load_waves<const WORDS: usize>(
    waves: &mut [Wave],
    address_register: usize,
    dst: usize,
    bytes: &[u8],
    avx2: Avx2Fma,
) -> Option<(usize, usize)> {
    let _ = avx2;
    if bytes.len() < 4 * WORDS || bytes.len() > i32::MAX as usize {
        // As [`load`]: the checked loop takes the first wave from lane 0.
        return Some((0, 0));
    }
    // SAFETY: an `Avx2Fma` exists only on CPUs with AVX2; the rest is this function's contract.
    unsafe { load_waves_avx2::<WORDS>(waves, address_register, dst, bytes) }
}

/// [`load_waves`]' wave loop, compiled for AVX2 so that [`load_avx2`] is inlined into it.
///
/// # Safety
/// As for [`load_waves`], the CPU has AVX2 and `4 * WORDS <= bytes.len() <= i32::MAX`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline(never)]
unsafe fn load_waves_avx2<const WORDS: usize>(
    waves: &mut [Wave],
    address_register: usize,
    dst: usize,
    bytes: &[u8],
) -> Option<(usize, usize)> {
    for (member, wave) in waves.iter_mut().enumerate() {
        let width = wave.width as usize;
        // SAFETY: this function's contract is `load_avx2`'s for each wave.
        let stopped =
            unsafe { load_avx2::<WORDS>(&mut wave.registers, width, address_register, dst, bytes) };
        if let Some(first) = stopped {
            return Some((member, first));
        }
        wave.pc += 1;
    }
    None
}

/// One lane's `WORDS` words at `address` into `rows[word][lane]`; `false`, writing nothing, when
/// the access runs past the memory.
#[inline(always)]
fn load_lane<const WORDS: usize>(
    bytes: &[u8],
    address: u32,
    registers: &mut [Row],
    dst: usize,
    lane: usize,
) -> bool {
    let Some(chunk) = bytes_at(bytes, address, 4 * WORDS) else {
        return false;
    };
    for (word, value) in chunk.chunks_exact(4).enumerate() {
        registers[dst + word][lane] = u32::from_le_bytes([value[0], value[1], value[2], value[3]]);
    }
    true
}

/// The portable path (wasm, or a machine told to use its portable loop).
#[inline(always)]
fn load_portable<const WORDS: usize>(
    registers: &mut [Row],
    width: usize,
    address_register: usize,
    dst: usize,
    bytes: &[u8],
) -> Option<usize> {
    let blocks = width / 8 * 8;
    for first in (0..blocks).step_by(8) {
        let Ok(&block) = <&[u32; 8]>::try_from(&registers[address_register][first..first + 8])
        else {
            unreachable!("a block is eight lanes")
        };
        if !load_block_by_pattern::<WORDS>(bytes, &block, registers, dst, first) {
            // Lane by lane, in order: a lane out of bounds stops the block there.
            for (lane, &address) in block.iter().enumerate() {
                if !load_lane::<WORDS>(bytes, address, registers, dst, first + lane) {
                    return Some(first + lane);
                }
            }
        }
    }
    for lane in blocks..width {
        let address = registers[address_register][lane];
        if !load_lane::<WORDS>(bytes, address, registers, dst, lane) {
            return Some(lane);
        }
    }
    None
}

/// Loads the eight lanes from `first` when their addresses `block` are uniform or consecutive;
/// returns `false`, loading nothing, for any other pattern.
#[inline(always)]
fn load_block_by_pattern<const WORDS: usize>(
    bytes: &[u8],
    block: &[u32; 8],
    registers: &mut [Row],
    dst: usize,
    first: usize,
) -> bool {
    let base = block[0];
    let (uniform, consecutive) = block_pattern::<WORDS>(block);
    if uniform {
        let Some(chunk) = bytes_at(bytes, base, 4 * WORDS) else {
            return false;
        };
        for (word, value) in chunk.chunks_exact(4).enumerate() {
            let value = u32::from_le_bytes([value[0], value[1], value[2], value[3]]);
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            {
                // Two four-lane stores of the value: LLVM stored the array below lane by lane.
                let splat = core::arch::wasm32::u32x4_splat(value);
                store_four_lanes(&[splat], registers, dst + word, first);
                store_four_lanes(&[splat], registers, dst + word, first + 4);
            }
            // A whole array, not `fill`: one vector store instead of eight scalar ones on x86-64.
            #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
            registers[dst + word][first..first + 8].copy_from_slice(&[value; 8]);
        }
        true
    } else if consecutive {
        // A wrapped address would make the range run past the memory: `bytes_at` declines it.
        let Some(chunk) = bytes_at(bytes, base, 32 * WORDS) else {
            return false;
        };
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        if WORDS == 4 {
            deal_quads_simd128(chunk, registers, dst, first);
            return true;
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        if WORDS == 2 {
            deal_pairs_simd128(chunk, registers, dst, first);
            return true;
        }
        for lane in 0..8 {
            for word in 0..WORDS {
                let at = (lane * WORDS + word) * 4;
                registers[dst + word][first + lane] =
                    u32::from_le_bytes([chunk[at], chunk[at + 1], chunk[at + 2], chunk[at + 3]]);
            }
        }
        true
    } else {
        false
    }
}

/// Whether a block's eight addresses are all `block[0]`, and whether they are consecutive
/// `4 * WORDS`-byte elements from `block[0]` (wrapping).
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
fn block_pattern<const WORDS: usize>(block: &[u32; 8]) -> (bool, bool) {
    let (base, stride) = (block[0], 4 * WORDS as u32);
    // Folds without short-circuit, so each test is one vectorisable pass.
    let uniform = block
        .iter()
        .fold(true, |all, &address| all & (address == base));
    let consecutive = (0..8).fold(true, |all, lane| {
        all & (block[lane] == base.wrapping_add(lane as u32 * stride))
    });
    (uniform, consecutive)
}

/// [`block_pattern`] in wasm's 128-bit SIMD: two compares per test on the block's two halves (LLVM
/// leaves the folds above as eight scalar compares each), joined and read with one `bitmask`
/// (V8 compiles `all_true` as four x86 instructions, `bitmask` as one).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn block_pattern<const WORDS: usize>(block: &[u32; 8]) -> (bool, bool) {
    use core::arch::wasm32::*;
    let stride = 4 * WORDS as u32;
    // SAFETY: `block` is eight u32, two 16-byte halves; wasm loads need no alignment.
    let (low, high) = unsafe {
        (
            v128_load(block.as_ptr().cast()),
            v128_load(block.as_ptr().add(4).cast()),
        )
    };
    let base = u32x4_splat(block[0]);
    let both_halves = |low_expected: v128, high_expected: v128| {
        let equal = v128_and(i32x4_eq(low, low_expected), i32x4_eq(high, high_expected));
        i32x4_bitmask(equal) == 0b1111
    };
    let uniform = both_halves(base, base);
    let first_four = u32x4_add(base, u32x4(0, stride, 2 * stride, 3 * stride));
    let next_four = u32x4_add(first_four, u32x4_splat(4 * stride));
    let consecutive = both_halves(first_four, next_four);
    (uniform, consecutive)
}

/// The `index`-th 16 bytes of `chunk` as one vector.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn sixteen_bytes(chunk: &[u8], index: usize) -> core::arch::wasm32::v128 {
    let bytes = &chunk[index * 16..][..16];
    // SAFETY: `bytes` is 16 bytes long; wasm loads need no alignment.
    unsafe { core::arch::wasm32::v128_load(bytes.as_ptr().cast()) }
}

/// Word `w` of four lanes from `at` (`words[w]`) into register `dst + w`.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn store_four_lanes(
    words: &[core::arch::wasm32::v128],
    registers: &mut [Row],
    dst: usize,
    at: usize,
) {
    for (word, &value) in words.iter().enumerate() {
        let lanes = &mut registers[dst + word][at..at + 4];
        // SAFETY: `lanes` is four u32, 16 bytes; wasm stores need no alignment.
        unsafe { core::arch::wasm32::v128_store(lanes.as_mut_ptr().cast(), value) };
    }
}

/// Eight lanes' consecutive 16-byte values (`chunk`, 128 bytes) dealt out to registers
/// `dst .. dst + 4` at lanes `first ..`, with wasm's 128-bit SIMD: per four lanes, four loads, a
/// 4 x 4 transpose in eight shuffles and four stores, where the portable loop moves word by word
/// (the register-blocked GEMM's rows of B come this way).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn deal_quads_simd128(chunk: &[u8], registers: &mut [Row], dst: usize, first: usize) {
    use core::arch::wasm32::*;
    for group in 0..2 {
        let [l0, l1, l2, l3] = [0, 1, 2, 3].map(|l| sixteen_bytes(chunk, 4 * group + l));
        // Words 0 and 1, then 2 and 3, of lanes 0 and 1, and of lanes 2 and 3.
        let low01 = i32x4_shuffle::<0, 4, 1, 5>(l0, l1);
        let high01 = i32x4_shuffle::<2, 6, 3, 7>(l0, l1);
        let low23 = i32x4_shuffle::<0, 4, 1, 5>(l2, l3);
        let high23 = i32x4_shuffle::<2, 6, 3, 7>(l2, l3);
        let words = [
            u64x2_shuffle::<0, 2>(low01, low23),
            u64x2_shuffle::<1, 3>(low01, low23),
            u64x2_shuffle::<0, 2>(high01, high23),
            u64x2_shuffle::<1, 3>(high01, high23),
        ];
        store_four_lanes(&words, registers, dst, first + 4 * group);
    }
}

/// Eight lanes' consecutive 8-byte values (`chunk`, 64 bytes) dealt out to registers `dst` and
/// `dst + 1` at lanes `first ..`, with wasm's 128-bit SIMD: per four lanes, two loads split into
/// even words (word 0) and odd words (word 1), where the portable loop moves word by word (a
/// tiled GEMM's u64 reads of local memory come this way).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn deal_pairs_simd128(chunk: &[u8], registers: &mut [Row], dst: usize, first: usize) {
    use core::arch::wasm32::*;
    for group in 0..2 {
        let (low, high) = (
            sixteen_bytes(chunk, 2 * group),
            sixteen_bytes(chunk, 2 * group + 1),
        );
        let words = [
            i32x4_shuffle::<0, 2, 4, 6>(low, high),
            i32x4_shuffle::<1, 3, 5, 7>(low, high),
        ];
        store_four_lanes(&words, registers, dst, first + 4 * group);
    }
}

/// The AVX2 path: each block's addresses in one vector register, classified with two compares;
/// broadcasts, contiguous reads with shuffles (two words: even/odd split; four words: a 4 x 8
/// transpose) or gathers.
///
/// Returns what [`load`] returns.
///
/// # Safety
/// The CPU has AVX2; `address_register < registers.len()`, `dst + WORDS <= registers.len()`;
/// `width <= 64`; `4 * WORDS <= bytes.len() <= i32::MAX`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn load_avx2<const WORDS: usize>(
    registers: &mut [Row],
    width: usize,
    address_register: usize,
    dst: usize,
    bytes: &[u8],
) -> Option<usize> {
    use std::arch::x86_64::*;
    let stride = 4 * WORDS as i32;
    // The highest address at which an access fits (the caller made sure one fits at 0).
    let limit = (bytes.len() - 4 * WORDS) as u32;
    let limit_everywhere = _mm256_set1_epi32(limit as i32);
    let steps = _mm256_setr_epi32(
        0,
        stride,
        2 * stride,
        3 * stride,
        4 * stride,
        5 * stride,
        6 * stride,
        7 * stride,
    );
    // Raw pointers: the address row may be one of the destination rows (see the module doc).
    let rows = registers.as_mut_ptr();
    // The blocks below rest on this function's contract: rows `address_register` and
    // `dst .. dst + WORDS` exist, lanes `first .. first + 8 <= width <= 64` lie inside a row; and
    // every memory read is checked right before it: a uniform block checks lane `first`'s own
    // access, a consecutive block its whole range, a gathered block every lane's access, a lane of
    // the tail its own access. Stores go to the destination rows only.
    // SAFETY: row `address_register` exists (contract).
    let addresses = unsafe { rows.add(address_register) as *const u32 };
    // SAFETY: the callers pass `word < WORDS`, and rows `dst .. dst + WORDS` exist (contract).
    let row = |word: usize| unsafe { rows.add(dst + word) as *mut u32 };
    let memory = bytes.as_ptr();
    let blocks = width / 8 * 8;
    for first in (0..blocks).step_by(8) {
        // SAFETY: lanes `first .. first + 8` lie inside the address row (`first + 8 <= width`).
        let lanes = unsafe { _mm256_loadu_si256(addresses.add(first) as *const __m256i) };
        let base = _mm256_cvtsi256_si32(lanes) as u32;
        let base_everywhere = _mm256_set1_epi32(base as i32);
        let all = |test: __m256i| _mm256_movemask_epi8(test) == -1;
        if all(_mm256_cmpeq_epi32(lanes, base_everywhere)) {
            if base > limit {
                return Some(first);
            }
            for word in 0..WORDS {
                // SAFETY: `base <= limit`, so the access's `4 * WORDS` bytes lie in `bytes`.
                let value = unsafe {
                    (memory.add(base as usize + 4 * word) as *const u32).read_unaligned()
                };
                let value = _mm256_set1_epi32(value as i32);
                // SAFETY: lanes `first .. first + 8` of a destination row.
                unsafe { _mm256_storeu_si256(row(word).add(first) as *mut __m256i, value) };
            }
            continue;
        }
        let consecutive = all(_mm256_cmpeq_epi32(
            lanes,
            _mm256_add_epi32(base_everywhere, steps),
        ));
        // A block whose addresses wrap around 2^32 is "consecutive" too; its range does not fit
        // and it goes on to the gather's check.
        if consecutive && base as usize + 32 * WORDS <= bytes.len() {
            // SAFETY: `base + 32 * WORDS <= bytes.len()` (the test above), and `read` takes only
            // `i < WORDS` (32 bytes each).
            let source = unsafe { memory.add(base as usize) as *const __m256i };
            // SAFETY: as above.
            let read = |i: usize| unsafe { _mm256_loadu_si256(source.add(i)) };
            // SAFETY: lanes `first .. first + 8` of destination row `word < WORDS`.
            let store = |word: usize, value: __m256i| unsafe {
                _mm256_storeu_si256(row(word).add(first) as *mut __m256i, value)
            };
            match WORDS {
                1 => store(0, read(0)),
                2 => {
                    // [l0w0 l0w1 l1w0 l1w1 ...]: even words are word 0, odd words word 1.
                    let (low, high) = (_mm256_castsi256_ps(read(0)), _mm256_castsi256_ps(read(1)));
                    let in_order = |v: __m256| {
                        _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_castps_si256(v))
                    };
                    store(0, in_order(_mm256_shuffle_ps::<0b10_00_10_00>(low, high)));
                    store(1, in_order(_mm256_shuffle_ps::<0b11_01_11_01>(low, high)));
                }
                _ => {
                    // Two lanes of four words per read: transpose 8 x 4 into four rows.
                    let (v0, v1, v2, v3) = (read(0), read(1), read(2), read(3));
                    let (t0, t1) = (_mm256_unpacklo_epi32(v0, v1), _mm256_unpackhi_epi32(v0, v1));
                    let (t2, t3) = (_mm256_unpacklo_epi32(v2, v3), _mm256_unpackhi_epi32(v2, v3));
                    // Each result holds lanes 0 2 4 6 | 1 3 5 7 of one word.
                    let order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
                    let in_order = |v: __m256i| _mm256_permutevar8x32_epi32(v, order);
                    store(0, in_order(_mm256_unpacklo_epi64(t0, t2)));
                    store(1, in_order(_mm256_unpackhi_epi64(t0, t2)));
                    store(2, in_order(_mm256_unpacklo_epi64(t1, t3)));
                    store(3, in_order(_mm256_unpackhi_epi64(t1, t3)));
                }
            }
            continue;
        }
        // Every lane at most `limit`: the unsigned maximum with it is `limit` everywhere.
        if !all(_mm256_cmpeq_epi32(
            _mm256_max_epu32(lanes, limit_everywhere),
            limit_everywhere,
        )) {
            return Some(first);
        }
        for word in 0..WORDS {
            // SAFETY: `4 * word < 4 * WORDS <= bytes.len()` (the function's contract).
            let words = unsafe { memory.add(4 * word) as *const i32 };
            // SAFETY: every lane's address is at most `limit` (the test above), so each gathered
            // word lies in `bytes`; addresses are below 2 GiB, so read as signed offsets they
            // are the same.
            let values = unsafe { _mm256_i32gather_epi32::<1>(words, lanes) };
            // SAFETY: lanes `first .. first + 8` of a destination row.
            unsafe { _mm256_storeu_si256(row(word).add(first) as *mut __m256i, values) };
        }
    }
    for lane in blocks..width {
        // SAFETY: `lane < width <= 64` lies inside the address row.
        let address = unsafe { *addresses.add(lane) };
        if address > limit {
            return Some(lane);
        }
        let address = address as usize;
        for word in 0..WORDS {
            // SAFETY: `address <= limit` (the test above): the access lies in `bytes`.
            let value = unsafe { (memory.add(address + 4 * word) as *const u32).read_unaligned() };
            // SAFETY: `lane < width <= 64` of a destination row.
            unsafe { *row(word).add(lane) = value };
        }
    }
    None
}
