use super::{lesson, words};
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
        let mut session = Session::from_example(&example);
        assert!(
            session.diagnostics().iter().all(|d| d.severity != "error"),
            "{}: {:?}",
            example.id,
            session.diagnostics()
        );
        assert!(session.form_errors().is_empty(), "{}", example.id);
        assert_eq!(session.run_all(), RunProgress::Finished, "{}", example.id);
    }
}

#[test]
fn lesson_results_follow_the_semantics_they_teach() {
    let run = |id: &str, count: usize| {
        let mut s = lesson(id);
        assert_eq!(s.run_all(), RunProgress::Finished);
        words(&s, 0, count)
    };
    assert_eq!(run("nested-if", 8), vec![2, 1, 2, 1, 3, 3, 3, 3]);
    assert_eq!(run("loop-exit", 8), vec![1, 2, 3, 4, 5, 6, 7, 8]);
    // Sum of even i in 1..=lane+2.
    assert_eq!(run("break-continue", 8), vec![2, 2, 6, 6, 12, 12, 20, 20]);
    assert_eq!(run("break-in-if", 8), vec![0, 1, 2, 3, 4, 5, 6, 7]);
    let select = run("select-vs-branch", 16);
    for lane in 0..8 {
        let expected = (lane as u32).max(7 - lane as u32);
        assert_eq!(
            [select[2 * lane], select[2 * lane + 1]],
            [expected, expected]
        );
    }
    let wave = run("wave-ops", 24);
    assert_eq!(wave[0..3], [28, 0, 0], "lane 0 is even");
    assert_eq!(wave[3..6], [28, 16, 0b1010_0000]);
    let mirrored = run("barrier-local", 16);
    assert_eq!(
        mirrored,
        (0..16).rev().map(|t| t * 10).collect::<Vec<u32>>()
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
