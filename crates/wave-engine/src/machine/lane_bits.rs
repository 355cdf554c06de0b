//! Per-lane flags to a lane mask. A compare computes one flag word per lane (all ones or zero: a
//! loop the compiler turns into vector compares) and then needs bit `lane` of a u64 set for each
//! true flag. Written as `bits |= flag << lane`, that packing compiles to a long chain of 64-bit
//! shifts and ors — it was a tenth of the naive GEMM's time. On x86-64 it is done with the SSE2
//! pack-and-movemask instructions that every x86-64 CPU has: 32 lanes in about a dozen
//! instructions; on wasm with SIMD with its narrowing packs and `i8x16.bitmask`, the same way (the
//! shifts and ors there came to about a hundred machine instructions per 32 lanes in V8).

/// Bit `lane` set for every lane whose flag is nonzero. Each flag must be all ones or zero.
#[inline(always)]
pub(super) fn pack<const N: usize>(flags: &[u32; N]) -> u64 {
    debug_assert!(flags.iter().all(|&flag| flag == 0 || flag == u32::MAX));
    #[cfg(any(
        target_arch = "x86_64",
        all(target_arch = "wasm32", target_feature = "simd128")
    ))]
    {
        let mut bits = 0u64;
        for (chunk, sixteen) in flags.chunks_exact(16).enumerate() {
            bits |= (pack16(sixteen) as u64) << (16 * chunk);
        }
        bits
    }
    #[cfg(not(any(
        target_arch = "x86_64",
        all(target_arch = "wasm32", target_feature = "simd128")
    )))]
    {
        let mut bits = 0u64;
        for (lane, &flag) in flags.iter().enumerate() {
            bits |= ((flag & 1) as u64) << lane;
        }
        bits
    }
}

/// Sixteen flags to sixteen bits: signed saturation packs each all-ones word to an all-ones
/// byte, and `movemask` collects the bytes' top bits.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn pack16(flags: &[u32]) -> u16 {
    use std::arch::x86_64::*;
    assert!(flags.len() == 16);
    let quarter = |i: usize| {
        // SAFETY: `flags` holds 16 words, so words 4i..4i+4 (i < 4) are in bounds; an unaligned
        // load has no alignment requirement.
        unsafe { _mm_loadu_si128(flags.as_ptr().add(4 * i) as *const __m128i) }
    };
    // SAFETY: SSE2, the only feature these need, is part of the x86-64 baseline.
    unsafe {
        let low = _mm_packs_epi32(quarter(0), quarter(1));
        let high = _mm_packs_epi32(quarter(2), quarter(3));
        _mm_movemask_epi8(_mm_packs_epi16(low, high)) as u16
    }
}

/// [`pack16`] in wasm's 128-bit SIMD: signed saturating narrows take each all-ones word to an
/// all-ones byte, and `i8x16.bitmask` collects the bytes' top bits.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn pack16(flags: &[u32]) -> u16 {
    use core::arch::wasm32::*;
    assert!(flags.len() == 16);
    // SAFETY: `flags` holds 16 words, so words 4i..4i+4 (i < 4) are in bounds; wasm loads need no
    // alignment.
    let quarter = |i: usize| unsafe { v128_load(flags.as_ptr().add(4 * i).cast()) };
    let low = i16x8_narrow_i32x4(quarter(0), quarter(1));
    let high = i16x8_narrow_i32x4(quarter(2), quarter(3));
    i8x16_bitmask(i8x16_narrow_i16x8(low, high))
}

#[cfg(test)]
mod tests {
    use super::pack;

    fn flags_of<const N: usize>(bits: u64) -> [u32; N] {
        std::array::from_fn(|lane| if bits >> lane & 1 != 0 { u32::MAX } else { 0 })
    }

    #[test]
    fn packs_every_lane_to_its_own_bit() {
        let patterns = [
            0,
            u64::MAX,
            1,
            1 << 63,
            0x8000_0001_8000_0001,
            0x0123_4567_89AB_CDEF,
            0xFFFF_0000_0000_FFFF,
        ];
        for bits in patterns {
            assert_eq!(pack(&flags_of::<64>(bits)), bits, "{bits:#x}");
            let low = bits & 0xFFFF_FFFF;
            assert_eq!(pack(&flags_of::<32>(low)), low, "{low:#x}");
        }
        for lane in 0..64 {
            assert_eq!(pack(&flags_of::<64>(1 << lane)), 1 << lane, "lane {lane}");
        }
    }
}
