//! One instruction of one wave: the interpreter's single `match`.

use super::control;
use super::cpu::Avx2Fma;
use super::event::EventSink;
#[cfg(target_arch = "x86_64")]
use super::full_wave_load;
use super::lanes::{
    self, compare, map1, map2, map3, map4, pair, set_pair, set_predicate, write_masked,
};
use super::memory::Memory;
use super::memory_ops::{self, LaneFault};
use super::mma;
use super::trap::{MemorySpace, TrapKind};
#[cfg(target_arch = "x86_64")]
use super::wave::lanes_mask;
use super::wave::{Wave, WaveStatus};
use super::wave_ops;
use crate::instr::{flags, Guard, Instr, Op, SpecialRegister};
use crate::numeric::{convert, fp64};

/// What an instruction can see besides its own wave.
pub(super) struct Env<'a> {
    pub device: &'a mut Memory,
    pub local: &'a mut Memory,
    pub workgroup_id: [u32; 3],
    pub workgroup_size: [u32; 3],
    pub grid_size: [u32; 3],
    pub num_waves: u32,
    /// Set when the machine runs its loop compiled for AVX2 and FMA (x86-64 CPUs that have them):
    /// `fma` uses the CPU's fused multiply-add and full-wave loads its gathers; otherwise both
    /// take their portable paths, as in wasm.
    pub avx2_fma: Option<Avx2Fma>,
    /// What this run adds to the machine's [`super::stats::ReferenceCounts`] (merged when the
    /// run returns).
    pub counts: super::stats::ReferenceCounts,
}

/// A fault raised by one instruction, before workgroup/wave/pc are attached.
pub(super) struct Fault {
    pub kind: TrapKind,
    pub lane: Option<u32>,
}

impl From<TrapKind> for Fault {
    fn from(kind: TrapKind) -> Self {
        Fault { kind, lane: None }
    }
}

impl From<LaneFault> for Fault {
    fn from(f: LaneFault) -> Self {
        Fault {
            kind: f.kind,
            lane: Some(f.lane),
        }
    }
}

fn special_register(wave: &Wave, env: &Env, sr: u8, lane: usize) -> u32 {
    let thread = wave.first_thread + lane as u32;
    let [sx, sy, _] = env.workgroup_size;
    let plane = sx.saturating_mul(sy).max(1);
    match sr {
        x if x == SpecialRegister::ThreadIdX as u8 => thread % sx.max(1),
        x if x == SpecialRegister::ThreadIdY as u8 => (thread / sx.max(1)) % sy.max(1),
        x if x == SpecialRegister::ThreadIdZ as u8 => thread / plane,
        x if x == SpecialRegister::WaveId as u8 => wave.id,
        x if x == SpecialRegister::LaneId as u8 => lane as u32,
        x if x == SpecialRegister::WorkgroupIdX as u8 => env.workgroup_id[0],
        x if x == SpecialRegister::WorkgroupIdY as u8 => env.workgroup_id[1],
        x if x == SpecialRegister::WorkgroupIdZ as u8 => env.workgroup_id[2],
        x if x == SpecialRegister::WorkgroupSizeX as u8 => env.workgroup_size[0],
        x if x == SpecialRegister::WorkgroupSizeY as u8 => env.workgroup_size[1],
        x if x == SpecialRegister::WorkgroupSizeZ as u8 => env.workgroup_size[2],
        x if x == SpecialRegister::GridSizeX as u8 => env.grid_size[0],
        x if x == SpecialRegister::GridSizeY as u8 => env.grid_size[1],
        x if x == SpecialRegister::GridSizeZ as u8 => env.grid_size[2],
        x if x == SpecialRegister::WaveWidth as u8 => wave.width,
        x if x == SpecialRegister::NumWaves as u8 => env.num_waves,
        x if x == SpecialRegister::MmaSupported as u8 => 1,
        x if x == SpecialRegister::MmaM as u8
            || x == SpecialRegister::MmaN as u8
            || x == SpecialRegister::MmaK as u8 =>
        {
            4
        }
        _ => 0,
    }
}

