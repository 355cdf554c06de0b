//! The launch configuration as a form of text fields: each field is parsed and checked on its
//! own, with a message the page shows beside it. Nothing runs while any field is invalid.

use serde::{Deserialize, Serialize};
use wave_engine::machine::config::{
    DEFAULT_DEVICE_MEMORY, DEFAULT_LOCAL_MEMORY, DEFAULT_MAX_INSTRUCTIONS, MAX_MEMORY_BYTES,
};
use wave_engine::machine::{ConfigError, LaunchConfig};
use wave_engine::numbers::{parse_dims, parse_u32, parse_u32_bits, parse_u64};
use wave_engine::program::Kernel;

use crate::regions::{self, RegionField, RegionForm};

/// The whole launch configuration form. Every field is the text the user typed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConfigForm {
    /// Kernel name; empty means the first kernel of the file.
    pub kernel: String,
    /// `X,Y,Z` (or `X` / `X,Y`; missing dimensions are 1), in workgroups.
    pub grid: String,
    /// `X,Y,Z` threads; a kernel's `.workgroup_size` overrides it.
    pub workgroup: String,
    pub wave_width: String,
    /// `r3=7, r4=0x10`.
    pub initial_registers: String,
    /// Bytes; `64K` / `1M` suffixes allowed.
    pub device_memory: String,
    pub local_memory: String,
    /// Wave-instructions per workgroup; 0 = no limit.
    pub max_instructions: String,
    pub regions: Vec<RegionForm>,
    /// Run by the reference emulator's rules (`wave-emu` 0.1.2, its departures from the spec
    /// included) instead of the spec's. Left out of links and autosaves while off, so those made
    /// before it existed read the same.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reference_behaviour: bool,
}

impl Default for ConfigForm {
    fn default() -> Self {
        ConfigForm {
            kernel: String::new(),
            grid: "1,1,1".to_string(),
            workgroup: "32,1,1".to_string(),
            wave_width: "32".to_string(),
            initial_registers: String::new(),
            device_memory: DEFAULT_DEVICE_MEMORY.to_string(),
            local_memory: DEFAULT_LOCAL_MEMORY.to_string(),
            max_instructions: DEFAULT_MAX_INSTRUCTIONS.to_string(),
            regions: Vec::new(),
            reference_behaviour: false,
        }
    }
}

/// A field of the form, to put a message beside.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Field {
    Kernel,
    Grid,
    Workgroup,
    WaveWidth,
    InitialRegisters,
    DeviceMemory,
    LocalMemory,
    MaxInstructions,
    Region(usize, RegionField),
}

/// The messages of the invalid fields, in field order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FormErrors {
    pub fields: Vec<(Field, String)>,
}

impl FormErrors {
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// The message for `field`, if it is invalid.
    pub fn get(&self, field: Field) -> Option<&str> {
        self.fields
            .iter()
            .find(|(f, _)| *f == field)
            .map(|(_, m)| m.as_str())
    }

    fn add(&mut self, field: Field, message: impl Into<String>) {
        if self.get(field).is_none() {
            self.fields.push((field, message.into()));
        }
    }
}

/// A configuration that passed every check: ready for `Machine::new`.
#[derive(Clone, Debug, PartialEq)]
pub struct ValidLaunch {
    pub kernel: String,
    pub config: LaunchConfig,
    /// Initial device memory (its length is the configured size).
    pub device_memory: Vec<u8>,
}

/// Records the message of a failed field and passes a parsed value on.
fn field<T>(errors: &mut FormErrors, which: Field, result: Result<T, String>) -> Option<T> {
    match result {
        Ok(value) => Some(value),
        Err(message) => {
            errors.add(which, message);
            None
        }
    }
}

/// A size in bytes with an optional `K`/`KiB`/`M`/`MiB` suffix.
fn parse_bytes(text: &str) -> Result<u32, String> {
    let t = text.trim();
    let lower = t.to_ascii_lowercase();
    let (digits, unit) = if let Some(d) = lower
        .strip_suffix("kib")
        .or_else(|| lower.strip_suffix('k'))
    {
        (d.to_string(), 1024u64)
    } else if let Some(d) = lower
        .strip_suffix("mib")
        .or_else(|| lower.strip_suffix('m'))
    {
        (d.to_string(), 1024 * 1024)
    } else {
        (t.to_string(), 1)
    };
    let value = parse_u64(&digits)?
        .checked_mul(unit)
        .filter(|&v| v <= MAX_MEMORY_BYTES as u64)
        .ok_or_else(|| format!("at most {MAX_MEMORY_BYTES} bytes (256M)"))?;
    Ok(value as u32)
}

