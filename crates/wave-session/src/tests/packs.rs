//! Lesson packs in sessions: a pack lesson's progress key, and the pack a link carries.

use crate::pack::{kernel_pack, parse_pack};
use crate::Session;

const PACK: &str = "# Tiny pack\n\n## First {#first}\n\nWatch r1.\n\n```wave\n.kernel first\n    \
                    mov_imm r1, 7     ; ?value r1\n    halt\n.end\n```\n\n```launch\nworkgroup size: 4\n\
                    wave width: 4\n```\n\n## Second\n\n```wave\n.kernel second\n    halt\n.end\n```\n";

#[test]
fn a_pack_lesson_keeps_its_progress_under_the_pack_until_the_kernel_is_replaced() {
    let pack = parse_pack(PACK).expect("it reads");
    let mut s = Session::from_pack_lesson(&pack, 0).expect("a first lesson");
    assert_eq!(s.form().wave_width, "4");
    let key = format!("{}/first", pack.key);
    assert_eq!(s.pack_lesson(), Some(key.as_str()));
    assert_eq!(s.progress_key(), format!("pack:{key}"));
    assert_eq!(s.example(), None);
    // Edits keep the lesson; a source that declares another kernel is other work.
    s.set_source(&pack.lessons[0].source.replace("7", "8"));
    assert_eq!(s.pack_lesson(), Some(key.as_str()));
    let saved = Session::restore_autosave(&s.autosave()).expect("opens");
    assert_eq!(saved.pack_lesson(), Some(key.as_str()), "autosave keeps it");
    s.set_source(".kernel other\n    halt\n.end\n");
    assert_eq!(s.pack_lesson(), None);
    assert_eq!(s.progress_key(), "kernel:other");
    assert!(Session::from_pack_lesson(&pack, 2).is_none());
}

#[test]
fn a_link_carries_a_small_pack_whole() {
    let pack = parse_pack(PACK).expect("it reads");
    let s = Session::from_pack_lesson(&pack, 1).expect("a second lesson");
    let link = s.share_state_with_pack(PACK);
    assert_eq!(Session::link_pack(&link).as_deref(), Some(PACK));
    let opened = Session::restore(&link).expect("opens");
    assert_eq!(opened.pack_lesson(), s.pack_lesson());
    assert_eq!(Session::link_pack(&s.share_state()), None);
    assert_eq!(Session::link_pack("v1.broken"), None);
}

/// A link made with a pack inside, kept as it was made: later versions must open it.
const PACK_LINK: &str = "v1.dVLLTsMwEPwVy7lGJX1X5cCNHwCJA0Gp62wbK846sp2UUvXfWTuhCAHOIbuzs-Ox1xfuTGcl8C2f1GARNHMgDZY5MlqV0D7HCYScp_xgbMO3Fz4wqYewo1UlRdOUPkpPxtZHa7qWsPnsCxQ9FCdV-iqihChUXgldWDgq58G6QayEXkkoGmiMPQfVbLFZrldU0UYS_buwmm8WBDfivVDovO2kVwZd7BkWVYN6BF_frj-sZYOnGGiBQ0A-WhejvQVRt0ahj70plxXImm-x0zrl3oq2BTr0QWgHJADOGaSdnxWeWStknUzlciNni02WwTzLlvu74VLJUigTNWE3co45Jgl7VNZ5dkkO4X8N4IvwsmJ2OgnJbrcLjmkY45gib5hSY_pCNQ1RU7YOALtnD73QHRD0e5AkNSpq0aGscrzdDHPqA7ZsQRBtxuLIYjr2kM-n8Xn8Yem_lxOb-fUT";

#[test]
fn a_link_made_with_a_pack_inside_opens() {
    let pack = Session::link_pack(PACK_LINK).expect("it carries a pack");
    let pack = parse_pack(&pack).expect("the pack reads");
    assert_eq!(pack.title, "Tiny pack");
    assert_eq!(pack.lessons.len(), 2);
    let opened = Session::restore(PACK_LINK).expect("opens");
    assert_eq!(
        opened.pack_lesson(),
        Some(format!("{}/second", pack.key).as_str())
    );
    assert!(opened.source().contains(".kernel second"));
}

