//! The launch syntax: the text a person writes for each part of a launch (`4,2,1` workgroups,
//! `r3=7`, `64K` of local memory), read by one type for the page's Launch tab and for
//! `wavesim`'s flags alike, so both accept the same forms, enforce the same limits and say the
//! same thing when a value is wrong.

use crate::machine::{LaunchConfig, DEFAULT_LOCAL_MEMORY, MAX_MEMORY_BYTES};
use crate::numbers::{parse_dims, parse_u32, parse_u32_bits, parse_u64};

/// The highest general register a launch may set: `r255` does not exist in WAVE.
pub(crate) const MAX_REGISTER: u8 = 254;

/// The parts of a launch as written. Every field is the text the user gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaunchSpec {
    /// Workgroups: `X`, `X,Y` or `X,Y,Z` (commas, `x` or spaces between; missing sizes are 1).
    pub grid: String,
    /// Threads per workgroup, written like `grid`; a kernel's `.workgroup_size` overrides it.
    pub workgroup: String,
    /// Lanes per wave, 1 to 64.
    pub wave_width: String,
    /// Register settings for every thread. Each text holds one or more `r3=7` (also `r3:7`, or
    /// `3:7` as `wave-emu`'s `--set-reg` writes it), separated by commas, semicolons or spaces;
    /// a later setting of the same register wins.
    pub initial_registers: Vec<String>,
    /// Bytes per workgroup, with an optional `K`/`KiB`/`M`/`MiB` suffix.
    pub local_memory: String,
    /// Bytes, written like `local_memory`.
    pub device_memory: String,
    /// Wave-instructions allowed per workgroup; 0 means no limit.
    pub max_instructions: String,
}

impl Default for LaunchSpec {
    /// The defaults of [`LaunchConfig`], written out.
    fn default() -> Self {
        let config = LaunchConfig::default();
        let sizes = |s: [u32; 3]| format!("{},{},{}", s[0], s[1], s[2]);
        LaunchSpec {
            grid: sizes(config.grid),
            workgroup: sizes(config.workgroup),
            wave_width: config.wave_width.to_string(),
            initial_registers: Vec::new(),
            local_memory: DEFAULT_LOCAL_MEMORY.to_string(),
            device_memory: config.device_memory.to_string(),
            max_instructions: config.max_instructions.to_string(),
        }
    }
}

/// A part of a launch, to put a message beside (a form field, a command-line flag).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum LaunchField {
    Grid,
    Workgroup,
    WaveWidth,
    InitialRegisters,
    DeviceMemory,
    LocalMemory,
    MaxInstructions,
}

/// What is wrong with a launch: one message for each invalid part, in field order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LaunchErrors {
    pub fields: Vec<(LaunchField, String)>,
}

impl LaunchSpec {
    /// Reads every part; all the parts that are wrong are reported at once.
    pub fn parse(&self) -> Result<LaunchConfig, LaunchErrors> {
        let mut errors = LaunchErrors::default();
        let grid = part(&mut errors, LaunchField::Grid, parse_sizes(&self.grid));
        let workgroup = part(
            &mut errors,
            LaunchField::Workgroup,
            parse_sizes(&self.workgroup),
        );
        let wave_width = part(
            &mut errors,
            LaunchField::WaveWidth,
            parse_wave_width(&self.wave_width),
        );
        let registers = part(
            &mut errors,
            LaunchField::InitialRegisters,
            parse_register_settings(&self.initial_registers),
        );
        let device_memory = part(
            &mut errors,
            LaunchField::DeviceMemory,
            parse_bytes(&self.device_memory),
        );
        let local_memory = part(
            &mut errors,
            LaunchField::LocalMemory,
            parse_bytes(&self.local_memory),
        );
        let max_instructions = part(
            &mut errors,
            LaunchField::MaxInstructions,
            parse_u64(&self.max_instructions),
        );
        match (
            grid,
            workgroup,
            wave_width,
            registers,
            local_memory,
            device_memory,
            max_instructions,
        ) {
            (
                Some(grid),
                Some(workgroup),
                Some(wave_width),
                Some(initial_registers),
                Some(local_memory),
                Some(device_memory),
                Some(max_instructions),
            ) => Ok(LaunchConfig {
                grid,
                workgroup,
                wave_width,
                local_memory,
                device_memory,
                max_instructions,
                initial_registers,
            }),
            _ => Err(errors),
        }
    }
}

