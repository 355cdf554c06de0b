//! A lesson's prose as HTML that cannot do anything: Markdown read by `pulldown-cmark`, written
//! out here element by element, so that only the elements listed below can ever appear.
//!
//! Raw HTML in the Markdown is shown as the text it is. A link keeps its target only when the
//! target is a web address (`http:`, `https:`), a mail address (`mailto:`), or a path or fragment
//! of the page's own site; any other scheme (`javascript:`, `data:`, `vbscript:`, …) leaves its
//! words as plain text. An image shows only when it comes from the pack's own site or is a
//! `data:image/…` picture in a raster format; otherwise its alt text stands in. A pack fetched
//! from an address has that address's site (relative images are read from beside the pack); a
//! pack from a file or a link has none, so only its `data:` pictures show.

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Tag, TagEnd};

use super::PackAddress;
use crate::markup::escape_into;

/// Writes `events` (prose only: the pack's structure is already taken out) as inert HTML.
pub(crate) fn render<'a>(
    events: impl IntoIterator<Item = Event<'a>>,
    address: Option<&PackAddress>,
) -> String {
    let mut out = String::new();
    // For each open link or image: what its end tag writes (nothing for a refused link).
    let mut closers: Vec<&'static str> = Vec::new();
    // Inside an image, its alt text is gathered instead of written.
    let mut alt: Option<(String, String)> = None;
    let mut image_depth = 0usize;
    for event in events {
        if image_depth > 0 {
            match event {
                Event::Start(Tag::Image { .. }) => image_depth += 1,
                Event::End(TagEnd::Image) => {
                    image_depth -= 1;
                    if image_depth == 0 {
                        if let Some((src, text)) = alt.take() {
                            write_image(&mut out, &src, &text, address);
                        }
                    }
                }
                Event::Text(text) | Event::Code(text) => {
                    if let Some((_, gathered)) = alt.as_mut() {
                        gathered.push_str(&text);
                    }
                }
                _ => {}
            }
            continue;
        }
        match event {
            Event::Start(tag) => start(&mut out, tag, &mut closers, &mut alt, &mut image_depth),
            Event::End(tag) => end(&mut out, tag, &mut closers),
            Event::Text(text) => escape_into(&mut out, &text),
            Event::Code(text) => {
                out.push_str("<code>");
                escape_into(&mut out, &text);
                out.push_str("</code>");
            }
            // Raw HTML is shown as text, never interpreted.
            Event::Html(text) | Event::InlineHtml(text) => escape_into(&mut out, &text),
            Event::InlineMath(text) | Event::DisplayMath(text) => escape_into(&mut out, &text),
            Event::FootnoteReference(name) => {
                out.push('[');
                escape_into(&mut out, &name);
                out.push(']');
            }
            Event::SoftBreak => out.push('\n'),
            Event::HardBreak => out.push_str("<br>\n"),
            Event::Rule => out.push_str("<hr>\n"),
            Event::TaskListMarker(done) => out.push_str(if done { "[x] " } else { "[ ] " }),
        }
    }
    out
}