#[test]
fn download_as_lesson_pack_writes_the_pack_or_the_kernel() {
    use crate::examples::{builtin_packs, example};
    let pack = parse_pack(PACK).expect("it reads");
    let s = Session::from_pack_lesson(&pack, 0).expect("a lesson");
    assert_eq!(
        s.lesson_pack(Some((&pack, PACK))),
        ("tiny-pack.md".to_string(), PACK.to_string())
    );
    // A built-in lesson downloads its topic's pack, which opens to the same lessons.
    let lesson = Session::from_example(&example("nested-if").expect("a lesson"));
    let (name, text) = lesson.lesson_pack(None);
    assert_eq!(name, "control-flow.md");
    let again = parse_pack(&text).expect("it reads");
    assert_eq!(again.lessons, builtin_packs()[0].lessons);
    // Edited, it is one kernel with the lesson's title; from no example, an untitled one.
    let mut edited = Session::from_example(&example("nested-if").expect("a lesson"));
    edited.set_source(&format!("; mine\n{}", edited.source()));
    let (name, text) = edited.lesson_pack(Some((&pack, PACK)));
    assert_eq!(name, "nested-if.md");
    let one = parse_pack(&text).expect("it reads");
    assert_eq!(one.title, "Nested if");
    assert_eq!(one.lessons[0].source, edited.source());
    assert_eq!(one.lessons[0].form, *edited.form());
    let plain = Session::new(".kernel k\n    halt\n.end\n", crate::ConfigForm::default());
    let (name, text) = plain.lesson_pack(None);
    assert_eq!(name, "untitled-kernel.md");
    let one = parse_pack(&text).expect("it reads");
    assert_eq!(one.lessons[0].title, "Untitled kernel");
    assert_eq!(one.lessons[0].source, plain.source());
}

#[test]
fn the_documented_example_pack_reads() {
    let doc = include_str!("../../../../docs/lesson-packs.md");
    let start = doc.find("````markdown\n").expect("the example") + "````markdown\n".len();
    let end = start + doc[start..].find("\n````").expect("its end") + 1;
    let pack = parse_pack(&doc[start..end]).expect("the documented example reads");
    assert_eq!(pack.title, "Divergence, step by step");
    let ids: Vec<&str> = pack.lessons.iter().map(|l| l.id.as_str()).collect();
    assert_eq!(ids, ["if-split", "a-loop-that-lanes-leave-one-by-one"]);
    for lesson in &pack.lessons {
        let session = Session::new(&lesson.source, lesson.form.clone());
        assert!(session.form_errors().is_empty(), "{}", lesson.id);
        assert!(
            !session.question_stops().is_empty(),
            "{} asks something",
            lesson.id
        );
    }
}

#[test]
fn the_documented_memory_lines_read() {
    let doc = include_str!("../../../../docs/lesson-packs.md");
    let examples: Vec<&str> = doc
        .split('`')
        .filter(|part| part.starts_with("memory: "))
        .collect();
    assert!(examples.len() >= 5, "{examples:?}");
    for line in examples {
        let text = format!(
            "# T\n\n## L\n```wave\n.kernel k\n    halt\n.end\n```\n\n```launch\ndevice memory: 64K\n{line}\n```\n"
        );
        let pack = parse_pack(&text).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(pack.lessons[0].form.regions.len(), 1, "{line}");
    }
}

#[test]
fn the_gemm_example_leaves_as_a_pack_with_its_input_matrices_and_opens_the_same() {
    let gemm = crate::examples::gemm_example();
    assert_eq!(gemm.form.regions.len(), 2, "A and B are seeded regions");
    let text = kernel_pack(gemm.title, gemm.id, "", &gemm.source, &gemm.form);
    assert!(
        text.contains("memory: random f32 at 0, count 65536, seed 1, low -1, high 1\n"),
        "{text}"
    );
    let pack = parse_pack(&text).expect("it reads");
    assert_eq!(pack.lessons[0].form, gemm.form);
    assert_eq!(pack.lessons[0].source, gemm.source);
}
