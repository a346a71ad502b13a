//! The permutations of Elephant and what the mode needs from each of them.
//!
//! The `const fn`s here are the reference definitions (usable in `const`
//! items); the [`Permutation`] trait ties each one to its block size, tag
//! size and mask LFSR φ, and gives the mode a batched entry point that
//! permutes many independent blocks in one call, on the tiers a call
//! detected when it started.
//!
//! This layer names nothing above it: it exports its tiers' facts (the
//! widths, the threshold below which no wide kernel runs, the narrow and
//! lanes batches), which the mode's plan and the stack clearing read; and
//! [`Permutation::from_instance`] lets the layers above reach code of their
//! own compiled once per instance (`crate::instance`) without naming it.

#[cfg(test)]
mod backend_check;
#[cfg(elephant_x86)]
pub(crate) mod cpu;
pub(crate) mod tiers;
// The mode's AVX-512 loops take the same token in their tests.
#[cfg(all(test, elephant_avx512))]
pub(crate) use backend_check::avx512_vbmi_or_fail;
mod keccak;
// The SIMD registers of the kernels of both permutations.
#[cfg(any(elephant_x86, elephant_neon))]
mod simd;
mod spongent;

pub use keccak::keccak_f200;
pub use spongent::{spongent_pi_160, spongent_pi_176};
pub(crate) use tiers::Tiers;

/// The longest batch that reaches none of the wide kernels of either
/// permutation (the deepest frames): the plan's short runs
/// (`mode::plan::SHORT_RUN`) are at most this long.
pub(crate) const SHORT_BATCH_MAX: usize = {
    let (spongent, keccak) = (
        spongent::backends::SHORT_BATCH_MAX,
        keccak::backends::SHORT_BATCH_MAX,
    );
    if spongent < keccak { spongent } else { keccak }
};

/// Every Keccak-f\[200\] batch tier on its own, for the tier benchmarks
/// only (`RUSTFLAGS="--cfg elephant_bench_tiers"`): not part of the API.
#[cfg(all(elephant_bench_tiers, elephant_batch))]
#[doc(hidden)]
pub use keccak::backends::tiers as keccak_batch_tiers;

/// Every Spongent-π batch tier on its own, for the tier benchmarks only
/// (`RUSTFLAGS="--cfg elephant_bench_tiers"`): not part of the API.
#[cfg(all(elephant_bench_tiers, elephant_batch))]
#[doc(hidden)]
pub use spongent::backends::tiers as spongent_batch_tiers;

use aead::array::ArraySize;
use aead::consts::{U8, U16};
use core::fmt::Debug;
use zeroize::Zeroize;

mod sealed {
    /// Keeps [`super::Permutation`] closed: the mode was checked with these
    /// three instances only.
    pub trait Sealed {}

    impl Sealed for super::Spongent160 {}
    impl Sealed for super::Spongent176 {}
    impl Sealed for super::Keccak200 {}
}

/// A type that the layers above build from an instance's permutation,
/// for [`Permutation::from_instance`]: e.g. the type of an entry point of
/// `P`, with two lifetimes to borrow by. Not part of the API.
#[doc(hidden)]
pub trait Family {
    /// The type for the permutation `P`.
    type Of<'a, 'b: 'a, P: Permutation>;
}

/// A value of the family `F`, by instance: what
/// [`Permutation::from_instance`] takes. Not part of the API.
#[doc(hidden)]
pub enum ByInstance<'a, 'b: 'a, F: Family> {
    /// Dumbo's.
    Dumbo(F::Of<'a, 'b, Spongent160>),
    /// Jumbo's.
    Jumbo(F::Of<'a, 'b, Spongent176>),
    /// Delirium's.
    Delirium(F::Of<'a, 'b, Keccak200>),
}

impl<F: Family> Debug for ByInstance<'_, '_, F> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Self::Dumbo(_) => "Dumbo",
            Self::Jumbo(_) => "Jumbo",
            Self::Delirium(_) => "Delirium",
        })
    }
}

