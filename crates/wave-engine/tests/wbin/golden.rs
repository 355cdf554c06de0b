//! The golden `.wbin` files (`tests/wbin_golden/`): what the upstream assembler wrote for the
//! project's own kernels, each valid only while its source still has the recorded sha256.

use std::path::{Path, PathBuf};

use super::sha256::hex_digest;

pub struct Golden {
    /// The golden file's name, e.g. `cf_call_return.wbin`.
    pub name: String,
    pub bytes: Vec<u8>,
    /// Repository-relative path of the source it was assembled from.
    pub source_path: String,
    /// The source, when it is still the one the golden file was made from.
    pub source: Option<String>,
}

/// Found from either crate's tests (both live in `crates/`).
pub fn directory() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../wave-engine/tests/wbin_golden")
}

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every golden file listed in `SOURCES.sha256` (lines `HASH  SOURCE_PATH  GOLDEN_NAME`).
pub fn all() -> Vec<Golden> {
    let list = std::fs::read_to_string(directory().join("SOURCES.sha256"))
        .expect("tests/wbin_golden/SOURCES.sha256 is readable");
    list.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let [hash, source_path, name] = fields[..] else {
                panic!("malformed SOURCES.sha256 line: {line}");
            };
            let bytes =
                std::fs::read(directory().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
            let source = std::fs::read(repository().join(source_path))
                .ok()
                .filter(|text| hex_digest(text) == hash)
                .and_then(|text| String::from_utf8(text).ok());
            Golden {
                name: name.to_string(),
                bytes,
                source_path: source_path.to_string(),
                source,
            }
        })
        .collect()
}
