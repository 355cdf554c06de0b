//! `wavesim asm`, `wavesim dis` and `wavesim run FILE.wbin`, on the golden binaries the upstream
//! assembler wrote for the engine's fixtures.
#![cfg(not(target_arch = "wasm32"))]

#[path = "../../wave-engine/tests/wbin/golden.rs"]
mod golden;
#[path = "../../wave-engine/tests/wbin/sha256.rs"]
mod sha256;

use std::path::{Path, PathBuf};
use std::process::Output;

use wave_engine::compile;

mod common;

use common::wavesim;

fn scratch() -> PathBuf {
    common::scratch("wbin")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

fn path(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn succeeds(output: Output) -> Output {
    assert_eq!(
        output.status.code(),
        Some(0),
        "stderr: {}",
        text(&output.stderr)
    );
    output
}

/// Exit code 1 with an `error:` message and no panic.
fn fails(output: &Output) -> String {
    let err = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "stderr: {err}");
    assert!(err.starts_with("error: "), "stderr: {err}");
    assert!(!err.contains("panicked"), "stderr: {err}");
    err
}

/// The golden binary of a fixture whose source is unchanged since it was made.
fn current(name: &str) -> (PathBuf, Vec<u8>) {
    let golden = golden::all()
        .into_iter()
        .find(|g| g.name == format!("{name}.wbin"))
        .unwrap_or_else(|| panic!("no golden file {name}.wbin"));
    assert!(
        golden.source.is_some(),
        "{} changed since {name}.wbin was made: pick another fixture",
        golden.source_path
    );
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(&golden.source_path);
    (source, golden.bytes)
}

#[test]
fn asm_writes_the_upstream_assemblers_bytes() {
    let dir = scratch();
    for name in [
        "cf_call_return",
        "atomics_device",
        "f64",
        "bench_gemm_blocked",
    ] {
        let (source, golden) = current(name);
        let output = dir.join(format!("{name}.wbin"));
        succeeds(wavesim(&["asm", path(&source), "-o", path(&output)]));
        assert_eq!(std::fs::read(&output).unwrap(), golden, "{name}");
    }
    // Without -o the binary lands next to the source.
    let copy = dir.join("copy.wave");
    std::fs::copy(current("cf_if_else").0, &copy).unwrap();
    succeeds(wavesim(&["asm", path(&copy)]));
    assert_eq!(
        std::fs::read(dir.join("copy.wbin")).unwrap(),
        current("cf_if_else").1
    );
}

#[test]
fn dis_prints_source_that_compiles_and_assembles_back() {
    let dir = scratch();
    for name in [
        "cf_call_divergent",
        "wave_shuffles",
        "mma",
        "bench_divergence",
    ] {
        let golden = dir.join(format!("{name}.wbin"));
        std::fs::copy(golden::directory().join(format!("{name}.wbin")), &golden).unwrap();
        let listing = text(&succeeds(wavesim(&["dis", path(&golden)])).stdout);
        let compiled = compile(&listing);
        assert!(!compiled.has_errors(), "{name}:\n{listing}");
        let source = dir.join(format!("{name}.wave"));
        std::fs::write(&source, &listing).unwrap();
        let again = dir.join(format!("{name}.again.wbin"));
        succeeds(wavesim(&["asm", path(&source), "-o", path(&again)]));
        assert_eq!(
            std::fs::read(&again).unwrap(),
            std::fs::read(&golden).unwrap(),
            "{name}"
        );
    }
}

/// The fixtures' default launch (see the engine's tests/fixtures.rs) as wavesim flags, with a
/// fixture's own flags in place of the defaults they name.
fn fixture_launch<'a>(flags: &[&'a str]) -> Vec<&'a str> {
    let defaults = [
        ("--workgroup", "4"),
        ("--wave-width", "4"),
        ("--device-memory", "1024"),
        ("--local-memory", "1024"),
        ("--max-instructions", "100000"),
    ];
    let mut args: Vec<&str> = defaults
        .iter()
        .filter(|(flag, _)| !flags.contains(flag))
        .flat_map(|(flag, value)| [*flag, *value])
        .collect();
    args.extend(flags);
    args
}

