//! Whether an element is on the screen or near it, for views that leave their off-screen parts
//! as they are and catch up before they are seen (the timelines below the runs while comparing,
//! the comparison table).

use std::time::Duration;

use leptos::html::ElementType;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// How long the session must have been still before a view off screen catches up, in ms: long
/// enough that keys held down or pressed in quick succession (about a frame apart) do not each
/// lay the view out again, short enough that a screen reader, which reads a view wherever it
/// is, finds it current as soon as the stepping pauses.
const OFF_SCREEN_CATCH_UP_MS: u64 = 250;

/// How near the screen an element counts as near: the frame that scrolls it into view then shows
/// it current, since the observer reports it a little before.
const NEAR_SCREEN_MARGIN: &str = "200px";

/// Calls `on_change(near)` each time the element of `target` comes within
/// [`NEAR_SCREEN_MARGIN`] of the screen or leaves it, once the browser has laid it out (an
/// `IntersectionObserver`, so a scroll, a resize or a change of the layout all count).
///
/// The observer lives as long as the element (a node keeps its observers): `on_change` may run
/// after the view that made it is gone, and should read that view's state with `try_`.
pub fn watch_near_screen<E>(target: NodeRef<E>, on_change: impl Fn(bool) + Clone + 'static)
where
    E: ElementType,
    E::Output: JsCast + Clone + 'static,
{
    Effect::new(move |_| {
        let Some(element) = target.get() else {
            return;
        };
        let on_change = on_change.clone();
        let seen = wasm_bindgen::closure::Closure::<dyn Fn(js_sys::Array)>::new(
            move |entries: js_sys::Array| {
                // Entries come in time order: the last says where the element is now.
                if let Some(entry) = entries.iter().last() {
                    on_change(
                        entry
                            .unchecked_into::<web_sys::IntersectionObserverEntry>()
                            .is_intersecting(),
                    );
                }
            },
        )
        .into_js_value();
        let options = web_sys::IntersectionObserverInit::new();
        options.set_root_margin(NEAR_SCREEN_MARGIN);
        if let Ok(observer) =
            web_sys::IntersectionObserver::new_with_options(seen.unchecked_ref(), &options)
        {
            observer.observe(element.unchecked_ref());
        }
    });
}

/// What a view shows of `source`, and whether that is behind it.
pub struct HeldOffScreen<T: 'static> {
    /// `source` as the view shows it.
    pub shown: RwSignal<T>,
    /// Whether `shown` is behind `source` (for `aria-busy`).
    pub stale: RwSignal<bool>,
}

/// `source` as a view whose element is `target` shows it: at once while the element is on the
/// screen or near it (see [`watch_near_screen`]), and for a change that `at_once` accepts.
/// Off screen any other change only marks the view stale: it catches up when the element comes
/// near the screen, or once `source` has been still for [`OFF_SCREEN_CATCH_UP_MS`]. Views below
/// the runs' panes (the timelines and the comparison while comparing) then cost a step nothing.
pub fn hold_off_screen<T, E>(
    source: Memo<T>,
    target: NodeRef<E>,
    at_once: fn(&T) -> bool,
) -> HeldOffScreen<T>
where
    T: Clone + PartialEq + Send + Sync + 'static,
    E: ElementType,
    E::Output: JsCast + Clone + 'static,
{
    let shown = RwSignal::new(source.get_untracked());
    let stale = RwSignal::new(false);
    let near_screen = StoredValue::new(true);
    let pending = StoredValue::new(None::<TimeoutHandle>);
    let catch_up = move || {
        if let Some(Some(timer)) = pending.try_update_value(Option::take) {
            timer.clear();
        }
        if stale.try_get_untracked() == Some(true) {
            stale.set(false);
        }
        if let Some(now) = source.try_get_untracked() {
            shown.try_set(now);
        }
    };
    Effect::new(move |first: Option<()>| {
        let now_at_once = source.with(at_once);
        if first.is_none() {
            // The effect first runs a little after the view was made: a change in between is
            // shown now.
            let behind = shown
                .try_with_untracked(|held| source.with_untracked(|now| held != now))
                .unwrap_or(false);
            if behind {
                catch_up();
            }
            return;
        }
        if now_at_once || near_screen.try_get_value() == Some(true) {
            catch_up();
            return;
        }
        if !stale.get_untracked() {
            stale.set(true);
        }
        let timer =
            set_timeout_with_handle(catch_up, Duration::from_millis(OFF_SCREEN_CATCH_UP_MS)).ok();
        if let Some(Some(previous)) = pending.try_update_value(|p| std::mem::replace(p, timer)) {
            previous.clear();
        }
    });
    watch_near_screen(target, move |near| {
        near_screen.try_set_value(near);
        if near && stale.try_get_untracked() == Some(true) {
            catch_up();
        }
    });
    on_cleanup(move || {
        if let Some(Some(timer)) = pending.try_update_value(Option::take) {
            timer.clear();
        }
    });
    HeldOffScreen { shown, stale }
}
