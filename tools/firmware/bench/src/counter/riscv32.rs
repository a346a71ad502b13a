//! The riscv32 image's clock: the `minstret` CSR.
//!
//! Under `-icount`, QEMU derives a RISC-V hart's `minstret` (and `mcycle`)
//! from its virtual clock, and `shift=0` advances that clock by exactly one
//! nanosecond per executed instruction, so `minstret` counts instructions
//! one for one. QEMU makes every CSR access the last instruction of its
//! translation block, so the value is exact at each read. None of this is
//! taken on trust: the image checks it on loops of known length before it
//! measures anything (`validate_counter` in `main.rs`).
//!
//! The image runs in M-mode, where `minstret` is writable: each
//! measurement starts it from zero, so a 32-bit read of the low half
//! suffices, and a non-zero high half flags an interval too long to
//! measure, like the wrap flag of the Arm boards' timers.

use core::arch::asm;

/// Lets `minstret` count: clears its bit in `mcountinhibit` (QEMU starts
/// with nothing inhibited; this makes the image independent of that).
pub fn init() {
    // SAFETY: clears bit 2 (IR) of mcountinhibit, which only affects
    // whether minstret counts; no memory is touched.
    unsafe { asm!("csrci mcountinhibit, 4", options(nomem, nostack)) };
}

/// Sets `minstret` to zero, high half too, so each measurement has the
/// full 2^32 instructions of the low half.
pub fn restart() {
    // SAFETY: writes the instruction counter, which nothing else in the
    // program uses; no memory is touched. The low half is cleared first,
    // so no carry can reach the high half between the two writes.
    unsafe {
        asm!(
            "csrw minstret, zero",
            "csrw minstreth, zero",
            options(nomem, nostack)
        )
    };
}

/// The low half of `minstret`.
///
/// The `asm!` block is not marked `nomem`, so the compiler treats it as a
/// possible memory access and keeps it in place relative to the code it
/// brackets.
#[inline(always)]
pub fn now() -> u32 {
    let count: u32;
    // SAFETY: reads a CSR into a register; no memory is touched.
    unsafe { asm!("csrr {}, minstret", out(reg) count, options(nostack)) };
    count
}

/// Whether the high half of `minstret` left zero since the last
/// `restart`, i.e. whether the interval was too long to measure.
pub fn wrapped() -> bool {
    let high: u32;
    // SAFETY: reads a CSR into a register; no memory is touched.
    unsafe { asm!("csrr {}, minstreth", out(reg) high, options(nostack)) };
    high != 0
}

/// Instructions between the counter values `start` and `end` (`minstret`
/// counts up, one per instruction).
pub fn instructions(start: u32, end: u32) -> u64 {
    u64::from(end.wrapping_sub(start))
}
