//! Loops of known length in RV32I (base) instructions, for checking the
//! counter.
//!
//! The assembler may pick 16-bit (C extension) encodings for some of these
//! instructions; that changes their size, not their number.

use core::arch::asm;

/// Executes exactly `2 n` instructions (`n` ≥ 1).
#[inline(always)]
pub fn loop_of_2(n: u32) {
    // SAFETY: a counted loop on one register, touching no memory or stack.
    unsafe {
        asm!(
            "2:",
            "addi {n}, {n}, -1",
            "bnez {n}, 2b",
            n = inout(reg) n => _,
            options(nomem, nostack, preserves_flags),
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
            "xor {x}, {x}, {n}",
            "addi {x}, {x}, 3",
            "slli {x}, {x}, 7",
            "addi {n}, {n}, -1",
            "bnez {n}, 2b",
            n = inout(reg) n => _,
            x = out(reg) _,
            options(nomem, nostack, preserves_flags),
        );
    }
}