/// A permutation that an [`Elephant`](crate::Elephant) instance is built on.
///
/// The trait is sealed: it is implemented by [`Spongent160`] (Dumbo),
/// [`Spongent176`] (Jumbo) and [`Keccak200`] (Delirium) only.
pub trait Permutation: sealed::Sealed + Copy + Default + Debug + Send + Sync + 'static {
    /// One state of the permutation, which is one block of the mode.
    type Block: Copy + Default + AsRef<[u8]> + AsMut<[u8]> + Zeroize + Send + Sync + 'static;

    /// Length of the authentication tag in bytes.
    type TagSize: ArraySize;

    /// Length of [`Self::Block`] in bytes.
    const BLOCK_SIZE: usize;

    /// Name of the Elephant instance built on this permutation.
    const INSTANCE: &'static str;

    /// The all-zero block, as a constant: the mode's runs start as a
    /// constant array of it, which compiles to one fill of zeros in every
    /// build (`Default` is no `const fn`).
    #[doc(hidden)]
    const ZERO_BLOCK: Self::Block;

    /// The Elephant instance built on this permutation, for the facts
    /// measured per instance (how deep the mode clears the stack).
    #[doc(hidden)]
    const ID: Instance;

    /// A value of the family `F` typed for this permutation's instance, as
    /// the same value typed for `Self` (`None` for another instance's):
    /// generic code picks with it, among functions written for each
    /// instance, the one of `Self`, which is not generic and so compiled
    /// once, in this crate (`crate::instance` reaches the mode that way).
    /// Not part of the API.
    #[doc(hidden)]
    fn from_instance<'a, 'b: 'a, F: Family>(
        value: ByInstance<'a, 'b, F>,
    ) -> Option<F::Of<'a, 'b, Self>>;

    /// Permutes one block in place.
    fn permute(block: &mut Self::Block);

    /// Permutes every block of `blocks` in place, each independently.
    ///
    /// This is the entry point for fast backends: handing many blocks over at
    /// once lets them work on several states in parallel.
    fn permute_batch(blocks: &mut [Self::Block]) {
        Self::permute_batch_on(Tiers::detect(), blocks);
    }

    /// [`Self::permute_batch`] on the tiers `tiers` (detected when the
    /// call that permutes started): the mode's entry point.
    #[doc(hidden)]
    fn permute_batch_on(tiers: Tiers, blocks: &mut [Self::Block]);

    /// The most blocks a batch may have and still cost one call of this
    /// permutation's narrowest vector kernel on a CPU with `tiers`, where
    /// sealing a medium message on runs of a multiple of it pays (`None`
    /// where it does not): the kernel is much cheaper than the widest
    /// (Spongent-π), or is the widest, so that such runs take as many calls
    /// as full ones and leave less stack to clear (Keccak-f\[200\] with
    /// AVX2).
    #[doc(hidden)]
    #[must_use]
    fn narrow_batch(tiers: Tiers) -> Option<usize>;

    /// The fewest blocks a batch needs, on a CPU with `tiers`, to reach a
    /// kernel of 64 states with each state's parts in vector lanes (a
    /// deeper frame than one state's), if the CPU has one: the plan clears
    /// deeper after short calls whose runs may reach it.
    #[doc(hidden)]
    #[must_use]
    fn lanes_batch(tiers: Tiers) -> Option<usize>;

    /// The kernel this permutation runs on this CPU for a batch of
    /// `blocks` blocks (`kernels_for(1)`: the single state, which
    /// [`Self::permute`] runs): what the backend selector picks after
    /// CPU detection, for benchmarks and diagnostics. E.g. `"pext"`,
    /// `"AVX2 lanes x64"` (64 states with each state's quarters in the
    /// lanes) or `"AVX2 x256"` (256 states bitsliced).
    #[must_use]
    fn kernels_for(blocks: usize) -> &'static str;

    /// How far back in the mask stream, from a byte φ appends, lie the
    /// bytes that [`Self::feedback_word`] computes it from. The nearest
    /// of them bounds how many bytes one step of the word form can append;
    /// the farthest, how much stream it needs behind it.
    const FEEDBACK_BACK: &'static [usize];

    /// The mask stream's next eight bytes at once, from the stream before
    /// them: `back(d)` is the eight bytes that start `d` bytes before the
    /// first of them, for each `d` of [`Self::FEEDBACK_BACK`]. Each tap's
    /// shift or rotation works on the eight bytes of a word together, so a
    /// long message's mask stream grows by up to eight bytes a step where
    /// the taps lie far enough back. The same stream as
    /// [`Self::mask_feedback`]'s, once at least the farthest tap's distance
    /// of it exists.
    fn feedback_word(back: impl Fn(usize) -> u64) -> u64;

    /// The byte that the mask LFSR φ appends: `mask_{i+1}` is `mask_i`
    /// shifted one byte towards the front with this byte at the end. So the
    /// masks are windows of one byte stream, which the mode steps one byte
    /// per block. `mask` holds `mask_i` (`BLOCK_SIZE` bytes).
    fn mask_feedback(mask: &[u8]) -> u8;

    /// The mask LFSR φ: `mask_{i+1} = φ(mask_i)`.
    fn next_mask(mask: &Self::Block) -> Self::Block {
        let mut next = Self::Block::default();
        if let (Some((_, from)), Some((last, to))) =
            (mask.as_ref().split_first(), next.as_mut().split_last_mut())
        {
            to.copy_from_slice(from);
            *last = Self::mask_feedback(mask.as_ref());
        }
        next
    }
}

