//! Which part of a large table is in view: the rows and columns a virtualised view renders.
//!
//! The register table can hold 70 registers × 64 lanes; only the cells a scroll container shows
//! (plus a small margin, so a short scroll does not reveal empty space before the view catches
//! up) exist in the page. The geometry is fixed: every row has the same height and every column
//! the same width, so the visible range follows from the scroll offset alone.

use std::ops::Range;

/// One axis of a virtualised table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Axis {
    /// Items on this axis (rows or columns).
    pub count: usize,
    /// Size of one item in CSS pixels.
    pub item: f64,
    /// Scroll offset of the container on this axis, in CSS pixels, measured from the first item.
    pub scroll: f64,
    /// Visible size of the container on this axis for the items, in CSS pixels (0 when it has
    /// not been laid out yet).
    pub viewport: f64,
}

/// Items rendered beyond each edge of the viewport.
pub const OVERSCAN: usize = 4;
/// Items rendered when the viewport's size is not known yet (not laid out, or hidden).
pub const UNMEASURED_ITEMS: usize = 24;

impl Axis {
    /// The items to render: those at least partly in view, `OVERSCAN` more on each side, all
    /// clamped to `0..count`. Never empty while `count > 0`, whatever the (possibly stale or
    /// nonsensical) scroll offset and size.
    pub fn visible(&self) -> Range<usize> {
        if self.count == 0 {
            return 0..0;
        }
        let item = if self.item.is_finite() && self.item > 0.0 {
            self.item
        } else {
            1.0
        };
        let scroll = if self.scroll.is_finite() {
            self.scroll.max(0.0)
        } else {
            0.0
        };
        let shown = if self.viewport.is_finite() && self.viewport > 0.0 {
            // Items at least partly inside [scroll, scroll + viewport).
            (((scroll + self.viewport) / item).ceil() as usize)
                .saturating_sub((scroll / item).floor() as usize)
        } else {
            UNMEASURED_ITEMS
        };
        let first = ((scroll / item).floor() as usize).min(self.count - 1);
        let start = first.saturating_sub(OVERSCAN);
        let end = first
            .saturating_add(shown)
            .saturating_add(OVERSCAN)
            .min(self.count);
        start..end.max(start + 1)
    }

    /// The scroll offset that shows item `index` whole, or `None` when it is in view already.
    /// The items start `lead` px into the scrolled content, and the same `lead` px at the start
    /// of the viewport are covered (the register table's sticky register column), so an item is
    /// in view when it lies within `[scroll + lead, scroll + viewport)`. Scrolls as little as
    /// possible; an item larger than the space left is aligned at its start. `None` as well when
    /// the geometry is unknown (not laid out) or `index` is outside the axis.
    pub fn scroll_to_show(&self, index: usize, lead: f64) -> Option<f64> {
        let finite = [self.item, self.scroll, self.viewport, lead];
        if index >= self.count
            || finite.iter().any(|x| !x.is_finite())
            || self.item <= 0.0
            || self.viewport <= 0.0
        {
            return None;
        }
        let lead = lead.max(0.0);
        let start = lead + index as f64 * self.item;
        let end = start + self.item;
        let room = (self.viewport - lead).max(0.0);
        let first = self.scroll + lead;
        if start >= first && end <= first + room {
            return None;
        }
        let target = if start < first || self.item > room {
            start - lead
        } else {
            end - self.viewport
        };
        Some(target.max(0.0))
    }
}

/// The rows and columns of a table to render.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TableWindow {
    pub rows: Range<usize>,
    pub columns: Range<usize>,
}

impl TableWindow {
    pub fn new(rows: Axis, columns: Axis) -> TableWindow {
        TableWindow {
            rows: rows.visible(),
            columns: columns.visible(),
        }
    }
}

/// A box on the page in CSS pixels (a `DOMRect`'s edges).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Rect {
    pub left: f64,
    pub top: f64,
    pub right: f64,
    pub bottom: f64,
}

