use super::*;

const PACK: &str = "\
# Divergence, slowly

A short course. Each lesson has *one* idea.

## The if splits the wave {#split}

Lanes 0-2 take the `if`; see [the guide](https://example.org/guide).

```wave
.kernel split
    mov_sr r0, sr_lane_id
    halt                 ; ?next
.end
```

```launch
workgroup size: 8,1,1
wave width: 8
device memory: 256
```

## Loops

### Watch the mask

```wave
.kernel loops
    halt
.end
```
";

#[test]
fn a_well_formed_pack_reads_into_its_lessons() {
    let pack = parse_pack(PACK).expect("it reads");
    assert_eq!(pack.title, "Divergence, slowly");
    assert_eq!(
        pack.intro_html,
        "<p>A short course. Each lesson has <em>one</em> idea.</p>\n"
    );
    assert_eq!(pack.lessons.len(), 2);
    let split = &pack.lessons[0];
    assert_eq!((split.id.as_str(), split.line), ("split", 5));
    assert_eq!(split.title, "The if splits the wave");
    assert_eq!(
        split.prose_html,
        "<p>Lanes 0-2 take the <code>if</code>; see <a href=\"https://example.org/guide\" \
         target=\"_blank\" rel=\"noopener noreferrer\">the guide</a>.</p>\n"
    );
    assert!(split.source.starts_with(".kernel split\n"));
    assert!(split.source.contains("; ?next"));
    assert_eq!(split.form.workgroup, "8,1,1");
    assert_eq!(split.form.wave_width, "8");
    assert_eq!(split.form.device_memory, "256");
    let loops = &pack.lessons[1];
    assert_eq!(
        (loops.id.as_str(), loops.title.as_str()),
        ("loops", "Loops")
    );
    assert_eq!(loops.prose_html, "<h3>Watch the mask</h3>\n");
    assert_eq!(loops.form, ConfigForm::default());
    assert!(pack.key.starts_with("Divergence, slowly#"));
    let edited = parse_pack(&PACK.replace("slowly", "slowly ")).expect("it reads");
    assert_ne!(edited.key, pack.key, "another text is another pack");
}

/// The line and message of a refused pack.
fn refused(text: &str) -> (usize, String) {
    let e = parse_pack(text).expect_err("it is refused");
    (e.line, e.message)
}

#[test]
fn every_malformed_pack_names_its_line() {
    let wave = "```wave\n.kernel k\n    halt\n.end\n```\n";
    let cases: Vec<(String, usize, &str)> = vec![
        (
            "Some words first.\n\n# Title\n".into(),
            1,
            "starts with its `# Title`",
        ),
        ("".into(), 1, "starts with its `# Title`"),
        (format!("## Lesson\n{wave}"), 1, "starts with its `# Title`"),
        (
            format!("# T\n\n# Again\n\n## L\n{wave}"),
            3,
            "a second `#` title",
        ),
        ("# T\n\nNo lessons here.\n".into(), 4, "has no lessons"),
        (
            "# T\n\n## Empty\n\nJust words.\n".into(),
            3,
            "\"Empty\" has no ```wave block",
        ),
        (
            format!("# T\n\n## Two\n\n{wave}\n{wave}"),
            11,
            "a second ```wave block (its kernel is on line 5)",
        ),
        (format!("# T\n\n{wave}"), 3, "before the first `##` lesson"),
        (
            format!("# T\n\n## L\n{wave}```launch\nwave width: 8\nwarp size: 32\n```\n"),
            11,
            "`warp size` is not a launch setting",
        ),
        (
            format!("# T\n\n## L\n{wave}```launch\nwave width = 8\n```\n"),
            10,
            "not a launch line",
        ),
        (
            format!("# T\n\n## L\n{wave}```launch\nwave width: 99\n```\n"),
            10,
            "wave width",
        ),
        (
            format!("# T\n\n## A {{#same}}\n{wave}\n## B {{#same}}\n{wave}"),
            10,
            "two lessons have the id `same` (the other is on line 3)",
        ),
        (format!("# T\n\n## ???\n{wave}"), 3, "needs an id"),
        (
            format!("# T\n\n## L {{#a/b}}\n{wave}"),
            3,
            "the id `a/b` may hold only",
        ),
        (format!("#  \n\n## L\n{wave}"), 1, "title is empty"),
    ];
    for (text, line, words) in cases {
        let (at, message) = refused(&text);
        assert_eq!(at, line, "{text:?}: {message}");
        assert!(message.contains(words), "{text:?}: {message}");
    }
}

#[test]
fn too_many_lessons_too_many_bytes_and_non_text_are_refused() {
    let mut text = String::from("# Many\n");
    for n in 0..=MAX_PACK_LESSONS {
        text.push_str(&format!(
            "\n## Lesson {n}\n\n```wave\n.kernel k\n    halt\n.end\n```\n"
        ));
    }
    let (line, message) = refused(&text);
    assert_eq!(
        line,
        3 + 8 * MAX_PACK_LESSONS,
        "the heading of the lesson one too many"
    );
    assert!(message.contains("at most 100 lessons"), "{message}");

    let big = format!("# Big\n\n{}", "word ".repeat(MAX_PACK_BYTES / 5));
    let e = read_pack(big.as_bytes()).expect_err("too big");
    assert_eq!(e.line, 0);
    assert!(e.to_string().contains("at most 1 MB"), "{e}");

    let e = read_pack(b"# Title\n\nsome \xff bytes\n").expect_err("not text");
    assert_eq!(e.to_string(), "line 3: the pack is not UTF-8 text");
}

/// Checks that `html` holds only the elements and attributes the renderer may write, and that
/// no attribute value runs a script.
fn assert_inert(html: &str) {
    const ELEMENTS: [&str; 23] = [
        "p",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "blockquote",
        "pre",
        "code",
        "ol",
        "ul",
        "li",
        "em",
        "strong",
        "del",
        "sup",
        "sub",
        "a",
        "img",
        "br",
        "hr",
        "span",
    ];
    const ATTRIBUTES: [&str; 7] = ["href", "title", "target", "rel", "src", "alt", "class"];
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        let tag_end = rest[open..].find('>').expect("every tag closes") + open;
        let tag = &rest[open + 1..tag_end];
        let tag = tag.strip_prefix('/').unwrap_or(tag);
        let name: String = tag
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        assert!(
            ELEMENTS.contains(&name.as_str()),
            "element <{name}> in {html}"
        );
        // Attribute values are quoted and escaped, so splitting on `="` finds every name.
        let mut attributes = &tag[name.len()..];
        while let Some(eq) = attributes.find("=\"") {
            let attribute = attributes[..eq].trim();
            assert!(
                ATTRIBUTES.contains(&attribute),
                "attribute {attribute} in {html}"
            );
            let value_end = attributes[eq + 2..].find('"').expect("quoted") + eq + 2;
            let value = attributes[eq + 2..value_end].to_ascii_lowercase();
            assert!(
                !value.contains("javascript:") && !value.contains("script"),
                "{value} in {html}"
            );
            attributes = &attributes[value_end + 1..];
        }
        rest = &rest[tag_end + 1..];
    }
}