/// Passes a part's value on, or records its message.
fn part<T>(errors: &mut LaunchErrors, field: LaunchField, result: Result<T, String>) -> Option<T> {
    result
        .map_err(|message| errors.fields.push((field, message)))
        .ok()
}

/// `X`, `X,Y` or `X,Y,Z`, each at least 1.
fn parse_sizes(text: &str) -> Result<[u32; 3], String> {
    let sizes = parse_dims(text)?;
    if sizes.contains(&0) {
        return Err("every size must be at least 1".to_string());
    }
    Ok(sizes)
}

fn parse_wave_width(text: &str) -> Result<u32, String> {
    let width = parse_u32(text)?;
    if (1..=64).contains(&width) {
        Ok(width)
    } else {
        Err(format!("the wave width must be 1 to 64, not {width}"))
    }
}

/// A size in bytes with an optional `K`/`KiB`/`M`/`MiB` suffix, at most [`MAX_MEMORY_BYTES`].
pub(crate) fn parse_bytes(text: &str) -> Result<u32, String> {
    let trimmed = text.trim();
    let lower = trimmed.to_ascii_lowercase();
    let (digits, unit) = if let Some(d) = lower
        .strip_suffix("kib")
        .or_else(|| lower.strip_suffix('k'))
    {
        (d, 1024u64)
    } else if let Some(d) = lower
        .strip_suffix("mib")
        .or_else(|| lower.strip_suffix('m'))
    {
        (d, 1024 * 1024)
    } else {
        (trimmed, 1)
    };
    parse_u64(digits)?
        .checked_mul(unit)
        .filter(|&bytes| bytes <= u64::from(MAX_MEMORY_BYTES))
        .map(|bytes| bytes as u32)
        .ok_or_else(|| format!("at most {MAX_MEMORY_BYTES} bytes (256M)"))
}

/// Every setting of every text, in order; a register set twice keeps its last value.
fn parse_register_settings(texts: &[String]) -> Result<Vec<(u8, u32)>, String> {
    let mut settings: Vec<(u8, u32)> = Vec::new();
    let items = texts.iter().flat_map(|text| {
        text.split(|c: char| c == ',' || c == ';' || c.is_whitespace())
            .filter(|item| !item.is_empty())
    });
    for item in items {
        let (register, value) = parse_register_setting(item)?;
        settings.retain(|&(r, _)| r != register);
        settings.push((register, value));
    }
    Ok(settings)
}

