//! Portable Keccak-f\[200\] backends: the round function written once over
//! a [`Word`] of byte lanes, run on one state (`u8` lanes) or on eight states
//! at once, byte-sliced in `u64` words (SWAR).
//!
//! Byte-slicing puts lane (x, y) of eight independent states into the eight
//! bytes of one `u64`: θ, π, χ and ι become word-wise XOR/AND/NOT and a
//! renaming of words, and the per-lane rotations of ρ become masked shifts
//! that cannot carry bits from one state into its neighbour. Every operation
//! is a fixed sequence independent of the data, so the time taken does not
//! depend on the states.

use zeroize::Zeroize;

/// Round constants ι of the 18 rounds (as in the reference `keccak_f200`).
const ROUND_CONSTANTS: [u8; 18] = [
    0x01, 0x82, 0x8a, 0x00, 0x8b, 0x01, 0x81, 0x09, 0x8a, 0x88, 0x09, 0x0a, 0x8b, 0x8b, 0x89, 0x03,
    0x02, 0x80,
];

/// How many states the SWAR form permutes at once: the bytes of a `u64`.
pub(super) const SWAR_STATES: usize = 8;

/// A machine word holding the same lane of several independent states, one
/// byte per state: what the round function needs from it.
///
/// Implemented for `u8` (one state), `u64` (eight states) and, in the AVX2
/// backend, a 256-bit vector (32 states), so that one round function serves
/// them all.
pub(super) trait Word: Copy {
    /// Every byte set to `byte`.
    fn splat(byte: u8) -> Self;
    /// Bitwise XOR.
    fn xor(self, other: Self) -> Self;
    /// Bitwise AND.
    fn and(self, other: Self) -> Self;
    /// Bitwise OR.
    fn or(self, other: Self) -> Self;
    /// `!self & other`, the χ step (one instruction where the target has it).
    fn andnot(self, other: Self) -> Self;
    /// Shift of the whole word (or of each wider element) left by
    /// `bits` < 8; bits that cross into a neighbouring byte are masked off by
    /// [`Word::rotl`].
    fn shl(self, bits: u32) -> Self;
    /// Shift right, the counterpart of [`Word::shl`].
    fn shr(self, bits: u32) -> Self;

    /// Rotates every byte left by `bits` (1 to 7): the high part of each
    /// shifted byte is kept, what leaked into the neighbouring byte is masked
    /// away, and the wrapped-around bits come from the opposite shift.
    #[inline(always)]
    fn rotl(self, bits: u32) -> Self {
        let back = 8u32.wrapping_sub(bits);
        let high = self.shl(bits).and(Self::splat(u8::MAX.wrapping_shl(bits)));
        let low = self.shr(back).and(Self::splat(u8::MAX.wrapping_shr(back)));
        high.or(low)
    }
}

/// One state: a lane is a byte, and the byte rotation is native.
impl Word for u8 {
    #[inline(always)]
    fn splat(byte: u8) -> Self {
        byte
    }
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        self ^ other
    }
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        self & other
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        self | other
    }
    #[inline(always)]
    fn andnot(self, other: Self) -> Self {
        !self & other
    }
    #[inline(always)]
    fn shl(self, bits: u32) -> Self {
        self.wrapping_shl(bits)
    }
    #[inline(always)]
    fn shr(self, bits: u32) -> Self {
        self.wrapping_shr(bits)
    }
    #[inline(always)]
    fn rotl(self, bits: u32) -> Self {
        self.rotate_left(bits)
    }
}

/// Eight states byte-sliced in a general-purpose register.
impl Word for u64 {
    #[inline(always)]
    fn splat(byte: u8) -> Self {
        Self::from_ne_bytes([byte; 8])
    }
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        self ^ other
    }
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        self & other
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        self | other
    }
    #[inline(always)]
    fn andnot(self, other: Self) -> Self {
        !self & other
    }
    #[inline(always)]
    fn shl(self, bits: u32) -> Self {
        self.wrapping_shl(bits)
    }
    #[inline(always)]
    fn shr(self, bits: u32) -> Self {
        self.wrapping_shr(bits)
    }
}

