//! Counted-instruction benchmark of `elephant-aead` on four microcontroller
//! cores.
//!
//! A bare-metal image for one QEMU board per core, run by
//! `.ci/firmware-bench` (the board is named by `cfg(board)`, from
//! `build.rs`): Cortex-M4 on `mps2-an386` (`thumbv7em-none-eabihf`),
//! Cortex-M33 on `mps2-an505` (`thumbv8m.main-none-eabihf`), Cortex-M0 on
//! `microbit` (`thumbv6m-none-eabi`, 16 KiB of RAM) and RV32IMC on `virt`
//! (`riscv32imc-unknown-none-elf`). For Dumbo, Jumbo and Delirium, and for
//! the RustCrypto baselines ChaCha20-Poly1305 and Ascon-AEAD128, it measures
//!
//! - executed instructions (a proxy for cycles) of one-shot
//!   encryption and decryption of 16, 128 and 1500 bytes with no associated
//!   data, each including the key setup (`KeyInit::new`) as a one-message
//!   user pays it, and of the key setup alone;
//! - the peak stack of one 128-byte encryption and decryption (key setup
//!   included), by stack painting (see [`stack`]).
//!
//! Instructions are counted with QEMU's `-icount` clock, read through a
//! board timer or `minstret` (see [`counter`]). The image first checks the
//! counter against loops of known length, and the fixed cost of a
//! measurement is measured and subtracted everywhere. It checks every result: decryption must succeed
//! and restore the plaintext, a forged tag must be rejected, and the
//! Elephant ciphertexts of 16 bytes must match the official KATs. It prints
//! a Markdown table and exits QEMU through semihosting, with a failure
//! status if any check failed.
//!
//! The measuring logic in this file is the same for every core; what
//! differs is behind one module per idea, each with a file per
//! architecture or board: start-up, output and exit ([`runtime`]), the
//! clock read by [`counter`], the stack pointer and painting loop of
//! [`stack`], and the loops of known length ([`loops`]).

#![no_std]
#![no_main]

#[cfg(not(any(target_arch = "arm", target_arch = "riscv32")))]
compile_error!(
    "tools/firmware/bench builds for Cortex-M (thumbv6m, thumbv7em, thumbv8m.main) or riscv32"
);

mod counter;
#[cfg_attr(target_arch = "arm", path = "loops/arm.rs")]
#[cfg_attr(target_arch = "riscv32", path = "loops/riscv32.rs")]
mod loops;
#[cfg_attr(target_arch = "arm", path = "runtime/arm.rs")]
#[cfg_attr(target_arch = "riscv32", path = "runtime/riscv32.rs")]
mod runtime;
mod stack;

use core::fmt;
use core::hint::black_box;

use chacha20poly1305::ChaCha20Poly1305;
use elephant_aead::aead::{AeadInOut, Key, KeyInit, Nonce, Tag};
use elephant_aead::permutation::{keccak_f200, spongent_pi_160, spongent_pi_176};
use elephant_aead::{Delirium, Dumbo, Jumbo, Keccak200, Permutation, Spongent160, Spongent176};
use loops::{loop_of_2, loop_of_5};
use runtime::hprintln;

/// Message sizes measured, in bytes.
const SIZES: [usize; 3] = [16, 128, 1500];
/// The size whose instructions per byte the table reports.
const LONG: usize = 1500;
/// The size whose peak stack the table reports.
const STACK_SIZE: usize = 128;