impl Rect {
    /// Whether any of `self` is left once cut by every box in `clips` (the window's viewport and
    /// the scroll containers around it): a table that is not, shows none of its cells, and may
    /// leave them as they are until it is. A box of no area counts as unseen; so does any
    /// nonsensical (non-finite) geometry, which a box that is not laid out has not.
    pub fn seen_through(&self, clips: &[Rect]) -> bool {
        // `f64::max` and `min` pass over a NaN, so nonsense is turned away first.
        let finite = |r: &Rect| {
            [r.left, r.top, r.right, r.bottom]
                .iter()
                .all(|x| x.is_finite())
        };
        if !finite(self) || !clips.iter().all(finite) {
            return false;
        }
        let mut seen = *self;
        for clip in clips {
            seen.left = seen.left.max(clip.left);
            seen.top = seen.top.max(clip.top);
            seen.right = seen.right.min(clip.right);
            seen.bottom = seen.bottom.min(clip.bottom);
        }
        seen.right > seen.left && seen.bottom > seen.top
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(left: f64, top: f64, right: f64, bottom: f64) -> Rect {
        Rect {
            left,
            top,
            right,
            bottom,
        }
    }

    #[test]
    fn a_box_inside_every_clip_is_seen() {
        let table = rect(10.0, 470.0, 600.0, 690.0);
        let pane = rect(0.0, 80.0, 700.0, 672.0);
        let window = rect(0.0, 0.0, 1400.0, 900.0);
        assert!(table.seen_through(&[pane, window]));
        assert!(table.seen_through(&[]));
    }

    #[test]
    fn a_box_scrolled_below_its_pane_is_not_seen_even_inside_the_window() {
        // The benchmark's layout with two stack frames: the table starts 8 px below the pane.
        let table = rect(10.0, 680.0, 600.0, 900.0);
        let pane = rect(0.0, 80.0, 700.0, 672.0);
        let window = rect(0.0, 0.0, 1400.0, 900.0);
        assert!(!table.seen_through(&[pane, window]));
        // Three pixels of it in the pane are enough to be seen.
        let table = rect(10.0, 669.0, 600.0, 889.0);
        assert!(table.seen_through(&[pane, window]));
    }

    #[test]
    fn touching_edges_and_empty_or_nonsense_boxes_are_not_seen() {
        let pane = rect(0.0, 0.0, 100.0, 100.0);
        assert!(!rect(0.0, 100.0, 100.0, 200.0).seen_through(&[pane]));
        assert!(!rect(100.0, 0.0, 200.0, 100.0).seen_through(&[pane]));
        assert!(!rect(10.0, 10.0, 10.0, 50.0).seen_through(&[pane]));
        assert!(!rect(f64::NAN, 0.0, 50.0, 50.0).seen_through(&[pane]));
        assert!(!rect(0.0, 0.0, 50.0, 50.0).seen_through(&[rect(0.0, f64::NAN, 9.0, 9.0)]));
        // Clips that do not overlap each other leave nothing, wherever the box is.
        let left = rect(0.0, 0.0, 50.0, 100.0);
        let right = rect(60.0, 0.0, 100.0, 100.0);
        assert!(!pane.seen_through(&[left, right]));
    }

    fn axis(count: usize, scroll: f64, viewport: f64) -> Axis {
        Axis {
            count,
            item: 20.0,
            scroll,
            viewport,
        }
    }

    #[test]
    fn at_the_top_the_visible_items_and_the_margin_after_them() {
        // 100 px show items 0..5; four more below.
        assert_eq!(axis(70, 0.0, 100.0).visible(), 0..9);
    }

    #[test]
    fn in_the_middle_a_margin_on_both_sides() {
        // 410..510 px: item 20 (400..420) to item 25 (500..520).
        assert_eq!(axis(70, 410.0, 100.0).visible(), 16..30);
        // Exactly on an item boundary: 400..500 is items 20..25.
        assert_eq!(axis(70, 400.0, 100.0).visible(), 16..29);
    }

    #[test]
    fn at_the_end_clamped_to_the_items() {
        assert_eq!(axis(70, 1300.0, 100.0).visible(), 61..70);
        // A scroll offset past the end (the table just shrank) still shows its last items.
        assert_eq!(axis(10, 5000.0, 100.0).visible(), 5..10);
    }

    #[test]
    fn a_small_table_is_rendered_whole() {
        assert_eq!(axis(10, 0.0, 400.0).visible(), 0..10);
        assert_eq!(axis(1, 0.0, 400.0).visible(), 0..1);
    }

    #[test]
    fn no_items_no_range() {
        assert_eq!(axis(0, 0.0, 100.0).visible(), 0..0);
        assert_eq!(axis(0, f64::NAN, f64::NAN).visible(), 0..0);
    }

    #[test]
    fn an_unmeasured_viewport_shows_a_fixed_number_of_items() {
        assert_eq!(axis(70, 0.0, 0.0).visible(), 0..UNMEASURED_ITEMS + OVERSCAN);
        assert_eq!(axis(8, 0.0, 0.0).visible(), 0..8);
    }

    #[test]
    fn nonsense_geometry_never_panics_and_never_renders_nothing() {
        for scroll in [f64::NAN, f64::INFINITY, -50.0, -f64::INFINITY, 1e300] {
            for viewport in [f64::NAN, f64::INFINITY, -1.0, 0.0, 1e300] {
                for item in [f64::NAN, 0.0, -3.0, 1e-300, 20.0] {
                    let a = Axis {
                        count: 64,
                        item,
                        scroll,
                        viewport,
                    };
                    let r = a.visible();
                    assert!(r.start < r.end && r.end <= 64, "{a:?} gave {r:?}");
                }
            }
        }
    }

    /// 64 lanes of 30 px after a 40 px sticky column, in a 340 px viewport.
    fn lanes(scroll: f64) -> Axis {
        Axis {
            count: 64,
            item: 30.0,
            scroll,
            viewport: 340.0,
        }
    }

    #[test]
    fn an_item_in_view_needs_no_scroll() {
        // Lanes 0..10 fill 40..340: lane 9 ends exactly at the right edge.
        assert_eq!(lanes(0.0).scroll_to_show(0, 40.0), None);
        assert_eq!(lanes(0.0).scroll_to_show(9, 40.0), None);
        assert_eq!(lanes(300.0).scroll_to_show(15, 40.0), None);
    }

    #[test]
    fn an_item_to_the_right_scrolls_just_enough_to_end_at_the_edge() {
        // Lane 10 is 340..370: scroll by 30.
        assert_eq!(lanes(0.0).scroll_to_show(10, 40.0), Some(30.0));
        // The last lane ends the content (40 + 64 * 30 = 1960).
        assert_eq!(lanes(0.0).scroll_to_show(63, 40.0), Some(1960.0 - 340.0));
    }

    #[test]
    fn an_item_to_the_left_or_under_the_sticky_column_comes_out_beside_it() {
        // Scrolled to 300: lane 9 (310..340) hides under the sticky column (300..340).
        assert_eq!(lanes(300.0).scroll_to_show(9, 40.0), Some(270.0));
        // Partly hidden counts as hidden.
        assert_eq!(lanes(285.0).scroll_to_show(9, 40.0), Some(270.0));
        assert_eq!(lanes(1620.0).scroll_to_show(0, 40.0), Some(0.0));
    }

    #[test]
    fn an_item_wider_than_the_room_is_aligned_at_its_start() {
        let narrow = Axis {
            viewport: 50.0,
            ..lanes(0.0)
        };
        assert_eq!(narrow.scroll_to_show(3, 40.0), Some(90.0));
        assert_eq!(narrow.scroll_to_show(0, 40.0), Some(0.0));
    }

    #[test]
    fn unknown_geometry_or_a_missing_item_never_scrolls() {
        assert_eq!(lanes(0.0).scroll_to_show(64, 40.0), None);
        for bad in [f64::NAN, f64::INFINITY, 0.0, -5.0] {
            let unmeasured = Axis {
                viewport: bad,
                ..lanes(0.0)
            };
            assert_eq!(unmeasured.scroll_to_show(20, 40.0), None, "viewport {bad}");
            let no_item = Axis {
                item: bad,
                ..lanes(0.0)
            };
            assert_eq!(no_item.scroll_to_show(20, 40.0), None, "item {bad}");
        }
        assert_eq!(lanes(f64::NAN).scroll_to_show(20, 40.0), None);
        assert_eq!(lanes(0.0).scroll_to_show(20, f64::NAN), None);
    }

    #[test]
    fn a_window_has_both_axes() {
        let window = TableWindow::new(axis(70, 200.0, 100.0), axis(64, 0.0, 60.0));
        assert_eq!(window.rows, 6..19);
        assert_eq!(window.columns, 0..7);
    }
}
