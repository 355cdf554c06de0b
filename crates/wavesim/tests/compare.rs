//! `wavesim compare`: the table, its agreement with `wavesim run --stats --extra-stats`, the exit
//! status that says whether the results differ, `--b-` overrides and errors naming their file.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;
use std::path::PathBuf;

mod common;

use common::{stderr, stdout, wavesim, write};

fn scratch() -> PathBuf {
    common::scratch("compare")
}

/// Every thread stores its id at id*4.
const STRAIGHT: &str = "\
.kernel straight
    mov_sr  r0, sr_thread_id_x
    mov_imm r1, 4
    imul    r2, r0, r1
    device_store_u32 r2, r0
    halt
.end
";

/// The same stores after a detour for threads below 2, a load, a local round trip and a
/// barrier: every measure has something to count.
const DETOUR: &str = "\
.kernel detour
    mov_sr  r0, sr_thread_id_x
    mov_imm r1, 2
    icmp_lt p1, r0, r1
    if p1
        mov_imm r3, 0
    endif
    mov_imm r1, 4
    imul    r2, r0, r1
    device_load_u32 r5, r2
    local_store_u32 r2, r5
    barrier
    local_load_u32 r5, r2
    device_store_u32 r2, r0
    halt
.end
";

/// Stores id + 1 from thread 2 on: the first difference is at 0x8.
const WRONG: &str = "\
.kernel wrong
    mov_sr  r0, sr_thread_id_x
    mov_imm r1, 4
    imul    r2, r0, r1
    mov_imm r3, 1
    icmp_gt p1, r0, r3
    if p1
        mov_imm r4, 1
        iadd    r0, r0, r4
    endif
    device_store_u32 r2, r0
    halt
.end
";

/// The table's rows: label to (differs, A, B, difference).
fn table(text: &str) -> BTreeMap<String, (bool, String, String, String)> {
    let mut rows = BTreeMap::new();
    for line in text.lines() {
        let Some((mark, rest)) = line.split_at_checked(2) else {
            continue;
        };
        let cells: Vec<&str> = rest
            .split("  ")
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .collect();
        if cells.len() == 4 && cells[0] != "Measure" {
            rows.insert(
                cells[0].to_string(),
                (
                    mark == "* ",
                    cells[1].to_string(),
                    cells[2].to_string(),
                    cells[3].to_string(),
                ),
            );
        }
    }
    rows
}

/// The figures `wavesim run --stats --extra-stats` prints, by the comparison's labels.
fn run_figures(file: &str, launch: &[&str]) -> BTreeMap<&'static str, String> {
    let mut args = vec!["run", file, "--stats", "--extra-stats"];
    args.extend_from_slice(launch);
    let output = wavesim(&args);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    let value = |line: &str| line.rsplit(':').next().unwrap_or("").trim().to_string();
    let count = |line: &str| -> u64 {
        let after = line.split(':').nth(1).unwrap_or("");
        after.split_whitespace().next().unwrap().parse().unwrap()
    };
    let (mut reads, mut writes) = (0, 0);
    let mut figures = BTreeMap::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with("Loads:") {
            reads += count(line);
        } else if line.starts_with("Stores:") {
            writes += count(line);
        } else if line.starts_with("Barriers:") {
            figures.insert("Barrier waits", value(line));
        } else if line.starts_with("Wave-instructions executed:") {
            figures.insert("Wave-instructions issued", value(line));
        } else if line.starts_with("SIMD efficiency:") {
            figures.insert("SIMD efficiency", value(line));
        } else if line.starts_with("Ifs with both sides taken:") {
            figures.insert("Divergent branches", value(line));
        } else if line.starts_with("Max stack depth:") {
            figures.insert("Deepest divergence stack", value(line));
        }
    }
    figures.insert("Memory reads", reads.to_string());
    figures.insert("Memory writes", writes.to_string());
    figures
}

