//! Prints the page's preview data (see `wave_session::preview`) as JSON on standard output, for
//! the build step that writes it into the page.

#![forbid(unsafe_code)]

fn main() {
    print!("{}", wave_session::preview::preview_json());
}