/// Byte `i` of a mask, for [`Permutation::mask_feedback`] (a shorter slice
/// reads as zeros, which the mode never passes).
fn mask_byte(mask: &[u8], i: usize) -> u8 {
    mask.get(i).copied().unwrap_or_default()
}

/// Ones in the lowest bit of every byte of a word.
const LOW_BITS: u64 = 0x0101_0101_0101_0101;

/// Every byte of `x` shifted left by `S` bits (0 < `S` < 8).
#[inline]
const fn bytes_shl<const S: u32>(x: u64) -> u64 {
    (x << S) & LOW_BITS.wrapping_mul((0xff << S) & 0xff)
}

/// Every byte of `x` shifted right by `S` bits (0 < `S` < 8).
#[inline]
const fn bytes_shr<const S: u32>(x: u64) -> u64 {
    (x >> S) & LOW_BITS.wrapping_mul(0xff >> S)
}

/// Every byte of `x` rotated left by `S` bits (0 < `S` < 8).
#[inline]
const fn bytes_rotl<const S: u32, const REST: u32>(x: u64) -> u64 {
    const { assert!(S + REST == 8, "a rotation of a byte") };
    bytes_shl::<S>(x) | bytes_shr::<REST>(x)
}

/// The three Elephant instances, one per permutation.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Instance {
    /// Spongent-π\[160\].
    Dumbo,
    /// Spongent-π\[176\].
    Jumbo,
    /// Keccak-f\[200\].
    Delirium,
}

/// Spongent-π\[160\], the permutation of Dumbo (20-byte blocks, 8-byte tags).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spongent160;

/// Spongent-π\[176\], the permutation of Jumbo (22-byte blocks, 8-byte tags).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spongent176;

/// Keccak-f\[200\], the permutation of Delirium (25-byte blocks, 16-byte tags).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Keccak200;

impl Permutation for Spongent160 {
    type Block = [u8; 20];
    const ZERO_BLOCK: [u8; 20] = [0; 20];
    type TagSize = U8;
    const BLOCK_SIZE: usize = 20;
    const INSTANCE: &'static str = "Dumbo";
    const ID: Instance = Instance::Dumbo;

