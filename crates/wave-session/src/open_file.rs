//! Opening a file the user chose or dropped on the page: a kernel's source (UTF-8 text), or a
//! `.wbin` binary, which opens as its disassembly with a note that it came from a binary. And the
//! other way: the current kernel as the `.wbin` bytes `wave-asm` would write.

use wave_engine::wbin;

/// Largest file the page opens: far beyond any real kernel, small enough that a wrong pick (a
/// video, a disk image) is refused at once instead of hanging the tab.
pub const MAX_OPEN_BYTES: usize = 16 << 20;

/// A file read into source text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenedFile {
    pub source: String,
    /// It was a `.wbin` binary: `source` is its disassembly.
    pub from_binary: bool,
    /// What to tell the user about it.
    pub note: String,
}

/// Reads `bytes` of the file `name`. `Err` says, naming the file and the byte at fault, why it
/// cannot be opened (the page keeps the work on show).
pub fn open_file(name: &str, bytes: &[u8]) -> Result<OpenedFile, String> {
    if bytes.len() > MAX_OPEN_BYTES {
        return Err(format!(
            "{name} is {} bytes: the playground opens kernels up to {} MB",
            bytes.len(),
            MAX_OPEN_BYTES >> 20
        ));
    }
    if wbin::is_wbin(bytes) {
        let disassembly = wbin::disassemble(bytes)
            .map_err(|e| format!("{name} is not a valid .wbin binary: {e}"))?;
        let source = format!(
            "; Disassembled from {name}: a .wbin binary holds no comments or label names, so\n\
             ; the labels here are made up from code offsets (each line ends with its offset).\n\
             {disassembly}"
        );
        return Ok(OpenedFile {
            source,
            from_binary: true,
            note: format!("Opened {name}, a .wbin binary, as its disassembly"),
        });
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(OpenedFile {
            source: text.to_string(),
            from_binary: false,
            note: format!("Opened {name}"),
        }),
        Err(e) => {
            let at = e.valid_up_to();
            let before = String::from_utf8_lossy(&bytes[..at]);
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            Err(format!(
                "{name} is neither WAVE source nor a .wbin binary: byte {:#04x} at offset {at} \
                 (line {line}, column {column}) is not UTF-8 text",
                bytes[at]
            ))
        }
    }
}

/// `source` as the `.wbin` bytes `wave-asm` writes for it. `Err` lists what stops it (compile
/// errors, or statements the binary format has no encoding for), with lines.
pub(crate) fn wbin_of(source: &str) -> Result<Vec<u8>, String> {
    wbin::assemble(source).map_err(|e| {
        let lines: Vec<String> = e
            .diagnostics
            .iter()
            .take(3)
            .map(|d| format!("line {}: {}", d.line, d.message))
            .collect();
        let more = e.diagnostics.len().saturating_sub(lines.len());
        let more = if more > 0 {
            format!(" (and {more} more)")
        } else {
            String::new()
        };
        format!("No .wbin for this source: {}{more}", lines.join("; "))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ConfigForm, Session};

    const KERNEL: &str = ".kernel twice\n    mov_sr r0, sr_lane_id\n    iadd r1, r0, r0\n    \
                          mov_imm r2, 4\n    imul r3, r0, r2\n    device_store_u32 r3, r1\n    halt\n.end\n";

    #[test]
    fn a_binary_opens_as_a_disassembly_that_runs_like_its_source() {
        let form = ConfigForm {
            workgroup: "8,1,1".into(),
            wave_width: "8".into(),
            ..ConfigForm::default()
        };
        let mut original = Session::new(KERNEL, form.clone());
        let bytes = original.wbin().expect("it assembles");
        let opened = open_file("twice.wbin", &bytes).expect("it opens");
        assert!(opened.from_binary);
        assert!(opened.source.starts_with("; Disassembled from twice.wbin"));
        let mut reopened = Session::new(&opened.source, form);
        assert_eq!(reopened.wbin().expect("it assembles again"), bytes);
        original.run_all();
        reopened.run_all();
        let memory = |s: &Session| s.machine().expect("a machine").device().bytes()[..32].to_vec();
        assert_eq!(memory(&reopened), memory(&original));
        assert_eq!(reopened.step_count(), original.step_count());
    }

    #[test]
    fn text_opens_as_it_is_and_other_bytes_are_refused_with_the_place() {
        let opened = open_file("k.wave", KERNEL.as_bytes()).expect("text opens");
        assert_eq!(
            (opened.source.as_str(), opened.from_binary),
            (KERNEL, false)
        );
        let refused = open_file("photo.png", b".kernel k\n  \xff\xfe").unwrap_err();
        assert_eq!(
            refused,
            "photo.png is neither WAVE source nor a .wbin binary: byte 0xff at offset 12 \
             (line 2, column 3) is not UTF-8 text"
        );
    }

    #[test]
    fn a_damaged_binary_is_refused_naming_the_byte() {
        let bytes = Session::new(KERNEL, ConfigForm::default())
            .wbin()
            .expect("it assembles");
        let refused = open_file("cut.wbin", &bytes[..20]).unwrap_err();
        assert!(
            refused.starts_with("cut.wbin is not a valid .wbin binary: at byte 0x"),
            "{refused}"
        );
        let huge = vec![b' '; MAX_OPEN_BYTES + 1];
        assert!(open_file("big.wave", &huge)
            .unwrap_err()
            .contains("up to 16 MB"));
    }

    #[test]
    fn a_source_the_binary_cannot_hold_says_which_lines() {
        let session = Session::new(
            ".kernel k\n    frobnicate r1\n    halt\n.end\n",
            ConfigForm::default(),
        );
        let refused = session.wbin().unwrap_err();
        assert!(
            refused.starts_with("No .wbin for this source: line 2:"),
            "{refused}"
        );
    }
}
