//! A kernel built by hand (its fields are public) reaches the machine only through
//! `Machine::new`, which refuses one that breaks a rule the machine relies on with an error,
//! never a panic. Each case starts from a kernel the front end made, breaks one rule, and checks
//! the error names it; the untouched kernel must run, so each case can only fail for its change.
#![cfg(not(target_arch = "wasm32"))]

use wave_engine::instr::{Guard, Instr, Op};
use wave_engine::machine::{LaunchConfig, Machine, StartError, Stop};
use wave_engine::program::{Field, Kernel, KernelError};

const SOURCE: &str = "\
.kernel k
.registers 8
    mov_sr r0, sr_lane_id
    mov_imm r1, 3
    icmp_lt p1, r0, r1
    icmp_eq p2, r0, r0
    if p1
        iadd r2, r0, r1
    else
        isub r2, r0, r1
    endif
    loop
        break p2
        mov r3, r2
    endloop
    call done
    halt
done:
    return
.end
";

fn compiled() -> Kernel {
    let compiled = wave_engine::compile(SOURCE);
    assert!(!compiled.has_errors(), "{:?}", compiled.diagnostics);
    compiled.program.expect("no errors").kernels.remove(0)
}

fn start(kernel: &Kernel) -> Result<Machine, StartError> {
    Machine::new(kernel, &LaunchConfig::default())
}

/// Index of the first instruction with `op`.
fn at(kernel: &Kernel, op: Op) -> usize {
    kernel
        .code
        .iter()
        .position(|instr| instr.op == op)
        .unwrap_or_else(|| panic!("no {op:?} in the kernel"))
}

fn refused(kernel: &Kernel) -> KernelError {
    assert_eq!(
        kernel.validate().map_err(StartError::Kernel),
        start(kernel).map(|_| ())
    );
    match start(kernel) {
        Err(StartError::Kernel(error)) => {
            // The message names the instruction.
            assert!(!error.to_string().is_empty());
            error
        }
        Err(other) => panic!("refused for another reason: {other}"),
        Ok(_) => panic!("a broken kernel was accepted"),
    }
}

#[test]
fn the_kernel_the_front_end_made_runs() {
    let kernel = compiled();
    assert_eq!(kernel.validate(), Ok(()));
    let mut machine = start(&kernel).expect("a compiled kernel is valid");
    assert_eq!(machine.run_to_end(), Stop::Finished);
}

#[test]
fn a_register_past_the_register_file_is_refused() {
    let mut kernel = compiled();
    let pc = at(&kernel, Op::IAdd);
    kernel.code[pc].b = 8;
    assert_eq!(
        refused(&kernel),
        KernelError::Register {
            pc: pc as u32,
            field: Field::B,
            register: 8,
            words: 1,
            register_file: 8,
        }
    );
}

#[test]
fn a_register_pair_reaching_past_the_register_file_is_refused() {
    let mut kernel = compiled();
    kernel.code[0] = Instr {
        dst: 7,
        a: 0,
        b: 2,
        ..Instr::new(Op::DAdd)
    };
    assert_eq!(
        refused(&kernel),
        KernelError::Register {
            pc: 0,
            field: Field::Dst,
            register: 7,
            words: 2,
            register_file: 8,
        }
    );
}

#[test]
fn a_load_whose_address_register_is_past_the_register_file_is_refused() {
    // The full-wave load reads the address row without a bound check per lane.
    let mut kernel = compiled();
    kernel.code[0] = Instr {
        dst: 1,
        a: 200,
        ..Instr::new(Op::DeviceLoadU32)
    };
    assert!(matches!(
        refused(&kernel),
        KernelError::Register {
            pc: 0,
            field: Field::A,
            register: 200,
            ..
        }
    ));
}

#[test]
fn a_register_file_above_256_registers_is_refused() {
    let mut kernel = compiled();
    kernel.register_file_size = 257;
    assert_eq!(
        refused(&kernel),
        KernelError::RegisterFileTooLarge { size: 257 }
    );
}

#[test]
fn a_predicate_other_than_p0_to_p3_is_refused() {
    let mut kernel = compiled();
    let pc = at(&kernel, Op::IcmpLt);
    kernel.code[pc].dst = 4;
    assert_eq!(
        refused(&kernel),
        KernelError::Predicate {
            pc: pc as u32,
            field: Field::Dst,
            predicate: 4,
        }
    );
    let mut kernel = compiled();
    let pc = at(&kernel, Op::If);
    kernel.code[pc].a = 9;
    assert!(matches!(
        refused(&kernel),
        KernelError::Predicate { predicate: 9, .. }
    ));
}

