//! Batched Keccak-f\[200\]: permutes many independent blocks at once, picking
//! the widest backend that the number of blocks and the CPU make worth it.
//!
//! Tiers, by the number of blocks in the batch (crossovers measured with the
//! `permutation/Keccak-f[200] batch` benchmark):
//! - one state at a time ([`soft::permute_one`]) for very short batches;
//! - eight states byte-sliced in `u64` words ([`soft::permute_x8`]);
//! - 32 states byte-sliced in AVX2 vectors (`avx2::permute_x32`), on x86-64
//!   CPUs that have AVX2 (detected at run time).
//!
//! Every tier is bit-exact with the reference `keccak_f200` and runs in time
//! independent of the states (only the public number of blocks picks a tier).

#[cfg(all(target_arch = "x86_64", not(elephant_force_soft)))]
mod avx2;
mod soft;

/// From how many blocks the eight-state SWAR form beats one state at a time:
/// one SWAR pass costs about 1.5 single states (measured 0.74 µs against
/// 0.49 µs), so two blocks already favour it.
const SWAR_MIN_BLOCKS: usize = 2;

/// From how many blocks the 32-state AVX2 form beats the narrower tiers: one
/// AVX2 pass costs about 1.3 SWAR passes (0.81 µs against 0.62–0.80 µs for
/// 8 blocks), so it wins once SWAR would need a second pass.
#[cfg(all(target_arch = "x86_64", not(elephant_force_soft)))]
const AVX2_MIN_BLOCKS: usize = 9;

/// Keccak-f\[200\] of one block, by the fastest single-state form.
pub(super) fn permute_one(block: &mut [u8; 25]) {
    soft::permute_one(block);
}

/// Keccak-f\[200\] of every block of `blocks`, each independently.
pub(super) fn permute(blocks: &mut [[u8; 25]]) {
    #[cfg(all(target_arch = "x86_64", not(elephant_force_soft)))]
    if blocks.len() >= AVX2_MIN_BLOCKS && avx2::available() {
        // SAFETY: AVX2 was just detected on this CPU.
        unsafe { avx2::permute_x32(blocks) };
        return;
    }
    if blocks.len() >= SWAR_MIN_BLOCKS {
        soft::permute_x8(blocks);
    } else {
        permute_each(blocks);
    }
}

/// One state at a time: the tier for batches too short to fill a wider one.
fn permute_each(blocks: &mut [[u8; 25]]) {
    blocks.iter_mut().for_each(soft::permute_one);
}

/// Every tier on its own, for the tier benchmarks.
#[cfg(elephant_bench_tiers)]
pub mod tiers {
    /// A tier: its name and its batch function.
    pub type Tier = (&'static str, fn(&mut [[u8; 25]]));

    /// The tiers available on this target.
    pub const ALL: &[Tier] = &[
        ("one state", super::permute_each),
        ("SWAR x8", super::soft::permute_x8),
        #[cfg(all(target_arch = "x86_64", not(elephant_force_soft)))]
        ("AVX2 x32", avx2_x32),
    ];

    /// The AVX2 tier; falls back to the SWAR form on CPUs without AVX2.
    #[cfg(all(target_arch = "x86_64", not(elephant_force_soft)))]
    fn avx2_x32(blocks: &mut [[u8; 25]]) {
        if super::avx2::available() {
            // SAFETY: AVX2 was just detected on this CPU.
            unsafe { super::avx2::permute_x32(blocks) };
        } else {
            super::soft::permute_x8(blocks);
        }
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)] // Tests may panic.
mod tests {
    use super::*;
    use crate::permutation::keccak_f200;

    /// Deterministic pseudo-random blocks (xorshift64), different per seed.
    pub(super) fn random_blocks(count: usize, seed: u64) -> Vec<[u8; 25]> {
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        (0..count)
            .map(|_| {
                core::array::from_fn(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    x.to_le_bytes()[3]
                })
            })
            .collect()
    }

    /// Runs `backend` on every batch length in `lengths` and compares each
    /// block with the reference.
    pub(super) fn check_backend(
        name: &str,
        lengths: core::ops::RangeInclusive<usize>,
        backend: impl Fn(&mut [[u8; 25]]),
    ) {
        for len in lengths {
            let mut blocks = random_blocks(len, len as u64 + 1);
            let expected: Vec<_> = blocks.iter().map(|b| keccak_f200(*b)).collect();
            backend(&mut blocks);
            assert_eq!(blocks, expected, "{name}, batch of {len}");
        }
    }

    /// Batch lengths up to twice the width; under Miri, which is slow, just
    /// past one SWAR width (0 to 9 blocks still reach every soft tier and a
    /// padded last chunk).
    pub(super) fn lengths(width: usize) -> core::ops::RangeInclusive<usize> {
        if cfg!(miri) {
            0..=width.min(soft::SWAR_STATES) + 1
        } else {
            0..=2 * width
        }
    }

    #[test]
    fn one_state_matches_the_reference() {
        check_backend("one state", lengths(1), permute_each);
    }

    #[test]
    fn swar_matches_the_reference() {
        check_backend("SWAR ×8", lengths(soft::SWAR_STATES), soft::permute_x8);
    }

    #[test]
    fn dispatcher_matches_the_reference() {
        check_backend("dispatcher", lengths(64), permute);
    }

    /// Whether the AVX2 tests must run: a CI machine known to have AVX2 sets
    /// `ELEPHANT_REQUIRE_AVX2=1`, so that a detection failure cannot turn
    /// them into silent passes.
    #[cfg(all(target_arch = "x86_64", not(elephant_force_soft)))]
    fn avx2_required() -> bool {
        std::env::var("ELEPHANT_REQUIRE_AVX2").is_ok_and(|v| v == "1")
    }

    #[test]
    #[cfg(all(target_arch = "x86_64", not(elephant_force_soft)))]
    fn avx2_matches_the_reference() {
        if !avx2::available() {
            assert!(
                !avx2_required(),
                "ELEPHANT_REQUIRE_AVX2=1 but AVX2 was not detected"
            );
            return;
        }
        check_backend("AVX2 ×32", lengths(avx2::AVX2_STATES), |blocks| {
            // SAFETY: AVX2 was detected above.
            unsafe { avx2::permute_x32(blocks) }
        });
    }

    /// The spec's test values through every tier.
    #[test]
    #[allow(clippy::cast_possible_truncation)] // Byte indices < 25 fit a byte.
    fn spec_test_values() {
        use hex_literal::hex;
        let inputs: [[u8; 25]; 3] = [[0; 25], core::array::from_fn(|i| i as u8), [0xff; 25]];
        let outputs = [
            hex!("3c2826841cb35c171eaae9b811134ceaa3852c69d2c5abafea"),
            hex!("7f0340bd5ef9a9ce6c77d141ea9123772d83f040bf231ca51c"),
            hex!("abb5ffdb767e089992e64fd66fed8ec992844560df6994c556"),
        ];
        let mut one = inputs;
        permute_each(&mut one);
        assert_eq!(one, outputs, "one state");
        let mut swar = inputs;
        soft::permute_x8(&mut swar);
        assert_eq!(swar, outputs, "SWAR ×8");
        #[cfg(all(target_arch = "x86_64", not(elephant_force_soft)))]
        if avx2::available() {
            let mut wide = inputs;
            // SAFETY: AVX2 was just detected on this CPU.
            unsafe { avx2::permute_x32(&mut wide) };
            assert_eq!(wide, outputs, "AVX2 ×32");
        }
        let mut batch = inputs;
        permute(&mut batch);
        assert_eq!(batch, outputs, "dispatcher");
    }
}