    #[inline(always)]
    fn from_instance<'a, 'b: 'a, F: Family>(
        value: ByInstance<'a, 'b, F>,
    ) -> Option<F::Of<'a, 'b, Self>> {
        match value {
            ByInstance::Dumbo(value) => Some(value),
            _ => None,
        }
    }

    fn permute(block: &mut Self::Block) {
        spongent::backends::permute_one_160(block);
    }

    fn permute_batch_on(tiers: Tiers, blocks: &mut [Self::Block]) {
        spongent::backends::permute_160(tiers, blocks);
    }

    fn kernels_for(blocks: usize) -> &'static str {
        spongent::backends::kernel_160(Tiers::detect(), blocks)
    }

    fn narrow_batch(tiers: Tiers) -> Option<usize> {
        spongent::backends::narrow_batch_160(tiers)
    }

    fn lanes_batch(tiers: Tiers) -> Option<usize> {
        spongent::backends::lanes_batch_160(tiers)
    }

    fn mask_feedback(x: &[u8]) -> u8 {
        let byte = |i| mask_byte(x, i);
        byte(0).rotate_left(3) ^ (byte(3) << 7) ^ (byte(13) >> 7)
    }

    /// Byte 13 of the mask φ reads lies only 7 bytes back, which would
    /// allow 7-byte steps whose every step waits for the one before; but
    /// only its top bit counts, and that bit is bit 4 of the byte 27 back
    /// ⊕ bit 0 of the byte 24 back (φ once more). So the word form reads
    /// the bytes 27, 24, 20 and 17 back, and steps eight bytes, each step
    /// independent of the one before (what it saves: DESIGN.md).
    const FEEDBACK_BACK: &'static [usize] = &[27, 24, 20, 17];

    /// `x_0 ⋘ 3 ⊕ x_3 ≪ 7 ⊕ x_13 ≫ 7` with `x_13 ≫ 7 = (x_{−7} ≫ 4 ⊕
    /// x_{−4}) ∧ 1` (indices relative to the mask the byte is appended to).
    #[inline]
    fn feedback_word(back: impl Fn(usize) -> u64) -> u64 {
        bytes_rotl::<3, 5>(back(20))
            ^ bytes_shl::<7>(back(17))
            ^ ((bytes_shr::<4>(back(27)) ^ back(24)) & LOW_BITS)
    }
}

impl Permutation for Spongent176 {
    type Block = [u8; 22];
    const ZERO_BLOCK: [u8; 22] = [0; 22];
    type TagSize = U8;
    const BLOCK_SIZE: usize = 22;
    const INSTANCE: &'static str = "Jumbo";
    const ID: Instance = Instance::Jumbo;

    #[inline(always)]
    fn from_instance<'a, 'b: 'a, F: Family>(
        value: ByInstance<'a, 'b, F>,
    ) -> Option<F::Of<'a, 'b, Self>> {
        match value {
            ByInstance::Jumbo(value) => Some(value),
            _ => None,
        }
    }

    fn permute(block: &mut Self::Block) {
        spongent::backends::permute_one_176(block);
    }

    fn permute_batch_on(tiers: Tiers, blocks: &mut [Self::Block]) {
        spongent::backends::permute_176(tiers, blocks);
    }

    fn kernels_for(blocks: usize) -> &'static str {
        spongent::backends::kernel_176(Tiers::detect(), blocks)
    }

    fn narrow_batch(tiers: Tiers) -> Option<usize> {
        spongent::backends::narrow_batch_176(tiers)
    }

    fn lanes_batch(tiers: Tiers) -> Option<usize> {
        spongent::backends::lanes_batch_176(tiers)
    }

    fn mask_feedback(x: &[u8]) -> u8 {
        let byte = |i| mask_byte(x, i);
        byte(0).rotate_left(1) ^ (byte(3) << 7) ^ (byte(19) >> 7)
    }

    /// Byte 19 of the mask φ reads lies only 3 bytes back, which would
    /// allow 3-byte steps; but only its top bit counts, and that bit is
    /// bit 6 of the byte 25 back ⊕ bit 0 of the byte 22 back (φ once more,
    /// for the stream from byte 25 on). So the word form reads the bytes
    /// 25, 22 and 19 back, and steps eight bytes instead of one (what it
    /// saves: DESIGN.md).
    const FEEDBACK_BACK: &'static [usize] = &[25, 22, 19];

    /// `x_0 ⋘ 1 ⊕ x_3 ≪ 7 ⊕ x_19 ≫ 7` with `x_19 ≫ 7 = (x_{−3} ≫ 6 ⊕
    /// x_0) ∧ 1` (indices relative to the mask the byte is appended to).
    #[inline]
    fn feedback_word(back: impl Fn(usize) -> u64) -> u64 {
        let x0 = back(22);
        bytes_rotl::<1, 7>(x0)
            ^ bytes_shl::<7>(back(19))
            ^ ((bytes_shr::<6>(back(25)) ^ x0) & LOW_BITS)
    }
}

