//! The C ABI of the C++ library many users come from (`cpp-abi` feature):
//! its six functions with their exact signatures, so that a program written
//! against that library links against this one unchanged.
//!
//! Its conventions, kept: the tag is detached (8 bytes for Dumbo and Jumbo,
//! 16 for Delirium), encryption reports nothing, and a failed decryption
//! returns `false` with `txt` zeroed. Arguments are checked as in the
//! native API; invalid ones (NULL with a length, overlapping buffers other
//! than `txt == enc`) make encryption write nothing and decryption fail.

use crate::call::{self, Cipher, Inputs, TagAt};
use crate::check::Region;
use elephant_aead::{Keccak200, Permutation, Spongent160, Spongent176};

/// The shared body of the three encryptions.
///
/// # Safety
///
/// As the exported functions.
#[allow(clippy::too_many_arguments)] // The ABI's own argument list.
unsafe fn encrypt<P: Permutation>(
    key: *const u8,
    nonce: *const u8,
    data: *const u8,
    dlen: usize,
    txt: *const u8,
    enc: *mut u8,
    ctlen: usize,
    tag: *mut u8,
) {
    let inputs = Inputs {
        ad: data,
        ad_len: dlen,
        nonce,
    };
    // SAFETY: the caller's contract, checked where it can be. The ABI has
    // no way to report a failure; nothing is written then.
    let _ = unsafe {
        call::seal(
            &Cipher::<P>::Key(key),
            enc,
            TagAt::At(tag),
            txt,
            ctlen,
            inputs,
        )
    };
}

/// The shared body of the three decryptions: `txt` zeroed on failure.
///
/// # Safety
///
/// As the exported functions.
#[allow(clippy::too_many_arguments)] // The ABI's own argument list.
unsafe fn decrypt<P: Permutation>(
    key: *const u8,
    nonce: *const u8,
    tag: *const u8,
    data: *const u8,
    dlen: usize,
    enc: *const u8,
    txt: *mut u8,
    ctlen: usize,
) -> bool {
    let inputs = Inputs {
        ad: data,
        ad_len: dlen,
        nonce,
    };
    // SAFETY: the caller's contract, checked where it can be.
    let opened = unsafe {
        call::open(
            &Cipher::<P>::Key(key),
            txt,
            enc,
            ctlen,
            TagAt::At(tag),
            inputs,
        )
    };
    if opened.is_err() && Region::new(txt, ctlen).is_ok() {
        // SAFETY: `txt` is non-NULL (or `ctlen` is 0) and the region is
        // inside the address space; the caller's contract makes it writable.
        // No reference to any buffer is alive any more.
        unsafe { core::ptr::write_bytes(txt, 0, ctlen) };
    }
    opened.is_ok()
}

/// Dumbo: encrypts `ctlen` bytes of `txt` into `enc` and writes the 8-byte
/// tag to `tag`, with `dlen` bytes of associated data at `data`.
///
/// # Safety
///
/// Each pointer valid for its length (key 16, nonce 12).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn dumbo_encrypt(
    key: *const u8,
    nonce: *const u8,
    data: *const u8,
    dlen: usize,
    txt: *const u8,
    enc: *mut u8,
    ctlen: usize,
    tag: *mut u8,
) {
    // SAFETY: the caller's contract.
    unsafe { encrypt::<Spongent160>(key, nonce, data, dlen, txt, enc, ctlen, tag) }
}

/// Dumbo: verifies the 8-byte `tag` and decrypts `ctlen` bytes of `enc`
/// into `txt`; `false` (with `txt` zeroed) if the tag does not match.
///
/// # Safety
///
/// As `dumbo_encrypt`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn dumbo_decrypt(
    key: *const u8,
    nonce: *const u8,
    tag: *const u8,
    data: *const u8,
    dlen: usize,
    enc: *const u8,
    txt: *mut u8,
    ctlen: usize,
) -> bool {
    // SAFETY: the caller's contract.
    unsafe { decrypt::<Spongent160>(key, nonce, tag, data, dlen, enc, txt, ctlen) }
}

/// Jumbo: as `dumbo_encrypt` (8-byte tag).
///
/// # Safety
///
/// As `dumbo_encrypt`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn jumbo_encrypt(
    key: *const u8,
    nonce: *const u8,
    data: *const u8,
    dlen: usize,
    txt: *const u8,
    enc: *mut u8,
    ctlen: usize,
    tag: *mut u8,
) {
    // SAFETY: the caller's contract.
    unsafe { encrypt::<Spongent176>(key, nonce, data, dlen, txt, enc, ctlen, tag) }
}

/// Jumbo: as `dumbo_decrypt` (8-byte tag).
///
/// # Safety
///
/// As `dumbo_encrypt`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn jumbo_decrypt(
    key: *const u8,
    nonce: *const u8,
    tag: *const u8,
    data: *const u8,
    dlen: usize,
    enc: *const u8,
    txt: *mut u8,
    ctlen: usize,
) -> bool {
    // SAFETY: the caller's contract.
    unsafe { decrypt::<Spongent176>(key, nonce, tag, data, dlen, enc, txt, ctlen) }
}

/// Delirium: as `dumbo_encrypt`, with a 16-byte tag.
///
/// # Safety
///
/// As `dumbo_encrypt`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn delirium_encrypt(
    key: *const u8,
    nonce: *const u8,
    data: *const u8,
    dlen: usize,
    txt: *const u8,
    enc: *mut u8,
    ctlen: usize,
    tag: *mut u8,
) {
    // SAFETY: the caller's contract.
    unsafe { encrypt::<Keccak200>(key, nonce, data, dlen, txt, enc, ctlen, tag) }
}

/// Delirium: as `dumbo_decrypt`, with a 16-byte tag.
///
/// # Safety
///
/// As `dumbo_encrypt`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn delirium_decrypt(
    key: *const u8,
    nonce: *const u8,
    tag: *const u8,
    data: *const u8,
    dlen: usize,
    enc: *const u8,
    txt: *mut u8,
    ctlen: usize,
) -> bool {
    // SAFETY: the caller's contract.
    unsafe { decrypt::<Keccak200>(key, nonce, tag, data, dlen, enc, txt, ctlen) }
}
