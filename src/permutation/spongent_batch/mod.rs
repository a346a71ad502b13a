//! Fast Spongent-π\[160\] and Spongent-π\[176\] for many blocks at once: the
//! backend behind `permute_batch` of Dumbo and Jumbo on 64-bit targets.
//!
//! Three tiers, chosen by the number of blocks (a public length):
//! - one state in four bit planes, for the few blocks of short messages;
//! - 64 states bitsliced in `u64` words;
//! - 256 states bitsliced in AVX2 words, when the CPU has AVX2.
//!
//! A batch is cut into chunks of the chosen width; a short last chunk is
//! padded with zero states whose results are dropped. Every tier equals the
//! `const fn` reference bit for bit (see the tests).

#[cfg(all(target_arch = "x86_64", not(elephant_force_soft)))]
mod avx2;
mod soft;

/// Below this many blocks, one state at a time in bit planes beats the
/// portable 64-wide bitsliced kernel (measured with the `spongent_batch`
/// benchmarks).
const PLANES_MAX: usize = 3;

/// From this many blocks on, the AVX2 kernel (256 states per call, padded)
/// beats the portable tiers.
#[cfg(all(target_arch = "x86_64", not(elephant_force_soft)))]
const AVX2_MIN: usize = 65;

/// Spongent-π\[160\] on every block of `blocks`, each independently.
pub(super) fn permute_160(blocks: &mut [[u8; 20]]) {
    #[cfg(all(target_arch = "x86_64", not(elephant_force_soft)))]
    if blocks.len() >= AVX2_MIN {
        if let Some(avx2) = avx2::Avx2::detect() {
            avx2.permute_160(blocks);
            return;
        }
    }
    if blocks.len() <= PLANES_MAX {
        blocks.iter_mut().for_each(soft::permute_160_planes);
        return;
    }
    blocks.chunks_mut(64).for_each(soft::permute_160_x64);
}

/// Spongent-π\[176\] on every block of `blocks`, each independently.
pub(super) fn permute_176(blocks: &mut [[u8; 22]]) {
    #[cfg(all(target_arch = "x86_64", not(elephant_force_soft)))]
    if blocks.len() >= AVX2_MIN {
        if let Some(avx2) = avx2::Avx2::detect() {
            avx2.permute_176(blocks);
            return;
        }
    }
    if blocks.len() <= PLANES_MAX {
        blocks.iter_mut().for_each(soft::permute_176_planes);
        return;
    }
    blocks.chunks_mut(64).for_each(soft::permute_176_x64);
}

/// Spongent-π\[160\] on one block: the fastest single-state form.
pub(super) fn permute_one_160(block: &mut [u8; 20]) {
    soft::permute_160_planes(block);
}

/// Spongent-π\[176\] on one block: the fastest single-state form.
pub(super) fn permute_one_176(block: &mut [u8; 22]) {
    soft::permute_176_planes(block);
}

#[cfg(test)]
// Tests may panic; test data truncates on purpose.
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation
)]
mod tests {
    use super::*;
    use hex_literal::hex;

    #[test]
    fn dispatcher_matches_the_reference() {
        soft::tests::check_160(256, permute_160);
        soft::tests::check_176(256, permute_176);
        soft::tests::check_160(1, |b| b.iter_mut().for_each(permute_one_160));
        soft::tests::check_176(1, |b| b.iter_mut().for_each(permute_one_176));
    }

    /// The spec's test values, through every entry point.
    #[test]
    fn spec_test_values() {
        let counting20: [u8; 20] = core::array::from_fn(|i| i as u8);
        let counting22: [u8; 22] = core::array::from_fn(|i| i as u8);
        let cases160 = [
            ([0u8; 20], hex!("e80c0086a2cb8286a162c50ede3ed1b95f74edca")),
            (counting20, hex!("7c800edf9a560df7cc19f1a2262c7d73267bf77b")),
            ([0xff; 20], hex!("34d15c4568726710ed65c61ad66ba32eefd3ce73")),
        ];
        let cases176 = [
            (
                [0u8; 22],
                hex!("7cc4ce71e12103a7601e25ff8970fb10bf32793c2379"),
            ),
            (
                counting22,
                hex!("d26976eb3534b585cdd061e7c6e49b5beed9e8d86626"),
            ),
            (
                [0xff; 22],
                hex!("d430dd0c8c0e5d52eadabe84aab76b73265f5284795c"),
            ),
        ];
        let counts: &[usize] = if cfg!(miri) {
            &[1, 5]
        } else {
            &[1, 3, 5, 64, 65, 300]
        };
        for &count in counts {
            for (input, output) in cases160 {
                let mut blocks = vec![input; count];
                permute_160(&mut blocks);
                assert!(blocks.iter().all(|b| *b == output), "160, {count} blocks");
            }
            for (input, output) in cases176 {
                let mut blocks = vec![input; count];
                permute_176(&mut blocks);
                assert!(blocks.iter().all(|b| *b == output), "176, {count} blocks");
            }
        }
        for (mut input, output) in cases160 {
            permute_one_160(&mut input);
            assert_eq!(input, output);
        }
        for (mut input, output) in cases176 {
            permute_one_176(&mut input);
            assert_eq!(input, output);
        }
    }
}
