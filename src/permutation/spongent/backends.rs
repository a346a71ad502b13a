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
//! Every tier equals the `const fn` reference bit for bit (see the tests).

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
#[cfg(elephant_x86)]
mod pext;
#[cfg(any(test, elephant_bench_tiers, not(elephant_neon)))]
mod soft32;
#[cfg(elephant_batch)]
#[cfg_attr(elephant_neon, allow(dead_code))]
mod soft64;

#[cfg(elephant_avx512)]
use super::super::cpu::Avx512Vbmi;
#[cfg(elephant_x86)]
use super::super::cpu::{Avx2, FastPext};

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
/// blocks; it starts past the runs of short calls, whose stack clearing
/// (`scrub::depth::SHORT_CALL`) is sized for the smaller kernels
/// (DESIGN.md, "Tier thresholds").
#[cfg(elephant_avx512)]
const AVX512_MIN: usize = crate::mode::plan::SHORT_RUN + 1;

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

/// Spongent-π\[160\] on every block of `blocks`, each independently.
pub(in crate::permutation) fn permute_160(blocks: &mut [[u8; 20]]) {
    #[cfg(elephant_avx512)]
    if (AVX512_LANES_MIN..=AVX512_LANES_MAX).contains(&blocks.len()) {
        if let Some(token) = Avx512Vbmi::detect() {
            avx512::medium::permute_160(token, blocks);
            return;
        }
    }
    #[cfg(elephant_x86)]
    if (AVX2_MEDIUM_MIN..=AVX2_MEDIUM_MAX).contains(&blocks.len()) {
        if let Some(token) = avx2_medium() {
            avx2::medium::permute_160(token, blocks);
            return;
        }
    }
    #[cfg(elephant_x86)]
    if blocks.len() <= ONE_STATE_MAX_PEXT_160 {
        if let Some(token) = FastPext::detect() {
            blocks
                .iter_mut()
                .for_each(|block| pext::permute_160(token, block));
            return;
        }
    }
    #[cfg(elephant_avx512)]
    if blocks.len() >= AVX512_MIN {
        if let Some(token) = Avx512Vbmi::detect() {
            avx512::permute_160(token, blocks);
            return;
        }
    }
    #[cfg(elephant_x86)]
    if blocks.len() >= AVX2_MIN {
        if let Some(token) = Avx2::detect() {
            avx2::permute_160(token, blocks);
            return;
        }
    }
    #[cfg(elephant_neon)]
    if blocks.len() >= NEON_MIN {
        neon::permute_160(blocks);
        return;
    }
    #[cfg(all(elephant_batch, not(elephant_neon)))]
    if blocks.len() > ONE_STATE_MAX {
        blocks.chunks_mut(64).for_each(soft64::permute_160_x64);
        return;
    }
    blocks.iter_mut().for_each(permute_one_160);
}

/// The batch that one call of the 64-state AVX-512 or AVX2 kernel
/// serves, where the CPU has it (see [`crate::Permutation::narrow_batch`]):
/// a call costs about half of the 256-state AVX-512 kernel's, a third of
/// the AVX2 one's.
pub(in crate::permutation) fn narrow_batch_160() -> Option<usize> {
    #[cfg(elephant_avx512)]
    if Avx512Vbmi::detect().is_some() {
        return Some(AVX512_LANES_MAX);
    }
    narrow_batch_176()
}

/// [`narrow_batch_160`] for Spongent-π\[176\]: the 64-state AVX2 kernel
/// (AVX-512 CPUs take its batches to their 256-state kernel).
pub(in crate::permutation) fn narrow_batch_176() -> Option<usize> {
    #[cfg(elephant_x86)]
    if avx2_medium().is_some() {
        return Some(avx2::medium::STATES);
    }
    None
}

/// AVX2, for its 64-state kernel, where the CPU lacks the AVX-512 tiers
/// (which take those batches there).
#[cfg(elephant_x86)]
fn avx2_medium() -> Option<Avx2> {
    #[cfg(elephant_avx512)]
    if Avx512Vbmi::detect().is_some() {
        return None;
    }
    Avx2::detect()
}

