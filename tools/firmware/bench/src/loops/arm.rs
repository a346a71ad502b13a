//! Loops of known length in Thumb, for checking the counter: only
//! instructions that ARMv6-M (Cortex-M0) has too, so every Arm image runs
//! the same loops.

use core::arch::asm;

/// Executes exactly `2 n` instructions (`n` ≥ 1).
#[inline(always)]
pub fn loop_of_2(n: u32) {
    // SAFETY: a counted loop on one register, touching no memory or stack.
    unsafe {
        asm!(
            "2:",
            "subs {n}, #1",
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
            "eors {x}, {n}",
            "adds {x}, #3",
            "lsls {x}, #7",
            "subs {n}, #1",
            "bne 2b",
            n = inout(reg) n => _,
            x = out(reg) _,
            options(nomem, nostack),
        );
    }
}
