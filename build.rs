//! The page's split build needs the linker's relocations kept in the wasm: the splitter reads them
//! to find which functions and data each split point reaches. Only that build asks for them.

fn main() {
    println!("cargo::rerun-if-env-changed=CARGO_FEATURE_SPLIT");
    let split = std::env::var_os("CARGO_FEATURE_SPLIT").is_some();
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|arch| arch == "wasm32");
    if split && wasm {
        println!("cargo::rustc-link-arg-bins=--emit-relocs");
    }
}
