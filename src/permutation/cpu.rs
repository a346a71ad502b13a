//! Run-time CPU feature detection, in one place for every permutation: a
//! backend that needs a feature takes its token, and the token can only be
//! had from the detection below (its field is private, so `detect` and
//! [`Features`] are the only constructors). Each token is detected once,
//! then cached; [`Features`] caches them all in one byte, which a call
//! reads once when it starts (`permutation::Tiers`).

/// Declares a token type that proves the CPU has every feature listed, and
/// passes the further check named after `and`, if any.
macro_rules! token {
    (
        $(#[$doc:meta])*
        $vis:vis struct $name:ident by $cpuid:ident = [$($feature:tt),+]
        $(and $check:ident)?;
    ) => {
        cpufeatures::new!($cpuid, $($feature),+);

        $(#[$doc])*
        #[derive(Clone, Copy, Debug)]
        $vis struct $name(());

        impl $name {
            /// The token, if this CPU has those features (and passes the
            /// further check).
            $vis fn detect() -> Option<Self> {
                ($cpuid::get() $(&& $check())?).then_some(Self(()))
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
    /// and many times slower, on AMD cores before Zen 3, so BMI2 alone is
    /// not enough: see [`pext_is_fast_here`].
    pub(super) struct FastPext by bmi2_cpuid = ["bmi2"] and pext_is_fast_here;
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

/// The features every tier needs, detected together (each token once)
/// and cached in one byte: the set a call reads when it starts.
#[derive(Clone, Copy, Debug)]
pub(super) struct Features(u8);

impl Features {
    /// Bits of [`Features`]: detection done, then one per token.
    const DETECTED: u8 = 0x80;
    const AVX2: u8 = 1;
    const PEXT: u8 = 2;
    #[cfg(elephant_avx512)]
    const GFNI: u8 = 4;
    #[cfg(elephant_avx512)]
    const VBMI: u8 = 8;

    /// No feature (no token can be had from it).
    pub(super) const NONE: Self = Self(0);

    /// This CPU's features: detected on the first call, then read from
    /// a cache.
    #[inline]
    pub(super) fn detect() -> Self {
        use core::sync::atomic::{AtomicU8, Ordering};
        static CACHE: AtomicU8 = AtomicU8::new(0);
        let cached = CACHE.load(Ordering::Relaxed);
        if cached & Self::DETECTED != 0 {
            return Self(cached);
        }
        let detected = Self::detect_each();
        CACHE.store(detected.0, Ordering::Relaxed);
        detected
    }

    /// Each token's detection, into one byte.
    #[cold]
    fn detect_each() -> Self {
        let bit = |present: bool, bit: u8| if present { bit } else { 0 };
        let bits = Self::DETECTED
            | bit(Avx2::detect().is_some(), Self::AVX2)
            | bit(FastPext::detect().is_some(), Self::PEXT);
        // VBMI's token asks for all that GFNI's does, and more.
        #[cfg(elephant_avx512)]
        let bits = if Avx512Gfni::detect().is_some() {
            bits | Self::GFNI | bit(Avx512Vbmi::detect().is_some(), Self::VBMI)
        } else {
            bits
        };
        Self(bits)
    }

    /// The AVX2 token, if detected.
    #[inline(always)]
    pub(super) fn avx2(self) -> Option<Avx2> {
        (self.0 & Self::AVX2 != 0).then_some(Avx2(()))
    }

    /// The fast-`pext` token, if detected.
    #[inline(always)]
    pub(super) fn pext(self) -> Option<FastPext> {
        (self.0 & Self::PEXT != 0).then_some(FastPext(()))
    }

    /// The AVX-512 + GFNI token, if detected.
    #[cfg(elephant_avx512)]
    #[inline(always)]
    pub(super) fn gfni(self) -> Option<Avx512Gfni> {
        (self.0 & Self::GFNI != 0).then_some(Avx512Gfni(()))
    }

    /// The AVX-512 VBMI token, if detected.
    #[cfg(elephant_avx512)]
    #[inline(always)]
    pub(super) fn vbmi(self) -> Option<Avx512Vbmi> {
        (self.0 & Self::VBMI != 0).then_some(Avx512Vbmi(()))
    }
}

#[cfg(elephant_avx512)]
impl Avx512Gfni {
    /// The [`Avx2`] token: this one's features include AVX2.
    pub(super) fn avx2(self) -> Avx2 {
        Avx2(())
    }
}

cpufeatures::new!(avx512f_cpuid, "avx512f");

/// Whether this CPU, which has BMI2, has a fast `pext`. A CPU with AVX-512F
/// (Intel since Skylake-SP, AMD since Zen 4) always has one; that is decided
/// without reading the vendor, which also lets Miri, which does not run
/// `cpuid`, reach the kernel when the features are enabled at compile time.
/// Otherwise the vendor and family decide ([`pext_is_fast`]).
fn pext_is_fast_here() -> bool {
    avx512f_cpuid::get() || vendor_has_fast_pext()
}

/// Whether this CPU's vendor and family make `pext` fast, read once with
/// `cpuid` and cached.
fn vendor_has_fast_pext() -> bool {
    use core::sync::atomic::{AtomicU8, Ordering};
    const UNKNOWN: u8 = 0;
    const SLOW: u8 = 1;
    const FAST: u8 = 2;
    static CACHE: AtomicU8 = AtomicU8::new(UNKNOWN);
    match CACHE.load(Ordering::Relaxed) {
        UNKNOWN => {
            let (vendor, family) = vendor_and_family();
            let fast = pext_is_fast(&vendor, family);
            CACHE.store(if fast { FAST } else { SLOW }, Ordering::Relaxed);
            fast
        }
        known => known == FAST,
    }
}

/// The vendor string (`cpuid` leaf 0) and the family (leaf 1, with the
/// extended family added as the vendors specify).
fn vendor_and_family() -> ([u8; 12], u32) {
    use core::arch::x86_64::__cpuid;
    // `__cpuid` is a safe function from Rust 1.94 on and unsafe before (the
    // minimum supported version is 1.85), hence the allowance.
    // SAFETY: every x86-64 CPU has `cpuid`, with leaves 0 and 1; it only
    // reads identification registers.
    #[allow(unused_unsafe)]
    let (leaf0, leaf1) = unsafe { (__cpuid(0), __cpuid(1)) };
    let mut vendor = [0; 12];
    for (to, word) in vendor
        .chunks_exact_mut(4)
        .zip([leaf0.ebx, leaf0.edx, leaf0.ecx])
    {
        to.copy_from_slice(&word.to_le_bytes());
    }
    let base = (leaf1.eax >> 8) & 0xf;
    let extended = (leaf1.eax >> 20) & 0xff;
    // Both fields are at most 8 bits wide: the sum cannot overflow.
    let family = if base == 0xf {
        base.wrapping_add(extended)
    } else {
        base
    };
    (vendor, family)
}

/// Whether `pext` is fast (a few cycles, not microcoded) on a CPU of this
/// vendor and family: on every Intel core with BMI2, and on AMD from family
/// 0x19 (Zen 3) on. Other vendors (Hygon's cores are Zen 1) are assumed
/// slow: the portable kernels are correct everywhere.
const fn pext_is_fast(vendor: &[u8; 12], family: u32) -> bool {
    match vendor {
        b"GenuineIntel" => true,
        b"AuthenticAMD" => family >= 0x19,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pext_is_fast_on_intel_and_on_amd_from_zen_3() {
        assert!(pext_is_fast(b"GenuineIntel", 6));
        assert!(!pext_is_fast(b"AuthenticAMD", 0x15));
        assert!(!pext_is_fast(b"AuthenticAMD", 0x17));
        assert!(pext_is_fast(b"AuthenticAMD", 0x19));
        assert!(pext_is_fast(b"AuthenticAMD", 0x1a));
        assert!(!pext_is_fast(b"HygonGenuine", 0x18));
        assert!(!pext_is_fast(b"CentaurHauls", 6));
    }

    /// The family as read here agrees with the vendor's numbering: every
    /// x86-64 CPU is family 6 (Intel), 0xf or more (AMD, Hygon), or
    /// another vendor's.
    #[cfg(not(miri))]
    #[test]
    fn the_family_is_read_as_specified() {
        let (vendor, family) = vendor_and_family();
        match &vendor {
            b"GenuineIntel" => assert!(family == 6 || family >= 0xf, "family {family:#x}"),
            b"AuthenticAMD" | b"HygonGenuine" => assert!(family >= 0xf, "family {family:#x}"),
            _ => {}
        }
    }
}
