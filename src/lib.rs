//! WAVE Playground: the Leptos front end. Components stay thin; everything about the WAVE ISA
//! lives in the `wave-engine` crate.

mod app;
mod default_kernel;
pub mod examples;
pub mod session;

pub use app::App;
pub use default_kernel::DEFAULT_KERNEL;