impl Permutation for Keccak200 {
    type Block = [u8; 25];
    const ZERO_BLOCK: [u8; 25] = [0; 25];
    type TagSize = U16;
    const BLOCK_SIZE: usize = 25;
    const INSTANCE: &'static str = "Delirium";
    const ID: Instance = Instance::Delirium;

    #[inline(always)]
    fn from_instance<'a, 'b: 'a, F: Family>(
        value: ByInstance<'a, 'b, F>,
    ) -> Option<F::Of<'a, 'b, Self>> {
        match value {
            ByInstance::Delirium(value) => Some(value),
            _ => None,
        }
    }

    fn permute(block: &mut Self::Block) {
        keccak::backends::permute_one(block);
    }

    fn permute_batch_on(tiers: Tiers, blocks: &mut [Self::Block]) {
        keccak::backends::permute(tiers, blocks);
    }

    fn kernels_for(blocks: usize) -> &'static str {
        keccak::backends::kernel(Tiers::detect(), blocks)
    }

    fn narrow_batch(tiers: Tiers) -> Option<usize> {
        keccak::backends::narrow_batch(tiers)
    }

    fn lanes_batch(tiers: Tiers) -> Option<usize> {
        keccak::backends::lanes_batch(tiers)
    }

    fn mask_feedback(x: &[u8]) -> u8 {
        let byte = |i| mask_byte(x, i);
        byte(0).rotate_left(1) ^ byte(2).rotate_left(1) ^ (byte(13) << 1)
    }

    /// Bytes 0, 2 and 13 of the mask the byte is appended to.
    const FEEDBACK_BACK: &'static [usize] = &[25, 23, 12];

    /// `x_0 ⋘ 1 ⊕ x_2 ⋘ 1 ⊕ x_13 ≪ 1`.
    #[inline]
    fn feedback_word(back: impl Fn(usize) -> u64) -> u64 {
        bytes_rotl::<1, 7>(back(25) ^ back(23)) ^ bytes_shl::<1>(back(12))
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)] // Tests may panic.
mod tests {
    use super::*;

    use super::backend_check::{
        KECCAK_200_VECTORS, SPONGENT_160_VECTORS, SPONGENT_176_VECTORS, counting,
    };

    /// Compile-time equality of two byte arrays.
    // Used only in the `const` block below, which Rust 1.85 does not count
    // as a use.
    #[allow(dead_code)]
    const fn same<const N: usize>(a: [u8; N], b: [u8; N]) -> bool {
        let mut i = 0;
        while i < N {
            if a[i] != b[i] {
                return false;
            }
            i += 1;
        }
        true
    }

    // The spec's permutation test values, checked on the `const fn`s at
    // compile time.
    const _: () = {
        let mut i = 0;
        while i < 3 {
            assert!(same(
                spongent_pi_160(SPONGENT_160_VECTORS[i].0),
                SPONGENT_160_VECTORS[i].1
            ));
            assert!(same(
                spongent_pi_176(SPONGENT_176_VECTORS[i].0),
                SPONGENT_176_VECTORS[i].1
            ));
            assert!(same(
                keccak_f200(KECCAK_200_VECTORS[i].0),
                KECCAK_200_VECTORS[i].1
            ));
            i += 1;
        }
    };

    /// φ written index by index from the spec note, to check the
    /// feedback bytes above.
    fn spec_phi(x: &[u8], last: u8) -> Vec<u8> {
        let mut y = x[1..].to_vec();
        y.push(last);
        y
    }

