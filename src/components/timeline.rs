//! The timeline: a slider over the run's steps drawn as the selected wave's lanes × the
//! instructions it ran (see `wave_session::timeline`). Drawn on a canvas (64 lanes × hundreds of
//! columns is too many elements); the slider's value text, a sentence on the current column and
//! the legend are its text alternatives, and each lane state has its own shape, not only its own
//! colour.

use std::sync::Arc;

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::CanvasRenderingContext2d;

use super::near_screen::{hold_off_screen, watch_near_screen, HeldOffScreen};
use super::timeline_picture::{TimelinePictureButton, TimelinePictureForm};
use super::{use_ctx, Ctx};
use wave_session::{mark_letter, LaneCell, TimelineView, MARK_KEY};

/// Height of the event-mark row above the lanes, in CSS pixels.
const MARK_ROW: f64 = 12.0;
/// Height of the lane rows together, at most.
const LANES_HEIGHT: f64 = 128.0;
/// Height of the efficiency bars when zoomed out.
const BARS_HEIGHT: f64 = 64.0;
/// Widest column, in CSS pixels: a short run stays a strip of narrow columns.
const MAX_COLUMN: f64 = 14.0;

fn column_width(css_width: f64, columns: usize) -> f64 {
    (css_width / columns.max(1) as f64).min(MAX_COLUMN)
}

fn row_height(width: u32) -> f64 {
    (LANES_HEIGHT / f64::from(width.max(1))).clamp(2.0, 10.0)
}

fn body_height(view: &TimelineView) -> f64 {
    if view.fine {
        row_height(view.width) * f64::from(view.width)
    } else {
        BARS_HEIGHT
    }
}

struct Palette {
    active: String,
    waiting: String,
    ended: String,
    halted: String,
    text: String,
    edge: String,
}

impl Palette {
    /// The theme's colours, from the page's CSS variables (one computed style for all).
    fn read() -> Palette {
        let style = web_sys::window().and_then(|w| {
            let root = w.document()?.document_element()?;
            w.get_computed_style(&root).ok().flatten()
        });
        let colour = |name: &str, fallback: &str| {
            style
                .as_ref()
                .and_then(|s| s.get_property_value(name).ok())
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
                .unwrap_or_else(|| fallback.to_string())
        };
        Palette {
            active: colour("--accent", "#1d4ed8"),
            waiting: colour("--muted", "#5b6472"),
            ended: colour("--warning", "#b26a00"),
            halted: colour("--text", "#1b1f27"),
            text: colour("--text", "#1b1f27"),
            edge: colour("--panel-edge", "#d5dae2"),
        }
    }
}

/// The canvas's fill colour as last set by this drawing. Setting `fillStyle` passes the colour's
/// text from wasm to the page and has the canvas parse it again; a fine timeline fills 64 cells a
/// column, mostly of one state, so the colour is set only when it changes.
struct Brush<'a> {
    context: &'a CanvasRenderingContext2d,
    colour: Option<&'a str>,
}

impl<'a> Brush<'a> {
    fn new(context: &'a CanvasRenderingContext2d) -> Self {
        Brush {
            context,
            colour: None,
        }
    }

    fn fill_rect(&mut self, colour: &'a str, (x, y, w, h): (f64, f64, f64, f64)) {
        self.set(colour);
        self.context.fill_rect(x, y, w, h);
    }

    fn fill_text(&mut self, colour: &'a str, text: &str, x: f64, y: f64) {
        self.set(colour);
        let _ = self.context.fill_text(text, x, y);
    }

    fn set(&mut self, colour: &'a str) {
        if self.colour != Some(colour) {
            self.context.set_fill_style_str(colour);
            self.colour = Some(colour);
        }
    }
}

