//! Jumbo (Elephant-Spongent-π\[176\], 8-byte tags): the native C API.
//!
//! The three instance modules are the same text with the names changed
//! (cbindgen reads each function as written, so they are not a macro);
//! every function is a call of [`crate::call`].

use crate::call::{self, CPacket, Cipher, Direction, Inputs, RawPacket, TagAt, code};
use crate::elephant_jumbo_ctx;
use core::ffi::c_int;
use elephant_aead::{Jumbo, Spongent176};

/// The cipher of a raw key, expanded for one call.
fn raw_key(key: *const u8) -> Cipher<Spongent176> {
    Cipher::Key(key)
}

/// The library's cipher in a caller's context.
fn cipher(context: *const elephant_jumbo_ctx) -> Cipher<Spongent176> {
    Cipher::Context(context.cast::<Jumbo>())
}

/// Encrypts `mlen` bytes at `m` into `c`, followed by the tag: `c` receives
/// `mlen + ELEPHANT_JUMBO_TAG_BYTES` bytes. `c == m` encrypts in place.
///
/// Returns `ELEPHANT_OK`, or `ELEPHANT_ERR_NULL`, `ELEPHANT_ERR_LENGTH`,
/// `ELEPHANT_ERR_OVERLAP` with `c` untouched.
///
/// # Safety
///
/// Each pointer is valid for its length (the key 16 bytes, the nonce 12);
/// `ad` and `m` may be NULL when their length is 0.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn elephant_jumbo_encrypt(
    c: *mut u8,
    m: *const u8,
    mlen: usize,
    ad: *const u8,
    adlen: usize,
    nonce: *const u8,
    key: *const u8,
) -> c_int {
    let inputs = Inputs {
        ad,
        ad_len: adlen,
        nonce,
    };
    // SAFETY: the caller's contract, checked where it can be.
    code(unsafe { call::seal(&raw_key(key), c, TagAt::After, m, mlen, inputs) })
}

/// Verifies and decrypts `clen` bytes at `c` (ciphertext, then the tag)
/// into `m`, which receives `clen - ELEPHANT_JUMBO_TAG_BYTES` bytes.
/// `m == c` decrypts in place.
///
/// Returns `ELEPHANT_OK`, `ELEPHANT_ERR_VERIFY` if the tag does not match,
/// or `ELEPHANT_ERR_NULL`, `ELEPHANT_ERR_LENGTH` (also for `clen` shorter
/// than a tag), `ELEPHANT_ERR_OVERLAP`. No plaintext is written unless the
/// tag matches: a rejected tag leaves the ciphertext in place, or zeros
/// out of place (`m != c`); the other failures leave `m` untouched.
///
/// # Safety
///
/// As `elephant_jumbo_encrypt`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn elephant_jumbo_decrypt(
    m: *mut u8,
    c: *const u8,
    clen: usize,
    ad: *const u8,
    adlen: usize,
    nonce: *const u8,
    key: *const u8,
) -> c_int {
    let Some(mlen) = clen.checked_sub(crate::ELEPHANT_JUMBO_TAG_BYTES) else {
        return crate::ELEPHANT_ERR_LENGTH;
    };
    let inputs = Inputs {
        ad,
        ad_len: adlen,
        nonce,
    };
    // SAFETY: the caller's contract, checked where it can be.
    code(unsafe { call::open(&raw_key(key), m, c, mlen, TagAt::After, inputs) })
}

/// Encrypts `mlen` bytes at `m` into `c` (`c == m`: in place) and writes
/// the `ELEPHANT_JUMBO_TAG_BYTES`-byte tag to `tag`. Returns as
/// `elephant_jumbo_encrypt`.
///
/// # Safety
///
/// As `elephant_jumbo_encrypt`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn elephant_jumbo_encrypt_detached(
    c: *mut u8,
    tag: *mut u8,
    m: *const u8,
    mlen: usize,
    ad: *const u8,
    adlen: usize,
    nonce: *const u8,
    key: *const u8,
) -> c_int {
    let inputs = Inputs {
        ad,
        ad_len: adlen,
        nonce,
    };
    // SAFETY: the caller's contract, checked where it can be.
    code(unsafe { call::seal(&raw_key(key), c, TagAt::At(tag), m, mlen, inputs) })
}

