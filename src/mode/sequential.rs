//! One message, one block and one permutation at a time: the path of
//! targets without batch backends (firmware, [`RUN_BLOCKS`] = 1).
//!
//! There the permutation takes one block per call whatever the mode does,
//! so the per-call core's scheduling ([`Call`]) buys nothing and costs its
//! bookkeeping and its state. This orders the walk's jobs ([`super::jobs`])
//! by block index instead, on the same pieces (the mask window, the tag
//! sum, the message buffer) and one state of its own: block `j`'s
//! keystream, then its ciphertext's tag term and the associated data's.
//! Opening takes the tag terms first and the keystream after the verdict,
//! written through the verdict's mask as [`Call`] does.
//!
//! Every permutation is called from [`seal`] or [`open`] itself, between
//! a step that fills the state and one that takes the result (functions
//! of their own, which have returned by then): the deepest stack of a call
//! is its own frame and the permutation's, nothing in between, and so is
//! the stack cleared after it (DESIGN.md, "Stack clearing").
//!
//! [`RUN_BLOCKS`]: super::RUN_BLOCKS
//! [`Call`]: super::Call
#![expect(
    clippy::arithmetic_side_effects,
    reason = "block offsets of a message within the length limits, checked at the entry"
)]

use super::data::Data;
use super::jobs::Jobs;
use super::keystream::copied_in;
use super::masks::MaskWindow;
use super::tag::{self, TagSum, padded_block_at};
use super::xor::{copy_by_u32s, xor_by_u32s, zip_u32s};
use super::{NONCE_SIZE, TagOf, window_for};
use crate::permutation::Permutation;
use aead::Result;
use aead::inout::InOutBuf;
use core::mem::ManuallyDrop;

/// Bytes of mask window: a mask, its lookahead, and a few blocks' steps
/// before the window slides (kept small: it is on the firmware's stack).
/// Two more than [`window_for`] gives, a multiple of 4: the window then
/// ends where the walk's tag sum starts, and LLVM zeroes both with one
/// `memclr` call instead of two (DESIGN.md, "Stack clearing").
const WINDOW: usize = window_for(1) + 2;

/// What a message's walk keeps from block to block.
///
/// Not wiped when dropped: a walk lives in the frame of [`seal`] or
/// [`open`] (the mode's function of that name, with these inlined), which
/// the stack clearing after the call overwrites whole (`crate::scrub`,
/// the one-block depths; checked by the firmware benchmark's scan of the
/// dead stack for `L` and the masks). Wiping its masks, sum and state
/// first cleared the same bytes twice (DESIGN.md, "Stack clearing").
struct Walk<P: Permutation> {
    masks: ManuallyDrop<MaskWindow<P, WINDOW>>,
    sum: ManuallyDrop<TagSum<P>>,
    /// The state being permuted.
    state: P::Block,
}

impl<P: Permutation> Walk<P> {
    /// A walk to be started with [`Self::begin`]. Built by its caller
    /// where it stays: a walk started here and returned would be copied
    /// (and its frame take it twice).
    #[inline(always)]
    fn new() -> Self {
        Self {
            masks: ManuallyDrop::new(MaskWindow::new()),
            sum: ManuallyDrop::new(TagSum::new()),
            state: P::Block::default(),
        }
    }

    /// `T = A_0`, and the masks from `mask_0 = L` on, on a new walk.
    #[inline(never)]
    fn begin(&mut self, expanded_key: &P::Block, nonce: &[u8; NONCE_SIZE], associated_data: &[u8]) {
        self.masks.restart(expanded_key);
        self.sum.start_from_zero(nonce, associated_data);
    }

    /// The state to permute for keystream block `index`:
    /// `N‖0 ⊕ mask_index ⊕ mask_{index+1}`.
    #[inline(never)]
    fn keystream_input(&mut self, nonce: &[u8; NONCE_SIZE], index: usize) {
        self.masks.prepare(index, index + 1);
        let masks = self.masks.keystream_masks(index);
        let state = self.state.as_mut();
        zip_u32s(
            state,
            masks,
            false,
            |_, [a, b, ..]| a ^ b,
            |_, [a, b, ..]| a ^ b,
        );
        xor_by_u32s(state, nonce, u8::MAX);
    }

