//! The Cortex-M images' runtime: start-up through `cortex-m-rt`, output
//! and exit through Arm semihosting, and a fault handler that ends the run.

use cortex_m_rt::{ExceptionFrame, entry, exception};
use cortex_m_semihosting::debug;
pub use cortex_m_semihosting::hprintln;

/// The reset handler's entry point, after `.data`, `.bss` and the FPU are
/// set up.
#[entry]
fn entry() -> ! {
    crate::run()
}

/// Exits QEMU with a success or failure status (the script reads it).
/// Under QEMU this call does not return; it is not typed `-> !` so that
/// code after it stays live to the optimiser (see `run`).
pub fn exit(success: bool) {
    debug::exit(if success {
        debug::EXIT_SUCCESS
    } else {
        debug::EXIT_FAILURE
    });
}

/// Reports a fault (e.g. a bad memory access) and exits QEMU with a failure
/// status, so the run cannot hang.
#[exception]
unsafe fn HardFault(frame: &ExceptionFrame) -> ! {
    hprintln!("FAILED: hard fault at pc {:#010x}", frame.pc());
    exit(false);
    loop {
        core::hint::spin_loop();
    }
}
