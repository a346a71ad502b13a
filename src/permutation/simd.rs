//! The SIMD code the kernels of both permutations share, one module per
//! instruction set. `avx2` and `neon` each hold one register type, the
//! safety argument of its intrinsics stated once, and the operations the
//! kernels need, so that the kernels themselves need little `unsafe`.
//!
//! - `avx2`: a 256-bit vector made only with the `Avx2` token (run-time
//!   detection, `permutation::cpu`);
//! - `avx512`: helpers of the AVX-512 kernels (tables, the qword
//!   transpose, the GFNI byte rotations), Rust 1.89 or newer;
//! - `neon`: a 128-bit vector, built only where NEON is enabled at
//!   compile time (`elephant_neon`).

#[cfg(elephant_x86)]
pub(super) mod avx2;
#[cfg(elephant_avx512)]
#[clippy::msrv = "1.89"]
pub(super) mod avx512;
#[cfg(elephant_neon)]
pub(super) mod neon;
