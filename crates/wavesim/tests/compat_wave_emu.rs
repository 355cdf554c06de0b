//! `wavesim run --compat wave-emu` against wave-emu 0.1.2 itself. Each case runs the built binary
//! and, in this process, the reference library on the same program and launch, and compares
//! stdout, stderr and the exit status byte for byte. The reference's side is what its `main`
//! prints: the `--dump-memory` hex dump, then the value dumps (f32 as `{:?}`, u32 in decimal),
//! then `--stats` as its statistics display themselves; on an error, nothing more on stdout and
//! `Error: {e}` on stderr with exit status 1.
//!
//! The reference loads the binary its own assembler writes: wave-asm 0.1.2 encodes an older cut
//! of the ISA than ours (three-register instructions in one word), and names the integer
//! conversions the other way round, so the source is respelled for it and assembled by it.
#![cfg(not(target_arch = "wasm32"))]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

use wave_emu::{Emulator, EmulatorConfig};

/// What a command printed, and how it ended.
#[derive(Debug, PartialEq, Eq)]
struct Printed {
    stdout: String,
    stderr: String,
    status: i32,
}

/// One launch, spelled for both tools. The value dumps are listed before the hex dump on our
/// command line, so that the test sees wave-emu's order (hex dump first) put back.
#[derive(Clone, Debug)]
struct Launch {
    grid: [u32; 3],
    workgroup: [u32; 3],
    wave_width: u32,
    device_memory: u32,
    /// `--local-memory`; the reference's default (16384) when `None`.
    local_memory: Option<u32>,
    max_instructions: u64,
    set_reg: Vec<(u8, u32)>,
    /// `--fill-iota OFFSET:f32:COUNT:SCALE`.
    fill_iota: Vec<(u64, u64, f32)>,
    dump_f32: Option<(u64, u64)>,
    /// wavesim's own value dump; it follows `--dump-f32` here.
    dump_u32: Option<(u64, u64)>,
    dump_memory: Option<(u64, u64)>,
    stats: bool,
}

impl Default for Launch {
    fn default() -> Self {
        Launch {
            grid: [1, 1, 1],
            workgroup: [4, 1, 1],
            wave_width: 4,
            device_memory: 256,
            local_memory: None,
            max_instructions: 10_000,
            set_reg: Vec::new(),
            fill_iota: Vec::new(),
            dump_f32: None,
            dump_u32: None,
            dump_memory: Some((0, 32)),
            stats: true,
        }
    }
}

fn dims([x, y, z]: [u32; 3]) -> String {
    format!("{x},{y},{z}")
}

/// Our command line for `launch`, after `run FILE --compat wave-emu`.
fn flags(launch: &Launch) -> Vec<String> {
    let mut flags = vec![
        "--quiet".to_string(),
        format!("--grid={}", dims(launch.grid)),
        format!("--workgroup={}", dims(launch.workgroup)),
        format!("--wave-width={}", launch.wave_width),
        format!("--device-memory={}", launch.device_memory),
        format!("--max-instructions={}", launch.max_instructions),
    ];
    if let Some(bytes) = launch.local_memory {
        flags.push(format!("--local-memory={bytes}"));
    }
    for (register, value) in &launch.set_reg {
        flags.push(format!("--set-reg={register}:{value}"));
    }
    for (offset, count, scale) in &launch.fill_iota {
        flags.push(format!("--fill-iota={offset}:f32:{count}:{scale}"));
    }
    if let Some((offset, count)) = launch.dump_f32 {
        flags.push(format!("--dump-f32={offset}:{count}"));
    }
    if let Some((offset, count)) = launch.dump_u32 {
        flags.push(format!("--dump-u32={offset}:{count}"));
    }
    if let Some((start, end)) = launch.dump_memory {
        flags.push(format!("--dump-memory={start:#x}:{end:#x}"));
    }
    if launch.stats {
        flags.push("--stats".to_string());
    }
    flags
}

fn scratch_file(source: &str) -> PathBuf {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "wavesim-compat-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let path = dir.join("kernel.wave");
    std::fs::write(&path, source).expect("the kernel written");
    path
}

