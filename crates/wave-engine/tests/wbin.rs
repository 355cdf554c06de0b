//! `.wbin` output and input: the assembler against the upstream assembler's golden files, the
//! disassembler against the assembler (both ways), and the decoder against malformed files.
#![cfg(not(target_arch = "wasm32"))]

#[path = "differential/gen.rs"]
#[allow(dead_code)]
mod gen;
#[path = "wbin/golden.rs"]
mod golden;
#[path = "wbin/programs.rs"]
mod programs;
#[path = "differential/rng.rs"]
mod rng;
#[path = "wbin/sha256.rs"]
mod sha256;

use std::sync::OnceLock;

use proptest::prelude::*;
use wave_engine::compile;
use wave_engine::wbin::{assemble, decode, disassemble, WbinError};

/// The first differing byte of two files, with a few bytes of context, for failure messages.
fn first_difference(ours: &[u8], theirs: &[u8]) -> Option<String> {
    if ours == theirs {
        return None;
    }
    let at = ours
        .iter()
        .zip(theirs)
        .position(|(a, b)| a != b)
        .unwrap_or(ours.len().min(theirs.len()));
    let window = |bytes: &[u8]| {
        let start = at & !3;
        bytes
            .get(start..(start + 8).min(bytes.len()))
            .map_or(String::new(), |b| format!("{b:02x?}"))
    };
    Some(format!(
        "first difference at byte {at:#x} (lengths {} and {}): ours {} golden {}",
        ours.len(),
        theirs.len(),
        window(ours),
        window(theirs)
    ))
}

/// Golden files whose source has changed since they were made no longer apply; at least this
/// many must still be compared (63 of the 64 do today).
const MIN_COMPARED: usize = 50;

