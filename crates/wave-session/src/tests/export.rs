//! The SVG of a moment: well-formed, complete, small, in both themes.

use super::{lesson, session, step_to_line_starting};

/// Checks that every element is closed in order (the SVG has no comments, CDATA or doctype).
fn assert_well_formed(svg: &str) {
    let mut open: Vec<&str> = Vec::new();
    let mut rest = svg.trim_start_matches(|c| c != '<');
    if rest.starts_with("<?xml") {
        rest = &rest[rest.find("?>").expect("end of the declaration") + 2..];
    }
    while let Some(start) = rest.find('<') {
        let end = start + rest[start..].find('>').expect("a tag ends");
        let tag = &rest[start + 1..end];
        assert!(!rest[..start].contains('>'), "stray > before {tag}");
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(open.pop(), Some(name), "closing {name}");
        } else if !tag.ends_with('/') {
            open.push(tag.split_whitespace().next().expect("a name"));
        }
        rest = &rest[end + 1..];
    }
    assert!(open.is_empty(), "left open: {open:?}");
}

#[test]
fn a_64_lane_moment_is_one_small_well_formed_picture_of_everything_on_show() {
    let mut s = lesson("break-in-if");
    let mut form = s.form().clone();
    form.workgroup = "64,1,1".to_string();
    form.wave_width = "64".to_string();
    s.set_form(form);
    step_to_line_starting(&mut s, "break p1");
    let light = s.moment_svg(false);
    let dark = s.moment_svg(true);
    for svg in [&light, &dark] {
        assert_well_formed(svg);
        assert!(svg.len() < 200_000, "{} bytes", svg.len());
        assert_eq!(svg.matches("<circle").count(), 64, "a dot per lane");
        assert!(svg.contains("LANES · 1 of 64 active"));
        assert!(svg.contains("DIVERGENCE STACK · depth 2"));
        assert!(svg.contains("paused at line 13"));
        assert!(
            svg.contains("break p1"),
            "the source around the current line"
        );
        assert!(
            svg.contains(">`if p1` at line 12: lane 0 takes the if side;"),
            "the caption"
        );
        assert!(
            svg.contains(
                "<title>Lane 5: inactive: not taken: the if at line 12 has no else</title>"
            ),
            "each lane's state in words"
        );
    }
    assert!(light.contains(r##"fill="#ffffff""##) && dark.contains(r##"fill="#0d1016""##));
    assert_ne!(light, dark);
}

#[test]
fn source_text_is_escaped() {
    let source = ".kernel escapes\n    mov_imm r1, 1 ; a < b && \"c\" > d\n    halt\n.end\n";
    let s = session(source, 4, 4);
    let svg = s.moment_svg(false);
    assert_well_formed(&svg);
    assert!(
        svg.contains("; a &lt; b &amp;&amp; &quot;c&quot; &gt; d"),
        "{svg}"
    );
}

#[test]
fn a_64_lane_timeline_is_one_small_well_formed_picture_of_the_range() {
    let mut s = lesson("break-in-if");
    let mut form = s.form().clone();
    form.workgroup = "64,1,1".to_string();
    form.wave_width = "64".to_string();
    s.set_form(form);
    s.run_all();
    let end = s.step_count();
    assert!(end > 10 && end <= crate::MAX_PICTURE_STEPS, "{end}");
    step_back_to(&mut s, end / 2);
    let picture = s.moment_svg(false);
    for dark in [false, true] {
        let svg = s.timeline_svg(0, end, dark).expect("a picture");
        assert_well_formed(&svg);
        assert!(svg.len() < 200_000, "{} bytes", svg.len());
        assert!(svg.contains(&format!("timeline of steps 0–{end}")));
        assert!(svg.contains(&format!("{end} instructions of the wave")));
        assert!(svg.contains(">lane 56</text>"), "lane labels");
        assert!(svg.contains("<title>diverge at step"), "the event marks");
        assert!(svg.contains(">broke out of a loop</text>"), "the legend");
        assert!(svg.contains(">now</text>"), "where the machine stands");
        assert!(svg.contains("<desc>") && svg.contains("Events: "), "{svg}");
    }
    assert_eq!(s.step_count(), end / 2, "the machine stays where it stood");
    assert_eq!(s.moment_svg(false), picture);
}

#[test]
fn a_timeline_range_the_picture_cannot_show_gets_a_reason() {
    let mut s = lesson("break-in-if");
    s.run_all();
    let end = s.step_count();
    let refused =
        |s: &mut crate::Session, first, last| s.timeline_svg(first, last, false).unwrap_err();
    assert!(refused(&mut s, 5, 5).contains("holds no step"));
    assert!(refused(&mut s, 0, end + 1).contains(&format!("known up to step {end}")));
    let mut long = session(
        ".kernel long\n    mov_imm r0, 0\n    mov_imm r1, 3000\n    mov_imm r2, 1\n    loop\n        \
         iadd r0, r0, r2\n        icmp_ge p1, r0, r1\n        break p1\n    endloop\n    halt\n.end\n",
        1,
        1,
    );
    long.run_all();
    assert!(refused(&mut long, 0, 5000).contains("at most 4096 steps"));
    let svg = long
        .timeline_svg(1000, 5096, false)
        .expect("4096 steps fit");
    assert_well_formed(&svg);
    assert!(svg.contains("4096 instructions of the wave"));
}

/// Goes back (by time travel) to step `target`.
fn step_back_to(s: &mut crate::Session, target: u64) {
    assert!(s.go_to_step(target));
    assert_eq!(s.step_count(), target);
}
