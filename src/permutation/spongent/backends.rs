//! Spongent-π\[160\] and Spongent-π\[176\] backends, and the one place
//! that picks among them for a batch of blocks.
//!
//! Tiers, chosen by the number of blocks (a public length):
//! - one state in 32-bit words (`soft32`): every target, and the only
//!   backend on 32-bit targets but wasm32 (firmware), where it is also
//!   the smallest;
//! - one state in four bit planes with BMI2 `pext` (`pext`), when the CPU
//!   has a fast `pext` (Intel; AMD from Zen 3): up to 7 or 8 blocks, and
//!   for the single permutations of every call (the tag, short messages);
//! - 64 states bitsliced in `u64` words ([`soft64`]), on 64-bit targets
//!   and wasm32 (`elephant_batch`);
//! - 256 states bitsliced in AVX2 words (`avx2`), when the CPU has AVX2;
//!   for 5–128 blocks, calls of 64 states with the state's quarters in the
//!   lanes of AVX2 words (`avx2::medium`), where the CPU lacks the AVX-512
//!   tiers below;
//! - when it also has AVX-512 (F, VL, BW, VBMI) and GFNI (built by Rust
//!   1.89 or newer), 256 states in `ymm` words, or 512 in `zmm` words for
//!   longer batches, two rounds per pass over memory (`avx512`), from 9
//!   blocks (Spongent-π\[160\]: 64 states in the lanes of `zmm` words
//!   for 4–64 blocks, `avx512::medium`);
//! - on aarch64 (NEON is part of its baseline), one state in NEON vectors
//!   (`neon_one`) instead of `soft32`, and from 23 blocks 128 states
//!   bitsliced in NEON vectors, two rounds per pass (`neon`), instead of
//!   [`soft64`].
//!
//! The tiers are one table (`tier_table!` below): the selector, the names
//! of what runs, the narrow width and the tier listing come from it. Every
//! tier equals the `const fn` reference bit for bit (see the tests), and
//! only the public number of blocks and the CPU's features pick one.

// One kernel per file, each built where it can run (the names are set by
// `build.rs`); the AVX-512 ones need Rust 1.89.
#[cfg(elephant_x86)]
mod avx2;
#[cfg(elephant_avx512)]
#[clippy::msrv = "1.89"]
mod avx512;
#[cfg(elephant_neon)]
mod neon;
#[cfg(elephant_neon)]
mod neon_one;
#[cfg(elephant_neon)]
mod neon_sbox;
#[cfg(elephant_x86)]
mod pext;
#[cfg(any(test, not(elephant_neon)))]
mod soft32;
#[cfg(elephant_batch)]
#[cfg_attr(elephant_neon, allow(dead_code))]
mod soft64;

use crate::permutation::Tiers;
#[cfg(elephant_avx512)]
use crate::permutation::cpu::Avx512Vbmi;
#[cfg(elephant_x86)]
use crate::permutation::cpu::FastPext;
use crate::permutation::tiers::{tier_table, wide_min};

/// Up to this many blocks, one state at a time beats the portable 64-wide
/// bitsliced kernel (measured with the `spongent_batch` benchmarks).
#[cfg(all(elephant_batch, not(elephant_neon)))]
const ONE_STATE_MAX: usize = 3;

/// From this many blocks on, the 128-state NEON kernel beats the NEON
/// single state a block (DESIGN.md, "Spongent-π on aarch64").
#[cfg(elephant_neon)]
const NEON_MIN: usize = 23;

/// Up to this many blocks, one state at a time with the `pext` kernel
/// (where the CPU has a fast `pext`) beats the batch kernels of 64 and of
/// 256 states (figures: DESIGN.md, "Tier thresholds").
#[cfg(elephant_x86)]
const ONE_STATE_MAX_PEXT_160: usize = 7;
/// [`ONE_STATE_MAX_PEXT_160`] for Spongent-π\[176\].
#[cfg(elephant_x86)]
const ONE_STATE_MAX_PEXT_176: usize = 8;

/// From this many blocks on, the AVX2 kernel (256 states per call, padded)
/// beats the portable tiers.
#[cfg(elephant_x86)]
const AVX2_MIN: usize = 65;

