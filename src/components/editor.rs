//! The kernel editor: a transparent `<textarea>` over a highlighted `<pre>`, a gutter with line
//! numbers, breakpoints, diagnostic marks and per-line SIMD efficiency, and the diagnostics list.

use std::collections::{BTreeMap, BTreeSet};

use leptos::html;
use leptos::prelude::*;

use super::examples::ExampleNotes;
use super::use_ctx;
use wave_session::{highlight_lines, DiagnosticView, HighlightSpan};

const INDENT: &str = "    ";

/// Byte offset of UTF-16 index `index` in `text` (textarea selections count UTF-16 units).
pub fn utf16_to_byte(text: &str, index: u32) -> usize {
    let mut units = 0u32;
    for (byte, ch) in text.char_indices() {
        if units >= index {
            return byte;
        }
        units += ch.len_utf16() as u32;
    }
    text.len()
}

/// UTF-16 index of byte offset `byte` in `text`.
pub fn byte_to_utf16(text: &str, byte: usize) -> u32 {
    text[..byte.min(text.len())]
        .chars()
        .map(|c| c.len_utf16() as u32)
        .sum()
}

/// 1-based line of byte offset `byte`.
fn line_of_byte(text: &str, byte: usize) -> u32 {
    text[..byte.min(text.len())].matches('\n').count() as u32 + 1
}

/// Indents (or, with `outdent`, outdents) the lines the selection `[start, end)` (bytes) touches;
/// with no selection and no outdent, inserts one indent at the caret. Returns the new text and
/// selection.
pub fn indent(text: &str, start: usize, end: usize, outdent: bool) -> (String, usize, usize) {
    if start == end && !outdent {
        let mut out = String::with_capacity(text.len() + INDENT.len());
        out.push_str(&text[..start]);
        out.push_str(INDENT);
        out.push_str(&text[start..]);
        let caret = start + INDENT.len();
        return (out, caret, caret);
    }
    let first = text[..start].rfind('\n').map_or(0, |i| i + 1);
    // A selection ending right after a line break does not touch the next line.
    let last = if end > start && text[..end].ends_with('\n') {
        end - 1
    } else {
        end
    };
    let block_end = text[last..].find('\n').map_or(text.len(), |i| last + i);
    let mut out = String::with_capacity(text.len() + 64);
    out.push_str(&text[..first]);
    let mut first_change = 0isize;
    for (index, line) in text[first..block_end].split('\n').enumerate() {
        if index > 0 {
            out.push('\n');
        }
        let change = if outdent {
            let removed = if line.starts_with('\t') {
                1
            } else {
                (line.len() - line.trim_start_matches(' ').len()).min(INDENT.len())
            };
            out.push_str(&line[removed..]);
            -(removed as isize)
        } else {
            out.push_str(INDENT);
            out.push_str(line);
            INDENT.len() as isize
        };
        if index == 0 {
            first_change = change;
        }
    }
    out.push_str(&text[block_end..]);
    let delta = out.len() as isize - text.len() as isize;
    let moved = |pos: usize, by: isize| (pos as isize + by).max(first as isize) as usize;
    if start == end {
        let caret = moved(start, first_change);
        return (out, caret, caret);
    }
    let new_start = if start == first {
        first
    } else {
        moved(start, first_change)
    };
    let new_end = moved(end, delta).max(new_start);
    (out, new_start, new_end)
}

/// One highlighted piece with its CSS classes (token class plus any diagnostic underline).
struct Piece {
    text: String,
    class: String,
}

