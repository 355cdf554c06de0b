use super::{lesson, line, session};
use crate::{
    parse_address, MemoryFormat, MemorySpaceChoice, NumberFormat, RunProgress, Session, TableRow,
    MAX_CELL_CHARS,
};

#[test]
fn lanes_explain_else_side_and_aria_labels() {
    let mut s = lesson("if-else");
    for _ in 0..4 {
        s.step();
    }
    let lanes = s.lanes();
    assert_eq!(lanes.len(), 8);
    assert_eq!(lanes[0].aria_label, "Lane 0: active");
    assert!(lanes[0].reason.is_none());
    assert_eq!(
        lanes[5].aria_label,
        "Lane 5: inactive: else side of the if at line 8"
    );
    s.step();
    s.step(); // the else: now lanes 0-2 wait at endif
    assert_eq!(
        s.lanes()[1].reason.as_deref(),
        Some("then side done: waits for the else side of the if at line 8")
    );
}

#[test]
fn lanes_say_which_ones_the_last_step_turned_on_or_off() {
    let changed = |s: &crate::Session| -> Vec<u32> {
        s.lanes()
            .into_iter()
            .filter(|l| l.changed)
            .map(|l| l.lane)
            .collect()
    };
    let mut s = lesson("if-else");
    assert!(changed(&s).is_empty(), "nothing ran yet");
    for _ in 0..3 {
        s.step();
        assert!(
            changed(&s).is_empty(),
            "all eight lanes stay on before the if"
        );
    }
    s.step(); // the if: lanes 3-7 wait for the else side
    assert_eq!(changed(&s), vec![3, 4, 5, 6, 7]);
    s.step(); // inside the then side: nothing flips
    assert!(changed(&s).is_empty());
    s.step(); // the else: 0-2 off, 3-7 on
    assert_eq!(changed(&s), (0..8).collect::<Vec<u32>>());
    // Another wave is not compared with this one.
    let mut two = lesson("barrier-local");
    two.step();
    two.select_wave(1);
    assert!(changed(&two).is_empty());
}

#[test]
fn lanes_explain_break_continue_halt_and_outside() {
    let mut s = lesson("break-continue");
    let add = line(&s, "iadd     r4, r4, r3");
    s.run_to_line(add);
    // First time at the add: i = 1 is odd, so every lane continued... run until some lane broke.
    let mut reasons = Vec::new();
    for _ in 0..20 {
        s.run_to_line(add);
        if s.run_all() != (RunProgress::Paused { line: add }) {
            break;
        }
        reasons.extend(s.lanes().into_iter().filter_map(|l| l.reason));
    }
    let break_line = line(&s, "    loop");
    assert!(
        reasons.contains(&format!("broke out of the loop at line {break_line}")),
        "{reasons:?}"
    );

    // A continue reason: stop right after the continue when i is odd.
    let mut s = lesson("break-continue");
    let cont = line(&s, "continue p2");
    s.run_to_line(cont);
    s.run_all();
    s.step();
    let lanes = s.lanes();
    assert!(lanes.iter().all(|l| !l.active));
    assert_eq!(
        lanes[3].aria_label,
        format!(
            "Lane 3: inactive: continued: waits for the next iteration of the loop at line {break_line}"
        )
    );

    let halting = "\
.kernel h
.registers 4
    mov_sr r0, sr_lane_id
    mov_imm r1, 2
    icmp_lt p1, r0, r1
    @p1 halt
    nop
    halt
.end
";
    let mut s = session(halting, 6, 8);
    for _ in 0..4 {
        s.step();
    }
    let lanes = s.lanes();
    assert_eq!(lanes[0].aria_label, "Lane 0: inactive: halted");
    assert_eq!(lanes[2].aria_label, "Lane 2: active");
    assert_eq!(
        lanes[7].aria_label,
        "Lane 7: inactive: outside the workgroup"
    );
    s.run_all();
    // The final `halt` ends the remaining lanes too.
    assert_eq!(s.lanes()[3].aria_label, "Lane 3: inactive: halted");
    assert_eq!(
        s.lanes()[7].aria_label,
        "Lane 7: inactive: outside the workgroup"
    );
}