#[test]
fn run_of_a_binary_prints_what_run_of_its_source_prints() {
    // Each fixture's launch from its `;!` lines, and dumps of what it writes.
    let cases: [(&str, &[&str]); 6] = [
        (
            "barrier_exchange",
            &["--workgroup", "8", "--dump-u32", "0:8", "--stats"],
        ),
        (
            "barrier_in_loop",
            &["--workgroup", "12", "--dump-u32", "0:12", "--stats"],
        ),
        (
            "grid_workgroups",
            &["--grid", "2,2,1", "--dump-u32", "0:33"],
        ),
        (
            "atomics_local",
            &["--dump-u32", "0:5", "--dump-memory", "0:32"],
        ),
        ("cf_predicated_halt", &["--dump-u32", "0:4", "--stats"]),
        (
            "memory_local_widths",
            &["--workgroup", "1", "--wave-width", "1", "--dump-u32", "0:6"],
        ),
    ];
    let dir = scratch();
    for (name, flags) in cases {
        let (source, golden) = current(name);
        let binary = dir.join(format!("{name}.wbin"));
        std::fs::write(&binary, golden).unwrap();
        let run = |file: &Path| {
            let mut args = vec!["run", path(file), "--quiet"];
            args.extend(fixture_launch(flags));
            text(&succeeds(wavesim(&args)).stdout)
        };
        let from_source = run(&source);
        assert!(!from_source.trim().is_empty(), "{name}: no output");
        assert_eq!(run(&binary), from_source, "{name}");
    }
}

#[test]
fn a_damaged_binary_is_an_error_naming_the_file_and_the_byte() {
    let dir = scratch();
    let (_, golden) = current("cf_if_else");
    let truncated = dir.join("truncated.wbin");
    std::fs::write(&truncated, &golden[..golden.len() - 10]).unwrap();
    for command in ["run", "dis", "check"] {
        let err = fails(&wavesim(&[command, path(&truncated)]));
        assert!(err.contains(path(&truncated)), "{command}: {err}");
        assert!(err.contains("at byte 0x18"), "{command}: {err}");
        assert!(
            err.contains("runs past the end of the file"),
            "{command}: {err}"
        );
    }
    let mut bad_opcode = golden.clone();
    bad_opcode[0x23] = 0x35;
    let file = dir.join("opcode.wbin");
    std::fs::write(&file, bad_opcode).unwrap();
    let err = fails(&wavesim(&["run", path(&file)]));
    assert!(err.contains("at byte 0x20: unknown opcode 0x35"), "{err}");

    let text_file = dir.join("text.wave");
    std::fs::write(&text_file, ".kernel k\n    halt\n.end\n").unwrap();
    let err = fails(&wavesim(&["dis", path(&text_file)]));
    assert!(err.contains("not a .wbin binary"), "{err}");
}

#[test]
fn asm_reports_what_has_no_encoding_with_file_and_line() {
    let dir = scratch();
    let source = dir.join("dialect.wave");
    std::fs::write(&source, ".kernel k\n    iadd r1, r2, 5\n    halt\n.end\n").unwrap();
    let output = dir.join("dialect.wbin");
    let err = fails(&wavesim(&["asm", path(&source), "-o", path(&output)]));
    assert!(
        err.contains("immediate operand has no .wbin encoding"),
        "{err}"
    );
    assert!(err.contains(&format!("--> {}:2:5", path(&source))), "{err}");
    assert!(!output.exists());

    let err = fails(&wavesim(&["asm", path(&source), "-o", path(&source)]));
    assert!(err.contains("overwrite the input"), "{err}");
}
