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
//! The tiers are one table (`tier_table!` below): the selector, the names
//! of what runs, the narrow width and the tier listing come from it. Every
//! tier is bit-exact with the reference `keccak_f200` and runs in time
//! independent of the states (only the public number of blocks and the
//! CPU's features pick a tier).

// One kernel per file, each built where it can run (the names are set by
// `build.rs`); the AVX-512 ones need Rust 1.89. `soft32` and
// `soft32_registers` are built on every target too, for their tests; on
// aarch64 only the tests and the tier benchmarks run `soft64` (DESIGN.md,
// "Keccak-f[200] on aarch64"). NEON is part of the aarch64 baseline: no
// run-time detection.
#[cfg(elephant_x86)]
mod avx2;
#[cfg(elephant_x86)]
mod avx2_rows;
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

use crate::permutation::Tiers;
#[cfg(elephant_avx512)]
use crate::permutation::cpu::Avx512Vbmi;
use crate::permutation::tiers::{tier_table, wide_min};

/// From how many blocks the eight-state SWAR form beats one state at a time:
/// one SWAR pass costs about 1.5 single states, so two blocks already
/// favour it.
#[cfg(all(elephant_batch, not(elephant_neon)))]
const SWAR_MIN_BLOCKS: usize = 2;

/// From how many blocks the 32-state AVX2 form beats the narrower tiers: one
/// AVX2 pass costs about 1.3 SWAR passes, so it wins once SWAR would need a
/// second pass. The same bound serves its AVX-512VL + GFNI form.
const AVX2_MIN_BLOCKS: usize = 9;

/// The longest batch that reaches none of the vector kernels of 32 states
/// and more: the plan's short runs are at most this long
/// (`mode::plan::SHORT_RUN`), the batches Delirium's short-call clearing
/// was measured with.
pub(crate) const SHORT_BATCH_MAX: usize = AVX2_MIN_BLOCKS - 1;

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

// The tiers, in the order the selector tries them: with AVX-512 VBMI,
// whole 64-state passes and a last one of 33–63 blocks (fewer left over go
// on to the tiers below); the 32-state forms (AVX-512VL with GFNI, else
// AVX2: the narrow batch of CPUs whose widest it is); NEON or SWAR; then
// one state at a time by the fastest single-state form.
tier_table! {
    mod table for [u8; 25];
    #[cfg(elephant_avx512)]
    Avx512 "AVX-512 x64": AVX512_MIN_BLOCKS, usize::MAX, vbmi, Wide => prefix avx512_passes;
    #[cfg(elephant_avx512)]
    Avx512Narrow "AVX-512VL x32": AVX2_MIN_BLOCKS, usize::MAX, gfni, Wide
        => all avx512::permute_narrow;
    #[cfg(elephant_x86)]
    Avx2 "AVX2 x32": AVX2_MIN_BLOCKS, usize::MAX, avx2, Wide, narrow avx2::AVX2_STATES
        => all avx2::permute;
    #[cfg(elephant_neon)]
    Neon "NEON x16": NEON_MIN_BLOCKS, usize::MAX, always, Shallow => all neon_x16;
    #[cfg(all(elephant_batch, not(elephant_neon)))]
    Swar "SWAR x8": SWAR_MIN_BLOCKS, usize::MAX, always, Shallow => all swar_x8;
    #[cfg(elephant_avx512)]
    Avx512One "AVX-512 one": 0, usize::MAX, vbmi, Shallow => all avx512_one_each;
    #[cfg(elephant_neon)]
    NeonOne "NEON one": 0, usize::MAX, always, Shallow => all neon_one_each;
    #[cfg(all(elephant_batch, not(elephant_neon)))]
    Soft64One "soft64 one": 0, usize::MAX, always, Shallow => all soft64_one_each;
    #[cfg(elephant_no_barrel_shifter)]
    Registers "soft32 registers": 0, usize::MAX, always, Shallow => all registers_each;
    #[cfg(not(any(elephant_batch, elephant_no_barrel_shifter)))]
    Soft32 "soft32": 0, usize::MAX, always, Shallow => all soft32_each;
}

// No vector kernel takes a short batch, on any build.
const _: () = assert!(wide_min(table::ROWS) > SHORT_BATCH_MAX);

/// Keccak-f\[200\] of one block: the table's tier for one block (one
/// vector, `avx512_one`, on CPUs with AVX-512 VBMI and GFNI; three NEON
/// vectors, `neon_one`, on aarch64; else the portable form).
#[inline]
pub(in crate::permutation) fn permute_one(block: &mut [u8; 25]) {
    table::select_one(Tiers::detect(), block);
}

/// Keccak-f\[200\] of every block of `blocks`, each independently, by the
/// tiers the table picks for this CPU's `tiers`.
pub(in crate::permutation) fn permute(tiers: Tiers, blocks: &mut [[u8; 25]]) {
    table::select(tiers, blocks);
}

/// The states of one pass of the 32-state AVX2 kernel, where a batch of
/// that many runs it (the CPU's widest; see
/// [`crate::Permutation::narrow_batch`]): sealing a medium message on runs
/// of two such passes takes as many passes as full runs do, with less
/// stack to clear after it.
pub(in crate::permutation) fn narrow_batch(tiers: Tiers) -> Option<usize> {
    table::narrow(tiers)
}

/// The fewest blocks that reach a lanes kernel on this CPU: none here
/// (see [`crate::Permutation::lanes_batch`]).
pub(in crate::permutation) fn lanes_batch(tiers: Tiers) -> Option<usize> {
    table::lanes(tiers)
}

