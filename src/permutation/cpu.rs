//! Run-time CPU feature detection, in one place for every permutation: a
//! backend that needs a feature takes its token, and the token can only be
//! had from the detection below.

cpufeatures::new!(avx2_cpuid, "avx2");

/// Proof that the CPU running this code supports AVX2: the only way to reach
/// the AVX2 kernels (its field is private, so [`Avx2::detect`] is the only
/// constructor).
#[derive(Clone, Copy, Debug)]
pub(super) struct Avx2(());

impl Avx2 {
    /// The token, if this CPU has AVX2 (detected once, then cached).
    pub(super) fn detect() -> Option<Self> {
        avx2_cpuid::get().then_some(Self(()))
    }
}

#[cfg(elephant_avx512)]
cpufeatures::new!(avx512_gfni_cpuid, "avx2", "avx512f", "avx512vl", "gfni");

/// Proof that the CPU running this code supports AVX-512F, AVX-512VL, GFNI
/// and AVX2: the only way to reach the 32-state AVX-512 Keccak kernel.
#[cfg(elephant_avx512)]
#[derive(Clone, Copy, Debug)]
pub(super) struct Avx512Gfni(());

#[cfg(elephant_avx512)]
impl Avx512Gfni {
    /// The token, if this CPU has AVX-512F, AVX-512VL, GFNI and AVX2
    /// (detected once, then cached).
    pub(super) fn detect() -> Option<Self> {
        avx512_gfni_cpuid::get().then_some(Self(()))
    }
}

#[cfg(elephant_avx512)]
cpufeatures::new!(
    avx512_vbmi_cpuid,
    "avx2",
    "avx512f",
    "avx512vl",
    "avx512bw",
    "avx512vbmi",
    "gfni"
);

/// Proof that the CPU running this code supports AVX-512F, AVX-512VL,
/// AVX-512BW, AVX-512VBMI, GFNI and AVX2: the only way to reach the code
/// that needs byte permutes (`vpermb`, VBMI) or masked byte loads and
/// stores (BW): the single-state and 64-state kernels, the 256/512-state
/// Spongent kernel, and the mode's per-block XORs (`mode::xor`). A
/// separate token from [`Avx512Gfni`], which the 32-state Keccak kernel
/// takes and which asks for less.
#[cfg(elephant_avx512)]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512Vbmi(());

#[cfg(elephant_avx512)]
impl Avx512Vbmi {
    /// The token, if this CPU has all of those features (detected once,
    /// then cached).
    pub(crate) fn detect() -> Option<Self> {
        avx512_vbmi_cpuid::get().then_some(Self(()))
    }
}

cpufeatures::new!(fast_pext_cpuid, "bmi2", "avx512f");

/// Proof that the CPU running this code has BMI2 with a fast `pext`: the
/// only way to reach the `pext` single-state Spongent kernel. `pext` is
/// microcoded, and many times slower, on AMD cores before Zen 3; every CPU
/// with AVX-512F (Intel since Skylake-SP, AMD since Zen 4) has a fast one,
/// so the token asks for both.
#[derive(Clone, Copy, Debug)]
pub(super) struct FastPext(());

impl FastPext {
    /// The token, if this CPU has BMI2 and AVX-512F (detected once, then
    /// cached).
    pub(super) fn detect() -> Option<Self> {
        fast_pext_cpuid::get().then_some(Self(()))
    }
}
