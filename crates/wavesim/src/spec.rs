//! Parsing of the small value specs that the output and memory flags take: `OFF:N`, `START:END`,
//! `OFFSET:FILE` and the fills. Numbers are read by `wave_engine::numbers` and the launch's own
//! flags by `wave_engine::LaunchSpec`, as the playground reads them. Every function returns a
//! message instead of panicking; the caller prefixes it with the flag and the text the user gave.

use std::path::PathBuf;

use wave_engine::numbers::parse_u64;

/// `OFFSET:FILE` (the file name may itself contain colons).
pub fn parse_arg(text: &str) -> Result<(u64, PathBuf), String> {
    let (offset, path) = text
        .split_once(':')
        .ok_or_else(|| "expected OFFSET:FILE".to_string())?;
    if path.is_empty() {
        return Err("the file name is empty".into());
    }
    Ok((parse_u64(offset)?, PathBuf::from(path)))
}

/// A device-memory fill, in wave-emu's shapes: TYPE is accepted and ignored (every element is 4
/// bytes), and iota writes the f32 values `i * scale`.
#[derive(Clone, Debug, PartialEq)]
pub struct Fill {
    pub offset: u64,
    pub count: u64,
    /// `Some` for iota (default 1.0), `None` for zeros.
    pub scale: Option<f32>,
}

impl Fill {
    /// Writes the fill into `slot`, 4 bytes per element (`slot` is `count * 4` bytes long).
    pub fn write_to(&self, slot: &mut [u8]) {
        match self.scale {
            None => slot.fill(0),
            Some(scale) => {
                for (i, element) in slot.chunks_exact_mut(4).enumerate() {
                    element.copy_from_slice(&(i as f32 * scale).to_le_bytes());
                }
            }
        }
    }
}

/// `OFF:TYPE:COUNT`.
pub fn parse_fill_zero(text: &str) -> Result<Fill, String> {
    let parts: Vec<&str> = text.split(':').collect();
    if parts.len() != 3 {
        return Err("expected OFFSET:TYPE:COUNT, e.g. 0x100:u32:64".into());
    }
    Ok(Fill {
        offset: parse_u64(parts[0])?,
        count: parse_u64(parts[2]).map_err(|e| format!("count: {e}"))?,
        scale: None,
    })
}

/// `OFF:TYPE:COUNT[:SCALE]`.
pub fn parse_fill_iota(text: &str) -> Result<Fill, String> {
    let parts: Vec<&str> = text.split(':').collect();
    if !(3..=4).contains(&parts.len()) {
        return Err("expected OFFSET:TYPE:COUNT[:SCALE], e.g. 0:f32:64:0.5".into());
    }
    let scale = match parts.get(3) {
        Some(scale) => scale
            .trim()
            .parse::<f32>()
            .map_err(|_| format!("scale: `{scale}` is not a number"))?,
        None => 1.0,
    };
    Ok(Fill {
        offset: parse_u64(parts[0])?,
        count: parse_u64(parts[2]).map_err(|e| format!("count: {e}"))?,
        scale: Some(scale),
    })
}

/// How a value dump reads its elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    U32,
    F32,
    F16,
    Bf16,
}

impl ValueKind {
    pub fn size(self) -> u64 {
        match self {
            ValueKind::U32 | ValueKind::F32 => 4,
            ValueKind::F16 | ValueKind::Bf16 => 2,
        }
    }
}

/// One dump request, printed after the run in command-line order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dump {
    Values {
        kind: ValueKind,
        offset: u64,
        count: u64,
    },
    /// Hex dump of `start..end`.
    Memory { start: u64, end: u64 },
}

impl Dump {
    /// The byte range the dump reads, or `None` when it overflows 64 bits.
    pub fn range(&self) -> Option<(u64, u64)> {
        match *self {
            Dump::Values {
                kind,
                offset,
                count,
            } => count
                .checked_mul(kind.size())
                .and_then(|len| offset.checked_add(len))
                .map(|end| (offset, end)),
            Dump::Memory { start, end } => Some((start, end)),
        }
    }
}

/// `OFF:N` for the value dumps.
pub fn parse_value_dump(kind: ValueKind, text: &str) -> Result<Dump, String> {
    let (offset, count) = text
        .split_once(':')
        .ok_or_else(|| "expected OFFSET:COUNT, e.g. 0x100:16".to_string())?;
    Ok(Dump::Values {
        kind,
        offset: parse_u64(offset)?,
        count: parse_u64(count).map_err(|e| format!("count: {e}"))?,
    })
}

/// `START:END` for the hex dump; END must be past START.
pub fn parse_memory_dump(text: &str) -> Result<Dump, String> {
    let (start, end) = text
        .split_once(':')
        .ok_or_else(|| "expected START:END, e.g. 0:0x40".to_string())?;
    let (start, end) = (parse_u64(start)?, parse_u64(end)?);
    if end <= start {
        return Err(format!(
            "END ({end:#x}) must be greater than START ({start:#x})"
        ));
    }
    Ok(Dump::Memory { start, end })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arg_keeps_colons_in_the_file_name() {
        assert_eq!(
            parse_arg("0x40:dir/a:b.bin"),
            Ok((64, PathBuf::from("dir/a:b.bin")))
        );
        assert!(parse_arg("64").is_err());
        assert!(parse_arg("64:").is_err());
        assert!(parse_arg("x:file").is_err());
    }

    #[test]
    fn fills_follow_wave_emu_shapes() {
        let written = |fill: &Fill| {
            let mut slot = vec![0xaa; fill.count as usize * 4];
            fill.write_to(&mut slot);
            slot
        };
        let zero = parse_fill_zero("0x10:u32:3").unwrap();
        assert_eq!(zero.offset, 16);
        assert_eq!(written(&zero), vec![0; 12]);
        assert!(parse_fill_zero("0:u32").is_err());
        assert!(parse_fill_zero("0:u32:3:1").is_err());

        let iota = parse_fill_iota("0:f32:3:0.5").unwrap();
        let values: Vec<f32> = written(&iota)
            .chunks(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert_eq!(values, vec![0.0, 0.5, 1.0]);
        assert_eq!(parse_fill_iota("0:f32:2").unwrap().scale, Some(1.0));
        assert!(parse_fill_iota("0:f32:2:big").is_err());
        assert!(parse_fill_iota("0:f32").is_err());
    }

    #[test]
    fn dumps_parse_and_know_their_range() {
        let dump = parse_value_dump(ValueKind::F16, "0x10:3").unwrap();
        assert_eq!(dump.range(), Some((16, 22)));
        let dump = parse_value_dump(ValueKind::U32, "8:2").unwrap();
        assert_eq!(dump.range(), Some((8, 16)));
        let huge = parse_value_dump(ValueKind::U32, "1:0xffffffffffffffff").unwrap();
        assert_eq!(huge.range(), None);
        assert!(parse_value_dump(ValueKind::U32, "8").is_err());
        assert_eq!(
            parse_memory_dump("0:0x20"),
            Ok(Dump::Memory { start: 0, end: 32 })
        );
        assert!(parse_memory_dump("0x20:0x20").is_err());
        assert!(parse_memory_dump("0x20").is_err());
    }
}
