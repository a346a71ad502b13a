//! The tier tables: what each permutation's backends offer, and the CPU
//! features a call detected, in one place.
//!
//! What: [`tier_table!`] turns one list of rows (a tier's name, the batch
//! lengths it takes, the CPU feature it needs, its frame class, its
//! kernel) into the selector, the names of what runs ([`Row`]s), the
//! narrow batch width, the shortest batch that reaches a lanes kernel, and
//! (for tests and the tier benchmarks) each tier on its own. [`Tiers`] is
//! the CPU's features, detected once when a call starts and carried to
//! every selection it makes.
//!
//! Why: the order of the tiers was written four times (selector, names,
//! benchmark list, test lengths) and drifted; the selector read the CPU
//! again for every batch.
//!
//! Invariant: the selector is the rows' ladder written out by the macro,
//! in order, each row a comparison of the batch length (public) and a
//! detected feature: no table is read at run time and nothing secret is
//! branched on. A row's kernel is reached only with the token detection
//! gives (`cpu.rs`); a [`Tiers`] holds no token it was not detected with.

#[cfg(elephant_x86)]
use super::cpu::{Avx2, FastPext, Features};
#[cfg(elephant_avx512)]
use super::cpu::{Avx512Gfni, Avx512Vbmi};

/// The CPU features a call may use, detected once when it starts (x86-64;
/// elsewhere there is nothing to detect) and handed to every selection it
/// makes. Its only constructor is detection (`Tiers::detect`), or the
/// value with no feature at all (`Tiers::PORTABLE`).
#[derive(Clone, Copy, Debug)]
pub struct Tiers {
    /// The features detected.
    #[cfg(elephant_x86)]
    features: Features,
}

impl Tiers {
    /// No CPU feature: only the portable tiers (the value a run holds
    /// before it is given the detected one).
    pub(crate) const PORTABLE: Self = Self {
        #[cfg(elephant_x86)]
        features: Features::NONE,
    };

    /// This CPU's features (read once from `cpuid`, then from a cache).
    #[inline]
    #[must_use]
    pub(crate) fn detect() -> Self {
        Self {
            #[cfg(elephant_x86)]
            features: Features::detect(),
        }
    }

    /// The token of a tier that needs no CPU feature.
    #[inline(always)]
    pub(super) fn always(self) -> Option<()> {
        Some(())
    }

    /// AVX2.
    #[cfg(elephant_x86)]
    #[inline(always)]
    pub(super) fn avx2(self) -> Option<Avx2> {
        self.features.avx2()
    }

    /// AVX2 where the CPU lacks the AVX-512 VBMI tiers (which take the
    /// batches of the 64-state AVX2 kernels there).
    #[cfg(elephant_x86)]
    #[inline(always)]
    pub(super) fn avx2_alone(self) -> Option<Avx2> {
        #[cfg(elephant_avx512)]
        if self.features.vbmi().is_some() {
            return None;
        }
        self.features.avx2()
    }

    /// BMI2 with a fast `pext`.
    #[cfg(elephant_x86)]
    #[inline(always)]
    pub(super) fn pext(self) -> Option<FastPext> {
        self.features.pext()
    }

    /// AVX-512F, VL, GFNI and AVX2.
    #[cfg(elephant_avx512)]
    #[inline(always)]
    pub(super) fn gfni(self) -> Option<Avx512Gfni> {
        self.features.gfni()
    }

    /// AVX-512F, VL, BW, VBMI, GFNI and AVX2.
    #[cfg(elephant_avx512)]
    #[inline(always)]
    pub(super) fn vbmi(self) -> Option<Avx512Vbmi> {
        self.features.vbmi()
    }
}

/// How deep a kernel's frame goes, for the stack clearing after a call
/// (`scrub::depth`, picked by `mode::plan`).
// A build has the classes of its rows only (the portable builds, no
// lanes or wide kernel).
#[allow(dead_code)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Frame {
    /// One state, or a few in `u64` or NEON words: what short calls were
    /// measured with.
    Shallow,
    /// 64 states with each state's parts in the lanes of vectors: deeper;
    /// short calls whose runs reach it clear deeper.
    Lanes,
    /// A wide batch kernel (32 states and more in vectors, 128 in NEON
    /// words): never reached by a short call's run.
    Wide,
}

