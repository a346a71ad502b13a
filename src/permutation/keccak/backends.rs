//! Keccak-f\[200\] backends, and the one place that picks among them for a
//! batch of blocks.
//!
//! Tiers, by the number of blocks in the batch (crossovers measured with the
//! `permutation/Keccak-f[200] batch` benchmark):
//! - one state at a time: on 32-bit targets but wasm32 (firmware) the only backend,
//!   `soft32`, scheduled for Thumb-2, or on cores without an operand
//!   barrel shifter (RV32, ARMv6-M) `soft32_registers`; on 64-bit targets
//!   and wasm32 the shared round on lanes repeated in `u32` words
//!   ([`soft64`]);
//! - eight states byte-sliced in `u64` words ([`soft64`]), on 64-bit
//!   targets and wasm32 (`elephant_batch`);
//! - 32 states byte-sliced in AVX2 vectors (`avx2`), on x86-64
//!   CPUs that have AVX2 (detected at run time);
//! - on x86-64 CPUs that have AVX-512F, AVX-512VL, GFNI and AVX2 (detected
//!   at run time; built by Rust 1.89 or newer), GFNI rotations and ternary
//!   logic (`avx512`): 64 states in 512-bit vectors with VBMI byte-permute
//!   transposes where the CPU has AVX-512 VBMI too (every such CPU so far:
//!   Intel since Ice Lake, AMD since Zen 4), for whole passes and a last
//!   one of 33–63 blocks; 32 states in 256-bit vectors with AVX2's
//!   transposes for 9–32 blocks left over (all of a batch without VBMI);
//! - 16 states byte-sliced in NEON vectors (`neon`), on aarch64 (NEON is
//!   part of its baseline), from five blocks; below that one state at a
//!   time in NEON vectors (`neon_one`).
//!
//! Every tier is bit-exact with the reference `keccak_f200` and runs in time
//! independent of the states (only the public number of blocks picks a tier).

// One kernel per file, each built where it can run (the names are set by
// `build.rs`); the AVX-512 ones need Rust 1.89. `soft32` and
// `soft32_registers` are built on every target too, for their tests; on
// aarch64 only the tests and the tier benchmarks run `soft64` (DESIGN.md,
// "Keccak-f[200] on aarch64"). NEON is part of the aarch64 baseline: no
// run-time detection.
#[cfg(elephant_x86)]
mod avx2;
#[cfg(elephant_avx512)]
#[clippy::msrv = "1.89"]
mod avx512;
#[cfg(elephant_avx512)]
#[clippy::msrv = "1.89"]
mod avx512_one;
#[cfg(elephant_neon)]
mod neon;
#[cfg(elephant_neon)]
mod neon_one;
#[cfg(any(test, not(any(elephant_batch, elephant_no_barrel_shifter))))]
mod soft32;
#[cfg(any(test, elephant_no_barrel_shifter))]
mod soft32_registers;
#[cfg(elephant_batch)]
#[cfg_attr(elephant_neon, allow(dead_code))]
mod soft64;

#[cfg(elephant_x86)]
use super::super::cpu::Avx2;
#[cfg(elephant_avx512)]
use super::super::cpu::{Avx512Gfni, Avx512Vbmi};

/// From how many blocks the eight-state SWAR form beats one state at a time:
/// one SWAR pass costs about 1.5 single states, so two blocks already
/// favour it.
#[cfg(all(elephant_batch, not(elephant_neon)))]
const SWAR_MIN_BLOCKS: usize = 2;

/// From how many blocks the 32-state AVX2 form beats the narrower tiers: one
/// AVX2 pass costs about 1.3 SWAR passes, so it wins once SWAR would need a
/// second pass. The same bound serves its AVX-512VL + GFNI form.
#[cfg(elephant_x86)]
const AVX2_MIN_BLOCKS: usize = 9;

/// From how many blocks left over the 64-state AVX-512 form (VBMI) takes
/// over from the 32-state AVX-512VL one: once that would need a second
/// pass.
#[cfg(elephant_avx512)]
const AVX512_MIN_BLOCKS: usize = 33;