fn wavesim(path: &Path, extra: &[String]) -> Printed {
    let output = Command::new(env!("CARGO_BIN_EXE_wavesim"))
        .arg("run")
        .arg(path)
        .args(extra)
        .output()
        .expect("wavesim runs");
    Printed {
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
        status: output.status.code().unwrap_or(-1),
    }
}

fn ours(source: &str, launch: &Launch) -> Printed {
    let mut args = vec!["--compat".to_string(), "wave-emu".to_string()];
    args.extend(flags(launch));
    wavesim(&scratch_file(source), &args)
}

/// The source as wave-asm 0.1.2 must read it: each integer conversion under the other name of
/// its pair, which is what that assembler calls it.
fn respelled(source: &str) -> String {
    const PAIRS: [(&str, &str); 2] = [
        ("cvt_f32_i32", "cvt_i32_f32"),
        ("cvt_f32_u32", "cvt_u32_f32"),
    ];
    let mut text = source.to_string();
    for (a, b) in PAIRS {
        text = text.replace(a, "\u{1}").replace(b, a).replace('\u{1}', b);
    }
    text
}

/// wave-emu's hex dump of `bytes` read from `base`: rows of 16, a wider gap after the eighth
/// byte, short rows padded so the text column lines up, printable ASCII (and space) as itself.
fn hex_rows(bytes: &[u8], base: u64) -> String {
    let mut out = String::new();
    for (row, chunk) in bytes.chunks(16).enumerate() {
        let _ = write!(out, "{:08x}: ", base + 16 * row as u64);
        for column in 0..16 {
            if column == 8 {
                out.push(' ');
            }
            match chunk.get(column) {
                Some(byte) => {
                    let _ = write!(out, "{byte:02x} ");
                }
                None => out.push_str("   "),
            }
        }
        // A row of at most eight bytes never reached the gap above: it gets it here.
        if chunk.len() <= 8 {
            out.push(' ');
        }
        out.push_str(" |");
        out.extend(chunk.iter().map(|&byte| {
            if byte == b' ' || byte.is_ascii_graphic() {
                byte as char
            } else {
                '.'
            }
        }));
        out.push_str("|\n");
    }
    out
}

/// What the `wave-emu` command prints for `source` under `launch`, from its library.
fn reference(source: &str, launch: &Launch) -> Printed {
    let binary = wave_asm::assemble(&respelled(source), "kernel.wave")
        .unwrap_or_else(|e| panic!("wave-asm 0.1.2 rejects the case: {e:?}"))
        .binary;
    let mut emulator = Emulator::new(EmulatorConfig {
        grid_dim: launch.grid,
        workgroup_dim: launch.workgroup,
        register_count: 32,
        local_memory_size: launch.local_memory.unwrap_or(16384) as usize,
        device_memory_size: launch.device_memory as usize,
        wave_width: launch.wave_width,
        trace_enabled: false,
        f64_enabled: false,
        max_instructions: launch.max_instructions,
        initial_registers: launch.set_reg.clone(),
    });
    emulator
        .load_binary(&binary)
        .unwrap_or_else(|e| panic!("wave-emu 0.1.2 cannot load the case: {e}"));
    let mut stdout = String::new();
    let outcome = (|| {
        for &(offset, count, scale) in &launch.fill_iota {
            let bytes: Vec<u8> = (0..count)
                .flat_map(|i| (i as f32 * scale).to_le_bytes())
                .collect();
            emulator.load_device_memory(offset, &bytes)?;
        }
        let result = emulator.run()?;
        if let Some((start, end)) = launch.dump_memory {
            let bytes = emulator.read_device_memory(start, (end - start) as usize)?;
            let _ = writeln!(stdout, "Device memory 0x{start:08x}-0x{end:08x}:");
            stdout.push_str(&hex_rows(&bytes, start));
        }
        if let Some((offset, count)) = launch.dump_f32 {
            let bytes = emulator.read_device_memory(offset, 4 * count as usize)?;
            for word in bytes.chunks_exact(4) {
                let value = f32::from_le_bytes([word[0], word[1], word[2], word[3]]);
                let _ = writeln!(stdout, "{value:?}");
            }
        }
        if let Some((offset, count)) = launch.dump_u32 {
            let bytes = emulator.read_device_memory(offset, 4 * count as usize)?;
            for word in bytes.chunks_exact(4) {
                let value = u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
                let _ = writeln!(stdout, "{value}");
            }
        }
        if launch.stats {
            let _ = write!(stdout, "{}", result.stats);
        }
        Ok::<(), wave_emu::EmulatorError>(())
    })();
    let (stderr, status) = match outcome {
        Ok(()) => (String::new(), 0),
        Err(e) => (format!("Error: {e}\n"), 1),
    };
    Printed {
        stdout,
        stderr,
        status,
    }
}

