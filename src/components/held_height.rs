//! A block that does not get shorter while the session's shown wave run lasts (see
//! `wave_session`'s `shown_wave_run` module for why).
//!
//! A `ResizeObserver` reports the block's height after each layout that changed it; when the
//! block is taller than it has been, that height becomes its `min-height`, so when its content
//! shrinks again the block keeps its height and nothing below it moves. A new shown wave run removes the
//! `min-height` and starts over from the content's height. Growing still moves what is below,
//! once per new height: content is never cut or hidden.

use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

use super::use_ctx;
use wave_session::ShownWaveRun;

/// The tallest of the heights reported so far, if `reported` is taller than `held` by more
/// than rounding (the block's new `min-height`).
fn taller(held: f64, reported: f64) -> Option<f64> {
    (reported > held + 0.5).then_some(reported)
}

#[component]
pub fn HeldHeight(
    /// Classes of the block.
    class: &'static str,
    children: Children,
) -> impl IntoView {
    let ctx = use_ctx();
    // The room is given back whenever this changes.
    let shown = Memo::new(move |_| ctx.with(|s| s.shown_wave_run()));
    let block: NodeRef<leptos::html::Div> = NodeRef::new();
    let held = StoredValue::new(0.0f64);
    let observer = StoredValue::new_local(None::<web_sys::ResizeObserver>);
    // The callback may come after the view is gone: it reads with `try_`, doing nothing then.
    let on_resize = Closure::<dyn Fn(js_sys::Array)>::new(move |entries: js_sys::Array| {
        for entry in entries.iter() {
            let entry: web_sys::ResizeObserverEntry = entry.unchecked_into();
            let Some(size) = entry
                .border_box_size()
                .get(0)
                .dyn_into::<web_sys::ResizeObserverSize>()
                .ok()
            else {
                continue;
            };
            let Some(height) = held
                .try_get_value()
                .and_then(|h| taller(h, size.block_size()))
            else {
                continue;
            };
            held.try_set_value(height);
            if let Ok(el) = entry.target().dyn_into::<web_sys::HtmlElement>() {
                let _ = el
                    .style()
                    .set_property("min-height", &format!("{height}px"));
            }
        }
    })
    .into_js_value();
    let observe = move |el: &web_sys::HtmlDivElement| {
        let options = web_sys::ResizeObserverOptions::new();
        options.set_box(web_sys::ResizeObserverBoxOptions::BorderBox);
        observer.with_value(|o| {
            if let Some(o) = o {
                o.observe_with_options(el, &options);
            }
        });
    };
    block.on_load(move |el| {
        if let Ok(o) = web_sys::ResizeObserver::new(on_resize.unchecked_ref()) {
            observer.set_value(Some(o));
        }
        observe(&el);
    });
    // A new shown wave run: back to the content's height. Observing again reports the current height
    // after the next layout, even when it did not change.
    Effect::new(move |before: Option<ShownWaveRun>| {
        let now = shown.get();
        if before.is_some_and(|b| b != now) {
            if let Some(el) = block.get_untracked() {
                held.set_value(0.0);
                let html: &web_sys::HtmlElement = el.as_ref();
                let _ = html.style().remove_property("min-height");
                observer.with_value(|o| {
                    if let Some(o) = o {
                        o.unobserve(&el);
                    }
                });
                observe(&el);
            }
        }
        now
    });
    on_cleanup(move || {
        observer.try_with_value(|o| {
            if let Some(o) = o {
                o.disconnect();
            }
        });
    });
    view! {
        <div node_ref=block class=class>
            {children()}
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::taller;

    #[test]
    fn only_a_taller_height_is_held() {
        assert_eq!(taller(0.0, 120.0), Some(120.0));
        assert_eq!(taller(120.0, 80.0), None, "shrinking keeps the room");
        assert_eq!(taller(120.0, 120.4), None, "rounding is not growth");
        assert_eq!(taller(120.0, 191.0), Some(191.0));
    }
}
