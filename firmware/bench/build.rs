//! Linker set-up per target. Cortex-M4: `cortex-m-rt`'s `link.x`, which
//! includes `memory.x` (the mps2-an386 memory map) from this directory.
//! riscv32: `memory-riscv32.x` (the `virt` machine's RAM), then `riscv-rt`'s
//! `link.x`, which expects the memory map to come first on the command line
//! rather than including it.

fn main() {
    let dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    println!("cargo:rustc-link-search={dir}");
    match std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() {
        Ok("riscv32") => {
            println!("cargo:rustc-link-arg-bins=-Tmemory-riscv32.x");
            println!("cargo:rustc-link-arg-bins=-Tlink.x");
        }
        _ => println!("cargo:rustc-link-arg-bins=-Tlink.x"),
    }
    println!("cargo:rerun-if-changed=memory.x");
    println!("cargo:rerun-if-changed=memory-riscv32.x");
    println!("cargo:rerun-if-changed=build.rs");
}