#[test]
fn the_stack_shows_nested_frames_with_masks_and_reconvergence() {
    let mut s = lesson("nested-if");
    let inner_then = line(&s, "mov_imm r5, 1");
    s.run_to_line(inner_then);
    s.run_all();
    let stack = s.stack();
    assert_eq!(stack.len(), 2);
    let (inner, outer) = (&stack[0], &stack[1]);
    assert_eq!(inner.kind, "if");
    assert_eq!(inner.line, line(&s, "if p2"));
    assert_eq!(inner.reconverge_line, inner.line + 4);
    assert_eq!(inner.masks[0].name, "entry");
    assert_eq!(inner.masks[0].text, "0-3");
    assert_eq!(inner.masks[1].text, "1, 3");
    assert_eq!(inner.masks[2].text, "0, 2");
    assert_eq!(
        inner.masks[1].lanes,
        vec![false, true, false, true, false, false, false, false]
    );
    assert_eq!(outer.kind, "if");
    assert_eq!(outer.masks[2].text, "4-7");
    assert!(
        inner.listitem.starts_with("if at line "),
        "{}",
        inner.listitem
    );
    assert!(
        inner.listitem.contains("then 1, 3; else 0, 2"),
        "{}",
        inner.listitem
    );
    // Into the inner else side.
    s.step();
    s.step();
    assert_eq!(s.stack()[0].kind, "else");
    assert!(s.stack()[0]
        .listitem
        .starts_with("else side of the if at line "));
}

#[test]
fn loop_frames_count_iterations_and_show_break_masks() {
    let mut s = lesson("loop-exit");
    let body = line(&s, "iadd    r1, r1, r2");
    s.toggle_breakpoint(body);
    for _ in 0..3 {
        s.run_all();
    }
    let frame = &s.stack()[0];
    assert_eq!(frame.kind, "loop");
    assert_eq!(frame.iterations, Some(2));
    let names: Vec<&str> = frame.masks.iter().map(|m| m.name).collect();
    assert_eq!(names, vec!["entry", "break", "continue"]);
    assert_eq!(frame.masks[1].text, "0-1", "lanes 0 and 1 broke");
    assert!(frame.listitem.starts_with("loop at line 8, iteration 3"));
}

/// Every row and lane of the selected wave's register table.
fn whole_table(s: &Session, format: NumberFormat) -> Vec<TableRow> {
    s.register_window(format, 0..usize::MAX, 0..u32::MAX)
}

fn texts(row: &TableRow) -> Vec<String> {
    row.cells.iter().map(|c| c.text.clone()).collect()
}

fn changed(row: &TableRow) -> Vec<bool> {
    row.cells.iter().map(|c| c.changed).collect()
}

#[test]
fn registers_show_formats_and_what_the_last_step_changed() {
    let mut s = lesson("if-else");
    assert_eq!(
        s.used_registers(),
        &[0, 1, 2, 3, 4],
        "registers named in the kernel"
    );
    s.step(); // mov_sr r0, sr_lane_id
    let rows = whole_table(&s, NumberFormat::I32);
    assert_eq!(rows[0].name, "r0");
    assert_eq!(texts(&rows[0])[..3], ["0", "1", "2"]);
    assert_eq!(
        changed(&rows[0])[..3],
        [false, true, true],
        "lane 0 stays 0"
    );
    assert!(changed(&rows[1]).iter().all(|c| !c));
    s.step(); // mov_imm r1, 3
    let rows = whole_table(&s, NumberFormat::Hex);
    assert_eq!(texts(&rows[1])[0], "0x00000003");
    assert!(changed(&rows[1]).iter().all(|&c| c));
    assert!(changed(&whole_table(&s, NumberFormat::I32)[0])
        .iter()
        .all(|c| !c));
    s.step(); // icmp_lt p1
    let rows = whole_table(&s, NumberFormat::I32);
    let predicates = &rows[s.used_registers().len()..];
    assert_eq!(predicates.len(), 4);
    assert_eq!(predicates[1].name, "p1");
    let on: Vec<bool> = predicates[1].cells.iter().map(|c| c.on).collect();
    assert_eq!(on[..4], [true, true, true, false]);
    assert_eq!(changed(&predicates[1])[..4], [true, true, true, false]);
    s.select_lane(2);
    let detail = s.lane_detail(NumberFormat::U32).unwrap();
    assert_eq!(detail.lane, 2);
    assert_eq!(
        detail.registers[0],
        ("r0".to_string(), "2".to_string(), false)
    );
    assert_eq!(detail.predicates, [false, true, false, false]);
}