/// Spongent-π\[176\] on every block of `blocks`, each independently.
pub(in crate::permutation) fn permute_176(blocks: &mut [[u8; 22]]) {
    #[cfg(elephant_x86)]
    if (AVX2_MEDIUM_MIN..=AVX2_MEDIUM_MAX).contains(&blocks.len()) {
        if let Some(token) = avx2_medium() {
            avx2::medium::permute_176(token, blocks);
            return;
        }
    }
    #[cfg(elephant_x86)]
    if blocks.len() <= ONE_STATE_MAX_PEXT_176 {
        if let Some(token) = FastPext::detect() {
            blocks
                .iter_mut()
                .for_each(|block| pext::permute_176(token, block));
            return;
        }
    }
    #[cfg(elephant_avx512)]
    if blocks.len() >= AVX512_MIN {
        if let Some(token) = Avx512Vbmi::detect() {
            avx512::permute_176(token, blocks);
            return;
        }
    }
    #[cfg(elephant_x86)]
    if blocks.len() >= AVX2_MIN {
        if let Some(token) = Avx2::detect() {
            avx2::permute_176(token, blocks);
            return;
        }
    }
    #[cfg(elephant_neon)]
    if blocks.len() >= NEON_MIN {
        neon::permute_176(blocks);
        return;
    }
    #[cfg(all(elephant_batch, not(elephant_neon)))]
    if blocks.len() > ONE_STATE_MAX {
        blocks.chunks_mut(64).for_each(soft64::permute_176_x64);
        return;
    }
    blocks.iter_mut().for_each(permute_one_176);
}

/// Spongent-π\[160\] on one block: the fastest single-state form.
pub(in crate::permutation) fn permute_one_160(block: &mut [u8; 20]) {
    #[cfg(elephant_x86)]
    if let Some(token) = FastPext::detect() {
        pext::permute_160(token, block);
        return;
    }
    #[cfg(elephant_neon)]
    neon_one::permute_160(block);
    #[cfg(not(elephant_neon))]
    soft32::permute_160(block);
}

/// Spongent-π\[176\] on one block: the fastest single-state form.
pub(in crate::permutation) fn permute_one_176(block: &mut [u8; 22]) {
    #[cfg(elephant_x86)]
    if let Some(token) = FastPext::detect() {
        pext::permute_176(token, block);
        return;
    }
    #[cfg(elephant_neon)]
    neon_one::permute_176(block);
    #[cfg(not(elephant_neon))]
    soft32::permute_176(block);
}

/// The kernels that [`permute_one_160`] and [`permute_160`] (for a full
/// run of the mode) run on this CPU, as "single state, batch": the same
/// detection as those selectors, read in their order. The batch kernel
/// is the same for both permutations; the single state too.
pub(in crate::permutation) fn kernels() -> &'static str {
    #[cfg(elephant_x86)]
    let pext = FastPext::detect().is_some();
    #[cfg(not(elephant_x86))]
    let pext = false;
    #[cfg(elephant_avx512)]
    if Avx512Vbmi::detect().is_some() {
        return if pext {
            "pext, AVX-512"
        } else {
            "soft32, AVX-512"
        };
    }
    #[cfg(elephant_x86)]
    if Avx2::detect().is_some() {
        return if pext {
            "pext, AVX2 x256"
        } else {
            "soft32, AVX2 x256"
        };
    }
    if cfg!(elephant_neon) {
        "NEON one, NEON x128"
    } else if cfg!(elephant_batch) {
        if pext {
            "pext, soft64 x64"
        } else {
            "soft32, soft64 x64"
        }
    } else {
        "soft32, soft32"
    }
}

