use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

use super::lesson;
use crate::{LinkError, RunState, Session, MAX_LINK_CHARS};

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
