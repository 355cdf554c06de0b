//! Run controls: Run/Pause, Step, Reset, Run to cursor, Autoplay with its speed, workgroup and
//! wave pickers, the run status, and the debugger keys.

use leptos::prelude::*;

use super::caption::StepCaption;
use super::examples::CheckReport;
use super::held_height::HeldHeight;
use super::question::{QuestionPanel, QuestionsSwitch};
use super::timeline::Timeline;
use super::warp::{WarpPanel, WarpSwitch};
use super::{target_value, use_ctx, Ctx, AUTOPLAY_SPEEDS};
use wave_session::{RunState, Session, DEPARTURE_LABEL};

/// F5 run/continue, F10 step, Shift+F5 reset, Ctrl+Enter run, Escape closes help; moving
/// through time: Shift+F10 step back, F9 step over, Shift+F9 step out, F8 / Shift+F8 next /
/// previous event, Alt+F5 reverse continue; Alt+P presenter mode (Escape leaves it).
fn on_key(ctx: Ctx, event: &web_sys::KeyboardEvent) {
    // A key the editor has taken (Ctrl+F9 toggles a breakpoint there) is not a debugger key too.
    if event.default_prevented() {
        return;
    }
    let key = event.key();
    // While comparing, the keys that move a run move both.
    if let Some(pair) = ctx.pair.get_untracked() {
        let both: Option<fn(&super::Pair)> = match key.as_str() {
            "F5" if event.shift_key() => Some(super::Pair::reset),
            "F5" if !event.alt_key() => Some(super::Pair::run_or_pause),
            "F10" if event.shift_key() => Some(super::Pair::step_back),
            "F10" => Some(super::Pair::step),
            "F8" if event.shift_key() => Some(super::Pair::previous_event),
            "F8" => Some(super::Pair::next_event),
            _ => None,
        };
        if let Some(command) = both {
            command(&pair);
            event.prevent_default();
            return;
        }
    }
    let handled = match key.as_str() {
        "F5" if event.shift_key() => {
            ctx.reset();
            true
        }
        "F5" if event.alt_key() => {
            ctx.travel(Session::reverse_continue);
            true
        }
        "F5" => {
            ctx.run_or_pause();
            true
        }
        "F10" if event.shift_key() => {
            ctx.step_back();
            true
        }
        "F10" => {
            ctx.step();
            true
        }
        "F9" if event.shift_key() => {
            ctx.move_selected_wave(Session::step_out);
            true
        }
        "F9" => {
            ctx.move_selected_wave(Session::step_over);
            true
        }
        "F8" if event.shift_key() => {
            ctx.travel(Session::previous_event);
            true
        }
        "F8" => {
            ctx.move_selected_wave(Session::next_event);
            true
        }
        "Enter" if event.ctrl_key() || event.meta_key() => {
            ctx.run();
            true
        }
        "Escape" if ctx.help_open.get_untracked() => {
            ctx.help_open.set(false);
            true
        }
        "Escape" if ctx.presenter.get_untracked() => {
            ctx.presenter.set(false);
            true
        }
        // By the key's place, not its character: Alt+P types "π" on a Mac.
        _ if event.alt_key()
            && !event.ctrl_key()
            && !event.meta_key()
            && event.code() == "KeyP" =>
        {
            ctx.presenter.update(|on| *on = !*on);
            true
        }
        _ => false,
    };
    if handled {
        event.prevent_default();
    }
}

/// Goes to the step typed in "Go to step"; anything but a whole number says so.
fn go_to_typed(ctx: Ctx, text: &str) {
    match text.trim().parse::<u64>() {
        Ok(step) => ctx.travel_to(step),
        Err(_) => ctx
            .notice
            .set(Some(format!("“{}” is not a step number.", text.trim()))),
    }
}

/// One button of the "Move through time" toolbar.
#[component]
fn TimeButton(
    label: &'static str,
    title: &'static str,
    #[prop(into)] enabled: Signal<bool>,
    on_press: impl Fn() + 'static,
    #[prop(optional)] icon: Option<&'static str>,
) -> impl IntoView {
    view! {
        <button type="button" class="btn" disabled=move || !enabled.get() title=title on:click=move |_| on_press()>
            {icon.map(|icon| view! { <span aria-hidden="true" class="icon">{icon}</span> })}
            {label}
        </button>
    }
}

