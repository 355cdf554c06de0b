//! The lanes' look, drawn on one canvas under a lanes group's buttons: each lane's rounded box,
//! its number, its dot (filled when active, a hollow ring when not) and its change bar.
//!
//! The buttons stay for people and tests (their role, name, focus and clicks), transparent over
//! the picture. A step then changes no class or attribute a stylesheet rule looks at, so it
//! restyles and repaints no lane element: it draws again only the lanes whose state changed, by
//! copying their pixels in that state from a sheet outside the page (every lane drawn active and
//! inactive), and their change bars. Where each part of a lane goes is read from the
//! buttons and their (invisible) children only when the group's size or the number of lanes
//! changes, never on a step; the sheet is drawn then, and when the colours change.

use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, Element, HtmlCanvasElement};

/// What the picture shows of a lane.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LaneState {
    pub active: bool,
    /// The last step turned the lane on or off: the change bar shows.
    pub changed: bool,
}

/// A rectangle in CSS pixels: left, top, width, height.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl Rect {
    fn bottom(self) -> f64 {
        self.y + self.h
    }

    fn right(self) -> f64 {
        self.x + self.w
    }

    /// The rectangle moved by `(dx, dy)`.
    fn moved(self, dx: f64, dy: f64) -> Rect {
        Rect {
            x: self.x + dx,
            y: self.y + dy,
            ..self
        }
    }

    /// The rectangle with its edges on the nearest device pixels, so that the box drawn here
    /// falls where the browser puts the button's own edges (outline, focus ring, answer marks).
    fn snapped(self, scale: f64) -> Rect {
        let snap = |v: f64| (v * scale).round() / scale;
        let (x, y) = (snap(self.x), snap(self.y));
        Rect {
            x,
            y,
            w: snap(self.right()) - x,
            h: snap(self.bottom()) - y,
        }
    }
}

/// The theme's colours for lanes, from the page's CSS variables (the ones the stylesheet gave
/// the lane elements before they were drawn here).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Palette {
    pub active: String,
    pub active_soft: String,
    pub inactive_soft: String,
    pub edge: String,
    pub text: String,
    pub muted: String,
    pub accent: String,
}

impl Palette {
    /// The colours as the page has them now (the theme and presenter mode set the variables on
    /// `<html>`): one computed style for all. The stylesheet sets every one of them; a colour
    /// the canvas could not read would leave the one before it in use.
    pub fn read() -> Palette {
        let style = web_sys::window().and_then(|w| {
            let root = w.document()?.document_element()?;
            w.get_computed_style(&root).ok().flatten()
        });
        let colour = |name: &str| {
            style
                .as_ref()
                .and_then(|s| s.get_property_value(name).ok())
                .map(|v| v.trim().to_string())
                .unwrap_or_default()
        };
        Palette {
            active: colour("--active"),
            active_soft: colour("--active-soft"),
            inactive_soft: colour("--inactive-soft"),
            edge: colour("--panel-edge"),
            text: colour("--text"),
            muted: colour("--muted"),
            accent: colour("--accent"),
        }
    }
}

/// Where a lane's parts are, relative to its box (every lane of a group has the same shape:
/// the grid gives them equal columns and rows), and the widths the stylesheet gives them.
#[derive(Clone, Debug, Default, PartialEq)]
struct Shape {
    /// The dot's box.
    glyph: Rect,
    /// The dot's ring width (its border).
    glyph_border: f64,
    /// The number's horizontal centre and the baseline of its text.
    number_x: f64,
    baseline: f64,
    /// The change bar's box (below the lane's box, in the gap between rows).
    bar: Rect,
    /// The lane's border width and corner radius.
    border: f64,
    radius: f64,
    /// The canvas font of the number, as the stylesheet sets the lane's.
    font: String,
}