/// Special register `sr` across the wave's lanes (lanes past the width: 0). Thread ids are walked
/// lane by lane from lane 0's, with no division per lane: `mov_sr` of a thread id sits in most
/// kernels' address arithmetic, inner loops included.
fn special_register_row(wave: &Wave, env: &Env, sr: u8) -> lanes::Row {
    let width = wave.width as usize;
    let mut row = lanes::Row::splat(0);
    let axis = [
        SpecialRegister::ThreadIdX,
        SpecialRegister::ThreadIdY,
        SpecialRegister::ThreadIdZ,
    ]
    .iter()
    .position(|&id| id as u8 == sr);
    let [sx, sy, _] = env.workgroup_size;
    let (sx, sy) = (sx.max(1), sy.max(1));
    match axis {
        Some(axis) if sx.checked_mul(sy).is_some() => {
            let thread = wave.first_thread;
            let mut id = [thread % sx, (thread / sx) % sy, thread / (sx * sy)];
            for slot in row.iter_mut().take(width) {
                *slot = id[axis];
                id[0] += 1;
                if id[0] == sx {
                    id[0] = 0;
                    id[1] += 1;
                    if id[1] == sy {
                        id[1] = 0;
                        id[2] += 1;
                    }
                }
            }
        }
        _ if axis.is_some() || sr == SpecialRegister::LaneId as u8 => {
            for (lane, slot) in row.iter_mut().enumerate().take(width) {
                *slot = special_register(wave, env, sr, lane);
            }
        }
        // The same for every lane.
        _ => row[..width].fill(special_register(wave, env, sr, 0)),
    }
    row
}

fn predicate_logic(wave: &mut Wave, instr: &Instr, mask: u64) {
    let read = |p: u8, negate: bool| {
        let bits = wave.predicates[p as usize & 3];
        if negate {
            !bits
        } else {
            bits
        }
    };
    let a = read(instr.a, instr.flags & flags::NEGATE_A != 0);
    let b = read(instr.b, instr.flags & flags::NEGATE_B != 0);
    let result = match instr.op {
        Op::PAnd => a & b,
        Op::POr => a | b,
        Op::PXor => a ^ b,
        _ => !a,
    };
    set_predicate(wave, instr.dst, mask, |lane| result >> lane & 1 != 0);
}

#[inline(always)]
fn memory_space(local: bool) -> MemorySpace {
    if local {
        MemorySpace::Local
    } else {
        MemorySpace::Device
    }
}

/// The memory a load reads (local or device) and its name in a fault.
#[inline(always)]
fn memory_to_read<'e>(env: &'e Env, local: bool) -> (&'e Memory, MemorySpace) {
    let memory = if local { &*env.local } else { &*env.device };
    (memory, memory_space(local))
}

/// `$each::<WORDS>(args)` for a load of `$words` words (1, 2 or 4; anything else is 4).
macro_rules! by_words {
    ($words:expr, $each:ident($($arg:expr),*)) => {
        match $words {
            1 => $each::<1>($($arg),*),
            2 => $each::<2>($($arg),*),
            _ => $each::<4>($($arg),*),
        }
    };
}

/// f64 ops on register pairs (a pair's bits as one `u64`, see [`fp64::join`]).
fn exec_f64(wave: &mut Wave, instr: &Instr, mask: u64) {
    for lane in lanes::each_lane(mask) {
        let a = pair(wave, instr.a, lane);
        let b = pair(wave, instr.b, lane);
        let c = pair(wave, instr.c, lane);
        let result = match instr.op {
            Op::DAdd => fp64::dadd(a, b),
            Op::DSub => fp64::dsub(a, b),
            Op::DMul => fp64::dmul(a, b),
            Op::DDiv => fp64::ddiv(a, b),
            Op::Dma => fp64::dma(a, b, c),
            _ => fp64::dsqrt(a),
        };
        set_pair(wave, instr.dst, lane, result);
    }
}

/// `dispatch!`'s `match`: an arm `$run!(wave, mask, instr, env => kind(wave, instr, mask, f))`
/// for each op of the `lanes` projection of the table of operations (`kind` is the lane loop of
/// [`lanes`], `f` the op's numeric function), then the `$arms` written by hand.
macro_rules! lanes_arms {
    (($op:expr, $run:ident, { $($arms:tt)* }) [$( $variant:ident $kind:ident $function:path; )*]) => {
        match $op {
            $( Op::$variant => $run!(wave, mask, instr, env => $kind(wave, instr, mask, $function)), )*
            $($arms)*
        }
    };
}