#[test]
fn number_formats() {
    assert_eq!(NumberFormat::I32.format(0xffff_ffff), "-1");
    assert_eq!(NumberFormat::U32.format(0xffff_ffff), "4294967295");
    assert_eq!(NumberFormat::Hex.format(255), "0x000000ff");
    assert_eq!(NumberFormat::F32.format(1.5f32.to_bits()), "1.5");
    assert_eq!(NumberFormat::F32.format(f32::NAN.to_bits()), "NaN");
}

#[test]
fn memory_rows_and_jump_to_address() {
    let mut s = lesson("if-else");
    s.run_all();
    let rows = s.memory_rows(MemorySpaceChoice::Device, 0, 2, 4, MemoryFormat::U32);
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].address_text, "0x00000000");
    assert_eq!(rows[0].cells, vec!["111", "111", "111", "222"]);
    assert_eq!(rows[1].address, 16);
    let bytes = s.memory_rows(MemorySpaceChoice::Device, 1, 1, 4, MemoryFormat::HexBytes);
    assert_eq!(bytes[0].cells, vec!["00", "00", "00", "6f"]);
    // Unaligned starts round down to the cell; rows stop at the end of memory.
    let tail = s.memory_rows(MemorySpaceChoice::Device, 250, 5, 4, MemoryFormat::I32);
    assert_eq!(tail.len(), 1);
    assert_eq!(tail[0].address, 248);
    assert_eq!(tail[0].cells.len(), 2);
    assert_eq!(s.memory_size(MemorySpaceChoice::Device), 256);
    assert_eq!(s.memory_size(MemorySpaceChoice::Local), 16384);

    assert_eq!(parse_address("0x40", 256), Ok(64));
    assert_eq!(parse_address("100", 256), Ok(100));
    assert_eq!(
        parse_address("0x100", 256),
        Err("address 0x100 is past the end of memory (256 bytes, last 0xff)".to_string())
    );
    assert_eq!(
        parse_address("abc", 256),
        Err("`abc` is not a whole number (decimal or 0x hex)".to_string())
    );
}

#[test]
fn local_memory_viewer_reads_the_workgroup_memory() {
    let mut s = lesson("barrier-local");
    let barrier = line(&s, "barrier ");
    s.run_to_line(barrier + 1);
    s.run_all();
    let rows = s.memory_rows(MemorySpaceChoice::Local, 0, 1, 4, MemoryFormat::U32);
    assert_eq!(rows[0].cells, vec!["0", "10", "20", "30"]);
}