/// From this many blocks, the 64-state AVX2 kernel with the state's
/// quarters in the lanes (`avx2::medium`) beats the `pext` single state a
/// block.
#[cfg(elephant_x86)]
const AVX2_MEDIUM_MIN: usize = 5;

/// Up to this many blocks, calls of the 64-state AVX2 kernel (two at
/// most) beat one of the 256-state kernel.
#[cfg(elephant_x86)]
const AVX2_MEDIUM_MAX: usize = 128;

/// From this many blocks on, the AVX-512 kernel (256 states per call,
/// padded; 512 for longer batches) takes over. It would pay from 7 or 8
/// blocks; it starts past [`SHORT_BATCH_MAX`], the runs of short calls,
/// whose stack clearing (`scrub::depth::SHORT_CALL`) is sized for the
/// smaller kernels (DESIGN.md, "Tier thresholds").
const AVX512_MIN: usize = 9;

/// The longest batch that reaches none of the wide kernels (the 256-state
/// and wider ones, the deepest frames): the plan's short runs are at most
/// this long (`mode::plan::SHORT_RUN`), so that a short call never goes
/// deeper than its clearing.
pub(crate) const SHORT_BATCH_MAX: usize = AVX512_MIN - 1;

/// From this many blocks, the 64-state AVX-512 kernel with the state's
/// bit ranges in the lanes beats the `pext` single state a block. Short
/// calls whose runs reach it clear deeper (`scrub::depth::SHORT_CALL_LANES`).
#[cfg(elephant_avx512)]
const AVX512_LANES_MIN: usize = 4;

/// Up to this many blocks, one call of the 64-state AVX-512 kernel with
/// the state's bit ranges in the lanes (`avx512::medium`, Spongent-π\[160\]
/// only) beats one of the 256-state kernel.
#[cfg(elephant_avx512)]
const AVX512_LANES_MAX: usize = 64;

// The tiers of Spongent-π[160], in the order the selector tries them: the
// 64-state lanes kernels (the narrow batches: a call costs about half of
// the 256-state AVX-512 kernel's, a third of the AVX2 one's; the AVX2 one
// where the CPU lacks the AVX-512 tiers), one state at a time with `pext`,
// the wide kernels, the portable 64-state one, and one state at a time.
tier_table! {
    mod t160 for [u8; 20];
    #[cfg(elephant_avx512)]
    Avx512Lanes "AVX-512 lanes x64": AVX512_LANES_MIN, AVX512_LANES_MAX, vbmi, Lanes,
        narrow AVX512_LANES_MAX => all avx512::medium::permute_160;
    #[cfg(elephant_x86)]
    Avx2Lanes "AVX2 lanes x64": AVX2_MEDIUM_MIN, AVX2_MEDIUM_MAX, avx2_alone, Lanes,
        narrow avx2::medium::STATES => all avx2::medium::permute_160;
    #[cfg(elephant_x86)]
    Pext "pext": 0, ONE_STATE_MAX_PEXT_160, pext, Shallow => all pext_each_160;
    #[cfg(elephant_avx512)]
    Avx512 "AVX-512 x256": AVX512_MIN, avx512::NARROW, vbmi, Wide => all avx512_x256_160;
    #[cfg(elephant_avx512)]
    Avx512Wide "AVX-512 x512": avx512::NARROW + 1, usize::MAX, vbmi, Wide
        => all avx512::permute_160;
    #[cfg(elephant_x86)]
    Avx2 "AVX2 x256": AVX2_MIN, usize::MAX, avx2, Wide => all avx2::permute_160;
    #[cfg(elephant_neon)]
    Neon "NEON x128": NEON_MIN, usize::MAX, always, Wide => all neon_160;
    #[cfg(all(elephant_batch, not(elephant_neon)))]
    Soft64 "soft64 x64": ONE_STATE_MAX + 1, usize::MAX, always, Shallow => all soft64_160;
    #[cfg(elephant_neon)]
    NeonOne "NEON one": 0, usize::MAX, always, Shallow => all neon_one_each_160;
    #[cfg(not(elephant_neon))]
    Soft32 "soft32": 0, usize::MAX, always, Shallow => all soft32_each_160;
}