/// The instructions that read and write only their own wave's registers and predicates (no
/// memory, no control flow, no status change), as match arms over `$op` followed by `$other` arms.
/// Each arm is `$run!(wave, mask, instr, env => body)`: `$run` binds the four names and evaluates
/// `body` — once for one wave ([`step`]), or for each wave of a lockstep group ([`step_group`]).
/// The arms exist once, so the two paths cannot disagree. The arms of the ops that are one
/// numeric function lane by lane come from the table of operations (`lanes_arms!`); the others
/// are written here.
macro_rules! dispatch {
    ($op:expr, $run:ident, { $($other:tt)* }) => {
        crate::ops::for_each_op!(lanes => lanes_arms($op, $run, {
            Op::Fma => $run!(wave, mask, instr, env => lanes::fma_run(std::slice::from_mut(wave), std::slice::from_ref(instr), env.avx2_fma)),
            Op::DAdd | Op::DSub | Op::DMul | Op::DDiv | Op::Dma | Op::DSqrt => $run!(wave, mask, instr, env => exec_f64(wave, instr, mask)),
            Op::PAnd | Op::POr | Op::PXor | Op::PNot => $run!(wave, mask, instr, env => predicate_logic(wave, instr, mask)),
            Op::Select => $run!(wave, mask, instr, env => {
                let p = wave.predicates[instr.a as usize & 3];
                let on_true = lanes::src_b(wave, instr);
                let on_false = lanes::src_c(wave, instr);
                write_masked(wave, instr.dst, mask, |l| {
                    if p >> l & 1 != 0 {
                        on_true[l]
                    } else {
                        on_false[l]
                    }
                });
            }),
            Op::CvtF32F64 => $run!(wave, mask, instr, env => {
                for lane in lanes::each_lane(mask) {
                    let value = convert::cvt_f32_f64(pair(wave, instr.a, lane));
                    wave.set_register(instr.dst, lane as u32, value);
                }
            }),
            Op::CvtF64F32 => $run!(wave, mask, instr, env => {
                for lane in lanes::each_lane(mask) {
                    let value = convert::cvt_f64_f32(wave.register(instr.a, lane as u32));
                    set_pair(wave, instr.dst, lane, value);
                }
            }),
            Op::WaveShuffle | Op::WaveShuffleUp | Op::WaveShuffleDown | Op::WaveShuffleXor | Op::WaveBroadcast | Op::WaveBallot | Op::WaveAny | Op::WaveAll | Op::WavePrefixSum | Op::WaveReduceAdd | Op::WaveReduceMin | Op::WaveReduceMax => $run!(wave, mask, instr, env => wave_ops::exec(wave, instr, mask)),
            Op::FenceAcquire | Op::FenceRelease | Op::FenceAcqRel | Op::Wait | Op::Nop => $run!(wave, mask, instr, env => {}),
            Op::MovImm => $run!(wave, mask, instr, env => {
                let value = instr.imm;
                write_masked(wave, instr.dst, mask, |_| value);
            }),
            Op::MovSr => $run!(wave, mask, instr, env => {
                let row = special_register_row(wave, env, instr.a);
                write_masked(wave, instr.dst, mask, |l| row[l]);
            }),
            $($other)*
        }))
    };
}

