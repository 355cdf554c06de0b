//! The kernel editor (CodeMirror, through `crate::codemirror`): the machine's state pushed into
//! it as decorations (diagnostics, breakpoints, the selected wave's line, per-line SIMD
//! efficiency), its edits and caret taken back; and the diagnostics list.

use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::closure::Closure;

use super::examples::ExampleNotes;
use super::lessons::PackNotes;
use super::use_ctx;
use crate::codemirror::{EditorDiagnostic, EditorHooks, EditorModule, WaveEditor};
use wave_session::utf16_offsets;

/// What the editor tells the app: edits, caret moves and breakpoint toggles.
fn editor_hooks(ctx: super::Ctx) -> EditorHooks {
    EditorHooks {
        changed: Closure::new(move |lines: u32| ctx.edit(lines)),
        caret: Closure::new(move |line: u32| {
            if ctx.cursor_line.try_get_untracked() != Some(line) {
                ctx.cursor_line.try_set(line);
            }
        }),
        toggle_breakpoint: Closure::new(move |line: u32| {
            // While a `?next` question is open, the gutter picks the answer's line.
            let picking = ctx.peek(|s| {
                s.open_question().map(|q| q.kind) == Some(wave_session::QuestionKind::Next)
            });
            if picking {
                ctx.picked_line.set(Some(line));
                return;
            }
            ctx.commit_source();
            ctx.act(|s| s.toggle_breakpoint(line));
        }),
    }
}

/// The kernel as text, one block per line (the stylesheet numbers them), while the editor's
/// module is on its way. It takes no focus: there is nothing to do in it yet.
fn kernel_listing(ctx: super::Ctx) -> impl IntoView {
    // A memo: the listing is drawn again when the source changes, not at every step.
    let source = Memo::new(move |_| ctx.with(|s| s.source().to_string()));
    view! {
        <pre class="kernel-listing" role="group" aria-label="Kernel source, shown while the editor loads">
            {move || {
                let text = source.get();
                let count = text.split('\n').count();
                text.split('\n')
                    .enumerate()
                    .map(|(index, line)| {
                        let line = if index + 1 < count { format!("{line}\n") } else { line.to_string() };
                        view! { <span class="kernel-listing-line">{line}</span> }
                    })
                    .collect_view()
            }}
        </pre>
    }
}