// The tiers of Spongent-π[176]: those of Spongent-π[160] but the AVX-512
// lanes kernel, which is Spongent-π[160]'s only (AVX-512 CPUs take these
// batches to their 256-state kernel).
tier_table! {
    mod t176 for [u8; 22];
    #[cfg(elephant_x86)]
    Avx2Lanes "AVX2 lanes x64": AVX2_MEDIUM_MIN, AVX2_MEDIUM_MAX, avx2_alone, Lanes,
        narrow avx2::medium::STATES => all avx2::medium::permute_176;
    #[cfg(elephant_x86)]
    Pext "pext": 0, ONE_STATE_MAX_PEXT_176, pext, Shallow => all pext_each_176;
    #[cfg(elephant_avx512)]
    Avx512 "AVX-512 x256": AVX512_MIN, avx512::NARROW, vbmi, Wide => all avx512_x256_176;
    #[cfg(elephant_avx512)]
    Avx512Wide "AVX-512 x512": avx512::NARROW + 1, usize::MAX, vbmi, Wide
        => all avx512::permute_176;
    #[cfg(elephant_x86)]
    Avx2 "AVX2 x256": AVX2_MIN, usize::MAX, avx2, Wide => all avx2::permute_176;
    #[cfg(elephant_neon)]
    Neon "NEON x128": NEON_MIN, usize::MAX, always, Wide => all neon_176;
    #[cfg(all(elephant_batch, not(elephant_neon)))]
    Soft64 "soft64 x64": ONE_STATE_MAX + 1, usize::MAX, always, Shallow => all soft64_176;
    #[cfg(elephant_neon)]
    NeonOne "NEON one": 0, usize::MAX, always, Shallow => all neon_one_each_176;
    #[cfg(not(elephant_neon))]
    Soft32 "soft32": 0, usize::MAX, always, Shallow => all soft32_each_176;
}

// No wide kernel takes a short batch, on any build.
const _: () = assert!(wide_min(t160::ROWS) > SHORT_BATCH_MAX);
const _: () = assert!(wide_min(t176::ROWS) > SHORT_BATCH_MAX);

/// Spongent-π\[160\] on every block of `blocks`, each independently, by
/// the tier the table picks for this CPU's `tiers`.
pub(in crate::permutation) fn permute_160(tiers: Tiers, blocks: &mut [[u8; 20]]) {
    t160::select(tiers, blocks);
}

/// Spongent-π\[176\] on every block of `blocks`, as [`permute_160`].
pub(in crate::permutation) fn permute_176(tiers: Tiers, blocks: &mut [[u8; 22]]) {
    t176::select(tiers, blocks);
}

/// Spongent-π\[160\] on one block: the table's tier for one block.
#[inline]
pub(in crate::permutation) fn permute_one_160(block: &mut [u8; 20]) {
    t160::select_one(Tiers::detect(), block);
}

/// Spongent-π\[176\] on one block: the table's tier for one block.
#[inline]
pub(in crate::permutation) fn permute_one_176(block: &mut [u8; 22]) {
    t176::select_one(Tiers::detect(), block);
}

/// The name of the Spongent-π\[160\] tier for a batch of `blocks`.
pub(in crate::permutation) fn kernel_160(tiers: Tiers, blocks: usize) -> &'static str {
    t160::name(tiers, blocks)
}

/// The name of the Spongent-π\[176\] tier for a batch of `blocks`.
pub(in crate::permutation) fn kernel_176(tiers: Tiers, blocks: usize) -> &'static str {
    t176::name(tiers, blocks)
}

/// The batch that one call of this CPU's 64-state lanes kernel of
/// Spongent-π\[160\] serves, if it has one (see
/// [`crate::Permutation::narrow_batch`]).
pub(in crate::permutation) fn narrow_batch_160(tiers: Tiers) -> Option<usize> {
    t160::narrow(tiers)
}

/// [`narrow_batch_160`] for Spongent-π\[176\].
pub(in crate::permutation) fn narrow_batch_176(tiers: Tiers) -> Option<usize> {
    t176::narrow(tiers)
}

