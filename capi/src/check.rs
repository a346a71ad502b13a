//! The boundary's checks: a C pointer and length become a [`Region`] only
//! if a Rust slice may be made from them (NULL only when empty, inside the
//! address space), and the slices of one call are made only once its
//! outputs are known to be disjoint from each other and from its inputs,
//! so no `&mut` ever aliases another reference.

use crate::{ELEPHANT_ERR_LENGTH, ELEPHANT_ERR_NULL, ELEPHANT_ERR_OVERLAP};
use core::ffi::c_int;

/// A caller's buffer, checked: `len` bytes at `ptr`, non-NULL unless
/// empty, not running past the end of the address space, at most
/// `isize::MAX` bytes (what a slice may span).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Region {
    ptr: *const u8,
    len: usize,
}

impl Region {
    /// No bytes: meets nothing.
    pub(crate) const EMPTY: Self = Self {
        ptr: core::ptr::null(),
        len: 0,
    };

    /// Checks `len` bytes at `ptr`: [`ELEPHANT_ERR_NULL`] if `ptr` is NULL
    /// and `len` is not 0, [`ELEPHANT_ERR_LENGTH`] if the region cannot be
    /// a slice.
    pub(crate) fn new(ptr: *const u8, len: usize) -> Result<Self, c_int> {
        if len == 0 {
            return Ok(Self { ptr, len });
        }
        if ptr.is_null() {
            return Err(ELEPHANT_ERR_NULL);
        }
        let fits = isize::try_from(len).is_ok() && (ptr as usize).checked_add(len).is_some();
        if fits {
            Ok(Self { ptr, len })
        } else {
            Err(ELEPHANT_ERR_LENGTH)
        }
    }

    /// The first address past the region (no wrap: checked by `new`).
    fn end(self) -> usize {
        (self.ptr as usize).wrapping_add(self.len)
    }

    /// The region that starts `at` bytes in, `len` long: the tag after a
    /// combined message. `None` unless it lies inside this one.
    pub(crate) fn part(self, at: usize, len: usize) -> Option<Self> {
        (at.checked_add(len)? <= self.len).then(|| Self {
            ptr: self.ptr.wrapping_add(at),
            len,
        })
    }

    /// Whether both are the same non-empty bytes: a message processed in
    /// place.
    pub(crate) fn same(self, other: Self) -> bool {
        self.len != 0 && self.ptr == other.ptr && self.len == other.len
    }

    /// The start address, for alignment checks.
    pub(crate) fn address(self) -> usize {
        self.ptr as usize
    }

    /// The start, as a pointer to `T`.
    pub(crate) fn address_as<T>(self) -> *const T {
        self.ptr.cast()
    }

    /// The bytes, to be read.
    ///
    /// # Safety
    ///
    /// The caller's memory at the region must be readable and initialised
    /// for `'a`, and no `&mut` to any of it may exist meanwhile ([`disjoint`]
    /// checked against every output).
    pub(crate) unsafe fn bytes<'a>(self) -> &'a [u8] {
        if self.len == 0 {
            return &[];
        }
        // SAFETY: non-NULL (checked by `new` for a non-empty region),
        // `len <= isize::MAX` and no wrap (also `new`); readable and
        // unaliased by a `&mut` by the caller's contract.
        unsafe { core::slice::from_raw_parts(self.ptr, self.len) }
    }

    /// Writes zeros over the region, through the raw pointer.
    ///
    /// # Safety
    ///
    /// The caller's memory at the region must be writable, and no
    /// reference to any of it may exist.
    pub(crate) unsafe fn zero(self) {
        if self.len != 0 {
            // SAFETY: non-NULL and inside the address space (`new`);
            // writable and unreferenced by the caller's contract.
            unsafe { core::ptr::write_bytes(self.ptr.cast_mut(), 0, self.len) };
        }
    }