/// One tier's bounds and frame, for compile-time checks and the tests.
// Read only in `const` assertions outside the tests, which Rust 1.85 does
// not count as a use.
#[allow(dead_code)]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Row {
    /// The fewest blocks it takes.
    pub(crate) min: usize,
    /// The most blocks it takes (`usize::MAX`: any number).
    pub(crate) max: usize,
    /// Its frame class.
    pub(crate) frame: Frame,
}

/// The fewest blocks with which any [`Frame::Wide`] row of `rows` starts
/// (`usize::MAX` if none): a batch shorter than this reaches none of them.
// Used in `const` assertions only (see `Row`).
#[allow(dead_code)]
pub(crate) const fn wide_min(rows: &[Row]) -> usize {
    match rows.split_first() {
        Some((row, rest)) => {
            let rest = wide_min(rest);
            match row.frame {
                Frame::Wide if row.min < rest => row.min,
                _ => rest,
            }
        }
        None => usize::MAX,
    }
}

/// Batch lengths at and around every row's bounds (one below, the bound,
/// one above), and two past the widest kernel (a whole chunk of 512 and a
/// padded one): the lengths the selector tests check, so that each tier
/// is reached at its thresholds.
#[cfg(test)]
pub(crate) fn boundary_lengths(rows: &[Row]) -> Vec<usize> {
    let mut lengths = vec![1, 512, 700];
    for row in rows {
        for bound in [row.min, row.max] {
            if bound < 1_000 {
                lengths.extend([bound.saturating_sub(1), bound, bound.saturating_add(1)]);
            }
        }
    }
    lengths.sort_unstable();
    lengths.dedup();
    lengths
}