#[test]
fn hostile_markdown_is_rendered_inert() {
    let hostile = [
        "<script>alert(1)</script>",
        "Text <script>alert(1)</script> inline",
        "<img src=x onerror=alert(1)>",
        "An <img src=x onerror=\"alert(1)\"> inline",
        "[click](javascript:alert(1))",
        "[click](JaVaScRiPt:alert(1))",
        "[click](jav&#x61;script:alert(1))",
        "[click](&#106;avascript:alert(1))",
        "[click](<java\tscript:alert(1)>)",
        "<javascript:alert(1)>",
        "[click][evil]\n\n[evil]: javascript:alert(1)",
        "[ok][fine]\n\n[fine]: https://example.org \"a \\\"title\\\" onmouseover=x\"",
        "![pic](https://tracker.example/p.gif)",
        "![pic](javascript:alert(1))",
        "![pic](data:image/svg+xml;base64,PHN2Zz4=)",
        "<a href=\"javascript:alert(1)\">x</a>",
        "<iframe src=\"https://example.org\"></iframe>",
        "<style>body{display:none}</style>",
        "`<script>` in code and\n\n```html\n<script>alert(1)</script>\n```",
        "<details open ontoggle=alert(1)>",
        "[x](\"onmouseover=\"alert(1))",
        "***[a](vbscript:x)***",
    ];
    for (n, markdown) in hostile.iter().enumerate() {
        let text = format!(
            "# Hostile\n\n## Lesson {n}\n\n{markdown}\n\n```wave\n.kernel k\n    halt\n.end\n```\n"
        );
        let pack = parse_pack(&text).expect("hostile prose is still prose");
        let html = &pack.lessons[0].prose_html;
        assert_inert(html);
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<img src=\"x\""), "{html}");
    }
    let text = "# H\n\n## L\n\n[click](javascript:alert(1)) ![tracker](https://t.example/p.gif) \
                ![local](pics/mask.png)\n\n```wave\n.kernel k\n.end\n```\n";
    let pack = parse_pack(text).expect("it reads");
    assert_eq!(
        pack.lessons[0].prose_html, "<p>click tracker local</p>\n",
        "a refused link keeps its words, a refused image its alt text (a pack from a file has \
         no site to read a relative image from)"
    );
    let home = PackAddress::parse("https://courses.example/gpu/pack.md").expect("an address");
    let fetched = parse_pack_at(text, Some(&home)).expect("it reads");
    assert_eq!(
        fetched.lessons[0].prose_html,
        "<p>click tracker <img src=\"https://courses.example/gpu/pics/mask.png\" alt=\"local\"></p>\n",
        "a fetched pack's relative image is read from beside it"
    );
    let raw = parse_pack("# H\n\n## L\n\n<b>bold?</b>\n\n```wave\n.kernel k\n.end\n```\n")
        .expect("it reads");
    assert_eq!(
        raw.lessons[0].prose_html,
        "<p>&lt;b&gt;bold?&lt;/b&gt;</p>\n"
    );
}