/// The official KATs' ciphertext‖tag for key 00‖01‖…‖0F, nonce
/// 00‖01‖…‖0B, plaintext 00‖01‖…‖0F and no AD (Count = 529), which are
/// exactly this harness's 16-byte inputs.
const KAT_DUMBO: [u8; 24] = [
    0x08, 0x67, 0x29, 0x0A, 0xD2, 0x9D, 0x21, 0x9C, 0x4B, 0xF3, 0xBF, 0x0B, 0xD6, 0x52, 0x09, 0x9B,
    0xA0, 0xE7, 0xFC, 0xE0, 0x7C, 0x71, 0xC3, 0xEB,
];
/// Jumbo's ciphertext‖tag for the same inputs as [`KAT_DUMBO`].
const KAT_JUMBO: [u8; 24] = [
    0xAE, 0x5D, 0x4F, 0x2B, 0xFA, 0xE6, 0xD4, 0x32, 0xA1, 0xB6, 0xE9, 0x2E, 0xB8, 0x95, 0x5A, 0x7F,
    0x8E, 0xF4, 0x99, 0x2B, 0x28, 0xDA, 0x95, 0xC5,
];
/// Delirium's ciphertext‖tag for the same inputs as [`KAT_DUMBO`].
const KAT_DELIRIUM: [u8; 32] = [
    0x1E, 0xBB, 0xE2, 0x9D, 0x3E, 0xC4, 0xD5, 0x74, 0x84, 0x09, 0x05, 0xEF, 0xCE, 0xBF, 0xB4, 0x0D,
    0x7A, 0xDD, 0xCA, 0x6B, 0xFE, 0xC2, 0x52, 0xFB, 0xDC, 0x5E, 0x84, 0x78, 0x4B, 0xC4, 0xF7, 0xE3,
];

/// What the table shows for one cipher. Instruction counts already have
/// the measurement overhead subtracted.
struct Row {
    /// The cipher's name, also its key in `ceilings.txt`.
    name: &'static str,
    /// One-shot encryption of each of [`SIZES`].
    encrypt: [u64; 3],
    /// One-shot decryption of each of [`SIZES`].
    decrypt: [u64; 3],
    /// `KeyInit::new` alone.
    key_setup: u64,
    /// Peak stack of a [`STACK_SIZE`]-byte encryption, in bytes.
    stack_encrypt: usize,
    /// Peak stack of a [`STACK_SIZE`]-byte decryption, in bytes.
    stack_decrypt: usize,
    /// Calls after which the dead stack was searched for secrets.
    secret_cases: usize,
}

/// Why a measurement or a check failed; printed, then the image exits
/// with a failure status.
#[derive(Clone, Copy, Debug)]
enum Failure {
    /// A measured interval did not fit the 32-bit timer.
    CounterWrapped,
    /// The painted stack region could not be placed or was used up.
    StackRegion,
    /// Encryption returned an error.
    Encrypt,
    /// Decryption of a valid ciphertext failed or did not restore the
    /// plaintext.
    Decrypt,
    /// A forged tag was accepted.
    Forgery,
    /// The ciphertext differs from the official KAT.
    Kat,
    /// A call left a secret (`L` or a mask) in the stack it used.
    SecretLeft,
}

/// Formats a count with thousands separators, so long counts stay readable
/// in the table (the script strips the commas).
struct Thousands(u64);

impl fmt::Display for Thousands {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut groups = [0u16; 7];
        let mut n = self.0;
        let mut len = 0;
        loop {
            groups[len] = (n % 1000) as u16;
            len += 1;
            n /= 1000;
            if n == 0 {
                break;
            }
        }
        write!(f, "{}", groups[len - 1])?;
        for group in groups[..len - 1].iter().rev() {
            write!(f, ",{group:03}")?;
        }
        Ok(())
    }
}

/// FNV-1a (32 bits) of ciphertext‖tag: a short fingerprint to compare
/// outputs across runs and builds by eye, not a security function.
fn fingerprint(parts: &[&[u8]]) -> u32 {
    let mut hash = 0x811C_9DC5u32;
    for byte in parts.iter().flat_map(|part| part.iter()) {
        hash = (hash ^ u32::from(*byte)).wrapping_mul(0x0100_0193);
    }
    hash
}

/// Bytes `0, 1, 2, …` (wrapping), the pattern of the official KATs' inputs.
fn counting_bytes<const N: usize>() -> [u8; N] {
    core::array::from_fn(|i| i as u8)
}