#[test]
fn sources_assemble_to_the_upstream_assemblers_bytes() {
    let mut compared = 0;
    let mut skipped = Vec::new();
    let mut failures = Vec::new();
    for golden in golden::all() {
        let Some(source) = &golden.source else {
            skipped.push(format!("{} ({} changed)", golden.name, golden.source_path));
            continue;
        };
        compared += 1;
        match assemble(source) {
            Ok(bytes) => {
                if let Some(difference) = first_difference(&bytes, &golden.bytes) {
                    failures.push(format!("{}: {difference}", golden.name));
                }
            }
            Err(error) => failures.push(format!("{}: does not assemble: {error}", golden.name)),
        }
    }
    if !skipped.is_empty() {
        eprintln!(
            "skipped, source changed since the golden file was made: {}",
            skipped.join(", ")
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        compared >= MIN_COMPARED,
        "only {compared} golden files still match their sources (skipped: {})",
        skipped.join(", ")
    );
}

#[test]
fn every_golden_file_disassembles_to_source_that_assembles_back() {
    // Every golden file, even one whose source moved on: the bytes are still wave-asm's.
    for golden in golden::all() {
        let text = disassemble(&golden.bytes).unwrap_or_else(|e| panic!("{}: {e}", golden.name));
        let compiled = compile(&text);
        assert!(
            !compiled.has_errors(),
            "{}:\n{text}\n{:?}",
            golden.name,
            compiled.diagnostics
        );
        let again = assemble(&text).unwrap_or_else(|e| panic!("{}: {e}\n{text}", golden.name));
        if let Some(difference) = first_difference(&again, &golden.bytes) {
            panic!("{}: {difference}\n{text}", golden.name);
        }
    }
}

fn golden_bytes(name: &str) -> Vec<u8> {
    std::fs::read(golden::directory().join(name)).unwrap()
}

#[test]
fn a_disassembly_names_call_targets_and_keeps_the_directives() {
    // The label count puts `add_ten` at 0x20 (mov_imm and call count 8, iadd 4); its true
    // offset is 0x24, which is what the label is named after and where it is placed.
    let text = disassemble(&golden_bytes("cf_call_return.wbin")).unwrap();
    let expected = "\
.kernel cf_call_return
    mov_imm r1, 0x00000001               ; 0x0000
    call L_0024                          ; 0x0008
    iadd r1, r1, r1                      ; 0x0010
    call L_0024                          ; 0x0018
    halt                                 ; 0x0020
L_0024:
    mov_imm r9, 0x0000000a               ; 0x0024
    iadd r1, r1, r9                      ; 0x002c
    return                               ; 0x0034
.end
";
    assert_eq!(text, expected);

    let text = disassemble(&golden_bytes("f64.wbin")).unwrap();
    assert!(
        text.starts_with(".kernel f64\n    .registers 48\n"),
        "{text}"
    );
    let text = disassemble(&golden_bytes("bench_gemm_blocked.wbin")).unwrap();
    assert!(
        text.starts_with(
            ".kernel gemm_blocked\n    .local_memory 8208\n    .workgroup_size 16, 16, 1\n"
        ),
        "{text}"
    );
}

#[test]
fn the_decoder_reads_kernels_operands_and_predicates() {
    let wbin = decode(&golden_bytes("predication.wbin")).unwrap();
    let [kernel] = &wbin.kernels[..] else {
        panic!("one kernel expected, got {}", wbin.kernels.len());
    };
    assert_eq!(kernel.name.as_deref(), Some("predication"));
    assert_eq!(kernel.register_count, 32);
    assert_eq!(kernel.code_size, 88);
    // `@p0 mov_imm r2, 5` is stored as unpredicated; `@!p0 mov_imm r3, 6` keeps its guard.
    let guards: Vec<_> = kernel.instructions.iter().map(|i| i.predicate).collect();
    assert_eq!(guards[7], None);
    assert_eq!(guards[8], Some((0, true)));
    assert_eq!(guards[9], Some((1, false)));
    assert_eq!(guards[10], Some((1, true)));
}

#[test]
fn several_kernels_lie_back_to_back_and_calls_count_across_them() {
    let source = "\
.kernel first
    .registers 40
    mov_imm r1, 1
    iadd r2, r1, r1
    halt
.end
.kernel second
    .local_memory 256
    .workgroup_size 8, 2, 1
    fma r1, r2, r3, r4
    call helper
    halt
helper:
    return
.end
";
    let bytes = assemble(source).unwrap();
    let wbin = decode(&bytes).unwrap();
    let names: Vec<_> = wbin
        .kernels
        .iter()
        .map(|k| k.name.clone().unwrap())
        .collect();
    assert_eq!(names, ["first", "second"]);
    let [first, second] = &wbin.kernels[..] else {
        unreachable!()
    };
    assert_eq!(
        (first.code_offset, first.code_size, first.register_count),
        (0, 20, 40)
    );
    assert_eq!((second.code_offset, second.code_size), (20, 24));
    assert_eq!(
        (second.local_memory, second.workgroup_size),
        (256, [8, 2, 1])
    );
    // The label table counts mov_imm 8, iadd 4, halt 4 in the first kernel, then fma 8, call 8
    // and halt 4: `helper` is at 16 + 20 = 36, though its true offset is 20 + 20 = 40.
    let call = &bytes[0x20 + 20 + 8..0x20 + 20 + 16];
    assert_eq!(u32::from_le_bytes(call[4..8].try_into().unwrap()), 36);
    let text = disassemble(&bytes).unwrap();
    assert!(text.contains("    call L_0014"), "{text}");
    assert_eq!(assemble(&text).unwrap(), bytes);
}

#[test]
fn edge_programs_survive_a_round_trip() {
    let sources = [
        "",
        "; only a comment\n",
        ".kernel empty\n.end\n",
        ".kernel k\n    call end\n    halt\nend:\n.end\n.kernel k2\n    halt\n.end\n",
        ".kernel same\n    call f\n    halt\nf:\n    return\n.end\n.kernel other\n    call f\n    halt\nf:\n    return\n.end\n",
    ];
    for source in sources {
        round_trip(source).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn a_cas_whose_desired_value_is_r0_is_told_from_an_add_by_the_call_targets() {
    // Same bytes, but wave-asm's label table counts the add 4 bytes and the CAS 8. A label before
    // an instruction the table counts 8 (mov_imm) is only reachable under one reading.
    let cas = "local_atomic_cas r1, r2, r3, r0";
    let add = "local_atomic_add r1, r2, r3";
    let device_cas = "atomic_cas r4, r2, r3, r0, .device";
    let determined: [(&[&str], usize); 4] = [
        (&[cas, "call f", "halt", "f:", "mov_imm r1, 1", "return"], 1),
        (&[add, "call f", "halt", "f:", "mov_imm r1, 1", "return"], 0),
        (
            &[
                cas,
                "f:",
                "mov_imm r5, 1",
                cas,
                "g:",
                "mov_imm r6, 2",
                "call g",
                "call f",
                "halt",
            ],
            2,
        ),
        (
            &[
                add,
                "f:",
                "mov_imm r5, 1",
                device_cas,
                "g:",
                "mov_imm r6, 2",
                "call f",
                "call g",
                "halt",
            ],
            1,
        ),
    ];
    for (lines, cas_count) in determined {
        let source = format!(".kernel k\n{}\n.end\n", lines.join("\n"));
        round_trip(&source).unwrap_or_else(|e| panic!("{e}"));
        let text = disassemble(&assemble(&source).unwrap()).unwrap();
        assert_eq!(text.matches("_cas").count(), cas_count, "{source}\n{text}");
    }
    // Where both readings put every call on an instruction, the bytes cannot tell; either way
    // the disassembly assembles to them.
    let ambiguous: [&[&str]; 2] = [
        &[cas, "call f", "halt", "f:", "return"],
        &[
            cas, "f:", add, "g:", cas, "h:", add, "call g", "call f", "call h", "halt",
        ],
    ];
    for lines in ambiguous {
        let source = format!(".kernel k\n{}\n.end\n", lines.join("\n"));
        round_trip(&source).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn wave_asm_spellings_encode_as_wave_asm_encodes_them() {
    let word1 = |source: &str| {
        let bytes = assemble(&format!(".kernel k\n{source}\nhalt\n.end\n")).unwrap();
        (
            u32::from_le_bytes(bytes[0x20..0x24].try_into().unwrap()),
            bytes
                .get(0x24..0x28)
                .map(|w| u32::from_le_bytes(w.try_into().unwrap())),
        )
    };
    // A float immediate keeps the low half of its f64 bits; 1e-40's are not zero.
    assert_eq!(word1("mov_imm r1, 1.5").1, Some(0));
    assert_eq!(
        word1("mov_imm r1, 1e-40").1,
        Some(1e-40f64.to_bits() as u32)
    );
    // `@p0` is no predicate; `@!p0` is.
    assert_eq!(word1("@p0 iadd r1, r2, r3"), word1("iadd r1, r2, r3"));
    assert_eq!(word1("@!p0 iadd r1, r2, r3").0 & 0xF, 0b100);
    // CAS shares add's modifier; the desired register in rs3 sets it apart.
    assert_eq!(
        word1("atomic_cas r1, r2, r3, r4, .device"),
        (0x3D01_0200, Some(0x0304_0002))
    );
    // `rd` = r0 and no `rd` are the same non-returning atomic.
    assert_eq!(
        word1("local_atomic_add r0, r2, r3"),
        word1("local_atomic_add r2, r3")
    );
    // Cache hints and register halves leave no trace; `mov rd, sr_X` is `mov_sr`.
    assert_eq!(
        word1("device_load_u32.cached r1.hi, r2"),
        word1("device_load_u32 r1, r2")
    );
    assert_eq!(word1("mov r1, sr_lane_id"), word1("mov_sr r1, sr_lane_id"));
}

#[test]
fn docs_dialect_and_compile_errors_are_not_assembled() {
    let cases = [
        ("iadd r1, r2, 5", "immediate operand"),
        ("break !p1", "`!` only in the `@` prefix"),
        ("fcmp_ge p1, r1, r2", "docs dialect"),
        ("ucmp_gt p1, r1, r2", "docs dialect"),
        ("and p1, p2, p3", "docs dialect"),
    ];
    for (statement, expected) in cases {
        let body = if statement.starts_with("break") {
            format!("loop\n{statement}\nendloop")
        } else {
            statement.to_string()
        };
        let source = format!(".kernel k\n{body}\nhalt\n.end\n");
        let error = assemble(&source).unwrap_err();
        let [diagnostic] = &error.diagnostics[..] else {
            panic!("{statement}: {:?}", error.diagnostics);
        };
        assert!(
            diagnostic.message.contains(expected),
            "{statement}: {}",
            diagnostic.message
        );
        let line = if statement.starts_with("break") { 3 } else { 2 };
        assert_eq!(diagnostic.line, line, "{statement}");
    }
    let error = assemble(".kernel k\n    frobnicate r1\n    halt\n.end\n").unwrap_err();
    assert!(
        error.diagnostics[0].message.contains("frobnicate"),
        "{error}"
    );
    assert_eq!(error.diagnostics[0].line, 2);
}

// Malformed files. Each case is a small valid file with one thing broken; the error must name
// the byte at fault.

/// A one-kernel file: `iadd r1, r2, r3; halt`, named `k`.
fn sample() -> Vec<u8> {
    assemble(".kernel k\n    iadd r1, r2, r3\n    halt\n.end\n").unwrap()
}

const CODE: usize = 0x20;
/// sample(): code 12 bytes, symbols "k\0" at 0x2c, metadata at 0x2e.
const SYMBOLS: usize = 0x2c;
const METADATA: usize = 0x2e;
const RECORD: usize = METADATA + 4;

fn put_u32(bytes: &mut [u8], at: usize, value: u32) {
    bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

fn expect_error(bytes: &[u8], offset: usize, words: &str) {
    let error: WbinError = match disassemble(bytes) {
        Ok(text) => panic!("expected an error about {words:?}, got:\n{text}"),
        Err(error) => error,
    };
    assert!(error.message.contains(words), "{error} (wanted {words:?})");
    assert_eq!(error.offset, offset, "{error}");
}

#[test]
fn sample_layout_is_as_the_cases_assume() {
    let bytes = sample();
    assert_eq!(bytes.len(), RECORD + 32);
    assert_eq!(&bytes[SYMBOLS..METADATA], b"k\0");
    assert!(disassemble(&bytes).is_ok());
}

#[test]
fn malformed_headers_and_sections_name_their_offset() {
    let sample = sample();
    let with = |edit: &dyn Fn(&mut Vec<u8>)| {
        let mut bytes = sample.clone();
        edit(&mut bytes);
        bytes
    };
    expect_error(&[], 0, "not a .wbin");
    expect_error(b"WA", 2, "ends inside its magic");
    expect_error(&with(&|b| b[0] = b'X'), 0, "not a .wbin");
    expect_error(&sample[..20], 20, "header is truncated");
    expect_error(&with(&|b| b[4] = 2), 4, "unsupported .wbin version 2");
    expect_error(&with(&|b| b[6] = 1), 6, "unknown header flags");
    expect_error(&with(&|b| put_u32(b, 8, 0x1000)), 8, "code section");
    expect_error(&with(&|b| put_u32(b, 12, 0x1000)), 8, "runs past the end");
    expect_error(&with(&|b| put_u32(b, 12, 10)), 12, "not a whole number");
    expect_error(&with(&|b| put_u32(b, 20, 0x1000)), 16, "symbol section");
    expect_error(&with(&|b| put_u32(b, 24, 0x1000)), 24, "metadata section");
    expect_error(
        &with(&|b| put_u32(b, 28, 2)),
        28,
        "too few for its 4-byte kernel count",
    );
    expect_error(
        &with(&|b| put_u32(b, METADATA, 2)),
        METADATA,
        "2 kernels need 68 bytes",
    );
    expect_error(
        &with(&|b| put_u32(b, METADATA, u32::MAX)),
        METADATA,
        "kernels need",
    );
    // Truncating the file cuts the metadata short.
    expect_error(
        &sample[..sample.len() - 1],
        24,
        "runs past the end of the file",
    );
}

#[test]
fn malformed_kernel_records_name_their_offset() {
    let sample = sample();
    let with = |edit: &dyn Fn(&mut Vec<u8>)| {
        let mut bytes = sample.clone();
        edit(&mut bytes);
        bytes
    };
    expect_error(
        &with(&|b| put_u32(b, RECORD + 28, 16)),
        RECORD + 24,
        "outside the code section",
    );
    expect_error(
        &with(&|b| put_u32(b, RECORD + 24, 4)),
        RECORD + 24,
        "outside the code section",
    );
    expect_error(
        &with(&|b| put_u32(b, RECORD + 24, 2)),
        RECORD + 24,
        "not aligned",
    );
    expect_error(
        &with(&|b| put_u32(b, RECORD, 0x10)),
        RECORD,
        "outside the symbol table",
    );
    expect_error(
        &with(&|b| b[SYMBOLS + 1] = b'x'),
        SYMBOLS,
        "not NUL-terminated",
    );
    expect_error(&with(&|b| b[SYMBOLS] = 0xFF), SYMBOLS, "not UTF-8");
    // An 8-byte `iadd` cut to its first word by the kernel's size.
    expect_error(
        &with(&|b| put_u32(b, RECORD + 28, 4)),
        CODE,
        "takes 8 bytes",
    );
}

#[test]
fn malformed_instructions_name_their_offset() {
    let sample = sample();
    let with = |edit: &dyn Fn(&mut Vec<u8>)| {
        let mut bytes = sample.clone();
        edit(&mut bytes);
        bytes
    };
    // iadd r1, r2, r3 is 0x00010200 0x03000000; halt is 0x3f000090.
    expect_error(&with(&|b| b[CODE + 3] = 0x35), CODE, "unknown opcode 0x35");
    expect_error(
        &with(&|b| b[CODE + 3] = 0x29),
        CODE,
        "unknown modifier 0 for opcode 0x29",
    );
    // The emulator's decoder reads modifier 8 as CAS, but wave-asm never writes it.
    expect_error(
        &with(&|b| {
            b[CODE + 3] = 0x3C;
            b[CODE] = 0x80;
        }),
        CODE,
        "unknown modifier 8 for opcode 0x3c",
    );
    expect_error(&with(&|b| b[CODE] = 0x08), CODE, "bits 0x00000008");
    expect_error(&with(&|b| b[CODE + 4] = 0x01), CODE + 4, "second word");
    expect_error(&with(&|b| b[CODE + 10] = 0x05), CODE + 8, "`halt` has bits");
    expect_error(&with(&|b| b[CODE + 1] = 0xFF), CODE, "r255 does not exist");
    // icmp_eq with p7 as its destination.
    let compare = assemble(".kernel k\n    icmp_eq p1, r2, r3\n    halt\n.end\n").unwrap();
    let mut bad = compare.clone();
    bad[CODE + 2] = 7;
    expect_error(&bad, CODE, "only p0-p3 exist");
    // mov_sr of special register 20.
    let special = assemble(".kernel k\n    mov_sr r1, sr_lane_id\n    halt\n.end\n").unwrap();
    let mut bad = special.clone();
    bad[CODE + 1] = 20;
    expect_error(&bad, CODE, "special register 20 does not exist");
}

#[test]
fn binaries_the_source_cannot_express_name_their_offset() {
    let sample = sample();
    let mut longer = sample.clone();
    longer.push(0);
    expect_error(&longer, sample.len(), "1 bytes follow the metadata");
    // A predicated `if`: wave-asm writes it, the playground's source rejects it.
    let branchy = assemble(".kernel k\n    if p1\n    endif\n    halt\n.end\n").unwrap();
    let mut predicated = branchy.clone();
    predicated[CODE] |= 0b10;
    expect_error(&predicated, CODE, "cannot be predicated");
    // A call whose target falls inside an instruction by the label count.
    let calls = assemble(".kernel k\n    call f\n    halt\nf:\n    return\n.end\n").unwrap();
    let mut inside = calls.clone();
    put_u32(&mut inside, CODE + 4, 10);
    expect_error(&inside, CODE + 4, "call target 0xa");
    // A register beyond the kernel's count.
    let few =
        assemble(".kernel k\n    .registers 4\n    iadd r1, r2, r3\n    halt\n.end\n").unwrap();
    let mut beyond = few.clone();
    beyond[CODE + 2] = 9;
    expect_error(&beyond, CODE, "beyond the 4 registers");
    // Kernel code out of order, a name that is no identifier, a stripped symbol table.
    let mut no_names = sample.clone();
    put_u32(&mut no_names, 16, 0);
    put_u32(&mut no_names, 20, 0);
    expect_error(&no_names, 16, "no symbol table");
    let mut odd_name = sample.clone();
    odd_name[SYMBOLS] = b'9';
    expect_error(&odd_name, SYMBOLS, "cannot be written after `.kernel`");
}

/// The golden files, read once for the property tests.
fn goldens() -> &'static [golden::Golden] {
    static GOLDENS: OnceLock<Vec<golden::Golden>> = OnceLock::new();
    GOLDENS.get_or_init(golden::all)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Any damage to a golden file is either an error inside the file, or still a binary whose
    /// disassembly assembles to exactly its bytes.
    #[test]
    fn damaged_golden_files_never_panic_and_what_decodes_round_trips(
        file in 0usize..64,
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..4),
        cut in any::<prop::sample::Index>(),
        truncate in any::<bool>(),
    ) {
        let goldens = goldens();
        let mut bytes = goldens[file % goldens.len()].bytes.clone();
        for (at, value) in edits {
            let at = at.index(bytes.len());
            bytes[at] = value;
        }
        if truncate {
            bytes.truncate(cut.index(bytes.len() + 1));
        }
        if let Err(error) = decode(&bytes) {
            prop_assert!(error.offset <= bytes.len(), "{error}");
        }
        match disassemble(&bytes) {
            Ok(text) => prop_assert_eq!(assemble(&text).ok(), Some(bytes)),
            Err(error) => prop_assert!(error.offset <= bytes.len(), "{error}"),
        }
    }

    /// Random bytes behind a valid header: never a panic.
    #[test]
    fn random_bodies_never_panic(body in prop::collection::vec(any::<u8>(), 0..200)) {
        let mut bytes = sample()[..0x20].to_vec();
        bytes.extend(body);
        if let Err(error) = disassemble(&bytes) {
            prop_assert!(error.offset <= bytes.len(), "{error}");
        }
    }

    /// assemble → disassemble → assemble is the identity, on programs that use every mnemonic.
    #[test]
    fn generated_programs_survive_a_round_trip(seed in any::<u64>()) {
        let source = programs::program(seed);
        round_trip(&source)?;
    }

    /// The same for the differential tests' programs (structured kernels as people write them).
    #[test]
    fn differential_programs_survive_a_round_trip(seed in any::<u64>()) {
        round_trip(&gen::generate(seed).source)?;
    }
}

fn round_trip(source: &str) -> Result<(), TestCaseError> {
    let bytes = assemble(source)
        .map_err(|e| TestCaseError::fail(format!("{e}\n--- source ---\n{source}")))?;
    let text = disassemble(&bytes)
        .map_err(|e| TestCaseError::fail(format!("{e}\n--- source ---\n{source}")))?;
    let again = assemble(&text)
        .map_err(|e| TestCaseError::fail(format!("{e}\n--- disassembly ---\n{text}")))?;
    prop_assert!(
        again == bytes,
        "{}\n--- source ---\n{source}\n--- disassembly ---\n{text}",
        first_difference(&again, &bytes).unwrap_or_default()
    );
    Ok(())
}
