use crate::examples::{compare_pair, compare_pairs, examples, pair_run, Example, COMPARE_TOPIC};
use crate::{RunProgress, Session};

/// Runs `example` to its end (questions off) and returns its session.
fn finished(example: &Example) -> Session {
    let mut session = Session::from_example(example);
    assert!(
        session.diagnostics().is_empty(),
        "{}: {:?}",
        example.id,
        session.diagnostics()
    );
    assert!(session.form_errors().is_empty(), "{}", example.id);
    session.set_questions_on(false);
    assert_eq!(session.run_all(), RunProgress::Finished, "{}", example.id);
    session
}

/// What each pair's runs must leave in device memory, worked out here in plain Rust.
fn expected_words(pair: &str) -> Vec<u32> {
    match pair {
        "pair-branch-vs-select" => (0..16u32)
            .map(|n| if n % 2 == 1 { 3 * n + 1 } else { n / 2 })
            .collect(),
        "pair-reduction-addressing" => vec![(1..=32u32).sum()],
        "pair-loop-trip-count" => (0..16u32).map(|t| (1..=t % 8).sum()).collect(),
        "pair-wave-width" => (0..32u32)
            .map(|t| if t < 12 { t * t } else { t + 100 })
            .collect(),
        other => panic!("no expected memory written for {other}"),
    }
}

#[test]
fn there_are_four_pairs_with_distinct_ids_and_short_explanations() {
    let pairs = compare_pairs();
    assert_eq!(pairs.len(), 4);
    let mut ids: Vec<&str> = pairs
        .iter()
        .flat_map(|p| [p.id, p.a.id, p.b.id])
        .chain(examples().iter().map(|e| e.id))
        .collect();
    let count = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), count, "an id is used twice");
    for pair in &pairs {
        let sentences = pair.explanation.matches(". ").count() + 1;
        assert!((2..=4).contains(&sentences), "{}: {sentences}", pair.id);
        assert_eq!(pair.a.id, format!("{}-a", pair.id));
        assert_eq!(pair.b.id, format!("{}-b", pair.id));
        for run in [&pair.a, &pair.b] {
            assert_eq!(run.topic, COMPARE_TOPIC);
            assert_eq!(pair_run(run.id).as_ref(), Some(run));
        }
        assert_eq!(compare_pair(pair.id).as_ref(), Some(pair));
    }
    assert_eq!(compare_pair("no-such-pair"), None);
    // The single-run gallery holds no run of a pair.
    assert!(examples().iter().all(|e| e.topic != COMPARE_TOPIC));
}

#[test]
fn both_runs_of_every_pair_end_with_the_same_expected_device_memory() {
    for pair in compare_pairs() {
        let a = finished(&pair.a);
        let b = finished(&pair.b);
        let memory_a = a.machine().expect("machine").device().bytes().to_vec();
        let memory_b = b.machine().expect("machine").device().bytes().to_vec();
        assert_eq!(memory_a, memory_b, "{}", pair.id);
        let expected = expected_words(pair.id);
        assert_eq!(super::words(&a, 0, expected.len()), expected, "{}", pair.id);
        // The rest of device memory is untouched.
        assert!(
            memory_a[4 * expected.len()..].iter().all(|&byte| byte == 0),
            "{}",
            pair.id
        );
        assert_eq!(pair.a.expected, expected, "{}", pair.id);
        assert_eq!(pair.b.expected, expected, "{}", pair.id);
    }
}

#[test]
fn run_a_of_every_pair_issues_more_wave_instructions_or_wastes_more_lanes() {
    for pair in compare_pairs() {
        let a = finished(&pair.a);
        let b = finished(&pair.b);
        let a = a.machine().expect("machine").stats();
        let b = b.machine().expect("machine").stats();
        assert!(
            a.wave_instructions > b.wave_instructions || a.simd_efficiency() < b.simd_efficiency(),
            "{}: A {} at {:.3}, B {} at {:.3}",
            pair.id,
            a.wave_instructions,
            a.simd_efficiency(),
            b.wave_instructions,
            b.simd_efficiency()
        );
    }
}

#[test]
fn every_pair_shows_the_differences_its_explanation_names() {
    // (more wave-instructions in A, lower SIMD efficiency in A, fewer divergent branches in B)
    let claims = [
        ("pair-branch-vs-select", Some(true), Some(true), Some(true)),
        (
            "pair-reduction-addressing",
            Some(true),
            Some(true),
            Some(true),
        ),
        ("pair-loop-trip-count", Some(false), Some(true), None),
        ("pair-wave-width", Some(true), Some(false), None),
    ];
    for (id, more_instructions, lower_efficiency, fewer_divergent) in claims {
        let pair = compare_pair(id).expect("pair exists");
        let a = finished(&pair.a);
        let b = finished(&pair.b);
        let a = a.machine().expect("machine").stats();
        let b = b.machine().expect("machine").stats();
        if let Some(more) = more_instructions {
            assert_eq!(a.wave_instructions > b.wave_instructions, more, "{id}");
        }
        if let Some(lower) = lower_efficiency {
            assert_eq!(a.simd_efficiency() < b.simd_efficiency(), lower, "{id}");
        }
        if let Some(fewer) = fewer_divergent {
            assert_eq!(b.divergent_branches < a.divergent_branches, fewer, "{id}");
        }
    }
    // Wave width: four waves of 8 issue the shared instructions four times over.
    let pair = compare_pair("pair-wave-width").expect("pair exists");
    assert_eq!(pair.a.source, pair.b.source);
    let forms = (&pair.a.form, &pair.b.form);
    assert_eq!(
        (forms.0.wave_width.as_str(), forms.1.wave_width.as_str()),
        ("8", "32")
    );
    let mut b_form = pair.b.form.clone();
    b_form.wave_width = pair.a.form.wave_width.clone();
    assert_eq!(
        b_form, pair.a.form,
        "the launches differ only in wave width"
    );
}