/// Instructions of one call of `f`, less the measurement overhead.
fn measure(overhead: u64, f: &mut dyn FnMut()) -> Result<u64, Failure> {
    counter::count(f)
        .map(|n| n.saturating_sub(overhead))
        .ok_or(Failure::CounterWrapped)
}

/// Checks the counter on loops of known length: the count less the
/// overhead must be `k n`, give or take 2 instructions (the closure loading
/// `n`), for every `n`. Prints each result.
fn validate_counter(overhead: u64) -> bool {
    let mut ok = true;
    for n in [1_000u32, 100_000, 1_000_000] {
        let loops = [
            (2, measure(overhead, &mut move || loop_of_2(n))),
            (5, measure(overhead, &mut move || loop_of_5(n))),
        ];
        for (per_iteration, measured) in loops {
            let expected = per_iteration * u64::from(n);
            let residual = measured.map(|m| m as i64 - expected as i64);
            let pass = matches!(residual, Ok(-2..=2));
            ok &= pass;
            match residual {
                Ok(residual) => hprintln!(
                    "validation: {per_iteration}-instruction loop, n = {n}: {} instructions, expected {expected}, residual {residual:+}: {}",
                    measured.unwrap_or(0),
                    if pass { "ok" } else { "FAILED" },
                ),
                Err(failure) => hprintln!(
                    "validation: {per_iteration}-instruction loop, n = {n}: FAILED: {failure:?}"
                ),
            }
        }
    }
    ok
}

/// What one measured encryption runs: key setup, then one-shot encryption
/// of `message` in place with no AD, as a user sealing one message does.
/// `black_box` keeps every input opaque, so nothing is computed at compile
/// time. Returns the tag, or `None` if encryption failed.
#[inline(always)]
fn seal<C: KeyInit + AeadInOut>(
    key: &Key<C>,
    nonce: &Nonce<C>,
    message: &mut [u8],
) -> Option<Tag<C>> {
    let cipher = C::new(black_box(key));
    let message = black_box(message);
    cipher
        .encrypt_inout_detached(black_box(nonce), black_box(&[]), message.into())
        .ok()
}

/// What one measured decryption runs: key setup, then one-shot decryption
/// of `message` in place with no AD. Returns whether the tag verified.
#[inline(always)]
fn open<C: KeyInit + AeadInOut>(
    key: &Key<C>,
    nonce: &Nonce<C>,
    message: &mut [u8],
    tag: &Tag<C>,
) -> bool {
    let cipher = C::new(black_box(key));
    let message = black_box(message);
    cipher
        .decrypt_inout_detached(
            black_box(nonce),
            black_box(&[]),
            message.into(),
            black_box(tag),
        )
        .is_ok()
}

