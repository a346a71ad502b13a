//! XOR of byte slices a machine word at a time (with AVX-512, the loops over
//! many blocks a block per masked vector access): the mode's only data
//! operation besides the permutation, done a few times per block.
//!
//! Offsets lie within the slices they index (at most `isize::MAX` bytes)
//! or a block past them: their arithmetic cannot overflow, and is plain.
#![expect(
    clippy::arithmetic_side_effects,
    reason = "offsets are bounded by slice lengths (see the module doc)"
)]

// The per-block XORs with the mask stream in masked 256-bit accesses.
#[cfg(elephant_avx512)]
#[clippy::msrv = "1.89"]
mod avx512;

/// Bytes in a machine word, the unit of [`xor_words`].
const WORD: usize = size_of::<usize>();

/// The two masks in a `window` of the mask stream for a block of `len`
/// bytes: the one it starts with and the one `ahead` bytes (so `ahead`
/// indices) later.
#[cfg_attr(elephant_batch, inline(always))]
pub(super) fn window_masks(window: &[u8], len: usize, ahead: usize) -> (&[u8], &[u8]) {
    let first = window.get(..len).unwrap_or_default();
    let later = window.get(ahead..ahead + len).unwrap_or_default();
    (first, later)
}

/// For each `(dst, input, window)` of `blocks` (each `dst` `block` bytes
/// long), with `mask` and `later` the [`window_masks`] `ahead` apart:
/// `dst = input ⊕ mask ⊕ later` (the mode's loops that fill the run with
/// many blocks: keystream inputs, tag-term inputs). Where the CPU has
/// AVX-512, one masked access per block and source; elsewhere
/// [`xor_words`] on each (`block`, the permutation's constant, keeps its
/// pieces fixed at compile time).
#[cfg_attr(elephant_batch, inline(always))]
pub(super) fn xor_blocks_from_stream<'a, 'b>(
    blocks: impl Iterator<Item = (&'a mut [u8], &'b [u8], &'b [u8])>,
    block: usize,
    ahead: usize,
) {
    #[cfg(elephant_avx512)]
    if let Some(token) = crate::permutation::cpu::Avx512Vbmi::detect() {
        avx512::xor_blocks_from_stream(token, blocks, ahead);
        return;
    }
    for (dst, input, window) in blocks {
        let (mask, later) = window_masks(window, block, ahead);
        xor_words(dst, false, [input, mask, later]);
    }
}

/// For each `(dst, result, window)` of `blocks` (each `dst` `block`
/// bytes long), with `mask` and `later` the [`window_masks`] one apart:
/// `dst ^= (result ⊕ mask ⊕ later) & accept`, the keystream into a message
/// in place. Where the CPU has AVX-512, with masked loads; elsewhere
/// [`xor_masked`] on each (as in [`xor_blocks_from_stream`]).
#[cfg_attr(elephant_batch, inline(always))]
pub(super) fn xor_keystream_into<'a, 'b>(
    blocks: impl Iterator<Item = (&'a mut [u8], &'b [u8], &'b [u8])>,
    block: usize,
    accept: u8,
) {
    #[cfg(elephant_avx512)]
    if let Some(token) = crate::permutation::cpu::Avx512Vbmi::detect() {
        avx512::xor_keystream_into(token, blocks, accept);
        return;
    }
    for (dst, result, window) in blocks {
        let (mask, later) = window_masks(window, block, 1);
        xor_masked(dst, [result, mask, later], accept);
    }
}

/// The [`WORD`] bytes of `source` from `offset` on as one word, zero-padded
/// past the end of `source`.
#[cfg_attr(elephant_batch, inline(always))]
fn word_at(source: &[u8], offset: usize) -> usize {
    match source
        .get(offset..offset + WORD)
        .and_then(|bytes| <[u8; WORD]>::try_from(bytes).ok())
    {
        Some(bytes) => usize::from_ne_bytes(bytes),
        None => partial_word_at(source, offset),
    }
}

/// [`word_at`] where fewer than [`WORD`] bytes are left.
#[cold]
fn partial_word_at(source: &[u8], offset: usize) -> usize {
    let mut bytes = [0; WORD];
    let rest = source.get(offset..).unwrap_or_default();
    for (to, from) in bytes.iter_mut().zip(rest) {
        *to = *from;
    }
    usize::from_ne_bytes(bytes)
}

/// `dst = dst ⊕ sources…` (with `keep`) or `dst = sources…` (without), over
/// the length of `dst`; a shorter source reads as zeros past its end.
///
/// On 64-bit targets a word at a time (a whole block in pieces of 16, 8,
/// 4, 2 and 1 bytes), inlined so that each call site sees fixed block
/// lengths: the mode does this a few times per block, and byte loops (or
/// copies that later loads straddle) cost more than the batched
/// permutations there. Firmware takes the smaller loop of [`xor_by_u32s`].
#[cfg_attr(elephant_batch, inline(always))]
pub(super) fn xor_words<const K: usize>(dst: &mut [u8], keep: bool, sources: [&[u8]; K]) {
    if cfg!(elephant_batch) {
        xor_by_words(dst, keep, sources, u8::MAX);
    } else {
        xor_sources_by_u32s(dst, keep, sources);
    }
}

/// [`xor_words`] on firmware: one source after the other, each through
/// [`xor_by_u32s`].
fn xor_sources_by_u32s<const K: usize>(dst: &mut [u8], keep: bool, sources: [&[u8]; K]) {
    if !keep {
        dst.fill(0);
    }
    for source in sources {
        xor_by_u32s(dst, source, u8::MAX);
    }
}

/// `dst ^= src & mask` over the shorter of the two (`mask` applied to
/// every byte: the verdict's, or `u8::MAX`), four bytes at a time and the
/// rest a byte at a time: on a Cortex-M4 fewer instructions than a byte
/// loop, for a little code (DESIGN.md, "The mode's block work"). Inlined:
/// as a function of its own, its frame added to Dumbo's peak stack (and a
/// constant `mask` folds away).
#[inline(always)]
pub(super) fn xor_by_u32s(dst: &mut [u8], src: &[u8], mask: u8) {
    let word_mask = u32::from_ne_bytes([mask; 4]);
    zip_u32s(
        dst,
        [src],
        false,
        |d, [s, ..]| d ^ (s & word_mask),
        |d, [s, ..]| d ^ (s & mask),
    );
}

/// `dst = src` over the shorter of the two, four bytes at a time: a
/// block's copy, which as `copy_from_slice` calls a `memcpy` that takes
/// several times as long for 20–25 bytes on a Cortex-M4. A `black_box`
/// per word (no instruction) keeps LLVM from turning the loop back into
/// that call.
#[inline(always)]
pub(super) fn copy_by_u32s(dst: &mut [u8], src: &[u8]) {
    zip_u32s(dst, [src], true, |_, [s, ..]| s, |_, [s, ..]| s);
}

/// `dst = word(dst, sources…)` over the shortest of them all, four bytes
/// at a time, and `byte(dst, sources…)` for the last few: one pass where
/// a block operation reads several blocks (the sequential walk fuses its
/// mask and keystream XORs so: DESIGN.md, "The mode's block work"). Up
/// to four sources; `word` and `byte` get four, those past `K` repeating
/// the first (their loads are dropped when unused, and a loop over `K`
/// would not be unrolled at opt-level "s"). With `opaque`, each word step
/// is hidden from LLVM's loop idioms (a copy would otherwise become a
/// `memcpy` call).
#[inline(always)]
pub(super) fn zip_u32s<const K: usize>(
    dst: &mut [u8],
    sources: [&[u8]; K],
    opaque: bool,
    word: impl Fn(u32, [u32; 4]) -> u32,
    byte: impl Fn(u8, [u8; 4]) -> u8,
) {
    const { assert!(K >= 1 && K <= 4, "one to four sources") };
    // No loop or `map` over the sources: constant indices, folded.
    let first = sources.first().copied().unwrap_or_default();
    let source = |i: usize| sources.get(i).copied().unwrap_or(first);
    let (s0, s1, s2, s3) = (source(0), source(1), source(2), source(3));
    let len = dst
        .len()
        .min(s0.len())
        .min(s1.len())
        .min(s2.len())
        .min(s3.len());
    let word_at = |s: &[u8], offset: usize| {
        s.get(offset..offset + 4)
            .and_then(|bytes| <[u8; 4]>::try_from(bytes).ok())
            .map_or(0, u32::from_ne_bytes)
    };
    let byte_at = |s: &[u8], offset: usize| s.get(offset).copied().unwrap_or_default();
    let whole = len & !3;
    let (dst_words, dst_rest) = dst.split_at_mut(whole.min(dst.len()));
    for (at, d) in dst_words.chunks_exact_mut(4).enumerate() {
        if opaque {
            core::hint::black_box(());
        }
        let offset = at * 4;
        let s = [
            word_at(s0, offset),
            word_at(s1, offset),
            word_at(s2, offset),
            word_at(s3, offset),
        ];
        let Ok(d) = <&mut [u8; 4]>::try_from(d) else {
            continue;
        };
        *d = word(u32::from_ne_bytes(*d), s).to_ne_bytes();
    }
    for (at, d) in dst_rest.iter_mut().take(len - whole).enumerate() {
        let offset = whole + at;
        let s = [
            byte_at(s0, offset),
            byte_at(s1, offset),
            byte_at(s2, offset),
            byte_at(s3, offset),
        ];
        *d = byte(*d, s);
    }
}

/// `dst ^= (sources…) & mask`, `mask` a byte applied to every byte: the
/// keystream of an opening, written through the verdict's mask in the same
/// pass as its XOR (a separate AND pass would reread bytes just stored, a
/// store-forwarding stall per block). A word at a time on 64-bit targets.
#[cfg_attr(elephant_batch, inline(always))]
pub(super) fn xor_masked<const K: usize>(dst: &mut [u8], sources: [&[u8]; K], mask: u8) {
    if cfg!(elephant_batch) {
        xor_by_words(dst, true, sources, mask);
    } else {
        // A byte at a time: firmware writes keystreams another way (see
        // `Call::apply_keystream`), so this is never on its hot path.
        for (index, byte) in dst.iter_mut().enumerate() {
            let mut x = 0;
            for source in sources {
                x ^= source.get(index).copied().unwrap_or_default();
            }
            *byte ^= x & mask;
        }
    }
}

/// Bytes in the widest piece of [`xor_by_pieces`]: one SSE vector.
const HALF: usize = 16;

/// [`xor_words`] a [`WORD`] at a time, the sources' XOR ANDed with `mask`
/// in every byte; a whole block (16 to 32 bytes, every source as long)
/// goes by [`xor_by_pieces`].
#[cfg_attr(elephant_batch, inline(always))]
fn xor_by_words<const K: usize>(dst: &mut [u8], keep: bool, sources: [&[u8]; K], mask: u8) {
    let len = dst.len();
    if (HALF..=2 * HALF).contains(&len) && sources.iter().all(|source| source.len() >= len) {
        xor_by_pieces(dst, keep, sources, mask);
        return;
    }
    let word_mask = usize::from_ne_bytes([mask; WORD]);
    let mut offset = 0usize;
    let mut words = dst.chunks_exact_mut(WORD);
    for dst_word in &mut words {
        let mut x = 0;
        for source in sources {
            x ^= word_at(source, offset);
        }
        x &= word_mask;
        if keep {
            x ^= word_at(dst_word, 0);
        }
        dst_word.copy_from_slice(&x.to_ne_bytes());
        offset += WORD;
    }
    for dst_byte in words.into_remainder() {
        let mut x = 0;
        for source in sources {
            x ^= source.get(offset).copied().unwrap_or_default();
        }
        x &= mask;
        if keep {
            x ^= *dst_byte;
        }
        *dst_byte = x;
        offset += 1;
    }
}

/// [`xor_by_words`] on a whole block (16 to 32 bytes, every source at
/// least as long) in pieces that do not overlap, each an integer: 16 bytes
/// (`u128`), then 8, 4, 2 and 1 as the length asks (a 25-byte block is
/// 16 + 8 + 1, a 20-byte one 16 + 4), one load per source and one store
/// each. The length is a constant where this inlines, so only its pieces
/// remain. Integers, not byte arrays: with byte arrays (and with two
/// 16-byte halves that overlapped, as before), LLVM built the pieces of a
/// mask and of the next mask one byte above it from shared loads, by bytes
/// and shifts (DESIGN.md, "The mode's block work").
#[inline(always)]
fn xor_by_pieces<const K: usize>(dst: &mut [u8], keep: bool, sources: [&[u8]; K], mask: u8) {
    let len = dst.len();
    let mut at = 0;
    while len - at >= HALF {
        xor_piece::<HALF, K>(dst, at, keep, sources, mask);
        at += HALF;
    }
    // Written out, not a loop over the sizes: LLVM did not unroll that.
    if len - at >= 8 {
        xor_piece::<8, K>(dst, at, keep, sources, mask);
        at += 8;
    }
    if len - at >= 4 {
        xor_piece::<4, K>(dst, at, keep, sources, mask);
        at += 4;
    }
    if len - at >= 2 {
        xor_piece::<2, K>(dst, at, keep, sources, mask);
        at += 2;
    }
    if len - at >= 1 {
        xor_piece::<1, K>(dst, at, keep, sources, mask);
    }
}

/// Bytes `at .. at + N` of `dst` (N = 1, 2, 4, 8 or 16) become
/// `(sources…) & mask`, XORed with what they were where `keep` (a source
/// shorter than that reads as zeros, which the callers rule out).
#[inline(always)]
fn xor_piece<const N: usize, const K: usize>(
    dst: &mut [u8],
    at: usize,
    keep: bool,
    sources: [&[u8]; K],
    mask: u8,
) {
    let mut x = 0u128;
    for source in sources {
        x ^= piece_at::<N>(source, at);
    }
    x &= u128::from_ne_bytes([mask; 16]);
    let to = dst
        .get_mut(at..at + N)
        .and_then(|piece| <&mut [u8; N]>::try_from(piece).ok());
    if let Some(to) = to {
        if keep {
            x ^= piece_at::<N>(to.as_slice(), 0);
        }
        to.copy_from_slice(x.to_ne_bytes().get(..N).unwrap_or_default());
    }
}

/// Bytes `at .. at + N` of `bytes` (N = 1, 2, 4, 8 or 16) as the low bytes
/// of an integer (zeros if `bytes` is shorter, which the callers rule out).
#[inline(always)]
fn piece_at<const N: usize>(bytes: &[u8], at: usize) -> u128 {
    let piece = bytes.get(at..at + N).unwrap_or_default();
    match N {
        16 => piece.try_into().map_or(0, u128::from_ne_bytes),
        8 => piece.try_into().map_or(0, |b| u64::from_ne_bytes(b).into()),
        4 => piece.try_into().map_or(0, |b| u32::from_ne_bytes(b).into()),
        2 => piece.try_into().map_or(0, |b| u16::from_ne_bytes(b).into()),
        _ => piece.first().copied().map_or(0, u128::from),
    }
}

/// Bytes `at .. at + HALF` of `bytes` (zeros if it is shorter, which the
/// callers rule out).
#[inline(always)]
fn half_at(bytes: &[u8], at: usize) -> [u8; HALF] {
    bytes
        .get(at..at + HALF)
        .and_then(|half| half.try_into().ok())
        .unwrap_or([0; HALF])
}

/// `dst ^= block` for every block of `blocks`, each as long as `dst`: the
/// tag sum of many permutation results. On 64-bit targets a 16- to 32-byte
/// sum is kept as two halves in registers and stored once: stored by
/// halves after every block, its next load would span both (they overlap)
/// and wait for them to reach the cache.
#[cfg_attr(elephant_batch, inline(always))]
pub(super) fn xor_each_into<'a>(dst: &mut [u8], blocks: impl Iterator<Item = &'a [u8]>) {
    let len = dst.len();
    if cfg!(elephant_batch) && (HALF..=2 * HALF).contains(&len) {
        let tail = len - HALF;
        let (mut head, mut rest) = (half_at(dst, 0), half_at(dst, tail));
        for block in blocks {
            debug_assert_eq!(block.len(), len, "blocks as long as the sum");
            let (a, b) = (half_at(block, 0), half_at(block, tail));
            head.iter_mut().zip(a).for_each(|(x, y)| *x ^= y);
            rest.iter_mut().zip(b).for_each(|(x, y)| *x ^= y);
        }
        if let Some(to) = dst.get_mut(..HALF) {
            to.copy_from_slice(&head);
        }
        if let Some(to) = dst.get_mut(tail..) {
            to.copy_from_slice(&rest);
        }
    } else {
        for block in blocks {
            xor_into(dst, block);
        }
    }
}

/// `dst ^= src`, over the length of `dst` (firmware: over the shorter,
/// which the callers make the same).
#[inline(always)]
pub(super) fn xor_into(dst: &mut [u8], src: &[u8]) {
    if cfg!(elephant_batch) {
        xor_words(dst, true, [src]);
    } else {
        xor_by_u32s(dst, src, u8::MAX);
    }
}

#[cfg(test)]
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation
)]
mod tests {
    use super::*;