/// One lanes group's canvas and what is drawn on it.
pub struct LanePicture {
    canvas: HtmlCanvasElement,
    context: Option<CanvasRenderingContext2d>,
    palette: Palette,
    /// Each lane's box on the canvas; empty until measured, and emptied when the lanes' number
    /// changes (nothing is drawn then until they are measured again).
    boxes: Vec<Rect>,
    shape: Shape,
    scale: f64,
    /// What each lane should show, and what the canvas shows of it now.
    wanted: Vec<LaneState>,
    drawn: Vec<Option<LaneState>>,
    /// Every lane drawn twice, active above and inactive below, without the change bar, on a
    /// canvas outside the page at the picture's size: drawn when the lanes are measured or
    /// recoloured, so that a step copies a lane's pixels (one `drawImage`) instead of drawing
    /// its paths and text again.
    sheet: Option<(HtmlCanvasElement, CanvasRenderingContext2d)>,
    /// Reports the group's size after each layout that changed it (see [`Self::observe_again`]).
    observer: Option<web_sys::ResizeObserver>,
    /// The system's colour scheme and the listener that recolours the picture when it changes
    /// (the page follows it unless a theme is chosen).
    scheme: Option<(web_sys::MediaQueryList, wasm_bindgen::JsValue)>,
    /// Called to measure again; also when the device's pixel ratio changes with the group's size
    /// unchanged (the window moved to another screen, a zoom that keeps the layout), which no
    /// resize reports, and after which the picture would be drawn at the old ratio.
    on_resize: wasm_bindgen::JsValue,
    /// The query that matches the pixel ratio the picture was last measured at, listened to.
    resolution: Option<web_sys::MediaQueryList>,
    /// The places of the change bars of the piece a step is gathering (see
    /// [`Self::draw_changed`]): kept, empty, between steps, so a step allocates nothing.
    barred: Vec<Rect>,
}

impl Drop for LanePicture {
    fn drop(&mut self) {
        if let Some(observer) = &self.observer {
            observer.disconnect();
        }
        if let Some((scheme, listener)) = &self.scheme {
            let _ = scheme.remove_event_listener_with_callback("change", listener.unchecked_ref());
        }
        self.watch_resolution(None);
    }
}

/// A CSS length in pixels from a computed style ("1.5px"), or `fallback`.
fn pixels(style: &web_sys::CssStyleDeclaration, property: &str, fallback: f64) -> f64 {
    style
        .get_property_value(property)
        .ok()
        .and_then(|v| v.trim().trim_end_matches("px").parse::<f64>().ok())
        .unwrap_or(fallback)
}

fn computed_style(element: &Element) -> Option<web_sys::CssStyleDeclaration> {
    web_sys::window()?
        .get_computed_style(element)
        .ok()
        .flatten()
}

/// A rounded rectangle's outline as the context's current path.
fn rounded_path(context: &CanvasRenderingContext2d, r: Rect, radius: f64) {
    let radius = radius.clamp(0.0, r.w.min(r.h) / 2.0);
    context.begin_path();
    context.move_to(r.x + radius, r.y);
    let _ = context.arc_to(r.right(), r.y, r.right(), r.bottom(), radius);
    let _ = context.arc_to(r.right(), r.bottom(), r.x, r.bottom(), radius);
    let _ = context.arc_to(r.x, r.bottom(), r.x, r.y, radius);
    let _ = context.arc_to(r.x, r.y, r.right(), r.y, radius);
    context.close_path();
}

fn context_of(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
}

impl LanePicture {
    /// The picture on `canvas`, which calls `on_resize` after a layout that resized `group` and
    /// `on_scheme` when the system's colour scheme changes.
    pub fn new(
        canvas: HtmlCanvasElement,
        group: &Element,
        on_resize: &wasm_bindgen::JsValue,
        on_scheme: wasm_bindgen::JsValue,
    ) -> LanePicture {
        let context = context_of(&canvas);
        let sheet = canvas
            .owner_document()
            .and_then(|d| d.create_element("canvas").ok())
            .and_then(|c| c.dyn_into::<HtmlCanvasElement>().ok())
            .and_then(|c| Some((context_of(&c)?, c)))
            .map(|(context, c)| (c, context));
        let observer = web_sys::ResizeObserver::new(on_resize.unchecked_ref()).ok();
        if let Some(observer) = &observer {
            observer.observe(group);
        }
        let scheme = web_sys::window()
            .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
            .map(|scheme| {
                let _ =
                    scheme.add_event_listener_with_callback("change", on_scheme.unchecked_ref());
                (scheme, on_scheme)
            });
        LanePicture {
            observer,
            scheme,
            on_resize: on_resize.clone(),
            resolution: None,
            barred: Vec::new(),
            sheet,
            canvas,
            context,
            // Read by `measure`, before anything is drawn: reading it here, while the page is
            // being built, would make the browser compute the style of the whole page twice.
            palette: Palette::default(),
            boxes: Vec::new(),
            shape: Shape::default(),
            scale: 1.0,
            wanted: Vec::new(),
            drawn: Vec::new(),
        }
    }

