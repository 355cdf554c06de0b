//! The table of operations: one row per operation, and everything that lists operations is
//! derived from it, so the lists cannot disagree.
//!
//! A row reads `Variant = syntax, operands, wbin, statistics, semantics;`:
//! - **syntax**: `asm "name"` (a `wave-asm` mnemonic), `dialect "name"` (only the WAVE docs use
//!   it; the front end accepts it with a warning) or `logic "name"` (predicate logic, which the
//!   docs write with the integer mnemonics and `p` operands);
//! - **operands**: `(SLOTS, Immediates)` or `(SLOTS, Immediates, Form)`: the operand slots
//!   (the constants of [`crate::syntax::mnemonics`]), which immediates the docs dialect allows in
//!   place of a source register, and for the atomics their returning/non-returning form;
//! - **wbin**: `wbin(opcode, modifier, Shape)`, with `extended` last when `wave-asm`'s label
//!   table counts the instruction as 8 bytes, or `none` when no `.wbin` can hold it;
//! - **statistics**: the category the reference emulator files it under
//!   ([`crate::machine::reference_stats::Category`]);
//! - **semantics**: `lanes(kind, module::function)` when the op is one function of
//!   [`crate::numeric`] applied lane by lane (`kind` is the lane loop: `map1`..`map4`, or
//!   `compare` for a predicate result), followed by `rows` when the whole-row fast path
//!   (`machine/full_rows.rs`) runs it too; or `own` when its arm in `machine/exec.rs` is written
//!   by hand (control flow, memory, cross-lane and matrix ops, register pairs).
//!
//! From the rows come the [`Op`](crate::instr::Op) enum (in the table's order), the mnemonic
//! table, the `.wbin` encodings and the mnemonic the disassembly writes, the statistics
//! categories, the general dispatch's arms for the `lanes` ops and the whole-row paths' arms.
//!
//! Each consumer asks [`for_each_op!`] for one projection of the rows (`ops`, `syntax`, `logic`,
//! `names`, `wbin`, `category`, `lanes`, `rows`) and hands it to a `macro_rules!` visitor of its
//! own, which writes its item or its `match`. The table is a `macro_rules!` table rather than a
//! build-time generator so that the dispatch stays one plain `match` the compiler sees whole, with
//! nothing generated outside the source tree.