/// Executes the instruction at `wave.pc` on the wave's active lanes and advances `wave.pc`.
/// The wave is ready. In spec mode it has lanes active; in `Behaviour::WaveEmu` (which calls this
/// for everything but control flow) its mask may be empty, and then it changes no lane.
/// On x86-64 always inlined: the run loop is compiled once per CPU feature level, and the lane
/// loops in here must be compiled with it. Elsewhere (wasm) never inlined: one huge loop function
/// is slower there (measured: 133 ms instead of 170 ms on the 256 GEMM in Node).
///
/// # Safety
/// What [`load_or_store_each`] requires: every register operand of `instr` lies inside the
/// wave's register file, and the wave is at most 64 lanes wide.
#[cfg_attr(target_arch = "x86_64", inline(always))]
#[cfg_attr(not(target_arch = "x86_64"), inline(never))]
pub(super) unsafe fn step<S: EventSink + ?Sized>(
    wave: &mut Wave,
    instr: &Instr,
    env: &mut Env,
    events: &mut S,
) -> Result<(), Fault> {
    use Op::*;
    let pc = wave.pc;
    let mask = wave.active & control::guard_mask(wave, instr.guard);
    // Most instructions fall through; control flow overrides this below.
    wave.pc = pc + 1;
    macro_rules! once {
        ($w:ident, $m:ident, $i:ident, $e:ident => $body:expr) => {{
            #[allow(unused_variables)]
            let ($w, $m, $i, $e): (&mut Wave, u64, &Instr, &Env) = (&mut *wave, mask, instr, &*env);
            $body
        }};
    }
    dispatch!(instr.op, once, {
        LocalLoadU8 | LocalLoadU16 | LocalLoadU32 | LocalLoadU64 | LocalStoreU8 | LocalStoreU16
        | LocalStoreU32 | LocalStoreU64 | DeviceLoadU8 | DeviceLoadU16 | DeviceLoadU32
        | DeviceLoadU64 | DeviceLoadU128 | DeviceStoreU8 | DeviceStoreU16 | DeviceStoreU32
        | DeviceStoreU64 | DeviceStoreU128 => {
            // The group path works out the mask and moves the wave on itself.
            wave.pc = pc;
            // SAFETY: this function's contract is the same.
            unsafe { load_or_store_each(std::slice::from_mut(wave), instr, env) }
                .map_err(|(_, f)| f)?
        }
        LocalAtomicAdd | LocalAtomicSub | LocalAtomicMin | LocalAtomicMax | LocalAtomicAnd
        | LocalAtomicOr | LocalAtomicXor | LocalAtomicExchange | LocalAtomicCas => {
            env.counts.atomic_lanes += u64::from(mask.count_ones());
            memory_ops::atomic(wave, instr, mask, env.local, MemorySpace::Local)?
        }
        AtomicAdd | AtomicSub | AtomicMin | AtomicMax | AtomicAnd | AtomicOr | AtomicXor
        | AtomicExchange | AtomicCas => {
            env.counts.atomic_lanes += u64::from(mask.count_ones());
            memory_ops::atomic(wave, instr, mask, env.device, MemorySpace::Device)?
        }

        MmaLoadA | MmaLoadB | MmaStoreC | MmaCompute => mma::exec(wave, instr, mask, env.local)?,

        If => control::exec_if(wave, instr, pc, events)?,
        Else => control::exec_else(wave, pc, events),
        EndIf => control::exec_endif(wave, pc, events),
        Loop => control::exec_loop(wave, instr, pc, events)?,
        Break => control::exec_break_continue(wave, instr, pc, true, events),
        Continue => control::exec_break_continue(wave, instr, pc, false, events),
        EndLoop => control::exec_endloop(wave, pc, events),
        Call => {
            if mask != 0 {
                control::exec_call(wave, instr, pc, events)?
            } else {
                env.counts.uncounted_control += u64::from(instr.guard != Guard::Always);
            }
        }
        Return => {
            if mask != 0 {
                control::exec_return(wave, pc, mask, events)?
            } else {
                env.counts.uncounted_control += u64::from(instr.guard != Guard::Always);
            }
        }
        Halt => {
            // The reference returns before counting a guarded halt, whatever it does.
            env.counts.uncounted_control += u64::from(instr.guard != Guard::Always);
            control::halt_lanes(wave, mask, pc, events)
        }
        Barrier => {
            env.counts.uncounted_control += u64::from(instr.guard != Guard::Always && mask == 0);
            if mask != 0 {
                wave.status = WaveStatus::AtBarrier;
                events.emit(super::event::Event {
                    wave: wave.id,
                    pc,
                    mask,
                    kind: super::event::EventKind::BarrierWait,
                });
            }
        }
    });
    Ok(())
}

/// Runs a register-only instruction (see [`is_register_only`]) once for each wave of `waves`, in
/// order: the waves stand at the same instruction and run one after another in round-robin order,
/// with one dispatch for all of them. Returns `false`, running nothing, for any other instruction.
#[cfg_attr(target_arch = "x86_64", inline(always))]
#[cfg_attr(not(target_arch = "x86_64"), inline(never))]
pub(super) fn step_group(waves: &mut [Wave], instr: &Instr, env: &Env) -> bool {
    macro_rules! each {
        ($w:ident, $m:ident, $i:ident, $e:ident => $body:expr) => {{
            for wave in waves.iter_mut() {
                let mask = wave.active & control::guard_mask(wave, instr.guard);
                wave.pc += 1;
                #[allow(unused_variables)]
                let ($w, $m, $i, $e): (&mut Wave, u64, &Instr, &Env) = (wave, mask, instr, env);
                $body;
            }
            true
        }};
    }
    if instr.op == Op::Fma {
        // The commonest instruction of float kernels: one lane-loop call for the whole group.
        for wave in waves.iter_mut() {
            wave.pc += 1;
        }
        lanes::fma_run(waves, std::slice::from_ref(instr), env.avx2_fma);
        return true;
    }
    dispatch!(instr.op, each, { _ => false })
}