    /// Has the observer report `group`'s size after the next layout, even when it is the same
    /// (fewer lanes in one row), so that the lanes are found again.
    pub fn observe_again(&self, group: &Element) {
        if let Some(observer) = &self.observer {
            observer.unobserve(group);
            observer.observe(group);
        }
    }

    /// The lanes to show: the lanes whose state differs from what the canvas shows are drawn
    /// again, and only they. A change in the number of lanes waits for [`Self::measure`].
    pub fn show(&mut self, states: impl ExactSizeIterator<Item = LaneState>) {
        if states.len() != self.wanted.len() {
            self.boxes.clear();
        }
        self.wanted.clear();
        self.wanted.extend(states);
        self.draw_changed();
    }

    /// Reads where the lanes are (each button's box, and the parts of the first one), sizes the
    /// canvas to the group at the device's pixel ratio, reads the colours, and draws every lane.
    /// For after a layout that resized the group or changed its lanes.
    pub fn measure(&mut self, buttons: &[Element]) {
        let origin = self.canvas.get_bounding_client_rect();
        let (css_width, css_height) = (origin.width(), origin.height());
        // A hidden group (a layout that does not show it) has no geometry to read.
        if css_width <= 0.0 || css_height <= 0.0 || buttons.len() != self.wanted.len() {
            self.boxes.clear();
            return;
        }
        let scale = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio());
        if scale != self.scale || self.resolution.is_none() {
            self.watch_resolution(Some(scale));
        }
        self.scale = scale;
        let (width, height) = (
            (css_width * self.scale).round() as u32,
            (css_height * self.scale).round() as u32,
        );
        if self.canvas.width() != width || self.canvas.height() != height {
            // Resizing clears the canvas and resets the context's state.
            self.canvas.set_width(width);
            self.canvas.set_height(height);
        }
        let relative = |element: &Element| {
            let r = element.get_bounding_client_rect();
            Rect {
                x: r.left() - origin.left(),
                y: r.top() - origin.top(),
                w: r.width(),
                h: r.height(),
            }
        };
        self.boxes = buttons
            .iter()
            .map(|b| relative(b).snapped(self.scale))
            .collect();
        if let Some(first) = buttons.first() {
            self.shape = self.measure_shape(first, self.boxes[0]);
        }
        self.palette = Palette::read();
        self.redraw_all();
    }

    /// Listens for the pixel ratio leaving `scale` (none: stops listening). A resolution query
    /// matches one ratio, so each measure at a new ratio listens to a new one.
    fn watch_resolution(&mut self, scale: Option<f64>) {
        if let Some(old) = self.resolution.take() {
            let _ =
                old.remove_event_listener_with_callback("change", self.on_resize.unchecked_ref());
        }
        let Some(scale) = scale else {
            return;
        };
        let query = format!("(resolution: {scale}dppx)");
        self.resolution = web_sys::window()
            .and_then(|w| w.match_media(&query).ok().flatten())
            .inspect(|list| {
                let _ =
                    list.add_event_listener_with_callback("change", self.on_resize.unchecked_ref());
            });
    }

    /// The colours changed (the theme, presenter mode): every lane is drawn again in the new ones.
    pub fn recolour(&mut self) {
        // Nothing drawn yet: `measure` reads the colours before it draws.
        if self.boxes.is_empty() {
            return;
        }
        let palette = Palette::read();
        if palette != self.palette {
            self.palette = palette;
            self.redraw_all();
        }
    }

    fn redraw_all(&mut self) {
        let (width, height) = (self.canvas.width(), self.canvas.height());
        if let Some(context) = &self.context {
            let _ = context.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0);
            context.clear_rect(0.0, 0.0, f64::from(width), f64::from(height));
            let _ = context.set_transform(self.scale, 0.0, 0.0, self.scale, 0.0, 0.0);
        }
        if let Some((sheet, context)) = &self.sheet {
            // Resizing clears the sheet and resets its context's state.
            if sheet.width() != width || sheet.height() != 2 * height {
                sheet.set_width(width);
                sheet.set_height(2 * height);
            } else {
                let _ = context.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0);
                context.clear_rect(0.0, 0.0, f64::from(width), f64::from(2 * height));
            }
            let _ = context.set_transform(self.scale, 0.0, 0.0, self.scale, 0.0, 0.0);
            context.set_font(&self.shape.font);
            context.set_text_align("center");
            context.set_text_baseline("alphabetic");
            let below = f64::from(height) / self.scale;
            for (lane, place) in self.boxes.iter().enumerate() {
                let number = lane.to_string();
                draw_lane(context, &self.palette, &self.shape, *place, &number, true);
                let place = place.moved(0.0, below);
                draw_lane(context, &self.palette, &self.shape, place, &number, false);
            }
        }
        self.drawn.clear();
        self.drawn.resize(self.wanted.len(), None);
        self.draw_changed();
    }

    /// The parts of a lane, from the first button's children (the dot, the number and the bar,
    /// laid out by the stylesheet but not painted) and its computed style.
    fn measure_shape(&self, button: &Element, lane: Rect) -> Shape {
        let part = |selector: &str| {
            button.query_selector(selector).ok().flatten().map(|e| {
                let r = e.get_bounding_client_rect();
                let origin = self.canvas.get_bounding_client_rect();
                let r = Rect {
                    x: r.left() - origin.left(),
                    y: r.top() - origin.top(),
                    w: r.width(),
                    h: r.height(),
                };
                (e, r.moved(-lane.x, -lane.y))
            })
        };
        let style = computed_style(button);
        let (border, radius) = style.as_ref().map_or((1.0, 5.0), |s| {
            (
                pixels(s, "border-top-width", 1.0),
                pixels(s, "border-top-left-radius", 5.0),
            )
        });
        let mut shape = Shape {
            border,
            radius,
            ..Shape::default()
        };
        if let Some((glyph, r)) = part(".lane-glyph") {
            shape.glyph = r.snapped(self.scale);
            shape.glyph_border =
                computed_style(&glyph).map_or(1.5, |s| pixels(&s, "border-top-width", 1.5));
        }
        if let Some((_, r)) = part(".lane-bar") {
            // On device pixels as the browser places the bar (the lane's box already is).
            shape.bar = r.snapped(self.scale);
        }
        if let Some((number, r)) = part(".lane-number") {
            let style = computed_style(&number);
            let read = |property: &str| {
                style
                    .as_ref()
                    .and_then(|s| s.get_property_value(property).ok())
                    .unwrap_or_default()
            };
            shape.font = format!(
                "{} {} {}",
                read("font-weight"),
                read("font-size"),
                read("font-family")
            );
            shape.number_x = r.x + r.w / 2.0;
            // The browser puts the text's em box in the middle of its line (half the leading
            // above, half below): the baseline is the ascent below that.
            shape.baseline = r.y + r.h / 2.0;
            if let Some(context) = &self.context {
                context.set_font(&shape.font);
                if let Ok(metrics) = context.measure_text("0") {
                    let (ascent, descent) = (
                        metrics.font_bounding_box_ascent(),
                        metrics.font_bounding_box_descent(),
                    );
                    if ascent.is_finite() && descent.is_finite() && ascent + descent > 0.0 {
                        shape.baseline = r.y + (r.h - (ascent + descent)) / 2.0 + ascent;
                    }
                    // On a device pixel, where the browser puts a line's baseline.
                    shape.baseline = (shape.baseline * self.scale).round() / self.scale;
                }
            }
        }
        shape
    }

    /// Draws the lanes whose wanted state differs from the drawn one, if their places are known.
    /// Lanes next to each other in a row that go to the same state are copied from the sheet
    /// in one piece: a step that turns most lanes on or off (a divergent branch, its end, and
    /// the step after each, which takes the change bars away) then makes a few copies per row
    /// instead of one per lane. The gaps between lanes are empty on the sheet and the canvas
    /// alike, so copying them as well changes no pixel. A piece's change bars are drawn right
    /// after it is copied, before the next piece, as each lane's bar was after its own copy.
    fn draw_changed(&mut self) {
        if self.boxes.len() != self.wanted.len() || self.drawn.len() != self.wanted.len() {
            return;
        }
        let (Some(context), Some((sheet, _))) = (&self.context, &self.sheet) else {
            return;
        };
        let scale = self.scale;
        let below = f64::from(self.canvas.height());
        // Setting the fill passes the colour's text to the page, which parses it again: once
        // per step, not once per bar (copying and clearing leave it as it is).
        let bar_colour_set = std::cell::Cell::new(false);
        let copy = |piece: &Piece, bars: &mut Vec<Rect>| {
            let (w, h) = (piece.right - piece.left, piece.bottom - piece.top);
            let from = if piece.active {
                piece.top
            } else {
                piece.top + below
            };
            context.clear_rect(piece.left / scale, piece.top / scale, w / scale, h / scale);
            let _ = context
                .draw_image_with_html_canvas_element_and_sw_and_sh_and_dx_and_dy_and_dw_and_dh(
                    sheet,
                    piece.left,
                    from,
                    w,
                    h,
                    piece.left / scale,
                    piece.top / scale,
                    w / scale,
                    h / scale,
                );
            for place in bars.drain(..) {
                rounded_path(context, self.shape.bar.moved(place.x, place.y), 1.0);
                if !bar_colour_set.replace(true) {
                    context.set_fill_style_str(&self.palette.accent);
                }
                context.fill();
            }
        };
        let mut pending: Option<Piece> = None;
        // The places of the pending piece's lanes that show their change bar.
        let mut barred = std::mem::take(&mut self.barred);
        for lane in 0..self.wanted.len() {
            let state = self.wanted[lane];
            if self.drawn[lane] == Some(state) {
                // A lane that stays as it is ends the piece: copying over it could change it.
                if let Some(piece) = pending.take() {
                    copy(&piece, &mut barred);
                }
                continue;
            }
            let place = self.boxes[lane];
            // One pixel round the box, and down to the bar's bottom: inside the gaps between
            // lanes (the bar ends a pixel above the next row), on whole device pixels, so no
            // neighbour loses an edge and the copy is not resampled.
            let piece = Piece {
                left: ((place.x - 1.0) * scale).floor(),
                top: ((place.y - 1.0) * scale).floor(),
                right: ((place.right() + 1.0) * scale).ceil(),
                bottom: ((place.bottom() + 1.0) * scale)
                    .ceil()
                    .max(((place.y + self.shape.bar.bottom()) * scale).ceil()),
                active: state.active,
            };
            pending = match pending.take() {
                Some(before) if before.joins(&piece) => Some(Piece {
                    right: piece.right,
                    ..before
                }),
                Some(before) => {
                    copy(&before, &mut barred);
                    Some(piece)
                }
                None => Some(piece),
            };
            if state.changed && self.shape.bar.w > 0.0 {
                barred.push(place);
            }
            self.drawn[lane] = Some(state);
        }
        if let Some(piece) = pending {
            copy(&piece, &mut barred);
        }
        self.barred = barred;
    }
}

