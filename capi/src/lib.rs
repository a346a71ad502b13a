//! The C API of `elephant-aead`: `libelephant.a` and `libelephant.so`, with
//! the header `include/elephant.h` generated from this source by cbindgen.
//!
//! Three faces over the one library, each a thin layer on its public API:
//! the native API (`elephant_<instance>_*`, `size_t` lengths, combined and
//! detached tags, in place or out of place, a caller-allocated expanded-key
//! context, many messages per call); the NIST LWC calls, as C shims in
//! `capi/nist/` over the native API; and, with the `cpp-abi` feature, the
//! C++ library's `dumbo_encrypt` ... `delirium_decrypt`.
//!
//! At the boundary every pointer and length is checked before a Rust
//! reference is made from it (NULL only with length 0, regions inside the
//! address space, outputs disjoint from every input except an exact
//! in-place message), so the references the library receives are sound.
//! No panic crosses: every entry point is `extern "C"`, which aborts rather
//! than unwinds, and the firmware library is checked by `capi/run` to
//! contain no panic path at all. Nothing allocates.

#![no_std]
#![deny(
    unsafe_op_in_unsafe_fn,
    clippy::undocumented_unsafe_blocks,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]
#![warn(missing_docs, missing_debug_implementations, unused_qualifications)]
// The exported names are C's: `elephant_dumbo_ctx`, not `ElephantDumboCtx`.
#![allow(non_camel_case_types)]

// Hosted builds (the shared library, the tests) link std for its panic
// runtime; the firmware build brings its own handler below.
#[cfg(not(target_os = "none"))]
extern crate std;

mod call;
mod check;
#[cfg(feature = "cpp-abi")]
pub mod cpp_abi;
pub mod delirium;
pub mod dumbo;
pub mod jumbo;

use core::ffi::c_int;

/// Success.
pub const ELEPHANT_OK: c_int = 0;
/// The tag did not match: the message was forged or corrupted. The same
/// value as the NIST LWC API's failed verification.
pub const ELEPHANT_ERR_VERIFY: c_int = -1;
/// A pointer was NULL where its length is not 0 (the key, the nonce, the
/// tag and the context always have a length).
pub const ELEPHANT_ERR_NULL: c_int = -2;
/// A length was out of range: a message or associated data longer than
/// `ELEPHANT_MAX_MESSAGE_LEN`, a ciphertext shorter than its tag, or a
/// region that would run past the end of the address space.
pub const ELEPHANT_ERR_LENGTH: c_int = -3;
/// An output overlapped an input (or another output); only a message
/// decrypted or encrypted exactly in place (output pointer equal to input
/// pointer) may share its memory.
pub const ELEPHANT_ERR_OVERLAP: c_int = -4;
/// A context pointer was not aligned to `ELEPHANT_CTX_ALIGN`.
pub const ELEPHANT_ERR_ALIGNMENT: c_int = -5;

/// Key length in bytes, every instance.
pub const ELEPHANT_KEY_BYTES: usize = 16;
/// Nonce length in bytes, every instance. Never use one nonce twice with
/// one key.
pub const ELEPHANT_NONCE_BYTES: usize = 12;
/// Dumbo's tag length in bytes.
pub const ELEPHANT_DUMBO_TAG_BYTES: usize = 8;
/// Jumbo's tag length in bytes.
pub const ELEPHANT_JUMBO_TAG_BYTES: usize = 8;
/// Delirium's tag length in bytes.
pub const ELEPHANT_DELIRIUM_TAG_BYTES: usize = 16;
/// Longest message and longest associated data of one call, in bytes:
/// 2^50 − 1 (on 32-bit targets `size_t` is the tighter limit).
pub const ELEPHANT_MAX_MESSAGE_LEN: u64 = 0x3_ffff_ffff_ffff;

/// Size in bytes of an expanded-key context of any instance (`sizeof` of
/// `elephant_dumbo_ctx`, `elephant_jumbo_ctx`, `elephant_delirium_ctx`).
pub const ELEPHANT_CTX_SIZE: usize = 32;
/// Alignment in bytes of an expanded-key context.
pub const ELEPHANT_CTX_ALIGN: usize = 4;

/// Dumbo's expanded key, `L = P(K ‖ 0)`, in memory the caller owns: set by
/// `elephant_dumbo_init`, wiped by `elephant_dumbo_wipe`. Opaque; copy it
/// only with the key's care (it is as secret as the key).
#[repr(C)]
#[derive(Debug)]
pub struct elephant_dumbo_ctx {
    /// Not to be read or written but through this API.
    pub opaque: [u32; 8],
}

/// Jumbo's expanded key, as `elephant_dumbo_ctx`.
#[repr(C)]
#[derive(Debug)]
pub struct elephant_jumbo_ctx {
    /// Not to be read or written but through this API.
    pub opaque: [u32; 8],
}

/// Delirium's expanded key, as `elephant_dumbo_ctx`.
#[repr(C)]
#[derive(Debug)]
pub struct elephant_delirium_ctx {
    /// Not to be read or written but through this API.
    pub opaque: [u32; 8],
}

// The header's sizes are the library's: each context holds its cipher
// (`Elephant<P>`, the expanded key), and each tag constant is the
// instance's tag.
const _: () = {
    use core::mem::{align_of, size_of};
    use elephant_aead::{Delirium, Dumbo, Jumbo, Tag};
    macro_rules! fits {
        ($ctx:ty, $cipher:ty, $tag:expr) => {
            assert!(size_of::<$cipher>() <= size_of::<$ctx>());
            assert!(size_of::<$ctx>() == ELEPHANT_CTX_SIZE);
            assert!(align_of::<$cipher>() <= ELEPHANT_CTX_ALIGN);
            assert!(align_of::<$ctx>() == ELEPHANT_CTX_ALIGN);
            assert!(size_of::<Tag<$cipher>>() == $tag);
        };
    }
    fits!(elephant_dumbo_ctx, Dumbo, ELEPHANT_DUMBO_TAG_BYTES);
    fits!(elephant_jumbo_ctx, Jumbo, ELEPHANT_JUMBO_TAG_BYTES);
    fits!(elephant_delirium_ctx, Delirium, ELEPHANT_DELIRIUM_TAG_BYTES);
    assert!(size_of::<elephant_aead::Key<Dumbo>>() == ELEPHANT_KEY_BYTES);
    assert!(size_of::<elephant_aead::Nonce<Dumbo>>() == ELEPHANT_NONCE_BYTES);
    assert!(elephant_aead::MAX_MESSAGE_LEN == ELEPHANT_MAX_MESSAGE_LEN);
    assert!(elephant_aead::MAX_ASSOCIATED_DATA_LEN == ELEPHANT_MAX_MESSAGE_LEN);
};

/// Bare metal: the library and this layer have no panic path (their lint
/// policy forbids one, and `capi/run` checks that the linked Cortex-M4
/// image holds no panic symbol), so this is never reached; if it were, a
/// halt is the only safe answer in firmware.
#[cfg(target_os = "none")]
#[panic_handler]
fn halt(_: &core::panic::PanicInfo<'_>) -> ! {
    loop {
        core::hint::spin_loop();
    }
}
