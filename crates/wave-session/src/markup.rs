//! Text made safe to write into HTML, for the pack reader's inert HTML and the page's views
//! that write their content as markup.

/// Appends `text` with every character that could open markup or end an attribute escaped.
pub fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
}
