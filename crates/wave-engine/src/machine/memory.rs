//! Flat little-endian byte memories (device and local). Every access is bounds-checked and
//! reports the failing address instead of panicking; there are no alignment rules.

#[derive(Clone, Debug)]
pub struct Memory {
    bytes: Vec<u8>,
    /// One bit per page of [`PAGE_BYTES`]: set when the page may have been written since the
    /// bits were last cleared, so a checkpoint copies only what changed (see `history.rs`).
    dirty: Vec<u64>,
    /// Known to hold zeros only: nothing was written since it was made or zeroed, so
    /// [`Memory::zero`] has nothing to do (a new workgroup's local memory, in a kernel that never
    /// writes it).
    all_zero: bool,
}

/// Two memories are equal when their bytes are; which pages were written since a checkpoint is
/// bookkeeping, not content.
impl PartialEq for Memory {
    fn eq(&self, other: &Self) -> bool {
        self.bytes == other.bytes
    }
}

impl Eq for Memory {}

/// The size of a page in [`Memory`]'s written-page bits.
pub const PAGE_BYTES: usize = 4096;
const PAGE_SHIFT: u32 = PAGE_BYTES.trailing_zeros();

/// The written-page bits of a memory, for store paths that write its bytes directly.
pub(crate) struct DirtyPages<'a>(&'a mut [u64]);

impl DirtyPages<'_> {
    /// Marks the pages of `start..end` (`start < end`, both inside the memory) as written.
    #[inline(always)]
    pub(crate) fn mark(&mut self, start: usize, end: usize) {
        let (first, last) = (start >> PAGE_SHIFT, (end - 1) >> PAGE_SHIFT);
        for page in first..=last {
            if let Some(word) = self.0.get_mut(page / 64) {
                *word |= 1 << (page % 64);
            }
        }
    }
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
pub(super) fn bytes_at(bytes: &[u8], address: u32, width: usize) -> Option<&[u8]> {
    let start = address as usize;
    bytes.get(start..start.checked_add(width)?)
}

impl Memory {
    pub fn zeroed(size: u32) -> Self {
        let mut memory = Memory::from_bytes(vec![0; size as usize]);
        memory.all_zero = true;
        memory
    }

    pub fn from_bytes(bytes: Vec<u8>) -> Self {
        let pages = bytes.len().div_ceil(PAGE_BYTES);
        Memory {
            dirty: vec![u64::MAX; pages.div_ceil(64)],
            bytes,
            all_zero: false,
        }
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

    /// The bytes, to write anywhere (every page counts as written).
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        self.dirty.fill(u64::MAX);
        self.all_zero = false;
        &mut self.bytes
    }

    /// The bytes and the written-page bits, for a store path that marks what it writes.
    #[inline(always)]
    pub(crate) fn bytes_and_pages_mut(&mut self) -> (&mut [u8], DirtyPages<'_>) {
        self.all_zero = false;
        (&mut self.bytes, DirtyPages(&mut self.dirty))
    }

    /// Whether page `page` may have been written since [`Memory::clear_written`].
    pub(crate) fn page_written(&self, page: usize) -> bool {
        self.dirty
            .get(page / 64)
            .is_none_or(|word| word >> (page % 64) & 1 == 1)
    }

    /// Forgets which pages were written.
    pub(crate) fn clear_written(&mut self) {
        self.dirty.fill(0);
    }

    pub fn clear(&mut self) {
        self.dirty.fill(u64::MAX);
        self.bytes.fill(0);
        self.all_zero = true;
    }

    /// [`Memory::clear`] on a memory that may already be zero: then only its pages count as
    /// written (as a new memory's do), and its bytes are not touched.
    pub fn zero(&mut self) {
        if self.all_zero {
            self.dirty.fill(u64::MAX);
        } else {
            self.clear();
        }
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
        if N > 0 {
            DirtyPages(&mut self.dirty).mark(range.start, range.end);
            self.all_zero = false;
        }
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

    #[test]
    fn zero_clears_what_any_write_path_left() {
        let writes: [fn(&mut Memory); 3] = [
            |memory| memory.write_u32(12, 9).unwrap(),
            |memory| memory.bytes_mut()[12] = 9,
            |memory| memory.bytes_and_pages_mut().0[12] = 9,
        ];
        for write in writes {
            let mut memory = Memory::zeroed(2 * PAGE_BYTES as u32);
            memory.zero();
            write(&mut memory);
            memory.clear_written();
            memory.zero();
            assert!(memory.bytes().iter().all(|&b| b == 0));
            assert!((0..2).all(|p| memory.page_written(p)));
        }
    }

    #[test]
    fn a_write_marks_every_page_it_touches_and_only_those() {
        let mut memory = Memory::zeroed(4 * PAGE_BYTES as u32);
        memory.clear_written();
        memory.write_u32(PAGE_BYTES as u32 - 2, 7).unwrap();
        let written: Vec<bool> = (0..4).map(|p| memory.page_written(p)).collect();
        assert_eq!(written, [true, true, false, false]);
        memory.clear_written();
        let (_, mut pages) = memory.bytes_and_pages_mut();
        pages.mark(3 * PAGE_BYTES, 3 * PAGE_BYTES + 16);
        let written: Vec<bool> = (0..4).map(|p| memory.page_written(p)).collect();
        assert_eq!(written, [false, false, false, true]);
        memory.bytes_mut();
        assert!((0..4).all(|p| memory.page_written(p)));
    }
}
