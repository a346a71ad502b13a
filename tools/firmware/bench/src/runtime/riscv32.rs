//! The riscv32 image's runtime: start-up through `riscv-rt`, output and
//! exit through RISC-V semihosting, and an exception handler that ends the
//! run.
//!
//! QEMU's `virt` machine started with `-bios none` jumps straight to the
//! start of RAM in M-mode, where `riscv-rt` places `_start` (see
//! `memory-riscv32.x`); the image runs in M-mode throughout.

use riscv::register::{mcause, mepc, mtval};
use riscv_semihosting::debug;

/// Prints a line on the host's standard output through semihosting.
///
/// `riscv-semihosting`'s own `hprintln!` prints a lone format string
/// verbatim, without substituting captured identifiers (`"{x}"`), which the
/// shared code uses; this one always formats, as `cortex-m-semihosting`'s
/// does.
macro_rules! hprintln {
    ($($arg:tt)*) => {
        ::riscv_semihosting::hprint!("{}\n", format_args!($($arg)*))
    };
}
pub(crate) use hprintln;

/// `riscv-rt`'s entry point, after `.data` and `.bss` are set up and the
/// trap vector installed.
#[riscv_rt::entry]
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

/// Reports an exception (e.g. a bad memory access or an illegal
/// instruction) and exits QEMU with a failure status, so the run cannot
/// hang in `riscv-rt`'s default handler, an endless loop.
// SAFETY: `riscv-rt`'s trap dispatcher calls the one symbol named
// `ExceptionHandler` for every exception without a handler of its own,
// declared as `extern "C" fn(&TrapFrame)`, the signature this function has
// (it never returns, which no caller can notice). Nothing else in the
// program defines that symbol.
#[unsafe(export_name = "ExceptionHandler")]
extern "C" fn exception_handler(_: &riscv_rt::TrapFrame) -> ! {
    hprintln!(
        "FAILED: exception {} at pc {:#010x} (mtval {:#010x})",
        mcause::read().code(),
        mepc::read(),
        mtval::read(),
    );
    exit(false);
    loop {
        core::hint::spin_loop();
    }
}
