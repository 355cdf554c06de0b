//! WAVE Playground: the Leptos front end. Components stay thin: what a view shows and what a
//! command does live in `wave-session`, everything about the WAVE ISA in `wave-engine`.

mod app;
pub mod codemirror;
pub mod components;
pub mod fma;
mod split;

pub use app::{default_session, App};
pub use wave_session::DEFAULT_KERNEL;