/// The fewest blocks that reach a lanes kernel of Spongent-π\[160\] on
/// this CPU (see [`crate::Permutation::lanes_batch`]).
pub(in crate::permutation) fn lanes_batch_160(tiers: Tiers) -> Option<usize> {
    t160::lanes(tiers)
}

/// [`lanes_batch_160`] for Spongent-π\[176\].
pub(in crate::permutation) fn lanes_batch_176(tiers: Tiers) -> Option<usize> {
    t176::lanes(tiers)
}

/// The `pext` kernel on each block.
#[cfg(elephant_x86)]
fn pext_each_160(token: FastPext, blocks: &mut [[u8; 20]]) {
    blocks
        .iter_mut()
        .for_each(|block| pext::permute_160(token, block));
}

/// The `pext` kernel on each block.
#[cfg(elephant_x86)]
fn pext_each_176(token: FastPext, blocks: &mut [[u8; 22]]) {
    blocks
        .iter_mut()
        .for_each(|block| pext::permute_176(token, block));
}

/// The 256-state AVX-512 kernel, 256 blocks a call (the selector hands
/// it one call's worth).
#[cfg(elephant_avx512)]
fn avx512_x256_160(token: Avx512Vbmi, blocks: &mut [[u8; 20]]) {
    for chunk in blocks.chunks_mut(avx512::NARROW) {
        avx512::permute_160_width(token, chunk, avx512::NARROW);
    }
}

/// The 256-state AVX-512 kernel, 256 blocks a call (the selector hands
/// it one call's worth).
#[cfg(elephant_avx512)]
fn avx512_x256_176(token: Avx512Vbmi, blocks: &mut [[u8; 22]]) {
    for chunk in blocks.chunks_mut(avx512::NARROW) {
        avx512::permute_176_width(token, chunk, avx512::NARROW);
    }
}

/// The 128-state NEON kernel (NEON is part of the aarch64 baseline).
#[cfg(elephant_neon)]
fn neon_160((): (), blocks: &mut [[u8; 20]]) {
    neon::permute_160(blocks);
}

/// The 128-state NEON kernel (NEON is part of the aarch64 baseline).
#[cfg(elephant_neon)]
fn neon_176((): (), blocks: &mut [[u8; 22]]) {
    neon::permute_176(blocks);
}

/// The portable 64-state kernel, 64 blocks a call.
#[cfg(all(elephant_batch, not(elephant_neon)))]
fn soft64_160((): (), blocks: &mut [[u8; 20]]) {
    blocks.chunks_mut(64).for_each(soft64::permute_160_x64);
}

/// The portable 64-state kernel, 64 blocks a call.
#[cfg(all(elephant_batch, not(elephant_neon)))]
fn soft64_176((): (), blocks: &mut [[u8; 22]]) {
    blocks.chunks_mut(64).for_each(soft64::permute_176_x64);
}

/// The NEON single state on each block.
#[cfg(elephant_neon)]
fn neon_one_each_160((): (), blocks: &mut [[u8; 20]]) {
    blocks.iter_mut().for_each(neon_one::permute_160);
}

/// The NEON single state on each block.
#[cfg(elephant_neon)]
fn neon_one_each_176((): (), blocks: &mut [[u8; 22]]) {
    blocks.iter_mut().for_each(neon_one::permute_176);
}

/// The portable single state on each block.
#[cfg(not(elephant_neon))]
fn soft32_each_160((): (), blocks: &mut [[u8; 20]]) {
    blocks.iter_mut().for_each(soft32::permute_160);
}

/// The portable single state on each block.
#[cfg(not(elephant_neon))]
fn soft32_each_176((): (), blocks: &mut [[u8; 22]]) {
    blocks.iter_mut().for_each(soft32::permute_176);
}