/// One round θ, ρ, π, χ, ι on the 25 lanes (lane (x, y) at `x + 5y`), with
/// the round constant already splatted over the word.
///
/// Written out lane by lane so that every rotation amount and every lane
/// move is a constant: π costs nothing but names.
#[inline(always)]
fn round<W: Word>(state: [W; 25], round_constant: W) -> [W; 25] {
    let [
        a00,
        a10,
        a20,
        a30,
        a40,
        a01,
        a11,
        a21,
        a31,
        a41,
        a02,
        a12,
        a22,
        a32,
        a42,
        a03,
        a13,
        a23,
        a33,
        a43,
        a04,
        a14,
        a24,
        a34,
        a44,
    ] = state;
    // θ: column parities C[x], then D[x] = C[x − 1] ⊕ rotl(C[x + 1], 1).
    let c0 = a00.xor(a01.xor(a02.xor(a03.xor(a04))));
    let c1 = a10.xor(a11.xor(a12.xor(a13.xor(a14))));
    let c2 = a20.xor(a21.xor(a22.xor(a23.xor(a24))));
    let c3 = a30.xor(a31.xor(a32.xor(a33.xor(a34))));
    let c4 = a40.xor(a41.xor(a42.xor(a43.xor(a44))));
    let d0 = c4.xor(c1.rotl(1));
    let d1 = c0.xor(c2.rotl(1));
    let d2 = c1.xor(c3.rotl(1));
    let d3 = c2.xor(c4.rotl(1));
    let d4 = c3.xor(c0.rotl(1));
    // θ applied, ρ and π: B[y, 2x + 3y] = rotl(A[x, y] ⊕ D[x], r[x + 5y]).
    let b00 = a00.xor(d0);
    let b10 = a11.xor(d1).rotl(4);
    let b20 = a22.xor(d2).rotl(3);
    let b30 = a33.xor(d3).rotl(5);
    let b40 = a44.xor(d4).rotl(6);
    let b01 = a30.xor(d3).rotl(4);
    let b11 = a41.xor(d4).rotl(4);
    let b21 = a02.xor(d0).rotl(3);
    let b31 = a13.xor(d1).rotl(5);
    let b41 = a24.xor(d2).rotl(5);
    let b02 = a10.xor(d1).rotl(1);
    let b12 = a21.xor(d2).rotl(6);
    let b22 = a32.xor(d3).rotl(1);
    let b32 = a43.xor(d4);
    let b42 = a04.xor(d0).rotl(2);
    let b03 = a40.xor(d4).rotl(3);
    let b13 = a01.xor(d0).rotl(4);
    let b23 = a12.xor(d1).rotl(2);
    let b33 = a23.xor(d2).rotl(7);
    let b43 = a34.xor(d3);
    let b04 = a20.xor(d2).rotl(6);
    let b14 = a31.xor(d3).rotl(7);
    let b24 = a42.xor(d4).rotl(7);
    let b34 = a03.xor(d0).rotl(1);
    let b44 = a14.xor(d1).rotl(2);
    // χ: A[x, y] = B[x, y] ⊕ (¬B[x + 1, y] ∧ B[x + 2, y]); ι on lane (0, 0).
    [
        b00.xor(b10.andnot(b20)).xor(round_constant),
        b10.xor(b20.andnot(b30)),
        b20.xor(b30.andnot(b40)),
        b30.xor(b40.andnot(b00)),
        b40.xor(b00.andnot(b10)),
        b01.xor(b11.andnot(b21)),
        b11.xor(b21.andnot(b31)),
        b21.xor(b31.andnot(b41)),
        b31.xor(b41.andnot(b01)),
        b41.xor(b01.andnot(b11)),
        b02.xor(b12.andnot(b22)),
        b12.xor(b22.andnot(b32)),
        b22.xor(b32.andnot(b42)),
        b32.xor(b42.andnot(b02)),
        b42.xor(b02.andnot(b12)),
        b03.xor(b13.andnot(b23)),
        b13.xor(b23.andnot(b33)),
        b23.xor(b33.andnot(b43)),
        b33.xor(b43.andnot(b03)),
        b43.xor(b03.andnot(b13)),
        b04.xor(b14.andnot(b24)),
        b14.xor(b24.andnot(b34)),
        b24.xor(b34.andnot(b44)),
        b34.xor(b44.andnot(b04)),
        b44.xor(b04.andnot(b14)),
    ]
}

/// The 18 rounds of Keccak-f\[200\] on every state held in the words.
#[inline(always)]
pub(super) fn rounds<W: Word>(mut state: [W; 25]) -> [W; 25] {
    for constant in ROUND_CONSTANTS {
        state = round(state, W::splat(constant));
    }
    state
}

/// Keccak-f\[200\] of one state, its lanes in registers: the round function
/// on `u8` words.
pub(super) fn permute_one(block: &mut [u8; 25]) {
    *block = rounds(*block);
}

