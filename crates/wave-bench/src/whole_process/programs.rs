//! The programs compared: `wavesim` from this workspace, and the reference's command-line tools
//! `wave-asm` and `wave-emu` 0.1.2. wave-bench depends on those two crates already, so cargo holds
//! their sources and the workspace's lock file pins what they need: `cargo build -p wave-emu`
//! builds their binaries offline, in this workspace's release profile (opt-level 3 for them, as
//! for our engine and for `wavesim`).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

pub struct Programs {
    pub wavesim: PathBuf,
    pub wave_asm: PathBuf,
    pub wave_emu: PathBuf,
}

/// Builds the three release binaries into the target directory this program runs from, and
/// returns their paths.
pub fn build() -> Result<Programs, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    // This program is TARGET/PROFILE/wave-bench; the binaries go to TARGET/release.
    let target = exe
        .parent()
        .and_then(Path::parent)
        .ok_or_else(|| format!("{} is not in a cargo target directory", exe.display()))?;
    // `cargo run` says which cargo it is; otherwise the one on the PATH. Two builds: cargo finds
    // a dependency named by `-p` only when no workspace member is named beside it.
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"));
    for packages in [&["wavesim"][..], &["wave-asm", "wave-emu"]] {
        let status = Command::new(&cargo)
            .args(["build", "--release", "--offline", "--bins"])
            .args(packages.iter().flat_map(|package| ["-p", package]))
            .arg("--target-dir")
            .arg(target)
            .status()
            .map_err(|e| format!("cannot run {}: {e}", cargo.to_string_lossy()))?;
        if !status.success() {
            return Err(format!(
                "building {} failed ({status})",
                packages.join(" and ")
            ));
        }
    }
    let release = target.join("release");
    let program = |name: &str| release.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    Ok(Programs {
        wavesim: program("wavesim"),
        wave_asm: program("wave-asm"),
        wave_emu: program("wave-emu"),
    })
}