/// Every Spongent-π batch tier on its own, for the tier benchmarks.
#[cfg(all(elephant_bench_tiers, elephant_batch))]
pub mod tiers {
    /// A Spongent-π\[160\] tier: its name and its batch function.
    pub type Tier160 = (&'static str, fn(&mut [[u8; 20]]));
    /// A Spongent-π\[176\] tier: its name and its batch function.
    pub type Tier176 = (&'static str, fn(&mut [[u8; 22]]));

    /// The Spongent-π\[160\] tiers of this build, each on its own (the
    /// selector where the CPU lacks its feature).
    pub const ALL_160: &[Tier160] = super::t160::ALONE;

    /// The Spongent-π\[176\] tiers of this build, each on its own.
    pub const ALL_176: &[Tier176] = super::t176::ALONE;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::permutation::backend_check::{
        SPONGENT_160_VECTORS, SPONGENT_176_VECTORS, check, check_at,
    };
    use crate::permutation::tiers::boundary_lengths;
    use crate::permutation::{spongent_pi_160, spongent_pi_176};

    #[test]
    fn dispatcher_matches_the_reference() {
        let tiers = Tiers::detect();
        check("Spongent-π[160] dispatcher", 300, spongent_pi_160, |b| {
            permute_160(tiers, b);
        });
        check("Spongent-π[176] dispatcher", 300, spongent_pi_176, |b| {
            permute_176(tiers, b);
        });
        check("Spongent-π[160] one", 1, spongent_pi_160, |b| {
            b.iter_mut().for_each(permute_one_160);
        });
        check("Spongent-π[176] one", 1, spongent_pi_176, |b| {
            b.iter_mut().for_each(permute_one_176);
        });
    }

    /// Every tier on its own (where this CPU has its feature; the
    /// selector where not), at and around the bounds of every tier.
    #[test]
    fn every_tier_matches_the_reference_at_the_bounds() {
        let lengths = if cfg!(miri) {
            vec![1, 5]
        } else {
            boundary_lengths(t160::ROWS)
        };
        for (name, tier) in t160::ALONE {
            check_at(name, &lengths, spongent_pi_160, tier);
        }
        let lengths = if cfg!(miri) {
            vec![1, 5]
        } else {
            boundary_lengths(t176::ROWS)
        };
        for (name, tier) in t176::ALONE {
            check_at(name, &lengths, spongent_pi_176, tier);
        }
    }

    /// The spec's test values, through every entry point, at lengths that
    /// reach every tier at its bounds.
    #[test]
    fn spec_test_values() {
        let tiers = Tiers::detect();
        let lengths = if cfg!(miri) {
            vec![1, 5]
        } else {
            let mut lengths = boundary_lengths(t160::ROWS);
            lengths.extend(boundary_lengths(t176::ROWS));
            lengths
        };
        for &count in &lengths {
            for (input, output) in SPONGENT_160_VECTORS {
                let mut blocks = vec![input; count];
                permute_160(tiers, &mut blocks);
                assert!(blocks.iter().all(|b| *b == output), "160, {count} blocks");
            }
            for (input, output) in SPONGENT_176_VECTORS {
                let mut blocks = vec![input; count];
                permute_176(tiers, &mut blocks);
                assert!(blocks.iter().all(|b| *b == output), "176, {count} blocks");
            }
        }
    }

    /// The names follow the table: a row's name wherever the selector
    /// starts with it, the single state for one block, and the narrow
    /// width where a batch of that width runs a lanes kernel.
    #[test]
    fn names_and_widths_follow_the_table() {
        let tiers = Tiers::detect();
        for rows in [t160::ROWS, t176::ROWS] {
            for row in rows {
                assert!(row.min <= row.max, "{row:?}");
            }
        }
        let single = kernel_160(tiers, 1);
        assert!(["pext", "soft32", "NEON one"].contains(&single), "{single}");
        assert_eq!(kernel_176(tiers, 1), single);
        if let Some(width) = narrow_batch_160(tiers) {
            assert!(kernel_160(tiers, width).contains("lanes"));
        }
        if let Some(width) = narrow_batch_176(tiers) {
            assert!(kernel_176(tiers, width).contains("lanes"));
        }
        if let Some(fewest) = lanes_batch_160(tiers) {
            assert!(kernel_160(tiers, fewest).contains("lanes"));
            assert!(!kernel_160(tiers, fewest - 1).contains("lanes"));
        }
    }
}
