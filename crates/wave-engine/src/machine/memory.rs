//! Flat little-endian byte memories (device and local). Every access is bounds-checked and
//! reports the failing address instead of panicking; there are no alignment rules.

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Memory {
    bytes: Vec<u8>,
}

/// An access that does not fit: `address + width > size`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfBounds {
    pub address: u32,
    pub width: u32,
}

/// The `width` bytes at `address` in `bytes`, or `None` when they do not all fit. The end is
/// computed without overflow: `usize` is 32 bits on wasm32, where `address + width` can pass it.
#[inline(always)]
pub fn bytes_at(bytes: &[u8], address: u32, width: usize) -> Option<&[u8]> {
    let start = address as usize;
    bytes.get(start..start.checked_add(width)?)
}

impl Memory {
    pub fn zeroed(size: u32) -> Self {
        Memory {
            bytes: vec![0; size as usize],
        }
    }

    pub fn from_bytes(bytes: Vec<u8>) -> Self {
        Memory { bytes }
    }

    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    pub fn bytes_mut(&mut self) -> &mut [u8] {
        &mut self.bytes
    }

    pub fn clear(&mut self) {
        self.bytes.fill(0);
    }

    #[inline]
    fn range(&self, address: u32, width: u32) -> Result<std::ops::Range<usize>, OutOfBounds> {
        // usize is 32 bits on wasm32, so the end must be computed without overflow.
        let start = address as usize;
        match start.checked_add(width as usize) {
            Some(end) if end <= self.bytes.len() => Ok(start..end),
            _ => Err(OutOfBounds { address, width }),
        }
    }

    /// Reads `N` bytes at `address`.
    #[inline]
    pub fn read<const N: usize>(&self, address: u32) -> Result<[u8; N], OutOfBounds> {
        let range = self.range(address, N as u32)?;
        let mut out = [0u8; N];
        out.copy_from_slice(&self.bytes[range]);
        Ok(out)
    }

    #[inline]
    pub fn write<const N: usize>(
        &mut self,
        address: u32,
        value: [u8; N],
    ) -> Result<(), OutOfBounds> {
        let range = self.range(address, N as u32)?;
        self.bytes[range].copy_from_slice(&value);
        Ok(())
    }

    #[inline]
    pub fn read_u32(&self, address: u32) -> Result<u32, OutOfBounds> {
        self.read::<4>(address).map(u32::from_le_bytes)
    }

    #[inline]
    pub fn write_u32(&mut self, address: u32, value: u32) -> Result<(), OutOfBounds> {
        self.write(address, value.to_le_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unaligned_little_endian_round_trip() {
        let mut memory = Memory::zeroed(8);
        memory.write_u32(3, 0x1122_3344).unwrap();
        assert_eq!(memory.bytes()[3..7], [0x44, 0x33, 0x22, 0x11]);
        assert_eq!(memory.read_u32(3), Ok(0x1122_3344));
    }

    #[test]
    fn access_past_the_end_is_reported_not_panicking() {
        let memory = Memory::zeroed(8);
        assert_eq!(
            memory.read_u32(5),
            Err(OutOfBounds {
                address: 5,
                width: 4
            })
        );
        assert_eq!(
            memory.read_u32(u32::MAX),
            Err(OutOfBounds {
                address: u32::MAX,
                width: 4
            })
        );
        assert!(memory.read_u32(4).is_ok());
    }
}