#[test]
fn statistics_and_per_line_heat() {
    let mut s = lesson("three-ways");
    s.run_all();
    let stats = s.stats(Some(12.34));
    assert_eq!(stats.divergent_branches, 1);
    assert_eq!(stats.max_stack_depth, 1);
    assert_eq!(stats.run_time, "12.3 ms");
    assert_eq!(
        stats.items[0],
        ("Wave-instructions", stats.wave_instructions.to_string())
    );
    assert!(stats.simd_efficiency_percent < 100.0 && stats.simd_efficiency_percent > 80.0);
    let heat = s.line_heat();
    let of = |needle: &str| {
        let l = line(&s, needle);
        heat.iter().find(|h| h.line == l).unwrap().efficiency
    };
    // What the lesson's explanation says: the branch's two working lines at half the lanes,
    // select at all of them, and the guarded moves with every lane active (each writes half).
    assert_eq!(of("select   r4"), 1.0);
    assert_eq!(of("mov  r3, r0"), 0.5);
    assert_eq!(of("mov  r3, r2"), 0.5);
    assert_eq!(of("@p1  mov r5"), 1.0);
    assert_eq!(of("@!p1 mov r5"), 1.0);
    assert_eq!(s.stats(None).run_time, "–");
}

#[test]
fn highlighted_lines_rebuild_the_source_exactly() {
    let s = lesson("if-else");
    let lines = crate::highlight_lines(s.source());
    let rebuilt: Vec<String> = lines
        .iter()
        .map(|pieces| pieces.iter().map(|p| p.text.as_str()).collect())
        .collect();
    assert_eq!(rebuilt.join("\n"), s.source());
    let if_line = &lines[7];
    let classes: Vec<(&str, Option<&str>)> =
        if_line.iter().map(|p| (p.text.as_str(), p.class)).collect();
    assert_eq!(
        classes,
        vec![
            ("    ", None),
            ("if", Some("mnemonic")),
            (" ", None),
            ("p1", Some("predicate")),
            ("                        ", None),
            ("; ?mask", Some("comment"))
        ]
    );
    assert_eq!(lines[0][0].class, Some("comment"));
    assert_eq!(lines[2][0].class, Some("directive"));
}

#[test]
fn diagnostics_carry_lines_and_columns() {
    let s = session(".kernel k\n    halt\n    iadd r1, r2\n.end\n", 1, 1);
    let diagnostics = s.diagnostics();
    assert!(!diagnostics.is_empty());
    let first = &diagnostics[0];
    assert_eq!(first.severity, "error");
    assert_eq!(first.line, 3);
    assert!(first.column >= 5);
    assert!(first.end > first.start);
}

#[test]
fn events_of_a_step_describe_the_divergence() {
    let mut s = lesson("if-else");
    for _ in 0..3 {
        s.step();
    }
    assert!(
        s.last_events().is_empty(),
        "a compare has no control-flow event"
    );
    s.step();
    let events = s.last_events();
    let kinds: Vec<&str> = events.iter().map(|e| e.kind).collect();
    assert!(kinds.contains(&"push-if"), "{kinds:?}");
    let diverge = events.iter().find(|e| e.kind == "diverge").unwrap();
    assert_eq!(diverge.lanes, vec![0, 1, 2]);
    assert_eq!(
        diverge.text,
        "diverged at line 8: then lanes 0-2, else lanes 3-7"
    );
}

#[test]
fn the_register_window_has_only_the_requested_rows_and_lanes() {
    let mut s = lesson("if-else");
    s.step(); // mov_sr r0, sr_lane_id
    assert_eq!(s.register_table_rows(), 5 + 4, "r0–r4, then p0–p3");
    let rows = s.register_window(NumberFormat::I32, 0..2, 2..5);
    assert_eq!(rows.len(), 2);
    assert_eq!((rows[0].index, rows[0].name.as_str()), (0, "r0"));
    let lanes: Vec<u32> = rows[0].cells.iter().map(|c| c.lane).collect();
    assert_eq!(lanes, [2, 3, 4]);
    let texts: Vec<&str> = rows[0].cells.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(texts, ["2", "3", "4"]);
    assert!(
        rows[0].cells.iter().all(|c| c.changed),
        "the step wrote them"
    );
    assert!(rows[1].cells.iter().all(|c| !c.changed));
    // The same cells as the whole table, in any window.
    let whole = whole_table(&s, NumberFormat::I32);
    let window = s.register_window(NumberFormat::I32, 1..5, 5..8);
    for row in &window {
        for cell in &row.cells {
            assert_eq!(cell, &whole[row.index].cells[cell.lane as usize]);
        }
    }
    s.step(); // mov_imm r1, 3
    s.step(); // icmp_lt p1, r0, r1
              // Rows past the registers are the predicates; ranges past the end are cut.
    let rows = s.register_window(NumberFormat::I32, 5..100, 0..100);
    let names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["p0", "p1", "p2", "p3"]);
    assert!(rows.iter().all(|r| r.predicate && r.cells.len() == 8));
    let p1: Vec<(&str, bool, bool)> = rows[1].cells[..4]
        .iter()
        .map(|c| (c.text.as_str(), c.on, c.changed))
        .collect();
    assert_eq!(
        p1,
        [
            ("T", true, true),
            ("T", true, true),
            ("T", true, true),
            ("·", false, false)
        ]
    );
    assert!(s.register_window(NumberFormat::I32, 3..3, 0..8).is_empty());
}