#[component]
pub fn Controls() -> impl IntoView {
    let ctx = use_ctx();
    // One listener for the page: run B's controls leave the keys to run A's.
    if ctx.side == super::Side::A {
        let handle = window_event_listener(leptos::ev::keydown, move |event| on_key(ctx, &event));
        on_cleanup(move || handle.remove());
    }

    let can_run = move || ctx.with(|s| s.state().can_run());
    let can_step_back = move || !ctx.running.get() && ctx.with(|s| s.can_step_back());
    let status = move || ctx.with(|s| s.status_text());
    let state_class = move || {
        ctx.with(|s| {
            let state = match s.state() {
                RunState::SourceErrors(_) | RunState::ConfigErrors | RunState::Trapped(_) => {
                    "status bad"
                }
                RunState::Running => "status running",
                RunState::Finished => "status done",
                RunState::Paused { .. } => "status paused",
                RunState::Ready => "status",
            };
            // The words say it too (`status_text`); the border marks it at a glance.
            if s.departed() && *s.state() != RunState::Running {
                format!("{state} departs")
            } else {
                state.to_string()
            }
        })
    };
    // Memos: the pickers' option lists are rebuilt only when these change, not on every step.
    let workgroups = Memo::new(move |_| ctx.with(|s| s.workgroup_count()));
    let workgroups = move || workgroups.get();
    let waves = Memo::new(move |_| ctx.with(|s| s.wave_count()));
    let waves = move || waves.get();
    let selection = Memo::new(move |_| ctx.with(|s| s.selection()));
    let selection = move || selection.get();
    let steps = move || ctx.with(|s| s.step_count());

    view! {
        <div class="controls" role="toolbar" aria-label="Run controls">
            <button
                type="button"
                class="btn primary run"
                disabled=move || !ctx.running.get() && !can_run()
                title="Run / continue (F5, Ctrl+Enter)"
                on:click=move |_| ctx.run_or_pause()
            >
                <span aria-hidden="true" class="icon">
                    {move || if ctx.running.get() { "⏸" } else { "▶" }}
                </span>
                {move || if ctx.running.get() { "Pause" } else { "Run" }}
            </button>
            <button
                type="button"
                class="btn"
                disabled=move || !can_run()
                title="One instruction of the selected wave (F10)"
                on:click=move |_| ctx.step()
            >
                <span aria-hidden="true" class="icon">"↷"</span>
                "Step"
            </button>
            <button
                type="button"
                class="btn"
                title="Back to the start (Shift+F5)"
                on:click=move |_| ctx.reset()
            >
                <span aria-hidden="true" class="icon">"⟲"</span>
                "Reset"
            </button>
            <button
                type="button"
                class="btn"
                disabled=move || !can_run()
                title="Run until the line of the editor's caret"
                on:click=move |_| ctx.run_to_cursor()
            >
                "Run to cursor"
            </button>
            <span class="autoplay">
                <button
                    type="button"
                    class="btn"
                    aria-pressed=move || if ctx.autoplay.get() { "true" } else { "false" }
                    disabled=move || !ctx.autoplay.get() && !can_run()
                    on:click=move |_| ctx.toggle_autoplay()
                >
                    "Autoplay"
                </button>
                <input
                    type="range"
                    min="1"
                    max="60"
                    aria-label="Autoplay speed"
                    prop:value=move || ctx.speed.get().to_string()
                    on:input=move |event| {
                        if let Ok(v) = target_value(&event).parse::<u32>() {
                            ctx.speed.set(v.clamp(*AUTOPLAY_SPEEDS.start(), *AUTOPLAY_SPEEDS.end()));
                        }
                    }
                />
                <span class="speed" aria-hidden="true">
                    {move || format!("{}/s", ctx.speed.get())}
                </span>
            </span>
        </div>
        <div class="controls time-controls" role="toolbar" aria-label="Move through time">
            <TimeButton
                label="Step back"
                icon="↶"
                title="Undo the selected wave's last instruction (Shift+F10)"
                enabled=Signal::derive(can_step_back)
                on_press=move || ctx.step_back()
            />
            <TimeButton
                label="Step over"
                title="On an if, loop or call: run it to its end; otherwise one instruction (F9)"
                enabled=Signal::derive(can_run)
                on_press=move || ctx.move_selected_wave(Session::step_over)
            />
            <TimeButton
                label="Step out"
                title="Run until the innermost if, loop or call the wave is in is done (Shift+F9)"
                enabled=Signal::derive(can_run)
                on_press=move || ctx.move_selected_wave(Session::step_out)
            />
            <TimeButton
                label="Previous event"
                title="Back to the selected wave's previous divergence, reconvergence, break, continue, iteration, skip, barrier or halt (Shift+F8)"
                enabled=Signal::derive(can_step_back)
                on_press=move || ctx.travel(Session::previous_event)
            />
            <TimeButton
                label="Next event"
                title="On to the selected wave's next event (F8)"
                enabled=Signal::derive(can_run)
                on_press=move || ctx.move_selected_wave(Session::next_event)
            />
            <TimeButton
                label="Reverse continue"
                title="Back to the previous breakpoint hit (Alt+F5)"
                enabled=Signal::derive(can_step_back)
                on_press=move || ctx.travel(Session::reverse_continue)
            />
            <TimeButton
                label="Back to cursor"
                title="Back to the last time a wave was about to run the line of the editor's caret"
                enabled=Signal::derive(can_step_back)
                on_press=move || ctx.reverse_to_cursor()
            />
        </div>
        // Above the status and the event list, whose heights change with each move: a drag
        // along the timeline must not move it.
        // While comparing, both runs' timelines are drawn together, between the runs.
        <Show when=move || ctx.pair.with(Option::is_none)>
            <Timeline />
        </Show>
        <div class="pickers">
            <label class="picker">
                <span>"Workgroup"</span>
                <select
                    class="select"
                    prop:value=move || selection().workgroup.to_string()
                    on:change=move |event| {
                        if let Ok(index) = target_value(&event).parse::<u32>() {
                            ctx.stop();
                            if let Some(Err(message)) = ctx.act(|s| s.select_workgroup(index)) {
                                ctx.notice.set(Some(message));
                            }
                        }
                    }
                >
                    {move || {
                        let current = selection().workgroup;
                        (0..workgroups().min(4096))
                            .map(|i| {
                                view! {
                                    <option value=i.to_string() selected=i == u64::from(current)>
                                        {i.to_string()}
                                    </option>
                                }
                            })
                            .collect_view()
                    }}
                </select>
            </label>
            <label class="picker">
                <span>"Wave"</span>
                <select
                    class="select"
                    prop:value=move || selection().wave.to_string()
                    on:change=move |event| {
                        if let Ok(index) = target_value(&event).parse::<u32>() {
                            ctx.act(|s| s.select_wave(index));
                        }
                    }
                >
                    {move || {
                        let current = selection().wave;
                        (0..waves())
                            .map(|i| {
                                view! {
                                    <option value=i.to_string() selected=i == current>
                                        {i.to_string()}
                                    </option>
                                }
                            })
                            .collect_view()
                    }}
                </select>
            </label>
            <QuestionsSwitch />
            <WarpSwitch />
            <span class="step-count">{move || format!("step {}", steps())}</span>
            <label class="picker go-to">
                <span>"Go to step"</span>
                <input
                    class="input"
                    type="number"
                    min="0"
                    inputmode="numeric"
                    placeholder=move || steps().to_string()
                    on:keydown=move |event: web_sys::KeyboardEvent| {
                        if event.key() == "Enter" {
                            event.prevent_default();
                            go_to_typed(ctx, &target_value(&event));
                        }
                    }
                />
            </label>
        </div>
        <p role="status" class=state_class aria-live="polite">
            {status}
        </p>
        // Two lines tall at least (most captions fit), and it keeps its tallest height too: a
        // short caption after a long one must not move the lanes and the stack up.
        <HeldHeight class="caption-room">
            <StepCaption />
        </HeldHeight>
        <QuestionPanel />
        <WarpPanel />
        <CheckReport />
        // Keeps the height of the longest list since the machine started over: a step with
        // fewer events does not move the views below (see `session::shown_wave_run`).
        <HeldHeight class="events-room">
            <ul class="events" aria-label="What the last step did">
                {move || {
                    ctx.with(|s| s.last_events())
                        .into_iter()
                        .map(|e| {
                            let class = format!("event event-{}", e.kind);
                            match e.departure {
                                // Marked by its words as well as its colour.
                                Some(departure) => {
                                    view! {
                                        <li class=format!("{class} departure-{departure}")>
                                            <span class="departure-label">{DEPARTURE_LABEL}</span>
                                            " "
                                            {e.text}
                                        </li>
                                    }
                                        .into_any()
                                }
                                None => view! { <li class=class>{e.text}</li> }.into_any(),
                            }
                        })
                        .collect_view()
                }}
            </ul>
        </HeldHeight>
    }
}