#[test]
fn a_pack_written_out_reads_back_the_same() {
    let pack = parse_pack(PACK).expect("it reads");
    let again = parse_pack(&pack_markdown(&pack)).expect("it reads back");
    assert_eq!(again.title, pack.title);
    assert_eq!(again.intro_html, pack.intro_html);
    assert_eq!(again.lessons.len(), pack.lessons.len());
    for (a, b) in again.lessons.iter().zip(&pack.lessons) {
        assert_eq!(
            (&a.id, &a.title, &a.prose_html, &a.source, &a.form),
            (&b.id, &b.title, &b.prose_html, &b.source, &b.form)
        );
    }
}

#[test]
fn one_kernel_is_written_as_a_pack_of_one_lesson() {
    let form = ConfigForm {
        wave_width: "16".into(),
        initial_registers: "r3=7".into(),
        reference_behaviour: true,
        ..ConfigForm::default()
    };
    let source = "; A ``` fence inside the kernel\n.kernel mine\n    halt\n.end\n";
    let text = kernel_pack("", "", "", source, &form);
    let pack = parse_pack(&text).expect("it reads");
    assert_eq!(pack.title, "Untitled kernel");
    let lesson = &pack.lessons[0];
    assert_eq!(
        (lesson.id.as_str(), lesson.title.as_str()),
        ("untitled-kernel", "Untitled kernel")
    );
    assert_eq!(lesson.source, source);
    assert_eq!(lesson.form, form);
    let titled = kernel_pack(
        "If * else [x]",
        "if-else",
        "Watch *the* mask.",
        source,
        &form,
    );
    let pack = parse_pack(&titled).expect("it reads");
    assert_eq!(pack.title, "If * else [x]");
    assert_eq!(pack.lessons[0].id, "if-else");
    assert_eq!(
        pack.lessons[0].prose_html,
        "<p>Watch <em>the</em> mask.</p>\n"
    );
}

