//! Browser entry point: mount the playground on `<body>`.

fn main() {
    console_error_panic_hook::set_once();
    wave_playground::components::lanes::intern_lane_classes();
    leptos::mount::mount_to_body(wave_playground::App);
}
