//! A row of lanes as small cells (a divergence-stack frame's masks), drawn as one element: the
//! lanes that are on are runs of a gradient over the off colour, under a pattern of 1px gaps (one
//! tile per lane; the stylesheet sizes the tiles from `--lanes`). A frame shows up to three of
//! these; as 64 elements each they would be most of the stack's style, layout and paint work when
//! a frame is pushed or popped.

use wave_session::markup::escape_into;

/// Appends the strip of `lanes` (on or off) to `out`, as markup.
pub fn push_strip(out: &mut String, lanes: &[bool]) {
    out.push_str("<span class=\"strip\" aria-hidden=\"true\" style=\"--lanes: ");
    out.push_str(&lanes.len().to_string());
    out.push_str("; background-image: ");
    escape_into(out, &strip_background(lanes));
    out.push_str("\"></span>");
}

/// The CSS `background-image` of a strip: the gap tile on top, then a gradient with one
/// stop pair per run of lanes that are on (positions in % of the strip).
fn strip_background(lanes: &[bool]) -> String {
    const GAPS: &str =
        "linear-gradient(to right, transparent calc(100% - 1px), var(--strip-gap) 0)";
    let at = |lane: usize| {
        let percent = lane as f64 * 100.0 / lanes.len().max(1) as f64;
        format!("{}%", (percent * 1000.0).round() / 1000.0)
    };
    // Each run of lanes that are on, bracketed by transparent stops.
    let mut stops = vec!["transparent 0".to_string()];
    let mut lane = 0;
    while lane < lanes.len() {
        if !lanes[lane] {
            lane += 1;
            continue;
        }
        let from = at(lane);
        while lane < lanes.len() && lanes[lane] {
            lane += 1;
        }
        let to = at(lane);
        stops.push(format!("transparent {from}"));
        stops.push(format!("var(--active) {from} {to}"));
        stops.push(format!("transparent {to}"));
    }
    if stops.len() == 1 {
        stops.push("transparent 100%".to_string());
    }
    format!("{GAPS}, linear-gradient(to right, {})", stops.join(", "))
}

#[cfg(test)]
mod tests {
    use super::strip_background;

    #[test]
    fn a_strip_paints_each_run_of_lanes_that_are_on() {
        let off = strip_background(&[false; 4]);
        assert!(!off.contains("var(--active)"), "{off}");
        let one_run = strip_background(&[false, true, true, false]);
        assert!(
            one_run.ends_with(
                "linear-gradient(to right, transparent 0, transparent 25%, \
                 var(--active) 25% 75%, transparent 75%)"
            ),
            "{one_run}"
        );
        let two_runs = strip_background(&[true, false, false, true]);
        assert_eq!(two_runs.matches("var(--active)").count(), 2, "{two_runs}");
        assert!(two_runs.contains("var(--active) 0% 25%"));
        assert!(two_runs.contains("var(--active) 75% 100%"));
        let all = strip_background(&[true; 64]);
        assert!(all.contains("var(--active) 0% 100%"), "{all}");
        let third = strip_background(&[false, true, false]);
        assert!(third.contains("var(--active) 33.333% 66.667%"), "{third}");
    }
}
