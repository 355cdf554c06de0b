//! The file around the code: header, sections and per-kernel metadata.
//!
//! ```text
//! 0x00  "WAVE"  u16 version = 1  u16 flags = 0
//! 0x08  u32 code_offset (0x20)      u32 code_size
//! 0x10  u32 symbol_offset           u32 symbol_size      (both 0: no symbol table)
//! 0x18  u32 metadata_offset         u32 metadata_size
//! 0x20  code: every kernel's instructions, back to back
//!       symbols: each kernel's name, NUL-terminated, in kernel order
//!       metadata: u32 kernel_count, then 32 bytes per kernel:
//!         name_offset (absolute), register_count, local_memory_size, workgroup x, y, z,
//!         code_offset (relative to the code section), code_size
//! ```
//!
//! All numbers are little-endian, and the sections follow each other with no padding, so the
//! metadata is usually not 4-byte aligned.

use super::error::WbinError;

pub const MAGIC: [u8; 4] = *b"WAVE";
pub(super) const VERSION: u16 = 1;
pub(super) const HEADER_SIZE: usize = 0x20;
pub(super) const KERNEL_RECORD_SIZE: usize = 32;

/// Header field offsets.
pub(super) const VERSION_AT: usize = 4;
pub(super) const FLAGS_AT: usize = 6;
pub(super) const CODE_AT: usize = 8;
pub(super) const SYMBOLS_AT: usize = 0x10;
pub(super) const METADATA_AT: usize = 0x18;
/// Offsets inside a kernel record.
pub(super) const RECORD_CODE_AT: usize = 24;

/// A section: where it starts in the file and how many bytes it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Section {
    pub offset: u32,
    pub size: u32,
}

/// `start` and `end` are for sections that reading has checked to lie inside the file.
impl Section {
    pub fn start(self) -> usize {
        self.offset as usize
    }

    pub fn end(self) -> usize {
        self.offset as usize + self.size as usize
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    pub code: Section,
    /// `None` when the file has no symbol table (offset and size both 0).
    pub symbols: Option<Section>,
    pub metadata: Section,
}

/// One kernel's metadata record as stored, plus where it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct KernelRecord {
    /// File offset of the record.
    pub at: usize,
    pub name_offset: u32,
    /// The name from the symbol table; `None` when the file has none.
    pub name: Option<String>,
    pub register_count: u32,
    pub local_memory: u32,
    pub workgroup_size: [u32; 3],
    /// Relative to the code section.
    pub code_offset: u32,
    pub code_size: u32,
}

/// The header and kernel records of a structurally sound file: every section and kernel lies
/// inside the file, and every name is NUL-terminated UTF-8 inside the symbol table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Container {
    pub header: Header,
    pub kernels: Vec<KernelRecord>,
}

pub(super) fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    let end = at.checked_add(4)?;
    let word = bytes.get(at..end)?;
    Some(u32::from_le_bytes([word[0], word[1], word[2], word[3]]))
}

fn u16_at(bytes: &[u8], at: usize) -> Option<u16> {
    let end = at.checked_add(2)?;
    let half = bytes.get(at..end)?;
    Some(u16::from_le_bytes([half[0], half[1]]))
}

/// A u32 field the caller has already proven to be inside `bytes`.
fn field(bytes: &[u8], at: usize) -> Result<u32, WbinError> {
    u32_at(bytes, at).ok_or_else(|| {
        WbinError::new(
            at,
            format!(
                "the file ends inside a 4-byte field ({} bytes)",
                bytes.len()
            ),
        )
    })
}

pub(super) fn read(bytes: &[u8]) -> Result<Container, WbinError> {
    if !bytes.starts_with(&MAGIC) {
        if MAGIC.starts_with(bytes) && !bytes.is_empty() {
            return Err(WbinError::new(
                bytes.len(),
                "the file ends inside its magic `WAVE`",
            ));
        }
        return Err(WbinError::new(
            0,
            "not a .wbin file: it does not start with `WAVE`",
        ));
    }
    if bytes.len() < HEADER_SIZE {
        return Err(WbinError::new(
            bytes.len(),
            format!(
                "the header is truncated: it takes {HEADER_SIZE} bytes and the file has {}",
                bytes.len()
            ),
        ));
    }
    let version = u16_at(bytes, VERSION_AT).unwrap_or_default();
    if version != VERSION {
        return Err(WbinError::new(
            VERSION_AT,
            format!("unsupported .wbin version {version} (only version {VERSION} is known)"),
        ));
    }
    let flags = u16_at(bytes, FLAGS_AT).unwrap_or_default();
    if flags != 0 {
        return Err(WbinError::new(
            FLAGS_AT,
            format!("unknown header flags {flags:#06x} (version 1 defines none)"),
        ));
    }
    let code = section(bytes, CODE_AT, "code")?;
    if !code.size.is_multiple_of(4) {
        return Err(WbinError::new(
            CODE_AT + 4,
            format!(
                "the code section has {} bytes, not a whole number of 4-byte words",
                code.size
            ),
        ));
    }
    let symbols = match (field(bytes, SYMBOLS_AT)?, field(bytes, SYMBOLS_AT + 4)?) {
        (0, 0) => None,
        _ => Some(section(bytes, SYMBOLS_AT, "symbol")?),
    };
    let metadata = section(bytes, METADATA_AT, "metadata")?;
    let header = Header {
        code,
        symbols,
        metadata,
    };
    let kernels = records(bytes, &header)?;
    Ok(Container { header, kernels })
}