/// Whether `op` reads and writes only the executing wave's registers and predicates: no memory,
/// no control flow, no change of the wave's status. Such instructions of waves standing at the
/// same instruction can run as a group ([`step_group`]) without changing any result.
#[inline(always)]
pub(super) fn is_register_only(op: Op) -> bool {
    macro_rules! yes {
        ($($ignored:tt)*) => {
            true
        };
    }
    dispatch!(op, yes, { _ => false })
}

/// A load or a store ([`keeps_lockstep`], not register-only) on each wave of `waves` in order,
/// each on the active lanes its guard allows, each moved on to the next instruction. Stops at the
/// first wave that faults: `Err((member, fault))`, the waves before it done, that wave moved on.
/// What kind of access it is (memory, width, fast path or not) is decided once for all the
/// waves: a lockstep workgroup's eight waves otherwise paid for the same match eight times.
///
/// # Safety
/// Every register operand of `instr` lies inside each wave's register file, and each wave is at
/// most 64 lanes wide: the full-wave loads read the address row through a raw pointer. The
/// machine's instructions on its own waves keep this: its kernel is validated (`Code`) and its
/// waves have the code's register-file size, with a width `LaunchConfig::resolve` accepted.
#[cfg_attr(target_arch = "x86_64", inline(always))]
#[cfg_attr(not(target_arch = "x86_64"), inline(never))]
pub(super) unsafe fn load_or_store_each(
    waves: &mut [Wave],
    instr: &Instr,
    env: &mut Env,
) -> Result<(), (usize, Fault)> {
    // SAFETY: this function's contract is the same.
    let result = unsafe { load_or_store(waves, instr, env) };
    // Counted afterwards (the accesses leave the lanes and the guard as they are), over the waves
    // that ran it: up to the one that faulted, as one wave at a time would count.
    let lanes = waves_that_ran(waves, &result)
        .iter()
        .map(|wave| u64::from((wave.active & control::guard_mask(wave, instr.guard)).count_ones()))
        .sum();
    env.counts.record_access(instr.op, lanes);
    result
}

/// The waves of a lockstep load or store that ran it: all of them, or those up to and including
/// the one that faulted.
#[inline(always)]
fn waves_that_ran<'w>(waves: &'w [Wave], result: &Result<(), (usize, Fault)>) -> &'w [Wave] {
    match result {
        Ok(()) => waves,
        Err((member, _)) => &waves[..=*member],
    }
}

/// A 32-, 64- or 128-bit load with a register address and no guard on a workgroup in lockstep
/// whose waves are all full (every lane active) and of one register count: [`load_or_store_each`]'s
/// work with the lanes counted at once (each wave's mask is its whole width) and the questions
/// that do not change from wave to wave asked once. `None`, running nothing, for any other
/// instruction, and on x86-64 without AVX2.
///
/// On x86-64 the waves go through `full_wave_load::load_waves`, whose wave loop runs inside the
/// AVX2 block loads; inlining the per-wave path here instead (as wasm does) made LLVM stop
/// inlining those block loads, and the loop ran more instructions.
///
/// # Safety
/// As for [`load_or_store_each`], and every wave has every lane of its width active and the same
/// number of registers.
#[inline(always)]
pub(super) unsafe fn load_full_waves(
    waves: &mut [Wave],
    instr: &Instr,
    env: &mut Env,
) -> Option<Result<(), (usize, Fault)>> {
    let load = register_load(instr).filter(|_| instr.guard == Guard::Always)?;
    // Destinations past the register file take the general path (`load_or_store_each`).
    let registers = waves.first()?.registers.len();
    if instr.dst as usize + load.0 > registers {
        return None;
    }
    #[cfg(target_arch = "x86_64")]
    let avx2 = env.avx2_fma?;
    #[cfg(target_arch = "x86_64")]
    // SAFETY: this function's contract, and `dst + words` was checked against the register files.
    let result = unsafe { load_waves_avx2(waves, instr, env, load, avx2) };
    // SAFETY: this function's contract; each wave's mask is every lane of its width.
    #[cfg(not(target_arch = "x86_64"))]
    let result = unsafe { load_words_each(waves, instr, env, load, |wave| wave.active) };
    let lanes = waves_that_ran(waves, &result)
        .iter()
        .map(|wave| u64::from(wave.width))
        .sum();
    env.counts.record_access(instr.op, lanes);
    Some(result)
}