/// From how many blocks the 16-state NEON form beats one NEON state at a
/// time: a 16-state pass executes about as many instructions as five single
/// states (DESIGN.md, "Keccak-f\[200\] on aarch64").
#[cfg(elephant_neon)]
const NEON_MIN_BLOCKS: usize = 5;

/// Keccak-f\[200\] of one block, by the fastest single-state form: one
/// vector (`avx512_one`) on CPUs with AVX-512 VBMI and GFNI, three NEON
/// vectors (`neon_one`) on aarch64, else the portable form.
pub(in crate::permutation) fn permute_one(block: &mut [u8; 25]) {
    #[cfg(elephant_avx512)]
    if let Some(token) = Avx512Vbmi::detect() {
        avx512_one::permute_one(token, block);
        return;
    }
    #[cfg(elephant_neon)]
    neon_one::permute_one(block);
    #[cfg(all(elephant_batch, not(elephant_neon)))]
    soft64::permute_one(block);
    #[cfg(elephant_no_barrel_shifter)]
    soft32_registers::permute(block);
    #[cfg(not(any(elephant_batch, elephant_no_barrel_shifter)))]
    soft32::permute(block);
}

/// Keccak-f\[200\] of every block of `blocks`, each independently.
pub(in crate::permutation) fn permute(blocks: &mut [[u8; 25]]) {
    #[cfg(elephant_avx512)]
    let blocks = match (blocks.len() >= AVX2_MIN_BLOCKS)
        .then(Avx512Gfni::detect)
        .flatten()
    {
        Some(token) => {
            // Whole 64-state passes (where the CPU has VBMI for their
            // transposes), and a last one of 33–63 blocks; fewer left over
            // take the 32-state form, or below 9 the tiers below.
            let rest = match Avx512Vbmi::detect() {
                Some(wide_token) => {
                    let left_over = blocks.len().wrapping_rem(avx512::AVX512_STATES);
                    let wide = if left_over >= AVX512_MIN_BLOCKS {
                        blocks.len()
                    } else {
                        blocks.len().wrapping_sub(left_over)
                    };
                    let (wide, rest) = blocks.split_at_mut(wide);
                    avx512::permute(wide_token, wide);
                    rest
                }
                None => blocks,
            };
            if rest.len() >= AVX2_MIN_BLOCKS {
                avx512::permute_narrow(token, rest);
                return;
            }
            rest
        }
        None => blocks,
    };
    #[cfg(elephant_x86)]
    if blocks.len() >= AVX2_MIN_BLOCKS {
        if let Some(token) = Avx2::detect() {
            avx2::permute(token, blocks);
            return;
        }
    }
    #[cfg(elephant_neon)]
    if blocks.len() >= NEON_MIN_BLOCKS {
        neon::permute(blocks);
        return;
    }
    #[cfg(all(elephant_batch, not(elephant_neon)))]
    if blocks.len() >= SWAR_MIN_BLOCKS {
        soft64::permute_x8(blocks);
        return;
    }
    permute_each(blocks);
}

/// The states of one pass of the 32-state AVX2 kernel, where it is the
/// CPU's widest (see [`crate::Permutation::narrow_batch`]): sealing a medium
/// message on runs of two such passes takes as many passes as full runs
/// do, with less stack to clear after it.
pub(in crate::permutation) fn narrow_batch() -> Option<usize> {
    #[cfg(elephant_avx512)]
    if Avx512Gfni::detect().is_some() {
        return None;
    }
    #[cfg(elephant_x86)]
    if Avx2::detect().is_some() {
        return Some(avx2::AVX2_STATES);
    }
    None
}

/// The kernels that [`permute_one`] and [`permute`] (for a full run of the
/// mode) run on this CPU, as "single state, batch": the same detection as
/// those selectors, read in their order.
pub(in crate::permutation) fn kernels() -> &'static str {
    #[cfg(elephant_avx512)]
    if Avx512Gfni::detect().is_some() {
        return if Avx512Vbmi::detect().is_some() {
            "AVX-512 one, AVX-512 x64"
        } else {
            "soft64 one, AVX-512VL x32"
        };
    }
    #[cfg(elephant_x86)]
    if Avx2::detect().is_some() {
        return "soft64 one, AVX2 x32";
    }
    if cfg!(elephant_neon) {
        "NEON one, NEON x16"
    } else if cfg!(elephant_batch) {
        "soft64 one, SWAR x8"
    } else if cfg!(elephant_no_barrel_shifter) {
        "soft32 registers, soft32 registers"
    } else {
        "soft32, soft32"
    }
}