#[test]
fn the_table_agrees_with_run_stats_for_each_kernel() {
    let dir = scratch();
    let (a, b) = (
        write(&dir, "detour.wave", DETOUR),
        write(&dir, "straight.wave", STRAIGHT),
    );
    let launch = ["--workgroup", "16", "--wave-width", "8"];
    let mut args = vec!["compare", &a, &b];
    args.extend_from_slice(&launch);
    let output = wavesim(&args);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    let rows = table(&text);
    assert_eq!(rows.len(), 7, "{text}");
    let (figures_a, figures_b) = (run_figures(&a, &launch), run_figures(&b, &launch));
    assert_eq!(figures_a.len(), 7);
    for (label, (_, cell_a, cell_b, _)) in &rows {
        assert_eq!(Some(cell_a), figures_a.get(label.as_str()), "A's {label}");
        assert_eq!(Some(cell_b), figures_b.get(label.as_str()), "B's {label}");
    }
    // Counted by hand: two waves of 8; the detour runs 14 instructions in the first wave and
    // 13 in the second, whose `then` side is empty (its `mov_imm` is passed over), against 5
    // each. The barrier is counted once for the workgroup.
    assert_eq!(
        rows["Wave-instructions issued"],
        (true, "27".into(), "10".into(), "-17 (-63 %)".into())
    );
    assert_eq!(
        rows["Barrier waits"],
        (true, "1".into(), "0".into(), "-1 (-100 %)".into())
    );
    assert_eq!(
        rows["Memory writes"],
        (true, "32".into(), "16".into(), "-16 (-50 %)".into())
    );
    assert!(text.contains(
        "B issues 63 % fewer wave-instructions; its SIMD efficiency is 100 % against 91 %.\n"
    ));
    assert!(text.ends_with("Results equal: device memory matches (1048576 bytes).\n"));
    // The columns line up: every row's B cell ends at the same column.
    let ends: Vec<usize> = text
        .lines()
        .filter(|l| l.contains(" Barrier waits ") || l.contains(" Memory reads "))
        .map(|l| l.find("  -").unwrap_or(l.len()))
        .collect();
    assert_eq!(ends.len(), 2);
    assert_eq!(ends[0], ends[1], "{text}");
}