#[test]
fn ids_are_made_from_titles() {
    assert_eq!(slug("If / else divergence"), "if-else-divergence");
    assert_eq!(slug("  Ballot, any and all! "), "ballot-any-and-all");
    assert_eq!(slug("Ünïcode"), "n-code");
}

#[test]
fn every_kind_of_memory_contents_reads_back_the_same() {
    use crate::regions::{ElemType, RegionForm, RegionKind};
    let iota = RegionForm {
        count: "64".into(),
        start: "-4".into(),
        step: "2".into(),
        ..RegionForm::new(RegionKind::Iota, ElemType::I32, "0x100")
    };
    let literal = RegionForm {
        values: "1.5, 2\n-3 0x3f800000".into(),
        ..RegionForm::new(RegionKind::Literal, ElemType::F32, "512")
    };
    let form = ConfigForm {
        device_memory: "4K".into(),
        regions: vec![
            RegionForm::new(RegionKind::Zeros, ElemType::U32, "0"),
            iota,
            RegionForm::new(RegionKind::Random, ElemType::U32, "1024"),
            literal,
        ],
        ..ConfigForm::default()
    };
    let text = kernel_pack("Data", "data", "", ".kernel k\n    halt\n.end\n", &form);
    let read = parse_pack(&text).expect("it reads").lessons.remove(0).form;
    assert_eq!(read.regions.len(), 4);
    for (a, b) in read.regions.iter().zip(&form.regions) {
        let as_written = RegionForm {
            values: b.values.replace('\n', " "),
            ..b.clone()
        };
        assert_eq!(a, &as_written);
    }
    // Fields left out keep the Launch tab's defaults for a new region.
    let short = "# T\n\n## L\n```wave\n.kernel k\n    halt\n.end\n```\n\n```launch\nmemory: iota f32 at 0x40\n```\n";
    let region = &parse_pack(short).expect("it reads").lessons[0].form.regions[0];
    assert_eq!(
        region,
        &RegionForm::new(RegionKind::Iota, ElemType::F32, "0x40")
    );
}

#[test]
fn a_wrong_memory_line_is_named_with_its_line() {
    let cases = [
        ("memory: stripes u32 at 0", "`stripes` is not a kind"),
        ("memory: iota u64 at 0", "`u64` is not an element type"),
        ("memory: iota u32 0", "a memory line is `memory: <kind>"),
        (
            "memory: iota u32 from 0",
            "write `at` before the byte offset",
        ),
        (
            "memory: zeros u32 at 0, seed 3",
            "`seed` is not a field of zeros",
        ),
        (
            "memory: iota u32 at 0, count 4, count 5",
            "`count` is given twice",
        ),
        ("memory: random i32 at 0, count", "`count` needs a value"),
        ("memory: iota u32 at 0, count many", "`count`:"),
        (
            "memory: random f32 at 0, low 2, high 1",
            "`high`: the high bound",
        ),
        (
            "memory: literal u32 at 0x10, values",
            "`values` needs a value",
        ),
        ("memory: iota u32 at 0xZZ", "`offset`:"),
        (
            "memory: zeros u32 at 240, count 8",
            "past the device memory (256 bytes)",
        ),
    ];
    for (line, words) in cases {
        let text = format!(
            "# T\n\n## L\n```wave\n.kernel k\n    halt\n.end\n```\n\n```launch\ndevice memory: 256\n{line}\n```\n"
        );
        let (at, message) = refused(&text);
        assert_eq!(at, 12, "{line}: {message}");
        assert!(message.contains(words), "{line}: {message}");
    }
}