/// One `r3=7`, `r3:7` or `3:7`; the value is decimal (negative allowed) or `0x` hex.
fn parse_register_setting(item: &str) -> Result<(u8, u32), String> {
    let (name, value) = item
        .split_once('=')
        .or_else(|| item.split_once(':'))
        .ok_or_else(|| {
            format!("`{item}`: expected REGISTER=VALUE or REGISTER:VALUE, e.g. r3=7 or 0:4096")
        })?;
    let name = name.trim();
    let register = name
        .strip_prefix('r')
        .unwrap_or(name)
        .parse::<u8>()
        .ok()
        .filter(|&r| r <= MAX_REGISTER)
        .ok_or_else(|| format!("`{name}` is not a register (r0 to r{MAX_REGISTER})"))?;
    let value = parse_u32_bits(value).map_err(|e| format!("r{register}: {e}"))?;
    Ok((register, value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> LaunchSpec {
        LaunchSpec::default()
    }

    fn errors(spec: &LaunchSpec) -> Vec<(LaunchField, String)> {
        spec.parse().expect_err("the spec is invalid").fields
    }

    #[test]
    fn the_default_spec_is_the_default_config() {
        assert_eq!(spec().parse(), Ok(LaunchConfig::default()));
    }

    #[test]
    fn every_written_form_of_a_part_is_read() {
        let written = LaunchSpec {
            grid: "4x2".into(),
            workgroup: "0x10 2 1".into(),
            wave_width: "8".into(),
            initial_registers: vec!["r3=7, r4:0x10".into(), "5:-1; r3=9".into()],
            local_memory: "2K".into(),
            device_memory: "1MiB".into(),
            max_instructions: "1_000".into(),
        };
        let config = written.parse().expect("valid");
        assert_eq!(config.grid, [4, 2, 1]);
        assert_eq!(config.workgroup, [16, 2, 1]);
        assert_eq!(config.wave_width, 8);
        assert_eq!(
            config.initial_registers,
            vec![(4, 0x10), (5, u32::MAX), (3, 9)]
        );
        assert_eq!(config.local_memory, 2048);
        assert_eq!(config.device_memory, 1 << 20);
        assert_eq!(config.max_instructions, 1000);
    }

    #[test]
    fn each_invalid_part_is_named_with_its_reason() {
        let wrong = LaunchSpec {
            grid: "0,1,1".into(),
            workgroup: "1,2,3,4".into(),
            wave_width: "65".into(),
            initial_registers: vec!["r255=1".into()],
            device_memory: "lots".into(),
            local_memory: "257M".into(),
            max_instructions: "-1".into(),
        };
        let found = errors(&wrong);
        let fields: Vec<LaunchField> = found.iter().map(|(f, _)| *f).collect();
        assert_eq!(
            fields,
            [
                LaunchField::Grid,
                LaunchField::Workgroup,
                LaunchField::WaveWidth,
                LaunchField::InitialRegisters,
                LaunchField::DeviceMemory,
                LaunchField::LocalMemory,
                LaunchField::MaxInstructions,
            ]
        );
        assert_eq!(found[0].1, "every size must be at least 1");
        assert_eq!(found[2].1, "the wave width must be 1 to 64, not 65");
        assert_eq!(found[3].1, "`r255` is not a register (r0 to r254)");
        assert_eq!(found[5].1, "at most 268435456 bytes (256M)");
    }

    #[test]
    fn a_register_setting_needs_a_value() {
        let wrong = LaunchSpec {
            initial_registers: vec!["r1".into()],
            ..spec()
        };
        assert_eq!(
            errors(&wrong),
            [(
                LaunchField::InitialRegisters,
                "`r1`: expected REGISTER=VALUE or REGISTER:VALUE, e.g. r3=7 or 0:4096".to_string()
            )]
        );
        let bad_value = LaunchSpec {
            initial_registers: vec!["r2=0x1_0000_0000".into()],
            ..spec()
        };
        assert!(errors(&bad_value)[0].1.starts_with("r2: "));
    }

    #[test]
    fn register_settings_in_the_command_line_form() {
        let settings = |text: &str| {
            let spec = LaunchSpec {
                initial_registers: vec![text.to_string()],
                ..spec()
            };
            spec.parse().map(|config| config.initial_registers)
        };
        assert_eq!(settings("0:4096"), Ok(vec![(0, 4096)]));
        assert_eq!(settings("r7:0x40a00000"), Ok(vec![(7, 0x40a0_0000)]));
        assert_eq!(settings("3:-1"), Ok(vec![(3, u32::MAX)]));
        assert_eq!(settings("3:-2147483648"), Ok(vec![(3, 0x8000_0000)]));
        for wrong in ["3:-2147483649", "3", "r300:1", "x1:1", "1:0x1ffffffff"] {
            assert!(settings(wrong).is_err(), "{wrong}");
        }
    }

    #[test]
    fn sizes_at_the_memory_limit_pass_and_past_it_fail() {
        assert_eq!(parse_bytes("256M"), Ok(MAX_MEMORY_BYTES));
        assert_eq!(parse_bytes("268435456"), Ok(MAX_MEMORY_BYTES));
        assert!(parse_bytes("268435457").is_err());
        assert!(parse_bytes("99999999999999999999K").is_err());
    }
}