/// Expands `$visit! { $args [projection] }` for one projection of the table (see the module
/// documentation for the row syntax):
/// - `ops`: `#[doc]s Variant,` for every row, in order;
/// - `syntax`: `Variant "name" (operands) dialect;` for the `asm` and `dialect` rows, `dialect`
///   being `false` or `true`;
/// - `logic`: `Variant "name" (operands);` for the predicate-logic rows;
/// - `names`: `Variant "name";` for every row;
/// - `wbin`: `Variant (opcode, modifier, Shape[, extended]);` for the rows a `.wbin` can hold;
/// - `category`: `Variant Category;` for every row;
/// - `lanes`: `Variant kind path::to::function;` for the `lanes` rows;
/// - `rows`: `Variant rows kind path::to::function;` for the `lanes` rows marked `rows`.
macro_rules! for_each_op {
    ($projection:ident => $visit:ident $args:tt) => {
        $crate::ops::op_rows! { [$projection $visit $args]
            // Integer (i32 bits in u32 registers; wrapping).
            IAdd = asm "iadd", (BINARY, Int), wbin(0x00, 0, Binary), Integer, lanes(map2, int::iadd) rows;
            ISub = asm "isub", (BINARY, Int), wbin(0x01, 0, Binary), Integer, lanes(map2, int::isub) rows;
            IMul = asm "imul", (BINARY, Int), wbin(0x02, 0, Binary), Integer, lanes(map2, int::imul) rows;
            IMulHi = asm "imul_hi", (BINARY, Int), wbin(0x03, 0, Binary), Integer, lanes(map2, int::imul_hi);
            IDiv = asm "idiv", (BINARY, Int), wbin(0x05, 0, Binary), Integer, lanes(map2, int::idiv);
            IMod = asm "imod", (BINARY, Int), wbin(0x06, 0, Binary), Integer, lanes(map2, int::imod);
            IMin = asm "imin", (BINARY, Int), wbin(0x09, 0, Binary), Integer, lanes(map2, int::imin);
            IMax = asm "imax", (BINARY, Int), wbin(0x0A, 0, Binary), Integer, lanes(map2, int::imax);
            INeg = asm "ineg", (UNARY, Int), wbin(0x07, 0, Unary), Integer, lanes(map1, int::ineg);
            IAbs = asm "iabs", (UNARY, Int), wbin(0x08, 0, Unary), Integer, lanes(map1, int::iabs);
            IMad = asm "imad", (TERNARY, Int), wbin(0x04, 0, Ternary, extended), Integer, lanes(map3, int::imad) rows;
            IClamp = asm "iclamp", (CLAMP, Int), wbin(0x0B, 0, Ternary, extended), Integer, lanes(map3, int::iclamp);
            // F32.
            FAdd = asm "fadd", (BINARY, Float), wbin(0x10, 0, Binary), Float, lanes(map2, float::fadd) rows;
            FSub = asm "fsub", (BINARY, Float), wbin(0x11, 0, Binary), Float, lanes(map2, float::fsub) rows;
            FMul = asm "fmul", (BINARY, Float), wbin(0x12, 0, Binary), Float, lanes(map2, float::fmul) rows;
            FDiv = asm "fdiv", (BINARY, Float), wbin(0x14, 0, Binary), Float, lanes(map2, float::fdiv);
            FMin = asm "fmin", (BINARY, Float), wbin(0x17, 0, Binary), Float, lanes(map2, float::fmin);
            FMax = asm "fmax", (BINARY, Float), wbin(0x18, 0, Binary), Float, lanes(map2, float::fmax);
            FNeg = asm "fneg", (UNARY, Float), wbin(0x15, 0, Unary), Float, lanes(map1, float::fneg);
            FAbs = asm "fabs", (UNARY, Float), wbin(0x16, 0, Unary), Float, lanes(map1, float::fabs);
            FSqrt = asm "fsqrt", (UNARY, Float), wbin(0x1A, 0, Unary), Float, lanes(map1, float::fsqrt);
            FRsqrt = asm "frsqrt", (UNARY, Float), wbin(0x1B, 0, Unary), Float, lanes(map1, float::frsqrt);
            FRcp = asm "frcp", (UNARY, Float), wbin(0x1B, 1, Unary), Float, lanes(map1, float::frcp);
            FFloor = asm "ffloor", (UNARY, Float), wbin(0x1B, 2, Unary), Float, lanes(map1, float::ffloor);
            FCeil = asm "fceil", (UNARY, Float), wbin(0x1B, 3, Unary), Float, lanes(map1, float::fceil);
            FRound = asm "fround", (UNARY, Float), wbin(0x1B, 4, Unary), Float, lanes(map1, float::fround);
            FTrunc = asm "ftrunc", (UNARY, Float), wbin(0x1B, 5, Unary), Float, lanes(map1, float::ftrunc);
            FFract = asm "ffract", (UNARY, Float), wbin(0x1B, 6, Unary), Float, lanes(map1, float::ffract);
            FSat = asm "fsat", (UNARY, Float), wbin(0x1B, 7, Unary), Float, lanes(map1, float::fsat);
            FSin = asm "fsin", (UNARY, Float), wbin(0x1B, 8, Unary), Float, lanes(map1, float::fsin);
            FCos = asm "fcos", (UNARY, Float), wbin(0x1B, 9, Unary), Float, lanes(map1, float::fcos);
            FExp2 = asm "fexp2", (UNARY, Float), wbin(0x1B, 10, Unary), Float, lanes(map1, float::fexp2);
            FLog2 = asm "flog2", (UNARY, Float), wbin(0x1B, 11, Unary), Float, lanes(map1, float::flog2);
            Fma = asm "fma", (TERNARY, Float), wbin(0x13, 0, Ternary, extended), Float, own;
            FClamp = asm "fclamp", (CLAMP, Float), wbin(0x19, 0, Ternary, extended), Float, lanes(map3, float::fclamp);
            // F16 (scalar: low 16 bits; `*2`: both halves).
            HAdd = asm "hadd", (BINARY, Bits), wbin(0x1C, 0, Binary), Float, lanes(map2, fp16::hadd);
            HSub = asm "hsub", (BINARY, Bits), wbin(0x1C, 1, Binary), Float, lanes(map2, fp16::hsub);
            HMul = asm "hmul", (BINARY, Bits), wbin(0x1C, 2, Binary), Float, lanes(map2, fp16::hmul);
            HAdd2 = asm "hadd2", (BINARY, Bits), wbin(0x1D, 0, Binary), Float, lanes(map2, fp16::hadd2);
            HMul2 = asm "hmul2", (BINARY, Bits), wbin(0x1D, 1, Binary), Float, lanes(map2, fp16::hmul2);
            Hma = asm "hma", (TERNARY, Bits), wbin(0x1C, 3, Ternary, extended), Float, lanes(map3, fp16::hma);
            Hma2 = asm "hma2", (TERNARY, Bits), wbin(0x1D, 2, Ternary, extended), Float, lanes(map3, fp16::hma2);
            // BF16.
            BAdd = asm "badd", (BINARY, Bits), wbin(0x2D, 0, Binary), Float, lanes(map2, bf16::badd);
            BSub = asm "bsub", (BINARY, Bits), wbin(0x2D, 1, Binary), Float, lanes(map2, bf16::bsub);
            BMul = asm "bmul", (BINARY, Bits), wbin(0x2D, 2, Binary), Float, lanes(map2, bf16::bmul);
            BAdd2 = asm "badd2", (BINARY, Bits), wbin(0x2E, 0, Binary), Float, lanes(map2, bf16::badd2);
            BMul2 = asm "bmul2", (BINARY, Bits), wbin(0x2E, 1, Binary), Float, lanes(map2, bf16::bmul2);
            Bma = asm "bma", (TERNARY, Bits), wbin(0x2D, 3, Ternary, extended), Float, lanes(map3, bf16::bma);
            Bma2 = asm "bma2", (TERNARY, Bits), wbin(0x2E, 2, Ternary, extended), Float, lanes(map3, bf16::bma2);
            // F64 in register pairs (low word in rN, high word in rN+1).
            DAdd = asm "dadd", (PAIR_BINARY, None), wbin(0x1E, 0, Binary), Float, own;
            DSub = asm "dsub", (PAIR_BINARY, None), wbin(0x1E, 1, Binary), Float, own;
            DMul = asm "dmul", (PAIR_BINARY, None), wbin(0x1E, 2, Binary), Float, own;
            DDiv = asm "ddiv", (PAIR_BINARY, None), wbin(0x1F, 0, Binary), Float, own;
            Dma = asm "dma", (PAIR_TERNARY, None), wbin(0x1E, 3, Ternary, extended), Float, own;
            DSqrt = asm "dsqrt", (PAIR_UNARY, None), wbin(0x1F, 1, Unary), Float, own;
            // Bitwise.
            And = asm "and", (BINARY, Int), wbin(0x20, 0, Binary), Integer, lanes(map2, bitwise::and) rows;
            Or = asm "or", (BINARY, Int), wbin(0x21, 0, Binary), Integer, lanes(map2, bitwise::or) rows;
            Xor = asm "xor", (BINARY, Int), wbin(0x22, 0, Binary), Integer, lanes(map2, bitwise::xor) rows;
            Shl = asm "shl", (BINARY, Int), wbin(0x24, 0, Binary), Integer, lanes(map2, bitwise::shl) rows;
            Shr = asm "shr", (BINARY, Int), wbin(0x25, 0, Binary), Integer, lanes(map2, bitwise::shr) rows;
            Sar = asm "sar", (BINARY, Int), wbin(0x26, 0, Binary), Integer, lanes(map2, bitwise::sar);
            Not = asm "not", (UNARY, Int), wbin(0x23, 0, Unary), Integer, lanes(map1, bitwise::not);
            BitCount = asm "bitcount", (UNARY, Int), wbin(0x27, 0, Unary), Integer, lanes(map1, bitwise::bitcount);
            BitFind = asm "bitfind", (UNARY, Int), wbin(0x27, 1, Unary), Integer, lanes(map1, bitwise::bitfind);
            BitRev = asm "bitrev", (UNARY, Int), wbin(0x27, 2, Unary), Integer, lanes(map1, bitwise::bitrev);
            Bfe = asm "bfe", (BFE, Int), wbin(0x27, 3, Ternary, extended), Integer, lanes(map3, bitwise::bfe);
            Bfi = asm "bfi", (BFI, Int), wbin(0x27, 4, Quaternary, extended), Integer, lanes(map4, bitwise::bfi);
            // Compares: write predicate `dst`. The reference files them (and `select`) under integer.
            IcmpEq = asm "icmp_eq", (COMPARE, Int), wbin(0x28, 0, Compare), Integer, lanes(compare, compare::icmp_eq) rows;
            IcmpNe = asm "icmp_ne", (COMPARE, Int), wbin(0x28, 1, Compare), Integer, lanes(compare, compare::icmp_ne) rows;
            IcmpLt = asm "icmp_lt", (COMPARE, Int), wbin(0x28, 2, Compare), Integer, lanes(compare, compare::icmp_lt) rows;
            IcmpLe = asm "icmp_le", (COMPARE, Int), wbin(0x28, 3, Compare), Integer, lanes(compare, compare::icmp_le) rows;
            IcmpGt = asm "icmp_gt", (COMPARE, Int), wbin(0x28, 4, Compare), Integer, lanes(compare, compare::icmp_gt) rows;
            IcmpGe = asm "icmp_ge", (COMPARE, Int), wbin(0x28, 5, Compare), Integer, lanes(compare, compare::icmp_ge) rows;
            UcmpLt = asm "ucmp_lt", (COMPARE, Int), wbin(0x29, 2, Compare), Integer, lanes(compare, compare::ucmp_lt) rows;
            UcmpLe = asm "ucmp_le", (COMPARE, Int), wbin(0x29, 3, Compare), Integer, lanes(compare, compare::ucmp_le) rows;
            FcmpEq = asm "fcmp_eq", (COMPARE, Float), wbin(0x2A, 0, Compare), Integer, lanes(compare, compare::fcmp_eq);
            FcmpNe = asm "fcmp_ne", (COMPARE, Float), wbin(0x2A, 1, Compare), Integer, lanes(compare, compare::fcmp_ne);
            FcmpLt = asm "fcmp_lt", (COMPARE, Float), wbin(0x2A, 2, Compare), Integer, lanes(compare, compare::fcmp_lt);
            FcmpLe = asm "fcmp_le", (COMPARE, Float), wbin(0x2A, 3, Compare), Integer, lanes(compare, compare::fcmp_le);
            FcmpGt = asm "fcmp_gt", (COMPARE, Float), wbin(0x2A, 4, Compare), Integer, lanes(compare, compare::fcmp_gt);
            FcmpOrd = asm "fcmp_ord", (COMPARE, Float), wbin(0x2A, 6, Compare), Integer, lanes(compare, compare::fcmp_ord);
            FcmpUnord = asm "fcmp_unord", (COMPARE, Float), wbin(0x2A, 7, Compare), Integer, lanes(compare, compare::fcmp_unord);
            /// `select dst, p(a), b, c`: dst = p ? b : c.
            Select = asm "select", (SELECT, Any), wbin(0x2B, 0, Select), Integer, own;
            // Conversions, `cvt_DST_SRC`.
            CvtF32I32 = asm "cvt_f32_i32", (UNARY, None), wbin(0x2C, 0, Unary), Float, lanes(map1, convert::cvt_f32_i32);
            CvtF32U32 = asm "cvt_f32_u32", (UNARY, None), wbin(0x2C, 1, Unary), Float, lanes(map1, convert::cvt_f32_u32);
            CvtI32F32 = asm "cvt_i32_f32", (UNARY, None), wbin(0x2C, 2, Unary), Float, lanes(map1, convert::cvt_i32_f32);
            CvtU32F32 = asm "cvt_u32_f32", (UNARY, None), wbin(0x2C, 3, Unary), Float, lanes(map1, convert::cvt_u32_f32);
            CvtF32F16 = asm "cvt_f32_f16", (UNARY, None), wbin(0x2C, 4, Unary), Float, lanes(map1, convert::cvt_f32_f16);
            CvtF16F32 = asm "cvt_f16_f32", (UNARY, None), wbin(0x2C, 5, Unary), Float, lanes(map1, convert::cvt_f16_f32);
            CvtF32F64 = asm "cvt_f32_f64", (CVT_FROM_PAIR, None), wbin(0x2C, 6, Unary), Float, own;
            CvtF64F32 = asm "cvt_f64_f32", (CVT_TO_PAIR, None), wbin(0x2C, 7, Unary), Float, own;
            CvtF32Bf16 = asm "cvt_f32_bf16", (UNARY, None), wbin(0x2C, 8, Unary), Float, lanes(map1, convert::cvt_f32_bf16);
            CvtBf16F32 = asm "cvt_bf16_f32", (UNARY, None), wbin(0x2C, 9, Unary), Float, lanes(map1, convert::cvt_bf16_f32);
            // Memory: loads `dst <- [a]`, stores `[a] <- b` (u64: b,b+1; u128: b..b+3).
            LocalLoadU8 = asm "local_load_u8", (LOAD, None), wbin(0x30, 0, Unary), Memory, own;
            LocalLoadU16 = asm "local_load_u16", (LOAD, None), wbin(0x30, 1, Unary), Memory, own;
            LocalLoadU32 = asm "local_load_u32", (LOAD, None), wbin(0x30, 2, Unary), Memory, own;
            LocalLoadU64 = asm "local_load_u64", (LOAD_PAIR, None), wbin(0x30, 3, Unary), Memory, own;
            LocalStoreU8 = asm "local_store_u8", (STORE, None), wbin(0x31, 0, Store), Memory, own;
            LocalStoreU16 = asm "local_store_u16", (STORE, None), wbin(0x31, 1, Store), Memory, own;
            LocalStoreU32 = asm "local_store_u32", (STORE, None), wbin(0x31, 2, Store), Memory, own;
            LocalStoreU64 = asm "local_store_u64", (STORE_PAIR, None), wbin(0x31, 3, Store), Memory, own;
            DeviceLoadU8 = asm "device_load_u8", (LOAD, None), wbin(0x38, 0, Unary), Memory, own;
            DeviceLoadU16 = asm "device_load_u16", (LOAD, None), wbin(0x38, 1, Unary), Memory, own;
            DeviceLoadU32 = asm "device_load_u32", (LOAD, None), wbin(0x38, 2, Unary), Memory, own;
            DeviceLoadU64 = asm "device_load_u64", (LOAD_PAIR, None), wbin(0x38, 3, Unary), Memory, own;
            DeviceLoadU128 = asm "device_load_u128", (LOAD_QUAD, None), wbin(0x38, 4, Unary), Memory, own;
            DeviceStoreU8 = asm "device_store_u8", (STORE, None), wbin(0x39, 0, Store), Memory, own;
            DeviceStoreU16 = asm "device_store_u16", (STORE, None), wbin(0x39, 1, Store), Memory, own;
            DeviceStoreU32 = asm "device_store_u32", (STORE, None), wbin(0x39, 2, Store), Memory, own;
            DeviceStoreU64 = asm "device_store_u64", (STORE_PAIR, None), wbin(0x39, 3, Store), Memory, own;
            DeviceStoreU128 = asm "device_store_u128", (STORE_QUAD, None), wbin(0x39, 4, Store), Memory, own;
            // Atomics: `dst <- old` unless `flags & NO_DST`; `[a] op= b`; CAS: expected b, desired
            // c. `wave-asm` gives CAS no modifier, so it shares add's; rs3 (the desired value) is
            // what tells the two apart in a `.wbin`.
            LocalAtomicAdd = asm "local_atomic_add", (LOCAL_ATOMIC, None, LocalAtomic), wbin(0x3C, 0, LocalAtomic), Atomic, own;
            LocalAtomicSub = asm "local_atomic_sub", (LOCAL_ATOMIC, None, LocalAtomic), wbin(0x3C, 1, LocalAtomic), Atomic, own;
            LocalAtomicMin = asm "local_atomic_min", (LOCAL_ATOMIC, None, LocalAtomic), wbin(0x3C, 2, LocalAtomic), Atomic, own;
            LocalAtomicMax = asm "local_atomic_max", (LOCAL_ATOMIC, None, LocalAtomic), wbin(0x3C, 3, LocalAtomic), Atomic, own;
            LocalAtomicAnd = asm "local_atomic_and", (LOCAL_ATOMIC, None, LocalAtomic), wbin(0x3C, 4, LocalAtomic), Atomic, own;
            LocalAtomicOr = asm "local_atomic_or", (LOCAL_ATOMIC, None, LocalAtomic), wbin(0x3C, 5, LocalAtomic), Atomic, own;
            LocalAtomicXor = asm "local_atomic_xor", (LOCAL_ATOMIC, None, LocalAtomic), wbin(0x3C, 6, LocalAtomic), Atomic, own;
            LocalAtomicExchange = asm "local_atomic_exchange", (LOCAL_ATOMIC, None, LocalAtomic), wbin(0x3C, 7, LocalAtomic), Atomic, own;
            LocalAtomicCas = asm "local_atomic_cas", (LOCAL_CAS, None, LocalAtomic), wbin(0x3C, 0, LocalCas, extended), Atomic, own;
            AtomicAdd = asm "atomic_add", (ATOMIC, None, DeviceAtomic), wbin(0x3D, 0, DeviceAtomic), Atomic, own;
            AtomicSub = asm "atomic_sub", (ATOMIC, None, DeviceAtomic), wbin(0x3D, 1, DeviceAtomic), Atomic, own;
            AtomicMin = asm "atomic_min", (ATOMIC, None, DeviceAtomic), wbin(0x3D, 2, DeviceAtomic), Atomic, own;
            AtomicMax = asm "atomic_max", (ATOMIC, None, DeviceAtomic), wbin(0x3D, 3, DeviceAtomic), Atomic, own;
            AtomicAnd = asm "atomic_and", (ATOMIC, None, DeviceAtomic), wbin(0x3D, 4, DeviceAtomic), Atomic, own;
            AtomicOr = asm "atomic_or", (ATOMIC, None, DeviceAtomic), wbin(0x3D, 5, DeviceAtomic), Atomic, own;
            AtomicXor = asm "atomic_xor", (ATOMIC, None, DeviceAtomic), wbin(0x3D, 6, DeviceAtomic), Atomic, own;
            AtomicExchange = asm "atomic_exchange", (ATOMIC, None, DeviceAtomic), wbin(0x3D, 7, DeviceAtomic), Atomic, own;
            AtomicCas = asm "atomic_cas", (CAS, None, DeviceAtomic), wbin(0x3D, 0, DeviceCas, extended), Atomic, own;
            // Wave operations over the active lanes.
            WaveShuffle = asm "wave_shuffle", (SHUFFLE, None), wbin(0x3E, 0, Binary), Wave, own;
            WaveShuffleUp = asm "wave_shuffle_up", (SHUFFLE_DELTA, None), wbin(0x3E, 1, Binary), Wave, own;
            WaveShuffleDown = asm "wave_shuffle_down", (SHUFFLE_DELTA, None), wbin(0x3E, 2, Binary), Wave, own;
            WaveShuffleXor = asm "wave_shuffle_xor", (SHUFFLE_MASK, None), wbin(0x3E, 3, Binary), Wave, own;
            WaveBroadcast = asm "wave_broadcast", (SHUFFLE, None), wbin(0x3E, 4, Binary), Wave, own;
            /// `wave_ballot dst, p(a)`.
            WaveBallot = asm "wave_ballot", (BALLOT, None), wbin(0x3E, 5, Ballot), Wave, own;
            /// `wave_any pd(dst), ps(a)`.
            WaveAny = asm "wave_any", (VOTE, None), wbin(0x3E, 6, Vote), Wave, own;
            /// `wave_all pd(dst), ps(a)`.
            WaveAll = asm "wave_all", (VOTE, None), wbin(0x3E, 7, Vote), Wave, own;
            WavePrefixSum = asm "wave_prefix_sum", (UNARY, None), wbin(0x3E, 8, Unary), Wave, own;
            WaveReduceAdd = asm "wave_reduce_add", (UNARY, None), wbin(0x3E, 9, Unary), Wave, own;
            WaveReduceMin = asm "wave_reduce_min", (UNARY, None), wbin(0x3E, 10, Unary), Wave, own;
            WaveReduceMax = asm "wave_reduce_max", (UNARY, None), wbin(0x3E, 11, Unary), Wave, own;
            // 4x4x4 f32 matrix ops on local memory; fragment ids are register numbers. Their three
            // operands fill the binary fields in the order they are written.
            MmaLoadA = asm "mma_load_a", (MMA_LOAD, None), wbin(0x40, 0, Binary), Float, own;
            MmaLoadB = asm "mma_load_b", (MMA_LOAD, None), wbin(0x40, 1, Binary), Float, own;
            MmaStoreC = asm "mma_store_c", (MMA_STORE, None), wbin(0x40, 2, Binary), Float, own;
            MmaCompute = asm "mma_compute", (MMA_COMPUTE, None), wbin(0x40, 3, Binary), Float, own;
            // Structured control flow. Targets are instruction indices resolved by the front end:
            /// `if p(a)`: `imm` = index of the matching `else` (or `endif`), `target` = index of
            /// `endif`.
            If = asm "if", (PREDICATE, None), wbin(0x3F, 0, Predicate), Control, own;
            /// `else`: `target` = index of the matching `endif`.
            Else = asm "else", (NONE, None), wbin(0x3F, 1, Bare), Control, own;
            EndIf = asm "endif", (NONE, None), wbin(0x3F, 2, Bare), Control, own;
            /// `loop`: `target` = index of the matching `endloop`; the body starts at the next
            /// index.
            Loop = asm "loop", (NONE, None), wbin(0x3F, 3, Bare), Control, own;
            /// `break p(a)`; `flags & NEGATE_A` for the dialect form `break !p`.
            Break = asm "break", (PREDICATE, None), wbin(0x3F, 4, Predicate), Control, own;
            /// `continue p(a)`; `flags & NEGATE_A` for the dialect form `continue !p`.
            Continue = asm "continue", (PREDICATE, None), wbin(0x3F, 5, Predicate), Control, own;
            /// `endloop`: `target` = index of the first body instruction.
            EndLoop = asm "endloop", (NONE, None), wbin(0x3F, 6, Bare), Control, own;
            /// `call label`: `target` = index of the label's instruction.
            Call = asm "call", (CALL, None), wbin(0x3F, 7, Call, extended), Control, own;
            // Sync.
            Return = asm "return", (NONE, None), wbin(0x3F, 8, Bare), Control, own;
            Halt = asm "halt", (NONE, None), wbin(0x3F, 9, Bare), Control, own;
            Barrier = asm "barrier", (NONE, None), wbin(0x3F, 10, Bare), Control, own;
            Wait = asm "wait", (NONE, None), wbin(0x3F, 14, Bare), Control, own;
            Nop = asm "nop", (NONE, None), wbin(0x3F, 15, Bare), Control, own;
            FenceAcquire = asm "fence_acquire", (FENCE, None), wbin(0x3F, 11, Fence), Control, own;
            FenceRelease = asm "fence_release", (FENCE, None), wbin(0x3F, 12, Fence), Control, own;
            FenceAcqRel = asm "fence_acq_rel", (FENCE, None), wbin(0x3F, 13, Fence), Control, own;
            // Moves (`mov rd, sr_X` is rewritten to `mov_sr` by the selector). The reference files
            // them under control.
            Mov = asm "mov", (UNARY, None), wbin(0x41, 0, Unary), Control, lanes(map1, bitwise::mov) rows;
            /// `mov_sr dst, sr(a)`: `a` is a [`SpecialRegister`] index.
            MovSr = asm "mov_sr", (MOV_SR, None), wbin(0x41, 2, MovSr), Control, own;
            /// `mov_imm dst, imm`.
            MovImm = asm "mov_imm", (MOV_IMM, None), wbin(0x41, 1, MovImm, extended), Control, own;
            // Docs dialect only: `wave-asm` rejects them, so no `.wbin` holds them.
            /// Dialect: `ucmp.gt`.
            UcmpGt = dialect "ucmp_gt", (COMPARE, Int), none, Integer, lanes(compare, compare::ucmp_gt) rows;
            /// Dialect: `ucmp.ge`.
            UcmpGe = dialect "ucmp_ge", (COMPARE, Int), none, Integer, lanes(compare, compare::ucmp_ge) rows;
            /// Dialect: `fcmp.ge`.
            FcmpGe = dialect "fcmp_ge", (COMPARE, Float), none, Integer, lanes(compare, compare::fcmp_ge);
            // Predicate logic (dialect): `dst`, `a`, `b` are predicate numbers.
            PAnd = logic "and", (PREDICATE_BINARY, None), none, Integer, own;
            POr = logic "or", (PREDICATE_BINARY, None), none, Integer, own;
            PXor = logic "xor", (PREDICATE_BINARY, None), none, Integer, own;
            PNot = logic "not", (PREDICATE_UNARY, None), none, Integer, own;
        }
    };
}
pub(crate) use for_each_op;

