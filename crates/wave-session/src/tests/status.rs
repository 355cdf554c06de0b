use super::{lesson, session};
use crate::{RunProgress, RunState};

#[test]
fn status_follows_the_run() {
    let mut s = lesson("if-else");
    assert_eq!(s.status_text(), "ready");
    s.step();
    assert_eq!(s.status_text(), "paused at line 6");
    assert_eq!(s.run_slice(2), RunProgress::Running);
    assert_eq!(s.status_text(), "running…");
    assert_eq!(s.run_all(), RunProgress::Finished);
    assert_eq!(s.status_text(), "finished after 12 wave-instructions");
    assert_eq!(s.current_line(), None);
    s.reset();
    assert_eq!(s.status_text(), "ready");
}

#[test]
fn a_memory_trap_names_the_message_line_and_lane() {
    let source = "\
.kernel oob
.registers 4
    mov_sr r0, sr_lane_id
    mov_imm r1, 0x100
    imul r2, r0, r1
    device_store_u32 r2, r0
    halt
.end
";
    // 1024 bytes: lanes 0-3 store inside, lane 4 at 0x400 is out of bounds.
    let mut s = session(source, 8, 8);
    assert_eq!(s.run_all(), RunProgress::Trapped);
    assert!(matches!(s.state(), RunState::Trapped(_)));
    assert_eq!(
        s.status_text(),
        "trapped: device memory access out of bounds: 4 bytes at address 0x400 at line 6 (lane 4)"
    );
    assert_eq!(s.selection().lane, 4, "the faulting lane is selected");
    assert!(!s.step(), "a trapped machine does not step");
}

#[test]
fn a_runaway_loop_ends_with_the_budget_message() {
    let source = "\
.kernel spin
.registers 2
    mov_imm r0, 0
    loop
        iadd r0, r0, r0
    endloop
    halt
.end
";
    let mut s = session(source, 1, 1);
    let mut form = s.form().clone();
    form.max_instructions = "1000".to_string();
    s.set_form(form);
    assert_eq!(s.run_all(), RunProgress::Trapped);
    let text = s.status_text();
    assert!(
        text.starts_with("instruction budget exceeded at line "),
        "{text}"
    );
}

#[test]
fn errors_block_running_and_say_why() {
    let mut s = session(".kernel k\n    frobnicate r1\n    halt\n.end\n", 1, 1);
    assert_eq!(s.status_text(), "cannot run: 1 error in the kernel");
    s.set_source(".kernel k\n    halt\n.end\n");
    assert_eq!(s.status_text(), "ready");
    let mut form = s.form().clone();
    form.wave_width = "65".to_string();
    s.set_form(form);
    assert_eq!(s.state(), &RunState::ConfigErrors);
    assert_eq!(
        s.status_text(),
        "cannot run: the launch configuration has errors"
    );
    assert_eq!(s.run_slice(10), RunProgress::Idle);
}