    /// Keystream block `index` (the permuted state and its masks) into
    /// `data`: written where `accept` is `0xff`, the output left as it
    /// was where it is 0.
    #[inline(never)]
    fn keystream_output(&mut self, data: &mut Data<'_>, index: usize, accept: u8) {
        let start = index * P::BLOCK_SIZE;
        let masks = self.masks.keystream_masks(index);
        data.xor_block(start, self.state.as_mut(), masks, accept);
    }

    /// The state to permute for a tag term, `x ⊕ m` for block `x` (its
    /// bytes, and whether the padding's `01` follows them), with
    /// `m = mask_index ⊕ mask_{index+2}` for the ciphertext and
    /// `mask_index` for the associated data; `m` goes into the sum.
    #[inline(never)]
    fn term_input(&mut self, (bytes, padded): (&[u8], bool), index: usize, ciphertext: bool) {
        self.masks.prepare(index, index + 1);
        let state = self.state.as_mut();
        let mask = self.masks.mask(index);
        if ciphertext {
            let other = self.masks.mask(index + 2);
            zip_u32s(
                state,
                [mask, other],
                false,
                |_, [a, b, ..]| a ^ b,
                |_, [a, b, ..]| a ^ b,
            );
        } else {
            copy_by_u32s(state, mask);
        }
        self.sum.add(state);
        xor_by_u32s(state, bytes, u8::MAX);
        if padded {
            if let Some(pad) = state.get_mut(bytes.len()) {
                *pad ^= 0x01;
            }
        }
    }

    /// Adds the tag terms of index `index` to the sum: block `index` of
    /// the padded ciphertext and of `N ‖ A ‖ 01 ‖ 00…` (past block 0, which
    /// started the sum), where `jobs` has them.
    #[inline(always)]
    fn add_terms(&mut self, jobs: &Jobs, index: usize, ciphertext: &[u8], associated_data: &[u8]) {
        if index < jobs.terms {
            let start = index * P::BLOCK_SIZE;
            self.term_input(padded_block_at::<P>(ciphertext, start), index, true);
            P::permute(&mut self.state);
            self.sum.add(self.state.as_ref());
        }
        if index >= 1 && index < jobs.associated_data {
            // Block `index` of `N ‖ A`, past the nonce.
            let start = index * P::BLOCK_SIZE - NONCE_SIZE;
            self.term_input(padded_block_at::<P>(associated_data, start), index, false);
            P::permute(&mut self.state);
            self.sum.add(self.state.as_ref());
        }
    }

    /// `P(T ⊕ L) ⊕ L`, truncated: the tag of the sum, permuted in the
    /// sum's place, not in a copy in the state (DESIGN.md, "Stack
    /// clearing").
    #[inline(always)]
    fn tag(&mut self, expanded_key: &P::Block) -> TagOf<P> {
        let sum = self.sum.block_mut();
        xor_by_u32s(sum.as_mut(), expanded_key.as_ref(), u8::MAX);
        P::permute(sum);
        tag::tag_from::<P>(sum, expanded_key)
    }
}

/// Encrypts the buffer (input side to output side) and returns the tag.
#[inline(always)]
pub(super) fn seal<P: Permutation>(
    expanded_key: &P::Block,
    nonce: &[u8; NONCE_SIZE],
    associated_data: &[u8],
    buffer: InOutBuf<'_, '_, u8>,
) -> TagOf<P> {
    let mut data = Data::InPlace(copied_in(buffer));
    let mut walk = Walk::<P>::new();
    walk.begin(expanded_key, nonce, associated_data);
    let jobs = Jobs::of::<P>(associated_data.len(), data.read().len());
    for index in 0..jobs.terms.max(jobs.associated_data) {
        if index < jobs.keystream {
            walk.keystream_input(nonce, index);
            P::permute(&mut walk.state);
            walk.keystream_output(&mut data, index, 0xff);
        }
        walk.add_terms(&jobs, index, data.read(), associated_data);
    }
    walk.tag(expanded_key)
}