#[test]
fn register_columns_are_as_wide_as_the_longest_value() {
    let mut s = session(
        ".kernel widths\n.registers 4\n    mov_sr r0, sr_lane_id\n    mov_imm r1, 0xffffffff\n    \
         mov_imm r1, 0x80000000\n    mov_imm r1, 0x0da24260\n    halt\n.end\n",
        8,
        8,
    );
    s.step(); // r0 = lane id 0..7; r1 = 0
    assert_eq!(s.register_cell_chars(NumberFormat::I32), 1);
    assert_eq!(s.register_cell_chars(NumberFormat::Hex), 10);
    s.step(); // r1 = 0xffffffff
    assert_eq!(s.register_cell_chars(NumberFormat::I32), 2, "-1");
    assert_eq!(s.register_cell_chars(NumberFormat::U32), 10, "4294967295");
    s.step(); // r1 = 0x80000000
    assert_eq!(s.register_cell_chars(NumberFormat::I32), 11, "-2147483648");
    s.step(); // r1 = 1e-30 as f32, printed with 30 zeros
    assert_eq!(
        s.register_cell_chars(NumberFormat::F32),
        MAX_CELL_CHARS,
        "a long f32 is cut"
    );
    // The cell itself is cut to that width with an ellipsis; the lane detail shows it whole.
    let long = s
        .lane_detail(NumberFormat::F32)
        .map(|d| d.registers[1].1.clone());
    let long = long.expect("lane 0 is selected");
    assert!(long.chars().count() > MAX_CELL_CHARS, "{long}");
    let cell = texts(&whole_table(&s, NumberFormat::F32)[1])[0].clone();
    assert_eq!(cell.chars().count(), MAX_CELL_CHARS, "{cell}");
    let kept: String = long.chars().take(MAX_CELL_CHARS - 1).collect();
    assert_eq!(cell, format!("{kept}…"));
    // A value exactly as wide as the column is not cut.
    let hex = texts(&whole_table(&s, NumberFormat::Hex)[1])[0].clone();
    assert_eq!(hex, "0x0da24260");
}

