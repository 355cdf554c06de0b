//! Launch configuration: how many workgroups, how big, how wide a wave, how much memory.

use std::fmt;

use crate::program::Kernel;

/// wave-emu's defaults, so that `wavesim` and the playground agree with it out of the box.
pub const DEFAULT_WAVE_WIDTH: u32 = 32;
pub const DEFAULT_LOCAL_MEMORY: u32 = 16 * 1024;
pub const DEFAULT_DEVICE_MEMORY: u32 = 1024 * 1024;
pub const DEFAULT_MAX_INSTRUCTIONS: u64 = 10_000_000;
/// Largest memory a configuration may ask for; keeps a typo from allocating gigabytes.
pub const MAX_MEMORY_BYTES: u32 = 256 * 1024 * 1024;
/// Largest workgroup, in threads (so the number of waves per workgroup stays reasonable).
pub const MAX_WORKGROUP_THREADS: u64 = 1 << 16;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaunchConfig {
    /// Grid size in workgroups.
    pub grid: [u32; 3],
    /// Workgroup size in threads; a kernel's `.workgroup_size` overrides it.
    pub workgroup: [u32; 3],
    /// Lanes per wave, 1..=64.
    pub wave_width: u32,
    /// Local memory per workgroup in bytes, unless the kernel's `.local_memory` says otherwise.
    pub local_memory: u32,
    pub device_memory: u32,
    /// Wave-instructions allowed per workgroup; 0 means no limit.
    pub max_instructions: u64,
    /// Registers set in every thread of every workgroup before it starts (`--set-reg`).
    pub initial_registers: Vec<(u8, u32)>,
}

impl Default for LaunchConfig {
    fn default() -> Self {
        LaunchConfig {
            grid: [1, 1, 1],
            workgroup: [32, 1, 1],
            wave_width: DEFAULT_WAVE_WIDTH,
            local_memory: DEFAULT_LOCAL_MEMORY,
            device_memory: DEFAULT_DEVICE_MEMORY,
            max_instructions: DEFAULT_MAX_INSTRUCTIONS,
            initial_registers: Vec::new(),
        }
    }
}

/// Why a configuration cannot run; each names the field so a UI can put the message beside it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigError {
    WaveWidth(u32),
    Grid([u32; 3]),
    WorkgroupTooLarge(u64),
    Memory { what: &'static str, bytes: u32 },
    Register { register: u8, register_file: u32 },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::WaveWidth(w) => write!(f, "wave width must be between 1 and 64, not {w}"),
            ConfigError::Grid(g) => write!(
                f,
                "grid {}x{}x{} is too large (at most 2^32 workgroups in all)",
                g[0], g[1], g[2]
            ),
            ConfigError::WorkgroupTooLarge(n) => {
                write!(f, "a workgroup of {n} threads is too large (at most {MAX_WORKGROUP_THREADS})")
            }
            ConfigError::Memory { what, bytes } => {
                write!(f, "{what} of {bytes} bytes is too large (at most {MAX_MEMORY_BYTES})")
            }
            ConfigError::Register { register, register_file } => write!(
                f,
                "initial register r{register} does not exist: the kernel has {register_file} registers"
            ),
        }
    }
}

impl std::error::Error for ConfigError {}

/// A configuration checked against one kernel, with the kernel's own directives applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolvedLaunch {
    pub grid: [u32; 3],
    pub workgroup: [u32; 3],
    /// True when the kernel's `.workgroup_size` replaced the configured workgroup.
    pub workgroup_from_kernel: bool,
    pub wave_width: u32,
    pub local_memory: u32,
    pub device_memory: u32,
    pub max_instructions: u64,
    pub initial_registers: Vec<(u8, u32)>,
}

impl ResolvedLaunch {
    pub fn workgroup_threads(&self) -> u32 {
        self.workgroup[0] * self.workgroup[1] * self.workgroup[2]
    }

    pub fn waves_per_workgroup(&self) -> u32 {
        self.workgroup_threads().div_ceil(self.wave_width)
    }

    pub fn workgroup_count(&self) -> u64 {
        self.grid.iter().map(|&n| n as u64).product()
    }
}

impl LaunchConfig {
    pub fn resolve(&self, kernel: &Kernel) -> Result<ResolvedLaunch, ConfigError> {
        if !(1..=64).contains(&self.wave_width) {
            return Err(ConfigError::WaveWidth(self.wave_width));
        }
        let grid_count: u64 = self.grid.iter().map(|&n| n as u64).product();
        if grid_count > u32::MAX as u64 {
            return Err(ConfigError::Grid(self.grid));
        }
        let (workgroup, workgroup_from_kernel) = match kernel.workgroup_size {
            Some(size) => (size, true),
            None => (self.workgroup, false),
        };
        let threads: u64 = workgroup.iter().map(|&n| n as u64).product();
        if threads > MAX_WORKGROUP_THREADS {
            return Err(ConfigError::WorkgroupTooLarge(threads));
        }
        let local_memory = kernel.local_memory.unwrap_or(self.local_memory);
        for (what, bytes) in [
            ("local memory", local_memory),
            ("device memory", self.device_memory),
        ] {
            if bytes > MAX_MEMORY_BYTES {
                return Err(ConfigError::Memory { what, bytes });
            }
        }
        for &(register, _) in &self.initial_registers {
            if u32::from(register) >= kernel.register_file_size {
                return Err(ConfigError::Register {
                    register,
                    register_file: kernel.register_file_size,
                });
            }
        }
        Ok(ResolvedLaunch {
            grid: self.grid,
            workgroup,
            workgroup_from_kernel,
            wave_width: self.wave_width,
            local_memory,
            device_memory: self.device_memory,
            max_instructions: self.max_instructions,
            initial_registers: self.initial_registers.clone(),
        })
    }
}
