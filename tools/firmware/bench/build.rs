//! Linker set-up and board choice per target. Each target runs on one QEMU
//! board, named to the code by `cfg(board = "...")`:
//!
//! | target | core | board |
//! |---|---|---|
//! | `thumbv7em-none-eabihf` | Cortex-M4 | `mps2-an386` |
//! | `thumbv8m.main-none-eabihf` | Cortex-M33 | `mps2-an505` |
//! | `thumbv6m-none-eabi` | Cortex-M0 | `microbit` |
//! | `riscv32imc-unknown-none-elf` (or `imac`) | RV32IMC | `virt` |
//!
//! Arm: `cortex-m-rt`'s `link.x`, which includes `memory.x`, here a copy of
//! the board's `memory-<board>.x` in `OUT_DIR`. riscv32: `memory-riscv32.x`
//! (the `virt` machine's RAM), then `riscv-rt`'s `link.x`, which expects the
//! memory map to come first on the command line rather than including it.

use std::{env, fs, path::PathBuf};

fn main() {
    println!(
        "cargo::rustc-check-cfg=cfg(board, values(\"mps2-an386\", \"mps2-an505\", \"microbit\", \"virt\"))"
    );
    let target = env::var("TARGET").unwrap_or_default();
    let board = if target.starts_with("thumbv7em") {
        "mps2-an386"
    } else if target.starts_with("thumbv8m.main") {
        "mps2-an505"
    } else if target.starts_with("thumbv6m") {
        "microbit"
    } else if target.starts_with("riscv32") {
        "virt"
    } else {
        panic!("tools/firmware/bench has no board for the target {target}");
    };
    println!("cargo::rustc-cfg=board=\"{board}\"");
    let dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into()));
    if board == "virt" {
        println!("cargo::rustc-link-search={}", dir.display());
        println!("cargo::rustc-link-arg-bins=-Tmemory-riscv32.x");
    } else {
        let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
        let memory = dir.join(format!("memory-{board}.x"));
        fs::copy(&memory, out.join("memory.x")).expect("copy the board's memory map");
        println!("cargo::rustc-link-search={}", out.display());
        println!("cargo::rerun-if-changed={}", memory.display());
    }
    println!("cargo::rustc-link-arg-bins=-Tlink.x");
    println!("cargo::rerun-if-changed=memory-riscv32.x");
    println!("cargo::rerun-if-changed=build.rs");
}
