//! Counting executed instructions.
//!
//! Both targets run under QEMU with `-icount`, which ties the guest's clock
//! to the number of instructions executed, so a clock read before and after
//! a call gives that call's instruction count, exactly and the same on every
//! run and host. What that clock is differs per target (`clock`): a board
//! timer on the Cortex-M4, the `minstret` CSR on riscv32. The measuring
//! logic around it, [`count`], is the same for both.

use core::hint::black_box;

#[cfg(target_arch = "arm")]
#[path = "counter/arm.rs"]
mod clock;
#[cfg(target_arch = "riscv32")]
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