/// Splits a line's highlight pieces at the diagnostic ranges (bytes within the line) and adds the
/// underline classes.
fn underline(pieces: &[HighlightSpan], marks: &[(usize, usize, &'static str)]) -> Vec<Piece> {
    let mut cuts: BTreeSet<usize> = BTreeSet::new();
    for &(s, e, _) in marks {
        cuts.insert(s);
        cuts.insert(e);
    }
    let mut out = Vec::new();
    let mut at = 0usize;
    for piece in pieces {
        let end = at + piece.text.len();
        let mut from = at;
        let inner: Vec<usize> = cuts
            .range(at + 1..end)
            .copied()
            .filter(|&c| piece.text.is_char_boundary(c - at))
            .chain(std::iter::once(end))
            .collect();
        for to in inner {
            let mut class = piece.class.unwrap_or("").to_string();
            for &(s, e, severity) in marks {
                if from >= s && to <= e && s < e {
                    class.push_str(if severity == "error" {
                        " squiggle-error"
                    } else {
                        " squiggle-warning"
                    });
                    break;
                }
            }
            out.push(Piece {
                text: piece.text[from - at..to - at].to_string(),
                class: class.trim().to_string(),
            });
            from = to;
        }
        at = end;
    }
    out
}

/// Diagnostic ranges per 0-based line index (bytes within the line). An empty range covers one
/// character (or marks the end of the line).
fn marks_by_line(
    text: &str,
    diagnostics: &[DiagnosticView],
) -> BTreeMap<usize, Vec<(usize, usize, &'static str)>> {
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let mut out: BTreeMap<usize, Vec<_>> = BTreeMap::new();
    for d in diagnostics {
        let (start, mut end) = (d.start as usize, d.end as usize);
        if start > text.len() {
            continue;
        }
        if end <= start {
            end = text[start..]
                .chars()
                .next()
                .filter(|&c| c != '\n')
                .map_or(start, |c| start + c.len_utf8());
        }
        for (index, &line_start) in starts.iter().enumerate() {
            let line_end = starts.get(index + 1).map_or(text.len(), |&n| n - 1);
            if line_start > end || line_end < start {
                continue;
            }
            let s = start.max(line_start) - line_start;
            let e = end.min(line_end) - line_start;
            out.entry(index).or_default().push((s, e, d.severity));
        }
    }
    out
}

#[component]
pub fn Editor() -> impl IntoView {
    let ctx = use_ctx();
    let textarea: NodeRef<html::Textarea> = NodeRef::new();
    let pre: NodeRef<html::Pre> = NodeRef::new();
    let gutter: NodeRef<html::Div> = NodeRef::new();

    let line_count = Memo::new(move |_| ctx.text.with(|t| t.split('\n').count()));
    let lines = Memo::new(move |_| ctx.text.with(|t| highlight_lines(t)));
    // Diagnostics apply only while the session holds the editor's text.
    let diagnostics = Memo::new(move |_| {
        let text = ctx.text.get();
        ctx.with(|s| {
            if s.source() == text {
                s.diagnostics()
            } else {
                Vec::new()
            }
        })
    });
    let breakpoints = Memo::new(move |_| ctx.with(|s| s.breakpoints()));
    // No current line while a run is in progress, and the heat holds still (see
    // `Ctx::held_while_running`): both are shown again when it stops.
    let current_line = Memo::new(move |_| {
        if ctx.running.get() {
            None
        } else {
            ctx.with(|s| s.current_line())
        }
    });
    // Which line is current, as a selector: a step that moves it re-runs the closures of the
    // line it left and the line it reached, not one per line.
    let current = Selector::new(move || current_line.get());
    let heat = Memo::new(move |previous| {
        ctx.held_while_running(previous, |s| {
            s.line_heat()
                .into_iter()
                .map(|h| (h.line, (h.efficiency, h.executions)))
                .collect::<BTreeMap<_, _>>()
        })
    });

    let sync_scroll = move || {
        if let Some(area) = textarea.get_untracked() {
            if let Some(pre) = pre.get_untracked() {
                pre.set_scroll_top(area.scroll_top());
                pre.set_scroll_left(area.scroll_left());
            }
            if let Some(gutter) = gutter.get_untracked() {
                gutter.set_scroll_top(area.scroll_top());
            }
        }
    };
    let track_caret = move || {
        if let Some(area) = textarea.get_untracked() {
            let value = area.value();
            let caret = area.selection_start().ok().flatten().unwrap_or(0);
            ctx.cursor_line
                .set(line_of_byte(&value, utf16_to_byte(&value, caret)));
        }
    };
    let on_keydown = move |event: web_sys::KeyboardEvent| {
        if event.key() != "Tab" || event.ctrl_key() || event.alt_key() || event.meta_key() {
            return;
        }
        let Some(area) = textarea.get_untracked() else {
            return;
        };
        event.prevent_default();
        let value = area.value();
        let start = utf16_to_byte(&value, area.selection_start().ok().flatten().unwrap_or(0));
        let end = utf16_to_byte(&value, area.selection_end().ok().flatten().unwrap_or(0));
        let (text, new_start, new_end) =
            indent(&value, start.min(end), end.max(start), event.shift_key());
        area.set_value(&text);
        let _ = area.set_selection_range(
            byte_to_utf16(&text, new_start),
            byte_to_utf16(&text, new_end),
        );
        ctx.edit(text);
        track_caret();
    };

    // Per-line diagnostics summary for the gutter: (severity, messages).
    let line_diagnostics = Memo::new(move |_| {
        let mut by_line: BTreeMap<u32, (&'static str, String)> = BTreeMap::new();
        for d in diagnostics.get() {
            let entry = by_line.entry(d.line).or_insert((d.severity, String::new()));
            if d.severity == "error" {
                entry.0 = "error";
            }
            if !entry.1.is_empty() {
                entry.1.push('\n');
            }
            entry.1.push_str(&format!("{}: {}", d.severity, d.message));
        }
        by_line
    });
    // The line elements are rebuilt only when the text or the diagnostics change; what a step
    // changes (current line, breakpoints, heat) updates classes and styles in place.
    let gutter_current = current.clone();
    let gutter_lines = move || {
        let count = line_count.get();
        let diags = line_diagnostics.get();
        (1..=count as u32)
            .map(|line| {
                let diag = diags.get(&line).cloned();
                // A memo per line: a step changes the heat of the line it ran (its execution
                // count), and only that line's style and title are worked out again.
                let line_heat = Memo::new(move |_| heat.with(|h| h.get(&line).copied()));
                let line_heat = move || line_heat.get();
                let current = gutter_current.clone();
                let is_bp = move || breakpoints.with(|b| b.contains(&line));
                let diag_title = diag.as_ref().map(|d| d.1.clone());
                let title = move || {
                    diag_title.clone().or_else(|| {
                        line_heat().map(|(e, n)| {
                            format!("SIMD efficiency {:.0}% over {n} executions", e * 100.0)
                        })
                    })
                };
                view! {
                    <div
                        class="gutter-line"
                        class:current=move || current.selected(&Some(line))
                        class:has-error=diag.as_ref().is_some_and(|d| d.0 == "error")
                        class:has-warning=diag.as_ref().is_some_and(|d| d.0 == "warning")
                        style=move || {
                            line_heat().map(|(e, _)| format!("--heat: {e:.3}")).unwrap_or_default()
                        }
                        title=title
                    >
                        <button
                            type="button"
                            class="bp-toggle"
                            class:bp=is_bp
                            aria-label=format!("Toggle breakpoint on line {line}")
                            aria-pressed=move || if is_bp() { "true" } else { "false" }
                            tabindex="-1"
                            on:click=move |_| {
                                ctx.commit_source();
                                ctx.act(|s| s.toggle_breakpoint(line));
                            }
                        >
                            <span class="bp-dot" aria-hidden="true"></span>
                            <span class="line-number">{line}</span>
                        </button>
                        <span
                            class="heat"
                            class:shown=move || line_heat().is_some()
                            aria-hidden="true"
                        ></span>
                    </div>
                }
            })
            .collect_view()
    };

    let code_lines = move || {
        let text = ctx.text.get();
        let marks = marks_by_line(&text, &diagnostics.get());
        lines
            .get()
            .into_iter()
            .enumerate()
            .map(|(index, pieces)| {
                let line = index as u32 + 1;
                let line_marks = marks.get(&index).cloned().unwrap_or_default();
                let eol = line_marks.iter().any(|&(s, e, _)| s == e);
                let pieces = underline(&pieces, &line_marks);
                let current = current.clone();
                view! {
                    <div
                        class="code-line"
                        class:current=move || current.selected(&Some(line))
                        class:bp-line=move || breakpoints.with(|b| b.contains(&line))
                        class:eol-mark=eol
                    >
                        {pieces
                            .into_iter()
                            .map(|p| {
                                if p.class.is_empty() {
                                    view! { <span>{p.text}</span> }.into_any()
                                } else {
                                    view! { <span class=p.class>{p.text}</span> }.into_any()
                                }
                            })
                            .collect_view()}
                    </div>
                }
            })
            .collect_view()
    };

    let problems = move || {
        let diags = diagnostics.get();
        let errors = diags.iter().filter(|d| d.severity == "error").count();
        let warnings = diags.len() - errors;
        let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        if diags.is_empty() {
            "No problems".to_string()
        } else {
            format!(
                "{}, {}",
                plural(errors, "error"),
                plural(warnings, "warning")
            )
        }
    };

    view! {
        <section class="pane editor-pane" aria-labelledby="editor-heading">
            <h2 id="editor-heading" class="pane-title">
                "Kernel"
                <span class="pane-title-note">
                    {move || format!("Ln {}", ctx.cursor_line.get())}
                </span>
            </h2>
            <ExampleNotes />
            <div class="editor">
                <div class="gutter" node_ref=gutter>
                    <div class="gutter-inner">{gutter_lines}</div>
                </div>
                <div class="code">
                    <pre class="highlight" aria-hidden="true" node_ref=pre>
                        {code_lines}
                    </pre>
                    <textarea
                        class="source"
                        aria-label="Kernel source"
                        spellcheck="false"
                        autocomplete="off"
                        autocapitalize="off"
                        wrap="off"
                        node_ref=textarea
                        prop:value=move || ctx.text.get()
                        on:input=move |event| {
                            ctx.edit(event_target_value(&event));
                            track_caret();
                            sync_scroll();
                        }
                        on:scroll=move |_| sync_scroll()
                        on:keydown=on_keydown
                        on:keyup=move |_| track_caret()
                        on:click=move |_| track_caret()
                        on:select=move |_| track_caret()
                    ></textarea>
                </div>
            </div>
            <p class="pane-footer">
                <span class:footer-problems=true>{problems}</span>
                <span>{move || format!("{} lines", line_count.get())}</span>
            </p>
        </section>
    }
}

/// Every diagnostic, one list item each ("Line 3: error: …").
#[component]
pub fn DiagnosticsList() -> impl IntoView {
    let ctx = use_ctx();
    let diagnostics = move || {
        let text = ctx.text.get();
        ctx.with(|s| {
            if s.source() == text {
                s.diagnostics()
            } else {
                Vec::new()
            }
        })
    };
    view! {
        <ul class="diagnostics" role="list" aria-label="Diagnostics">
            {move || {
                diagnostics()
                    .into_iter()
                    .map(|d| {
                        view! {
                            <li role="listitem" class=format!("diagnostic {}", d.severity)>
                                <span class="diag-where">
                                    {format!("Line {}: {}: ", d.line, d.severity)}
                                </span>
                                <span class="diag-message">{d.message.clone()}</span>
                                {d
                                    .help
                                    .clone()
                                    .map(|h| view! { <span class="diag-help">{format!(" — {h}")}</span> })}
                            </li>
                        }
                    })
                    .collect_view()
            }}
        </ul>
        <Show when=move || diagnostics().is_empty()>
            <p class="empty-note">"No problems in the kernel."</p>
        </Show>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tab_inserts_an_indent_at_the_caret() {
        let (text, s, e) = indent("ab\ncd", 3, 3, false);
        assert_eq!(text, "ab\n    cd");
        assert_eq!((s, e), (7, 7));
    }

    #[test]
    fn tab_indents_and_shift_tab_outdents_every_selected_line() {
        let (text, s, e) = indent("a\nb\nc", 0, 3, false);
        assert_eq!(text, "    a\n    b\nc");
        assert_eq!(&text[s..e], "    a\n    b");
        let (back, s2, e2) = indent(&text, s, e, true);
        assert_eq!(back, "a\nb\nc");
        assert_eq!(&back[s2..e2], "a\nb");
    }

    #[test]
    fn shift_tab_without_selection_outdents_the_line() {
        let (text, s, _) = indent("x\n      y", 9, 9, true);
        assert_eq!(text, "x\n  y");
        assert_eq!(s, 5);
    }

    #[test]
    fn utf16_offsets_round_trip() {
        let text = "a→b😀c";
        for (byte, _) in text.char_indices() {
            assert_eq!(utf16_to_byte(text, byte_to_utf16(text, byte)), byte);
        }
        assert_eq!(byte_to_utf16(text, text.len()), 6);
    }

    #[test]
    fn underline_splits_pieces_at_the_diagnostic() {
        let pieces = vec![
            HighlightSpan {
                text: "    ".into(),
                class: None,
            },
            HighlightSpan {
                text: "bogus".into(),
                class: Some("ident"),
            },
        ];
        let out = underline(&pieces, &[(6, 9, "error")]);
        let texts: Vec<_> = out.iter().map(|p| p.text.as_str()).collect();
        assert_eq!(texts, ["    ", "bo", "gus"]);
        assert_eq!(out[2].class, "ident squiggle-error");
        assert_eq!(out[1].class, "ident");
    }
}