/// The name of the tier a batch of `blocks` starts with on this CPU.
pub(in crate::permutation) fn kernel(tiers: Tiers, blocks: usize) -> &'static str {
    table::name(tiers, blocks)
}

/// Whole 64-state passes, and a last one of 33–63 blocks: returns the
/// blocks left over (fewer than 33), for the tiers after this one.
#[cfg(elephant_avx512)]
fn avx512_passes(token: Avx512Vbmi, blocks: &mut [[u8; 25]]) -> &mut [[u8; 25]] {
    let left_over = blocks.len().wrapping_rem(avx512::AVX512_STATES);
    let wide = if left_over >= AVX512_MIN_BLOCKS {
        blocks.len()
    } else {
        blocks.len().wrapping_sub(left_over)
    };
    let (wide, rest) = blocks.split_at_mut(wide);
    avx512::permute(token, wide);
    rest
}

/// The 16-state NEON kernel (NEON is part of the aarch64 baseline).
#[cfg(elephant_neon)]
fn neon_x16((): (), blocks: &mut [[u8; 25]]) {
    neon::permute(blocks);
}

/// The eight-state SWAR kernel.
#[cfg(all(elephant_batch, not(elephant_neon)))]
fn swar_x8((): (), blocks: &mut [[u8; 25]]) {
    soft64::permute_x8(blocks);
}

/// The one-vector AVX-512 single state on each block.
#[cfg(elephant_avx512)]
fn avx512_one_each(token: Avx512Vbmi, blocks: &mut [[u8; 25]]) {
    blocks
        .iter_mut()
        .for_each(|block| avx512_one::permute_one(token, block));
}

/// The NEON single state on each block.
#[cfg(elephant_neon)]
fn neon_one_each((): (), blocks: &mut [[u8; 25]]) {
    blocks.iter_mut().for_each(neon_one::permute_one);
}

/// The portable single state of the batch builds on each block.
#[cfg(all(elephant_batch, not(elephant_neon)))]
fn soft64_one_each((): (), blocks: &mut [[u8; 25]]) {
    blocks.iter_mut().for_each(soft64::permute_one);
}

/// The single state in registers (cores without a barrel shifter) on
/// each block.
#[cfg(elephant_no_barrel_shifter)]
fn registers_each((): (), blocks: &mut [[u8; 25]]) {
    blocks.iter_mut().for_each(soft32_registers::permute);
}

/// The Thumb-2 single state on each block.
#[cfg(not(any(elephant_batch, elephant_no_barrel_shifter)))]
fn soft32_each((): (), blocks: &mut [[u8; 25]]) {
    blocks.iter_mut().for_each(soft32::permute);
}

/// Every tier on its own, for the tier benchmarks.
#[cfg(elephant_bench_tiers)]
pub mod tiers {
    /// A tier: its name and its batch function.
    pub type Tier = (&'static str, fn(&mut [[u8; 25]]));

    /// The tiers of this build, each on its own (the selector where the
    /// CPU lacks its feature; the blocks the 64-state tier leaves go on to
    /// the selector).
    pub const ALL: &[Tier] = super::table::ALONE;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::permutation::backend_check::{KECCAK_200_VECTORS, check, check_at};
    use crate::permutation::keccak_f200;
    use crate::permutation::tiers::boundary_lengths;

    /// One state at a time, by the fastest single-state form.
    fn permute_each(blocks: &mut [[u8; 25]]) {
        blocks.iter_mut().for_each(permute_one);
    }

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
        let tiers = Tiers::detect();
        check("Keccak-f[200] dispatcher", 64, keccak_f200, |blocks| {
            permute(tiers, blocks);
        });
    }

    /// Every tier on its own (where this CPU has its feature; the selector
    /// where not), at and around the bounds of every tier.
    #[test]
    fn every_tier_matches_the_reference_at_the_bounds() {
        let lengths = if cfg!(miri) {
            vec![1, 9, 33]
        } else {
            boundary_lengths(table::ROWS)
        };
        for (name, tier) in table::ALONE {
            check_at(name, &lengths, keccak_f200, tier);
        }
    }

    /// The spec's test values through the dispatcher, at lengths that reach
    /// every tier at its bounds (and a last 64-state pass of 33–63 blocks
    /// after whole ones, with 9 and with 8 blocks left over).
    #[test]
    fn spec_test_values() {
        let tiers = Tiers::detect();
        let lengths = if cfg!(miri) {
            vec![1, 9]
        } else {
            let mut lengths = boundary_lengths(table::ROWS);
            lengths.extend([70, 73, 72, 64 + 40]);
            lengths
        };
        for &count in &lengths {
            for (input, output) in KECCAK_200_VECTORS {
                let mut blocks = vec![input; count];
                permute(tiers, &mut blocks);
                assert!(blocks.iter().all(|b| *b == output), "{count} blocks");
            }
        }
    }

    /// The names follow the table: the single state for one block, and
    /// the narrow width only where a batch of it runs the AVX2 kernel.
    #[test]
    fn names_and_widths_follow_the_table() {
        let tiers = Tiers::detect();
        let single = kernel(tiers, 1);
        assert!(
            single.contains("one") || single.starts_with("soft32"),
            "{single}"
        );
        if let Some(width) = narrow_batch(tiers) {
            assert_eq!(kernel(tiers, width), "AVX2 x32");
        }
    }
}