#[test]
fn shown_wave_run_lasts_through_steps_and_ends_when_the_view_starts_over() {
    let mut s = lesson("break-in-if");
    let start = s.shown_wave_run();
    // Through pushes and pops of the divergence stack the room is kept.
    let mut depths = std::collections::BTreeSet::new();
    for _ in 0..20 {
        s.step();
        depths.insert(s.stack().len());
        assert_eq!(s.shown_wave_run(), start, "a step keeps the room");
    }
    assert!(depths.len() >= 3, "the stack grew and shrank: {depths:?}");
    s.reset();
    let after_reset = s.shown_wave_run();
    assert_ne!(after_reset, start, "a reset gives the room back");
    s.set_source(&format!("{}\n", s.source()));
    assert_ne!(
        s.shown_wave_run(),
        after_reset,
        "an edit resets, so it does too"
    );

    let mut form = s.form().clone();
    form.wave_width = "4".to_string();
    let before = s.shown_wave_run();
    s.set_form(form);
    assert_ne!(s.shown_wave_run(), before, "another wave width");

    // Another session (an example opened, a link followed) is a new start too, though it made
    // as many resets as the one it replaces.
    assert_ne!(
        lesson("break-in-if").shown_wave_run(),
        lesson("break-in-if").shown_wave_run()
    );

    let mut s = lesson("barrier-local");
    let before = s.shown_wave_run();
    assert!(s.select_wave(1));
    assert_ne!(s.shown_wave_run(), before, "another wave");
    let before = s.shown_wave_run();
    s.select_lane(3);
    assert_eq!(
        s.shown_wave_run(),
        before,
        "another lane of the same wave keeps it"
    );
}

#[test]
fn shown_wave_run_ends_when_another_workgroup_is_shown() {
    let form = crate::ConfigForm {
        grid: "2,1,1".to_string(),
        workgroup: "8,1,1".to_string(),
        wave_width: "8".to_string(),
        ..crate::ConfigForm::default()
    };
    let mut s = Session::new(
        ".kernel two\n.registers 2\n    mov_sr r0, sr_lane_id\n    halt\n.end\n",
        form,
    );
    assert_eq!(s.workgroup_count(), 2);
    let before = s.shown_wave_run();
    assert_eq!(s.select_workgroup(1), Ok(()));
    assert_ne!(s.shown_wave_run(), before);
}

#[test]
fn utf16_offsets_count_what_a_browser_counts() {
    let text = "a→b😀c\nd";
    let bytes: Vec<u32> = text
        .char_indices()
        .map(|(at, _)| at as u32)
        .chain([text.len() as u32])
        .collect();
    let expected: Vec<u32> = bytes
        .iter()
        .map(|&b| text[..b as usize].encode_utf16().count() as u32)
        .collect();
    // Out of order on purpose: the answer keeps the order asked.
    let reversed: Vec<u32> = bytes.iter().rev().copied().collect();
    let mut answer = crate::utf16_offsets(text, &reversed);
    answer.reverse();
    assert_eq!(answer, expected);
    assert_eq!(crate::utf16_offsets("abc", &[1, 9]), [1, 3]);
}

#[test]
fn the_editor_tables_come_from_the_engine() {
    let table = crate::mnemonic_table();
    assert!(
        table.lines().any(|l| l == "icmp_eq\tpd, rs1, rs2"),
        "{table}"
    );
    assert!(table.lines().any(|l| l == "not\tpd, pa"));
    assert!(table.lines().any(|l| l == "halt\t"));
    assert!(table.lines().count() > 164);
    assert!(crate::special_register_names()
        .split(' ')
        .any(|n| n == "sr_lane_id"));
    assert_eq!(crate::cache_hint_names(), "cached uncached streaming");
}

#[test]
fn questions_in_comments_are_read_with_their_lines_and_typos_warned() {
    use wave_engine::syntax::questions::QuestionKind;
    let mut s = session(
        ".kernel k\n.registers 4\n    mov_imm r1, 1 ; ?value r1\n    ; ?mask\n    halt ; ?nxt\n.end\n",
        8,
        8,
    );
    assert_eq!(
        s.questions(),
        [(3, QuestionKind::Value(1)), (4, QuestionKind::Mask)]
    );
    let diagnostics = s.diagnostics();
    assert_eq!(diagnostics.len(), 1);
    assert_eq!(diagnostics[0].severity, "warning");
    assert_eq!(diagnostics[0].line, 5);
    assert_eq!(diagnostics[0].message, "unknown question `?nxt`");
    assert!(
        s.state().can_run(),
        "a typo in a question does not stop the kernel"
    );
    s.set_source(".kernel k\n    halt\n.end\n");
    assert!(s.questions().is_empty());
}