/// [`load_full_waves`] on x86-64 with AVX2: the waves' block loads in one call; a wave that stops
/// there (a block it cannot vouch for) goes on through the checked lane loop from the lane it
/// stopped at, and the waves after it through the per-wave path.
///
/// # Safety
/// As for [`load_full_waves`], and `instr.dst + words` lies inside every wave's register file.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn load_waves_avx2(
    waves: &mut [Wave],
    instr: &Instr,
    env: &Env,
    (words, local): (usize, bool),
    avx2: Avx2Fma,
) -> Result<(), (usize, Fault)> {
    #[inline(always)]
    unsafe fn each<const WORDS: usize>(
        waves: &mut [Wave],
        instr: &Instr,
        memory: &Memory,
        space: MemorySpace,
        avx2: Avx2Fma,
    ) -> Result<(), (usize, Fault)> {
        let (address_register, dst) = (instr.a as usize, instr.dst as usize);
        // SAFETY: this function's contract: every wave's register file holds `dst + WORDS`.
        let stopped = unsafe {
            full_wave_load::load_waves::<WORDS>(waves, address_register, dst, memory.bytes(), avx2)
        };
        let Some((member, first)) = stopped else {
            return Ok(());
        };
        let (stopped, after) = waves[member..].split_at_mut(1);
        let wave = &mut stopped[0];
        wave.pc += 1;
        let todo = lanes_mask(wave.width) & !memory_ops::lanes_before(u64::MAX, first);
        memory_ops::load_lanes::<WORDS>(wave, instr, todo, memory.bytes(), space)
            .map_err(|fault| (member, fault.into()))?;
        // SAFETY: this function's contract.
        unsafe { load_each_wave::<WORDS>(after, instr, memory, space, Some(avx2), |w| w.active) }
            .map_err(|(offset, fault)| (member + 1 + offset, fault))
    }
    let (memory, space) = memory_to_read(env, local);
    // SAFETY: this function's contract.
    unsafe { by_words!(words, each(waves, instr, memory, space, avx2)) }
}

/// A load with a register address that the full-wave path takes: its words (1, 2 or 4) and
/// whether it reads local memory. `None` for any other instruction.
#[inline(always)]
fn register_load(instr: &Instr) -> Option<(usize, bool)> {
    use Op::*;
    if instr.flags & flags::A_IMM != 0 {
        return None;
    }
    match instr.op {
        LocalLoadU32 => Some((1, true)),
        DeviceLoadU32 => Some((1, false)),
        LocalLoadU64 => Some((2, true)),
        DeviceLoadU64 => Some((2, false)),
        DeviceLoadU128 => Some((4, false)),
        _ => None,
    }
}

/// A [`register_load`] (`(words, local)`) on each wave in order, on the lanes `mask` gives it,
/// each wave moved on first; stops at the first wave that faults, as [`load_or_store_each`] does.
///
/// # Safety
/// As for [`load_or_store_each`].
#[inline(always)]
unsafe fn load_words_each(
    waves: &mut [Wave],
    instr: &Instr,
    env: &Env,
    (words, local): (usize, bool),
    mask: impl Fn(&Wave) -> u64,
) -> Result<(), (usize, Fault)> {
    let (memory, space) = memory_to_read(env, local);
    let avx2 = env.avx2_fma;
    // SAFETY: this function's contract.
    unsafe {
        by_words!(
            words,
            load_each_wave(waves, instr, memory, space, avx2, mask)
        )
    }
}