/// Verifies `tag` over the input side of the buffer in constant time and,
/// only if it matches, decrypts into the output side. On failure nothing is
/// written.
#[inline(always)]
pub(super) fn open<P: Permutation>(
    expanded_key: &P::Block,
    nonce: &[u8; NONCE_SIZE],
    associated_data: &[u8],
    buffer: InOutBuf<'_, '_, u8>,
    received: &TagOf<P>,
) -> Result<()> {
    let mut data = Data::in_place_or_not(buffer);
    let mut walk = Walk::<P>::new();
    walk.begin(expanded_key, nonce, associated_data);
    let jobs = Jobs::of::<P>(associated_data.len(), data.read().len());
    for index in 0..jobs.terms.max(jobs.associated_data) {
        walk.add_terms(&jobs, index, data.read(), associated_data);
    }
    let mut expected = walk.tag(expanded_key);
    let accept = tag::accept_mask::<P>(&mut expected, received);
    // The keystream starts over at mask_0, and runs whatever the verdict:
    // only what it writes depends on it.
    walk.masks.restart(expanded_key);
    for index in 0..jobs.keystream {
        walk.keystream_input(nonce, index);
        P::permute(&mut walk.state);
        walk.keystream_output(&mut data, index, accept);
    }
    tag::verdict(accept)
}

#[cfg(test)]
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::unwrap_used
)] // Tests may panic.
mod tests {
    use super::*;
    use crate::{Keccak200, Spongent160, Spongent176};

    /// On 64-bit targets the batched path is the one that ships, checked by
    /// the KATs; this path must give the same ciphertexts and tags for
    /// every length around the block boundaries (the armv7 job also runs
    /// the KATs through it), accept them, and reject a forged tag leaving
    /// the output as it was, in place and into a separate output.
    #[test]
    fn matches_the_batched_path() {
        fn check<P: Permutation>() {
            let mut key = P::Block::default();
            for (i, byte) in key.as_mut().iter_mut().enumerate() {
                *byte = (i as u8).wrapping_mul(41) ^ 0x3c;
            }
            let nonce = [0x5a; NONCE_SIZE];
            let block = P::BLOCK_SIZE;
            // Under Miri (slow, and looking for undefined behaviour, not
            // for lengths) one length on each side of a block boundary.
            let (ad_lens, lens): (Vec<usize>, Vec<usize>) = if cfg!(miri) {
                (vec![block - NONCE_SIZE + 1], vec![block - 1, block + 1])
            } else {
                (
                    vec![0, 1, block - NONCE_SIZE, 2 * block + 3],
                    (0..3 * block + 2).chain([10 * block]).collect(),
                )
            };
            for &ad_len in &ad_lens {
                let ad: Vec<u8> = (0..ad_len as u8).map(|i| i ^ 0xa7).collect();
                for &len in &lens {
                    let plaintext: Vec<u8> = (0..len).map(|i| (i * 7 + 1) as u8).collect();
                    let what = format!("{} ad {ad_len} len {len}", P::INSTANCE);

                    let mut sealed = plaintext.clone();
                    let tag = seal::<P>(&key, &nonce, &ad, sealed.as_mut_slice().into());
                    let mut batched = plaintext.clone();
                    let expected = crate::mode::seal_with::<P, 8, { window_for(8) }>(
                        &key,
                        &nonce,
                        &ad,
                        batched.as_mut_slice().into(),
                    );
                    assert_eq!(sealed, batched, "{what}");
                    assert_eq!(tag, expected, "{what}");

                    let mut output = vec![0xee; len];
                    let buffer = InOutBuf::new(&sealed, &mut output).unwrap();
                    assert!(open::<P>(&key, &nonce, &ad, buffer, &tag).is_ok(), "{what}");
                    assert_eq!(output, plaintext, "{what}");

                    let mut forged = tag.clone();
                    let at = len % forged.len();
                    forged[at] ^= 0x10;
                    let mut output = vec![0xee; len];
                    let buffer = InOutBuf::new(&sealed, &mut output).unwrap();
                    assert!(open::<P>(&key, &nonce, &ad, buffer, &forged).is_err());
                    assert!(output.iter().all(|&b| b == 0xee), "{what}");
                    let mut in_place = sealed.clone();
                    let buffer = in_place.as_mut_slice().into();
                    assert!(open::<P>(&key, &nonce, &ad, buffer, &forged).is_err());
                    assert_eq!(in_place, sealed, "{what}");
                    let buffer = in_place.as_mut_slice().into();
                    assert!(open::<P>(&key, &nonce, &ad, buffer, &tag).is_ok());
                    assert_eq!(in_place, plaintext, "{what}");
                }
            }
        }
        check::<Spongent160>();
        check::<Spongent176>();
        check::<Keccak200>();
    }
}