/// Runs `source` both ways and requires the same output. `ends` says how the reference must end,
/// so that a case keeps testing what it is named after: `Ok(())` for a run that finishes, or
/// `Err(text)` for one whose error line contains `text`.
fn same_as_wave_emu(source: &str, launch: &Launch, ends: Result<(), &str>) -> Printed {
    let expected = reference(source, launch);
    match ends {
        Ok(()) => assert_eq!(
            (expected.status, expected.stderr.as_str()),
            (0, ""),
            "the reference run was meant to finish"
        ),
        Err(text) => assert!(
            expected.status == 1 && expected.stderr.contains(text),
            "the reference run was meant to fail with {text:?}: {expected:?}"
        ),
    }
    let actual = ours(source, launch);
    assert_eq!(
        actual,
        expected,
        "wavesim run --compat wave-emu {} differs from wave-emu 0.1.2",
        flags(launch).join(" ")
    );
    actual
}

#[test]
fn a_kernel_that_finishes_prints_the_dumps_and_stats_of_wave_emu() {
    // Two workgroups of two waves each read an iota, branch on the lane's parity and store.
    let source = "
.kernel scale
    mov_sr r0, sr_thread_id_x
    mov_sr r1, sr_workgroup_id_x
    mov_sr r2, sr_workgroup_size_x
    imad r3, r1, r2, r0          ; global index
    mov_imm r4, 4
    imul r5, r3, r4              ; its byte offset
    device_load_u32 r6, r5
    mov_imm r7, 1
    and r8, r0, r7
    mov_imm r9, 0
    icmp_eq p1, r8, r9
    if p1
        mov_imm r10, 0x40000000  ; 2.0
    else
        mov_imm r10, 0xbf000000  ; -0.5
    endif
    fmul r11, r6, r10
    mov_imm r12, 64
    iadd r13, r5, r12
    device_store_u32 r13, r11
    barrier
    halt
.end
";
    let launch = Launch {
        grid: [2, 1, 1],
        workgroup: [8, 1, 1],
        fill_iota: vec![(0, 16, 0.75)],
        dump_f32: Some((64, 16)),
        dump_u32: Some((0, 3)),
        dump_memory: Some((60, 90)),
        ..Launch::default()
    };
    let printed = same_as_wave_emu(source, &launch, Ok(()));
    assert!(printed
        .stdout
        .starts_with("Device memory 0x0000003c-0x0000005a:\n"));
    assert!(printed.stdout.contains("\n-5.625\n"), "{}", printed.stdout);
    assert!(
        printed.stdout.contains("  Barriers: 2\n"),
        "{}",
        printed.stdout
    );
}

/// Lane number in r0, 1 in r5, lane × 4 in r9; the fragments below follow.
const PROLOGUE: &str = "
.kernel k
    mov_sr r0, sr_lane_id
    mov_imm r5, 1
    mov_imm r8, 2
    shl r9, r0, r8
    mov_imm r1, 0
    mov_imm r2, 0
";

fn kernel(body: &str) -> String {
    format!("{PROLOGUE}{body}.end\n")
}

