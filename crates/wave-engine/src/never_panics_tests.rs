//! Property tests: the front end never panics, every span it reports lies inside the source on
//! char boundaries, and compiling a few lines at a time (`CompileJob`) gives exactly what the
//! front end's passes give run once over the whole source.
//!
//! A unit test of the crate rather than an integration test: it runs the passes one by one,
//! which are not part of the engine's API.

use proptest::prelude::*;

use crate::compile::CompileJob;
use crate::diagnostic::{LineIndex, Sink};
use crate::lower::lower;
use crate::program::Span;
use crate::syntax::mnemonics::MNEMONICS;
use crate::syntax::{lexer::lex, parser::parse, questions::questions};
use crate::{compile, highlight, Compiled};

fn span_is_inside(source: &str, span: Span) -> bool {
    let (start, end) = (span.start as usize, span.end as usize);
    start <= end
        && end <= source.len()
        && source.is_char_boundary(start)
        && source.is_char_boundary(end)
}

/// The front end's passes in one go over the whole source: the reference for `CompileJob`.
fn passes_at_once(source: &str) -> Compiled {
    let mut sink = Sink::default();
    let tokens = lex(source, &mut sink);
    let questions = questions(source, &tokens, &mut sink);
    let items = parse(source, &tokens, &mut sink);
    let lines = LineIndex::new(source);
    let program = lower(&items, &lines, &mut sink);
    let mut diagnostics = sink.list;
    diagnostics.sort_by_key(|d| (d.span.start, d.span.end));
    lines.locate_all(&mut diagnostics);
    let failed = diagnostics.iter().any(|d| d.is_error());
    Compiled {
        diagnostics,
        program: (!failed).then_some(program),
        questions,
    }
}

fn in_slices(source: &str, lines: usize) -> Compiled {
    let mut job = CompileJob::new(source.to_string());
    while !job.advance(lines) {}
    let (back, compiled) = job.finish();
    assert_eq!(back, source);
    compiled
}

fn check(source: &str) {
    let compiled = compile(source);
    let reference = passes_at_once(source);
    assert_eq!(compiled, reference);
    for lines in [1, 2, 5] {
        assert_eq!(
            in_slices(source, lines),
            reference,
            "{lines} lines at a time"
        );
    }
    assert_eq!(compiled.program.is_some(), !compiled.has_errors());
    for diagnostic in &compiled.diagnostics {
        assert!(span_is_inside(source, diagnostic.span), "{diagnostic:?}");
        assert!(diagnostic.line >= 1 && diagnostic.column >= 1);
    }
    if let Some(program) = &compiled.program {
        for kernel in &program.kernels {
            assert_eq!(kernel.code.len(), kernel.spans.len());
            assert_eq!(kernel.code.len(), kernel.lines.len());
            assert!(kernel.spans.iter().all(|s| span_is_inside(source, *s)));
            assert!(kernel.register_file_size >= kernel.register_count);
            assert!(kernel.register_file_size <= 256);
        }
    }
    let mut previous_end = 0;
    for (span, _) in highlight(source) {
        assert!(span_is_inside(source, span), "{span:?}");
        assert!(span.start >= previous_end, "highlight spans overlap");
        previous_end = span.end;
    }
}

/// Pieces of real (and nearly real) WAVE assembly to shuffle together.
fn fragment() -> impl Strategy<Value = String> {
    let fixed = prop::sample::select(vec![
        ".kernel",
        ".end",
        ".registers",
        ".local_memory",
        ".workgroup_size",
        ".device",
        ".wave",
        ".cached",
        "k",
        "r0",
        "r7",
        "r31",
        "r254",
        "r255",
        "r3.hi",
        "p0",
        "p3",
        "p4",
        "!p1",
        "@p1",
        "@!p2",
        "@p0",
        "sr_lane_id",
        "sr_bogus",
        "0x10",
        "-5",
        "1.5",
        "4294967296",
        ",",
        ",",
        ":",
        "lbl:",
        "lbl",
        "; c",
        "# c",
        "\n",
        "\n",
        " ",
        "\t",
        "if",
        "else",
        "endif",
        "loop",
        "endloop",
        "break",
        "continue",
        "halt",
        "call",
        "icmp.lt",
        "ucmp.ge",
        "é",
        "\u{1F600}",
        "!",
        "@",
    ])
    .prop_map(str::to_string);
    let mnemonic = prop::sample::select(MNEMONICS.iter().map(|m| m.name).collect::<Vec<_>>())
        .prop_map(str::to_string);
    prop_oneof![3 => fixed, 2 => mnemonic]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_text_never_panics(source in any::<String>()) {
        check(&source);
    }

    #[test]
    fn token_soup_never_panics(parts in prop::collection::vec((fragment(), prop::sample::select(vec![" ", ", ", "\n", ""])), 0..80)) {
        let source: String = parts.iter().map(|(text, sep)| format!("{text}{sep}")).collect();
        check(&source);
    }

    #[test]
    fn soup_inside_a_kernel_never_panics(parts in prop::collection::vec(fragment(), 0..40)) {
        let body = parts.join(" ");
        check(&format!(".kernel k\n{body}\nhalt\n.end\n"));
    }
}

/// Every fixture and diagnostics snapshot source compiles the same one line at a time.
#[test]
fn every_test_source_compiles_the_same_in_slices() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut checked = 0;
    for dir in ["fixtures", "diagnostics"] {
        for entry in std::fs::read_dir(root.join(dir)).expect("the test sources") {
            let path = entry.expect("a directory entry").path();
            if path.extension().is_some_and(|e| e == "wave") {
                let source = std::fs::read_to_string(&path).expect("a readable source");
                for lines in [1, 3] {
                    assert_eq!(
                        in_slices(&source, lines),
                        passes_at_once(&source),
                        "{}",
                        path.display()
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 40, "only {checked} sources found");
}