    /// Both XOR forms against a plain one, for every length around the
    /// block sizes, with and without the destination, and with short sources.
    #[test]
    fn xor_words_matches_bytewise_xor() {
        let a: Vec<u8> = (0..40u8).map(|i| i.wrapping_mul(7) ^ 0x31).collect();
        let b: Vec<u8> = (0..40u8).map(|i| i.wrapping_mul(13) ^ 0xc4).collect();
        for len in 0..=33 {
            for short in [0, 3, 8, 17, 40] {
                let c = &b[..short];
                let start: Vec<u8> = (0..len as u8).map(|i| i ^ 0x77).collect();
                let at = |s: &[u8], i: usize| s.get(i).copied().unwrap_or(0);
                type Xor = fn(&mut [u8], bool, [&[u8]; 2]);
                let forms: [(&str, Xor); 2] = [
                    ("words", |d, k, s| xor_by_words(d, k, s, u8::MAX)),
                    ("u32s", xor_sources_by_u32s),
                ];
                for (name, xor) in forms {
                    let mut kept = start.clone();
                    xor(&mut kept, true, [&a, c]);
                    let mut fresh = start.clone();
                    xor(&mut fresh, false, [&a, c]);
                    let what = format!("{name}: len {len} short {short}");
                    for i in 0..len {
                        assert_eq!(kept[i], start[i] ^ a[i] ^ at(c, i), "{what}");
                        assert_eq!(fresh[i], a[i] ^ at(c, i), "{what}");
                    }
                }
            }
        }
    }

