//! Runs the built `wavesim` binary on small kernels written into a temporary directory.
#![cfg(not(target_arch = "wasm32"))]

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Output;

mod common;

use common::{stderr, stdout, wavesim, write};

fn scratch() -> PathBuf {
    common::scratch("cli")
}

/// Exit code 1 with an error message and no panic: `error: …`, or `FILE:LINE:COL: error: …`
/// for a problem at a place in the file.
fn assert_error(output: &Output) -> String {
    let err = stderr(output);
    assert_eq!(output.status.code(), Some(1), "stderr: {err}");
    let first = err.lines().next().unwrap_or("");
    let located = first
        .split_once(": error: ")
        .is_some_and(|(place, _)| place.rsplitn(3, ':').count() == 3);
    assert!(err.starts_with("error: ") || located, "stderr: {err}");
    assert!(!err.contains("panicked"), "stderr: {err}");
    err
}

/// Eight lanes: even lanes store 100, odd lanes 200, at byte lane*4.
const PARITY: &str = "\
.kernel parity
    mov_sr   r0, sr_lane_id
    mov_imm  r1, 1
    and      r2, r0, r1
    mov_imm  r3, 0
    icmp_eq  p1, r2, r3
    if p1
        mov_imm r4, 100
    else
        mov_imm r4, 200
    endif
    mov_imm  r5, 4
    imul     r6, r0, r5
    device_store_u32 r6, r4
    halt
.end
";

/// Every lane stores r5 + lane at r6 + lane*4 (r5, r6 come from `--set-reg`).
const STORE_REGS: &str = "\
.kernel store_regs
    mov_sr  r0, sr_lane_id
    iadd    r1, r5, r0
    mov_imm r2, 4
    imul    r3, r0, r2
    iadd    r3, r3, r6
    device_store_u32 r3, r1
    halt
.end
";

/// Does nothing: for dumping memory exactly as it was loaded.
const NOTHING: &str = ".kernel nothing\n    halt\n.end\n";

/// Lane 2 of the first wave stores past the end of 1 MiB device memory (line 8).
const OUT_OF_BOUNDS: &str = "\
.kernel oob
.workgroup_size 4, 1, 1
    mov_sr  r0, sr_lane_id
    mov_imm r1, 0x3fffe
    iadd    r2, r0, r1
    mov_imm r3, 4
    imul    r2, r2, r3
    device_store_u32 r2, r0
    halt
.end
";

/// wave-emu 0.1.2's hex dump layout, restated independently of `wavesim`'s code: an 8-digit
/// address, 16 bytes as `xx ` with one extra space before the ninth, short last rows padded to
/// the full width, then `|ascii|` with `.` for anything but graphic ASCII and space.
fn reference_hex_dump(data: &[u8], base: u64) -> String {
    let mut out = String::new();
    let mut offset = 0usize;
    while offset < data.len() {
        let row = &data[offset..data.len().min(offset + 16)];
        let mut hex = String::new();
        for i in 0..16 {
            if i == 8 {
                hex += " ";
            }
            hex += &row
                .get(i)
                .map_or("   ".to_string(), |b| format!("{b:02x} "));
        }
        let ascii: String = row
            .iter()
            .map(|&b| match b {
                0x20..=0x7e => b as char,
                _ => '.',
            })
            .collect();
        writeln!(out, "{:08x}: {hex} |{ascii}|", base + offset as u64).unwrap();
        offset += 16;
    }
    out
}