/// Reads the rows and hands the projection [`for_each_op!`] was asked for to its visitor.
macro_rules! op_rows {
    (
        [$projection:ident $visit:ident $args:tt]
        $(
            $(#[$doc:meta])*
            $op:ident = $(asm $asm:literal)? $(dialect $dialect:literal)? $(logic $logic:literal)?,
            $operands:tt,
            $(wbin $wbin:tt)? $(none)?,
            $category:ident,
            $(lanes($kind:ident, $module:ident :: $function:ident) $($rows:ident)?)? $(own)?;
        )*
    ) => {
        $crate::ops::project! { $projection $visit $args [
            [$( $(#[$doc])* $op, )*]
            [$( $($op $asm $operands false;)? $($op $dialect $operands true;)? )*]
            [$( $($op $logic $operands;)? )*]
            [$( $op $($asm)? $($dialect)? $($logic)?; )*]
            [$( $($op $wbin;)? )*]
            [$( $op $category; )*]
            [$( $($op $kind $crate::numeric::$module::$function;)? )*]
            [$( $($($op $rows $kind $crate::numeric::$module::$function;)?)? )*]
        ] }
    };
}
pub(crate) use op_rows;

/// Picks one projection out of the eight [`op_rows!`] writes.
macro_rules! project {
    (ops $visit:ident $args:tt [$p:tt $($rest:tt)*]) => {
        $visit! { $args $p }
    };
    (syntax $visit:ident $args:tt [$s0:tt $p:tt $($rest:tt)*]) => {
        $visit! { $args $p }
    };
    (logic $visit:ident $args:tt [$s0:tt $s1:tt $p:tt $($rest:tt)*]) => {
        $visit! { $args $p }
    };
    (names $visit:ident $args:tt [$s0:tt $s1:tt $s2:tt $p:tt $($rest:tt)*]) => {
        $visit! { $args $p }
    };
    (wbin $visit:ident $args:tt [$s0:tt $s1:tt $s2:tt $s3:tt $p:tt $($rest:tt)*]) => {
        $visit! { $args $p }
    };
    (category $visit:ident $args:tt [$s0:tt $s1:tt $s2:tt $s3:tt $s4:tt $p:tt $($rest:tt)*]) => {
        $visit! { $args $p }
    };
    (lanes $visit:ident $args:tt [$s0:tt $s1:tt $s2:tt $s3:tt $s4:tt $s5:tt $p:tt $($rest:tt)*]) => {
        $visit! { $args $p }
    };
    (rows $visit:ident $args:tt [$s0:tt $s1:tt $s2:tt $s3:tt $s4:tt $s5:tt $s6:tt $p:tt]) => {
        $visit! { $args $p }
    };
}
pub(crate) use project;

#[cfg(test)]
mod tests {
    use crate::instr::Op;
    use crate::syntax::mnemonics::{MNEMONICS, PREDICATE_LOGIC, WAVE_ASM_COUNT};

    #[test]
    fn every_op_is_one_row_in_discriminant_order() {
        for (index, op) in Op::ALL.iter().enumerate() {
            assert_eq!(*op as usize, index, "{op:?}");
        }
        // The 164 `wave-asm` mnemonics, then the docs-dialect forms and predicate logic: one entry
        // per op in one of the two tables.
        assert_eq!(
            MNEMONICS.iter().filter(|m| !m.dialect).count(),
            WAVE_ASM_COUNT
        );
        assert_eq!(Op::ALL.len(), MNEMONICS.len() + PREDICATE_LOGIC.len());
    }
}
