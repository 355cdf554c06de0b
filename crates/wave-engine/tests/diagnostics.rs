//! Snapshot tests: each broken program under `tests/diagnostics/` compiles to the diagnostics
//! recorded next to this file (rendered with the source line and a caret under the span).
#![cfg(not(target_arch = "wasm32"))]

use wave_engine::compile;
use wave_engine::diagnostic::render;

#[test]
fn broken_programs_report_every_diagnostic() {
    insta::glob!("diagnostics/*.wave", |path| {
        let source = std::fs::read_to_string(path).expect("test program is readable");
        let compiled = compile(&source);
        assert!(
            !compiled.diagnostics.is_empty(),
            "{} should produce diagnostics",
            path.display()
        );
        assert_eq!(compiled.program.is_some(), !compiled.has_errors());
        let mut rendered = render(&source, &compiled.diagnostics);
        rendered.push_str(if compiled.program.is_some() {
            "=> program produced\n"
        } else {
            "=> no program\n"
        });
        insta::assert_snapshot!(rendered);
    });
}
