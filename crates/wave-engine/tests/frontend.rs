//! Front-end unit tests through the public API: every mnemonic, target resolution, register
//! pairs, the docs dialect and its warnings.
#![cfg(not(target_arch = "wasm32"))]

use wave_engine::compile;
use wave_engine::instr::{flags, Guard, Instr, Op};
use wave_engine::program::Kernel;
use wave_engine::syntax::mnemonics::{Form, Kind, MNEMONICS, WAVE_ASM_COUNT};
use wave_engine::Severity;

/// Compiles a program that must have no errors; returns its first kernel and the warnings.
fn kernel_of(source: &str) -> (Kernel, Vec<String>) {
    let compiled = compile(source);
    let errors: Vec<_> = compiled
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .collect();
    assert!(
        errors.is_empty(),
        "unexpected errors for\n{source}\n{errors:#?}"
    );
    let program = compiled.program.expect("no errors means a program");
    let warnings = compiled
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .map(|d| d.message.clone())
        .collect();
    (program.kernels[0].clone(), warnings)
}

fn one(body: &str) -> (Instr, Vec<String>) {
    let (kernel, warnings) = kernel_of(&format!(".kernel k\n{body}\nhalt\n.end\n"));
    (kernel.code[0], warnings)
}

fn errors_of(source: &str) -> Vec<String> {
    compile(source)
        .diagnostics
        .into_iter()
        .filter(|d| d.is_error())
        .map(|d| d.message)
        .collect()
}

/// The source line and the expected field values for one mnemonic with made-up operands.
fn sample_operands(slots: &[wave_engine::syntax::mnemonics::Slot]) -> (Vec<String>, Vec<u8>) {
    let mut text = Vec::new();
    let mut numbers = Vec::new();
    for (index, slot) in slots.iter().enumerate() {
        let register = 2 + 4 * index as u8;
        let predicate = 1 + (index % 3) as u8;
        match slot.kind {
            Kind::R | Kind::R2 | Kind::R4 | Kind::Frag => {
                text.push(format!("r{register}"));
                numbers.push(register);
            }
            Kind::P => {
                text.push(format!("p{predicate}"));
                numbers.push(predicate);
            }
            Kind::Scope => text.push(".device".to_string()),
            Kind::Label => text.push("target".to_string()),
            Kind::Imm => text.push("5".to_string()),
            Kind::Sr => {
                text.push("sr_lane_id".to_string());
                numbers.push(4);
            }
        }
    }
    (text, numbers)
}

#[test]
fn every_wave_asm_mnemonic_lowers_to_its_op() {
    let native: Vec<_> = MNEMONICS.iter().filter(|m| !m.dialect).collect();
    assert_eq!(native.len(), WAVE_ASM_COUNT);
    let mut names: Vec<_> = MNEMONICS.iter().map(|m| m.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(
        names.len(),
        MNEMONICS.len(),
        "duplicate mnemonic in the table"
    );

    for entry in native {
        let (operands, numbers) = sample_operands(entry.slots);
        let line = format!("{} {}", entry.name, operands.join(", "));
        // Control instructions need their construct around them; `at` is the index to check.
        let (body, at) = match entry.op {
            Op::If => (format!("{line}\nendif"), 0),
            Op::Else => (format!("if p1\n{line}\nendif"), 1),
            Op::EndIf => (format!("if p1\n{line}"), 1),
            Op::Loop => (format!("{line}\nendloop"), 0),
            Op::EndLoop => (format!("loop\n{line}"), 1),
            Op::Break | Op::Continue => (format!("loop\n{line}\nendloop"), 1),
            _ => (line.clone(), 0),
        };
        let source = format!(".kernel k\n{body}\nhalt\ntarget: halt\n.end\n");
        let (kernel, warnings) = kernel_of(&source);
        assert!(warnings.is_empty(), "`{line}` warned: {warnings:?}");
        let instr = kernel.code[at];
        assert_eq!(instr.op, entry.op, "`{line}`");
        assert_eq!(instr.flags, 0, "`{line}`");
        // Operands fill dst (when the first is a destination), then a, b, c, d.
        let mut expected = [0u8; 5];
        let has_dst = entry.slots.first().is_some_and(|s| s.is_destination());
        let start = usize::from(!has_dst);
        for (slot_index, number) in numbers.iter().enumerate() {
            expected[start + slot_index] = *number;
        }
        let actual = [instr.dst, instr.a, instr.b, instr.c, instr.d];
        assert_eq!(actual, expected, "`{line}`");
        if entry.op == Op::Call {
            assert_eq!(instr.target, kernel.code.len() as u32 - 1);
        }
        if entry.op == Op::MovImm {
            assert_eq!(instr.imm, 5);
        }
    }
}

#[test]
fn atomics_have_returning_and_non_returning_forms() {
    for entry in MNEMONICS.iter().filter(|m| m.form != Form::Plain) {
        let (operands, _) = sample_operands(entry.slots);
        let returning = format!("{} {}", entry.name, operands.join(", "));
        let (instr, warnings) = one(&returning);
        assert_eq!(instr.flags & flags::NO_DST, 0, "`{returning}`");
        assert!(warnings.is_empty());

        let silent = format!("{} {}", entry.name, operands[1..].join(", "));
        let (instr, warnings) = one(&silent);
        assert_eq!(instr.op, entry.op);
        assert_eq!(instr.flags, flags::NO_DST, "`{silent}`");
        assert_eq!((instr.dst, instr.a), (0, 6), "`{silent}`: addr goes to `a`");
        assert!(warnings.is_empty());

        let with_r0 = format!("{} r0, {}", entry.name, operands[1..].join(", "));
        let (instr, warnings) = one(&with_r0);
        assert_eq!(instr.flags, flags::NO_DST, "`{with_r0}`");
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].contains("r0 is not written"), "{warnings:?}");
    }
    let missing = errors_of(".kernel k\natomic_add r3, r1, r2\nhalt\n.end\n");
    assert_eq!(missing.len(), 1);
    assert!(missing[0].contains("scope"), "{missing:?}");
}