/// Measures and checks one cipher. `kat` is the expected ciphertext‖tag
/// of the 16-byte message, where an official one is at hand.
#[inline(never)]
fn bench<C: KeyInit + AeadInOut>(
    name: &'static str,
    kat: Option<&[u8]>,
    secrets: Secrets,
    overhead: u64,
) -> Result<Row, Failure> {
    let mut key = Key::<C>::default();
    let key_len = key.len();
    key.copy_from_slice(&counting_bytes::<32>()[..key_len]);
    let mut nonce = Nonce::<C>::default();
    let nonce_len = nonce.len();
    nonce.copy_from_slice(&counting_bytes::<16>()[..nonce_len]);
    let plaintext = counting_bytes::<LONG>();
    let (key, nonce) = (&key, &nonce);
    let mut buffer = [0u8; LONG];

    let key_setup = measure(overhead, &mut || {
        black_box(C::new(black_box(key)));
    })?;

    let mut row = Row {
        name,
        encrypt: [0; 3],
        decrypt: [0; 3],
        key_setup,
        stack_encrypt: 0,
        stack_decrypt: 0,
        secret_cases: 0,
    };
    for (i, size) in SIZES.into_iter().enumerate() {
        let message = &mut buffer[..size];
        message.copy_from_slice(&plaintext[..size]);
        let mut tag = None;
        row.encrypt[i] = measure(overhead, &mut || tag = seal::<C>(key, nonce, message))?;
        let tag: Tag<C> = tag.ok_or(Failure::Encrypt)?;
        hprintln!(
            "output: {name} {size} B: ciphertext‖tag FNV-1a {:08x}",
            fingerprint(&[message, &tag])
        );
        if let Some(kat) = kat.filter(|_| size == 16) {
            if !is_concatenation(kat, message, &tag) {
                return Err(Failure::Kat);
            }
        }

        let mut opened = false;
        row.decrypt[i] = measure(overhead, &mut || {
            opened = open::<C>(key, nonce, message, &tag)
        })?;
        if !opened || message != &plaintext[..size] {
            return Err(Failure::Decrypt);
        }

        if size == 16 {
            let cipher = C::new(key);
            let mut forged = tag.clone();
            forged[0] ^= 1;
            cipher
                .encrypt_inout_detached(nonce, &[], message.into())
                .map_err(|_| Failure::Encrypt)?;
            if cipher
                .decrypt_inout_detached(nonce, &[], message.into(), &forged)
                .is_ok()
            {
                return Err(Failure::Forgery);
            }
        }
    }

    let message = &mut buffer[..STACK_SIZE];
    message.copy_from_slice(&plaintext[..STACK_SIZE]);
    let mut tag = None;
    row.stack_encrypt =
        stack::peak(&mut || tag = seal::<C>(key, nonce, message)).ok_or(Failure::StackRegion)?;
    let tag: Tag<C> = tag.ok_or(Failure::Encrypt)?;
    let mut opened = false;
    row.stack_decrypt = stack::peak(&mut || opened = open::<C>(key, nonce, message, &tag))
        .ok_or(Failure::StackRegion)?;
    if !opened || message != &plaintext[..STACK_SIZE] {
        return Err(Failure::Decrypt);
    }

    // No secret left behind: after each encryption, decryption and
    // rejected decryption (key setup included), the stack the call used
    // must hold no 8-byte window of `L` or of the first masks. Outside the
    // counted runs, so the counts above are unchanged.
    let (blocks, block_len) = secrets;
    let secrets: [&[u8]; 4] = core::array::from_fn(|i| &blocks[i][..block_len]);
    let secrets = if block_len == 0 {
        &[][..]
    } else {
        &secrets[..]
    };
    let mut left = 0;
    for size in SIZES {
        let message = &mut buffer[..size];
        message.copy_from_slice(&plaintext[..size]);
        let mut tag = None;
        let (_, found) =
            stack::peak_and_scan(&mut || tag = seal::<C>(key, nonce, message), secrets)
                .ok_or(Failure::StackRegion)?;
        left += found;
        let tag: Tag<C> = tag.ok_or(Failure::Encrypt)?;
        let mut ciphertext = [0u8; LONG];
        ciphertext[..size].copy_from_slice(message);
        let mut forged = tag.clone();
        forged[0] ^= 1;
        for (tag, expected) in [(&forged, false), (&tag, true)] {
            // Some baselines clear the buffer on a rejection.
            message.copy_from_slice(&ciphertext[..size]);
            let mut opened = false;
            let (_, found) = stack::peak_and_scan(
                &mut || opened = open::<C>(key, nonce, message, tag),
                secrets,
            )
            .ok_or(Failure::StackRegion)?;
            left += found;
            if opened != expected {
                return Err(Failure::Decrypt);
            }
        }
        if secrets.is_empty() {
            continue;
        }
        row.secret_cases += 3;
    }
    hprintln!(
        "secrets: {name}: {} calls checked (encrypt, decrypt, rejected decrypt of {SIZES:?} B), {left} secrets found in dead stack",
        row.secret_cases
    );
    if left > 0 {
        return Err(Failure::SecretLeft);
    }
    Ok(row)
}

