//! Whether an element is on the screen or near it, for views that leave their off-screen parts
//! as they are and catch up before they are seen (the timelines below the runs while comparing,
//! the comparison table).

use leptos::html::ElementType;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

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