#[test]
fn a_divergent_break_inside_an_if_is_revived_at_its_endif() {
    let source = kernel(
        "
    mov_imm r6, 3
    loop
        iadd r1, r1, r5
        icmp_ge p1, r1, r6
        icmp_lt p2, r0, r8       ; lanes 0 and 1 test the break
        if p2
            break p1
        endif
        iadd r2, r2, r5
        icmp_gt p3, r1, r6
        break p3
    endloop
    device_store_u32 r9, r2
    halt
",
    );
    let printed = same_as_wave_emu(&source, &Launch::default(), Ok(()));
    assert!(printed.stdout.contains("  Divergent branches: "));
}

#[test]
fn a_partial_continue_sends_the_other_lanes_back() {
    // Iteration n: lane n continues and leaves the mask; the others go back to the top.
    let source = kernel(
        "
    mov_imm r6, 3
    loop
        iadd r1, r1, r5
        icmp_eq p2, r0, r1
        continue p2
        iadd r2, r2, r5
        icmp_ge p1, r1, r6
        break p1
    endloop
    device_store_u32 r9, r2
    halt
",
    );
    let printed = same_as_wave_emu(&source, &Launch::default(), Ok(()));
    assert!(printed.stdout.starts_with("Device memory 0x00000000-0x00000020:\n00000000: 01 00 00 00 02 00 00 00  01 00 00 00 01 00 00 00"),
        "{}", printed.stdout);
}

#[test]
fn a_uniform_continue_runs_into_the_instruction_limit() {
    let source = kernel(
        "
    mov_imm r6, 3
    loop
        iadd r1, r1, r5
        icmp_ge p1, r1, r6
        break p1
        icmp_eq p2, r1, r1
        continue p2
        iadd r2, r2, r5
    endloop
    halt
",
    );
    // Two workgroups of two waves: the limit counts one workgroup's steps, all waves together.
    let launch = Launch {
        grid: [2, 1, 1],
        workgroup: [8, 1, 1],
        max_instructions: 333,
        ..Launch::default()
    };
    same_as_wave_emu(
        &source,
        &launch,
        Err("instruction limit exceeded: 334 instructions"),
    );
}

#[test]
fn the_instruction_limit_names_the_pc_of_the_step_past_it() {
    // 8-byte instructions (mov_imm, fma) before the loop move the pcs the reference prints.
    let source = kernel(
        "
    fma r3, r1, r1, r1
    mov_imm r4, 7
    loop
        iadd r1, r1, r5
        fma r3, r1, r1, r3
    endloop
    halt
",
    );
    for limit in [40, 41, 42] {
        let launch = Launch {
            max_instructions: limit,
            ..Launch::default()
        };
        same_as_wave_emu(&source, &launch, Err("instruction limit exceeded"));
    }
}

#[test]
fn halt_inside_an_if_ends_the_whole_wave() {
    let source = kernel(
        "
    icmp_lt p1, r0, r8           ; lanes 0 and 1
    if p1
        halt
    endif
    mov_imm r3, 7
    device_store_u32 r9, r3
    halt
",
    );
    same_as_wave_emu(&source, &Launch::default(), Ok(()));
}

#[test]
fn a_guarded_halt_is_revived_at_endif_and_an_empty_one_ends_the_wave() {
    let source = kernel(
        "
    icmp_lt p1, r0, r8           ; lanes 0 and 1
    icmp_eq p2, r0, r0           ; every lane
    if p2
        @p1 halt
    endif
    mov_imm r3, 7
    device_store_u32 r9, r3
    mov_imm r3, 16
    iadd r10, r9, r3
    @p2 halt                     ; every lane: the wave ends here
    device_store_u32 r10, r3
    halt
",
    );
    same_as_wave_emu(&source, &Launch::default(), Ok(()));
}

#[test]
fn at_p0_runs_on_every_lane() {
    let source = kernel(
        "
    icmp_lt p0, r0, r8           ; p0 holds on lanes 0 and 1 only
    mov_imm r3, 5
    @p0 iadd r2, r3, r0
    device_store_u32 r9, r2
    halt
",
    );
    let printed = same_as_wave_emu(&source, &Launch::default(), Ok(()));
    assert!(
        printed
            .stdout
            .contains("05 00 00 00 06 00 00 00  07 00 00 00 08 00 00 00"),
        "{}",
        printed.stdout
    );
}