    /// The fused pass against a plain one: one to four sources of
    /// different lengths, over the shortest, the destination read or not.
    #[test]
    fn zip_u32s_matches_bytewise() {
        let data: Vec<Vec<u8>> = (0..5u8)
            .map(|k| (0..40u8).map(|i| i.wrapping_mul(11 + 2 * k) ^ k).collect())
            .collect();
        let at = |s: &[u8], i: usize| s[i];
        for len in 0..=33 {
            for short in [0, 1, 5, 17, 25, 40] {
                let s0 = &data[1][..len.min(40)];
                let s1 = &data[2][..short];
                let s2 = &data[3][..(short + 3).min(40)];
                let s3 = &data[4][..];
                let start = &data[0][..len];
                let what = format!("len {len} short {short}");

                let mut one = start.to_vec();
                zip_u32s(
                    &mut one,
                    [s0],
                    false,
                    |d, [a, ..]| d ^ a,
                    |d, [a, ..]| d ^ a,
                );
                for i in 0..len {
                    assert_eq!(one[i], start[i] ^ at(s0, i), "{what}");
                }

                let n = len.min(short);
                let mut two = start.to_vec();
                zip_u32s(
                    &mut two,
                    [s0, s1],
                    true,
                    |_, [a, b, ..]| a ^ b,
                    |_, [a, b, ..]| a ^ b,
                );
                for i in 0..len {
                    let expected = if i < n {
                        at(s0, i) ^ at(s1, i)
                    } else {
                        start[i]
                    };
                    assert_eq!(two[i], expected, "{what}");
                }

                let mut four = start.to_vec();
                zip_u32s(
                    &mut four,
                    [s0, s1, s2, s3],
                    false,
                    |d, [a, b, c, e]| d ^ a ^ b ^ c ^ !e,
                    |d, [a, b, c, e]| d ^ a ^ b ^ c ^ !e,
                );
                for i in 0..len {
                    let expected = if i < n {
                        start[i] ^ at(s0, i) ^ at(s1, i) ^ at(s2, i) ^ !at(s3, i)
                    } else {
                        start[i]
                    };
                    assert_eq!(four[i], expected, "{what}");
                }
            }
        }
    }