/// Draws one lane cell: each state a shape of its own (full, upper half, bottom bar, middle
/// dot, full dark, nothing), so the picture does not rest on colour alone.
fn draw_cell<'a>(
    brush: &mut Brush<'a>,
    palette: &'a Palette,
    cell: LaneCell,
    (x, y, w, h): (f64, f64, f64, f64),
) {
    let (colour, rect) = match cell {
        LaneCell::Active => (&palette.active, (x, y, w, h)),
        LaneCell::Waiting => (&palette.waiting, (x, y, w, (h / 2.0).max(1.0))),
        LaneCell::BrokeOut => (&palette.ended, (x, y + h * 0.6, w, (h * 0.4).max(1.0))),
        LaneCell::Continued => (
            &palette.ended,
            (
                x + w * 0.25,
                y + h * 0.3,
                (w * 0.5).max(1.0),
                (h * 0.4).max(1.0),
            ),
        ),
        LaneCell::Halted => (&palette.halted, (x, y, w, h)),
        LaneCell::Absent => return,
    };
    brush.fill_rect(colour, rect);
}

fn draw(canvas: &web_sys::HtmlCanvasElement, view: &TimelineView) {
    let Ok(Some(context)) = canvas.get_context("2d") else {
        return;
    };
    let Ok(context) = context.dyn_into::<CanvasRenderingContext2d>() else {
        return;
    };
    let scale = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio());
    let css_width = f64::from(canvas.client_width().max(1));
    let css_height = MARK_ROW + body_height(view);
    let (width, height) = ((css_width * scale) as u32, (css_height * scale) as u32);
    // Resizing clears and reallocates the canvas: only when the size changed.
    if canvas.width() != width || canvas.height() != height {
        canvas.set_width(width);
        canvas.set_height(height);
        let _ =
            web_sys::HtmlElement::style(canvas).set_property("height", &format!("{css_height}px"));
    }
    let _ = context.set_transform(scale, 0.0, 0.0, scale, 0.0, 0.0);
    context.clear_rect(0.0, 0.0, css_width, css_height);
    let palette = Palette::read();
    let column_width = column_width(css_width, view.columns.len());
    let drawn_width = column_width.max(1.0);
    context.set_font("9px monospace");
    let mut brush = Brush::new(&context);
    for (index, column) in view.columns.iter().enumerate() {
        let x = index as f64 * column_width;
        if view.fine {
            let row = row_height(view.width);
            for (lane, cell) in column.lanes.iter().enumerate() {
                let y = MARK_ROW + lane as f64 * row;
                draw_cell(
                    &mut brush,
                    &palette,
                    *cell,
                    (x, y, drawn_width, (row - 0.5).max(1.0)),
                );
            }
        } else {
            let height = f64::from(column.efficiency) * BARS_HEIGHT;
            brush.fill_rect(
                &palette.active,
                (
                    x,
                    MARK_ROW + BARS_HEIGHT - height,
                    drawn_width,
                    height.max(1.0),
                ),
            );
        }
        if let Some(mark) = column.mark {
            if column_width >= 7.0 {
                brush.fill_text(&palette.text, mark_letter(mark), x + 1.0, MARK_ROW - 3.0);
            } else {
                brush.fill_rect(&palette.text, (x, MARK_ROW - 6.0, drawn_width, 4.0));
            }
        }
    }
    if let Some(current) = view.current {
        let x = current as f64 * column_width;
        context.set_stroke_style_str(&palette.text);
        context.set_line_width(2.0);
        context.stroke_rect(x - 1.0, 1.0, drawn_width + 2.0, css_height - 2.0);
    }
    context.set_stroke_style_str(&palette.edge);
    context.set_line_width(1.0);
    context.stroke_rect(
        0.5,
        MARK_ROW - 0.5,
        css_width - 1.0,
        body_height(view) + 1.0,
    );
}

/// The column and (for an instruction column) lane under a pointer event.
fn hit(
    canvas: &web_sys::HtmlCanvasElement,
    view: &TimelineView,
    event: &web_sys::PointerEvent,
) -> Option<(usize, Option<u32>)> {
    let rect = canvas.get_bounding_client_rect();
    let x = f64::from(event.client_x()) - rect.left();
    let y = f64::from(event.client_y()) - rect.top() - MARK_ROW;
    if view.columns.is_empty() || rect.width() <= 0.0 {
        return None;
    }
    let column = (x / column_width(rect.width(), view.columns.len())).floor();
    let column = column.clamp(0.0, view.columns.len() as f64 - 1.0) as usize;
    let lane = (view.fine && y >= 0.0)
        .then(|| (y / row_height(view.width)).floor() as u32)
        .filter(|lane| *lane < view.width);
    Some((column, lane))
}