/// What the dead stack must not hold after an Elephant call with the
/// harness's key: `L` and masks 1 to 3, each zero-padded to 25 bytes, and
/// the block length (0: nothing to search for, the baselines).
type Secrets = ([[u8; 25]; 4], usize);

/// `L = P(K ‖ 0)` (from the public `const fn` permutations) and the masks
/// after it (φ), for the harness's key `K`.
fn masks_from<P: Permutation>(expanded_key: P::Block) -> Secrets {
    let mut out = [[0; 25]; 4];
    let mut mask = expanded_key;
    for slot in &mut out {
        slot[..P::BLOCK_SIZE].copy_from_slice(mask.as_ref());
        mask = P::next_mask(&mask);
    }
    (out, P::BLOCK_SIZE)
}

/// [`masks_from`] for the instance `name`.
fn elephant_secrets(name: &str) -> Secrets {
    let key = counting_bytes::<16>();
    let mut block = [0u8; 25];
    block[..16].copy_from_slice(&key);
    match name {
        "Dumbo" => {
            masks_from::<Spongent160>(spongent_pi_160(block[..20].try_into().unwrap_or_default()))
        }
        "Jumbo" => {
            masks_from::<Spongent176>(spongent_pi_176(block[..22].try_into().unwrap_or_default()))
        }
        "Delirium" => masks_from::<Keccak200>(keccak_f200(block)),
        _ => ([[0; 25]; 4], 0),
    }
}

/// Whether `expected` is `first` followed by `second`.
fn is_concatenation(expected: &[u8], first: &[u8], second: &[u8]) -> bool {
    let (head, tail) = expected.split_at(first.len().min(expected.len()));
    head == first && tail == second
}

/// A throughput ratio in ChaChaPoly units, or "n/a" without the baseline.
struct Units(Option<f64>);

impl fmt::Display for Units {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(units) => write!(f, "{units:.4}×"),
            None => f.write_str("n/a"),
        }
    }
}

/// Prints the results as a Markdown table, one line per cipher measured
/// (a cipher whose checks failed has no line).
fn print_table(rows: &[Option<Row>]) {
    let chacha = rows
        .iter()
        .flatten()
        .find(|row| row.name == "ChaCha20-Poly1305")
        .map(|row| row.encrypt[2]);
    hprintln!(
        "| cipher | enc 16 B | enc 128 B | enc 1500 B | instr/B @1500 | dec 16 B | dec 128 B | dec 1500 B | key setup | peak stack enc (B) | peak stack dec (B) | ChaChaPoly units @1500 B |"
    );
    hprintln!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for row in rows.iter().flatten() {
        let per_byte = row.encrypt[2] as f64 / LONG as f64;
        let units = Units(chacha.map(|c| c as f64 / row.encrypt[2] as f64));
        hprintln!(
            "| {} | {} | {} | {} | {:.1} | {} | {} | {} | {} | {} | {} | {} |",
            row.name,
            Thousands(row.encrypt[0]),
            Thousands(row.encrypt[1]),
            Thousands(row.encrypt[2]),
            per_byte,
            Thousands(row.decrypt[0]),
            Thousands(row.decrypt[1]),
            Thousands(row.decrypt[2]),
            Thousands(row.key_setup),
            row.stack_encrypt,
            row.stack_decrypt,
            units,
        );
    }
}

/// When built with `ELEPHANT_PROFILE=<cipher>:<bytes>` (as
/// `tools/firmware/bench/profile` does), the image makes that one encryption,
/// key setup included, and exits, so that QEMU's execution trace holds
/// nothing else.
const PROFILE: Option<&str> = option_env!("ELEPHANT_PROFILE");