#[test]
fn structured_targets_resolve_for_nested_constructs() {
    let source = "\
.kernel nest
    icmp_eq p1, r0, r0
    loop
        if p1
            if p1
            else
                break p1
            endif
        else
            loop
                continue p1
            endloop
        endif
    endloop
    call leaf
    halt
leaf: return
.end
";
    let (kernel, warnings) = kernel_of(source);
    assert!(warnings.is_empty(), "{warnings:?}");
    let code = &kernel.code;
    let ops: Vec<Op> = code.iter().map(|i| i.op).collect();
    use Op::*;
    assert_eq!(
        ops,
        vec![
            IcmpEq, Loop, If, If, Else, Break, EndIf, Else, Loop, Continue, EndLoop, EndIf,
            EndLoop, Call, Halt, Return
        ]
    );
    assert_eq!(code[1].target, 12, "outer loop -> its endloop");
    assert_eq!(
        code[12].target, 2,
        "outer endloop -> first body instruction"
    );
    assert_eq!(
        (code[2].imm, code[2].target),
        (7, 11),
        "outer if -> else, endif"
    );
    assert_eq!(
        (code[3].imm, code[3].target),
        (4, 6),
        "inner if -> else, endif"
    );
    assert_eq!(code[4].target, 6);
    assert_eq!(code[7].target, 11);
    assert_eq!(code[8].target, 10);
    assert_eq!(code[10].target, 9);
    assert_eq!(code[13].target, 15, "call -> label");
    assert_eq!(kernel.labels, vec![("leaf".to_string(), 15)]);
    assert_eq!(kernel.max_depth, 3);
    assert_eq!(kernel.lines[0], 2);
    assert_eq!(kernel.lines[15], 17);
    let first = &source[kernel.spans[0].start as usize..kernel.spans[0].end as usize];
    assert_eq!(first, "icmp_eq p1, r0, r0");

    // An `if` without `else` points both targets at its `endif`.
    let (kernel, _) = kernel_of(".kernel k\nif p1\nnop\nendif\nhalt\n.end\n");
    assert_eq!((kernel.code[0].imm, kernel.code[0].target), (2, 2));
}

#[test]
fn labels_are_per_kernel() {
    let source = ".kernel a\nnop\nhere: halt\n.end\n.kernel b\ncall here\nhere: halt\n.end\n";
    let program = compile(source).program.expect("compiles");
    assert_eq!(program.kernels[0].labels, vec![("here".to_string(), 1)]);
    assert_eq!(program.kernels[1].code[0].target, 1);
    assert_eq!(program.kernels[1].labels, vec![("here".to_string(), 1)]);
}

#[test]
fn register_file_covers_pairs_and_quads() {
    let (kernel, _) = kernel_of(".kernel k\ndadd r2, r4, r6\nhalt\n.end\n");
    assert_eq!((kernel.register_count, kernel.register_file_size), (32, 32));

    let (kernel, _) =
        kernel_of(".kernel k\n.registers 255\ndevice_load_u128 r250, r0\nhalt\n.end\n");
    assert_eq!(
        (kernel.register_count, kernel.register_file_size),
        (255, 255)
    );

    let (kernel, _) = kernel_of(".kernel k\n.registers 8\ncvt_f64_f32 r6, r0\ncvt_f32_f64 r0, r6\nlocal_store_u64 r0, r6\nhalt\n.end\n");
    assert_eq!(kernel.register_file_size, 8);

    for (line, bad) in [
        ("cvt_f64_f32 r7, r0", "r7-r8"),
        ("cvt_f32_f64 r0, r7", "r7-r8"),
        ("local_load_u64 r7, r0", "r7-r8"),
        ("device_store_u128 r0, r5", "r5-r8"),
        ("dma r0, r2, r4, r7", "r7-r8"),
        ("iadd r8, r0, r0", "`r8`"),
    ] {
        let errors = errors_of(&format!(".kernel k\n.registers 8\n{line}\nhalt\n.end\n"));
        assert_eq!(errors.len(), 1, "{line}: {errors:?}");
        assert!(errors[0].contains(bad), "{line}: {errors:?}");
    }
}