/// `X`, `X,Y` or `X,Y,Z` (commas, `x` or spaces between; missing sizes are 1), each at least 1.
fn parse_sizes(text: &str) -> Result<[u32; 3], String> {
    let dims = parse_dims(text)?;
    if dims.contains(&0) {
        return Err("every size must be at least 1".to_string());
    }
    Ok(dims)
}

/// `r3=7, r4=0x10` (also `r3:7`, the command line's form; negative decimals allowed).
fn parse_registers(text: &str) -> Result<Vec<(u8, u32)>, String> {
    let mut out = Vec::new();
    for item in text
        .split(|c: char| c == ',' || c == ';' || c.is_whitespace())
        .filter(|p| !p.is_empty())
    {
        let (name, value) = item
            .split_once('=')
            .or_else(|| item.split_once(':'))
            .ok_or_else(|| format!("`{item}`: write registers as r3=7"))?;
        let number = name
            .trim()
            .strip_prefix('r')
            .and_then(|n| n.parse::<u8>().ok())
            .filter(|&n| n <= 254)
            .ok_or_else(|| format!("`{name}` is not a register (r0 to r254)"))?;
        let value = parse_u32_bits(value).map_err(|e| format!("r{number}: {e}"))?;
        out.retain(|(r, _)| *r != number);
        out.push((number, value));
    }
    Ok(out)
}

impl ConfigForm {
    /// Checks every field. `kernel` is the kernel the form picks when the source compiled;
    /// `program_compiled` tells whether a missing kernel is the form's fault.
    pub fn validate(
        &self,
        kernel: Option<&Kernel>,
        program_compiled: bool,
    ) -> Result<ValidLaunch, FormErrors> {
        let mut errors = FormErrors::default();
        let grid = field(&mut errors, Field::Grid, parse_sizes(&self.grid));
        let workgroup = field(&mut errors, Field::Workgroup, parse_sizes(&self.workgroup));
        let width = field(
            &mut errors,
            Field::WaveWidth,
            parse_u32(&self.wave_width).and_then(|w| {
                if (1..=64).contains(&w) {
                    Ok(w)
                } else {
                    Err(format!("the wave width must be 1 to 64, not {w}"))
                }
            }),
        );
        let registers = field(
            &mut errors,
            Field::InitialRegisters,
            parse_registers(&self.initial_registers),
        );
        let device = field(
            &mut errors,
            Field::DeviceMemory,
            parse_bytes(&self.device_memory),
        );
        let local = field(
            &mut errors,
            Field::LocalMemory,
            parse_bytes(&self.local_memory),
        );
        let budget = field(
            &mut errors,
            Field::MaxInstructions,
            parse_u64(&self.max_instructions),
        );
        let mut regions = Vec::new();
        for (index, region) in self.regions.iter().enumerate() {
            match regions::parse_region(region) {
                Ok(parsed) => regions.push(parsed),
                Err((which, message)) => errors.add(Field::Region(index, which), message),
            }
        }
        if program_compiled && kernel.is_none() {
            errors.add(
                Field::Kernel,
                format!("the file has no kernel named `{}`", self.kernel.trim()),
            );
        }
        let (
            Some(grid),
            Some(workgroup),
            Some(wave_width),
            Some(initial_registers),
            Some(device_memory),
            Some(local_memory),
            Some(max_instructions),
        ) = (grid, workgroup, width, registers, device, local, budget)
        else {
            return Err(errors);
        };
        let mut memory = vec![0u8; device_memory as usize];
        for (index, region) in regions.iter().enumerate() {
            if let Err(message) = region.write(&mut memory) {
                errors.add(Field::Region(index, RegionField::Offset), message);
            }
        }
        let config = LaunchConfig {
            grid,
            workgroup,
            wave_width,
            local_memory,
            device_memory,
            max_instructions,
            initial_registers,
        };
        let Some(kernel) = kernel else {
            return Err(errors);
        };
        if let Err(error) = config.resolve(kernel) {
            let which = match error {
                ConfigError::WaveWidth(_) => Field::WaveWidth,
                ConfigError::Grid(_) => Field::Grid,
                ConfigError::WorkgroupTooLarge(_) => Field::Workgroup,
                ConfigError::Memory { what, .. } if what.starts_with("local") => Field::LocalMemory,
                ConfigError::Memory { .. } => Field::DeviceMemory,
                ConfigError::Register { .. } => Field::InitialRegisters,
            };
            errors.add(which, error.to_string());
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(ValidLaunch {
            kernel: kernel.name.clone(),
            config,
            device_memory: memory,
        })
    }
}
