//! The benchmark's kernels, launches and seeded inputs, and the checksum of what they write.
//!
//! One file for both runners: the native benchmark (`bench.rs`) declares it as a module, and the
//! wasm runner (`wasm-runner/src/lib.rs`) includes the same file with `#[path]`, so the two run
//! exactly the same launches on exactly the same memory. It needs only std, wave-engine and
//! rand_xoshiro, which both crates have.

use std::ops::Range;

use rand_xoshiro::rand_core::{Rng as _, SeedableRng};
use rand_xoshiro::SplitMix64;
use wave_engine::machine::{LaunchConfig, Machine};

pub(crate) const GEMM_NAIVE: &str = include_str!("../kernels/gemm_naive.wave");
const GEMM_BLOCKED: &str = include_str!("../kernels/gemm_blocked.wave");
const DIVERGENCE: &str = include_str!("../kernels/divergence.wave");

pub(crate) const LOCAL_MEMORY: u32 = 16 * 1024;
/// The wave width of the wasm runner and of the checksums it is checked against (the native
/// benchmark's default).
pub(crate) const WAVE_WIDTH: u32 = 32;
/// Threads of the benchmark's divergence case (its size 0 stands for this).
pub(crate) const DIVERGENCE_THREADS: usize = 64 * 1024;
/// The divergence kernel's step cap.
pub(crate) const DIVERGENCE_CAP: u32 = 1000;
/// The divergence kernel's `.workgroup_size`: its thread count is a multiple of this.
const DIVERGENCE_GROUP: usize = 256;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kernel {
    Naive,
    Blocked,
    Divergence,
}

impl Kernel {
    /// In the order of their ids (the wasm runner's `prepare` takes the index).
    pub(crate) const ALL: [Kernel; 3] = [Kernel::Naive, Kernel::Blocked, Kernel::Divergence];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Kernel::Naive => "naive",
            Kernel::Blocked => "blocked",
            Kernel::Divergence => "divergence",
        }
    }

    pub(crate) fn from_name(name: &str) -> Option<Kernel> {
        Kernel::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// One benchmark run, ready to load: what both engines are given.
pub(crate) struct Launch {
    pub(crate) name: String,
    pub(crate) source: &'static str,
    pub(crate) grid: [u32; 3],
    /// Device memory at the start: the inputs, then the output zeroed.
    pub(crate) memory: Vec<u8>,
    pub(crate) registers: Vec<(u8, u32)>,
    /// The bytes the kernel writes, which the checks compare: C, or the divergence records.
    pub(crate) output: Range<usize>,
}

/// SplitMix64: small, seeded, deterministic.
struct Rng(SplitMix64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(SplitMix64::seed_from_u64(seed))
    }

    fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A float in [-1, 1) with at most 12 significant bits, so products stay exact-ish and any
    /// reordering would show.
    fn small_f32(&mut self) -> f32 {
        ((self.next_u64() >> 52) as i32 - 2048) as f32 / 2048.0
    }
}

/// The launch of `kernel` at `size`: N for the GEMMs (a multiple of 64 up to 2048), the thread
/// count for the divergence kernel (a multiple of 256 up to 2^22; 0 for the benchmark's 65,536).
pub(crate) fn launch(kernel: Kernel, size: usize) -> Result<Launch, String> {
    match kernel {
        Kernel::Naive => gemm(kernel, "naive", GEMM_NAIVE, 16, size),
        Kernel::Blocked => gemm(kernel, "blocked 4x4", GEMM_BLOCKED, 64, size),
        Kernel::Divergence => divergence(size),
    }
}

/// A and B (N x N f32 each, seeded by N) then C zeroed: the memory both GEMMs start from.
pub(crate) fn gemm_memory(n: usize) -> Vec<u8> {
    let mut rng = Rng::new(0x5EED_0000 + n as u64);
    let mut memory: Vec<u8> = (0..2 * n * n)
        .flat_map(|_| rng.small_f32().to_le_bytes())
        .collect();
    memory.resize(3 * n * n * 4, 0);
    memory
}

fn gemm(
    kernel: Kernel,
    kind: &str,
    source: &'static str,
    block: usize,
    n: usize,
) -> Result<Launch, String> {
    if n == 0 || !n.is_multiple_of(64) || n > 2048 {
        return Err(format!(
            "bad size {n} for {}: a multiple of 64 up to 2048",
            kernel.name()
        ));
    }
    let bytes = n * n * 4;
    let groups = (n / block) as u32;
    Ok(Launch {
        name: format!("{kind} GEMM N={n}"),
        source,
        grid: [groups, groups, 1],
        memory: gemm_memory(n),
        registers: vec![
            (0, n as u32),
            (1, 0),
            (2, bytes as u32),
            (3, 2 * bytes as u32),
        ],
        output: 2 * bytes..3 * bytes,
    })
}

fn divergence(threads: usize) -> Result<Launch, String> {
    let threads = if threads == 0 {
        DIVERGENCE_THREADS
    } else {
        threads
    };
    if !threads.is_multiple_of(DIVERGENCE_GROUP) || threads > 1 << 22 {
        return Err(format!(
            "bad size {threads} for divergence: a multiple of {DIVERGENCE_GROUP} up to {} \
             (0 for {DIVERGENCE_THREADS})",
            1 << 22
        ));
    }
    // One draw per thread that needs one, in thread order: a smaller count is a prefix of the
    // benchmark's inputs.
    let mut rng = Rng::new(0xD1_0E26);
    let mut memory: Vec<u8> = (0..threads)
        .map(|i| match i % 97 {
            0 => 0,
            1 => 1,
            2 => 27,
            _ => (rng.next_u64() >> 44) as u32 | 1 << (i % 19),
        })
        .flat_map(u32::to_le_bytes)
        .collect();
    let out = threads * 4;
    memory.resize(out + threads * 16, 0);
    Ok(Launch {
        name: format!("divergence (Collatz, {threads} threads)"),
        source: DIVERGENCE,
        grid: [(threads / DIVERGENCE_GROUP) as u32, 1, 1],
        memory,
        registers: vec![(1, 0), (2, out as u32), (3, DIVERGENCE_CAP)],
        output: out..out + threads * 16,
    })
}

/// Our machine for `launch`, its inputs in device memory, ready to run.
pub(crate) fn machine(launch: &Launch, wave_width: u32) -> Result<Machine, String> {
    let compiled = wave_engine::compile(launch.source);
    let Some(program) = compiled.program else {
        return Err(wave_engine::diagnostic::render(
            launch.source,
            &compiled.diagnostics,
        ));
    };
    let kernel = program
        .kernels
        .first()
        .ok_or_else(|| "no kernel in the source".to_string())?;
    let config = LaunchConfig {
        grid: launch.grid,
        workgroup: [1, 1, 1],
        wave_width,
        local_memory: LOCAL_MEMORY,
        device_memory: launch.memory.len() as u32,
        max_instructions: 0,
        initial_registers: launch.registers.clone(),
    };
    let mut machine = Machine::new(kernel, &config).map_err(|e| e.to_string())?;
    machine
        .device_mut()
        .bytes_mut()
        .copy_from_slice(&launch.memory);
    Ok(machine)
}

/// FNV-1a (32 bits) over `bytes`.
pub(crate) fn fnv1a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811C_9DC5u32, |h, &b| {
        (h ^ b as u32).wrapping_mul(0x0100_0193)
    })
}
