//! A seeded generator of random structured WAVE programs that stay inside the part of the ISA
//! where `wave-emu` 0.1.2 and the playground must agree bit for bit.
//!
//! What is left out, and why (the sections of docs/spec-departures.md are named in quotes):
//! - anything 0.1.2 lacks or gets wrong: r32 and up, bf16, MMA, `select`, `fcmp_ge`, `ucmp_gt/ge`,
//!   dialect forms, float immediates ("float immediates"), clamps ("clamp with crossed bounds":
//!   they panic), `atomic_cas` ("atomic CAS"), `@p0` ("@p0");
//! - the control flow where the product follows the spec instead: `break` inside an `if` ("break
//!   inside if"), `continue` ("uniform continue", "partial continue"), `halt` anywhere but the
//!   last line ("halt inside a branch", "predicated halt"), predicated structured ops ("predicated
//!   structured ops"), `call` ("call targets and labels");
//! - anything whose answer depends on how the waves of a workgroup interleave, because the
//!   playground skips instructions on an empty mask (spec §5.2) while wave-emu runs them
//!   ("skipped masked paths"), so
//!   the two schedules differ: returning atomics and plain stores only touch memory owned by one
//!   wave, shared counters get one commutative op each and are never read back before a barrier,
//!   and local memory read across waves is only read after the barrier that follows its writes;
//! - values on which the oracle (compiled in debug here) would panic on overflow: `ineg` of
//!   i32::MIN, a `wave_shuffle_down` delta near 2^32.
//!
//! The [`Profile::WaveEmu`] programs, run on a machine in `Behaviour::WaveEmu`, add the control
//! flow left out above (see `gen/wave_emu.rs`); everything else is generated as for the spec.
//!
//! Integer conversions are generated with the spec's names (`cvt_f32_i32` = i32 → f32) and
//! renamed for the oracle, whose 0.1.2 assembler has the two pairs swapped.

use super::rng::Rng;
use std::fmt::Write;

#[path = "gen/wave_emu.rs"]
mod wave_emu;

/// Which machine the programs are for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// Programs where the spec machine and wave-emu must agree (the departures left out).
    Spec,
    /// Programs for a machine that follows wave-emu, departures included.
    WaveEmu,
}

/// Device memory layout (bytes).
pub const INPUT: u32 = 0;
pub const INPUT_BYTES: u32 = 1024;
/// Input region plus 16 bytes of slack, so an unaligned u128 load at the last offset fits.
pub const OUTPUT: u32 = INPUT_BYTES + 16;
/// Registers stored per thread: r0 and r8..r31, then p0..p3 as 0/1 words.
pub const STORED_REGISTERS: [u8; 25] = [
    0, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
];
pub const OUTPUT_WORDS: u32 = STORED_REGISTERS.len() as u32 + 4;
/// Per-wave scratch (device and local): every address a wave computes stays below 80.
pub const WAVE_SCRATCH: u32 = 128;
pub const COUNTERS: u32 = 8;

/// Registers the generated code never writes outside the preamble/epilogue.
/// r1 = global thread id, r2 = 1, r3 = device scratch of this wave, r4 = local scratch of this
/// wave, r5..r7 = loop counters by loop depth.
const FIRST_FREE: u8 = 8;

#[derive(Clone, Debug)]
pub struct Layout {
    pub threads_per_group: u32,
    pub waves_per_group: u32,
    pub scratch: u32,
    pub counters: u32,
    pub local_dump: u32,
    pub device_bytes: u32,
    pub exchange: [u32; 2],
    pub local_counters: u32,
    pub local_bytes: u32,
}

impl Layout {
    pub fn new(threads_per_group: u32, wave_width: u32, groups: u32) -> Layout {
        let waves_per_group = threads_per_group.div_ceil(wave_width);
        let threads = threads_per_group * groups;
        let scratch = OUTPUT + threads * OUTPUT_WORDS * 4;
        let counters = scratch + groups * waves_per_group * WAVE_SCRATCH;
        let local_dump = counters + COUNTERS * 4;
        let device_bytes = local_dump + groups * COUNTERS * 4;
        let exchange_base = waves_per_group * WAVE_SCRATCH;
        let exchange = [exchange_base, exchange_base + threads_per_group * 4];
        let local_counters = exchange_base + 2 * threads_per_group * 4;
        Layout {
            threads_per_group,
            waves_per_group,
            scratch,
            counters,
            local_dump,
            device_bytes,
            exchange,
            local_counters,
            local_bytes: local_counters + COUNTERS * 4,
        }
    }