#[test]
fn dumps_print_in_command_line_order() {
    let dir = scratch();
    let file = write(&dir, "parity.wave", PARITY);
    let output = wavesim(&[
        "run",
        &file,
        "--workgroup",
        "8,1,1",
        "--wave-width",
        "8",
        "--dump-u32",
        "4:2",
        "--dump-memory",
        "0:8",
        "--dump-u32",
        "0:1",
        "--dump-f32",
        "28:1",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let mut expected = String::from("200\n100\nDevice memory 0x00000000-0x00000008:\n");
    expected += &reference_hex_dump(&[100, 0, 0, 0, 200, 0, 0, 0], 0);
    expected += "100\n";
    expected += &format!("{:?}\n", f32::from_bits(200));
    assert_eq!(stdout(&output), expected);
}

#[test]
fn hex_and_f32_dumps_are_byte_identical_to_wave_emu_formats() {
    let dir = scratch();
    let file = write(&dir, "nothing.wave", NOTHING);
    let pattern: Vec<u8> = (0..=255u8).rev().chain(0..=255u8).collect();
    let data = write(&dir, "pattern.bin", &pattern);
    let floats = [
        1.0f32,
        -0.0,
        0.1,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        1e-45,
        123_456_790.0,
        3.0e38,
        -2.5,
    ];
    let float_bytes: Vec<u8> = floats.iter().flat_map(|f| f.to_le_bytes()).collect();
    let float_file = write(&dir, "floats.bin", &float_bytes);
    // Ranges with a full row, an 8-byte last row, a 9-byte last row, an odd start, a 1-byte dump.
    let ranges: [(u64, u64); 6] = [
        (0x100, 0x110),
        (0x100, 0x118),
        (0x105, 0x11e),
        (0xd3, 0x1a9),
        (0x1ff, 0x200),
        (0, 0x200),
    ];
    let mut args: Vec<String> = vec![
        "run".into(),
        file.clone(),
        "--arg".into(),
        format!("0x100:{data}"),
        "--arg".into(),
        format!("0x400:{float_file}"),
        "--dump-f32".into(),
        format!("0x400:{}", floats.len()),
    ];
    for (start, end) in ranges {
        args.push("--dump-memory".into());
        args.push(format!("{start:#x}:{end:#x}"));
    }
    let arg_refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = wavesim(&arg_refs);
    assert!(output.status.success(), "{}", stderr(&output));

    let mut memory = vec![0u8; 0x200 + pattern.len()];
    memory[0x100..0x100 + pattern.len()].copy_from_slice(&pattern);
    let mut expected = String::new();
    for value in floats {
        expected += &format!("{value:?}\n");
    }
    for (start, end) in ranges {
        expected += &format!("Device memory 0x{start:08x}-0x{end:08x}:\n");
        expected += &reference_hex_dump(&memory[start as usize..end as usize], start);
    }
    assert_eq!(stdout(&output), expected);
    assert!(expected.contains("-inf\nNaN\n1e-45\n"));
}

#[test]
fn set_reg_values_reach_every_lane() {
    let dir = scratch();
    let file = write(&dir, "store.wave", STORE_REGS);
    let output = wavesim(&[
        "run",
        &file,
        "--workgroup",
        "4,1,1",
        "--set-reg",
        "5:0x2a",
        "--set-reg",
        "r6:64",
        "--dump-u32",
        "64:4",
        "--dump-u32",
        "0:1",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), "42\n43\n44\n45\n0\n");

    let output = wavesim(&[
        "run",
        &file,
        "--workgroup",
        "2,1,1",
        "--set-reg",
        "5:-2",
        "--dump-u32",
        "0:2",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), "4294967294\n4294967295\n");
}

#[test]
fn fills_then_args_apply_in_wave_emu_order() {
    let dir = scratch();
    let file = write(&dir, "nothing.wave", NOTHING);
    let patch = write(&dir, "patch.bin", 7.5f32.to_le_bytes());
    // Given in the reverse order on the command line: zero fill first, then iota, then files.
    let output = wavesim(&[
        "run",
        &file,
        "--arg",
        &format!("8:{patch}"),
        "--fill-iota",
        "0:f32:4:0.5",
        "--fill-zero",
        "0:u32:6",
        "--fill-iota",
        "0x14:f32:1",
        "--dump-f32",
        "0:6",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), "0.0\n0.5\n7.5\n1.5\n0.0\n0.0\n");

    // A zero fill really zeroes what an earlier file would have put there? No: files come last.
    let output = wavesim(&[
        "run",
        &file,
        "--arg",
        &format!("0:{patch}"),
        "--fill-zero",
        "0:u32:1",
        "--dump-f32",
        "0:1",
    ]);
    assert_eq!(stdout(&output), "7.5\n");
}

#[test]
fn kernel_workgroup_size_overrides_an_explicit_flag_with_a_note() {
    let dir = scratch();
    let source = "\
.kernel sized
.workgroup_size 3, 1, 1
    mov_sr r0, sr_lane_id
    mov_imm r1, 4
    imul r2, r0, r1
    mov_imm r3, 9
    device_store_u32 r2, r3
    halt
.end
";
    let file = write(&dir, "sized.wave", source);
    let output = wavesim(&["run", &file, "--workgroup", "8,1,1", "--dump-u32", "0:4"]);
    assert!(output.status.success());
    assert_eq!(stdout(&output), "9\n9\n9\n0\n");
    let err = stderr(&output);
    assert!(err.starts_with("note: "), "{err}");
    assert!(
        err.contains(".workgroup_size 3,1,1") && err.contains("--workgroup 8,1,1"),
        "{err}"
    );

    let output = wavesim(&["run", &file, "--dump-u32", "0:4"]);
    assert_eq!(stdout(&output), "9\n9\n9\n0\n");
    assert_eq!(stderr(&output), "");
}

#[test]
fn kernel_flag_picks_a_kernel_by_name() {
    let dir = scratch();
    let source = "\
.kernel first
    mov_imm r0, 0
    mov_imm r1, 11
    device_store_u32 r0, r1
    halt
.end
.kernel second
    mov_imm r0, 0
    mov_imm r1, 22
    device_store_u32 r0, r1
    halt
.end
";
    let file = write(&dir, "two.wave", source);
    let output = wavesim(&["run", &file, "--workgroup", "1,1,1", "--dump-u32", "0:1"]);
    assert_eq!(stdout(&output), "11\n");
    let output = wavesim(&[
        "run",
        &file,
        "--kernel",
        "second",
        "--workgroup",
        "1,1,1",
        "--dump-u32",
        "0:1",
    ]);
    assert_eq!(stdout(&output), "22\n");
    let err = assert_error(&wavesim(&["run", &file, "--kernel", "third"]));
    assert!(
        err.contains("no kernel named `third`") && err.contains("first, second"),
        "{err}"
    );
}

#[test]
fn check_prints_diagnostics_with_caret_and_fails_on_errors() {
    let dir = scratch();
    let source = ".kernel k\n    mov_imm r1, 5\n    frobnicate r1\n    halt\n.end\n";
    let file = write(&dir, "bad.wave", source);
    let output = wavesim(&["check", &file]);
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    assert!(
        header.starts_with(&format!("{file}:3:5: error: ")),
        "{text}"
    );
    assert!(header.contains("frobnicate"), "{text}");
    assert_eq!(lines.next(), Some(" 3 |     frobnicate r1"));
    assert_eq!(lines.next(), Some("   |     ^^^^^^^^^^"));

    let good = write(&dir, "good.wave", PARITY);
    let output = wavesim(&["check", &good]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), "");
    assert_eq!(stderr(&output), "ok: 1 kernel\n");
}

#[test]
fn run_reports_compile_errors_with_file_line_and_column() {
    let dir = scratch();
    let file = write(
        &dir,
        "bad.wave",
        ".kernel k\n    frobnicate r1\n    halt\n.end\n",
    );
    let err = assert_error(&wavesim(&["run", &file]));
    assert!(
        err.starts_with(&format!(
            "{file}:2:5: error: unknown instruction `frobnicate`\n"
        )),
        "{err}"
    );
    assert!(
        err.contains(" 2 |     frobnicate r1\n   |     ^^^^^^^^^^\n"),
        "{err}"
    );
}

#[test]
fn out_of_bounds_store_names_the_line_lane_and_instruction() {
    let dir = scratch();
    let file = write(&dir, "oob.wave", OUT_OF_BOUNDS);
    let err = assert_error(&wavesim(&["run", &file, "--dump-u32", "0:1"]));
    assert!(
        err.starts_with(&format!("{file}:8:5: error: device memory")),
        "{err}"
    );
    assert!(err.contains("address 0x100000"), "{err}");
    assert!(err.contains("workgroup 0 (0,0,0), wave 0, lane 2"), "{err}");
    assert!(
        err.contains(" 8 |     device_store_u32 r2, r0\n   |     ^^^^^^^^^^^^^^^^^^^^^^^"),
        "{err}"
    );

    // With more device memory the same kernel runs.
    let output = wavesim(&[
        "run",
        &file,
        "--device-memory",
        "0x100010",
        "--dump-u32",
        "0x100000:2",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), "2\n3\n");
}

#[test]
fn instruction_budget_is_per_workgroup_and_zero_means_unlimited() {
    let dir = scratch();
    let file = write(&dir, "parity.wave", PARITY);
    let args = ["run", &file, "--workgroup", "8,1,1", "--wave-width", "8"];
    let err = assert_error(&wavesim(
        &[&args[..], &["--max-instructions", "5"]].concat(),
    ));
    assert!(err.contains("budget") && err.contains(":7:5:"), "{err}");
    let output = wavesim(&[&args[..], &["--max-instructions", "0"]].concat());
    assert!(output.status.success());
    let output = wavesim(&[&args[..], &["--max-instructions", "14"]].concat());
    assert!(output.status.success(), "{}", stderr(&output));
}

#[test]
fn sizes_may_leave_out_trailing_ones_and_use_hex() {
    let dir = scratch();
    let file = write(&dir, "parity.wave", PARITY);
    let run = |workgroup: &str| {
        wavesim(&[
            "run",
            &file,
            "--workgroup",
            workgroup,
            "--wave-width",
            "8",
            "--dump-u32",
            "0:9",
        ])
    };
    let full = run("8,1,1");
    assert!(full.status.success(), "{}", stderr(&full));
    assert_eq!(stdout(&full).lines().filter(|l| *l == "200").count(), 4);
    for workgroup in ["8", "8,1", "0x8,1,1", "8x1", " 8 , 1 "] {
        let short = run(workgroup);
        assert!(short.status.success(), "{workgroup}: {}", stderr(&short));
        assert_eq!(stdout(&short), stdout(&full), "{workgroup}");
    }
}

#[test]
fn bad_specs_give_clear_errors() {
    let dir = scratch();
    let file = write(&dir, "parity.wave", PARITY);
    let cases: [(&[&str], &str); 12] = [
        (
            &["--grid", "1,2,3,4"],
            "invalid --grid `1,2,3,4`: expected X, X,Y or X,Y,Z",
        ),
        (&["--workgroup", "8,x,1"], "invalid --workgroup `8,x,1`: y:"),
        (&["--wave-width", "0"], "1 to 64"),
        (&["--wave-width", "65"], "1 to 64"),
        (
            &["--set-reg", "r1"],
            "invalid --set-reg `r1`: `r1`: expected REGISTER=VALUE or REGISTER:VALUE",
        ),
        (&["--set-reg", "1:zz"], "`zz` is not a whole number"),
        (&["--dump-u32", "0"], "invalid --dump-u32 `0`"),
        (
            &["--dump-memory", "8:4"],
            "END (0x4) must be greater than START (0x8)",
        ),
        (
            &["--dump-f32", "0xfffff:1"],
            "do not fit in device memory of 1048576 bytes",
        ),
        (
            &["--fill-iota", "0x100000:f32:1"],
            "--fill-iota 0x100000:f32:1: 4 bytes",
        ),
        (&["--fill-zero", "0:u32:0xffffffffffffffff"], "do not fit"),
        (
            &["--arg", "0:/definitely/not/here.bin"],
            "cannot read /definitely/not/here.bin",
        ),
    ];
    for (extra, needle) in cases {
        let args = [&["run", file.as_str()][..], extra].concat();
        let err = assert_error(&wavesim(&args));
        assert!(err.contains(needle), "{extra:?}: {err}");
    }
    let big = write(&dir, "big.bin", vec![1u8; 9]);
    let err = assert_error(&wavesim(&[
        "run",
        &file,
        "--device-memory",
        "16",
        "--arg",
        &format!("8:{big}"),
    ]));
    assert!(err.contains("9 bytes at offset 0x8"), "{err}");
    let err = assert_error(&wavesim(&["run", &file, "--set-reg", "200:1"]));
    assert!(err.contains("r200"), "{err}");
    // Unknown flags are usage errors with the same exit code.
    let output = wavesim(&["run", &file, "--no-such-flag"]);
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn garbage_files_never_panic() {
    let dir = scratch();
    let junk: Vec<u8> = (0..2000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let binary = write(&dir, "junk.wave", &junk);
    for command in ["run", "check"] {
        let err = assert_error(&wavesim(&[command, &binary]));
        assert!(err.contains("not UTF-8"), "{err}");
    }
    let text = write(
        &dir,
        "text.wave",
        "if p1 {{ }} .kernel .end .end r999 @p9 ::\n\t\"",
    );
    assert_error(&wavesim(&["run", &text]));
    assert_eq!(wavesim(&["check", &text]).status.code(), Some(1));

    let latin1 = write(&dir, "latin1.wave", b".kernel k\n    ; caf\xe9\n");
    let err = assert_error(&wavesim(&["check", &latin1]));
    assert_eq!(
        err,
        format!("{latin1}:2:10: error: the file is not UTF-8 text: byte 0xe9 at offset 19\n")
    );

    let empty = write(&dir, "empty.wave", "");
    let err = assert_error(&wavesim(&["run", &empty]));
    assert!(err.contains("no kernel"), "{err}");
    let output = wavesim(&["check", &empty]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stderr(&output), "ok: 0 kernels\n");

    let missing = dir.join("missing.wave");
    let err = assert_error(&wavesim(&["check", missing.to_str().unwrap()]));
    assert!(err.contains("cannot read"), "{err}");
}

#[test]
fn trace_shows_every_step_and_the_divergence_events() {
    let dir = scratch();
    let file = write(&dir, "parity.wave", PARITY);
    let output = wavesim(&[
        "run",
        &file,
        "--workgroup",
        "8,1,1",
        "--wave-width",
        "8",
        "--trace",
    ]);
    assert!(output.status.success());
    let err = stderr(&output);
    let steps: Vec<&str> = err.lines().filter(|l| l.starts_with("wg(")).collect();
    assert_eq!(steps.len(), 14, "{err}");
    assert_eq!(
        steps[0],
        "wg(0,0,0) wave[0] pc=0 line 2 mask=0xff depth=0: mov_sr   r0, sr_lane_id"
    );
    let at_if = err
        .find("pc=5 line 7 mask=0xff depth=0: if p1\n    push if mask=0xff\n    diverge then=0x55 else=0xaa\n")
        .is_some();
    assert!(at_if, "{err}");
    assert!(
        err.contains("pc=6 line 8 mask=0x55 depth=1: mov_imm r4, 100"),
        "{err}"
    );
    assert!(
        err.contains("pc=8 line 10 mask=0xaa depth=1: mov_imm r4, 200"),
        "{err}"
    );
    assert!(err.contains("endif\n    pop if mask=0xff\n"), "{err}");
    assert!(
        err.ends_with("halt\n    halt mask=0xff\n    wave done mask=0x00\n"),
        "{err}"
    );
}

#[test]
fn trace_follows_waves_round_robin_and_loops_with_break() {
    let dir = scratch();
    // Lane l runs l+1 iterations: the break parks lanes until the loop ends.
    let source = "\
.kernel counted
    mov_sr  r0, sr_thread_id_x
    mov_imm r1, 0
    mov_imm r2, 1
    loop
        icmp_gt p1, r1, r0
        break p1
        iadd r1, r1, r2
    endloop
    mov_imm r3, 4
    imul r4, r0, r3
    device_store_u32 r4, r1
    halt
.end
";
    let file = write(&dir, "loop.wave", source);
    let output = wavesim(&[
        "run",
        &file,
        "--workgroup",
        "4,1,1",
        "--wave-width",
        "2",
        "--trace",
        "--dump-u32",
        "0:4",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), "1\n2\n3\n4\n");
    let err = stderr(&output);
    let waves: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("wg("))
        .take(4)
        .map(|l| &l[10..17])
        .collect();
    assert_eq!(waves, ["wave[0]", "wave[1]", "wave[0]", "wave[1]"], "{err}");
    assert!(err.contains("push loop mask=0x3"), "{err}");
    assert!(err.contains("break p1\n    break mask=0x1\n"), "{err}");
    assert!(err.contains("pop loop mask=0x3"), "{err}");
}

#[test]
fn stats_follow_the_dumps_in_the_reference_layout_and_extras_come_apart() {
    let dir = scratch();
    let file = write(&dir, "parity.wave", PARITY);
    let output = wavesim(&[
        "run",
        &file,
        "--workgroup",
        "16,1,1",
        "--wave-width",
        "8",
        "--grid",
        "2,1,1",
        "--stats",
        "--dump-u32",
        "0:1",
    ]);
    assert!(output.status.success());
    let out = stdout(&output);
    // 4 waves x 14 instructions: per wave 3 integer (and, icmp, imul), 1 store (of 8 lanes:
    // 32 bytes) and 10 control (the moves, if/else/endif, halt).
    let expected = "100\nExecution Statistics:\n  Instructions executed: 56\n    Integer ops:         12\n    \
                    Float ops:           0\n    Memory ops:          4\n    Control ops:         40\n    \
                    Wave ops:            0\n    Atomic ops:          0\n\n  Device memory:\n    \
                    Loads:  0 (0 bytes)\n    Stores: 32 (128 bytes)\n\n  Local memory:\n    \
                    Loads:  0 (0 bytes)\n    Stores: 0 (0 bytes)\n\n  Barriers: 0\n  \
                    Divergent branches: 4\n\n  Workgroups executed: 2\n  Waves executed: 4\n";
    assert_eq!(out, expected);

    let output = wavesim(&[
        "run",
        &file,
        "--workgroup",
        "16,1,1",
        "--wave-width",
        "8",
        "--stats",
        "--extra-stats",
    ]);
    let out = stdout(&output);
    assert!(
        out.contains("  Waves executed: 2\n\nPlayground Statistics:\n"),
        "{out}"
    );
    assert!(
        out.contains("  SIMD efficiency:            85.7%\n"),
        "{out}"
    );
    assert!(out.contains("  Max stack depth:            1\n"), "{out}");
}

#[test]
fn trace_crosses_workgroups_and_shows_barriers() {
    let dir = scratch();
    let source = ".kernel bar\n    mov_sr r0, sr_thread_id_x\n    barrier\n    halt\n.end\n";
    let file = write(&dir, "bar.wave", source);
    let output = wavesim(&[
        "run",
        &file,
        "--workgroup",
        "4,1,1",
        "--wave-width",
        "2",
        "--grid",
        "2,1,1",
        "--trace",
        "--stats",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let err = stderr(&output);
    assert_eq!(
        err.lines().filter(|l| l.starts_with("wg(")).count(),
        12,
        "{err}"
    );
    // The first step of the second workgroup starts afresh at the top.
    assert!(
        err.contains(
            "\nwg(1,0,0) wave[0] pc=0 line 2 mask=0x3 depth=0: mov_sr r0, sr_thread_id_x\n"
        ),
        "{err}"
    );
    // The second wave's arrival releases both; the other wave's release names it.
    assert!(
        err.contains(
            "wave[1] pc=1 line 3 mask=0x3 depth=0: barrier\n    barrier wait mask=0x3\n    \
             wave[0] barrier release mask=0x3\n    barrier release mask=0x3\n"
        ),
        "{err}"
    );
    assert!(stdout(&output).contains("\n  Barriers: 2\n"));
}

#[test]
fn run_prints_the_warnings_on_stderr_and_quiet_hides_them() {
    let dir = scratch();
    // Runs past its last instruction: a warning, and a trap only if a lane gets there (none does).
    let file = write(
        &dir,
        "warned.wave",
        ".kernel warned\n    mov_imm r1, 7\n    halt\n    mov_imm r2, 1\n.end\n",
    );
    let output = wavesim(&["run", &file, "--workgroup", "4"]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(0), "stderr: {err}");
    assert!(
        err.contains(&format!(
            "{file}:4:5: warning: kernel can run past its last instruction"
        )),
        "stderr: {err}"
    );
    assert!(
        !stdout(&output).contains("warning"),
        "stdout stays the dumps alone"
    );
    let quiet = wavesim(&["run", &file, "--workgroup", "4", "--quiet"]);
    assert_eq!(quiet.status.code(), Some(0));
    assert!(
        !stderr(&quiet).contains("warning"),
        "stderr: {}",
        stderr(&quiet)
    );
}

#[test]
fn control_bytes_in_a_source_reach_the_terminal_escaped() {
    let dir = scratch();
    // An escape sequence and a NUL in a mnemonic: shown as text in the message and the line, the
    // carets as wide as the escaped text.
    let file = write(
        &dir,
        "esc.wave",
        ".kernel k\n    \u{1b}[31m\u{0}frobnicate r1\n    halt\n.end\n",
    );
    let err = assert_error(&wavesim(&["run", &file]));
    assert!(!err.contains('\u{1b}') && !err.contains('\u{0}'), "{err:?}");
    assert!(
        err.contains(
            "error: unexpected `\\x1b[31m\\x00frobnicate`\n 2 |     \\x1b[31m\\x00frobnicate r1\n   |     ^^^^^^^^^^^^^^^^^^^^^^\n"
        ),
        "{err}"
    );
}

#[test]
fn running_past_the_end_names_the_last_line() {
    let dir = scratch();
    let file = write(
        &dir,
        "past.wave",
        ".kernel k\n    mov_imm r1, 1\n    nop\n.end\n",
    );
    let err = assert_error(&wavesim(&["run", &file, "--quiet"]));
    assert!(
        err.starts_with(&format!(
            "{file}:3:5: error: ran past the end of the kernel (missing halt?), in workgroup 0"
        )),
        "{err}"
    );
    assert!(err.contains(" 3 |     nop\n   |     ^^^\n"), "{err}");
}
