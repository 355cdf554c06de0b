// The runner exports its function table, so that Node can add the page's relaxed-SIMD fma module
// to it (`wasm.mjs --lent-fma`), as the page adds it to its own (src/fma.rs).
fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-cdylib=--export-table");
    }
}