    /// Names the region a device byte offset falls in, for failure messages.
    pub fn describe(&self, offset: u32) -> String {
        if offset < OUTPUT {
            format!("input word {}", (offset - INPUT) / 4)
        } else if offset < self.scratch {
            let word = (offset - OUTPUT) / 4;
            let thread = word / OUTPUT_WORDS;
            let slot = word % OUTPUT_WORDS;
            let what = match STORED_REGISTERS.get(slot as usize) {
                Some(r) => format!("r{r}"),
                None => format!("p{}", slot as usize - STORED_REGISTERS.len()),
            };
            format!("output of global thread {thread}: {what}")
        } else if offset < self.counters {
            let wave = (offset - self.scratch) / WAVE_SCRATCH;
            format!(
                "device scratch of global wave {wave}, byte {}",
                (offset - self.scratch) % WAVE_SCRATCH
            )
        } else if offset < self.local_dump {
            format!("shared device counter {}", (offset - self.counters) / 4)
        } else {
            let word = (offset - self.local_dump) / 4;
            format!(
                "local counter {} dumped by workgroup {}",
                word % COUNTERS,
                word / COUNTERS
            )
        }
    }
}

/// One generated program and the launch it runs under.
#[derive(Clone, Debug)]
pub struct Case {
    pub seed: u64,
    pub source: String,
    pub grid: [u32; 3],
    pub workgroup: [u32; 3],
    pub wave_width: u32,
    pub local_memory: u32,
    pub device_memory: u32,
    pub initial_memory: Vec<u8>,
    pub initial_registers: Vec<(u8, u32)>,
    pub layout: Layout,
    pub profile: Profile,
}

impl Case {
    /// The same program spelled for wave-asm 0.1.2 (its integer cvt names are swapped).
    pub fn oracle_source(&self) -> String {
        oracle_spelling(&self.source)
    }
}

/// Swaps the integer cvt mnemonics, whose meanings are exchanged in wave-asm 0.1.2.
pub fn oracle_spelling(source: &str) -> String {
    source
        .replace("cvt_f32_i32", "@I2F@")
        .replace("cvt_i32_f32", "cvt_f32_i32")
        .replace("@I2F@", "cvt_i32_f32")
        .replace("cvt_f32_u32", "@U2F@")
        .replace("cvt_u32_f32", "cvt_f32_u32")
        .replace("@U2F@", "cvt_u32_f32")
}

const BINARY: &[&str] = &[
    "iadd", "isub", "imul", "imul_hi", "idiv", "imod", "imin", "imax", "and", "or", "xor", "shl",
    "shr", "sar", "fadd", "fsub", "fmul", "fdiv", "fmin", "fmax", "hadd", "hsub", "hmul", "hadd2",
    "hmul2",
];
const UNARY: &[&str] = &[
    "iabs",
    "not",
    "bitcount",
    "bitfind",
    "bitrev",
    "fneg",
    "fabs",
    "fsqrt",
    "frsqrt",
    "frcp",
    "ffloor",
    "fceil",
    "fround",
    "ftrunc",
    "ffract",
    "fsat",
    "fsin",
    "fcos",
    "fexp2",
    "flog2",
    "cvt_f32_f16",
    "cvt_f16_f32",
    "cvt_f32_i32",
    "cvt_f32_u32",
    "cvt_i32_f32",
    "cvt_u32_f32",
    "mov",
];
const TERNARY: &[&str] = &["imad", "fma", "hma", "hma2", "bfe"];
const PAIR_BINARY: &[&str] = &["dadd", "dsub", "dmul", "ddiv"];
const COMPARES: &[&str] = &[
    "icmp_eq",
    "icmp_ne",
    "icmp_lt",
    "icmp_le",
    "icmp_gt",
    "icmp_ge",
    "ucmp_lt",
    "ucmp_le",
    "fcmp_eq",
    "fcmp_ne",
    "fcmp_lt",
    "fcmp_le",
    "fcmp_gt",
    "fcmp_ord",
    "fcmp_unord",
];
const SPECIALS: &[&str] = &[
    "sr_thread_id_x",
    "sr_thread_id_y",
    "sr_thread_id_z",
    "sr_wave_id",
    "sr_lane_id",
    "sr_workgroup_id_x",
    "sr_workgroup_id_y",
    "sr_workgroup_id_z",
    "sr_workgroup_size_x",
    "sr_workgroup_size_y",
    "sr_workgroup_size_z",
    "sr_grid_size_x",
    "sr_grid_size_y",
    "sr_grid_size_z",
    "sr_wave_width",
    "sr_num_waves",
];
const ATOMIC_OPS: &[&str] = &["add", "sub", "min", "max", "and", "or", "xor", "exchange"];
/// Ops whose final value does not depend on the order the lanes/waves apply them in.
const COMMUTATIVE_OPS: &[&str] = &["add", "sub", "min", "max", "and", "or", "xor"];
const SCOPES: &[&str] = &[".wave", ".workgroup", ".device", ".system", "device"];
const WAVE_SHUFFLES: &[&str] = &[
    "wave_shuffle",
    "wave_shuffle_up",
    "wave_shuffle_down",
    "wave_shuffle_xor",
    "wave_broadcast",
];
const WAVE_REDUCTIONS: &[&str] = &[
    "wave_prefix_sum",
    "wave_reduce_add",
    "wave_reduce_min",
    "wave_reduce_max",
];
/// f32 bit patterns worth having around: ±0, ±1, ±inf, NaNs, denormals, halves, big values.
const FLOAT_BITS: &[u32] = &[
    0x0000_0000,
    0x8000_0000,
    0x3f80_0000,
    0xbf80_0000,
    0x3f00_0000,
    0x4020_0000,
    0xc020_0000,
    0x4049_0fdb,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0xffc0_0001,
    0x0000_0001,
    0x807f_ffff,
    0x4b00_0000,
    0x4f00_0000,
    0xcf00_0000,
    0x3eff_ffff,
    0x7f7f_ffff,
    0x4780_0000,
    0x3c00_3c00,
    0x7bff_0001,
];