#[component]
pub fn Editor() -> impl IntoView {
    let ctx = use_ctx();
    let host: NodeRef<html::Div> = NodeRef::new();
    // The callbacks must outlive every call the editor makes; they go with the component.
    let hooks = StoredValue::new_local(None::<EditorHooks>);
    let ready = RwSignal::new(false);

    // The editor's module arrives after the app has started (`crate::codemirror`): until then
    // the pane shows the kernel as a listing, and the effects below wait for `ready`.
    let opening = StoredValue::new(false);
    Effect::new(move |_| {
        let Some(host) = host.get() else {
            return;
        };
        if ready.get_untracked() || opening.get_value() {
            return;
        }
        opening.set_value(true);
        leptos::task::spawn_local(async move {
            let module = EditorModule::load().await;
            // The pane may have gone meanwhile (compare mode left, say).
            if ready.try_get_untracked() != Some(false) {
                return;
            }
            opening.set_value(false);
            let opened = module.and_then(|module| {
                let editor_hooks = editor_hooks(ctx);
                // The text now, not when the module was asked for: an example may have been
                // opened meanwhile.
                let text = ctx.peek(|s| s.source().to_string());
                let editor = module.create(&host, &text, &editor_hooks)?;
                Ok((editor, editor_hooks))
            });
            match opened {
                Ok((editor, editor_hooks)) => {
                    if ctx.page.read_only {
                        editor.set_read_only(true);
                    }
                    ctx.attach_editor(Some(editor));
                    hooks.set_value(Some(editor_hooks));
                    ready.set(true);
                }
                Err(error) => ctx.alert.set(Some(format!(
                    "The editor could not start ({error}): the kernel is shown as text. \
                     Reload the page to edit it; your work is autosaved."
                ))),
            }
        });
    });
    on_cleanup(move || {
        ctx.with_editor(WaveEditor::destroy);
        ctx.attach_editor(None);
        hooks.try_set_value(None);
    });

    let diagnostics = Memo::new(move |_| ctx.with(|s| s.diagnostics()));
    // Diagnostics go to the editor when the session takes a new source, and only while the
    // editor still shows that source: edits made since then wait for their own recompile.
    Effect::new(move |_| {
        ctx.source_generation.track();
        let list = diagnostics.get();
        if !ready.get() || !ctx.source_is_current() {
            return;
        }
        let bytes: Vec<u32> = list.iter().flat_map(|d| [d.start, d.end]).collect();
        let offsets = ctx.peek(|s| utf16_offsets(s.source(), &bytes));
        let for_editor: Vec<EditorDiagnostic> = list
            .iter()
            .zip(offsets.chunks(2))
            .map(|(d, range)| EditorDiagnostic {
                from: range[0],
                to: range[1],
                severity: d.severity,
                message: match &d.help {
                    Some(help) => format!("{} ({help})", d.message),
                    None => d.message.clone(),
                },
            })
            .collect();
        ctx.with_editor(|editor| editor.set_diagnostics(&for_editor));
    });

    let breakpoints = Memo::new(move |_| ctx.with(|s| s.breakpoints()));
    Effect::new(move |_| {
        let lines = breakpoints.get();
        if ready.get() {
            ctx.with_editor(|editor| editor.set_breakpoints(&lines));
        }
    });
    // No current line while a run is in progress, and the heat holds still (see
    // `Ctx::held_while_running`): both are shown again when it stops.
    let current_line = Memo::new(move |_| {
        if ctx.running.get() {
            None
        } else {
            ctx.with(|s| s.current_line())
        }
    });
    // Per line: (line, SIMD efficiency, executions), in line order.
    let heat = Memo::new(move |previous| {
        ctx.held_while_running(previous, |s| {
            s.line_heat()
                .into_iter()
                .map(|h| (h.line, h.efficiency, h.executions))
                .collect::<Vec<_>>()
        })
    });
    // While comparing, the executions a full bar stands for: the busiest line's of both runs
    // (so the run that issues fewer wave-instructions shows shorter bars). A single run's bars
    // show no length (0: every bar full), so a step does not redraw every gutter marker.
    let scale = Memo::new(move |_| {
        let busiest = |s: &wave_session::Session| {
            s.line_heat()
                .iter()
                .map(|h| h.executions)
                .max()
                .unwrap_or(0)
        };
        ctx.pair.track();
        ctx.partner().map_or(0, |other| {
            let own = heat.with(|per_line| per_line.iter().map(|h| h.2).max().unwrap_or(0));
            own.max(other.held_while_running(None, busiest))
        })
    });
    // A step moves the line and changes the heat: one editor update for both.
    Effect::new(move |_| {
        let line = current_line.get().unwrap_or(0);
        let scale = scale.get();
        heat.with(|per_line| {
            if ready.get() {
                ctx.with_editor(|editor| editor.set_machine_state(line, per_line, scale));
            }
        });
    });

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
        <section class="pane editor-pane" aria-labelledby=ctx.labelled_by("editor-heading")>
            <h2 id=ctx.id("editor-heading") class="pane-title">
                "Kernel"
                <span class="pane-title-note">
                    {move || format!("Ln {}", ctx.cursor_line.get())}
                </span>
            </h2>
            <ExampleNotes />
            <PackNotes />
            <div class="editor" node_ref=host>
                <Show when=move || !ready.get()>{kernel_listing(ctx)}</Show>
            </div>
            <p class="pane-footer">
                <span class:footer-problems=true>{problems}</span>
                <span>
                    {move || match ctx.line_count.get() {
                        1 => "1 line".to_string(),
                        n => format!("{n} lines"),
                    }}
                </span>
            </p>
        </section>
    }
}

/// Every diagnostic, one list item each ("Line 3: error: …").
#[component]
pub fn DiagnosticsList() -> impl IntoView {
    let ctx = use_ctx();
    // A step that changes no diagnostic redraws none.
    let diagnostics = Memo::new(move |_| ctx.with(|s| s.diagnostics()));
    let diagnostics = move || diagnostics.get();
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
