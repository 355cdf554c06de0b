use super::words;
use crate::examples::{examples, GEMM_N};
use crate::{RunProgress, Session};

#[test]
fn every_example_compiles_and_runs_to_completion() {
    let all = examples();
    assert!(all.len() >= 9);
    for example in all {
        let sentences = example.explanation.matches(". ").count() + 1;
        assert!(
            (2..=4).contains(&sentences),
            "{}: {sentences} sentences",
            example.id
        );
        let mut session = Session::from_example(example);
        assert!(
            session.diagnostics().iter().all(|d| d.severity != "error"),
            "{}: {:?}",
            example.id,
            session.diagnostics()
        );
        assert!(session.form_errors().is_empty(), "{}", example.id);
        session.set_questions_on(false);
        assert_eq!(session.run_all(), RunProgress::Finished, "{}", example.id);
    }
}

#[test]
fn every_lesson_ends_with_the_memory_it_teaches_and_asks_something() {
    let lessons: Vec<_> = examples().iter().filter(|e| e.is_lesson()).collect();
    assert!(lessons.len() >= 19, "{} lessons", lessons.len());
    for example in lessons {
        let mut s = Session::from_example(example);
        assert!(
            !s.question_stops().is_empty(),
            "{} asks nothing",
            example.id
        );
        assert!(
            s.diagnostics().is_empty(),
            "{}: {:?}",
            example.id,
            s.diagnostics()
        );
        s.set_questions_on(false);
        assert_eq!(s.run_all(), RunProgress::Finished, "{}", example.id);
        assert!(!example.expected.is_empty(), "{}", example.id);
        assert_eq!(
            words(&s, 0, example.expected.len()),
            example.expected,
            "{}",
            example.id
        );
    }
}

#[test]
fn the_lesson_path_goes_through_every_lesson_once_in_menu_order() {
    use crate::examples::next_lesson;
    let lessons: Vec<&str> = examples()
        .iter()
        .filter(|e| e.is_lesson())
        .map(|e| e.id)
        .collect();
    let mut walked = vec![lessons[0]];
    while let Some(next) = next_lesson(walked[walked.len() - 1]) {
        walked.push(next.id);
    }
    assert_eq!(walked, lessons);
    assert!(
        next_lesson("gemm").is_none(),
        "a full-size kernel is not on the path"
    );
}

#[test]
fn gemm_example_matches_the_rust_reference_exactly() {
    let example = crate::examples::example("gemm").unwrap();
    let mut session = Session::from_example(&example);
    const { assert!(GEMM_N >= 256) };
    assert!(session.check_report().is_none());
    assert_eq!(session.run_all(), RunProgress::Finished);
    assert_eq!(
        session.check_report(),
        Some("GEMM check: max error 0 over 65536 values")
    );
    // The check can fail: corrupt one value of C and ask again.
    let check = session.check().unwrap();
    let initial = session.launch().unwrap().device_memory.clone();
    let mut corrupted = session.machine().unwrap().device().bytes().to_vec();
    let c = 2 * (GEMM_N * GEMM_N * 4) as usize;
    corrupted[c..c + 4].copy_from_slice(&1000f32.to_bits().to_le_bytes());
    let report = check.report(&initial, &corrupted);
    assert!(report.starts_with("GEMM check: max error 99"), "{report}");
}

/// Runs the 512 × 512 GEMM example `id` to its end: its check must find C exact, after
/// `wave_instructions` at wave width 32.
fn assert_gemm_512_example_is_exact(id: &str, wave_instructions: u64) {
    let example = crate::examples::example(id).unwrap();
    assert_eq!(example.form.grid, "8,8,1");
    let mut session = Session::from_example(&example);
    assert_eq!(session.run_all(), RunProgress::Finished);
    assert_eq!(
        session.check_report(),
        Some("GEMM check: max error 0 over 262144 values")
    );
    assert_eq!(
        session.machine().unwrap().stats().wave_instructions,
        wave_instructions
    );
}

#[test]
fn gemm_512_example_matches_the_rust_reference_exactly() {
    assert_gemm_512_example_is_exact("gemm-512", 5_456_384);
}