#[test]
fn differing_results_exit_1_and_name_the_first_address() {
    let dir = scratch();
    let (a, b) = (
        write(&dir, "straight.wave", STRAIGHT),
        write(&dir, "wrong.wave", WRONG),
    );
    let output = wavesim(&["compare", &a, &b, "--workgroup", "8", "--wave-width", "8"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains(
            "Results differ at 6 words: 0x0008 A 2 B 3; 0x000c A 3 B 4; 0x0010 A 4 B 5; \
             0x0014 A 5 B 6; 0x0018 A 6 B 7; 0x001c A 7 B 8.\n"
        ),
        "{text}"
    );
    assert!(stderr(&output).is_empty());
}

#[test]
fn the_same_kernel_at_two_wave_widths_through_a_b_override() {
    let dir = scratch();
    let k = write(&dir, "k.wave", STRAIGHT);
    let output = wavesim(&[
        "compare",
        &k,
        &k,
        "--workgroup",
        "64",
        "--wave-width",
        "8",
        "--b-wave-width",
        "32",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    let rows = table(&text);
    assert_eq!(
        rows["Wave-instructions issued"],
        (true, "40".into(), "10".into(), "-30 (-75 %)".into())
    );
    assert_eq!(
        rows["Memory writes"],
        (false, "64".into(), "64".into(), "0".into())
    );
    assert!(text.contains("Results equal"));

    // Without the override both runs are the same.
    let output = wavesim(&["compare", &k, &k, "--workgroup", "64"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(table(&stdout(&output)).values().all(|row| !row.0));
    assert!(stdout(&output).contains("A and B issue the same 10 wave-instructions"));
}

#[test]
fn errors_name_their_file_and_exit_2() {
    let dir = scratch();
    let good = write(&dir, "good.wave", STRAIGHT);
    let bad = write(&dir, "bad.wave", ".kernel bad\n    frobnicate r0\n.end\n");
    for args in [["compare", &good, &bad], ["compare", &bad, &good]] {
        let output = wavesim(&args);
        assert_eq!(output.status.code(), Some(2));
        let err = stderr(&output);
        assert!(err.starts_with(&format!("{bad}:2:")), "{err}");
        assert!(!err.contains("panicked"));
        assert!(stdout(&output).is_empty());
    }
    let missing = dir.join("missing.wave").to_str().unwrap().to_string();
    let output = wavesim(&["compare", &good, &missing]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains(&missing));

    // A trap in wave-emu's words still says which file trapped.
    let output = wavesim(&[
        "compare",
        &good,
        &good,
        "--compat",
        "wave-emu",
        "--device-memory",
        "16",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).starts_with(&format!("Error: {good}: memory access out of bounds")),
        "{}",
        stderr(&output)
    );

    // A flag for B alone is named as typed; usage mistakes are 2 as well.
    let output = wavesim(&["compare", &good, &good, "--b-wave-width", "65"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).starts_with("error: invalid --b-wave-width `65`"));
    let output = wavesim(&["compare", &good]);
    assert_eq!(output.status.code(), Some(2));
    let output = wavesim(&["compare", "--help"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(stdout(&output).contains("--b-wave-width"));
}

fn as_str(flags: &[String]) -> Vec<&str> {
    flags.iter().map(String::as_str).collect()
}

/// A pair run's launch as `wavesim run` flags: its form's grid, workgroup, wave width and device
/// memory (the lesson pairs set nothing else).
fn launch_flags(form: &wave_session::ConfigForm) -> Vec<String> {
    assert!(
        form.regions.is_empty()
            && form.initial_registers.trim().is_empty()
            && !form.reference_behaviour,
        "a lesson pair with memory contents or registers needs them passed as flags too"
    );
    [
        ("--grid", &form.grid),
        ("--workgroup", &form.workgroup),
        ("--wave-width", &form.wave_width),
        ("--device-memory", &form.device_memory),
        ("--local-memory", &form.local_memory),
        ("--max-instructions", &form.max_instructions),
    ]
    .into_iter()
    .flat_map(|(flag, value)| [flag.to_string(), value.clone()])
    .collect()
}

/// The page's comparison of a lesson pair (both runs to their end, as "Run both" leaves them),
/// as rows of the same labels.
fn page_rows(pair: &wave_session::examples::ComparePair) -> BTreeMap<String, (String, String)> {
    let run = |example| {
        let mut session = wave_session::Session::from_example(example);
        session.set_questions_on(false);
        assert_eq!(
            session.run_all(),
            wave_session::RunProgress::Finished,
            "{}",
            pair.id
        );
        session
    };
    let (a, b) = (run(&pair.a), run(&pair.b));
    let view = wave_session::comparison(&a, &b).expect("both runs have machines");
    assert!(!view.results_differ, "{}: {:?}", pair.id, view.memory);
    view.rows
        .into_iter()
        .map(|row| (row.measure.label().to_string(), (row.a, row.b)))
        .collect()
}

#[test]
fn every_lesson_pairs_comparison_agrees_with_run_stats() {
    let pairs = wave_session::examples::compare_pairs();
    assert_eq!(pairs.len(), 4);
    for pair in pairs {
        let dir = scratch();
        let a = write(&dir, "a.wave", &pair.a.source);
        let b = write(&dir, "b.wave", &pair.b.source);
        let (flags_a, flags_b) = (launch_flags(&pair.a.form), launch_flags(&pair.b.form));
        let (figures_a, figures_b) = (
            run_figures(&a, &as_str(&flags_a)),
            run_figures(&b, &as_str(&flags_b)),
        );
        // The page's numbers are wavesim run's.
        let page = page_rows(&pair);
        assert_eq!(page.len(), 7, "{}", pair.id);
        for (label, (cell_a, cell_b)) in &page {
            assert_eq!(
                Some(cell_a),
                figures_a.get(label.as_str()),
                "{}: A's {label}",
                pair.id
            );
            assert_eq!(
                Some(cell_b),
                figures_b.get(label.as_str()),
                "{}: B's {label}",
                pair.id
            );
        }
        // And so are wavesim compare's, with B's launch given as `--b-` flags.
        let mut args = vec!["compare".to_string(), a.clone(), b.clone()];
        args.extend(flags_a.iter().cloned());
        args.extend(flags_b.chunks(2).flat_map(|flag| {
            [
                format!("--b-{}", flag[0].trim_start_matches("--")),
                flag[1].clone(),
            ]
        }));
        let output = wavesim(&as_str(&args));
        assert_eq!(
            output.status.code(),
            Some(0),
            "{}: {}",
            pair.id,
            stderr(&output)
        );
        let text = stdout(&output);
        let rows = table(&text);
        assert_eq!(rows.len(), 7, "{}: {text}", pair.id);
        for (label, (_, cell_a, cell_b, _)) in &rows {
            assert_eq!(
                Some(&(cell_a.clone(), cell_b.clone())),
                page.get(label),
                "{}: {label}",
                pair.id
            );
        }
    }
}
