//! `wavesim run --trace-json FILE`: the JSON trace, read back with `wave_trace::Trace`, says
//! what the text trace says.
#![cfg(not(target_arch = "wasm32"))]

use std::path::PathBuf;
use std::process::{Command, Output};

use wave_trace::{Trace, TraceEnd, FORMAT, VERSION};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wavesim-trace-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn wavesim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wavesim"))
        .args(args)
        .output()
        .unwrap()
}

/// Lanes 0, 2, 4, 6 take the if side, the others the else side; every lane then halts.
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
    halt
.end
";

#[test]
fn the_json_trace_holds_the_events_of_the_text_trace() {
    let dir = scratch("parity");
    let source = dir.join("parity.wave");
    let json = dir.join("trace.json");
    std::fs::write(&source, PARITY).unwrap();
    let output = wavesim(&[
        "run",
        source.to_str().unwrap(),
        "--workgroup",
        "8,1,1",
        "--wave-width",
        "8",
        "--trace",
        "--trace-json",
        json.to_str().unwrap(),
    ]);
    assert!(output.status.success());
    let text = String::from_utf8(output.stderr).unwrap();
    let trace = Trace::parse(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!((trace.format.as_str(), trace.version), (FORMAT, VERSION));
    assert_eq!(trace.kernel, "parity");
    assert_eq!(trace.launch.wave_width, 8);
    assert_eq!((trace.first_step, trace.last_step), (0, 11));
    assert_eq!(trace.end, TraceEnd::Finished);

    // The same events in the same order as the text trace's indented lines.
    let text_events: Vec<String> = text
        .lines()
        .filter(|l| l.starts_with("    "))
        .map(|l| l.trim().split([' ']).take(2).collect::<Vec<_>>().join(" "))
        .collect();
    let json_events: Vec<String> = trace
        .events
        .iter()
        .map(|e| e.kind.replace('-', " "))
        .collect();
    assert_eq!(text_events.len(), json_events.len(), "{text}");
    for (from_text, from_json) in text_events.iter().zip(&json_events) {
        assert!(
            from_text.starts_with(from_json.as_str()),
            "{from_text} vs {from_json}"
        );
    }

    let diverge = trace.events.iter().find(|e| e.kind == "diverge").unwrap();
    assert_eq!((diverge.step, diverge.line, diverge.pc), (6, 7, 5));
    assert_eq!(diverge.instruction, "if p1");
    assert_eq!(diverge.lanes, "0x55");
    assert_eq!(diverge.else_lanes.as_deref(), Some("0xaa"));
    assert_eq!(diverge.workgroup, [0, 0, 0]);
    let done = trace.events.last().unwrap();
    assert_eq!((done.kind.as_str(), done.step), ("wave-done", 11));
}

#[test]
fn a_trap_ends_the_json_trace_with_where_it_happened() {
    let dir = scratch("trap");
    let source = dir.join("oob.wave");
    let json = dir.join("trace.json");
    // Lane 3 stores far outside device memory.
    std::fs::write(
        &source,
        ".kernel oob\n    mov_sr r0, sr_lane_id\n    mov_imm r1, 3\n    icmp_eq p1, r0, r1\n    \
         if p1\n        mov_imm r2, 0x7ffffff0\n        device_store_u32 r2, r0\n    endif\n    \
         halt\n.end\n",
    )
    .unwrap();
    let output = wavesim(&[
        "run",
        source.to_str().unwrap(),
        "--workgroup",
        "4,1,1",
        "--wave-width",
        "4",
        "--trace-json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    let trace = Trace::parse(&std::fs::read_to_string(&json).unwrap()).unwrap();
    match trace.end {
        TraceEnd::Trapped {
            lane, line, wave, ..
        } => assert_eq!((lane, line, wave), (Some(3), 7, 0)),
        other => panic!("expected a trap, got {other:?}"),
    }
    assert!(trace
        .events
        .iter()
        .any(|e| e.kind == "diverge" && e.lanes == "0x8"));
}

#[test]
fn an_unwritable_trace_file_is_a_clear_error() {
    let dir = scratch("unwritable");
    let source = dir.join("parity.wave");
    std::fs::write(&source, PARITY).unwrap();
    let json = dir.join("no-such-directory").join("trace.json");
    let output = wavesim(&[
        "run",
        source.to_str().unwrap(),
        "--trace-json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    let err = String::from_utf8(output.stderr).unwrap();
    assert!(
        err.starts_with("error: --trace-json: cannot write"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

/// The trace the playground saves after running `source` to its end.
fn playground_trace(source: &str, grid: &str, workgroup: &str, width: &str) -> String {
    let form = wave_session::ConfigForm {
        grid: grid.to_string(),
        workgroup: workgroup.to_string(),
        wave_width: width.to_string(),
        ..wave_session::ConfigForm::default()
    };
    let mut session = wave_session::Session::new(source, form);
    session.run_all();
    session.trace_json().expect("a trace").json
}

#[test]
fn wavesim_and_the_playground_write_the_same_trace() {
    let looped = "\
.kernel looped
    mov_sr  r0, sr_thread_id_x
    mov_imm r1, 0
    mov_imm r2, 1
    mov_imm r5, 2
    loop
        iadd r1, r1, r2
        icmp_gt p1, r1, r0
        break p1
        icmp_eq p2, r1, r5
        continue p2
        iadd r3, r3, r2
    endloop
    barrier
    halt
.end
";
    let cases = [
        ("parity", PARITY, "1,1,1", "8,1,1", "8"),
        ("looped", looped, "2,1,1", "6,1,1", "4"),
    ];
    for (name, source, grid, workgroup, width) in cases {
        let dir = scratch(&format!("same-{name}"));
        let file = dir.join("kernel.wave");
        let json = dir.join("trace.json");
        std::fs::write(&file, source).unwrap();
        let output = wavesim(&[
            "run",
            file.to_str().unwrap(),
            "--grid",
            grid,
            "--workgroup",
            workgroup,
            "--wave-width",
            width,
            "--trace-json",
            json.to_str().unwrap(),
        ]);
        assert!(output.status.success(), "{name}");
        let from_wavesim = std::fs::read_to_string(&json).unwrap();
        let trace = Trace::parse(&from_wavesim).unwrap();
        assert!(trace.events.len() > 5, "{name}: {from_wavesim}");
        assert_eq!(
            from_wavesim,
            playground_trace(source, grid, workgroup, width),
            "{name}"
        );
    }
}