struct Gen {
    rng: Rng,
    out: String,
    layout: Layout,
    /// The op each shared device counter gets (one op per address keeps the result order-free).
    device_counter_ops: [&'static str; COUNTERS as usize],
    local_counter_ops: [&'static str; COUNTERS as usize],
    barriers_left: usize,
    budget: i32,
    indent: usize,
    profile: Profile,
    /// `Profile::WaveEmu`: inside the part of a loop body before its exit `break`, where a
    /// `continue` still finds lanes that have not broken.
    before_exit: bool,
}

/// A program for the spec machine.
pub fn generate(seed: u64) -> Case {
    generate_for(seed, Profile::Spec)
}

pub fn generate_for(seed: u64, profile: Profile) -> Case {
    let mut rng = Rng::new(seed);
    let wave_width = if rng.chance(80) {
        *rng.pick(&[1, 4, 8, 32])
    } else {
        *rng.pick(&[2, 3, 5, 7, 16, 64])
    };
    let max_waves = if wave_width == 1 { 12 } else { 4 };
    let waves = rng.range(1, max_waves);
    let threads = if rng.chance(70) {
        // Often a partial last wave.
        rng.range((waves - 1) * wave_width + 1, waves * wave_width)
    } else {
        waves * wave_width
    };
    let workgroup = shape(&mut rng, threads);
    let grid = *rng.pick(&[
        [1, 1, 1],
        [1, 1, 1],
        [2, 1, 1],
        [3, 1, 1],
        [1, 2, 1],
        [2, 1, 2],
        [1, 1, 2],
    ]);
    let groups = grid.iter().product::<u32>();
    let layout = Layout::new(threads, wave_width, groups);

    let mut initial_memory = vec![0u8; (layout.device_bytes + rng.below(4) * 4) as usize];
    for word in initial_memory[..INPUT_BYTES as usize].chunks_mut(4) {
        let value = if rng.chance(30) {
            *rng.pick(FLOAT_BITS)
        } else if rng.chance(30) {
            rng.below(64)
        } else {
            rng.next_u32()
        };
        word.copy_from_slice(&value.to_le_bytes());
    }
    for byte in &mut initial_memory[layout.counters as usize..layout.local_dump as usize] {
        *byte = rng.next_u32() as u8;
    }

    let mut initial_registers = Vec::new();
    if rng.chance(25) {
        for _ in 0..rng.range(1, 3) {
            initial_registers.push((rng.range(8, 31) as u8, rng.next_u32()));
        }
    }

    let mut gen = Gen {
        device_counter_ops: [""; COUNTERS as usize].map(|_| *rng.pick(COMMUTATIVE_OPS)),
        local_counter_ops: [""; COUNTERS as usize].map(|_| *rng.pick(COMMUTATIVE_OPS)),
        barriers_left: 2,
        budget: rng.range(8, 40) as i32,
        rng,
        out: String::new(),
        layout: layout.clone(),
        indent: 1,
        profile,
        before_exit: false,
    };
    // The directive forms go in the source some of the time; the launch says the rest.
    let mut config_workgroup = workgroup;
    let mut config_local = layout.local_bytes + gen.rng.below(3) * 64;
    writeln!(gen.out, "; generated differential case, seed {seed:#x}").unwrap();
    writeln!(gen.out, ".kernel fuzzed").unwrap();
    if gen.rng.chance(15) {
        writeln!(gen.out, ".registers 32").unwrap();
    }
    if gen.rng.chance(15) {
        writeln!(
            gen.out,
            ".workgroup_size {}, {}, {}",
            workgroup[0], workgroup[1], workgroup[2]
        )
        .unwrap();
        config_workgroup = [gen.rng.range(1, 40), 1, 1];
    }
    if gen.rng.chance(20) {
        writeln!(gen.out, ".local_memory {}", layout.local_bytes).unwrap();
        config_local = gen.rng.range(1, 64);
    }
    gen.preamble();
    gen.block(0, 0, false);
    gen.epilogue();
    writeln!(gen.out, ".end").unwrap();

    Case {
        seed,
        source: gen.out,
        grid,
        workgroup: config_workgroup,
        wave_width,
        local_memory: config_local,
        device_memory: initial_memory.len() as u32,
        initial_memory,
        initial_registers,
        layout,
        profile,
    }
}

/// A workgroup shape with `threads` threads: mostly 1-D, sometimes 2-D or 3-D.
fn shape(rng: &mut Rng, threads: u32) -> [u32; 3] {
    let divisors: Vec<u32> = (1..=threads)
        .filter(|d| threads.is_multiple_of(*d))
        .collect();
    match rng.below(4) {
        0 | 1 => [threads, 1, 1],
        2 => {
            let x = *rng.pick(&divisors);
            [x, threads / x, 1]
        }
        _ => {
            let x = *rng.pick(&divisors);
            let rest = threads / x;
            let ys: Vec<u32> = (1..=rest).filter(|d| rest.is_multiple_of(*d)).collect();
            let y = *rng.pick(&ys);
            [x, y, rest / y]
        }
    }
}

impl Gen {
    fn line(&mut self, text: &str) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    /// A register the random code may overwrite: r8..r31, now and then r0.
    fn dst(&mut self) -> u8 {
        if self.rng.chance(4) {
            0
        } else {
            self.rng.range(u32::from(FIRST_FREE), 31) as u8
        }
    }

    /// A destination whose next `extra` registers are free too (pairs, quads).
    fn dst_wide(&mut self, extra: u32) -> u8 {
        self.rng.range(u32::from(FIRST_FREE), 31 - extra) as u8
    }

    /// Any register, mostly the data registers.
    fn src(&mut self) -> u8 {
        if self.rng.chance(85) {
            self.rng.range(u32::from(FIRST_FREE), 31) as u8
        } else {
            self.rng.range(0, 7) as u8
        }
    }

    /// A source whose next `extra` registers exist too (our front end rejects a pair that runs
    /// past r31 when `.registers` is 32; wave-emu would read zeros there).
    fn src_wide(&mut self, extra: u32) -> u8 {
        self.rng.range(0, 31 - extra) as u8
    }

    /// A free register other than the ones listed.
    fn temp(&mut self, avoid: &[u8]) -> u8 {
        loop {
            let r = self.rng.range(u32::from(FIRST_FREE), 31) as u8;
            if !avoid.contains(&r) {
                return r;
            }
        }
    }

    fn pred(&mut self) -> u8 {
        self.rng.below(4) as u8
    }

    /// An optional `@pN`/`@!pN` guard for a plain (non-structured) instruction. Never `@p0` for
    /// the spec profile.
    fn guard(&mut self) -> String {
        if self.profile == Profile::WaveEmu {
            return wave_emu::guard(self);
        }
        if !self.rng.chance(15) {
            return String::new();
        }
        if self.rng.chance(50) {
            format!("@p{} ", self.rng.range(1, 3))
        } else {
            format!("@!p{} ", self.pred())
        }
    }

    fn immediate(&mut self) -> String {
        match self.rng.below(6) {
            0 => format!("{}", self.rng.below(16)),
            1 => format!("-{}", self.rng.range(1, 1000)),
            2 => format!("{:#x}", self.rng.pick(FLOAT_BITS)),
            3 => {
                let v = self.rng.next_u32();
                format!("0x{:04x}_{:04x}", v >> 16, v & 0xffff)
            }
            4 => format!("{}", self.rng.next_u32()),
            _ => format!("{:#x}", self.rng.below(1 << 12)),
        }
    }

    /// `rT = rX & mask`, for indexes and offsets; returns rT.
    fn masked(&mut self, mask: u32, avoid: &[u8]) -> u8 {
        let x = self.src();
        let m = self.temp(&[avoid, &[x]].concat());
        let t = self.temp(&[avoid, &[m]].concat());
        self.line(&format!("mov_imm r{m}, {mask:#x}"));
        self.line(&format!("and r{t}, r{x}, r{m}"));
        t
    }

    /// `rT = base + (rX & mask)`, with base in register `base`; returns rT.
    fn address(&mut self, base: u8, mask: u32, avoid: &[u8]) -> u8 {
        let t = self.masked(mask, avoid);
        self.line(&format!("iadd r{t}, r{t}, r{base}"));
        t
    }

    fn preamble(&mut self) {
        let l = self.layout.clone();
        let lines = [
            "mov_imm r2, 1".to_string(),
            "mov_sr r8, sr_workgroup_id_z".into(),
            "mov_sr r9, sr_grid_size_y".into(),
            "imul r8, r8, r9".into(),
            "mov r9, sr_workgroup_id_y".into(),
            "iadd r8, r8, r9".into(),
            "mov_sr r9, sr_grid_size_x".into(),
            "imul r8, r8, r9".into(),
            "mov_sr r9, sr_workgroup_id_x".into(),
            "iadd r8, r8, r9          ; r8 = linear workgroup id".into(),
            "mov_sr r9, sr_num_waves".into(),
            "imul r10, r8, r9".into(),
            "mov_sr r9, sr_wave_id".into(),
            "iadd r10, r10, r9        ; r10 = global wave id".into(),
            format!("mov_imm r9, {WAVE_SCRATCH}"),
            "imul r3, r10, r9".into(),
            format!("mov_imm r9, {}", l.scratch),
            "iadd r3, r3, r9          ; r3 = this wave's device scratch".into(),
            "mov_sr r9, sr_wave_id".into(),
            format!("mov_imm r4, {WAVE_SCRATCH}"),
            "imul r4, r4, r9          ; r4 = this wave's local scratch".into(),
            format!("mov_imm r9, {}", l.threads_per_group),
            "imul r1, r8, r9".into(),
            "mov_sr r9, sr_wave_id".into(),
            "mov_sr r10, sr_wave_width".into(),
            "imul r9, r9, r10".into(),
            "iadd r1, r1, r9".into(),
            "mov_sr r9, sr_lane_id".into(),
            "iadd r1, r1, r9          ; r1 = global thread id".into(),
        ];
        for line in lines {
            self.line(&line);
        }
        // Lane-dependent starting values for the data registers.
        for r in FIRST_FREE..=31 {
            match self.rng.below(10) {
                0 => {} // keep the initial value (0 or a --set-reg value)
                1 | 2 => {
                    let sr = *self.rng.pick(SPECIALS);
                    self.line(&format!("mov_sr r{r}, {sr}"));
                }
                3 => {
                    let imm = self.immediate();
                    self.line(&format!("mov_imm r{r}, {imm}"));
                }
                4 => {
                    self.line(&format!("mov_sr r{r}, sr_lane_id"));
                    self.line(&format!("cvt_f32_u32 r{r}, r{r}"));
                }
                _ => {
                    // r = input[(gtid * a + b) & 255]
                    let a = self.rng.range(1, 9);
                    let b = self.rng.below(256);
                    self.line(&format!("mov_imm r{r}, {a}"));
                    self.line(&format!("imul r{r}, r{r}, r1"));
                    self.line(&format!("mov_imm r5, {b}"));
                    self.line(&format!("iadd r{r}, r{r}, r5"));
                    self.line("mov_imm r5, 255");
                    self.line(&format!("and r{r}, r{r}, r5"));
                    self.line("mov_imm r5, 2");
                    self.line(&format!("shl r{r}, r{r}, r5"));
                    self.line(&format!("device_load_u32 r{r}, r{r}"));
                }
            }
        }
    }

    /// A sequence of statements. `direct_loop` is true for the body of a loop itself (where a
    /// `break` may go), false inside an `if` or at top level.
    fn block(&mut self, depth: u32, loop_depth: u32, direct_loop: bool) {
        let count = if depth == 0 {
            i32::MAX
        } else {
            self.rng.range(1, 6) as i32
        };
        let mut done = 0;
        while done < count && self.budget > 0 {
            self.budget -= 1;
            done += 1;
            self.statement(depth, loop_depth, direct_loop);
        }
    }

    fn statement(&mut self, depth: u32, loop_depth: u32, direct_loop: bool) {
        if self.profile == Profile::WaveEmu && wave_emu::statement(self, depth, loop_depth) {
            return;
        }
        let roll = self.rng.below(100);
        match roll {
            0..=29 => self.alu(),
            30..=37 => self.compare(),
            38..=45 => self.wave_op(),
            46..=55 => self.memory(),
            56..=63 => self.atomic(),
            64..=73 if depth < 4 => self.if_else(depth, loop_depth),
            74..=80 if depth < 4 && loop_depth < 3 => self.looped(depth, loop_depth),
            81..=85 if direct_loop => {
                let p = self.pred();
                self.line(&format!("break p{p}"));
            }
            86..=88 if depth == 0 && self.barriers_left > 0 => self.exchange(),
            89..=90 => self.line("nop"),
            _ => self.alu(),
        }
    }

    fn alu(&mut self) {
        let guard = self.guard();
        match self.rng.below(21) {
            0..=8 => {
                let op = *self.rng.pick(BINARY);
                let (d, a, b) = (self.dst(), self.src(), self.src());
                self.line(&format!("{guard}{op} r{d}, r{a}, r{b}"));
            }
            9..=12 => {
                let op = *self.rng.pick(UNARY);
                let (d, a) = (self.dst(), self.src());
                self.line(&format!("{guard}{op} r{d}, r{a}"));
            }
            13..=14 => {
                let op = *self.rng.pick(TERNARY);
                let (d, a, b, c) = (self.dst(), self.src(), self.src(), self.src());
                self.line(&format!("{guard}{op} r{d}, r{a}, r{b}, r{c}"));
            }
            15 => {
                let (d, a, b, c, e) = (self.dst(), self.src(), self.src(), self.src(), self.src());
                self.line(&format!("{guard}bfi r{d}, r{a}, r{b}, r{c}, r{e}"));
            }
            16 => {
                // ineg, kept away from i32::MIN (the debug-built oracle panics there).
                let t = self.masked(0x7fff_ffff, &[]);
                let d = self.dst();
                self.line(&format!("{guard}ineg r{d}, r{t}"));
            }
            17 | 20 => {
                let d = self.dst_wide(1);
                match self.rng.below(5) {
                    0 | 1 => {
                        let op = *self.rng.pick(PAIR_BINARY);
                        let (a, b) = (self.src_wide(1), self.src_wide(1));
                        self.line(&format!("{guard}{op} r{d}, r{a}, r{b}"));
                    }
                    2 => {
                        let (a, b, c) = (self.src_wide(1), self.src_wide(1), self.src_wide(1));
                        self.line(&format!("{guard}dma r{d}, r{a}, r{b}, r{c}"));
                    }
                    3 => {
                        let a = self.src_wide(1);
                        self.line(&format!("{guard}dsqrt r{d}, r{a}"));
                    }
                    _ => {
                        let a = self.src_wide(1);
                        let op = if self.rng.chance(50) {
                            "cvt_f64_f32"
                        } else {
                            "cvt_f32_f64"
                        };
                        self.line(&format!("{guard}{op} r{d}, r{a}"));
                    }
                }
            }
            18 => {
                let d = self.dst();
                let sr = *self.rng.pick(SPECIALS);
                self.line(&format!("{guard}mov_sr r{d}, {sr}"));
            }
            _ => {
                let d = self.dst();
                let imm = self.immediate();
                self.line(&format!("{guard}mov_imm r{d}, {imm}"));
            }
        }
    }

    fn compare(&mut self) {
        let guard = self.guard();
        let op = *self.rng.pick(COMPARES);
        let (p, a, b) = (self.pred(), self.src(), self.src());
        self.line(&format!("{guard}{op} p{p}, r{a}, r{b}"));
    }

    fn wave_op(&mut self) {
        let guard = self.guard();
        match self.rng.below(10) {
            0..=4 => {
                let op = *self.rng.pick(WAVE_SHUFFLES);
                let index = if op == "wave_shuffle_down" || self.rng.chance(75) {
                    let mask = *self.rng.pick(&[1, 3, 7, 31, 63]);
                    self.masked(mask, &[])
                } else {
                    self.src()
                };
                let (d, s) = (self.dst(), self.src());
                self.line(&format!("{guard}{op} r{d}, r{s}, r{index}"));
            }
            5 => {
                let (d, p) = (self.dst(), self.pred());
                self.line(&format!("{guard}wave_ballot r{d}, p{p}"));
            }
            6 => {
                let op = if self.rng.chance(50) {
                    "wave_any"
                } else {
                    "wave_all"
                };
                let (d, s) = (self.pred(), self.pred());
                self.line(&format!("{guard}{op} p{d}, p{s}"));
            }
            _ => {
                let op = *self.rng.pick(WAVE_REDUCTIONS);
                let (d, s) = (self.dst(), self.src());
                self.line(&format!("{guard}{op} r{d}, r{s}"));
            }
        }
    }

    fn memory(&mut self) {
        let guard = self.guard();
        let aligned = self.rng.chance(70);
        match self.rng.below(5) {
            0 | 1 => {
                // Read-only input, any width, any alignment.
                let (width, extra) =
                    *self
                        .rng
                        .pick(&[("u8", 0), ("u16", 0), ("u32", 0), ("u64", 1), ("u128", 3)]);
                let mask = if aligned { 0x3f0 } else { 0x3ff };
                let a = self.masked(mask, &[]);
                let d = self.dst_wide(extra);
                self.line(&format!("{guard}device_load_{width} r{d}, r{a}"));
            }
            2 => {
                // This wave's device scratch.
                let (width, extra) =
                    *self
                        .rng
                        .pick(&[("u8", 0), ("u16", 0), ("u32", 0), ("u64", 1), ("u128", 3)]);
                let mask = if aligned { 0x30 } else { 0x3f };
                let a = self.address(3, mask, &[]);
                if self.rng.chance(50) {
                    let v = self.rng.range(u32::from(FIRST_FREE), 31 - extra);
                    self.line(&format!("{guard}device_store_{width} r{a}, r{v}"));
                } else {
                    let d = self.dst_wide(extra);
                    self.line(&format!("{guard}device_load_{width} r{d}, r{a}"));
                }
            }
            _ => {
                // This wave's local scratch.
                let (width, extra) =
                    *self
                        .rng
                        .pick(&[("u8", 0), ("u16", 0), ("u32", 0), ("u32", 0), ("u64", 1)]);
                let mask = if aligned { 0x38 } else { 0x3f };
                let a = self.address(4, mask, &[]);
                if self.rng.chance(50) {
                    let v = self.rng.range(u32::from(FIRST_FREE), 31 - extra);
                    self.line(&format!("{guard}local_store_{width} r{a}, r{v}"));
                } else {
                    let d = self.dst_wide(extra);
                    self.line(&format!("{guard}local_load_{width} r{d}, r{a}"));
                }
            }
        }
    }

    fn atomic(&mut self) {
        let guard = self.guard();
        let value = self.src();
        match self.rng.below(4) {
            0 => {
                // Shared device counter: non-returning, its one op.
                let k = self.rng.below(COUNTERS);
                let op = self.device_counter_ops[k as usize];
                let a = self.temp(&[value]);
                let scope = *self.rng.pick(SCOPES);
                self.line(&format!("mov_imm r{a}, {}", self.layout.counters + 4 * k));
                let rd = if self.rng.chance(20) { "r0, " } else { "" };
                self.line(&format!("{guard}atomic_{op} {rd}r{a}, r{value}, {scope}"));
            }
            1 => {
                let k = self.rng.below(COUNTERS);
                let op = self.local_counter_ops[k as usize];
                let a = self.temp(&[value]);
                self.line(&format!(
                    "mov_imm r{a}, {}",
                    self.layout.local_counters + 4 * k
                ));
                let rd = if self.rng.chance(20) { "r0, " } else { "" };
                self.line(&format!("{guard}local_atomic_{op} {rd}r{a}, r{value}"));
            }
            2 => {
                // This wave's device scratch: any op, returning or not.
                let op = *self.rng.pick(ATOMIC_OPS);
                let a = self.address(3, 0x3c, &[value]);
                let scope = *self.rng.pick(SCOPES);
                if self.rng.chance(70) {
                    let d = self.dst();
                    self.line(&format!("{guard}atomic_{op} r{d}, r{a}, r{value}, {scope}"));
                } else {
                    self.line(&format!("{guard}atomic_{op} r{a}, r{value}, {scope}"));
                }
            }
            _ => {
                let op = *self.rng.pick(ATOMIC_OPS);
                let a = self.address(4, 0x3c, &[value]);
                if self.rng.chance(70) {
                    let d = self.dst();
                    self.line(&format!("{guard}local_atomic_{op} r{d}, r{a}, r{value}"));
                } else {
                    self.line(&format!("{guard}local_atomic_{op} r{a}, r{value}"));
                }
            }
        }
    }

    fn if_else(&mut self, depth: u32, loop_depth: u32) {
        if self.rng.chance(70) {
            self.compare();
        }
        let p = self.pred();
        self.line(&format!("if p{p}"));
        self.indent += 1;
        self.block(depth + 1, loop_depth, false);
        self.indent -= 1;
        if self.rng.chance(60) {
            self.line("else");
            self.indent += 1;
            self.block(depth + 1, loop_depth, false);
            self.indent -= 1;
        }
        self.line("endif");
    }

    /// A loop that every lane leaves within a few iterations: a per-depth counter register,
    /// bumped at the top of the body, and a `break` once it exceeds a small lane-dependent limit.
    fn looped(&mut self, depth: u32, loop_depth: u32) {
        let counter = 5 + loop_depth as u8;
        let limit_mask = if loop_depth == 0 { 3 } else { 1 };
        self.line(&format!("mov_imm r{counter}, 0"));
        self.line("loop");
        self.indent += 1;
        self.line(&format!("iadd r{counter}, r{counter}, r2"));
        let before = self.rng.below(3) as i32;
        let outer_before_exit = std::mem::replace(&mut self.before_exit, true);
        for _ in 0..before {
            if self.budget <= 0 {
                break;
            }
            self.budget -= 1;
            self.statement(depth + 1, loop_depth + 1, true);
        }
        self.before_exit = false;
        let limit = self.masked(limit_mask, &[]);
        let p = self.pred();
        self.line(&format!("icmp_gt p{p}, r{counter}, r{limit}"));
        self.line(&format!("break p{p}"));
        self.block(depth + 1, loop_depth + 1, true);
        self.before_exit = outer_before_exit;
        self.indent -= 1;
        self.line("endloop");
    }

    /// Top level only: every thread writes its slot of an exchange area of local memory, a
    /// barrier, then every thread reads a neighbour's slot (possibly in another wave).
    fn exchange(&mut self) {
        let k = 2 - self.barriers_left;
        self.barriers_left -= 1;
        let area = self.layout.exchange[k];
        let n = self.layout.threads_per_group;
        let v = self.temp(&[]);
        let shift = self.rng.below(n.max(1));
        let t = self.temp(&[v]);
        let u = self.temp(&[v, t]);
        let w = self.temp(&[v, t, u]);
        self.line("; exchange through local memory");
        for line in [
            format!("mov_sr r{t}, sr_wave_id"),
            format!("mov_sr r{u}, sr_wave_width"),
            format!("imul r{t}, r{t}, r{u}"),
            format!("mov_sr r{u}, sr_lane_id"),
            format!("iadd r{t}, r{t}, r{u}"),
            format!("mov_imm r{u}, 4"),
            format!("imul r{u}, r{t}, r{u}"),
            format!("mov_imm r{w}, {area}"),
            format!("iadd r{u}, r{u}, r{w}"),
            format!("local_store_u32 r{u}, r{v}"),
            "barrier".to_string(),
            format!("mov_imm r{u}, {shift}"),
            format!("iadd r{t}, r{t}, r{u}"),
            format!("mov_imm r{u}, {n}"),
            format!("imod r{t}, r{t}, r{u}"),
            format!("mov_imm r{u}, 4"),
            format!("imul r{t}, r{t}, r{u}"),
            format!("mov_imm r{u}, {area}"),
            format!("iadd r{t}, r{t}, r{u}"),
            format!("local_load_u32 r{v}, r{t}"),
        ] {
            self.line(&line);
        }
    }

    fn epilogue(&mut self) {
        let l = self.layout.clone();
        self.line("; every thread stores its registers and predicates to its own slots");
        self.line(&format!("mov_imm r6, {}", OUTPUT_WORDS * 4));
        self.line("imul r5, r1, r6");
        self.line(&format!("mov_imm r6, {OUTPUT}"));
        self.line("iadd r5, r5, r6");
        self.line("mov_imm r6, 4");
        for r in STORED_REGISTERS {
            self.line(&format!("device_store_u32 r5, r{r}"));
            self.line("iadd r5, r5, r6");
        }
        for p in 0..4 {
            self.line("mov_imm r7, 1");
            self.line(&format!("@!p{p} mov_imm r7, 0"));
            self.line("device_store_u32 r5, r7");
            self.line("iadd r5, r5, r6");
        }
        self.line("; the first thread of each workgroup dumps the local counters");
        self.line("barrier");
        for line in [
            "mov_sr r7, sr_wave_id".to_string(),
            "mov_sr r6, sr_lane_id".into(),
            "or r7, r7, r6".into(),
            "mov_imm r6, 0".into(),
            "icmp_eq p1, r7, r6".into(),
            format!("mov_imm r6, {}", l.threads_per_group),
            "idiv r7, r1, r6".into(),
            format!("mov_imm r6, {}", COUNTERS * 4),
            "imul r7, r7, r6".into(),
            format!("mov_imm r5, {}", l.local_dump),
            "iadd r5, r5, r7".into(),
        ] {
            self.line(&line);
        }
        for k in 0..COUNTERS {
            self.line(&format!("mov_imm r6, {}", l.local_counters + 4 * k));
            self.line("local_load_u32 r7, r6");
            self.line("@p1 device_store_u32 r5, r7");
            self.line("mov_imm r6, 4");
            self.line("iadd r5, r5, r6");
        }
        self.line("halt");
    }
}
