//! The page's own timings, published with the User Timing API (`performance.measure`) so that a
//! benchmark (scripts/bench-browser.mjs) or the browser's profiler reads real measurements of the
//! app, and a zero-delay task queue for the run loop.
//!
//! Measures (all durations in ms, names stable for scripts):
//! - `wave:run`: one Run, from the command to the first task after its last slice, when the
//!   views show how it ended (wall-clock). `detail`: `{ engineMs, slices, longestSliceMs,
//!   steps, outcome }`.
//! - `wave:run-engine`: the same run's engine slices summed (starts with the run; its duration is
//!   the sum, not a span of time). Same `detail`.
//! - `wave:step`: one Step command until every view's DOM is updated. Leptos runs its effects
//!   as microtasks after the command returns (they are not synchronous: see `measure_step`), so
//!   the end is taken by the first callback after the microtask queue has drained.
//! - `wave:step-render`: the browser's style, layout and paint of the frame that shows that
//!   step, from that frame's `requestAnimationFrame` callback to the first task after it.
//! - `wave:recompile`: a recompile of the editor's text, from taking it from the editor to the
//!   session holding its compile (a few lines per task: see `wave_session::recompile`).
//!   `detail`: `{ lines, slices, longestSliceMs }`, the tasks it took and the longest of them.
//! - `wave:recompile-views`: the task after it, in which every view follows the new source, to
//!   the first task after that one.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

pub const RUN: &str = "wave:run";
pub const RUN_ENGINE: &str = "wave:run-engine";
pub const STEP: &str = "wave:step";
pub const STEP_RENDER: &str = "wave:step-render";
/// A "Step back" until the DOM shows it, and the frame that paints it (as for a step).
pub const STEP_BACK: &str = "wave:step-back";
pub const STEP_BACK_RENDER: &str = "wave:step-back-render";
/// A move to a step (timeline, "Go to step") until the DOM shows it, and its frame.
pub const GO_TO: &str = "wave:go-to";
pub const GO_TO_RENDER: &str = "wave:go-to-render";
pub const RECOMPILE: &str = "wave:recompile";
pub const RECOMPILE_VIEWS: &str = "wave:recompile-views";

/// The page's `performance` object and its `measure` function, looked up once: a step reads
/// the clock several times, and each lookup through `window` is a few calls into JavaScript.
struct Clock {
    performance: web_sys::Performance,
    measure: Option<js_sys::Function>,
}

thread_local! {
    static CLOCK: Option<Clock> = web_sys::window().and_then(|w| w.performance()).map(|performance| {
        let measure = js_sys::Reflect::get(&performance, &"measure".into())
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
        Clock { performance, measure }
    });
}

/// Milliseconds since the page's time origin (0 outside a browser).
pub fn now_ms() -> f64 {
    CLOCK.with(|clock| clock.as_ref().map_or(0.0, |c| c.performance.now()))
}

/// Records a measure `name` from `start` lasting `duration` ms, with `detail` as an object of
/// numbers and strings. Does nothing where the API is missing: timings must never break the page.
pub fn measure(name: &str, start: f64, duration: f64, detail: &[(&str, Detail)]) {
    CLOCK.with(|clock| {
        if let Some(Clock {
            performance,
            measure: Some(function),
        }) = clock
        {
            record(performance, function, name, start, duration, detail);
        }
    });
}

fn record(
    performance: &web_sys::Performance,
    function: &js_sys::Function,
    name: &str,
    start: f64,
    duration: f64,
    detail: &[(&str, Detail)],
) {
    let options = js_sys::Object::new();
    let details = js_sys::Object::new();
    for (key, value) in detail {
        let value = match value {
            Detail::Number(n) => JsValue::from_f64(*n),
            Detail::Text(t) => JsValue::from_str(t),
        };
        let _ = js_sys::Reflect::set(&details, &(*key).into(), &value);
    }
    let _ = js_sys::Reflect::set(&options, &"start".into(), &start.into());
    let _ = js_sys::Reflect::set(&options, &"duration".into(), &duration.max(0.0).into());
    let _ = js_sys::Reflect::set(&options, &"detail".into(), &details);
    let _ = function.call2(performance, &name.into(), &options);
}