/// Every Spongent-π batch tier on its own, for the tier benchmarks.
#[cfg(all(elephant_bench_tiers, elephant_batch))]
pub mod tiers {
    /// A Spongent-π\[160\] tier: its name and its batch function.
    pub type Tier160 = (&'static str, fn(&mut [[u8; 20]]));
    /// A Spongent-π\[176\] tier: its name and its batch function.
    pub type Tier176 = (&'static str, fn(&mut [[u8; 22]]));

    /// The Spongent-π\[160\] tiers available on this target.
    pub const ALL_160: &[Tier160] = &[
        ("one state", |b| {
            b.iter_mut().for_each(super::permute_one_160);
        }),
        ("soft32 one state", |b| {
            b.iter_mut().for_each(super::soft32::permute_160);
        }),
        ("soft64 x64", |b| {
            b.chunks_mut(64).for_each(super::soft64::permute_160_x64);
        }),
        #[cfg(elephant_neon)]
        ("NEON x128", super::neon::permute_160),
        #[cfg(elephant_x86)]
        ("AVX2 x256", |b| match super::Avx2::detect() {
            Some(token) => super::avx2::permute_160(token, b),
            None => b.chunks_mut(64).for_each(super::soft64::permute_160_x64),
        }),
        #[cfg(elephant_x86)]
        ("AVX2 lanes x64", |b| match super::Avx2::detect() {
            Some(token) => super::avx2::medium::permute_160(token, b),
            None => b.chunks_mut(64).for_each(super::soft64::permute_160_x64),
        }),
        #[cfg(elephant_avx512)]
        ("AVX-512 lanes x64", |b| match super::Avx512Vbmi::detect() {
            Some(token) => super::avx512::medium::permute_160(token, b),
            None => super::permute_160(b),
        }),
        #[cfg(elephant_avx512)]
        ("AVX-512VL x256", |b| avx512_160(b, 256)),
        #[cfg(elephant_avx512)]
        ("AVX-512 x512", |b| avx512_160(b, 512)),
    ];

    /// The Spongent-π\[176\] tiers available on this target.
    pub const ALL_176: &[Tier176] = &[
        ("one state", |b| {
            b.iter_mut().for_each(super::permute_one_176);
        }),
        ("soft32 one state", |b| {
            b.iter_mut().for_each(super::soft32::permute_176);
        }),
        ("soft64 x64", |b| {
            b.chunks_mut(64).for_each(super::soft64::permute_176_x64);
        }),
        #[cfg(elephant_neon)]
        ("NEON x128", super::neon::permute_176),
        #[cfg(elephant_x86)]
        ("AVX2 x256", |b| match super::Avx2::detect() {
            Some(token) => super::avx2::permute_176(token, b),
            None => b.chunks_mut(64).for_each(super::soft64::permute_176_x64),
        }),
        #[cfg(elephant_x86)]
        ("AVX2 lanes x64", |b| match super::Avx2::detect() {
            Some(token) => super::avx2::medium::permute_176(token, b),
            None => b.chunks_mut(64).for_each(super::soft64::permute_176_x64),
        }),
        #[cfg(elephant_avx512)]
        ("AVX-512VL x256", |b| avx512_176(b, 256)),
        #[cfg(elephant_avx512)]
        ("AVX-512 x512", |b| avx512_176(b, 512)),
    ];

    /// The AVX-512 kernel of `width` states, in calls of that width (the
    /// dispatcher's choice where the CPU lacks AVX-512 and GFNI).
    #[cfg(elephant_avx512)]
    fn avx512_160(blocks: &mut [[u8; 20]], width: usize) {
        match super::Avx512Vbmi::detect() {
            Some(token) => blocks
                .chunks_mut(width)
                .for_each(|chunk| super::avx512::permute_160_width(token, chunk, width)),
            None => super::permute_160(blocks),
        }
    }

    /// As `avx512_160`, for Spongent-π\[176\].
    #[cfg(elephant_avx512)]
    fn avx512_176(blocks: &mut [[u8; 22]], width: usize) {
        match super::Avx512Vbmi::detect() {
            Some(token) => blocks
                .chunks_mut(width)
                .for_each(|chunk| super::avx512::permute_176_width(token, chunk, width)),
            None => super::permute_176(blocks),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::permutation::backend_check::{SPONGENT_160_VECTORS, SPONGENT_176_VECTORS, check};
    use crate::permutation::{spongent_pi_160, spongent_pi_176};

    /// Batch lengths that reach every tier: one state, the 64-wide kernel,
    /// (on aarch64) the 128-wide NEON kernel from 23 blocks, and (on x86-64
    /// with AVX2 or AVX-512) the 256- and 512-wide ones, full and padded.
    const TIER_LENGTHS: [usize; 14] = [1, 3, 4, 7, 8, 9, 22, 23, 64, 65, 256, 300, 512, 700];

    #[test]
    fn dispatcher_matches_the_reference() {
        check(
            "Spongent-π[160] dispatcher",
            300,
            spongent_pi_160,
            permute_160,
        );
        check(
            "Spongent-π[176] dispatcher",
            300,
            spongent_pi_176,
            permute_176,
        );
        check("Spongent-π[160] one", 1, spongent_pi_160, |b| {
            b.iter_mut().for_each(permute_one_160);
        });
        check("Spongent-π[176] one", 1, spongent_pi_176, |b| {
            b.iter_mut().for_each(permute_one_176);
        });
    }

    /// The spec's test values, through every entry point and tier.
    #[test]
    fn spec_test_values() {
        let lengths: &[usize] = if cfg!(miri) { &[1, 5] } else { &TIER_LENGTHS };
        for &count in lengths {
            for (input, output) in SPONGENT_160_VECTORS {
                let mut blocks = vec![input; count];
                permute_160(&mut blocks);
                assert!(blocks.iter().all(|b| *b == output), "160, {count} blocks");
            }
            for (input, output) in SPONGENT_176_VECTORS {
                let mut blocks = vec![input; count];
                permute_176(&mut blocks);
                assert!(blocks.iter().all(|b| *b == output), "176, {count} blocks");
            }
        }
    }
}
