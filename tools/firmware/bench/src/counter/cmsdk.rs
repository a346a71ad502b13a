//! The clock of the MPS2 boards (Cortex-M4 on `mps2-an386`, Cortex-M33 on
//! `mps2-an505`): their CMSDK APB timer 0.
//!
//! QEMU run with `-icount shift=10` advances its virtual clock by exactly
//! 2^10 ns per executed guest instruction, and the board's timers run off
//! that clock. Timer 0 counts down at 25 MHz on the AN386 (one tick every
//! 40 ns) and 20 MHz on the AN505 (50 ns), so an interval of `t` ticks is
//! `t × 40 / 1024` or `t × 50 / 1024` instructions. QEMU makes every
//! device access the last instruction of its translation block, so the
//! clock is exact at each read and the counts carry no jitter.

use core::ptr::{read_volatile, write_volatile};

/// Base address of CMSDK APB timer 0: on the AN386 (AN385 memory map), and
/// on the AN505 its Secure alias (the image runs in the Secure state).
#[cfg(board = "mps2-an386")]
const TIMER0: usize = 0x4000_0000;
#[cfg(board = "mps2-an505")]
const TIMER0: usize = 0x5000_0000;
/// Control register: bit 0 enables counting, bit 3 latches the interrupt
/// status when the counter reaches zero.
const CTRL: *mut u32 = TIMER0 as *mut u32;
/// Current counter value (read), or a new start value (write).
const VALUE: *mut u32 = (TIMER0 + 0x4) as *mut u32;
/// Value reloaded after the counter reaches zero.
const RELOAD: *mut u32 = (TIMER0 + 0x8) as *mut u32;
/// Interrupt status (read) and clear (write 1).
const INTSTATUS: *mut u32 = (TIMER0 + 0xC) as *mut u32;

/// Control bits: enable, and latch the wrap in `INTSTATUS`. The interrupt
/// itself stays disabled in the NVIC, so a wrap is only recorded, never taken.
const CTRL_ENABLE_AND_LATCH: u32 = 0b1001;
/// Nanoseconds per timer tick: 25 MHz on the AN386, 20 MHz on the AN505.
#[cfg(board = "mps2-an386")]
const NS_PER_TICK: u64 = 40;
#[cfg(board = "mps2-an505")]
const NS_PER_TICK: u64 = 50;
/// Nanoseconds per instruction under `-icount shift=10`.
const NS_PER_INSTRUCTION: u64 = 1 << 10;

/// Starts timer 0 counting down from its largest value.
pub fn init() {
    // SAFETY: TIMER0 is the MMIO block of CMSDK APB timer 0 on this board;
    // nothing else in the program uses it, and these are plain register
    // writes with no memory-safety effect.
    unsafe {
        write_volatile(CTRL, 0);
        write_volatile(RELOAD, u32::MAX);
        write_volatile(VALUE, u32::MAX);
        write_volatile(INTSTATUS, 1);
        write_volatile(CTRL, CTRL_ENABLE_AND_LATCH);
    }
}

/// Rewinds the counter to its largest value and clears the wrap flag, so
/// that each measurement has the full 2^32 ticks (≈ 167 M instructions).
pub fn restart() {
    // SAFETY: as in `init`: register writes to timer 0, used only here.
    unsafe {
        write_volatile(VALUE, u32::MAX);
        write_volatile(INTSTATUS, 1);
    }
}

/// The current counter value.
#[inline(always)]
pub fn now() -> u32 {
    // SAFETY: an aligned 32-bit read of timer 0's VALUE register.
    unsafe { read_volatile(VALUE) }
}

/// Whether the counter reached zero since the last `restart`, i.e. whether
/// the interval was too long to measure.
pub fn wrapped() -> bool {
    // SAFETY: an aligned 32-bit read of timer 0's INTSTATUS register.
    unsafe { read_volatile(INTSTATUS) & 1 != 0 }
}

/// Instructions between the counter values `start` and `end` (the timer
/// counts down), rounded to the nearest one (a read can land a fraction of
/// a tick early or late; an instruction is 25.6 or 20.48 ticks).
pub fn instructions(start: u32, end: u32) -> u64 {
    let ticks = start.wrapping_sub(end);
    (u64::from(ticks) * NS_PER_TICK + NS_PER_INSTRUCTION / 2) / NS_PER_INSTRUCTION
}
