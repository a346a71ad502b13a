//! Loops of known length in Thumb-2, for checking the counter.

use core::arch::asm;

/// Executes exactly `2 n` instructions (`n` ≥ 1).
#[inline(always)]
pub fn loop_of_2(n: u32) {
    // SAFETY: a counted loop on one register, touching no memory or stack.
    unsafe {
        asm!(
            "2:",
            "subs {n}, {n}, #1",
            "bne 2b",
            n = inout(reg) n => _,
            options(nomem, nostack),
        );
    }
}

/// Executes exactly `5 n` instructions (`n` ≥ 1).
#[inline(always)]
pub fn loop_of_5(n: u32) {
    // SAFETY: a counted loop on two registers, touching no memory or stack.
    unsafe {
        asm!(
            "2:",
            "eor {x}, {x}, {n}",
            "add {x}, {x}, #3",
            "ror {x}, {x}, #7",
            "subs {n}, {n}, #1",
            "bne 2b",
            n = inout(reg) n => _,
            x = out(reg) _,
            options(nomem, nostack),
        );
    }
}
