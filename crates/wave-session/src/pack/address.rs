//! Where a fetched pack lives, for its images: a relative image is read from beside the pack, and
//! an absolute one only from the pack's own site (its origin: scheme, host and port).

/// The absolute `http:`/`https:` address a pack was fetched from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackAddress {
    /// `https://host:port`, lower-cased, without a trailing slash.
    origin: String,
    /// The origin and the path up to and with the pack's last `/`.
    directory: String,
}

impl PackAddress {
    /// Reads an absolute web address (`https://courses.example/gpu/pack.md`); `None` for anything
    /// else (a relative path, another scheme, an address with user details or backslashes).
    pub fn parse(url: &str) -> Option<PackAddress> {
        let lower_scheme = url.get(..8)?.to_ascii_lowercase();
        let rest_at = if lower_scheme.starts_with("https://") {
            8
        } else if lower_scheme.starts_with("http://") {
            7
        } else {
            return None;
        };
        let rest = &url[rest_at..];
        let host_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let host = &rest[..host_end];
        let bad_host = |c: char| c.is_whitespace() || c.is_control() || matches!(c, '@' | '\\');
        if host.is_empty() || host.contains(bad_host) {
            return None;
        }
        let origin = format!(
            "{}{}",
            url[..rest_at].to_ascii_lowercase(),
            host.to_ascii_lowercase()
        );
        let path = &rest[host_end..];
        let path = &path[..path.find(['?', '#']).unwrap_or(path.len())];
        let directory = match path.rfind('/') {
            Some(slash) => format!("{origin}{}", &path[..=slash]),
            None => format!("{origin}/"),
        };
        Some(PackAddress { origin, directory })
    }

    /// The absolute address of `relative` (a path without a scheme, not starting `//`), read as
    /// the browser would read it in a page at the pack's address.
    pub(crate) fn resolve(&self, relative: &str) -> String {
        if relative.starts_with('/') {
            format!("{}{relative}", self.origin)
        } else {
            format!("{}{relative}", self.directory)
        }
    }

    /// Whether the absolute address `url` is on the pack's own site.
    pub(crate) fn holds(&self, url: &str) -> bool {
        let lower = url.to_ascii_lowercase();
        lower
            .strip_prefix(&self.origin)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(['/', '?', '#']))
    }
}

#[cfg(test)]
mod tests {
    use super::PackAddress;

    #[test]
    fn an_address_gives_its_site_and_the_pack_s_folder() {
        let a = PackAddress::parse("https://Courses.Example:8443/gpu/week1/pack.md?v=2#top")
            .expect("an https address");
        assert_eq!(
            a.resolve("mask.png"),
            "https://courses.example:8443/gpu/week1/mask.png"
        );
        assert_eq!(
            a.resolve("../fig/1.png"),
            "https://courses.example:8443/gpu/week1/../fig/1.png"
        );
        assert_eq!(
            a.resolve("/shared/2.png"),
            "https://courses.example:8443/shared/2.png"
        );
        let bare = PackAddress::parse("http://courses.example").expect("a bare origin");
        assert_eq!(bare.resolve("a.png"), "http://courses.example/a.png");
    }

    #[test]
    fn only_the_pack_s_own_site_holds() {
        let a = PackAddress::parse("https://courses.example/gpu/pack.md").expect("an address");
        assert!(a.holds("https://courses.example/gpu/fig.png"));
        assert!(a.holds("HTTPS://COURSES.EXAMPLE/fig.png"));
        for other in [
            "https://courses.example.evil.test/fig.png",
            "https://courses.example@evil.test/fig.png",
            "http://courses.example/fig.png",
            "https://courses.example:444/fig.png",
            "https://tracker.test/p.gif",
        ] {
            assert!(!a.holds(other), "{other}");
        }
    }

    #[test]
    fn anything_but_an_absolute_web_address_is_refused() {
        for bad in [
            "pack.md",
            "/gpu/pack.md",
            "//courses.example/pack.md",
            "ftp://courses.example/pack.md",
            "javascript:alert(1)",
            "https://",
            "https://user@courses.example/pack.md",
            "https://courses.example\\evil/pack.md",
            "",
        ] {
            assert_eq!(PackAddress::parse(bad), None, "{bad}");
        }
    }
}
