//! A minimal bare-metal program that encrypts and decrypts one frame with a
//! single Elephant instance (chosen by a Cargo feature), so that the code
//! size and stack a firmware user pays can be measured. See
//! `.ci/footprint`, which builds it for `thumbv7em-none-eabihf`.

#![no_std]
#![no_main]

use core::hint::black_box;
use elephant_aead::aead::{AeadInOut, KeyInit, Nonce};

#[cfg(feature = "dumbo")]
type Cipher = elephant_aead::Dumbo;
#[cfg(all(feature = "jumbo", not(feature = "dumbo")))]
type Cipher = elephant_aead::Jumbo;
#[cfg(all(feature = "delirium", not(any(feature = "dumbo", feature = "jumbo"))))]
type Cipher = elephant_aead::Delirium;

/// Encrypts and decrypts a 64-byte frame with 8 bytes of AD; `black_box`
/// keeps the inputs opaque so nothing is computed at compile time.
fn seal_and_open() -> bool {
    let cipher = Cipher::new(&black_box([0x42; 16]).into());
    let nonce = Nonce::<Cipher>::from(black_box([7; 12]));
    let header = black_box([1u8; 8]);
    let mut frame = black_box([0u8; 64]);
    let Ok(tag) = cipher.encrypt_inout_detached(&nonce, &header, frame.as_mut_slice().into())
    else {
        return false;
    };
    let opened = cipher.decrypt_inout_detached(&nonce, &header, frame.as_mut_slice().into(), &tag);
    black_box(frame);
    opened.is_ok()
}

/// The entry point the linker starts at (there is no runtime crate, so the
/// symbol name is the one `ld.lld` looks for by default).
// SAFETY: no other symbol in the program is named `_start`.
#[unsafe(no_mangle)]
pub extern "C" fn _start() -> ! {
    black_box(seal_and_open());
    loop {
        core::hint::spin_loop();
    }
}

/// Required by `no_std` binaries. The footprint check asserts that it is
/// never linked in, i.e. that no panic is reachable from the code above.
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    loop {
        core::hint::spin_loop();
    }
}