#[test]
fn gemm_512_tiled_example_runs_the_benchmark_kernel_to_the_rust_reference() {
    // The count wave-bench gives for our engine on this kernel at N = 512, wave width 32.
    assert_gemm_512_example_is_exact("gemm-512-tiled", 7_766_528);
}

#[test]
fn a_finished_run_leaves_its_check_to_compute_in_small_parts() {
    use crate::{Check, ElemType, RegionForm, RegionKind};
    // A 2 × 2 "GEMM" whose C is already in memory: the kernel only halts.
    let mut s = super::session(".kernel k\n    halt\n.end\n", 1, 1);
    let mut form = s.form().clone();
    let mut region = RegionForm::new(RegionKind::Literal, ElemType::F32, "0");
    region.values = "1 2 3 4  5 6 7 8  19 22 43 51".to_string();
    form.regions.push(region);
    s.set_form(form);
    s.set_check(Some(Check::Gemm {
        n: 2,
        a: 0,
        b: 16,
        c: 32,
    }));
    assert_eq!(s.run_slice(100), RunProgress::Finished);
    assert!(s.check_pending());
    assert_eq!(s.check_report(), None);
    // A budget of one multiply-add still computes one row per call.
    assert!(s.advance_check(1));
    assert_eq!(s.check_report(), None);
    assert!(!s.advance_check(1));
    assert!(!s.check_pending());
    assert_eq!(
        s.check_report(),
        Some("GEMM check: max error 1 over 4 values")
    );
    // Reset forgets both the verdict and any check in progress.
    s.reset();
    assert_eq!(s.check_report(), None);
    assert_eq!(s.run_slice(100), RunProgress::Finished);
    assert!(s.check_pending());
    s.reset();
    assert!(!s.check_pending());
    assert!(!s.advance_check(1));
}

#[test]
fn the_built_in_lessons_are_packs_that_keep_their_ids() {
    let packs = crate::examples::builtin_packs();
    assert_eq!(packs.len(), 5, "every built-in pack reads");
    let ids: Vec<&str> = packs
        .iter()
        .flat_map(|p| p.lessons.iter().map(|l| l.id.as_str()))
        .collect();
    // Links and stored progress name lessons by these ids.
    assert_eq!(
        ids,
        [
            "predicates",
            "uniform-if",
            "if-else",
            "nested-if",
            "loop-exit",
            "break-continue",
            "break-in-if",
            "halt-in-branch",
            "calls",
            "three-ways",
            "butterfly",
            "broadcast",
            "votes",
            "prefix-sum",
            "shuffles",
            "wave-ops",
            "reconverge",
            "barrier-local",
            "workgroup-sum",
        ]
    );
    let path: Vec<&str> = examples()
        .iter()
        .filter(|e| e.is_lesson())
        .map(|e| e.id)
        .collect();
    assert_eq!(path, ids, "the lesson path walks the packs in order");
}

#[test]
fn every_built_in_pack_round_trips_through_download_as_lesson_pack() {
    use crate::pack::{pack_markdown, parse_pack};
    for pack in crate::examples::builtin_packs() {
        let written = pack_markdown(pack);
        let again = parse_pack(&written).expect("a written pack reads back");
        assert_eq!(again.title, pack.title);
        assert_eq!(again.intro_html, pack.intro_html);
        assert_eq!(again.lessons.len(), pack.lessons.len(), "{}", pack.title);
        for (a, b) in again.lessons.iter().zip(&pack.lessons) {
            assert_eq!(
                (&a.id, &a.title, &a.prose_html, &a.source, &a.form),
                (&b.id, &b.title, &b.prose_html, &b.source, &b.form)
            );
        }
        // Written again, it is the same text: nothing drifts from one download to the next.
        assert_eq!(pack_markdown(&again), written);
    }
}

#[test]
fn a_built_in_lesson_s_prose_is_its_pack_s_markdown_rendered() {
    use crate::examples::lesson_prose_html;
    let html = lesson_prose_html("if-else").expect("a lesson");
    assert!(
        html.starts_with("<p>An <code>if</code> splits the wave"),
        "{html}"
    );
    assert_eq!(
        lesson_prose_html("gemm"),
        None,
        "a full-size kernel is no pack lesson"
    );
}
