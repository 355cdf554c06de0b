//! The memory viewers: rows of device or local memory from an address, in a chosen format.

use serde::{Deserialize, Serialize};
use wave_engine::numbers::parse_u32;

use crate::registers::format_f32;
use crate::shown::Shown;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MemorySpaceChoice {
    Device,
    /// The local memory of the workgroup the machine holds.
    Local,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MemoryFormat {
    U32,
    I32,
    F32,
    /// Single bytes in hex.
    HexBytes,
}

impl MemoryFormat {
    /// Bytes per cell.
    pub fn cell_bytes(self) -> usize {
        match self {
            MemoryFormat::HexBytes => 1,
            _ => 4,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryRow {
    pub address: u32,
    /// "0x00000040".
    pub address_text: String,
    /// One formatted cell per element (cells past the end of memory are left out).
    pub cells: Vec<String>,
}

/// Parses a "jump to address" entry (decimal or 0x hex) and checks it lies inside a memory of
/// `size` bytes.
pub fn parse_address(text: &str, size: usize) -> Result<u32, String> {
    let address = parse_u32(text)?;
    if address as usize >= size {
        return Err(format!(
            "address {address:#x} is past the end of memory ({size} bytes, last 0x{:x})",
            size.saturating_sub(1)
        ));
    }
    Ok(address)
}

fn cell(bytes: &[u8], format: MemoryFormat) -> String {
    if format == MemoryFormat::HexBytes {
        return format!("{:02x}", bytes[0]);
    }
    let word = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
    match format {
        MemoryFormat::U32 => word.to_string(),
        MemoryFormat::I32 => (word as i32).to_string(),
        MemoryFormat::F32 => format_f32(f32::from_bits(word)),
        MemoryFormat::HexBytes => unreachable!("handled above"),
    }
}

impl Shown<'_> {
    /// Size in bytes of a memory (0 when nothing can run).
    pub(crate) fn memory_size(&self, space: MemorySpaceChoice) -> usize {
        self.memory_bytes(space).map_or(0, <[u8]>::len)
    }

    fn memory_bytes(&self, space: MemorySpaceChoice) -> Option<&[u8]> {
        let machine = self.run.machine()?;
        Some(match space {
            MemorySpaceChoice::Device => machine.device().bytes(),
            MemorySpaceChoice::Local => machine.workgroup().local().bytes(),
        })
    }

    /// `rows` rows of `per_row` cells each from `start` (rounded down to the cell size).
    pub(crate) fn memory_rows(
        &self,
        space: MemorySpaceChoice,
        start: u32,
        rows: usize,
        per_row: usize,
        format: MemoryFormat,
    ) -> Vec<MemoryRow> {
        let Some(bytes) = self.memory_bytes(space) else {
            return Vec::new();
        };
        let size = format.cell_bytes();
        let per_row = per_row.max(1);
        let mut address = start as usize / size * size;
        let mut out = Vec::new();
        for _ in 0..rows {
            if address + size > bytes.len() {
                break;
            }
            let cells = (0..per_row)
                .map(|i| address + i * size)
                .take_while(|&a| a + size <= bytes.len())
                .map(|a| cell(&bytes[a..a + size], format))
                .collect();
            out.push(MemoryRow {
                address: address as u32,
                address_text: format!("0x{address:08x}"),
                cells,
            });
            address += per_row * size;
        }
        out
    }
}
