//! Step captions: one sentence per step, the same after time travel.

use super::{lesson, session, step_to_line_starting};
use crate::examples::examples;
use crate::Session;

/// Steps once and returns the caption's text.
fn step_caption(session: &mut Session) -> String {
    assert!(session.step());
    session.caption().text()
}

#[test]
fn an_if_that_splits_the_wave_names_both_sides_and_the_depth() {
    let mut s = lesson("if-else");
    step_to_line_starting(&mut s, "if p1");
    assert_eq!(
        step_caption(&mut s),
        "`if p1` at line 8: lanes 0-2 take the if side; lanes 3-7 wait at else (line 10); \
         stack depth 1"
    );
    step_to_line_starting(&mut s, "else");
    assert_eq!(
        step_caption(&mut s),
        "`else` at line 10: lanes 3-7 run the else side; lanes 0-2 wait at endif (line 12); \
         stack depth 1"
    );
    step_to_line_starting(&mut s, "endif");
    assert_eq!(
        step_caption(&mut s),
        "`endif` at line 12: lanes 0-7 reconverge and go on together; stack depth 0"
    );
}

#[test]
fn break_and_continue_say_who_leaves_where_they_wait_and_who_goes_on() {
    let mut s = lesson("loop-exit");
    step_to_line_starting(&mut s, "break");
    assert_eq!(
        step_caption(&mut s),
        "`break p1` at line 11: lane 0 leaves the loop and waits for it to end (endloop at \
         line 12); 7 lanes go on"
    );
    assert_eq!(
        step_caption(&mut s),
        "`endloop` at line 12: lanes 1-7 start another iteration, back at line 9; stack depth 1"
    );

    let mut s = lesson("break-continue");
    step_to_line_starting(&mut s, "continue");
    assert_eq!(
        step_caption(&mut s),
        "`continue p2` at line 17: lanes 0-7 skip the rest of this iteration and wait at \
         endloop (line 19); no lane is left on this path, so the wave jumps to line 19"
    );
}

#[test]
fn arithmetic_gets_the_short_form_and_predication_says_who_sat_out() {
    let source = "\
.kernel guarded
.registers 4
    mov_sr r0, sr_lane_id
    mov_imm r1, 2
    icmp_lt p1, r0, r1
    @p1 iadd r2, r0, r1
    halt
.end
";
    let mut s = session(source, 4, 4);
    for _ in 0..3 {
        s.step();
    }
    assert_eq!(
        s.caption().text(),
        "`icmp_lt p1, r0, r1` at line 5: ran on lanes 0-3; p1 now holds on lanes 0-1"
    );
    assert_eq!(
        step_caption(&mut s),
        "`@p1 iadd r2, r0, r1` at line 6: ran on lanes 0-1; lanes 2-3 do nothing (p1 is clear \
         there); r2 changed on lanes 0-1"
    );
}

#[test]
fn an_if_no_lane_takes_says_where_the_wave_jumps() {
    let source = "\
.kernel none_take
.registers 4
    mov_imm r0, 1
    mov_imm r1, 0
    icmp_eq p1, r0, r1
    if p1
        mov_imm r2, 5
    else
        mov_imm r2, 6
    endif
    halt
.end
";
    let mut s = session(source, 4, 4);
    step_to_line_starting(&mut s, "if p1");
    assert_eq!(
        step_caption(&mut s),
        "`if p1` at line 6: no lane takes the if side, so the wave jumps to line 8; stack depth 1"
    );
}

#[test]
fn a_shuffle_says_which_lane_read_which_including_inactive_and_missing_ones() {
    let source = "\
.kernel moves
.registers 8
    mov_sr r0, sr_lane_id
    mov_imm r1, 1
    mov_imm r2, 6
    icmp_lt p1, r0, r2
    if p1
        wave_shuffle_xor r3, r0, r1
        wave_shuffle_down r4, r0, r1
    endif
    halt
.end
";
    let mut s = session(source, 8, 8);
    step_to_line_starting(&mut s, "wave_shuffle_xor");
    assert_eq!(
        step_caption(&mut s),
        "`wave_shuffle_xor r3, r0, r1` at line 8: lane 0 read lane 1, lane 1 read lane 0, lane 2 \
         read lane 3, lane 3 read lane 2, lane 4 read lane 5, lane 5 read lane 4"
    );
    let mut s = session(
        &source.replace(
            "icmp_lt p1, r0, r2",
            "icmp_lt p1, r0, r2\n    mov_imm r1, 3",
        ),
        8,
        8,
    );
    step_to_line_starting(&mut s, "wave_shuffle_down");
    assert_eq!(
        step_caption(&mut s),
        "`wave_shuffle_down r4, r0, r1` at line 10: lane 0 read lane 3, lane 1 read lane 4, lane \
         2 read lane 5, lane 3 read inactive lane 6, lane 4 read inactive lane 7, lane 5 asked \
         for lane 8 (none: 0)"
    );
}

#[test]
fn reductions_votes_and_prefix_sums_say_what_they_combined() {
    let mut s = lesson("wave-ops");
    step_to_line_starting(&mut s, "wave_reduce_add r3");
    assert_eq!(
        step_caption(&mut s),
        "`wave_reduce_add r3, r0` at line 12: the sum over lanes 0-7 is 28, and every one of \
         them gets it"
    );
    step_to_line_starting(&mut s, "wave_ballot");
    assert_eq!(
        step_caption(&mut s),
        "`wave_ballot r5, p2` at line 17: lanes 5, 7 voted yes, so lanes 1, 3, 5, 7 get 0xa0"
    );
}

#[test]
fn a_barrier_says_the_wave_waits_for_the_workgroup() {
    let mut s = lesson("barrier-local");
    step_to_line_starting(&mut s, "barrier");
    assert_eq!(
        step_caption(&mut s),
        "`barrier` at line 12: wave 0 waits here until every wave of the workgroup arrives"
    );
}

#[test]
fn a_trap_is_captioned_at_its_instruction() {
    let source = "\
.kernel faulty
.registers 4
    mov_imm r0, 4096
    device_load_u32 r1, r0
    halt
.end
";
    let mut s = session(source, 4, 4);
    s.step();
    let caption = step_caption(&mut s);
    assert!(
        caption.starts_with("`device_load_u32 r1, r0` at line 4: trapped: "),
        "{caption}"
    );
    assert!(caption.ends_with("; the run stops here"), "{caption}");
}

#[test]
fn runs_and_moves_over_many_instructions_are_summed_up() {
    let mut s = lesson("loop-exit");
    assert_eq!(
        s.caption().text(),
        "Nothing has run yet: wave 0 starts at line 5 with lanes 0-7 active."
    );
    s.run_all();
    let text = s.caption().text();
    assert!(text.starts_with("Ran "), "{text}");
    assert!(text.ends_with("wave 0 is finished."), "{text}");
}

/// Going back shows each step with the words it was first shown with: the first 300 Steps of
/// every example, the GEMMs' runs of `fma` (which lockstep runs wave by wave) among them.
#[test]
fn stepping_back_shows_every_step_with_its_first_caption() {
    for example in examples() {
        let mut s = lesson(example.id);
        let mut shown = vec![s.caption()];
        while shown.len() < 300 && s.step() {
            shown.push(s.caption());
        }
        shown.pop();
        while let Some(expected) = shown.pop() {
            if !s.step_back() {
                break;
            }
            assert_eq!(
                s.caption(),
                expected,
                "{} back at step {}",
                example.id,
                s.step_count()
            );
        }
    }
}
