//! Names the build variants once, so that the sources test a name instead
//! of spelling out the target and the compiler each time:
//!
//! - `elephant_batch`: targets with 64-bit words: the 64-bit targets, and
//!   wasm32, whose pointers are 32-bit but whose integers are 64-bit (the
//!   batch mode is several times as fast there: DESIGN.md, "WebAssembly").
//!   The batch kernels are built (portable ones in `u64` words, and the
//!   SIMD ones below), and the mode hands them runs of blocks. Without it,
//!   the one-block firmware mode: the mode permutes one block at a time
//!   (`mode::sequential`) with the one-state kernels only, and code size
//!   comes first.
//! - `elephant_x86`: the x86-64 SIMD tiers (AVX2, BMI2 `pext`), chosen at
//!   run time by `permutation::cpu`.
//! - `elephant_avx512`: the AVX-512 tiers too; their intrinsics are stable
//!   since Rust 1.89, so an older compiler (down to the MSRV, 1.85) leaves
//!   them out and the AVX2 ones serve those CPUs.
//! - `elephant_neon`: the aarch64 NEON tiers (with the `neon` target
//!   feature, which every aarch64 target has by default).
//! - `elephant_no_barrel_shifter`: the 32-bit cores without an operand
//!   barrel shifter (RV32, ARMv6-M, ARMv8-M Baseline), which get the
//!   Keccak-f\[200\] kernel with plain rotations; stable Rust has no
//!   `target_feature` that tells them from Thumb-2 cores.
//! - `elephant_pkh`: Arm v7E-M (`thumbv7em*`), whose DSP instructions
//!   merge two half-words in one (`pkhbt`, `pkhtb`); the Spongent kernel
//!   moves half-words that way there. Stable Rust reports no `dsp` target
//!   feature.
//!
//! `--cfg elephant_force_soft` (the user's switch) turns every SIMD name
//! off: only the portable kernels are built. `--cfg elephant_one_block`
//! (another, for wasm32 only) keeps `elephant_batch` off there: the
//! one-block mode's much smaller code, for a slower cipher.
//! `--cfg elephant_no_avx512` leaves the AVX-512 tiers out, so that a
//! machine with AVX-512 tests and measures what an AVX2-only CPU runs.

use std::env;
use std::process::Command;

/// The names this script may set (each declared for `check-cfg`).
const NAMES: [&str; 6] = [
    "elephant_batch",
    "elephant_x86",
    "elephant_avx512",
    "elephant_neon",
    "elephant_no_barrel_shifter",
    "elephant_pkh",
];

/// The names a user or a tool sets with `--cfg`: the portable switch, the
/// one-block switch, the tier benchmarks' access to every kernel, and the
/// AVX2-only CPU's tiers on one with AVX-512 (for tests and benchmarks).
const USER_NAMES: [&str; 4] = [
    "elephant_force_soft",
    "elephant_one_block",
    "elephant_bench_tiers",
    "elephant_no_avx512",
];

fn main() {
    for name in NAMES.iter().chain(&USER_NAMES) {
        println!("cargo::rustc-check-cfg=cfg({name})");
    }
    println!("cargo::rerun-if-env-changed=RUSTC");
    let target = |key: &str| env::var(key).unwrap_or_default();
    let arch = target("CARGO_CFG_TARGET_ARCH");
    let simd = env::var_os("CARGO_CFG_ELEPHANT_FORCE_SOFT").is_none();
    let set = |name: &str, on: bool| {
        if on {
            println!("cargo::rustc-cfg={name}");
        }
    };
    let one_block = env::var_os("CARGO_CFG_ELEPHANT_ONE_BLOCK").is_some();
    set(
        "elephant_batch",
        target("CARGO_CFG_TARGET_POINTER_WIDTH") == "64" || (arch == "wasm32" && !one_block),
    );
    let x86 = simd && arch == "x86_64";
    set("elephant_x86", x86);
    let avx512 = env::var_os("CARGO_CFG_ELEPHANT_NO_AVX512").is_none();
    set("elephant_avx512", x86 && avx512 && rustc_minor() >= 89);
    let neon = target("CARGO_CFG_TARGET_FEATURE")
        .split(',')
        .any(|feature| feature == "neon");
    set("elephant_neon", simd && arch == "aarch64" && neon);
    let triple = target("TARGET");
    set(
        "elephant_no_barrel_shifter",
        ["riscv32", "thumbv6m", "thumbv8m.base"]
            .iter()
            .any(|prefix| triple.starts_with(prefix)),
    );
    set("elephant_pkh", triple.starts_with("thumbv7em"));
}

/// The compiler's minor version: 89 for "rustc 1.89.0 (…)" or
/// "rustc 1.89.0-nightly (…)", 0 if it cannot be read.
fn rustc_minor() -> u32 {
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let version = Command::new(rustc)
        .arg("--version")
        .output()
        .map(|output| String::from_utf8_lossy(&output.stdout).into_owned())
        .unwrap_or_default();
    version
        .split_whitespace()
        .nth(1)
        .and_then(|number| number.split('.').nth(1))
        .and_then(|minor| minor.parse::<u32>().ok())
        .unwrap_or(0)
}
