//! The Cortex-M stack pointer read and painting loop (ARMv6-M
//! instructions, which every Arm image runs).

use core::arch::asm;

/// The current stack pointer.
#[inline(always)]
pub fn stack_pointer() -> usize {
    let sp: usize;
    // SAFETY: copies SP into a register; reads and writes no memory.
    unsafe { asm!("mov {}, sp", out(reg) sp, options(nomem, nostack, preserves_flags)) };
    sp
}

/// Stores `pattern` in every word from `top - 4` down to `bottom`, with
/// registers only. Always inlined: a call would put its own frame in the
/// region it paints.
///
/// # Safety
///
/// `bottom < top`, both word-aligned, and `bottom..top` must be writable
/// memory that holds nothing live.
#[inline(always)]
pub unsafe fn paint(top: usize, bottom: usize, pattern: u32) {
    // SAFETY: stores only to the words of `bottom..top`, which the caller
    // guarantees are writable and dead; the loop ends at `bottom` because
    // both ends are word-aligned and `bottom < top`.
    unsafe {
        asm!(
            "2:",
            "subs {p}, #4",
            "str {pattern}, [{p}]",
            "cmp {p}, {bottom}",
            "bne 2b",
            p = inout(reg) top => _,
            bottom = in(reg) bottom,
            pattern = in(reg) pattern,
            options(nostack),
        );
    }
}