    /// The bytes, to be written.
    ///
    /// # Safety
    ///
    /// The caller's memory at the region must be writable for `'a`, and no
    /// other reference to any of it may exist meanwhile ([`disjoint`]
    /// checked).
    pub(crate) unsafe fn bytes_mut<'a>(self) -> &'a mut [u8] {
        if self.len == 0 {
            return &mut [];
        }
        // SAFETY: as in `bytes`; writable and unaliased by the caller's
        // contract (which includes initialised: `open` zeros an output the
        // library would read before writing).
        unsafe { core::slice::from_raw_parts_mut(self.ptr.cast_mut(), self.len) }
    }
}

/// [`ELEPHANT_ERR_OVERLAP`] unless the non-empty `outputs` are pairwise
/// disjoint and none meets a non-empty input. Inputs may overlap each
/// other (one buffer of associated data for many packets). Sorts
/// `outputs`; `O((m + n) log m)`.
pub(crate) fn disjoint(outputs: &mut [Region], inputs: &[Region]) -> Result<(), c_int> {
    // Empty outputs first (they meet nothing), then by address.
    sort(outputs, |region| (region.len != 0, region.address()));
    let empty = outputs.iter().take_while(|region| region.len == 0).count();
    let outputs = outputs.get(empty..).unwrap_or_default();
    let mut last_end = 0;
    for output in outputs {
        if output.address() < last_end {
            return Err(ELEPHANT_ERR_OVERLAP);
        }
        last_end = output.end();
    }
    for input in inputs.iter().filter(|region| region.len != 0) {
        // The first output that ends after the input starts is the only
        // one that can meet it: the outputs are sorted and disjoint.
        let first = outputs.partition_point(|output| output.end() <= input.address());
        if outputs
            .get(first)
            .is_some_and(|output| output.address() < input.end())
        {
            return Err(ELEPHANT_ERR_OVERLAP);
        }
    }
    Ok(())
}

/// Insertion sort by `key`: a handful of regions per call (two per packet
/// of a group), and no panic path, which `core`'s sorts have.
fn sort<K: Ord>(regions: &mut [Region], key: impl Fn(&Region) -> K) {
    for end in 2..=regions.len() {
        let mut part = regions.get_mut(..end).unwrap_or_default();
        while let Some((last, rest)) = core::mem::take(&mut part).split_last_mut() {
            match rest.last_mut() {
                Some(previous) if key(previous) > key(last) => core::mem::swap(previous, last),
                _ => break,
            }
            part = rest;
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::arithmetic_side_effects)] // Tests may panic.
mod tests {
    use super::*;

    fn at(address: usize, len: usize) -> Region {
        Region::new(address as *const u8, len).unwrap()
    }

    #[test]
    fn null_only_when_empty() {
        assert!(Region::new(core::ptr::null(), 0).is_ok());
        assert_eq!(
            Region::new(core::ptr::null(), 1).unwrap_err(),
            ELEPHANT_ERR_NULL
        );
        assert_eq!(
            Region::new(usize::MAX as *const u8, 2).unwrap_err(),
            ELEPHANT_ERR_LENGTH
        );
        assert_eq!(
            Region::new(16 as *const u8, usize::MAX / 2 + 1).unwrap_err(),
            ELEPHANT_ERR_LENGTH
        );
    }

    #[test]
    fn overlaps_are_found() {
        let ok = |outputs: &mut [Region], inputs: &[Region]| disjoint(outputs, inputs).is_ok();
        assert!(ok(
            &mut [at(100, 10), at(110, 5)],
            &[at(90, 10), at(115, 50)]
        ));
        assert!(!ok(&mut [at(100, 10), at(109, 5)], &[]));
        assert!(!ok(&mut [at(109, 5), at(100, 10)], &[]));
        assert!(!ok(&mut [at(100, 10)], &[at(109, 1)]));
        assert!(!ok(&mut [at(100, 10)], &[at(50, 51)]));
        assert!(!ok(&mut [at(200, 1), at(100, 10)], &[at(1, 1000)]));
        // Empty regions meet nothing, wherever they point.
        assert!(ok(&mut [at(100, 10), at(105, 0)], &[at(104, 0)]));
        assert!(ok(&mut [at(100, 0), at(100, 10)], &[at(110, 3)]));
        // Inputs may overlap each other.
        assert!(ok(&mut [at(1, 4)], &[at(10, 10), at(12, 3)]));
    }
}
