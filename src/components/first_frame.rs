//! The part of the page that is built after its first frame.
//!
//! On a slow device most of the app's start is building the page and then styling, laying out
//! and painting it, and on a first visit compiling every function that does so. The register
//! table (about a quarter of a lesson's first screen, below the machine's status, lanes and
//! stack) is not needed to read the kernel or to run it: it waits until the frame that first
//! shows the machine has been drawn and the browser is idle, so the machine is drawn sooner and
//! input that comes meanwhile is answered first. Parts above the kernel stay: the preview
//! shows them before the wasm, and building them later would move the kernel's text.

use std::rc::Rc;
use std::time::Duration;

use super::timing::post_task;
use leptos::prelude::*;

/// Whether the page's first frame has been drawn and the browser was idle since, as a context
/// of the app.
#[derive(Clone, Copy)]
struct FirstFrame(RwSignal<bool>);

/// How long after the app's start the table is built when the browser has not been idle after a
/// frame by then (a window that draws no frames, such as a tab opened in the background, or a
/// run opened by a link that keeps the browser busy).
const AT_MOST_AFTER: Duration = Duration::from_millis(500);

/// Provides the flag to the app's views and sets it once the first frame has been drawn and the
/// browser is idle.
pub fn watch() {
    let drawn = RwSignal::new(false);
    provide_context(FirstFrame(drawn));
    let mark = move || {
        if drawn.try_get_untracked() == Some(false) {
            drawn.set(true);
        }
    };
    after_first_frame(mark);
    post_task(move || set_timeout(mark, AT_MOST_AFTER));
}

/// Runs `f` once the next frame has been drawn and the browser is idle: a task queued by the
/// frame's callback runs once that frame has been drawn; a browser without idle callbacks
/// (WebKit) runs `f` then. Nothing runs in a window that draws no frames.
pub fn after_first_frame(f: impl Fn() + 'static) {
    let f = Rc::new(f);
    request_animation_frame(move || {
        post_task(move || {
            let idle = Rc::clone(&f);
            if request_idle_callback_with_handle(move || idle()).is_err() {
                f();
            }
        })
    });
}

/// Whether the page's first frame has been drawn (tracked). True where the app did not start
/// the watch (a view built on its own).
pub fn drawn() -> bool {
    use_context::<FirstFrame>().is_none_or(|FirstFrame(drawn)| drawn.get())
}