/// Verifies `tag` for the `clen`-byte ciphertext at `c` and decrypts it
/// into `m` (`m == c`: in place). Returns as `elephant_jumbo_decrypt`.
///
/// # Safety
///
/// As `elephant_jumbo_encrypt`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn elephant_jumbo_decrypt_detached(
    m: *mut u8,
    c: *const u8,
    clen: usize,
    tag: *const u8,
    ad: *const u8,
    adlen: usize,
    nonce: *const u8,
    key: *const u8,
) -> c_int {
    let inputs = Inputs {
        ad,
        ad_len: adlen,
        nonce,
    };
    // SAFETY: the caller's contract, checked where it can be.
    code(unsafe { call::open(&raw_key(key), m, c, clen, TagAt::At(tag), inputs) })
}

/// Expands `key` into `ctx`, for many calls under one key. Returns
/// `ELEPHANT_OK`, `ELEPHANT_ERR_NULL`, `ELEPHANT_ERR_OVERLAP` or
/// `ELEPHANT_ERR_ALIGNMENT`.
///
/// # Safety
///
/// `ctx` points to writable memory of `elephant_jumbo_ctx`'s size, `key`
/// to 16 bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn elephant_jumbo_init(
    ctx: *mut elephant_jumbo_ctx,
    key: *const u8,
) -> c_int {
    // SAFETY: the caller's contract, checked where it can be.
    code(unsafe { call::init(ctx.cast::<Jumbo>(), key) })
}

/// Wipes `ctx` (overwrites the expanded key with zeros); set it again with
/// `elephant_jumbo_init` before another use.
///
/// # Safety
///
/// `ctx` was set by `elephant_jumbo_init`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn elephant_jumbo_wipe(ctx: *mut elephant_jumbo_ctx) -> c_int {
    // SAFETY: the caller's contract, checked where it can be.
    code(unsafe { call::wipe(ctx.cast::<Jumbo>()) })
}

/// `elephant_jumbo_encrypt` under the key expanded in `ctx`.
///
/// # Safety
///
/// As `elephant_jumbo_encrypt`; `ctx` was set by `elephant_jumbo_init`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn elephant_jumbo_ctx_encrypt(
    ctx: *const elephant_jumbo_ctx,
    c: *mut u8,
    m: *const u8,
    mlen: usize,
    ad: *const u8,
    adlen: usize,
    nonce: *const u8,
) -> c_int {
    let inputs = Inputs {
        ad,
        ad_len: adlen,
        nonce,
    };
    // SAFETY: the caller's contract, checked where it can be.
    code(unsafe { call::seal(&cipher(ctx), c, TagAt::After, m, mlen, inputs) })
}

/// `elephant_jumbo_decrypt` under the key expanded in `ctx`.
///
/// # Safety
///
/// As `elephant_jumbo_ctx_encrypt`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn elephant_jumbo_ctx_decrypt(
    ctx: *const elephant_jumbo_ctx,
    m: *mut u8,
    c: *const u8,
    clen: usize,
    ad: *const u8,
    adlen: usize,
    nonce: *const u8,
) -> c_int {
    let Some(mlen) = clen.checked_sub(crate::ELEPHANT_JUMBO_TAG_BYTES) else {
        return crate::ELEPHANT_ERR_LENGTH;
    };
    let inputs = Inputs {
        ad,
        ad_len: adlen,
        nonce,
    };
    // SAFETY: the caller's contract, checked where it can be.
    code(unsafe { call::open(&cipher(ctx), m, c, mlen, TagAt::After, inputs) })
}