/// Goes to `step`; while comparing, both runs go (their timelines share one step axis).
fn go_to(ctx: Ctx, step: u64) {
    match ctx.pair.get_untracked() {
        Some(pair) => pair.travel_to(step),
        None => ctx.travel_to(step),
    }
}

#[component]
pub fn Timeline() -> impl IntoView {
    let ctx = use_ctx();
    // Replays the window: held while a run goes on, like the other heavy views.
    // Shared (`Arc`): the view shown off screen holds it without copying its columns.
    let view = Memo::new(move |previous: Option<&Option<Arc<TimelineView>>>| {
        if ctx.running.get() {
            if let Some(previous) = previous {
                return previous.clone();
            }
        }
        ctx.track();
        ctx.replaying(|s| s.timeline()).flatten().map(Arc::new)
    });
    let canvas: NodeRef<leptos::html::Canvas> = NodeRef::new();
    let section: NodeRef<leptos::html::Section> = NodeRef::new();
    // Off screen (both timelines are below the runs' panes while comparing) the picture and its
    // words wait while the steps come, and catch up before they are seen: drawing and laying
    // them out there took about a millisecond of every "Step both". The pointer and the keys
    // read `view` itself: they come only while the timeline is in sight.
    let HeldOffScreen {
        shown,
        stale: behind,
    } = hold_off_screen(view, section, |_| false);
    // Drawn in the next animation frame, once per frame however many updates came: reading the
    // canvas's width and the theme's colours then costs no extra layout or style pass (the
    // frame does them anyway), and the command that changed the view does not wait for it.
    let frame_pending = StoredValue::new(false);
    // A canvas laid out as nothing (presenter mode hides the timeline) is not drawn, which would
    // size its bitmap to nothing: it is drawn when it shows again.
    let undrawn = StoredValue::new(false);
    let draw_soon = move || {
        if frame_pending.try_get_value() != Some(false) {
            return;
        }
        frame_pending.set_value(true);
        request_animation_frame(move || {
            // The timeline may be gone by the frame (compare mode moves it): nothing to draw.
            frame_pending.try_set_value(false);
            let Some(canvas) = canvas.try_get_untracked().flatten() else {
                return;
            };
            if canvas.client_width() == 0 {
                undrawn.try_set_value(true);
                return;
            }
            undrawn.try_set_value(false);
            shown.try_with_untracked(|view| {
                if let Some(view) = view {
                    draw(&canvas, view);
                }
            });
        });
    };
    Effect::new(move |_| {
        shown.track();
        // A new theme means new colours: redraw after the page has applied it.
        ctx.theme.track();
        if canvas.get().is_some() {
            draw_soon();
        }
    });
    watch_near_screen(canvas, move |near| {
        if near && undrawn.try_get_value() == Some(true) {
            draw_soon();
        }
    });
    let dragging = StoredValue::new(None::<usize>);
    let on_pointer = move |event: web_sys::PointerEvent, down: bool| {
        let Some(element) = canvas.get_untracked() else {
            return;
        };
        if !down && dragging.get_value().is_none() {
            return;
        }
        let Some((column, lane)) = view.with_untracked(|v| {
            v.as_ref()
                .and_then(|v| hit(&element, v, &event).map(|h| (h, v.columns[h.0].step)))
        }) else {
            return;
        };
        let ((index, lane), step) = (column, lane);
        if down {
            // Keep the pointer's moves coming here while the button is held, wherever it goes.
            let _ = element.set_pointer_capture(event.pointer_id());
            if let Some(lane) = lane {
                ctx.act(|s| s.select_lane(lane));
            }
        }
        if dragging.get_value() != Some(index) || down {
            dragging.set_value(Some(index));
            go_to(ctx, step);
        }
    };
    let on_key = move |event: web_sys::KeyboardEvent| {
        let Some(view) = view.get_untracked() else {
            return;
        };
        let target = match event.key().as_str() {
            "ArrowLeft" | "ArrowDown" => view.step_by_columns(-1),
            "ArrowRight" | "ArrowUp" => view.step_by_columns(1),
            "PageUp" => view.step_by_columns(-10),
            "PageDown" => view.step_by_columns(10),
            "Home" => Some(0),
            "End" => Some(view.known_end),
            "+" | "=" => {
                ctx.act(|s| s.zoom_timeline(2.0));
                None
            }
            "-" => {
                ctx.act(|s| s.zoom_timeline(0.5));
                None
            }
            _ => return,
        };
        event.prevent_default();
        if let Some(step) = target {
            go_to(ctx, step);
        }
    };
    let value_text = move || shown.with(|v| v.as_ref().map(|v| v.value_text()));
    let description = move || shown.with(|v| v.as_ref().map(|v| v.description()));
    let known_end = move || shown.with(|v| v.as_ref().map_or(0, |v| v.known_end));
    let now = move || shown.with(|v| v.as_ref().map_or(0, |v| v.now));
    let window = move || {
        shown.with(|v| {
            v.as_ref().map_or_else(String::new, |v| {
                let unit = if v.fine {
                    "one column per instruction of the selected wave"
                } else {
                    "SIMD efficiency per stretch of the run"
                };
                format!("steps {}–{} of {}: {unit}", v.first, v.last, v.known_end)
            })
        })
    };
    // Two timelines while comparing, one per run.
    let name = move || match ctx.pair.with(Option::is_some) {
        true => format!("Timeline, {}", ctx.side.region().to_ascii_lowercase()),
        false => "Timeline".to_string(),
    };
    let picture_open = RwSignal::new(false);
    let picture_window =
        Signal::derive(move || shown.with(|v| v.as_ref().map(|v| (v.first, v.last))));
    view! {
        <section
            class="timeline"
            node_ref=section
            aria-labelledby=ctx.id("timeline-heading")
            aria-busy=move || behind.get().then_some("true")
        >
            <div class="timeline-head">
                <h3 id=ctx.id("timeline-heading") class="view-title">{name}</h3>
                <span class="timeline-window">{window}</span>
                <span class="timeline-zoom">
                    <button type="button" class="btn small" title="Fewer steps at once (+)"
                        on:click=move |_| { ctx.act(|s| s.zoom_timeline(2.0)); }>
                        "Zoom timeline in"
                    </button>
                    <button type="button" class="btn small" title="More steps at once (-)"
                        on:click=move |_| { ctx.act(|s| s.zoom_timeline(0.5)); }>
                        "Zoom timeline out"
                    </button>
                    <button type="button" class="btn small"
                        on:click=move |_| { ctx.act(|s| s.zoom_timeline(0.0)); }>
                        "Whole run"
                    </button>
                    <TimelinePictureButton open=picture_open />
                </span>
            </div>
            <TimelinePictureForm open=picture_open window=picture_window />
            <div
                class="timeline-track"
                role="slider"
                tabindex="0"
                aria-label=name
                aria-valuemin="0"
                aria-valuemax=move || known_end().to_string()
                aria-valuenow=move || now().to_string()
                aria-valuetext=value_text
                aria-describedby=ctx.id("timeline-description")
                on:keydown=on_key
                on:pointerdown=move |event| on_pointer(event, true)
                on:pointermove=move |event| on_pointer(event, false)
                on:pointerup=move |_| dragging.set_value(None)
                on:pointercancel=move |_| dragging.set_value(None)
            >
                <canvas node_ref=canvas class="timeline-canvas" aria-hidden="true"></canvas>
            </div>
            <p id=ctx.id("timeline-description") class="visually-hidden">{description}</p>
            <ul class="timeline-legend" aria-label="Timeline legend">
                {LaneCell::ALL
                    .iter()
                    .map(|cell| {
                        view! {
                            <li>
                                <span class=format!("swatch swatch-{cell:?}").to_ascii_lowercase() aria-hidden="true"></span>
                                {cell.name()}
                            </li>
                        }
                    })
                    .collect_view()}
                <li>{MARK_KEY}</li>
            </ul>
        </section>
    }
}
