//! One instruction of one wave: the interpreter's single `match`.

use super::control;
use super::event::EventSink;
use super::lanes::{
    self, compare, map1, map2, map3, map4, pair, set_pair, set_predicate, write_masked,
};
use super::memory::Memory;
use super::memory_ops::{self, LaneFault};
use super::mma;
use super::trap::{MemorySpace, TrapKind};
use super::wave::{Wave, WaveStatus};
use super::wave_ops;
use crate::instr::{flags, Instr, Op, SpecialRegister};
use crate::numeric::{bf16, bitwise, float, fp16, int};

/// What an instruction can see besides its own wave.
pub struct Env<'a> {
    pub device: &'a mut Memory,
    pub local: &'a mut Memory,
    pub workgroup_id: [u32; 3],
    pub workgroup_size: [u32; 3],
    pub grid_size: [u32; 3],
    pub num_waves: u32,
}

/// A fault raised by one instruction, before workgroup/wave/pc are attached.
pub struct Fault {
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

/// f64 ops on register pairs.
fn exec_f64(wave: &mut Wave, instr: &Instr, mask: u64) {
    for lane in lanes::each_lane(mask) {
        let a = f64::from_bits(pair(wave, instr.a, lane));
        let b = f64::from_bits(pair(wave, instr.b, lane));
        let c = f64::from_bits(pair(wave, instr.c, lane));
        let result = match instr.op {
            Op::DAdd => a + b,
            Op::DSub => a - b,
            Op::DMul => a * b,
            Op::DDiv => a / b,
            Op::Dma => a.mul_add(b, c),
            _ => a.sqrt(),
        };
        set_pair(wave, instr.dst, lane, result.to_bits());
    }
}

/// Executes the instruction at `wave.pc` on the wave's active lanes and advances `wave.pc`.
/// The caller guarantees `wave.pc` is inside `code` and the wave is ready with lanes active.
/// On x86-64 always inlined: the run loop is compiled once per CPU feature level, and the lane
/// loops in here must be compiled with it. Elsewhere (wasm) never inlined: one huge loop function
/// is slower there (measured: 133 ms instead of 170 ms on the 256 GEMM in Node).
#[cfg_attr(target_arch = "x86_64", inline(always))]
#[cfg_attr(not(target_arch = "x86_64"), inline(never))]
pub fn step<S: EventSink + ?Sized>(
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
    match instr.op {
        IAdd => map2(wave, instr, mask, int::iadd),
        ISub => map2(wave, instr, mask, int::isub),
        IMul => map2(wave, instr, mask, int::imul),
        IMulHi => map2(wave, instr, mask, int::imul_hi),
        IDiv => map2(wave, instr, mask, int::idiv),
        IMod => map2(wave, instr, mask, int::imod),
        IMin => map2(wave, instr, mask, int::imin),
        IMax => map2(wave, instr, mask, int::imax),
        INeg => map1(wave, instr, mask, int::ineg),
        IAbs => map1(wave, instr, mask, int::iabs),
        IMad => map3(wave, instr, mask, int::imad),
        IClamp => map3(wave, instr, mask, int::iclamp),

        FAdd => map2(wave, instr, mask, float::fadd),
        FSub => map2(wave, instr, mask, float::fsub),
        FMul => map2(wave, instr, mask, float::fmul),
        FDiv => map2(wave, instr, mask, float::fdiv),
        FMin => map2(wave, instr, mask, float::fmin),
        FMax => map2(wave, instr, mask, float::fmax),
        FNeg => map1(wave, instr, mask, float::fneg),
        FAbs => map1(wave, instr, mask, float::fabs),
        FSqrt => map1(wave, instr, mask, float::fsqrt),
        FRsqrt => map1(wave, instr, mask, float::frsqrt),
        FRcp => map1(wave, instr, mask, float::frcp),
        FFloor => map1(wave, instr, mask, float::ffloor),
        FCeil => map1(wave, instr, mask, float::fceil),
        FRound => map1(wave, instr, mask, float::fround),
        FTrunc => map1(wave, instr, mask, float::ftrunc),
        FFract => map1(wave, instr, mask, float::ffract),
        FSat => map1(wave, instr, mask, float::fsat),
        FSin => map1(wave, instr, mask, float::fsin),
        FCos => map1(wave, instr, mask, float::fcos),
        FExp2 => map1(wave, instr, mask, float::fexp2),
        FLog2 => map1(wave, instr, mask, float::flog2),
        Fma => lanes::fma(wave, instr, mask),
        FClamp => map3(wave, instr, mask, float::fclamp),

        HAdd => map2(wave, instr, mask, fp16::hadd),
        HSub => map2(wave, instr, mask, fp16::hsub),
        HMul => map2(wave, instr, mask, fp16::hmul),
        Hma => map3(wave, instr, mask, fp16::hma),
        HAdd2 => map2(wave, instr, mask, fp16::hadd2),
        HMul2 => map2(wave, instr, mask, fp16::hmul2),
        Hma2 => map3(wave, instr, mask, fp16::hma2),
        BAdd => map2(wave, instr, mask, bf16::badd),
        BSub => map2(wave, instr, mask, bf16::bsub),
        BMul => map2(wave, instr, mask, bf16::bmul),
        Bma => map3(wave, instr, mask, bf16::bma),
        BAdd2 => map2(wave, instr, mask, bf16::badd2),
        BMul2 => map2(wave, instr, mask, bf16::bmul2),
        Bma2 => map3(wave, instr, mask, bf16::bma2),
        DAdd | DSub | DMul | DDiv | Dma | DSqrt => exec_f64(wave, instr, mask),

        And => map2(wave, instr, mask, bitwise::and),
        Or => map2(wave, instr, mask, bitwise::or),
        Xor => map2(wave, instr, mask, bitwise::xor),
        Not => map1(wave, instr, mask, bitwise::not),
        Shl => map2(wave, instr, mask, bitwise::shl),
        Shr => map2(wave, instr, mask, bitwise::shr),
        Sar => map2(wave, instr, mask, bitwise::sar),
        BitCount => map1(wave, instr, mask, bitwise::bitcount),
        BitFind => map1(wave, instr, mask, bitwise::bitfind),
        BitRev => map1(wave, instr, mask, bitwise::bitrev),
        Bfe => map3(wave, instr, mask, bitwise::bfe),
        Bfi => map4(wave, instr, mask, bitwise::bfi),

        IcmpEq => compare(wave, instr, mask, |a, b| a == b),
        IcmpNe => compare(wave, instr, mask, |a, b| a != b),
        IcmpLt => compare(wave, instr, mask, |a, b| (a as i32) < (b as i32)),
        IcmpLe => compare(wave, instr, mask, |a, b| (a as i32) <= (b as i32)),
        IcmpGt => compare(wave, instr, mask, |a, b| (a as i32) > (b as i32)),
        IcmpGe => compare(wave, instr, mask, |a, b| (a as i32) >= (b as i32)),
        UcmpLt => compare(wave, instr, mask, |a, b| a < b),
        UcmpLe => compare(wave, instr, mask, |a, b| a <= b),
        UcmpGt => compare(wave, instr, mask, |a, b| a > b),
        UcmpGe => compare(wave, instr, mask, |a, b| a >= b),
        FcmpEq => compare(wave, instr, mask, |a, b| {
            f32::from_bits(a) == f32::from_bits(b)
        }),
        FcmpNe => compare(wave, instr, mask, |a, b| {
            f32::from_bits(a) != f32::from_bits(b)
        }),
        FcmpLt => compare(wave, instr, mask, |a, b| {
            f32::from_bits(a) < f32::from_bits(b)
        }),
        FcmpLe => compare(wave, instr, mask, |a, b| {
            f32::from_bits(a) <= f32::from_bits(b)
        }),
        FcmpGt => compare(wave, instr, mask, |a, b| {
            f32::from_bits(a) > f32::from_bits(b)
        }),
        FcmpGe => compare(wave, instr, mask, |a, b| {
            f32::from_bits(a) >= f32::from_bits(b)
        }),
        FcmpOrd => compare(wave, instr, mask, |a, b| {
            !f32::from_bits(a).is_nan() && !f32::from_bits(b).is_nan()
        }),
        FcmpUnord => compare(wave, instr, mask, |a, b| {
            f32::from_bits(a).is_nan() || f32::from_bits(b).is_nan()
        }),
        PAnd | POr | PXor | PNot => predicate_logic(wave, instr, mask),
        Select => {
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
        }

        // Rust `as` casts saturate and send NaN to 0, exactly wave-emu's conversions.
        CvtF32I32 => map1(wave, instr, mask, |a| (a as i32 as f32).to_bits()),
        CvtF32U32 => map1(wave, instr, mask, |a| (a as f32).to_bits()),
        CvtI32F32 => map1(wave, instr, mask, |a| f32::from_bits(a) as i32 as u32),
        CvtU32F32 => map1(wave, instr, mask, |a| f32::from_bits(a) as u32),
        CvtF32F16 => map1(wave, instr, mask, |a| fp16::f16_to_f32(a).to_bits()),
        CvtF16F32 => map1(wave, instr, mask, |a| {
            fp16::f32_to_f16(f32::from_bits(a)) as u32
        }),
        CvtF32Bf16 => map1(wave, instr, mask, |a| bf16::bf16_to_f32(a).to_bits()),
        CvtBf16F32 => map1(wave, instr, mask, |a| bf16::f32_to_bf16(f32::from_bits(a))),
        CvtF32F64 => {
            for lane in lanes::each_lane(mask) {
                let value = f64::from_bits(pair(wave, instr.a, lane)) as f32;
                wave.set_register(instr.dst, lane as u32, value.to_bits());
            }
        }
        CvtF64F32 => {
            for lane in lanes::each_lane(mask) {
                let value = f32::from_bits(wave.register(instr.a, lane as u32)) as f64;
                set_pair(wave, instr.dst, lane, value.to_bits());
            }
        }

        // u32 accesses with register operands (nearly all of them) run inline.
        LocalLoadU32 | DeviceLoadU32 if instr.flags & flags::A_IMM == 0 => {
            let memory = if instr.op == LocalLoadU32 {
                &*env.local
            } else {
                &*env.device
            };
            let space = memory_space(instr.op == LocalLoadU32);
            memory_ops::load_u32(wave, instr, mask, memory, space)?
        }
        LocalStoreU32 | DeviceStoreU32 if instr.flags & (flags::A_IMM | flags::B_IMM) == 0 => {
            let memory = if instr.op == LocalStoreU32 {
                &mut *env.local
            } else {
                &mut *env.device
            };
            let space = memory_space(instr.op == LocalStoreU32);
            memory_ops::store_u32(wave, instr, mask, memory, space)?
        }
        LocalLoadU64 | DeviceLoadU64 | DeviceLoadU128 if instr.flags & flags::A_IMM == 0 => {
            let local = instr.op == LocalLoadU64;
            let memory = if local { &*env.local } else { &*env.device };
            let space = memory_space(local);
            let fast = if instr.op == DeviceLoadU128 {
                memory_ops::load_words::<4>(wave, instr, mask, memory, space)
            } else {
                memory_ops::load_words::<2>(wave, instr, mask, memory, space)
            };
            match fast {
                Some(result) => result?,
                None => memory_ops::load(wave, instr, mask, memory, space)?,
            }
        }
        LocalLoadU8 | LocalLoadU16 | LocalLoadU32 | LocalLoadU64 => {
            memory_ops::load(wave, instr, mask, env.local, MemorySpace::Local)?
        }
        LocalStoreU8 | LocalStoreU16 | LocalStoreU32 | LocalStoreU64 => {
            memory_ops::store(wave, instr, mask, env.local, MemorySpace::Local)?
        }
        DeviceLoadU8 | DeviceLoadU16 | DeviceLoadU32 | DeviceLoadU64 | DeviceLoadU128 => {
            memory_ops::load(wave, instr, mask, env.device, MemorySpace::Device)?
        }
        DeviceStoreU8 | DeviceStoreU16 | DeviceStoreU32 | DeviceStoreU64 | DeviceStoreU128 => {
            memory_ops::store(wave, instr, mask, env.device, MemorySpace::Device)?
        }
        LocalAtomicAdd | LocalAtomicSub | LocalAtomicMin | LocalAtomicMax | LocalAtomicAnd
        | LocalAtomicOr | LocalAtomicXor | LocalAtomicExchange | LocalAtomicCas => {
            memory_ops::atomic(wave, instr, mask, env.local, MemorySpace::Local)?
        }
        AtomicAdd | AtomicSub | AtomicMin | AtomicMax | AtomicAnd | AtomicOr | AtomicXor
        | AtomicExchange | AtomicCas => {
            memory_ops::atomic(wave, instr, mask, env.device, MemorySpace::Device)?
        }

        WaveShuffle | WaveShuffleUp | WaveShuffleDown | WaveShuffleXor | WaveBroadcast
        | WaveBallot | WaveAny | WaveAll | WavePrefixSum | WaveReduceAdd | WaveReduceMin
        | WaveReduceMax => wave_ops::exec(wave, instr, mask),
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
            }
        }
        Return => {
            if mask != 0 {
                control::exec_return(wave, pc, mask, events)?
            }
        }
        Halt => control::halt_lanes(wave, mask, pc, events),
        Barrier => {
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
        FenceAcquire | FenceRelease | FenceAcqRel | Wait | Nop => {}

        Mov => map1(wave, instr, mask, |a| a),
        MovImm => {
            let value = instr.imm;
            write_masked(wave, instr.dst, mask, |_| value);
        }
        MovSr => {
            let width = wave.width as usize;
            let mut row = [0u32; lanes::MAX_LANES];
            for (lane, slot) in row.iter_mut().enumerate().take(width) {
                *slot = special_register(wave, env, instr.a, lane);
            }
            write_masked(wave, instr.dst, mask, |l| row[l]);
        }
    }
    Ok(())
}