#[test]
fn a_register_in_a_field_the_instruction_does_not_use_is_refused() {
    // `iadd` has no third source; the whole-row fast path reads `c` all the same.
    let mut kernel = compiled();
    let pc = at(&kernel, Op::IAdd);
    kernel.code[pc].c = 250;
    assert_eq!(
        refused(&kernel),
        KernelError::UnusedField {
            pc: pc as u32,
            field: Field::C,
            value: 250,
        }
    );
}

#[test]
fn a_special_register_that_does_not_exist_is_refused() {
    let mut kernel = compiled();
    kernel.code[0].a = 20;
    assert_eq!(
        refused(&kernel),
        KernelError::SpecialRegister { pc: 0, index: 20 }
    );
}

#[test]
fn a_call_past_the_end_of_the_code_is_refused() {
    let mut kernel = compiled();
    let pc = at(&kernel, Op::Call);
    let len = kernel.code.len() as u32;
    // One past the last instruction is a label that ends the kernel: accepted.
    kernel.code[pc].target = len;
    assert_eq!(kernel.validate(), Ok(()));
    kernel.code[pc].target = len + 1;
    assert_eq!(
        refused(&kernel),
        KernelError::TargetOutOfRange {
            pc: pc as u32,
            field: Field::Target,
            target: len + 1,
            code_len: len,
        }
    );
}

#[test]
fn structured_targets_out_of_range_or_not_matching_are_refused() {
    let kernel = compiled();
    let (if_pc, else_pc, endif_pc) = (
        at(&kernel, Op::If),
        at(&kernel, Op::Else),
        at(&kernel, Op::EndIf),
    );
    let (loop_pc, endloop_pc) = (at(&kernel, Op::Loop), at(&kernel, Op::EndLoop));
    let len = kernel.code.len() as u32;
    let broken = |pc: usize, change: &dyn Fn(&mut Instr)| {
        let mut kernel = compiled();
        change(&mut kernel.code[pc]);
        refused(&kernel)
    };

    assert!(matches!(
        broken(if_pc, &|i| i.target = 10_000),
        KernelError::TargetOutOfRange {
            field: Field::Target,
            target: 10_000,
            ..
        }
    ));
    assert!(matches!(
        broken(if_pc, &|i| i.imm = len),
        KernelError::TargetOutOfRange {
            field: Field::Imm,
            ..
        }
    ));
    // An `if` whose end is its `else`, and one whose else-target is a later `endif`.
    assert!(matches!(
        broken(if_pc, &|i| i.target = else_pc as u32),
        KernelError::Unmatched {
            field: Field::Target,
            ..
        }
    ));
    assert!(matches!(
        broken(if_pc, &|i| i.imm = endloop_pc as u32),
        KernelError::Unmatched {
            field: Field::Imm,
            ..
        }
    ));
    assert!(matches!(
        broken(else_pc, &|i| i.target = len + 3),
        KernelError::TargetOutOfRange { .. }
    ));
    assert!(matches!(
        broken(loop_pc, &|i| i.target = endif_pc as u32),
        KernelError::Unmatched { .. }
    ));
    assert!(matches!(
        broken(endloop_pc, &|i| i.target = loop_pc as u32),
        KernelError::Unmatched { .. }
    ));
    assert!(matches!(
        broken(endloop_pc, &|i| i.target = u32::MAX),
        KernelError::TargetOutOfRange { .. }
    ));
    // A target on an instruction that has none.
    assert!(matches!(
        broken(at(&kernel, Op::IAdd), &|i| i.target = 1),
        KernelError::UnusedField {
            field: Field::Target,
            value: 1,
            ..
        }
    ));
}

#[test]
fn a_guard_and_an_immediate_operand_are_not_mistaken_for_registers() {
    // `iadd r2, r0, 300` with the immediate flag: `b` stays 0 and the value lives in `imm`.
    let mut kernel = compiled();
    let pc = at(&kernel, Op::IAdd);
    kernel.code[pc] = Instr {
        guard: Guard::when(3),
        flags: wave_engine::instr::flags::B_IMM,
        dst: 2,
        a: 0,
        imm: 300,
        ..Instr::new(Op::IAdd)
    };
    assert_eq!(kernel.validate(), Ok(()));
    // The same immediate on an instruction without the flag is a field it does not use.
    kernel.code[pc].flags = 0;
    assert!(matches!(
        refused(&kernel),
        KernelError::UnusedField {
            field: Field::Imm,
            value: 300,
            ..
        }
    ));
}