/// A value in a measure's `detail`.
pub enum Detail {
    Number(f64),
    Text(&'static str),
}

type Task = Box<dyn FnOnce()>;

/// A `MessageChannel` whose messages run queued closures: a task with no delay (unlike
/// `setTimeout(0)`, which browsers clamp to 4 ms after a few nestings, and unlike
/// `requestAnimationFrame`, which waits for the next frame).
struct TaskChannel {
    sender: web_sys::MessagePort,
    _receiver: web_sys::MessagePort,
    _on_message: Closure<dyn FnMut()>,
    queue: Rc<RefCell<VecDeque<Task>>>,
}

impl TaskChannel {
    fn new() -> Option<TaskChannel> {
        let channel = web_sys::MessageChannel::new().ok()?;
        let queue: Rc<RefCell<VecDeque<Task>>> = Rc::default();
        let pending = Rc::clone(&queue);
        let on_message = Closure::<dyn FnMut()>::new(move || {
            let task = pending.borrow_mut().pop_front();
            if let Some(task) = task {
                task();
            }
        });
        let receiver = channel.port1();
        receiver.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        Some(TaskChannel {
            sender: channel.port2(),
            _receiver: receiver,
            _on_message: on_message,
            queue,
        })
    }
}

thread_local! {
    static CHANNEL: RefCell<Option<TaskChannel>> = const { RefCell::new(None) };
}

/// Runs `task` in a new task of the event loop as soon as possible: after the current task and
/// its microtasks (so after Leptos has updated the DOM), before timers, and without waiting for
/// a frame. Input events and rendering still get their turn between such tasks.
pub fn post_task(task: impl FnOnce() + 'static) {
    let task: Task = Box::new(task);
    let leftover = CHANNEL.with(|cell| {
        let mut cell = cell.borrow_mut();
        if cell.is_none() {
            *cell = TaskChannel::new();
        }
        match cell.as_ref() {
            Some(channel) => {
                channel.queue.borrow_mut().push_back(task);
                if channel.sender.post_message(&JsValue::NULL).is_err() {
                    return channel.queue.borrow_mut().pop_back();
                }
                None
            }
            None => Some(task),
        }
    });
    // No MessageChannel (or it refused): a zero timeout does the same, a little later.
    if let Some(task) = leftover {
        leptos::prelude::set_timeout(task, std::time::Duration::ZERO);
    }
}

/// Records `wave:step` when the DOM has caught up with a step that began at `start`, and
/// `wave:step-render` for the frame that paints it.
///
/// The DOM is up to date once the microtasks queued by the command have run: the first of the
/// next task and the next frame's `requestAnimationFrame` callback sees it, so the step ends at
/// whichever comes first (a frame due at once would otherwise delay the task by its rendering).
///
/// The frame's callback only reads the clock: both measures are recorded in the task after the
/// frame, once `wave:step-render` has ended, so that recording them (a few calls into the page)
/// is not counted as the frame's rendering.
pub fn measure_step(start: f64) {
    measure_command(STEP, STEP_RENDER, start);
}

/// [`measure_step`] for "Step back" (`wave:step-back`, `wave:step-back-render`).
pub fn measure_step_back(start: f64) {
    measure_command(STEP_BACK, STEP_BACK_RENDER, start);
}

/// [`measure_step`] for a move to a step (`wave:go-to`, `wave:go-to-render`).
pub fn measure_go_to(start: f64) {
    measure_command(GO_TO, GO_TO_RENDER, start);
}

fn measure_command(name: &'static str, render: &'static str, start: f64) {
    let step_end = Rc::new(std::cell::Cell::new(None::<f64>));
    let in_task = Rc::clone(&step_end);
    post_task(move || {
        if in_task.get().is_none() {
            let end = now_ms();
            in_task.set(Some(end));
            measure(name, start, end - start, &[]);
        }
    });
    leptos::prelude::request_animation_frame(move || {
        let frame = now_ms();
        // The task came first when the step already has its end.
        let recorded = step_end
            .replace(Some(step_end.get().unwrap_or(frame)))
            .is_some();
        post_task(move || {
            let end = now_ms();
            if !recorded {
                measure(name, start, frame - start, &[]);
            }
            measure(render, frame, end - frame, &[]);
        });
    });
}
