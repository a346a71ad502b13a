//! Counting executed instructions.
//!
//! Every board runs under QEMU with `-icount`, which ties the guest's clock
//! to the number of instructions executed, so a clock read before and after
//! a call gives that call's instruction count, exactly and the same on every
//! run and host. What that clock is differs per board (`clock`): the CMSDK
//! timer 0 on the MPS2 boards (Cortex-M4 and M33), the nRF51's TIMER0 on
//! the micro:bit (Cortex-M0), the `minstret` CSR on RV32. The measuring
//! logic around it, [`count`], is the same for all.

use core::hint::black_box;

#[cfg(any(board = "mps2-an386", board = "mps2-an505"))]
#[path = "counter/cmsdk.rs"]
mod clock;
#[cfg(board = "microbit")]
#[path = "counter/nrf51.rs"]
mod clock;
#[cfg(board = "virt")]
#[path = "counter/riscv32.rs"]
mod clock;

pub use clock::init;

/// Instructions executed by one call of `f`, including a fixed overhead:
/// the indirect call, the return and the clock reads around it. Measure
/// an empty closure to get that overhead, and subtract it.
///
/// The call goes through a `dyn` pointer hidden by `black_box`, so every
/// measurement has the same overhead and LLVM cannot specialise this
/// function for one closure. Returns `None` if the interval overflowed the
/// 32-bit clock.
#[inline(never)]
pub fn count(f: &mut dyn FnMut()) -> Option<u64> {
    let f = black_box(f);
    clock::restart();
    let start = clock::now();
    f();
    let end = clock::now();
    if clock::wrapped() {
        return None;
    }
    Some(clock::instructions(start, end))
}