#[test]
fn kernel_metadata_comes_from_directives() {
    let (kernel, _) = kernel_of(
        ".kernel k\n.registers 64\n.local_memory 1024\n.workgroup_size 16, 4, 1\nhalt\n.end\n",
    );
    assert_eq!(kernel.name, "k");
    assert_eq!(kernel.register_count, 64);
    assert_eq!(kernel.local_memory, Some(1024));
    assert_eq!(kernel.workgroup_size, Some([16, 4, 1]));
    let (kernel, _) =
        kernel_of(".kernel k\n.local_memory 0\n.workgroup_size 0, 0, 0\nhalt\n.end\n");
    assert_eq!((kernel.local_memory, kernel.workgroup_size), (None, None));
}

#[test]
fn dialect_compares_lower_with_portability_warnings() {
    for (line, op) in [
        ("icmp.eq p1, r1, r2", Op::IcmpEq),
        ("icmp.ge p1, r1, r2", Op::IcmpGe),
        ("ucmp.lt p1, r1, r2", Op::UcmpLt),
        ("ucmp.gt p1, r1, r2", Op::UcmpGt),
        ("ucmp.ge p1, r1, r2", Op::UcmpGe),
        ("fcmp.ge p1, r1, r2", Op::FcmpGe),
        ("fcmp.ord p1, r1, r2", Op::FcmpOrd),
        ("fcmp.unord p1, r1, r2", Op::FcmpUnord),
        ("ucmp_gt p1, r1, r2", Op::UcmpGt),
        ("ucmp_ge p1, r1, r2", Op::UcmpGe),
        ("fcmp_ge p1, r1, r2", Op::FcmpGe),
    ] {
        let (instr, warnings) = one(line);
        assert_eq!(
            (instr.op, instr.dst, instr.a, instr.b),
            (op, 1, 1, 2),
            "{line}"
        );
        assert_eq!(warnings.len(), 1, "{line}: {warnings:?}");
        assert!(warnings[0].contains("wave-asm"), "{line}: {warnings:?}");
    }
    let (instr, warnings) = one("device_load_u32.cached r1, r2");
    assert_eq!((instr.op, warnings.len()), (Op::DeviceLoadU32, 0));
}

#[test]
fn dialect_immediates_set_flags_and_imm() {
    let cases: [(&str, u8, u32); 6] = [
        ("iadd r0, r0, 1", flags::B_IMM, 1),
        ("isub r0, -3, r0", flags::A_IMM, (-3i32) as u32),
        ("icmp.lt p1, r1, 10", flags::B_IMM, 10),
        ("fmul r1, r1, 0.5", flags::B_IMM, 0.5f32.to_bits()),
        ("fma r1, r2, r3, -2.0", flags::C_IMM, (-2.0f32).to_bits()),
        ("select r1, p1, r2, 1.5", flags::C_IMM, 1.5f32.to_bits()),
    ];
    for (line, flag, imm) in cases {
        let (instr, warnings) = one(line);
        assert_eq!((instr.flags, instr.imm), (flag, imm), "{line}");
        assert!(
            warnings.iter().any(|w| w.contains("immediate")),
            "{line}: {warnings:?}"
        );
    }
    let errors = errors_of(".kernel k\niadd r0, 1, 2\nhalt\n.end\n");
    assert_eq!(errors.len(), 1);
    assert!(errors[0].contains("more than one immediate"));
    assert_eq!(
        errors_of(".kernel k\ndevice_load_u32 r0, 16\nhalt\n.end\n").len(),
        1
    );
    assert_eq!(
        errors_of(".kernel k\niadd r0, r0, 0.5\nhalt\n.end\n").len(),
        1
    );
}

