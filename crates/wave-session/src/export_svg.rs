//! "Download SVG": the moment on show as one standalone SVG picture for slides and handouts:
//! the source lines around the selected wave's line, its lanes with their states, the
//! divergence stack with its masks, the status and the step caption. Standard font families
//! only, and every colour written out, so it reads the same anywhere; light or dark.

use std::fmt::Write;

use crate::markup::escape_into;
use crate::shown::Shown;

/// The colours of one theme.
pub(crate) struct Palette {
    pub(crate) background: &'static str,
    pub(crate) panel: &'static str,
    pub(crate) edge: &'static str,
    pub(crate) text: &'static str,
    pub(crate) muted: &'static str,
    pub(crate) accent: &'static str,
    pub(crate) current_line: &'static str,
    pub(crate) active: &'static str,
    pub(crate) active_soft: &'static str,
    pub(crate) inactive: &'static str,
    /// Lanes that left a loop (the timeline's colour for them).
    pub(crate) warning: &'static str,
}

pub(crate) const LIGHT: Palette = Palette {
    background: "#ffffff",
    panel: "#f6f8fa",
    edge: "#d5dae2",
    text: "#1b1f27",
    muted: "#5b6472",
    accent: "#1d4ed8",
    current_line: "#e5eeff",
    active: "#0f9d58",
    active_soft: "#d5f5e3",
    inactive: "#9aa3b2",
    warning: "#b26a00",
};

pub(crate) const DARK: Palette = Palette {
    background: "#0d1016",
    panel: "#151a22",
    edge: "#2a3340",
    text: "#e6e9ef",
    muted: "#9aa4b5",
    accent: "#6d9bff",
    current_line: "#1e2a44",
    active: "#34d399",
    active_soft: "#0f3b2b",
    inactive: "#6b7586",
    warning: "#f0b44c",
};

const WIDTH: u32 = 960;
pub(crate) const MONO: &str = "DejaVu Sans Mono, Menlo, Consolas, monospace";
pub(crate) const SANS: &str = "DejaVu Sans, Helvetica, Arial, sans-serif";
/// Source lines shown above and below the selected wave's line.
const CONTEXT_LINES: u32 = 6;
const LINE_HEIGHT: u32 = 18;
/// Lanes per row of the lanes grid.
const LANES_PER_ROW: u32 = 16;
/// Characters per line of the wrapped caption.
const CAPTION_CHARS: usize = 110;

/// Text as XML or HTML character data, or as an attribute value in double quotes
/// ([`escape_into`]); control characters other than tabs are dropped (XML cannot hold them).
pub(crate) fn escape(text: &str) -> String {
    let kept: String = text
        .chars()
        .filter(|&c| !c.is_control() || c == '\t')
        .collect();
    let mut out = String::with_capacity(kept.len());
    escape_into(&mut out, &kept);
    out
}

/// Words of `text` in lines of at most `width` characters.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split_whitespace() {
        let last = lines.last_mut().expect("one line at least");
        if !last.is_empty() && last.chars().count() + 1 + word.chars().count() > width {
            lines.push(word.to_string());
        } else {
            if !last.is_empty() {
                last.push(' ');
            }
            last.push_str(word);
        }
    }
    lines
}

