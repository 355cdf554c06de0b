//! Device-memory regions of the configuration form: their fields, and parsing and writing their
//! bytes. The form (`form.rs`) holds a list of them and uses this module; nothing here knows the
//! rest of the form.

use rand_xoshiro::rand_core::{Rng as _, SeedableRng};
use rand_xoshiro::SplitMix64;
use serde::{Deserialize, Serialize};
use wave_engine::numbers::{parse_u32, parse_u32_bits};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RegionKind {
    Zeros,
    Iota,
    Random,
    Literal,
}

impl RegionKind {
    pub const ALL: [RegionKind; 4] = [
        RegionKind::Zeros,
        RegionKind::Iota,
        RegionKind::Random,
        RegionKind::Literal,
    ];

    /// The name the Launch tab and a pack's `memory:` lines give it.
    pub fn name(self) -> &'static str {
        match self {
            RegionKind::Zeros => "zeros",
            RegionKind::Iota => "iota",
            RegionKind::Random => "random",
            RegionKind::Literal => "literal",
        }
    }

    /// The kind of that name, in any case.
    pub fn from_name(name: &str) -> Option<RegionKind> {
        Self::ALL
            .into_iter()
            .find(|kind| kind.name().eq_ignore_ascii_case(name))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ElemType {
    U32,
    I32,
    F32,
}

impl ElemType {
    pub const ALL: [ElemType; 3] = [ElemType::U32, ElemType::I32, ElemType::F32];

    pub fn name(self) -> &'static str {
        match self {
            ElemType::U32 => "u32",
            ElemType::I32 => "i32",
            ElemType::F32 => "f32",
        }
    }

    /// The type of that name, in any case.
    pub fn from_name(name: &str) -> Option<ElemType> {
        Self::ALL
            .into_iter()
            .find(|elem| elem.name().eq_ignore_ascii_case(name))
    }
}

/// One block of device memory to initialise. Which text fields matter depends on `kind`:
/// zeros: count; iota: count, start, step; random: count, seed, low, high; literal: values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RegionForm {
    pub kind: RegionKind,
    pub elem: ElemType,
    /// Byte offset in device memory (decimal or 0x hex).
    pub offset: String,
    pub count: String,
    pub start: String,
    pub step: String,
    pub seed: String,
    pub low: String,
    pub high: String,
    /// Comma or whitespace separated values.
    pub values: String,
}