    /// The sum of many blocks, for every length around the block sizes
    /// (two halves in registers from 16 to 32 bytes, words otherwise).
    #[test]
    fn xor_each_into_sums_every_block() {
        for len in 0..=33 {
            let blocks: Vec<Vec<u8>> = (0..5u8)
                .map(|k| {
                    (0..len as u8)
                        .map(|i| i.wrapping_mul(17 + 2 * k) ^ k)
                        .collect()
                })
                .collect();
            let start: Vec<u8> = (0..len as u8).map(|i| i ^ 0x5c).collect();
            let mut sum = start.clone();
            xor_each_into(&mut sum, blocks.iter().map(Vec::as_slice));
            for i in 0..len {
                let expected = blocks.iter().fold(start[i], |x, block| x ^ block[i]);
                assert_eq!(sum[i], expected, "len {len} byte {i}");
            }
        }
    }

    /// The masked form: all ones XORs, zero leaves the destination as it
    /// was, for every length around the block sizes.
    #[test]
    fn xor_masked_applies_the_mask() {
        let a: Vec<u8> = (0..40u8).map(|i| i.wrapping_mul(7) ^ 0x31).collect();
        let b: Vec<u8> = (0..40u8).map(|i| i.wrapping_mul(13) ^ 0xc4).collect();
        for len in 0..=33 {
            let start: Vec<u8> = (0..len as u8).map(|i| i ^ 0x77).collect();
            let mut all = start.clone();
            xor_masked(&mut all, [&a, &b], 0xff);
            let mut none = start.clone();
            xor_masked(&mut none, [&a, &b], 0);
            for i in 0..len {
                assert_eq!(all[i], start[i] ^ a[i] ^ b[i], "len {len}");
            }
            assert_eq!(none, start, "len {len}");
        }
    }
}