/// Transposes an 8 × 8 byte matrix held as eight little-endian `u64` rows:
/// byte j of row i becomes byte i of row j. Its own inverse.
///
/// Three rounds of block swaps (4 × 4, then 2 × 2, then single bytes), each
/// exchanging the upper block of one row with the lower block of another.
#[inline(always)]
fn transpose_8x8(rows: [u64; 8]) -> [u64; 8] {
    /// Swaps the bits of `a` selected by `mask << shift` with the bits of
    /// `b` selected by `mask`.
    #[inline(always)]
    fn swap(a: &mut u64, b: &mut u64, shift: u32, mask: u64) {
        let t = ((*a >> shift) ^ *b) & mask;
        *a ^= t << shift;
        *b ^= t;
    }
    let [
        mut r0,
        mut r1,
        mut r2,
        mut r3,
        mut r4,
        mut r5,
        mut r6,
        mut r7,
    ] = rows;
    for (a, b) in [
        (&mut r0, &mut r4),
        (&mut r1, &mut r5),
        (&mut r2, &mut r6),
        (&mut r3, &mut r7),
    ] {
        swap(a, b, 32, 0x0000_0000_ffff_ffff);
    }
    for (a, b) in [
        (&mut r0, &mut r2),
        (&mut r1, &mut r3),
        (&mut r4, &mut r6),
        (&mut r5, &mut r7),
    ] {
        swap(a, b, 16, 0x0000_ffff_0000_ffff);
    }
    for (a, b) in [
        (&mut r0, &mut r1),
        (&mut r2, &mut r3),
        (&mut r4, &mut r5),
        (&mut r6, &mut r7),
    ] {
        swap(a, b, 8, 0x00ff_00ff_00ff_00ff);
    }
    [r0, r1, r2, r3, r4, r5, r6, r7]
}

/// Byte-slices up to eight blocks: word `l` holds lane `l` of block `s` in
/// byte `s`. Missing blocks are zero states.
#[inline(always)]
fn load_x8(blocks: &[[u8; 25]]) -> [u64; 25] {
    // Rows: bytes 0–7, 8–15 and 16–23 of each block, then byte 24.
    let mut rows = [[0u64; SWAR_STATES]; 3];
    let mut last = [0u8; SWAR_STATES];
    for (s, block) in blocks.iter().take(SWAR_STATES).enumerate() {
        let parts = block.chunks_exact(8);
        if let (Some(to), [from]) = (last.get_mut(s), parts.remainder()) {
            *to = *from;
        }
        for (row, part) in rows.iter_mut().zip(parts) {
            if let (Some(word), Ok(bytes)) = (row.get_mut(s), part.try_into()) {
                *word = u64::from_le_bytes(bytes);
            }
        }
    }
    let mut lanes = [0u64; 25];
    let mut groups = lanes.chunks_exact_mut(8);
    for (group, row) in groups.by_ref().zip(&rows) {
        group.copy_from_slice(&transpose_8x8(*row));
    }
    if let [word] = groups.into_remainder() {
        *word = u64::from_le_bytes(last);
    }
    rows.zeroize();
    last.zeroize();
    lanes
}

/// Writes byte-sliced lanes back into up to eight blocks, the inverse of
/// [`load_x8`]; lanes of missing blocks are dropped.
#[inline(always)]
fn store_x8(lanes: &[u64; 25], blocks: &mut [[u8; 25]]) {
    let groups = lanes.chunks_exact(8);
    let mut last = match groups.remainder() {
        [word] => word.to_le_bytes(),
        _ => [0; 8],
    };
    let mut rows = [[0u64; SWAR_STATES]; 3];
    for (row, group) in rows.iter_mut().zip(groups) {
        if let Ok(group) = group.try_into() {
            *row = transpose_8x8(group);
        }
    }
    for (s, block) in blocks.iter_mut().take(SWAR_STATES).enumerate() {
        let mut parts = block.chunks_exact_mut(8);
        for (part, row) in parts.by_ref().zip(&rows) {
            if let Some(word) = row.get(s) {
                part.copy_from_slice(&word.to_le_bytes());
            }
        }
        if let (Some(from), [to]) = (last.get(s), parts.into_remainder()) {
            *to = *from;
        }
    }
    rows.zeroize();
    last.zeroize();
}

/// Keccak-f\[200\] of every block, eight states at a time in `u64` words;
/// the last chunk is filled up with zero states whose results are dropped.
pub(super) fn permute_x8(blocks: &mut [[u8; 25]]) {
    for chunk in blocks.chunks_mut(SWAR_STATES) {
        let mut lanes = rounds(load_x8(chunk));
        store_x8(&lanes, chunk);
        lanes.zeroize();
    }
}
