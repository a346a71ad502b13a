//! The Cortex-M0 image's clock: TIMER0 of the nRF51 (QEMU `microbit`).
//!
//! QEMU run with `-icount shift=10` advances its virtual clock by exactly
//! 2^10 ns per executed guest instruction, and the timer runs off that
//! clock. TIMER0, with prescaler 0 and 32-bit width, counts up at 16 MHz
//! (one tick every 62.5 ns), so an interval of `t` ticks is
//! `t × 62.5 / 1024` instructions. The counter is read by triggering a
//! capture into CC\[0\] and reading that register; CC\[1\], at the top of
//! the range, raises a compare event that flags a wrap.

use core::ptr::{read_volatile, write_volatile};

/// Base address of TIMER0 on the nRF51.
const TIMER0: usize = 0x4000_8000;
/// A task register (write 1 to trigger it).
const fn task(offset: usize) -> *mut u32 {
    (TIMER0 + offset) as *mut u32
}
/// Start, stop and clear the counter; capture it into CC\[0\].
const START: *mut u32 = task(0x000);
const STOP: *mut u32 = task(0x004);
const CLEAR: *mut u32 = task(0x00C);
const CAPTURE0: *mut u32 = task(0x040);
/// The compare event of CC\[1\] (reads 1 once the counter reached it).
const COMPARE1: *mut u32 = task(0x144);
/// Timer mode (0), width (3: 32 bits) and prescaler (0: 16 MHz).
const MODE: *mut u32 = task(0x504);
const BITMODE: *mut u32 = task(0x508);
const PRESCALER: *mut u32 = task(0x510);
/// The capture/compare registers 0 and 1.
const CC0: *mut u32 = task(0x540);
const CC1: *mut u32 = task(0x544);

/// Picoseconds per timer tick (16 MHz).
const PS_PER_TICK: u64 = 62_500;
/// Picoseconds per instruction under `-icount shift=10`.
const PS_PER_INSTRUCTION: u64 = 1_024_000;

/// Sets TIMER0 up as a free-running 32-bit counter at 16 MHz and starts it.
pub fn init() {
    // SAFETY: TIMER0 is the MMIO block of the nRF51's timer 0; nothing
    // else in the program uses it, and these are plain register writes
    // with no memory-safety effect.
    unsafe {
        write_volatile(STOP, 1);
        write_volatile(MODE, 0);
        write_volatile(BITMODE, 3);
        write_volatile(PRESCALER, 0);
        write_volatile(CC1, u32::MAX);
        write_volatile(CLEAR, 1);
        write_volatile(COMPARE1, 0);
        write_volatile(START, 1);
    }
}

/// Rewinds the counter to zero and clears the wrap flag, so that each
/// measurement has the full 2^32 ticks (≈ 262 M instructions).
pub fn restart() {
    // SAFETY: as in `init`: register writes to timer 0, used only here.
    unsafe {
        write_volatile(CLEAR, 1);
        write_volatile(COMPARE1, 0);
    }
}

/// The current counter value (captured into CC\[0\], then read).
#[inline(always)]
pub fn now() -> u32 {
    // SAFETY: a task trigger and an aligned 32-bit read of timer 0's
    // registers.
    unsafe {
        write_volatile(CAPTURE0, 1);
        read_volatile(CC0)
    }
}

/// Whether the counter reached the top of its range since the last
/// `restart`, i.e. whether the interval was too long to measure.
pub fn wrapped() -> bool {
    // SAFETY: an aligned 32-bit read of timer 0's compare event 1.
    unsafe { read_volatile(COMPARE1) != 0 }
}

/// Instructions between the counter values `start` and `end` (the timer
/// counts up), rounded to the nearest one (an instruction is 16.384
/// ticks).
pub fn instructions(start: u32, end: u32) -> u64 {
    let ticks = end.wrapping_sub(start);
    (u64::from(ticks) * PS_PER_TICK + PS_PER_INSTRUCTION / 2) / PS_PER_INSTRUCTION
}
