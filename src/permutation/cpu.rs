//! Run-time CPU feature detection, in one place for every permutation: a
//! backend that needs a feature takes its token, and the token can only be
//! had from the detection below (its field is private, so `detect` is the
//! only constructor). Each token is detected once, then cached.

/// Declares a token type that proves the CPU has every feature listed.
macro_rules! token {
    ($(#[$doc:meta])* $vis:vis struct $name:ident by $cpuid:ident = [$($feature:tt),+];) => {
        cpufeatures::new!($cpuid, $($feature),+);

        $(#[$doc])*
        #[derive(Clone, Copy, Debug)]
        $vis struct $name(());

        impl $name {
            /// The token, if this CPU has those features.
            $vis fn detect() -> Option<Self> {
                $cpuid::get().then_some(Self(()))
            }
        }
    };
}

token! {
    /// Proof that the CPU supports AVX2: the only way to reach the AVX2
    /// kernels.
    pub(super) struct Avx2 by avx2_cpuid = ["avx2"];
}

token! {
    /// Proof that the CPU has BMI2 with a fast `pext`: the only way to
    /// reach the `pext` single-state Spongent kernel. `pext` is microcoded,
    /// and many times slower, on AMD cores before Zen 3; every CPU with
    /// AVX-512F (Intel since Skylake-SP, AMD since Zen 4) has a fast one,
    /// so the token asks for both.
    pub(super) struct FastPext by fast_pext_cpuid = ["bmi2", "avx512f"];
}

#[cfg(elephant_avx512)]
token! {
    /// Proof that the CPU supports AVX-512F, AVX-512VL, GFNI and AVX2: the
    /// only way to reach the 32-state AVX-512 Keccak kernel.
    pub(super) struct Avx512Gfni by avx512_gfni_cpuid = ["avx2", "avx512f", "avx512vl", "gfni"];
}

#[cfg(elephant_avx512)]
token! {
    /// Proof that the CPU supports AVX-512F, AVX-512VL, AVX-512BW,
    /// AVX-512VBMI, GFNI and AVX2: the only way to reach the code that needs
    /// byte permutes (`vpermb`, VBMI) or masked byte loads and stores (BW):
    /// the single-state and 64-state kernels, the 256/512-state Spongent
    /// kernel, and the mode's per-block XORs (`mode::xor`). A separate
    /// token from [`Avx512Gfni`], which the 32-state Keccak kernel takes and
    /// which asks for less.
    pub(crate) struct Avx512Vbmi by avx512_vbmi_cpuid = [
        "avx2", "avx512f", "avx512vl", "avx512bw", "avx512vbmi", "gfni"
    ];
}