/// One state at a time: the tier for batches too short to fill a wider one.
fn permute_each(blocks: &mut [[u8; 25]]) {
    blocks.iter_mut().for_each(permute_one);
}

/// Every tier on its own, for the tier benchmarks.
#[cfg(elephant_bench_tiers)]
pub mod tiers {
    /// A tier: its name and its batch function.
    pub type Tier = (&'static str, fn(&mut [[u8; 25]]));

    /// The tiers available on this target.
    pub const ALL: &[Tier] = &[
        ("one state", super::permute_each),
        ("one state, portable", one_portable),
        ("SWAR x8", super::soft64::permute_x8),
        #[cfg(elephant_x86)]
        ("AVX2 x32", avx2_x32),
        #[cfg(elephant_avx512)]
        ("AVX-512VL x32", avx512_x32),
        #[cfg(elephant_avx512)]
        ("AVX-512 x64", avx512_x64),
    ];

    /// One state at a time by the portable form, whatever the CPU: the
    /// baseline of the single-state vector kernel that "one state" picks on
    /// CPUs with AVX-512 VBMI and GFNI.
    fn one_portable(blocks: &mut [[u8; 25]]) {
        blocks.iter_mut().for_each(super::soft64::permute_one);
    }

    /// The AVX2 tier; falls back to the SWAR form on CPUs without AVX2.
    #[cfg(elephant_x86)]
    fn avx2_x32(blocks: &mut [[u8; 25]]) {
        match super::Avx2::detect() {
            Some(token) => super::avx2::permute(token, blocks),
            None => super::soft64::permute_x8(blocks),
        }
    }

    #[cfg(elephant_avx512)]
    fn avx512_x32(blocks: &mut [[u8; 25]]) {
        match super::Avx512Gfni::detect() {
            Some(token) => super::avx512::permute_narrow(token, blocks),
            None => avx2_x32(blocks),
        }
    }

    #[cfg(elephant_avx512)]
    fn avx512_x64(blocks: &mut [[u8; 25]]) {
        match super::Avx512Vbmi::detect() {
            Some(token) => super::avx512::permute(token, blocks),
            None => avx512_x32(blocks),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::permutation::backend_check::{KECCAK_200_VECTORS, check};
    use crate::permutation::keccak_f200;

    #[test]
    fn one_state_matches_the_reference() {
        check("one-state Keccak-f[200]", 1, keccak_f200, permute_each);
        check("soft32 Keccak-f[200]", 1, keccak_f200, |blocks| {
            blocks.iter_mut().for_each(soft32::permute);
        });
        check("soft32_registers in registers", 1, keccak_f200, |blocks| {
            blocks
                .iter_mut()
                .for_each(soft32_registers::permute_in_registers);
        });
        check("soft32_registers in place", 1, keccak_f200, |blocks| {
            blocks
                .iter_mut()
                .for_each(soft32_registers::permute_in_place);
        });
        check(
            "soft32_registers for this target",
            1,
            keccak_f200,
            |blocks| {
                blocks.iter_mut().for_each(soft32_registers::permute);
            },
        );
    }

    #[test]
    #[cfg(elephant_batch)]
    fn swar_matches_the_reference() {
        check(
            "soft64 Keccak-f[200]",
            soft64::SWAR_STATES,
            keccak_f200,
            soft64::permute_x8,
        );
    }

    #[test]
    fn dispatcher_matches_the_reference() {
        check("Keccak-f[200] dispatcher", 64, keccak_f200, permute);
    }

    /// The spec's test values through the dispatcher, at lengths that reach
    /// every tier.
    #[test]
    fn spec_test_values() {
        let lengths: &[usize] = if cfg!(miri) {
            &[1, 9]
        } else {
            &[1, 2, 8, 9, 32, 33, 70]
        };
        for &count in lengths {
            for (input, output) in KECCAK_200_VECTORS {
                let mut blocks = vec![input; count];
                permute(&mut blocks);
                assert!(blocks.iter().all(|b| *b == output), "{count} blocks");
            }
        }
    }
}
