//! WAVE Playground: the Leptos front end. Components stay thin; everything about the WAVE ISA
//! lives in the `wave-engine` crate.

mod app;
pub mod components;
mod default_kernel;
pub mod examples;
pub mod session;

pub use app::{default_session, App};
pub use default_kernel::DEFAULT_KERNEL;
