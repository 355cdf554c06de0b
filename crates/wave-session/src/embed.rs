//! Embedding the playground in another page: the flags a link carries after its state
//! (`#v1.…&embed&readonly`), and the `<iframe>` snippet "Copy embed code" puts on the clipboard.

use crate::export_svg::escape;

/// How the page is shown, from the flags after the link's state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PageOptions {
    /// The compact layout for an `<iframe>`; the visitor's autosave is left alone.
    pub embed: bool,
    /// The kernel cannot be edited.
    pub read_only: bool,
}

/// Splits a URL hash (with or without its `#`) into the link's state and the page's flags.
/// Unknown flags are ignored, so a link made by a later version still opens.
pub fn split_page_hash(hash: &str) -> (&str, PageOptions) {
    let hash = hash.trim_start_matches('#');
    let mut parts = hash.split('&');
    let state = parts.next().unwrap_or("");
    let mut options = PageOptions::default();
    for flag in parts {
        match flag {
            "embed" => options.embed = true,
            "readonly" => options.read_only = true,
            _ => {}
        }
    }
    (state, options)
}

/// The hash of an embedded page showing `state` (a [`crate::Session::share_state`]).
pub fn embed_hash(state: &str, read_only: bool) -> String {
    let mut hash = format!("{state}&embed");
    if read_only {
        hash.push_str("&readonly");
    }
    hash
}

/// A ready `<iframe>` for a course page: `page` is the playground's address without its hash.
pub fn embed_code(page: &str, state: &str, title: &str, read_only: bool) -> String {
    let src = format!("{page}#{}", embed_hash(state, read_only));
    format!(
        "<iframe src=\"{}\" title=\"{}\" width=\"100%\" height=\"560\" style=\"border: 1px solid #d5dae2; border-radius: 8px\" loading=\"lazy\"></iframe>",
        escape(&src),
        escape(title)
    )
}

#[cfg(test)]
mod tests {
    use super::{embed_code, embed_hash, split_page_hash, PageOptions};

    #[test]
    fn flags_after_the_state_say_how_the_page_is_shown() {
        assert_eq!(
            split_page_hash("#v1.abc"),
            ("v1.abc", PageOptions::default())
        );
        assert_eq!(
            split_page_hash("v1.abc&embed"),
            (
                "v1.abc",
                PageOptions {
                    embed: true,
                    read_only: false
                }
            )
        );
        assert_eq!(
            split_page_hash("#v1.abc&readonly&embed&later-flag"),
            (
                "v1.abc",
                PageOptions {
                    embed: true,
                    read_only: true
                }
            )
        );
        assert_eq!(split_page_hash("").0, "");
    }

    #[test]
    fn an_embed_hash_reads_back_as_the_same_state_and_flags() {
        for read_only in [false, true] {
            let hash = embed_hash("v1.xyz", read_only);
            let (state, options) = split_page_hash(&hash);
            assert_eq!(state, "v1.xyz");
            assert!(options.embed);
            assert_eq!(options.read_only, read_only);
        }
    }

    #[test]
    fn the_embed_code_is_one_iframe_with_its_attributes_escaped() {
        let code = embed_code(
            "https://example.org/wave/?a=1",
            "v1.s",
            "WAVE \"if\" <demo>",
            true,
        );
        assert!(
            code.starts_with(
                "<iframe src=\"https://example.org/wave/?a=1#v1.s&amp;embed&amp;readonly\""
            ),
            "{code}"
        );
        assert!(
            code.contains("title=\"WAVE &quot;if&quot; &lt;demo&gt;\""),
            "{code}"
        );
        assert!(code.ends_with("></iframe>"));
        assert_eq!(code.matches('<').count(), 2);
    }
}