/// A load of `WORDS` words from `memory` on each wave in order, on the lanes `mask_of` gives it,
/// each wave moved on first; stops at the first wave that faults (its index in `waves`).
///
/// # Safety
/// As for [`load_or_store_each`].
#[inline(always)]
unsafe fn load_each_wave<const WORDS: usize>(
    waves: &mut [Wave],
    instr: &Instr,
    memory: &Memory,
    space: MemorySpace,
    avx2: Option<Avx2Fma>,
    mask_of: impl Fn(&Wave) -> u64,
) -> Result<(), (usize, Fault)> {
    for (member, wave) in waves.iter_mut().enumerate() {
        let mask = mask_of(wave);
        wave.pc += 1;
        // SAFETY: `instr.a` is a register operand, inside the register file, and the width is at
        // most 64 (the caller's contract).
        unsafe { memory_ops::load_words::<WORDS>(wave, instr, mask, memory, space, avx2) }
            .map_err(|fault| (member, fault.into()))?;
    }
    Ok(())
}

/// [`load_or_store_each`] without the counting.
///
/// # Safety
/// As for [`load_or_store_each`].
#[inline(always)]
unsafe fn load_or_store(
    waves: &mut [Wave],
    instr: &Instr,
    env: &mut Env,
) -> Result<(), (usize, Fault)> {
    use Op::*;
    #[inline(always)]
    fn each<E: Into<Fault>>(
        waves: &mut [Wave],
        instr: &Instr,
        mut access: impl FnMut(&mut Wave, u64) -> Result<(), E>,
    ) -> Result<(), (usize, Fault)> {
        for (member, wave) in waves.iter_mut().enumerate() {
            let mask = wave.active & control::guard_mask(wave, instr.guard);
            wave.pc += 1;
            access(wave, mask).map_err(|fault| (member, fault.into()))?;
        }
        Ok(())
    }
    // Loads and stores with register operands (nearly all of them) take the fast paths.
    if let Some(load) = register_load(instr) {
        let guarded = |wave: &Wave| wave.active & control::guard_mask(wave, instr.guard);
        // SAFETY: this function's contract.
        return unsafe { load_words_each(waves, instr, env, load, guarded) };
    }
    match instr.op {
        LocalStoreU32 | DeviceStoreU32 if instr.flags & (flags::A_IMM | flags::B_IMM) == 0 => {
            let local = instr.op == LocalStoreU32;
            let memory = if local {
                &mut *env.local
            } else {
                &mut *env.device
            };
            let space = memory_space(local);
            each(
                waves,
                instr,
                #[inline(always)]
                |wave, mask| memory_ops::store_u32(wave, instr, mask, memory, space),
            )
        }
        LocalLoadU8 | LocalLoadU16 | LocalLoadU32 | LocalLoadU64 => each(
            waves,
            instr,
            #[inline(always)]
            |wave, mask| memory_ops::load(wave, instr, mask, env.local, MemorySpace::Local),
        ),
        LocalStoreU8 | LocalStoreU16 | LocalStoreU32 | LocalStoreU64 => each(
            waves,
            instr,
            #[inline(always)]
            |wave, mask| memory_ops::store(wave, instr, mask, env.local, MemorySpace::Local),
        ),
        DeviceLoadU8 | DeviceLoadU16 | DeviceLoadU32 | DeviceLoadU64 | DeviceLoadU128 => each(
            waves,
            instr,
            #[inline(always)]
            |wave, mask| memory_ops::load(wave, instr, mask, env.device, MemorySpace::Device),
        ),
        DeviceStoreU8 | DeviceStoreU16 | DeviceStoreU32 | DeviceStoreU64 | DeviceStoreU128 => each(
            waves,
            instr,
            #[inline(always)]
            |wave, mask| memory_ops::store(wave, instr, mask, env.device, MemorySpace::Device),
        ),
        _ => {
            debug_assert!(false, "{:?} is not a load or store", instr.op);
            Ok(())
        }
    }
}

/// Whether every wave that runs `op` (without a fault) just moves on to the next instruction,
/// its active lanes and status unchanged: register-only instructions, loads and stores.
/// Waves standing together at such an instruction stand together at the next one.
#[inline(always)]
pub(super) fn keeps_lockstep(op: Op) -> bool {
    use Op::*;
    is_register_only(op)
        || matches!(
            op,
            LocalLoadU8
                | LocalLoadU16
                | LocalLoadU32
                | LocalLoadU64
                | LocalStoreU8
                | LocalStoreU16
                | LocalStoreU32
                | LocalStoreU64
                | DeviceLoadU8
                | DeviceLoadU16
                | DeviceLoadU32
                | DeviceLoadU64
                | DeviceLoadU128
                | DeviceStoreU8
                | DeviceStoreU16
                | DeviceStoreU32
                | DeviceStoreU64
                | DeviceStoreU128
        )
}