fn start<'a>(
    out: &mut String,
    tag: Tag<'a>,
    closers: &mut Vec<&'static str>,
    alt: &mut Option<(String, String)>,
    image_depth: &mut usize,
) {
    match tag {
        Tag::Paragraph => out.push_str("<p>"),
        Tag::Heading { level, .. } => {
            out.push_str("<h");
            out.push(heading_digit(level));
            out.push('>');
        }
        Tag::BlockQuote(_) => out.push_str("<blockquote>\n"),
        Tag::CodeBlock(kind) => {
            out.push_str("<pre><code");
            if let CodeBlockKind::Fenced(info) = kind {
                let language: String = info
                    .split_whitespace()
                    .next()
                    .unwrap_or_default()
                    .chars()
                    .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
                    .collect();
                if !language.is_empty() {
                    out.push_str(" class=\"language-");
                    out.push_str(&language);
                    out.push('"');
                }
            }
            out.push('>');
        }
        Tag::List(Some(1)) => out.push_str("<ol>\n"),
        Tag::List(Some(first)) => out.push_str(&format!("<ol start=\"{first}\">\n")),
        Tag::List(None) => out.push_str("<ul>\n"),
        Tag::Item => out.push_str("<li>"),
        Tag::Emphasis => out.push_str("<em>"),
        Tag::Strong => out.push_str("<strong>"),
        Tag::Strikethrough => out.push_str("<del>"),
        Tag::Superscript => out.push_str("<sup>"),
        Tag::Subscript => out.push_str("<sub>"),
        Tag::Link {
            dest_url, title, ..
        } => match safe_link(&dest_url) {
            Some(href) => {
                out.push_str("<a href=\"");
                escape_into(out, &href);
                out.push('"');
                if !title.is_empty() {
                    out.push_str(" title=\"");
                    escape_into(out, &title);
                    out.push('"');
                }
                // A link leaves the work open: it opens beside the page, not in its place.
                out.push_str(" target=\"_blank\" rel=\"noopener noreferrer\">");
                closers.push("</a>");
            }
            None => closers.push(""),
        },
        Tag::Image { dest_url, .. } => {
            *image_depth = 1;
            *alt = Some((dest_url.to_string(), String::new()));
        }
        // Tables, footnotes, definition lists and metadata are not enabled; should one appear,
        // its content is still written as text inside a plain block.
        Tag::HtmlBlock
        | Tag::FootnoteDefinition(_)
        | Tag::DefinitionList
        | Tag::DefinitionListTitle
        | Tag::DefinitionListDefinition
        | Tag::Table(_)
        | Tag::TableHead
        | Tag::TableRow
        | Tag::TableCell
        | Tag::MetadataBlock(_) => {}
    }
}

fn end(out: &mut String, tag: TagEnd, closers: &mut Vec<&'static str>) {
    match tag {
        TagEnd::Paragraph => out.push_str("</p>\n"),
        TagEnd::Heading(level) => {
            out.push_str("</h");
            out.push(heading_digit(level));
            out.push_str(">\n");
        }
        TagEnd::BlockQuote(_) => out.push_str("</blockquote>\n"),
        TagEnd::CodeBlock => out.push_str("</code></pre>\n"),
        TagEnd::List(true) => out.push_str("</ol>\n"),
        TagEnd::List(false) => out.push_str("</ul>\n"),
        TagEnd::Item => out.push_str("</li>\n"),
        TagEnd::Emphasis => out.push_str("</em>"),
        TagEnd::Strong => out.push_str("</strong>"),
        TagEnd::Strikethrough => out.push_str("</del>"),
        TagEnd::Superscript => out.push_str("</sup>"),
        TagEnd::Subscript => out.push_str("</sub>"),
        TagEnd::Link => out.push_str(closers.pop().unwrap_or_default()),
        TagEnd::Image
        | TagEnd::HtmlBlock
        | TagEnd::FootnoteDefinition
        | TagEnd::DefinitionList
        | TagEnd::DefinitionListTitle
        | TagEnd::DefinitionListDefinition
        | TagEnd::Table
        | TagEnd::TableHead
        | TagEnd::TableRow
        | TagEnd::TableCell
        | TagEnd::MetadataBlock(_) => {}
    }
}

fn heading_digit(level: HeadingLevel) -> char {
    match level {
        HeadingLevel::H1 => '1',
        HeadingLevel::H2 => '2',
        HeadingLevel::H3 => '3',
        HeadingLevel::H4 => '4',
        HeadingLevel::H5 => '5',
        HeadingLevel::H6 => '6',
    }
}

fn write_image(out: &mut String, src: &str, alt: &str, address: Option<&PackAddress>) {
    match image_source(src, address) {
        Some(source) => {
            out.push_str("<img src=\"");
            escape_into(out, &source);
            out.push_str("\" alt=\"");
            escape_into(out, alt);
            out.push_str("\">");
        }
        None => escape_into(out, alt),
    }
}

/// The address as a browser reads it: without the whitespace and control characters it skips
/// (`java\tscript:` is `javascript:` to it).
fn as_browser_reads(url: &str) -> String {
    url.chars()
        .filter(|c| !c.is_ascii_whitespace() && !c.is_control())
        .collect()
}