/// The one call of a profiling image (see [`PROFILE`]).
fn profile_one_call(spec: &str) -> bool {
    let mut message = [0x5a; 1500];
    let Some((cipher, len)) = spec.split_once(':') else {
        return false;
    };
    let Some(message) = len
        .parse()
        .ok()
        .and_then(|len: usize| message.get_mut(..len))
    else {
        return false;
    };
    match cipher {
        "Dumbo" => seal::<Dumbo>(&Default::default(), &Default::default(), message).is_some(),
        "Jumbo" => seal::<Jumbo>(&Default::default(), &Default::default(), message).is_some(),
        "Delirium" => seal::<Delirium>(&Default::default(), &Default::default(), message).is_some(),
        _ => false,
    }
}

/// The image's program, called by the runtime's entry point: measures,
/// checks, prints, and exits QEMU with the outcome. Inlined there, so the
/// image's start-up is the runtime's alone (no extra call to here).
#[inline(always)]
fn run() -> ! {
    // A profiling image exits here. The benchmark code below stays live
    // (`runtime::exit` is not `-> !`), so LLVM compiles and inlines the
    // library as it does in the benchmark image, and the profile shows the
    // code that the benchmark measures.
    if let Some(spec) = PROFILE {
        if profile_one_call(spec) {
            runtime::exit(true);
        } else {
            hprintln!(
                "FAILED: ELEPHANT_PROFILE={spec}: expected <Dumbo|Jumbo|Delirium>:<0..=1500>"
            );
            runtime::exit(false);
        }
    }
    counter::init();
    let overhead = counter::count(&mut || {}).unwrap_or(u64::MAX);
    hprintln!("measurement overhead (empty call, subtracted everywhere): {overhead} instructions");
    let mut ok = validate_counter(overhead);

    type Bench = fn(u64) -> Result<Row, Failure>;
    let ciphers: [(&str, Bench); 5] = [
        ("Dumbo", |o| {
            bench::<Dumbo>("Dumbo", Some(&KAT_DUMBO), elephant_secrets("Dumbo"), o)
        }),
        ("Jumbo", |o| {
            bench::<Jumbo>("Jumbo", Some(&KAT_JUMBO), elephant_secrets("Jumbo"), o)
        }),
        ("Delirium", |o| {
            bench::<Delirium>(
                "Delirium",
                Some(&KAT_DELIRIUM),
                elephant_secrets("Delirium"),
                o,
            )
        }),
        ("ChaCha20-Poly1305", |o| {
            bench::<ChaCha20Poly1305>("ChaCha20-Poly1305", None, elephant_secrets(""), o)
        }),
        ("Ascon-AEAD128", |o| {
            bench::<ascon_aead::AsconAead128>("Ascon-AEAD128", None, elephant_secrets(""), o)
        }),
    ];
    let mut rows: [Option<Row>; 5] = Default::default();
    for ((name, run), slot) in ciphers.into_iter().zip(&mut rows) {
        match run(overhead) {
            Ok(row) => *slot = Some(row),
            Err(failure) => {
                hprintln!("FAILED: {name}: {failure:?}");
                ok = false;
            }
        }
    }
    print_table(&rows);
    let secret_cases: usize = rows.iter().flatten().map(|row| row.secret_cases).sum();
    hprintln!("secrets: {secret_cases} Elephant calls checked for secrets left in dead stack");
    if ok {
        hprintln!("firmware-bench: all checks passed");
    } else {
        hprintln!("firmware-bench: FAILED");
    }
    runtime::exit(ok);
    loop {
        core::hint::spin_loop();
    }
}

/// Reports a panic and exits QEMU with a failure status.
#[panic_handler]
fn panic(info: &core::panic::PanicInfo<'_>) -> ! {
    hprintln!("FAILED: {info}");
    runtime::exit(false);
    loop {
        core::hint::spin_loop();
    }
}

/// The image runs on one core and enables no interrupt, so a critical
/// section (needed by the semihosting printer) has nothing to mask.
struct SingleThreaded;
critical_section::set_impl!(SingleThreaded);

// SAFETY: no interrupt handler or second core ever runs concurrently with
// the code holding a critical section, so doing nothing is a valid lock.
unsafe impl critical_section::Impl for SingleThreaded {
    unsafe fn acquire() {}
    unsafe fn release(_: ()) {}
}
