//! The launch configuration as a form of text fields: each field is parsed and checked on its
//! own, with a message the page shows beside it. Nothing runs while any field is invalid.

use serde::{Deserialize, Serialize};
use wave_engine::machine::{ConfigError, LaunchConfig};
use wave_engine::machine::{DEFAULT_DEVICE_MEMORY, DEFAULT_LOCAL_MEMORY, DEFAULT_MAX_INSTRUCTIONS};
use wave_engine::program::Kernel;
use wave_engine::{LaunchField, LaunchSpec};

use crate::regions::{self, RegionField, RegionForm};

/// The whole launch configuration form. Every field is the text the user typed; the launch's
/// own fields are read by [`LaunchSpec`], as `wavesim` reads its flags.
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

impl From<LaunchField> for Field {
    fn from(part: LaunchField) -> Self {
        match part {
            LaunchField::Grid => Field::Grid,
            LaunchField::Workgroup => Field::Workgroup,
            LaunchField::WaveWidth => Field::WaveWidth,
            LaunchField::InitialRegisters => Field::InitialRegisters,
            LaunchField::LocalMemory => Field::LocalMemory,
            LaunchField::DeviceMemory => Field::DeviceMemory,
            LaunchField::MaxInstructions => Field::MaxInstructions,
        }
    }
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

impl ConfigForm {
    /// Checks every field. `kernel` is the kernel the form picks when the source compiled;
    /// `program_compiled` tells whether a missing kernel is the form's fault.
    pub fn validate(
        &self,
        kernel: Option<&Kernel>,
        program_compiled: bool,
    ) -> Result<ValidLaunch, FormErrors> {
        let mut errors = FormErrors::default();
        let spec = LaunchSpec {
            grid: self.grid.clone(),
            workgroup: self.workgroup.clone(),
            wave_width: self.wave_width.clone(),
            initial_registers: vec![self.initial_registers.clone()],
            local_memory: self.local_memory.clone(),
            device_memory: self.device_memory.clone(),
            max_instructions: self.max_instructions.clone(),
        };
        let parsed = spec.parse().map_err(|invalid| {
            for (part, message) in invalid.fields {
                errors.add(Field::from(part), message);
            }
        });
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
        let Ok(config) = parsed else {
            return Err(errors);
        };
        let mut memory = vec![0u8; config.device_memory as usize];
        for (index, region) in regions.iter().enumerate() {
            if let Err(message) = region.write(&mut memory) {
                errors.add(Field::Region(index, RegionField::Offset), message);
            }
        }
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