/// The scheme of `url` (`http`, `javascript`, …) in lower case, or `None` for a relative address.
fn scheme(url: &str) -> Option<String> {
    let colon = url.find(':')?;
    let before = &url[..colon];
    let is_scheme = before.starts_with(|c: char| c.is_ascii_alphabetic())
        && before
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    // A colon after a slash, `?` or `#` belongs to a path, query or fragment.
    is_scheme.then(|| before.to_ascii_lowercase())
}

/// The link target to write, or `None` when the link must stay plain text.
fn safe_link(url: &str) -> Option<String> {
    let read = as_browser_reads(url);
    match scheme(&read).as_deref() {
        None | Some("http" | "https" | "mailto") => Some(read),
        Some(_) => None,
    }
}

/// The address to load an image from, or `None` when it must not load: images come from the
/// pack's own site or are pictures written into the pack.
fn image_source(url: &str, address: Option<&PackAddress>) -> Option<String> {
    let read = as_browser_reads(url);
    match scheme(&read).as_deref() {
        // `//host/…` and `\\host` (which a browser reads as `//host`) name another site.
        None if read.starts_with("//") || read.contains('\\') => None,
        None => address.map(|address| address.resolve(&read)),
        Some("http" | "https") => address
            .filter(|a| a.holds(&read) && !read.contains('\\'))
            .map(|_| read.clone()),
        Some("data") => {
            let lower = read.to_ascii_lowercase();
            ["png", "gif", "jpeg", "jpg", "webp"]
                .iter()
                .any(|kind| lower.starts_with(&format!("data:image/{kind};")))
                .then_some(read)
        }
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::{image_source, safe_link};
    use crate::pack::PackAddress;

    fn safe_image(url: &str) -> bool {
        image_source(url, None).is_some()
    }

    #[test]
    fn links_keep_web_mail_and_relative_targets_only() {
        for good in [
            "https://example.org/a",
            "HTTP://x",
            "mailto:a@b.c",
            "next.md",
            "#top",
            "/docs/a?b=c:d",
        ] {
            assert!(safe_link(good).is_some(), "{good}");
        }
        for bad in [
            "javascript:alert(1)",
            "JaVaScRiPt:alert(1)",
            " java\tscript:alert(1)",
            "java\nscript:x",
            "vbscript:x",
            "data:text/html,<script>",
            "file:///etc/passwd",
        ] {
            assert!(safe_link(bad).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn images_come_from_the_site_or_the_pack_itself() {
        assert!(safe_image("data:image/png;base64,AAAA"));
        for bad in [
            // A pack from a file or a link has no site of its own to read a relative image from.
            "pictures/mask.png",
            "/mask.png",
            "https://tracker.example/p.gif",
            "//tracker.example/p.gif",
            "/\\tracker.example/p.gif",
            "data:image/svg+xml;base64,AAAA",
            "data:text/html,x",
            "javascript:alert(1)",
        ] {
            assert!(!safe_image(bad), "{bad}");
        }
    }

    #[test]
    fn a_fetched_pack_s_images_come_from_beside_it_or_its_own_site() {
        let home = PackAddress::parse("https://courses.example/gpu/pack.md").expect("an address");
        let from = |url: &str| image_source(url, Some(&home));
        assert_eq!(
            from("mask.png").as_deref(),
            Some("https://courses.example/gpu/mask.png")
        );
        assert_eq!(
            from("/top.png").as_deref(),
            Some("https://courses.example/top.png")
        );
        assert_eq!(
            from("https://courses.example/fig/1.png").as_deref(),
            Some("https://courses.example/fig/1.png")
        );
        assert_eq!(
            from("data:image/gif;base64,AAAA").as_deref(),
            Some("data:image/gif;base64,AAAA")
        );
        for bad in [
            "https://tracker.example/p.gif",
            "https://courses.example.tracker.example/p.gif",
            "https://courses.example@tracker.example/p.gif",
            "//tracker.example/p.gif",
            "javascript:alert(1)",
        ] {
            assert_eq!(from(bad), None, "{bad}");
        }
        // A pack from a file or a link has no site of its own: only its data: pictures show.
        assert_eq!(image_source("fig/1.png", None), None);
        assert_eq!(
            image_source("https://courses.example/fig/1.png", None),
            None
        );
    }
}