/// A piece of the canvas copied from the sheet at once, in device pixels: one lane's box with
/// its margin and bar, or several such boxes side by side in a row, all active or all not.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Piece {
    left: f64,
    top: f64,
    right: f64,
    bottom: f64,
    active: bool,
}

impl Piece {
    /// `next`, the next lane's piece, is to its right in the same row and in the same state,
    /// so that the two can be copied as one.
    fn joins(&self, next: &Piece) -> bool {
        next.active == self.active
            && next.top == self.top
            && next.bottom == self.bottom
            && next.left >= self.left
    }
}

/// Draws a lane as the stylesheet drew the lane elements, but for the change bar.
fn draw_lane(
    context: &CanvasRenderingContext2d,
    palette: &Palette,
    shape: &Shape,
    lane: Rect,
    number: &str,
    active: bool,
) {
    let (fill, edge, text) = if active {
        (&palette.active_soft, &palette.active, &palette.text)
    } else {
        (&palette.inactive_soft, &palette.edge, &palette.muted)
    };
    rounded_path(context, lane, shape.radius);
    context.set_fill_style_str(fill);
    context.fill();
    // The border inside the box, as the browser draws it.
    let b = shape.border;
    if b > 0.0 {
        let inner = Rect {
            x: lane.x + b / 2.0,
            y: lane.y + b / 2.0,
            w: lane.w - b,
            h: lane.h - b,
        };
        rounded_path(context, inner, shape.radius - b / 2.0);
        context.set_stroke_style_str(edge);
        context.set_line_width(b);
        context.stroke();
    }

    // The dot: filled in the active colour, or a ring in the lane's muted text colour. An
    // ellipse in its box, as a box with rounded corners of 50% is (a layout can make it wider
    // than it is tall).
    let glyph = shape.glyph.moved(lane.x, lane.y);
    let (rx, ry) = (glyph.w / 2.0, glyph.h / 2.0);
    if rx > 0.0 && ry > 0.0 {
        let (cx, cy) = (glyph.x + rx, glyph.y + ry);
        let ring = if active {
            0.0
        } else {
            shape.glyph_border.min(rx).min(ry)
        };
        context.begin_path();
        let _ = context.ellipse(
            cx,
            cy,
            rx - ring / 2.0,
            ry - ring / 2.0,
            0.0,
            0.0,
            std::f64::consts::TAU,
        );
        if active {
            context.set_fill_style_str(&palette.active);
            context.fill();
        } else {
            context.set_stroke_style_str(&palette.muted);
            context.set_line_width(ring);
            context.stroke();
        }
    }

    context.set_fill_style_str(text);
    let _ = context.fill_text(number, lane.x + shape.number_x, lane.y + shape.baseline);
}

