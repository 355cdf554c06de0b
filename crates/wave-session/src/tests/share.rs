use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

use super::lesson;
use crate::{Check, LinkError, RunState, Session, MAX_LINK_CHARS};

fn encoded(tag: &str, raw: &[u8]) -> String {
    let compressed = miniz_oxide::deflate::compress_to_vec(raw, 6);
    format!("{tag}.{}", URL_SAFE_NO_PAD.encode(compressed))
}

#[test]
fn a_share_link_restores_source_form_selection_and_step() {
    let mut s = lesson("barrier-local");
    s.toggle_breakpoint(12);
    s.select_wave(1);
    s.select_lane(5);
    for _ in 0..8 {
        s.step();
    }
    let link = s.share_state();
    assert!(link.starts_with("v1."));
    assert!(link[3..]
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
    let restored = Session::restore(&format!("#{link}")).unwrap();
    assert_eq!(restored.source(), s.source());
    assert_eq!(restored.form(), s.form());
    assert_eq!(restored.step_count(), s.step_count());
    assert_eq!(restored.selection(), s.selection());
    assert_eq!(restored.breakpoints(), vec![12]);
    assert_eq!(
        restored.machine().unwrap().workgroup().waves(),
        s.machine().unwrap().workgroup().waves()
    );
    assert_eq!(restored.status_text(), s.status_text());
}

#[test]
fn a_finished_gemm_link_is_far_smaller_than_its_source() {
    let s = Session::from_example(&crate::examples::example("gemm").unwrap());
    let link = s.share_state();
    assert!(
        link.len() * 2 < s.source().len(),
        "{} vs {}",
        link.len(),
        s.source().len()
    );
    let restored = Session::restore(&link).unwrap();
    assert_eq!(restored.check(), s.check());
}

#[test]
fn malformed_links_explain_themselves() {
    assert_eq!(Session::restore("").err(), Some(LinkError::Empty));
    assert_eq!(Session::restore("#").err(), Some(LinkError::Empty));
    assert_eq!(
        Session::restore("hello").err(),
        Some(LinkError::MissingVersion)
    );
    assert_eq!(
        Session::restore("v9.abc").err(),
        Some(LinkError::UnknownVersion("v9".to_string()))
    );
    assert!(matches!(
        Session::restore("v1.@@@"),
        Err(LinkError::BadBase64(_))
    ));
    let not_deflate = format!(
        "v1.{}",
        URL_SAFE_NO_PAD.encode(b"\xff\xff\xff\xff plain bytes")
    );
    assert!(matches!(
        Session::restore(&not_deflate),
        Err(LinkError::BadCompression(_))
    ));
    assert!(matches!(
        Session::restore(&encoded("v1", b"{\"source\": 5}")),
        Err(LinkError::BadJson(_))
    ));
    let bomb = vec![b' '; (1 << 20) + 1];
    assert_eq!(
        Session::restore(&encoded("v1", &bomb)).err(),
        Some(LinkError::TooLarge)
    );
    let long = format!("v1.{}", "A".repeat(MAX_LINK_CHARS + 1));
    assert_eq!(
        Session::restore(&long).err(),
        Some(LinkError::TooLong {
            chars: MAX_LINK_CHARS + 1
        })
    );
    let greedy = lesson("if-else").share_state();
    let payload = {
        let body = URL_SAFE_NO_PAD.decode(&greedy[3..]).unwrap();
        let json = miniz_oxide::inflate::decompress_to_vec(&body).unwrap();
        String::from_utf8(json)
            .unwrap()
            .replace("\"steps\":0", "\"steps\":999999999999")
    };
    assert_eq!(
        Session::restore(&encoded("v1", payload.as_bytes())).err(),
        Some(LinkError::TooManySteps(999_999_999_999))
    );
    // Messages are sentences a person can act on.
    assert_eq!(
        LinkError::UnknownVersion("v9".to_string()).to_string(),
        "the link was made by another version of the playground (`v9`; this one reads `v1`)"
    );
}

#[test]
fn autosave_round_trips_and_rejects_share_links() {
    let mut s = lesson("loop-exit");
    s.step();
    let saved = s.autosave();
    assert!(saved.starts_with("a1."));
    let back = Session::restore_autosave(&saved).unwrap();
    assert_eq!(back.source(), s.source());
    assert_eq!(back.form(), s.form());
    // The moment comes back too: one step in.
    assert_eq!(back.step_count(), 1);
    assert_eq!(
        back.state(),
        &RunState::Paused {
            at_breakpoint: false
        }
    );
    assert_eq!(
        Session::restore_autosave(&s.share_state()).err(),
        Some(LinkError::UnknownVersion("v1".to_string()))
    );
    assert!(Session::restore_autosave("a1.%%").is_err());
}

#[test]
fn equal_autosave_works_are_the_same_text_and_any_change_is_a_new_work() {
    // The page skips a save when the work equals its last save's: equal works, made apart,
    // must encode to the same text.
    let mut a = lesson("loop-exit");
    let b = lesson("if-else");
    assert_eq!(a.autosave_work(), lesson("loop-exit").autosave_work());
    assert_eq!(
        a.autosave_work().text(),
        lesson("loop-exit").autosave_work().text()
    );
    a.step();
    let stepped = a.autosave_work();
    let restored = Session::restore_autosave(&stepped.text()).unwrap();
    assert_eq!(
        restored.autosave_work(),
        stepped,
        "the work a save restores"
    );
    assert_eq!(restored.autosave_work().text(), stepped.text());
    // A step moves the moment, an edit the source, a check or a lesson is part of the work:
    // each is new work to save.
    assert_ne!(stepped, lesson("loop-exit").autosave_work());
    let mut edited = lesson("loop-exit");
    edited.step();
    edited.set_source(&format!("{}\n", edited.source()));
    assert_ne!(edited.autosave_work(), stepped);
    let mut checked = lesson("loop-exit");
    checked.step();
    assert_eq!(checked.check(), None, "the lesson has no check");
    checked.set_check(Some(Check::Gemm {
        n: 2,
        a: 0,
        b: 16,
        c: 32,
    }));
    assert_ne!(checked.autosave_work(), stepped);
    // Compare mode: run B and the lesson pair are part of the work.
    let both = a.autosave_work_compared(&b, None);
    assert_ne!(both, stepped);
    assert_eq!(both, a.autosave_work_compared(&lesson("if-else"), None));
    let mut stepped_b = lesson("if-else");
    stepped_b.step();
    assert_ne!(a.autosave_work_compared(&stepped_b, None), both);
    assert_ne!(a.autosave_work_compared(&b, Some("branch-vs-select")), both);
}

#[test]
fn a_link_to_broken_source_still_restores_the_text() {
    let mut s = lesson("if-else");
    s.set_source("this is not a kernel");
    let restored = Session::restore(&s.share_state()).unwrap();
    assert_eq!(restored.source(), "this is not a kernel");
    assert!(matches!(restored.state(), RunState::SourceErrors(_)));
}

#[test]
fn a_link_to_a_budget_trap_restores_the_trap() {
    let source = "\
.kernel spin
.registers 2
    loop
        nop
    endloop
    halt
.end
";
    let mut s = super::session(source, 1, 1);
    let mut form = s.form().clone();
    form.max_instructions = "50".to_string();
    s.set_form(form);
    s.run_all();
    assert!(matches!(s.state(), RunState::Trapped(_)));
    let restored = Session::restore(&s.share_state()).unwrap();
    assert_eq!(restored.state(), s.state());
    assert_eq!(restored.status_text(), s.status_text());
    assert_eq!(restored.step_count(), 50);
}

/// Decodes a link's JSON, lets `change` edit it, and encodes it again.
fn with_payload(link: &str, change: impl FnOnce(&mut serde_json::Value)) -> String {
    let (tag, body) = link.split_once('.').unwrap();
    let body = URL_SAFE_NO_PAD.decode(body).unwrap();
    let json = miniz_oxide::inflate::decompress_to_vec(&body).unwrap();
    let mut value: serde_json::Value = serde_json::from_slice(&json).unwrap();
    change(&mut value);
    encoded(tag, value.to_string().as_bytes())
}

#[test]
fn links_and_autosaves_remember_the_example_they_came_from() {
    let mut s = lesson("nested-if");
    for _ in 0..5 {
        s.step();
    }
    assert_eq!(s.example(), Some("nested-if"));
    let restored = Session::restore(&s.share_state()).unwrap();
    assert_eq!(restored.example(), Some("nested-if"));
    assert!(!restored.example_edited());
    let saved = Session::restore_autosave(&s.autosave()).unwrap();
    assert_eq!(saved.example(), Some("nested-if"));
    // Work that is not an example says so too.
    let plain = super::session(".kernel mine\n    halt\n.end\n", 1, 1);
    assert_eq!(plain.example(), None);
    assert_eq!(
        Session::restore(&plain.share_state()).unwrap().example(),
        None
    );
}

#[test]
fn links_without_an_example_or_with_an_unknown_one_still_open() {
    let s = lesson("loop-exit");
    let link = s.share_state();
    let old = with_payload(&link, |v| {
        v.as_object_mut().unwrap().remove("example");
    });
    let restored = Session::restore(&old).unwrap();
    assert_eq!(restored.source(), s.source());
    assert_eq!(restored.example(), None);
    let unknown = with_payload(&link, |v| v["example"] = "no-such-lesson".into());
    let restored = Session::restore(&unknown).unwrap();
    assert_eq!(restored.source(), s.source());
    assert_eq!(restored.example(), None);
    let old_autosave = with_payload(&s.autosave(), |v| {
        v.as_object_mut().unwrap().remove("example");
    });
    assert_eq!(
        Session::restore_autosave(&old_autosave).unwrap().example(),
        None
    );
    // The id of another example whose kernel this source does not declare is not believed.
    let other = with_payload(&link, |v| v["example"] = "if-else".into());
    assert_eq!(Session::restore(&other).unwrap().example(), None);
}

#[test]
fn an_edited_example_keeps_its_explanation_until_it_is_another_kernel() {
    let mut s = lesson("if-else");
    let original = s.source().to_string();
    let tweaked = original.replace("mov_imm  r1, 3", "mov_imm  r1, 5");
    assert_ne!(tweaked, original);
    s.set_source(&tweaked);
    assert_eq!(s.example(), Some("if-else"));
    assert!(s.example_edited());
    // Links and autosaves keep the edited work's origin.
    let restored = Session::restore(&s.share_state()).unwrap();
    assert_eq!(restored.example(), Some("if-else"));
    assert!(restored.example_edited());
    // Half-typed text with errors is still that example.
    s.set_source(&original.replace("    halt\n", "    hal\n"));
    assert!(matches!(s.state(), RunState::SourceErrors(_)));
    assert_eq!(s.example(), Some("if-else"));
    // Back to the original: no longer edited.
    s.set_source(&original);
    assert!(!s.example_edited());
    // Another kernel altogether (or the example's kernel renamed): the example is forgotten,
    // and stays forgotten.
    s.set_source(&original.replace(".kernel if_else", ".kernel my_split"));
    assert_eq!(s.state(), &RunState::Ready);
    assert_eq!(s.example(), None);
    s.set_source(&original);
    assert_eq!(s.example(), None);
    let mut t = lesson("loop-exit");
    t.set_source(".kernel mine\n    halt\n.end\n");
    assert_eq!(t.example(), None);
}

#[test]
fn an_autosave_keeps_the_moment_and_one_without_a_moment_opens_at_the_start() {
    let mut s = super::lesson("nested-if");
    for _ in 0..7 {
        s.step();
    }
    s.select_wave(0);
    s.select_lane(5);
    s.zoom_timeline(2.0);
    let saved = s.autosave();
    let restored = Session::restore_autosave(&saved).expect("opens");
    assert_eq!(restored.step_count(), 7);
    assert_eq!(restored.selection().lane, 5);
    assert_eq!(restored.timeline_zoom(), s.timeline_zoom());
    assert!(restored.machine().expect("m").checkpoint() == s.machine().expect("m").checkpoint());

    // At the start nothing but the work is written, as earlier versions wrote it.
    let fresh = super::lesson("nested-if");
    let at_start = Session::restore_autosave(&fresh.autosave()).expect("opens");
    assert_eq!(at_start.step_count(), 0);
    assert_eq!(at_start.state(), &crate::RunState::Ready);
}

#[test]
fn a_link_keeps_the_reference_behaviour_and_links_without_it_read_as_spec() {
    let mut s = lesson("break-in-if");
    let mut form = s.form().clone();
    form.reference_behaviour = true;
    s.set_form(form);
    for _ in 0..6 {
        s.step();
    }
    let restored = Session::restore(&format!("#{}", s.share_state())).unwrap();
    assert!(restored.form().reference_behaviour);
    assert_eq!(
        restored.machine().map(|m| m.behaviour()),
        Some(wave_engine::machine::Behaviour::WaveEmu)
    );
    assert_eq!(restored.step_count(), s.step_count());
    // Off, the field is left out: a link reads exactly as one made before it existed.
    let plain = lesson("break-in-if").share_state();
    let payload = with_payload(&plain, |value| {
        assert!(
            value["form"].get("reference_behaviour").is_none(),
            "{value}"
        );
    });
    assert!(
        !Session::restore(&format!("#{payload}"))
            .unwrap()
            .form()
            .reference_behaviour
    );
}

/// Links and autosaves written before compare mode existed, kept as they were made: every later
/// version must open them unchanged.
const OLD_LESSON_LINK: &str = "v1.bVPbauMwEP2VQS8Li1ri3BoSyv7Evm2KUZxJLKKLGcm5UPrvO5KctDWVsS0dzRydMx6_i-B7alCsxQb-Xjxc1BkD-AOgPrYRQqsIwfhGGbBoPd3WgGekG8SWUO3hQjpygo5h6zYQjI-SOXgJKnIMwk4RaSSZFg5STsh4Ck3npFCriTwlgoFVuxzj-UFZ0vPWPZ-QHJo7YZ1FMUx41CEiBVhtHfCw_lwH4glNJASqC2et9_X1M0BbywGVhHnBtO1NegNNZU6kCh5jA_aWBY_zZxKqyZhgPhDMvhKclekRXu8Gfz_yso06RE9Y97NpOX8QNViFH8cm1xkOnka1-hWGrzJWu2C1i0Ft6HdF7VLmDZp8s5s_yF3sK6fB07Aau0356a6-2jGeC57dvKTtT-I_pQ70UqL3eNYNjt0Pm60yXPBndHymkIKNWrF-F6UNuGEZO5Le86ySfPHy4ul0JN93CVveQS5JfdH72DK6YkA7HTWLfDRO4Rq0lC5naLpYMlr8PMBqOVvNGbbqWmsXIvVN1N4limpSBu8m5gz-e_v4pmpS5Ih1xczK8WQhBWvoOJYFix1X-NR57WJKrqZvUjQtNiexdr0xUkRSXYds-aBMQCnwqmxn0t87tMpT1is-_gM";
const OLD_LESSON_AUTOSAVE: &str = "a1.bVPbjtowEP2VkV8qVV5EuC0CrfoTfStV5A0DsfAFjR0CXfHvHduB3UY1IrGPZ47PGU8-RPAdNSg2Ygs_ew-9umAAfwDUxzZCaBUhGN8oAxatp9sG8IJ0g9gSqj30pCMn6Bh2bgvB-CiZg5egIscgvCsijSTTwkHKCRlPoemcFGo1kadEMLBql2M8PyhLmuzc5ITk0DwI6yyKYcKjDhEpwHrngIf1lzoQT2gqIVBdOGu9r6-fAdpaDqgkLAqmbWfSG2gmcyJV8BxbsLcseJw_l1BNxwSLgWD-leCiTIfw9jD4_ZmXbdQhesK6m8_K-YOowSr8d2xzneHgaVSrb2G4lbHaJatdDmpD917UrmTeoOk_dvOFPMS-cRq8DKux25Sf_tVXO8ZzwbOb17T9Sfyj1IFeS_QeL7rBsfths1WGCz5Bx2cKKdioFZsPUdqAG5axI-k9zyrJP172nk5H8t05YasHyCWpe72PLaNrBrTTUbPIZ-MUrkFL6XKGZssVo8XPE6xW8_WCYauutXYhUtdE7V2iqKZl8G5izuCv33cpmhabk9i4zhgp8Krs2aTvbbjcl3xCovQWXUwOWdSZk9lBFs8z1qEcT5ZS_PGeyzCVIpI6n5HtH5QJeL__BQ";
const OLD_PLAIN_LINK: &str = "v1.VY_dasMwDIVfJfjalOyHMfIq6zCeoyYitmxkJ90offfJNmNUujn6JB2km8pxZwdqUqcNmMAPAQnONEiEeJjMA496yGy8JTA499ZqfTnTCUhqpdUlclDTTXULMRO2MM6inrSklNfI28JxT8Je_5g9wFxxLmuFApCwoPWGYcFcgHO3muFAByZAiPxTPcfnOu2jk9l_-vbyXnGw3wYpF95dwUi5LfSQbrVu8OPz_nDV2O9pov7ahByRclNfDHZLEam0Xa3cCm5TE-3ea1XYpgTy78X6DPdf";
const OLD_PLAIN_AUTOSAVE: &str = "a1.RYzdCsIwDEZfZeR6iH-I7FVUSuniFtamknZTkb276YaY3CQnX84HUhzFITSwGVAYfRWI8cqVVoiTSVLJtq6SGG8ZDbXrqbc-X3mDrDvUcI8SoPnAqlCZsk6o1WlXa-v6jDJ0EseHsuOP2QnNk9rcF6iAmDJZbwQ7ShklraoWJ3JoAoYo7-Lc7kvaR6fZPz0dzgUH-zLEKcvoMkVOy8Naei3qBV5ucw2uRzdAw6P38xc";
const OLD_FINISHED_LINK: &str = "v1.ZVNtbtswDL0Kob_zijjJiiABtgvsBssgaDJjE9YXJDnJUPTuo6Q2XjcZhuhH8umRlF9E8kvUKI7iBN-VQ3AwekwQ_eIGyBOC8T4w-gl6yGQxHcFzmCmxBtUV09mdQF0yRkClJyC2VCbvQDHDTVFOsLhMprGplFsyJRiY6ensnmaMDk09SeKdMkMRR0rMlOBwdsDL-qtMkY246SBFWTgkDauTrGVn38EGPq7TKilB8nBR8d-sbQd9w4qGZpVFahjKXmjru_3Lp22QY4bw7ts8zit1cZc0guY2ZvhaK15Tf0VUM--h_0_qN6vS3CLRDauaVeuug33DyC6mpsV9V9sSd80x4JU0ypR9RLnsti3grcJJmdJgZj870YmLj1YcX0SbAd8DxsZIA1t9xw9_3nycR74QgbHDO8aTlzca8lRABshRJmXkY3CN6k2KRevjb4a2X54ZNV5z6APsn3eHPcNW3SW5lOOi67SKa9MWewtzBX_8fP0gatPkVKM0uhqsIXDsns3a7uDJ5ZrcCT2hnsXRLcZ0IkcVAnK9F2USdgLvygZT_ojS_c_lPorXPw";

/// `a` and `b` show the same work at the same moment.
fn assert_same_session(a: &Session, b: &Session, what: &str) {
    assert_eq!(a.source(), b.source(), "{what}");
    assert_eq!(a.form(), b.form(), "{what}");
    assert_eq!(a.selection(), b.selection(), "{what}");
    assert_eq!(a.step_count(), b.step_count(), "{what}");
    assert_eq!(a.opening(), b.opening(), "{what}");
    assert_eq!(a.breakpoints(), b.breakpoints(), "{what}");
    assert_eq!(a.example(), b.example(), "{what}");
    assert_eq!(a.check(), b.check(), "{what}");
    assert_eq!(a.timeline_zoom(), b.timeline_zoom(), "{what}");
    assert_eq!(a.state(), b.state(), "{what}");
    assert_eq!(a.status_text(), b.status_text(), "{what}");
    assert!(
        a.machine().map(|m| m.checkpoint()) == b.machine().map(|m| m.checkpoint()),
        "{what}"
    );
}

#[test]
fn links_and_autosaves_made_before_compare_mode_open_unchanged_as_one_run() {
    for link in [OLD_LESSON_LINK, OLD_PLAIN_LINK, OLD_FINISHED_LINK] {
        let single = Session::restore_opening(link).expect("opens");
        let opened = Session::restore_opening_compared(link).expect("opens");
        assert!(opened.b.is_none() && opened.pair.is_none(), "{link}");
        assert_same_session(&opened.a, &single, link);
        let single = Session::restore(link).expect("opens");
        let opened = Session::restore_compared(&format!("#{link}")).expect("opens");
        assert!(opened.b.is_none() && opened.pair.is_none(), "{link}");
        assert_same_session(&opened.a, &single, link);
    }
    for text in [OLD_LESSON_AUTOSAVE, OLD_PLAIN_AUTOSAVE] {
        let single = Session::restore_autosave_opening(text).expect("opens");
        let opened = Session::restore_autosave_opening_compared(text).expect("opens");
        assert!(opened.b.is_none() && opened.pair.is_none(), "{text}");
        assert_same_session(&opened.a, &single, text);
        let single = Session::restore_autosave(text).expect("opens");
        let opened = Session::restore_autosave_compared(text).expect("opens");
        assert!(opened.b.is_none() && opened.pair.is_none(), "{text}");
        assert_same_session(&opened.a, &single, text);
    }
    // What the fixtures hold, so that opening them "the same" cannot mean opening nothing.
    let lesson_link = Session::restore_compared(OLD_LESSON_LINK).expect("opens").a;
    assert_eq!(lesson_link.example(), Some("barrier-local"));
    assert_eq!(lesson_link.step_count(), 16);
    assert_eq!(lesson_link.breakpoints(), vec![12]);
    assert_eq!(
        (lesson_link.selection().wave, lesson_link.selection().lane),
        (1, 5)
    );
    let autosaved = Session::restore_autosave_compared(OLD_LESSON_AUTOSAVE)
        .expect("opens")
        .a;
    assert_eq!(autosaved.example(), Some("barrier-local"));
    assert_eq!(autosaved.step_count(), 16);
    let plain = Session::restore_compared(OLD_PLAIN_LINK).expect("opens").a;
    assert_eq!(plain.example(), None);
    assert_eq!(plain.form().workgroup, "4,1,1");
    assert_eq!(plain.form().wave_width, "4");
    assert!(plain.source().contains(".kernel mine"));
    assert_eq!(plain.step_count(), 0);
    let plain_saved = Session::restore_autosave_compared(OLD_PLAIN_AUTOSAVE)
        .expect("opens")
        .a;
    assert_eq!(plain_saved.source(), plain.source());
    assert_eq!(plain_saved.state(), &RunState::Ready);
    let finished = Session::restore_compared(OLD_FINISHED_LINK)
        .expect("opens")
        .a;
    assert_eq!(finished.example(), Some("loop-exit"));
    assert_eq!(finished.state(), &RunState::Finished);
    assert_eq!(super::words(&finished, 0, 8), vec![1, 2, 3, 4, 5, 6, 7, 8]);
}

/// Run A and run B of the lesson pair `id`, questions off, stepped `steps_a` and `steps_b` times.
fn pair_runs(id: &str, steps_a: usize, steps_b: usize) -> (Session, Session) {
    let pair = crate::examples::compare_pair(id).expect("pair exists");
    let mut a = Session::from_example(&pair.a);
    let mut b = Session::from_example(&pair.b);
    for (session, steps) in [(&mut a, steps_a), (&mut b, steps_b)] {
        session.set_questions_on(false);
        for _ in 0..steps {
            assert!(session.step());
        }
    }
    (a, b)
}

#[test]
fn a_compared_link_round_trips_both_runs_and_the_pair() {
    let (mut a, mut b) = pair_runs("pair-reduction-addressing", 40, 13);
    a.select_wave(2);
    a.select_lane(3);
    a.toggle_breakpoint(super::line(&a, "local_load_u32 r11"));
    b.select_wave(3);
    b.select_lane(6);
    b.toggle_breakpoint(super::line(&b, "shr     r5"));
    b.zoom_timeline(2.0);
    // Run B at another width: the two launches travel separately.
    let mut form = b.form().clone();
    form.wave_width = "16".to_string();
    b.set_form(form);
    for _ in 0..5 {
        assert!(b.step());
    }
    let link = a.share_state_compared(&b, Some("pair-reduction-addressing"));
    assert!(link.starts_with("v1."));
    let opened = Session::restore_compared(&format!("#{link}")).expect("opens");
    assert_eq!(opened.pair.as_deref(), Some("pair-reduction-addressing"));
    let restored_b = opened.b.as_ref().expect("run B");
    for (restored, original) in [(&opened.a, &a), (restored_b, &b)] {
        assert_eq!(restored.source(), original.source());
        assert_eq!(restored.form(), original.form());
        assert_eq!(restored.selection(), original.selection());
        assert_eq!(restored.step_count(), original.step_count());
        assert_eq!(restored.breakpoints(), original.breakpoints());
        assert_eq!(restored.example(), original.example());
        assert_eq!(restored.timeline_zoom(), original.timeline_zoom());
        assert_eq!(restored.status_text(), original.status_text());
    }
    assert_eq!(opened.a.example(), Some("pair-reduction-addressing-a"));
    assert_eq!(restored_b.example(), Some("pair-reduction-addressing-b"));
    assert_eq!(restored_b.form().wave_width, "16");
    assert_ne!(opened.a.step_count(), restored_b.step_count());
    // Opened without finishing, each run heads for its own moment.
    let opening = Session::restore_opening_compared(&link).expect("opens");
    assert_eq!(opening.a.opening(), Some(a.step_count()));
    assert_eq!(
        opening.b.as_ref().and_then(Session::opening),
        Some(b.step_count())
    );
    // A version without compare mode reads run A: the link is run A's own link plus `b` and
    // `pair`.
    let single = with_payload(&a.share_state(), |_| {});
    let stripped = with_payload(&link, |v| {
        let fields = v.as_object_mut().expect("an object");
        assert!(fields.remove("b").is_some() && fields.remove("pair").is_some());
    });
    assert_eq!(stripped, single);
    let as_single = Session::restore(&link).expect("opens");
    assert_same_session(&as_single, &opened.a, "run A alone");
}

#[test]
fn a_compared_autosave_round_trips_both_runs_and_the_pair() {
    let (mut a, mut b) = pair_runs("pair-wave-width", 6, 11);
    a.select_wave(3);
    a.select_lane(2);
    b.select_lane(20);
    let saved = a.autosave_compared(&b, Some("pair-wave-width"));
    assert!(saved.starts_with("a1."));
    let opened = Session::restore_autosave_compared(&saved).expect("opens");
    assert_eq!(opened.pair.as_deref(), Some("pair-wave-width"));
    let restored_b = opened.b.as_ref().expect("run B");
    for (restored, original) in [(&opened.a, &a), (restored_b, &b)] {
        assert_eq!(restored.source(), original.source());
        assert_eq!(restored.form(), original.form());
        assert_eq!(restored.selection(), original.selection());
        assert_eq!(restored.step_count(), original.step_count());
        assert_eq!(restored.example(), original.example());
        assert!(
            restored.machine().map(|m| m.checkpoint())
                == original.machine().map(|m| m.checkpoint())
        );
    }
    assert_eq!(
        (
            opened.a.form().wave_width.as_str(),
            restored_b.form().wave_width.as_str()
        ),
        ("8", "32")
    );
    // Both at the start: no moments, as single autosaves at the start have none.
    let (fresh_a, fresh_b) = pair_runs("pair-wave-width", 0, 0);
    let at_start = Session::restore_autosave_compared(&fresh_a.autosave_compared(&fresh_b, None))
        .expect("opens");
    assert_eq!(at_start.pair, None);
    assert_eq!(at_start.a.state(), &RunState::Ready);
    assert_eq!(
        at_start.b.as_ref().map(Session::state),
        Some(&RunState::Ready)
    );
    // An autosave of compare mode is not a link, and the other way round.
    assert_eq!(
        Session::restore_opening_compared(&saved).err(),
        Some(LinkError::UnknownVersion("a1".to_string()))
    );
    assert_eq!(
        Session::restore_autosave_opening_compared(&a.share_state_compared(&b, None)).err(),
        Some(LinkError::UnknownVersion("v1".to_string()))
    );
}

/// A compare link made when compare mode came in: two runs of the lesson pair "Branch vs
/// select", A five steps in with lane 3 selected, B nine steps in on wave 1, lane 6, with a
/// breakpoint on its `select`. Every later version must open it so.
const COMPARE_LINK: &str = "v1.7ZTNctMwEMdfZUdHUEodp6E4w4kH4MKNMI5ib2pNZMlIctLQ6buzkpw4CWWGGThwqHJR_qv90Gp_fmLO9LZCVrAFfNYIn4xSwv8A57GDDi34xqKoC8g1vIUMNsaCqWvQHDS8g2kUcId6qRegb-BLg7CSmxW4TknvgskeYC92CFJ7A0EL_kLXMNg1KKHR3Sz1zRatRgVVKqJcW6GrhnSLD5Iqsg7ulxpotWZXOksbe8vB2TJVWcq6fASgQsZTsm3pVMYhS1pIHJed8uhtB4Os2q7E7wAdHY7GDE5rQWpBN5ax-sFhQ2LaniezOYd8lGXbq5huNqQ7t4m6PtlmZxkXsUexLcfOJy9UDkd_11i4iD36j30t0kMN_rqWm-vm3HGYDVcaigU7HyLenfdgffAIVLNF5-AjxX1zdKxxJyssnTcWyz6fpgCDsRHK0yNS7qVmnNHEtKx4YumxafJIe7Cypl3G6Ud_98ZuH6zpu6DNjyINUbmXtW9IvSdBaumlUOVpOlKsoZYWW2MPJE3v5qQqU9HRk5jN8_sZya14LKV23vaVl0aHENltWmQNkaP49dvzRVW3qZy4CV1mRc5ZYIbOfuBsTdO47QxNfPTlrGqw2rJC90px5q3oOqT7bgQ9J2f4KNpOBQY7Ie0kTf1k5yYOFVZ-IqiSdejYn7HKYS99Y3oPAlKsYsAwVArhFi7QGk6sjW8ICbcPbAU0VinnCrZIl6GICIacAqoaNGL9EqfJ53_ldIw-kjkO-hWWRyR_ZTJGTyxy6slZS5PnEcbI0wWN0TNC-LJj7N6QMl5qNoIXvwTFKW_A-gLoV4r_BcXZkeL5ieLs_TXGWf63IK8Z5Q-m351gzz8B";

#[test]
fn the_first_compare_link_still_opens_with_both_runs() {
    let opened = Session::restore_compared(COMPARE_LINK).expect("opens");
    let pair = crate::examples::compare_pair("pair-branch-vs-select").expect("pair exists");
    assert_eq!(opened.pair.as_deref(), Some(pair.id));
    let a = &opened.a;
    let b = opened.b.as_ref().expect("run B");
    assert_eq!(a.source(), pair.a.source);
    assert_eq!(b.source(), pair.b.source);
    assert_eq!(a.form(), &pair.a.form);
    assert_eq!(b.form(), &pair.b.form);
    assert_eq!(a.example(), Some("pair-branch-vs-select-a"));
    assert_eq!(b.example(), Some("pair-branch-vs-select-b"));
    assert_eq!((a.step_count(), b.step_count()), (9, 17));
    assert_eq!((a.selection().wave, a.selection().lane), (0, 3));
    assert_eq!((b.selection().wave, b.selection().lane), (1, 6));
    assert!(a.breakpoints().is_empty());
    assert_eq!(b.breakpoints(), vec![super::line(b, "select   r4")]);
    // The same moments as stepping there again.
    let (again_a, again_b) = pair_runs("pair-branch-vs-select", 5, 9);
    assert!(a.machine().map(|m| m.checkpoint()) == again_a.machine().map(|m| m.checkpoint()));
    assert!(b.machine().map(|m| m.checkpoint()) == again_b.machine().map(|m| m.checkpoint()));
}

#[test]
fn a_damaged_run_b_is_refused_with_a_message_and_run_a_still_opens() {
    let (a, b) = pair_runs("pair-loop-trip-count", 3, 4);
    let link = a.share_state_compared(&b, Some("pair-loop-trip-count"));
    for damage in [
        serde_json::json!(7),
        serde_json::json!({ "source": 5 }),
        serde_json::json!({ "source": "x" }),
    ] {
        let damaged = with_payload(&link, |v| v["b"] = damage.clone());
        let err = Session::restore_opening_compared(&damaged)
            .err()
            .expect("refused");
        assert!(
            matches!(err, LinkError::BadSecondRun(_)),
            "{damage}: {err:?}"
        );
        let message = err.to_string();
        assert!(
            message.starts_with("the link's second run (B) is not a saved state ("),
            "{message}"
        );
        // Nothing is lost: the same link still opens run A alone.
        let alone = Session::restore(&damaged).expect("run A opens");
        assert_eq!(alone.source(), a.source());
        assert_eq!(alone.step_count(), a.step_count());
    }
    // A damaged run A is the payload's own error, as for a single run.
    let damaged_a = with_payload(&link, |v| v["source"] = 5.into());
    assert!(matches!(
        Session::restore_opening_compared(&damaged_a),
        Err(LinkError::BadJson(_))
    ));
    // The same for autosaves.
    let saved = a.autosave_compared(&b, None);
    let damaged = with_payload(&saved, |v| v["b"] = serde_json::json!({ "form": [] }));
    assert!(matches!(
        Session::restore_autosave_opening_compared(&damaged),
        Err(LinkError::BadSecondRun(_))
    ));
    assert_eq!(
        Session::restore_autosave(&damaged)
            .expect("run A opens")
            .source(),
        a.source()
    );
}

#[test]
fn the_step_limit_holds_for_both_runs_together() {
    let (a, b) = pair_runs("pair-branch-vs-select", 1, 1);
    let link = a.share_state_compared(&b, None);
    let greedy = with_payload(&link, |v| {
        v["steps"] = 150_000_000u64.into();
        v["b"]["steps"] = 60_000_000u64.into();
    });
    assert_eq!(
        Session::restore_opening_compared(&greedy).err(),
        Some(LinkError::TooManySteps(210_000_000))
    );
    // Either run alone is within the limit.
    let modest = with_payload(&link, |v| v["b"]["steps"] = 60_000_000u64.into());
    assert!(Session::restore_opening_compared(&modest).is_ok());
    // An autosave whose moments are too far together opens both runs at the start.
    let saved = a.autosave_compared(&b, None);
    let greedy = with_payload(&saved, |v| {
        v["moment"]["steps"] = 150_000_000u64.into();
        v["b"]["moment"]["steps"] = 60_000_000u64.into();
    });
    let opened = Session::restore_autosave_opening_compared(&greedy).expect("opens");
    assert_eq!(opened.a.opening(), None);
    assert_eq!(opened.b.as_ref().and_then(Session::opening), None);
    assert_eq!(opened.a.step_count(), 0);
}

#[test]
fn an_unknown_pair_is_forgotten_and_a_pair_run_is_remembered_alone() {
    let (a, b) = pair_runs("pair-branch-vs-select", 2, 2);
    let link = a.share_state_compared(&b, Some("pair-from-a-later-version"));
    let opened = Session::restore_compared(&link).expect("opens");
    assert_eq!(opened.pair, None);
    assert!(opened.b.is_some());
    // A single link of one pair's run keeps where it came from.
    let single = Session::restore(&b.share_state()).expect("opens");
    assert_eq!(single.example(), Some("pair-branch-vs-select-b"));
    assert!(!single.example_edited());
}