#[test]
fn a_device_access_out_of_bounds_names_the_first_faulting_lane_address() {
    // Lanes store at 54, 58, 62, 66 in 64 bytes: lane 2's word starts inside and ends outside.
    let source = kernel(
        "
    mov_imm r3, 54
    iadd r4, r9, r3
    device_store_u32 r4, r0
    halt
",
    );
    let launch = Launch {
        device_memory: 64,
        ..Launch::default()
    };
    let printed = same_as_wave_emu(&source, &launch, Err("out of bounds"));
    assert_eq!(
        printed.stderr,
        "Error: memory access out of bounds: address 0x000000000000003e\n"
    );
    assert_eq!(printed.stdout, "");
}

#[test]
fn a_local_access_out_of_bounds_names_the_first_faulting_lane_address() {
    let source = kernel(
        "
    mov_imm r3, 21
    imul r4, r0, r3              ; 0, 21, 42, 63 in 64 bytes of local memory
    local_load_u32 r6, r4
    halt
",
    );
    let launch = Launch {
        local_memory: Some(64),
        workgroup: [8, 1, 1],
        ..Launch::default()
    };
    let printed = same_as_wave_emu(&source, &launch, Err("out of bounds"));
    assert!(printed.stderr.ends_with("address 0x000000000000003f\n"));
}

#[test]
fn running_past_the_last_instruction_is_the_decoder_running_out_of_code() {
    let source = kernel(
        "
    mov_imm r3, 9
    device_store_u32 r9, r3
",
    );
    let printed = same_as_wave_emu(&source, &Launch::default(), Err("unexpected end of code"));
    assert_eq!(
        printed.stderr,
        "Error: invalid instruction at PC 0x00000034: unexpected end of code at offset 52\n"
    );
}

#[test]
fn a_wave_that_halts_before_a_barrier_deadlocks_its_workgroup() {
    // Wave w halts before the barrier in workgroup (0,w+1,0): the run stops at the first of them,
    // with a workgroup after it still to run.
    let source = "
.kernel k
    mov_sr r0, sr_wave_id
    mov_sr r1, sr_workgroup_id_y
    isub r3, r1, r0
    mov_imm r4, 1
    icmp_eq p1, r3, r4
    @p1 halt
    barrier
    halt
.end
";
    let launch = Launch {
        grid: [1, 3, 1],
        workgroup: [8, 1, 1],
        ..Launch::default()
    };
    let printed = same_as_wave_emu(source, &launch, Err("deadlock detected"));
    assert!(printed.stderr.contains("workgroup (0,1,0) deadlocked"));
}

#[test]
fn a_continue_inside_an_if_leaves_frames_that_later_trip_the_reference() {
    // A partial continue in an `if` jumps back with the `if`'s frame still open: the next time
    // round, `endloop` finds that frame on top.
    let endloop = kernel(
        "
    icmp_eq p2, r5, r5
    loop
        iadd r1, r1, r5
        iadd r3, r0, r1
        icmp_eq p3, r3, r5       ; lane 0, first time round only
        if p2
            continue p3
        endif
    endloop
    halt
",
    );
    same_as_wave_emu(
        &endloop,
        &Launch::default(),
        Err("control flow error: endloop without matching loop"),
    );
    // A continue every lane takes jumps back with no lane left, and each time round opens one
    // more `if` frame, until there are too many.
    let overflow = kernel(
        "
    icmp_eq p2, r5, r5
    loop
        iadd r1, r1, r5
        if p2
            continue p2
        endif
    endloop
    halt
",
    );
    same_as_wave_emu(
        &overflow,
        &Launch::default(),
        Err("stack overflow: control flow"),
    );
}