#[test]
fn predicate_logic_and_negated_operands() {
    let (instr, warnings) = one("and p2, p0, !p1");
    assert_eq!(
        (instr.op, instr.dst, instr.a, instr.b, instr.flags),
        (Op::PAnd, 2, 0, 1, flags::NEGATE_B)
    );
    assert_eq!(warnings.len(), 1);
    let (instr, _) = one("or p3, !p1, p2");
    assert_eq!((instr.op, instr.flags), (Op::POr, flags::NEGATE_A));
    let (instr, _) = one("xor p3, p1, p2");
    assert_eq!(instr.op, Op::PXor);
    let (instr, _) = one("not p1, p2");
    assert_eq!((instr.op, instr.dst, instr.a), (Op::PNot, 1, 2));
    let (instr, _) = one("and r1, r2, r3");
    assert_eq!(instr.op, Op::And);

    let (kernel, warnings) =
        kernel_of(".kernel k\nloop\nbreak !p1\n@p2 continue !p3\nendloop\nhalt\n.end\n");
    assert_eq!(
        (kernel.code[1].op, kernel.code[1].a, kernel.code[1].flags),
        (Op::Break, 1, flags::NEGATE_A)
    );
    assert_eq!(
        (kernel.code[2].guard, kernel.code[2].flags),
        (Guard::when(2), flags::NEGATE_A)
    );
    assert_eq!(warnings.len(), 2);
    assert_eq!(errors_of(".kernel k\nif !p1\nendif\nhalt\n.end\n").len(), 1);
    assert_eq!(
        errors_of(".kernel k\nand !p1, p2, p3\nhalt\n.end\n").len(),
        1
    );
}

#[test]
fn float_immediates_store_f32_bits() {
    let (instr, warnings) = one("mov_imm r0, 1.5");
    assert_eq!(instr.imm, 0x3FC0_0000);
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].contains("0x00000000"), "{warnings:?}");
    let (instr, warnings) = one("mov_imm r0, 1e5");
    assert_eq!(instr.imm, 1e5f32.to_bits());
    assert_eq!(warnings.len(), 1);
    let (instr, warnings) = one("mov_imm r0, -1");
    assert_eq!((instr.imm, warnings.len()), (u32::MAX, 0));
    let (instr, _) = one("mov_imm r0, 0xffff_ffff");
    assert_eq!(instr.imm, u32::MAX);
    let (instr, _) = one("mov_imm r0, -2147483648");
    assert_eq!(instr.imm, 0x8000_0000);
}

#[test]
fn predication_prefixes() {
    let (instr, warnings) = one("@p0 nop");
    assert_eq!(instr.guard, Guard::when(0));
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].contains("@p0"));
    let (instr, warnings) = one("@!p0 nop");
    assert_eq!((instr.guard, warnings.len()), (Guard::unless(0), 0));
    let (instr, warnings) = one("@p3 iadd r1, r1, r1");
    assert_eq!((instr.guard, warnings.len()), (Guard::when(3), 0));
    for construct in [
        "@p1 if p2\nendif",
        "if p2\n@p1 else\nendif",
        "loop\n@!p1 endloop",
    ] {
        let errors = errors_of(&format!(".kernel k\n{construct}\nhalt\n.end\n"));
        assert_eq!(errors.len(), 1, "{construct}: {errors:?}");
        assert!(errors[0].contains("cannot be predicated"));
    }
}

#[test]
fn mov_of_a_special_register_is_mov_sr() {
    let (instr, warnings) = one("mov r3, sr_workgroup_id_y");
    assert_eq!(
        (instr.op, instr.dst, instr.a, warnings.len()),
        (Op::MovSr, 3, 6, 0)
    );
    let (instr, _) = one("mov r3.hi, r4.lo");
    assert_eq!((instr.op, instr.dst, instr.a), (Op::Mov, 3, 4));
}

#[test]
fn running_off_the_end_is_a_warning_not_an_error() {
    let compiled = compile(".kernel k\nnop\n.end\n");
    assert!(compiled.program.is_some());
    assert_eq!(compiled.diagnostics.len(), 1);
    assert_eq!(
        compiled.diagnostics[0].message,
        "kernel can run past its last instruction"
    );
    assert_eq!(
        (compiled.diagnostics[0].line, compiled.diagnostics[0].column),
        (2, 1)
    );
}

#[test]
fn unknown_mnemonics_suggest_the_closest() {
    let compiled = compile(".kernel k\n  fadd r1, r1, r1\n  imull r1, r2, r3\nhalt\n.end\n");
    let error = compiled
        .diagnostics
        .iter()
        .find(|d| d.is_error())
        .expect("an error");
    assert_eq!(error.help.as_deref(), Some("did you mean `imul`?"));
    assert_eq!((error.line, error.column), (3, 3));
    assert!(compiled.program.is_none());
}

#[test]
fn used_registers_list_every_register_named_including_pair_words() {
    let source =
        ".kernel k\n    mov_imm r7, 1\n    dadd r2, r4, r4\n    iadd r0, r7, r7\n    halt\n.end\n";
    let program = compile(source).program.expect("compiles");
    // dadd names the pairs r2:r3 and r4:r5.
    assert_eq!(program.kernels[0].used_registers, vec![0, 2, 3, 4, 5, 7]);
}