impl RegionForm {
    /// A region of `kind` with sensible defaults in every field.
    pub fn new(kind: RegionKind, elem: ElemType, offset: &str) -> Self {
        RegionForm {
            kind,
            elem,
            offset: offset.to_string(),
            count: "8".to_string(),
            start: "0".to_string(),
            step: "1".to_string(),
            seed: "1".to_string(),
            low: "0".to_string(),
            high: "100".to_string(),
            values: String::new(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum RegionField {
    Offset,
    Count,
    Start,
    Step,
    Seed,
    Low,
    High,
    Values,
}

/// Largest number of elements one region may write (16M elements = 64 MiB).
const MAX_COUNT: u32 = 16 * 1024 * 1024;

/// A region whose fields all parsed: its element values as raw u32 bits.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ParsedRegion {
    pub offset: u32,
    pub words: Vec<u32>,
}

impl ParsedRegion {
    /// Writes the words little-endian at the offset; an error when they do not fit.
    pub fn write(&self, memory: &mut [u8]) -> Result<(), String> {
        let bytes = self.words.len() as u64 * 4;
        let end = self.offset as u64 + bytes;
        if end > memory.len() as u64 {
            return Err(format!(
                "{} bytes at offset {} end at {end}, past the device memory ({} bytes)",
                bytes,
                self.offset,
                memory.len()
            ));
        }
        for (i, word) in self.words.iter().enumerate() {
            let at = self.offset as usize + i * 4;
            memory[at..at + 4].copy_from_slice(&word.to_le_bytes());
        }
        Ok(())
    }
}

/// One value of `elem` type as u32 bits: `7`, `-3`, `0x10`, `1.5`.
pub(crate) fn parse_value(text: &str, elem: ElemType) -> Result<u32, String> {
    let t = text.trim();
    match elem {
        ElemType::F32 => {
            if let Some(hex) = t.strip_prefix("0x") {
                return u32::from_str_radix(hex, 16)
                    .map_err(|_| format!("`{t}` is not an f32 bit pattern"));
            }
            t.parse::<f32>()
                .map(f32::to_bits)
                .map_err(|_| format!("`{t}` is not a number"))
        }
        // Hex is raw bits (0xFFFFFFFF is -1); a positive decimal must fit in an i32.
        ElemType::I32 => parse_u32_bits(t)
            .ok()
            .filter(|&v| v <= i32::MAX as u32 || t.starts_with('-') || t.starts_with("0x"))
            .ok_or_else(|| format!("`{t}` is not an i32")),
        ElemType::U32 => parse_u32(t).map_err(|_| format!("`{t}` is not a u32")),
    }
}

/// The generator of "random" regions: SplitMix64 seeded with the region's seed (rand_xoshiro's,
/// whose `seed_from_u64` takes the seed as the state). Share links and autosaves carry only the
/// seed, so its `next_u64` stream must never change (pinned by the tests below and in
/// `tests/form.rs`). Only `next_u64` is used: the crate's `next_u32` is a different mix.
fn generator(seed: u32) -> SplitMix64 {
    SplitMix64::seed_from_u64(u64::from(seed))
}

fn as_f32(bits: u32, elem: ElemType) -> f64 {
    match elem {
        ElemType::F32 => f32::from_bits(bits) as f64,
        ElemType::I32 => bits as i32 as f64,
        ElemType::U32 => bits as f64,
    }
}

pub(crate) fn parse_region(form: &RegionForm) -> Result<ParsedRegion, (RegionField, String)> {
    let offset = parse_u32(&form.offset).map_err(|e| (RegionField::Offset, e))?;
    let count = || {
        parse_u32(&form.count)
            .and_then(|c| {
                if c <= MAX_COUNT {
                    Ok(c)
                } else {
                    Err(format!("at most {MAX_COUNT} values"))
                }
            })
            .map_err(|e| (RegionField::Count, e))
    };
    let value =
        |field: RegionField, text: &str| parse_value(text, form.elem).map_err(|e| (field, e));
    let words = match form.kind {
        RegionKind::Zeros => vec![0; count()? as usize],
        RegionKind::Iota => {
            let n = count()?;
            let start = value(RegionField::Start, &form.start)?;
            let step = value(RegionField::Step, &form.step)?;
            (0..n)
                .map(|i| match form.elem {
                    ElemType::F32 => {
                        let (s, d) = (f32::from_bits(start), f32::from_bits(step));
                        (s + d * i as f32).to_bits()
                    }
                    _ => start.wrapping_add(step.wrapping_mul(i)),
                })
                .collect()
        }
        RegionKind::Random => {
            let n = count()?;
            let seed = parse_u32(&form.seed).map_err(|e| (RegionField::Seed, e))?;
            let low = value(RegionField::Low, &form.low)?;
            let high = value(RegionField::High, &form.high)?;
            let (lo, hi) = (as_f32(low, form.elem), as_f32(high, form.elem));
            if lo.is_nan() || hi.is_nan() || lo > hi {
                return Err((
                    RegionField::High,
                    "the high bound must not be below the low bound".to_string(),
                ));
            }
            let mut rng = generator(seed);
            (0..n)
                .map(|_| {
                    let r = rng.next_u64();
                    match form.elem {
                        ElemType::F32 => {
                            // 24 random bits: a uniform f32 in [0, 1).
                            let unit = (r >> 40) as f32 / (1u32 << 24) as f32;
                            let (l, h) = (f32::from_bits(low), f32::from_bits(high));
                            (l + (h - l) * unit).to_bits()
                        }
                        ElemType::I32 => {
                            let span = (hi - lo) as u64 + 1;
                            (lo as i64 + (r % span) as i64) as i32 as u32
                        }
                        ElemType::U32 => {
                            let span = (hi - lo) as u64 + 1;
                            (lo as u64 + r % span) as u32
                        }
                    }
                })
                .collect()
        }
        RegionKind::Literal => {
            let items: Vec<&str> = form
                .values
                .split(|c: char| c == ',' || c.is_whitespace())
                .filter(|s| !s.is_empty())
                .collect();
            if items.is_empty() {
                return Err((RegionField::Values, "enter at least one value".to_string()));
            }
            items
                .iter()
                .map(|item| value(RegionField::Values, item))
                .collect::<Result<Vec<u32>, _>>()?
        }
    };
    Ok(ParsedRegion { offset, words })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SplitMix64 as the Launch tab has used it from the start (the reference `splitmix64.c`),
    /// kept here only to compare with the crate's.
    fn reference(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    #[test]
    fn the_generator_gives_the_same_stream_as_ever() {
        let pinned: [(u32, [u64; 4]); 4] = [
            (
                0,
                [
                    0xE220_A839_7B1D_CDAF,
                    0x6E78_9E6A_A1B9_65F4,
                    0x06C4_5D18_8009_454F,
                    0xF88B_B8A8_724C_81EC,
                ],
            ),
            (
                1,
                [
                    0x910A_2DEC_8902_5CC1,
                    0xBEEB_8DA1_658E_EC67,
                    0xF893_A2EE_FB32_555E,
                    0x71C1_8690_EE42_C90B,
                ],
            ),
            (
                2,
                [
                    0x9758_35DE_1C97_56CE,
                    0xBFC8_4610_0BFC_1E42,
                    0x987B_BCBF_DD7E_532F,
                    0xC3F2_827A_FFE7_F664,
                ],
            ),
            (
                u32::MAX,
                [
                    0x73B1_3BA2_AFF1_81C0,
                    0x6120_4305_1340_D3B4,
                    0xEE4A_C9FF_4727_5E73,
                    0x12F4_EEB7_3CED_4B8E,
                ],
            ),
        ];
        for (seed, expected) in pinned {
            let mut rng = generator(seed);
            let first: Vec<u64> = (0..4).map(|_| rng.next_u64()).collect();
            assert_eq!(first, expected, "seed {seed}");
        }
        for seed in [0, 1, 7, 0x5EED, 123_456_789, u32::MAX] {
            let (mut rng, mut state) = (generator(seed), u64::from(seed));
            for i in 0..10_000 {
                assert_eq!(
                    rng.next_u64(),
                    reference(&mut state),
                    "seed {seed}, value {i}"
                );
            }
        }
    }
}
