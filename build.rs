//! Tells the crate whether the compiler has the AVX-512 and GFNI intrinsics
//! (stable since Rust 1.89): with them the AVX-512 backends are built, on an
//! older compiler (down to the MSRV, 1.85) they are left out and the AVX2
//! ones serve those CPUs. And names the 32-bit cores without an operand
//! barrel shifter (`elephant_no_barrel_shifter`: RV32, ARMv6-M, ARMv8-M
//! Baseline), which get the Keccak-f\[200\] kernel with plain rotations;
//! stable Rust has no `target_feature` that tells them from Thumb-2 cores.

use std::env;
use std::process::Command;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(elephant_avx512)");
    println!("cargo::rustc-check-cfg=cfg(elephant_no_barrel_shifter)");
    let target = env::var("TARGET").unwrap_or_default();
    if ["riscv32", "thumbv6m", "thumbv8m.base"]
        .iter()
        .any(|prefix| target.starts_with(prefix))
    {
        println!("cargo::rustc-cfg=elephant_no_barrel_shifter");
    }
    println!("cargo::rerun-if-env-changed=RUSTC");
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let version = Command::new(rustc)
        .arg("--version")
        .output()
        .map(|output| String::from_utf8_lossy(&output.stdout).into_owned())
        .unwrap_or_default();
    // "rustc 1.89.0 (…)" or "rustc 1.93.0-nightly (…)".
    let minor = version
        .split_whitespace()
        .nth(1)
        .and_then(|number| number.split('.').nth(1))
        .and_then(|minor| minor.parse::<u32>().ok())
        .unwrap_or(0);
    if minor >= 89 {
        println!("cargo::rustc-cfg=elephant_avx512");
    }
}
