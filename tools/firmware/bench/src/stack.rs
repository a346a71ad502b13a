//! Measuring the peak stack of one call by painting.
//!
//! Before the call, the words below the stack pointer are filled with a
//! pattern; after it, the lowest word that no longer holds the pattern
//! marks how deep the call went. The painting is one `asm!` block that uses
//! registers only, so no frame of the harness lies in the painted region;
//! it and the stack pointer read are the target-specific parts (`arch`).
//!
//! The same region, read after the call, is the stack the call used and
//! left behind: [`peak_and_scan`] looks for secrets there.

use core::hint::black_box;
use core::ptr::read_volatile;

#[cfg(target_arch = "arm")]
#[path = "stack/arm.rs"]
mod arch;
#[cfg(target_arch = "riscv32")]
#[path = "stack/riscv32.rs"]
mod arch;

/// Bytes painted below the call site's stack pointer. Four times what the
/// deepest measured call needs (ChaCha20-Poly1305, about 1 KiB), and small
/// enough to fit beside the harness's buffers in the Cortex-M0's 16 KiB of
/// RAM; a call reaching the bottom is reported as an overflow of the
/// measurement, not as a number.
pub const REGION: usize = 4 * 1024;

/// The paint. A value no measured code stores by chance in a whole word
/// at the bottom of its frame (a false match could only under-report by
/// the words below it).
const PATTERN: u32 = 0xDEAD_BEEF;

unsafe extern "C" {
    /// End of `.bss` and `.uninit` (the start of an empty heap), from the
    /// linker script of `cortex-m-rt` or `riscv-rt`, which both name it
    /// so: the lowest address the stack may grow to.
    static __sheap: u32;
}

/// Peak stack of one call of `f`: the bytes below this function's stack
/// pointer (the call site's) that `f` wrote to. `None` if the painted
/// region would not fit in RAM or `f` used all of it.
pub fn peak(f: &mut dyn FnMut()) -> Option<usize> {
    peak_and_scan(f, &[]).map(|(peak, _)| peak)
}

/// [`peak`], and after the call a search of the painted region (the stack
/// `f` used and left) for every 8-byte window of each of `secrets`:
/// returns the peak and how many secrets were found there.
#[inline(never)]
pub fn peak_and_scan(f: &mut dyn FnMut(), secrets: &[&[u8]]) -> Option<(usize, usize)> {
    let f = black_box(f);
    let top = arch::stack_pointer();
    let bottom = top.checked_sub(REGION)?;
    if bottom < &raw const __sheap as usize {
        return None;
    }
    // SAFETY: `paint` writes the `REGION` bytes just below SP, which the
    // check above places inside RAM and above all static data. No live data
    // is there: the stack grows down, `paint` (always inlined, registers
    // only) pushes nothing, and no interrupt is enabled that could use the
    // stack meanwhile. `top` equals
    // SP here: this function has no dynamic stack allocation, so its SP
    // does not change after the prologue. Both ends are word-aligned: SP
    // always is, on every target, and `REGION` is a multiple of 4.
    unsafe { arch::paint(top, bottom, PATTERN) };
    f();
    let mut lowest_used = bottom;
    // SAFETY: reads aligned words of the region painted above, which lies
    // in RAM; reading them has no side effect.
    while lowest_used < top && unsafe { read_volatile(lowest_used as *const u32) } == PATTERN {
        lowest_used += 4;
    }
    if lowest_used == bottom {
        return None;
    }
    // Plain loops on registers, no calls: a call from this frame would
    // write over the top of the region, where `f`'s frames were.
    let mut found = 0;
    for secret in secrets {
        let mut hit = false;
        let mut start = 0;
        while start + WINDOW <= secret.len() && !hit {
            let mut at = bottom;
            while at + WINDOW <= top && !hit {
                let mut i = 0;
                // SAFETY: reads bytes of the region painted above (`at + i`
                // < `top`), which lies in RAM; reading has no side effect.
                while i < WINDOW
                    && unsafe { read_volatile((at + i) as *const u8) } == secret[start + i]
                {
                    i += 1;
                }
                hit = i == WINDOW;
                at += 1;
            }
            start += 1;
        }
        found += usize::from(hit);
    }
    Some((top - lowest_used, found))
}

/// Length of the windows of a secret searched for.
const WINDOW: usize = 8;
