//! Device-memory regions of the configuration form: their fields, and parsing and writing their
//! bytes. The form (`form.rs`) holds a list of them and uses this module; nothing here knows the
//! rest of the form.

use serde::{Deserialize, Serialize};
use wave_engine::numbers::{parse_u32, parse_u32_bits};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RegionKind {
    Zeros,
    Iota,
    Random,
    Literal,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ElemType {
    U32,
    I32,
    F32,
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

/// A small, fast, seeded generator (SplitMix64) so "random" data is the same on every machine.
pub(crate) struct SplitMix(u64);

impl SplitMix {
    pub fn new(seed: u64) -> Self {
        SplitMix(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
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
            let mut rng = SplitMix::new(seed as u64);
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