    /// φ's word form continues the stream its byte form makes, in every
    /// byte of every step: checked on streams from pseudo-random masks,
    /// so that no bit crosses into a neighbouring byte.
    #[test]
    fn feedback_word_continues_the_byte_form() {
        fn check<P: Permutation>() {
            let mut seed = 0x9e37_79b9_7f4a_7c15u64;
            let mut next = || {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed
            };
            let farthest = P::FEEDBACK_BACK.iter().copied().max().unwrap_or_default();
            for _ in 0..100 {
                let mut stream: Vec<u8> = (0..P::BLOCK_SIZE)
                    .map(|_| next().to_le_bytes()[0])
                    .collect();
                while stream.len() < 120 {
                    let mask = &stream[stream.len() - P::BLOCK_SIZE..];
                    stream.push(P::mask_feedback(mask));
                }
                for at in farthest..stream.len() - 8 {
                    let word = |from: usize| {
                        let mut bytes = [0; 8];
                        bytes.copy_from_slice(&stream[from..from + 8]);
                        u64::from_le_bytes(bytes)
                    };
                    let lanes = P::feedback_word(|back| {
                        assert!(P::FEEDBACK_BACK.contains(&back), "a listed tap");
                        word(at - back)
                    })
                    .to_le_bytes();
                    assert_eq!(lanes, stream[at..at + 8], "{} at {at}", P::INSTANCE);
                }
            }
        }
        check::<Spongent160>();
        check::<Spongent176>();
        check::<Keccak200>();
    }

    /// The kernels named are ones the target and CPU allow: portable where
    /// forced or off x86-64, a vector batch kernel for a full run where
    /// AVX2 is required, one state in the one-block mode.
    #[test]
    fn kernels_name_what_the_target_and_cpu_allow() {
        for blocks in [1, 2, 8, 9, 64, 65, 256] {
            for kernel in [
                Spongent160::kernels_for(blocks),
                Spongent176::kernels_for(blocks),
                Keccak200::kernels_for(blocks),
            ] {
                let vector = kernel.contains("AVX") || kernel.contains("pext");
                if cfg!(not(elephant_x86)) {
                    assert!(!vector, "{kernel}");
                } else if blocks == 256
                    && std::env::var("ELEPHANT_REQUIRE_AVX2").as_deref() == Ok("1")
                {
                    assert!(kernel.starts_with("AVX"), "{kernel}");
                }
                if cfg!(not(elephant_batch)) {
                    assert!(kernel.starts_with("soft32"), "{kernel}");
                }
            }
        }
        // The single state is what `permute` runs, for both Spongent-π.
        assert_eq!(Spongent160::kernels_for(1), Spongent176::kernels_for(1));
    }

    #[test]
    fn mask_lfsrs_match_the_spec() {
        let mut x20 = counting::<20>();
        let mut x22 = counting::<22>();
        let mut x25 = counting::<25>();
        for round in 0..200u8 {
            let y = spec_phi(&x20, x20[0].rotate_left(3) ^ (x20[3] << 7) ^ (x20[13] >> 7));
            x20 = Spongent160::next_mask(&x20);
            assert_eq!(x20.as_slice(), y, "Dumbo φ step {round}");
            let y = spec_phi(&x22, x22[0].rotate_left(1) ^ (x22[3] << 7) ^ (x22[19] >> 7));
            x22 = Spongent176::next_mask(&x22);
            assert_eq!(x22.as_slice(), y, "Jumbo φ step {round}");
            let y = spec_phi(
                &x25,
                x25[0].rotate_left(1) ^ x25[2].rotate_left(1) ^ (x25[13] << 1),
            );
            x25 = Keccak200::next_mask(&x25);
            assert_eq!(x25.as_slice(), y, "Delirium φ step {round}");
            // Keep bits flowing through all positions.
            x20[7] ^= round.wrapping_mul(37);
            x22[9] ^= round.wrapping_mul(91);
            x25[11] ^= round.wrapping_mul(53);
        }
    }
}