#[cfg(test)]
mod tests {
    use super::{Piece, Rect};

    #[test]
    fn only_neighbours_in_a_row_in_one_state_are_copied_as_one() {
        let piece = |left: f64, top: f64, active: bool| Piece {
            left,
            top,
            right: left + 20.0,
            bottom: top + 24.0,
            active,
        };
        let first = piece(0.0, 0.0, false);
        assert!(first.joins(&piece(22.0, 0.0, false)));
        assert!(!first.joins(&piece(22.0, 0.0, true)), "another state");
        assert!(!first.joins(&piece(0.0, 30.0, false)), "the next row");
        assert!(!piece(22.0, 0.0, false).joins(&first), "a lane to its left");
    }

    #[test]
    fn a_snapped_rectangle_has_its_edges_on_device_pixels() {
        let r = Rect {
            x: 10.3,
            y: 4.6,
            w: 30.5,
            h: 20.2,
        };
        let at_one = r.snapped(1.0);
        assert_eq!(
            at_one,
            Rect {
                x: 10.0,
                y: 5.0,
                w: 31.0,
                h: 20.0
            }
        );
        let at_two = r.snapped(2.0);
        for edge in [at_two.x, at_two.y, at_two.right(), at_two.bottom()] {
            assert_eq!((edge * 2.0).fract(), 0.0, "{at_two:?}");
        }
        // Never more than half a device pixel from where it was.
        assert!((at_two.x - r.x).abs() <= 0.25 && (at_two.right() - r.right()).abs() <= 0.25);
    }

    #[test]
    fn a_moved_rectangle_keeps_its_size() {
        let r = Rect {
            x: 1.0,
            y: 2.0,
            w: 3.0,
            h: 4.0,
        };
        assert_eq!(
            r.moved(10.0, -2.0),
            Rect {
                x: 11.0,
                y: 0.0,
                w: 3.0,
                h: 4.0
            }
        );
    }
}