/// Reads the offset/size pair at `at` and checks that the section lies inside the file.
fn section(bytes: &[u8], at: usize, what: &str) -> Result<Section, WbinError> {
    let section = Section {
        offset: field(bytes, at)?,
        size: field(bytes, at + 4)?,
    };
    if u64::from(section.offset) + u64::from(section.size) > bytes.len() as u64 {
        return Err(WbinError::new(
            at,
            format!(
                "the {what} section ({} bytes at {:#x}) runs past the end of the file ({} bytes)",
                section.size,
                section.offset,
                bytes.len()
            ),
        ));
    }
    Ok(section)
}

fn records(bytes: &[u8], header: &Header) -> Result<Vec<KernelRecord>, WbinError> {
    let metadata = header.metadata;
    if metadata.size < 4 {
        return Err(WbinError::new(
            METADATA_AT + 4,
            format!(
                "the metadata section has {} bytes, too few for its 4-byte kernel count",
                metadata.size
            ),
        ));
    }
    let count = field(bytes, metadata.start())?;
    let needed = 4 + u64::from(count) * KERNEL_RECORD_SIZE as u64;
    if needed > u64::from(metadata.size) {
        return Err(WbinError::new(
            metadata.start(),
            format!(
                "{count} kernels need {needed} bytes of metadata, but the section has {}",
                metadata.size
            ),
        ));
    }
    (0..count as usize)
        .map(|index| record(bytes, header, index))
        .collect()
}

fn record(bytes: &[u8], header: &Header, index: usize) -> Result<KernelRecord, WbinError> {
    let at = header.metadata.start() + 4 + index * KERNEL_RECORD_SIZE;
    let word = |slot: usize| field(bytes, at + 4 * slot);
    let record = KernelRecord {
        at,
        name_offset: word(0)?,
        name: None,
        register_count: word(1)?,
        local_memory: word(2)?,
        workgroup_size: [word(3)?, word(4)?, word(5)?],
        code_offset: word(6)?,
        code_size: word(7)?,
    };
    let code_at = at + RECORD_CODE_AT;
    if !record.code_offset.is_multiple_of(4) || !record.code_size.is_multiple_of(4) {
        return Err(WbinError::new(
            code_at,
            format!(
                "kernel {index}'s code ({} bytes at {:#x}) is not aligned to 4-byte words",
                record.code_size, record.code_offset
            ),
        ));
    }
    if u64::from(record.code_offset) + u64::from(record.code_size) > u64::from(header.code.size) {
        return Err(WbinError::new(
            code_at,
            format!(
                "kernel {index}'s code ({} bytes at {:#x}) lies outside the code section ({} bytes)",
                record.code_size, record.code_offset, header.code.size
            ),
        ));
    }
    let name = match header.symbols {
        Some(symbols) => Some(name(bytes, symbols, &record, index)?),
        None => None,
    };
    Ok(KernelRecord { name, ..record })
}

fn name(
    bytes: &[u8],
    symbols: Section,
    record: &KernelRecord,
    index: usize,
) -> Result<String, WbinError> {
    let start = record.name_offset as usize;
    if start < symbols.start() || start >= symbols.end() {
        return Err(WbinError::new(
            record.at,
            format!(
                "kernel {index}'s name offset {start:#x} is outside the symbol table ({:#x}..{:#x})",
                symbols.start(),
                symbols.end()
            ),
        ));
    }
    let table = bytes.get(start..symbols.end()).unwrap_or_default();
    let Some(length) = table.iter().position(|&b| b == 0) else {
        return Err(WbinError::new(
            start,
            format!("kernel {index}'s name is not NUL-terminated inside the symbol table"),
        ));
    };
    let text = table.get(..length).unwrap_or_default();
    std::str::from_utf8(text).map(str::to_string).map_err(|e| {
        WbinError::new(
            start + e.valid_up_to(),
            format!("kernel {index}'s name is not UTF-8"),
        )
    })
}

/// What the assembler lays out for one kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct KernelImage {
    pub name: String,
    pub register_count: u32,
    pub local_memory: u32,
    pub workgroup_size: [u32; 3],
    pub code: Vec<u8>,
}

fn size_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The whole file: header, code, symbols, metadata, in `wave-asm`'s layout.
pub(super) fn write(kernels: &[KernelImage]) -> Vec<u8> {
    let code_size: usize = kernels.iter().map(|k| k.code.len()).sum();
    let symbols_size: usize = kernels.iter().map(|k| k.name.len() + 1).sum();
    let symbols_at = HEADER_SIZE + code_size;
    let metadata_at = symbols_at + symbols_size;
    let metadata_size = 4 + kernels.len() * KERNEL_RECORD_SIZE;

    let mut out = Vec::with_capacity(metadata_at + metadata_size);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    for value in [
        HEADER_SIZE,
        code_size,
        symbols_at,
        symbols_size,
        metadata_at,
        metadata_size,
    ] {
        out.extend_from_slice(&size_u32(value).to_le_bytes());
    }
    for kernel in kernels {
        out.extend_from_slice(&kernel.code);
    }
    for kernel in kernels {
        out.extend_from_slice(kernel.name.as_bytes());
        out.push(0);
    }
    out.extend_from_slice(&size_u32(kernels.len()).to_le_bytes());
    let (mut name_at, mut code_at) = (symbols_at, 0);
    for kernel in kernels {
        let [x, y, z] = kernel.workgroup_size;
        for value in [
            size_u32(name_at),
            kernel.register_count,
            kernel.local_memory,
            x,
            y,
            z,
            size_u32(code_at),
            size_u32(kernel.code.len()),
        ] {
            out.extend_from_slice(&value.to_le_bytes());
        }
        name_at += kernel.name.len() + 1;
        code_at += kernel.code.len();
    }
    out
}