/// Writes out one permutation's tiers from one list of rows, as a module.
///
/// ```text
/// tier_table! {
///     mod t160 for [u8; 20];
///     #[cfg(elephant_x86)]
///     Pext "pext": 0, ONE_STATE_MAX_PEXT_160, pext, Shallow => all pext_each_160;
///     ...
/// }
/// ```
///
/// A row: an identifier and a name, the fewest and the most blocks it
/// takes, the [`Tiers`] method that detects its token (`always` for none),
/// its [`Frame`], optionally `narrow N` (a kernel of `N` states whose
/// batches the plan's medium runs are cut to), and its kernel: `all f`
/// runs `f(token, blocks)` on the whole batch; `prefix f` runs `f(token,
/// blocks)`, which permutes a front part and returns the rest for the
/// rows after it. The last row must take any length (checked at compile
/// time). The module holds:
/// - `ROWS`: the rows' bounds and frames (those of this build's `cfg`);
/// - `select(tiers, blocks)`, `select_one(tiers, block)`: the ladder, the
///   rows in order (the second for one block, inlined, so that the
///   comparisons fold);
/// - `name(tiers, len)`: the name of the row `select` starts with;
/// - `narrow(tiers)`: the width of the first `narrow` row that `select`
///   picks for a batch of that width on this CPU;
/// - `lanes(tiers)`: the fewest blocks that reach a [`Frame::Lanes`] row
///   on this CPU;
/// - `ALONE` (tests, tier benchmarks): each row's name and its kernel on
///   its own, at any length (what it leaves, and a batch on a CPU without
///   its feature, go to `select`).
macro_rules! tier_table {
    (
        mod $module:ident for $block:ty;
        $(
            $(#[$cfg:meta])*
            $id:ident $name:literal: $min:expr, $max:expr, $cpu:ident, $frame:ident
                $(, narrow $width:expr)? => $how:ident $kernel:expr;
        )+
    ) => {
        mod $module {
            #[allow(unused_imports)]
            use super::*;
            use $crate::permutation::Tiers;
            use $crate::permutation::tiers::{Frame, Row};

            /// The rows, in the order the selector tries them.
            #[derive(Clone, Copy, Debug, PartialEq, Eq)]
            enum Tier {
                $($(#[$cfg])* $id,)+
            }

            /// This permutation's tiers, in the order the selector tries
            /// them (this build's rows).
            // Read in `const` assertions and the tests only (see `Row`).
            #[allow(dead_code)]
            pub(in $crate::permutation) const ROWS: &[Row] = &[$(
                $(#[$cfg])*
                Row { min: $min, max: $max, frame: Frame::$frame },
            )+];

            // The last row takes any batch: the ladder never falls through.
            const _: () = assert!(
                matches!(ROWS.last(), Some(row) if row.min == 0 && row.max == usize::MAX),
                "the last tier takes any length"
            );

            /// Permutes every block of `blocks`, each independently, with
            /// the first tier whose lengths hold the batch and whose CPU
            /// feature `tiers` has (a `prefix` tier leaves the rest to the
            /// tiers after it).
            pub(in $crate::permutation) fn select(tiers: Tiers, blocks: &mut [$block]) {
                #[allow(unused_mut)]
                let mut blocks = blocks;
                $(
                    $(#[$cfg])*
                    if ($min..=$max).contains(&blocks.len()) {
                        if let Some(token) = tiers.$cpu() {
                            tier_table!(@run $how $kernel, token, blocks);
                        }
                    }
                )+
            }

            /// [`select`] for one block, written out where it is used so
            /// that the comparisons of the length fold.
            #[inline]
            pub(in $crate::permutation) fn select_one(tiers: Tiers, block: &mut $block) {
                #[allow(unused_mut)]
                let mut blocks = core::slice::from_mut(block);
                $(
                    $(#[$cfg])*
                    if ($min..=$max).contains(&blocks.len()) {
                        if let Some(token) = tiers.$cpu() {
                            tier_table!(@run $how $kernel, token, blocks);
                        }
                    }
                )+
            }

            /// The row [`select`] starts a batch of `len` blocks with.
            #[inline]
            fn tier(tiers: Tiers, len: usize) -> Option<Tier> {
                $(
                    $(#[$cfg])*
                    if ($min..=$max).contains(&len) && tiers.$cpu().is_some() {
                        return Some(Tier::$id);
                    }
                )+
                None
            }

            /// The name of the tier that [`select`] starts a batch of
            /// `len` blocks with, on a CPU with `tiers`.
            pub(in $crate::permutation) fn name(tiers: Tiers, len: usize) -> &'static str {
                match tier(tiers, len) {
                    $($(#[$cfg])* Some(Tier::$id) => $name,)+
                    None => "none",
                }
            }

            /// The width of this CPU's narrow kernel, where a batch of
            /// that width runs it (see
            /// [`crate::Permutation::narrow_batch`]).
            #[inline]
            // Tables without a narrow row (every build but x86-64's).
            #[allow(unused_variables)]
            pub(in $crate::permutation) fn narrow(tiers: Tiers) -> Option<usize> {
                $(
                    $(#[$cfg])*
                    {
                        $(
                            if tier(tiers, $width) == Some(Tier::$id) {
                                return Some($width);
                            }
                        )?
                    }
                )+
                None
            }

            /// The fewest blocks a batch needs to reach a
            /// [`Frame::Lanes`] tier on a CPU with `tiers`, if one is
            /// there.
            #[inline]
            pub(in $crate::permutation) fn lanes(tiers: Tiers) -> Option<usize> {
                #[allow(unused_mut)]
                let mut fewest: Option<usize> = None;
                $(
                    $(#[$cfg])*
                    if matches!(Frame::$frame, Frame::Lanes)
                        && tier(tiers, $min) == Some(Tier::$id)
                    {
                        fewest = Some(fewest.map_or($min, |f: usize| f.min($min)));
                    }
                )+
                fewest
            }

            /// Every tier on its own, by name: its kernel at any batch
            /// length (what a `prefix` tier leaves, and a batch on a CPU
            /// without the tier's feature, go through the selector).
            #[cfg(any(test, elephant_bench_tiers))]
            pub(crate) const ALONE: &[(&str, fn(&mut [$block]))] = &[$(
                $(#[$cfg])*
                ($name, |blocks| {
                    let tiers = Tiers::detect();
                    #[allow(unused_mut)]
                    let mut blocks = blocks;
                    if let Some(token) = tiers.$cpu() {
                        tier_table!(@run $how $kernel, token, blocks);
                    }
                    select(tiers, blocks);
                }),
            )+];
        }
    };
    (@run all $kernel:expr, $token:ident, $blocks:ident) => {{
        ($kernel)($token, $blocks);
        return;
    }};
    (@run prefix $kernel:expr, $token:ident, $blocks:ident) => {{
        $blocks = ($kernel)($token, $blocks);
    }};
}

pub(crate) use tier_table;