impl Shown<'_> {
    /// The moment on show as a standalone SVG document.
    pub(crate) fn moment_svg(&self, dark: bool) -> String {
        let p = if dark { &DARK } else { &LIGHT };
        let mut body = String::new();
        let mut y = 28u32;
        let title = format!(
            "WAVE Playground · {} · step {}",
            self.kernel().map_or("no kernel", |k| k.name.as_str()),
            self.step_count()
        );
        let _ = write!(
            body,
            r#"<text x="20" y="{y}" font-family="{SANS}" font-size="16" font-weight="bold" fill="{}">{}</text>"#,
            p.text,
            escape(&title)
        );
        y += 24;
        let _ = write!(
            body,
            r#"<text x="20" y="{y}" font-family="{MONO}" font-size="13" fill="{}">{}</text>"#,
            p.muted,
            escape(&self.status_text())
        );
        y += 14;

        // The source around the selected wave's line.
        let current = self.current_line();
        let source: Vec<&str> = self.build.source().lines().collect();
        let centre = current.unwrap_or(1);
        let first = centre.saturating_sub(CONTEXT_LINES).max(1);
        let last = (centre + CONTEXT_LINES).min(source.len() as u32);
        let box_height = (last + 1 - first) * LINE_HEIGHT + 12;
        let _ = write!(
            body,
            r#"<rect x="16" y="{y}" width="{}" height="{box_height}" rx="6" fill="{}" stroke="{}"/>"#,
            WIDTH - 32,
            p.panel,
            p.edge
        );
        let mut line_y = y + 6;
        for number in first..=last {
            if Some(number) == current {
                let _ = write!(
                    body,
                    r#"<rect x="17" y="{line_y}" width="{}" height="{LINE_HEIGHT}" fill="{}"/><rect x="17" y="{line_y}" width="3" height="{LINE_HEIGHT}" fill="{}"/>"#,
                    WIDTH - 34,
                    p.current_line,
                    p.accent
                );
            }
            let text = source.get(number as usize - 1).copied().unwrap_or("");
            let _ = write!(
                body,
                r#"<text x="56" y="{}" font-family="{MONO}" font-size="13" fill="{}" text-anchor="end">{number}</text><text x="68" y="{}" font-family="{MONO}" font-size="13" fill="{}" xml:space="preserve">{}</text>"#,
                line_y + 13,
                p.muted,
                line_y + 13,
                p.text,
                escape(&text.replace('\t', "    "))
            );
            line_y += LINE_HEIGHT;
        }
        y += box_height + 26;

        // The lanes.
        let lanes = self.lanes();
        let _ = write!(
            body,
            r#"<text x="20" y="{y}" font-family="{SANS}" font-size="12" font-weight="bold" fill="{}">LANES · {} of {} active</text>"#,
            p.muted,
            lanes.iter().filter(|l| l.active).count(),
            lanes.len()
        );
        y += 10;
        let cell = (WIDTH - 40) / LANES_PER_ROW;
        for lane in &lanes {
            let column = lane.lane % LANES_PER_ROW;
            let row = lane.lane / LANES_PER_ROW;
            let x = 20 + column * cell;
            let top = y + row * 46;
            let (fill, stroke) = if lane.active {
                (p.active_soft, p.active)
            } else {
                (p.panel, p.inactive)
            };
            let dot = if lane.active { p.active } else { "none" };
            let _ = write!(
                body,
                r#"<g><title>{}</title><rect x="{x}" y="{top}" width="{}" height="38" rx="5" fill="{fill}" stroke="{stroke}"/><circle cx="{}" cy="{}" r="5" fill="{dot}" stroke="{stroke}" stroke-width="1.5"/><text x="{}" y="{}" font-family="{MONO}" font-size="11" fill="{}" text-anchor="middle">{}</text></g>"#,
                escape(&lane.aria_label),
                cell - 6,
                x + (cell - 6) / 2,
                top + 12,
                x + (cell - 6) / 2,
                top + 31,
                p.text,
                lane.lane
            );
        }
        let rows = (lanes.len() as u32).div_ceil(LANES_PER_ROW).max(1);
        y += rows * 46 + 22;

        // The divergence stack.
        let frames = self.stack();
        let _ = write!(
            body,
            r#"<text x="20" y="{y}" font-family="{SANS}" font-size="12" font-weight="bold" fill="{}">DIVERGENCE STACK · depth {}</text>"#,
            p.muted,
            frames.len()
        );
        y += 10;
        if frames.is_empty() {
            y += 14;
            let _ = write!(
                body,
                r#"<text x="20" y="{y}" font-family="{SANS}" font-size="13" fill="{}">No frame: every present lane runs together.</text>"#,
                p.muted
            );
            y += 12;
        }
        for frame in &frames {
            let height = 22 + 16 * frame.masks.len() as u32;
            let _ = write!(
                body,
                r#"<rect x="20" y="{y}" width="{}" height="{height}" rx="5" fill="{}" stroke="{}"/><rect x="20" y="{y}" width="3" height="{height}" fill="{}"/><text x="30" y="{}" font-family="{SANS}" font-size="13" fill="{}"><tspan font-weight="bold">{}</tspan> line {} · reconverges at line {}</text>"#,
                WIDTH - 40,
                p.panel,
                p.edge,
                p.accent,
                y + 16,
                p.text,
                frame.kind,
                frame.line,
                frame.reconverge_line
            );
            for (i, mask) in frame.masks.iter().enumerate() {
                let row_y = y + 24 + 16 * i as u32;
                let _ = write!(
                    body,
                    r#"<text x="30" y="{}" font-family="{MONO}" font-size="11" fill="{}">{}</text>"#,
                    row_y + 10,
                    p.muted,
                    mask.name
                );
                let square = (520 / mask.lanes.len().max(1) as u32).clamp(4, 12);
                for (lane, on) in mask.lanes.iter().enumerate() {
                    let fill = if *on { p.active } else { p.edge };
                    let _ = write!(
                        body,
                        r#"<rect x="{}" y="{}" width="{}" height="11" fill="{fill}"/>"#,
                        100 + lane as u32 * square,
                        row_y + 1,
                        square - 1
                    );
                }
                let _ = write!(
                    body,
                    r#"<text x="{}" y="{}" font-family="{MONO}" font-size="11" fill="{}">{}</text>"#,
                    110 + mask.lanes.len() as u32 * square,
                    row_y + 10,
                    p.text,
                    escape(&mask.text)
                );
            }
            y += height + 6;
        }
        y += 16;

        // The caption.
        for line in wrap(&self.caption().text(), CAPTION_CHARS) {
            let _ = write!(
                body,
                r#"<text x="20" y="{y}" font-family="{SANS}" font-size="14" fill="{}">{}</text>"#,
                p.text,
                escape(&line)
            );
            y += 19;
        }
        let height = y + 10;
        format!(
            r#"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" role="img"><title>{}</title><rect width="100%" height="100%" fill="{}"/>{body}</svg>
"#,
            escape(&title),
            p.background
        )
    }
}