#[test]
fn structure_errors_reached_by_calls_and_returns() {
    // A callee that returns from inside its loop leaves the loop's frame on top for the caller.
    let callee_loop = "
inner:
    loop
        return
    endloop
    return
";
    let else_source = kernel(&format!(
        "
    icmp_lt p1, r0, r8
    if p1
        call inner
    else
        nop
    endif
    halt
{callee_loop}"
    ));
    same_as_wave_emu(
        &else_source,
        &Launch::default(),
        Err("else without matching if"),
    );
    let endif_source = kernel(&format!(
        "
    icmp_lt p1, r0, r8
    if p1
        call inner
    endif
    halt
{callee_loop}"
    ));
    same_as_wave_emu(
        &endif_source,
        &Launch::default(),
        Err("endif without matching if"),
    );
    // A call to a label inside a loop arrives with no loop frame open.
    for (op, error) in [
        ("break", "break outside of loop"),
        ("continue", "continue outside of loop"),
    ] {
        let source = kernel(&format!(
            "
    icmp_eq p1, r0, r0
    call inside
    halt
    loop
inside:
        {op} p1
    endloop
    return
"
        ));
        same_as_wave_emu(&source, &Launch::default(), Err(error));
    }
    // Nine nested calls.
    let recursion = kernel(
        "
    call deeper
    halt
deeper:
    call deeper
    return
",
    );
    same_as_wave_emu(&recursion, &Launch::default(), Err("stack overflow: call"));
}

#[test]
fn fills_and_dumps_that_do_not_fit_fail_as_wave_emu_does() {
    let source = kernel(
        "
    device_store_u32 r9, r0
    halt
",
    );
    // A dump past the end: the run and the hex dump before it still happen, then the error
    // names the first byte past the end.
    let dump = Launch {
        device_memory: 64,
        dump_f32: Some((56, 4)),
        ..Launch::default()
    };
    let printed = same_as_wave_emu(&source, &dump, Err("address 0x0000000000000040"));
    assert!(printed.stdout.starts_with("Device memory"));
    // A fill past the end fails before the run, naming its offset.
    let fill = Launch {
        device_memory: 64,
        fill_iota: vec![(60, 2, 1.0)],
        ..Launch::default()
    };
    same_as_wave_emu(&source, &fill, Err("address 0x000000000000003c"));
}

#[test]
fn without_compat_a_trap_keeps_the_located_report() {
    let source = kernel(
        "
    mov_imm r3, 54
    iadd r4, r9, r3
    device_store_u32 r4, r0
    halt
",
    );
    let launch = Launch {
        device_memory: 64,
        ..Launch::default()
    };
    let path = scratch_file(&source);
    let printed = wavesim(&path, &flags(&launch));
    assert_eq!(printed.status, 1);
    assert_eq!(printed.stdout, "");
    let first = printed.stderr.lines().next().unwrap_or("");
    assert!(
        first.ends_with(
            "kernel.wave:12:5: error: device memory access out of bounds: 4 bytes at address 0x3e, in workgroup 0 (0,0,0), wave 0, lane 2"
        ),
        "{}",
        printed.stderr
    );
    assert!(printed.stderr.contains(" |     device_store_u32 r4, r0\n"));
    assert!(!printed.stderr.contains("Error:"));
    // Asking for spec by name is the same.
    let mut spec = vec!["--compat".to_string(), "spec".to_string()];
    spec.extend(flags(&launch));
    assert_eq!(wavesim(&path, &spec), printed);
}

#[test]
fn tracing_a_compat_run_leaves_its_stdout_alone() {
    let source = kernel(
        "
    icmp_lt p1, r0, r8
    if p1
        halt
    endif
    device_store_u32 r9, r0
    halt
",
    );
    let launch = Launch::default();
    let plain = same_as_wave_emu(&source, &launch, Ok(()));
    let mut traced = vec![
        "--compat".to_string(),
        "wave-emu".to_string(),
        "--trace".to_string(),
    ];
    traced.extend(flags(&launch));
    let printed = wavesim(&scratch_file(&source), &traced);
    assert_eq!((printed.stdout, printed.status), (plain.stdout, 0));
}