/// `elephant_jumbo_encrypt_detached` under the key expanded in `ctx`.
///
/// # Safety
///
/// As `elephant_jumbo_ctx_encrypt`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn elephant_jumbo_ctx_encrypt_detached(
    ctx: *const elephant_jumbo_ctx,
    c: *mut u8,
    tag: *mut u8,
    m: *const u8,
    mlen: usize,
    ad: *const u8,
    adlen: usize,
    nonce: *const u8,
) -> c_int {
    let inputs = Inputs {
        ad,
        ad_len: adlen,
        nonce,
    };
    // SAFETY: the caller's contract, checked where it can be.
    code(unsafe { call::seal(&cipher(ctx), c, TagAt::At(tag), m, mlen, inputs) })
}

/// `elephant_jumbo_decrypt_detached` under the key expanded in `ctx`.
///
/// # Safety
///
/// As `elephant_jumbo_ctx_encrypt`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn elephant_jumbo_ctx_decrypt_detached(
    ctx: *const elephant_jumbo_ctx,
    m: *mut u8,
    c: *const u8,
    clen: usize,
    tag: *const u8,
    ad: *const u8,
    adlen: usize,
    nonce: *const u8,
) -> c_int {
    let inputs = Inputs {
        ad,
        ad_len: adlen,
        nonce,
    };
    // SAFETY: the caller's contract, checked where it can be.
    code(unsafe { call::open(&cipher(ctx), m, c, clen, TagAt::At(tag), inputs) })
}

/// One message of `elephant_jumbo_seal_many` or `elephant_jumbo_open_many`:
/// encrypted or decrypted in place in `buf`, with its detached tag.
#[repr(C)]
#[derive(Debug)]
pub struct elephant_jumbo_packet {
    /// The key, expanded by `elephant_jumbo_init` (packets may share one).
    pub ctx: *const elephant_jumbo_ctx,
    /// The 12-byte nonce.
    pub nonce: *const u8,
    /// The associated data (NULL if `adlen` is 0).
    pub ad: *const u8,
    /// Its length.
    pub adlen: usize,
    /// The message, encrypted or decrypted in place (NULL if `len` is 0).
    pub buf: *mut u8,
    /// Its length.
    pub len: usize,
    /// The tag: written when sealing, read when opening.
    pub tag: *mut u8,
    /// Written by the call: this packet's return code.
    pub status: c_int,
}

impl CPacket for elephant_jumbo_packet {
    type P = Spongent176;
    fn fields(&self) -> RawPacket<Spongent176> {
        RawPacket {
            context: self.ctx.cast::<Jumbo>(),
            inputs: Inputs {
                ad: self.ad,
                ad_len: self.adlen,
                nonce: self.nonce,
            },
            buffer: self.buf,
            len: self.len,
            tag: self.tag,
        }
    }
    fn status(this: *mut Self) -> *mut c_int {
        // No reference: the caller writes through the raw pointer.
        this.wrapping_byte_add(core::mem::offset_of!(Self, status))
            .cast()
    }
}

/// Encrypts every packet's buffer in place and writes its tag, their
/// permutations batched together (for gateways: many keys, one call).
/// Sets each packet's `status`; returns `ELEPHANT_OK` if all succeeded,
/// else the first failed packet's status. A failed packet is untouched.
///
/// # Safety
///
/// `packets` points to `count` packets whose pointers are valid for their
/// lengths.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn elephant_jumbo_seal_many(
    packets: *mut elephant_jumbo_packet,
    count: usize,
) -> c_int {
    // SAFETY: the caller's contract, checked where it can be.
    code(unsafe { call::many(Direction::Seal, packets, count) })
}

/// Verifies every packet's tag and decrypts the buffers of those that
/// match, in place; a packet whose tag does not match gets
/// `ELEPHANT_ERR_VERIFY` and its buffer is untouched. Returns as
/// `elephant_jumbo_seal_many`.
///
/// # Safety
///
/// As `elephant_jumbo_seal_many`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn elephant_jumbo_open_many(
    packets: *mut elephant_jumbo_packet,
    count: usize,
) -> c_int {
    // SAFETY: the caller's contract, checked where it can be.
    code(unsafe { call::many(Direction::Open, packets, count) })
}
