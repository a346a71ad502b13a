//! No secret left behind in dead stack memory: after each call
//! returns, the stack it used holds no key-equivalent value and no
//! unverified plaintext.
//!
//! The probe, for each case: fill a large region of stack below the probing
//! frame with zeros, make one call, copy the same region out (it is dead
//! stack now: everything the call left behind is there), and look in it for
//! every 8-byte window of each secret of that call, computed independently
//! with the public `const fn` permutations (`tests/common`): the expanded
//! key `L`, the first masks, the `δ_j`, the keystream's permutation inputs,
//! outputs and blocks, the first tag terms, the tag sum `T` and the values
//! that finalise it, the correct tag of a decryption, and the plaintext of a
//! rejected decryption.
//!
//! It is best effort by nature: the compiler may keep a value in a register
//! or spill it anywhere, so a clean run shows that these cases leave nothing,
//! not that no build could. The cases cover every path (short, one batch,
//! two passes) of every instance and every way in and out of a call.
//!
//! Its own binary (one process, one test): nothing else runs on this thread
//! between the paint and the read. x86-64 and aarch64 (the read is `asm!`)
//! and WASI (wasm32's stack in linear memory, read through the host);
//! elsewhere the test says so and passes.

// As in the library: each `unsafe` block states its safety argument.
#![deny(clippy::undocumented_unsafe_blocks)]
// Elsewhere than x86-64, aarch64 and WASI only the placeholder test at the end is
// built, so the probe's imports and constants are unused there.
#![cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64", target_os = "wasi")),
    allow(unused_imports, dead_code)
)]

mod common;

use common::{Instance, pad, reference_encrypt, xor};
use core::hint::black_box;
use core::mem::MaybeUninit;
use elephant_aead::aead::inout::InOutBuf;
use elephant_aead::aead::{AeadInOut, KeyInit, Nonce, Tag};
use elephant_aead::{
    Delirium, Dumbo, Elephant, Jumbo, Keccak200, Permutation, Spongent160, Spongent176, batch,
};
use std::collections::HashMap;

/// Bytes of stack painted and read back below the probing frame: several
/// times the deepest call measured (see the `depth` lines of the output).
const REGION: usize = 192 * 1024;
const _: () = assert!(REGION % 4096 == 0);

// The depth the library clears after a call: the plan's choice, read
// from the library so that the probe does not decide again.
use elephant_aead::stack_clearing::{after_batch, after_call};

/// Length of the windows searched for: long enough that a chance match in
/// 192 KiB is out of the question (2^-64 per position and window).
const WINDOW: usize = 8;

/// Fills the region below the caller's stack pointer with `byte`, through a
/// local array of this non-inlined function: its frame spans the region.
#[inline(never)]
fn paint(byte: u8) {
    let mut region = MaybeUninit::<[u8; REGION]>::uninit();
    let start = region.as_mut_ptr().cast::<u8>();
    for i in 0..REGION {
        // SAFETY: `start + i` lies inside `region`, a local this function
        // owns; writing a `u8` there is always valid.
        unsafe { start.add(i).write_volatile(byte) };
    }
    black_box(&mut region);
}

/// Copies the region below the caller's stack pointer into `out`: the
/// local array of this non-inlined function occupies the same addresses as
/// [`paint`]'s, which is the stack the call in between used and left.
///
/// Reading memory that Rust considers uninitialised (this array is never
/// written) is outside its guarantees if done from Rust, so the copy is
/// one `rep movsb` in `asm!`: to the compiler the array is only passed to
/// opaque code, and `out` (initialised, on the heap) receives whatever bytes
/// the machine holds there. This is confined to this test binary.
#[cfg(target_arch = "x86_64")]
#[inline(never)]
fn read_back(out: &mut [u8]) {
    assert_eq!(out.len(), REGION);
    let region = MaybeUninit::<[u8; REGION]>::uninit();
    // SAFETY: copies `REGION` bytes from `region` (a local of this frame,
    // valid for reads at the machine level) to `out` (valid for `REGION`
    // bytes of writes, checked above); the regions do not overlap (one is on
    // the stack, the other on the heap). The direction flag is clear on
    // function entry (System V ABI), so the copy runs upwards; the asm uses
    // no stack and leaves the flags alone.
    unsafe {
        core::arch::asm!(
            "rep movsb",
            inout("rcx") REGION => _,
            inout("rsi") region.as_ptr().cast::<u8>() => _,
            inout("rdi") out.as_mut_ptr() => _,
            options(nostack, preserves_flags),
        );
    }
    black_box(&region);
}

/// [`read_back`] on aarch64: the same copy as a byte loop in `asm!`.
#[cfg(target_arch = "aarch64")]
#[inline(never)]
fn read_back(out: &mut [u8]) {
    assert_eq!(out.len(), REGION);
    let region = MaybeUninit::<[u8; REGION]>::uninit();
    // SAFETY: copies `REGION` (> 0) bytes from `region` (a local of this
    // frame, valid for reads at the machine level) to `out` (valid for
    // `REGION` bytes of writes, checked above), one byte at a time upwards;
    // the regions do not overlap (one is on the stack, the other on the
    // heap). The asm uses no stack; it changes the flags (`subs`).
    unsafe {
        core::arch::asm!(
            "2:",
            "ldrb {byte:w}, [{from}], #1",
            "strb {byte:w}, [{to}], #1",
            "subs {count}, {count}, #1",
            "b.ne 2b",
            count = inout(reg) REGION => _,
            from = inout(reg) region.as_ptr().cast::<u8>() => _,
            to = inout(reg) out.as_mut_ptr() => _,
            byte = out(reg) _,
            options(nostack),
        );
    }
    black_box(&region);
}

/// [`read_back`] on WASI (wasm32, whose stack is in linear memory): no
/// `asm!` there, so the region's address goes to the host, which copies
/// the bytes it holds: [`copy_through_host`].
#[cfg(target_os = "wasi")]
#[inline(never)]
fn read_back(out: &mut [u8]) {
    assert_eq!(out.len(), REGION);
    let region = MaybeUninit::<[u8; REGION]>::uninit();
    copy_through_host(region.as_ptr().cast::<u8>(), out);
    black_box(&region);
}

/// Copies `out.len()` bytes from `from` into `out` through a scratch file:
/// wasi-libc's `write` hands the address to the host's `fd_write`, which
/// reads linear memory there, and the file is read back into `out`. To the
/// compiler `from` only goes to a foreign function, as in the `asm!` of the
/// other targets. Its own frame, below [`read_back`]'s array.
#[cfg(target_os = "wasi")]
#[inline(never)]
fn copy_through_host(from: *const u8, out: &mut [u8]) {
    use std::io::{Read, Seek, SeekFrom};
    use std::os::fd::AsRawFd;
    unsafe extern "C" {
        /// POSIX `write`, from wasi-libc.
        fn write(fd: i32, buf: *const u8, count: usize) -> isize;
    }
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("stack_secrets.bin");
    let mut file = std::fs::File::options()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut written = 0;
    while written < out.len() {
        // SAFETY: `from + written .. from + out.len()` lies in the caller's
        // array (`out.len()` = `REGION` bytes, valid for reads at the
        // machine level: linear memory); `write` only reads it.
        let count = unsafe { write(file.as_raw_fd(), from.add(written), out.len() - written) };
        assert!(count > 0, "write to {} failed", path.display());
        written += count as usize;
    }
    file.seek(SeekFrom::Start(0)).unwrap();
    file.read_exact(out).unwrap();
}

/// One probe: paint the region with `byte`, run `call`, read the region
/// back into `out`. All three are called from this frame, so they start at
/// the same stack pointer.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64", target_os = "wasi"))]
#[inline(never)]
fn probe(byte: u8, out: &mut [u8], call: &mut dyn FnMut()) {
    paint(byte);
    call();
    read_back(out);
}

/// A named secret and its bytes.
struct Secret {
    name: String,
    bytes: Vec<u8>,
}

/// Deterministic bytes (a 64-bit LCG's high bytes), different per seed.
fn bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 56) as u8
        })
        .collect()
}

/// What one call must not leave behind, computed with the plain model.
/// `ciphertext` is without the tag.
fn call_secrets(
    instance: Instance,
    key: &[u8; 16],
    nonce: &[u8; 12],
    ad: &[u8],
    ciphertext: &[u8],
) -> Vec<Secret> {
    let m = instance.block_size();
    let mut secrets = Vec::new();
    let mut add = |name: String, bytes: Vec<u8>| secrets.push(Secret { name, bytes });
    let mut k = key.to_vec();
    k.resize(m, 0);
    let l = instance.permute(&k);
    let mut nad = nonce.to_vec();
    nad.extend_from_slice(ad);
    let a = pad(&nad, m);
    let c = pad(ciphertext, m);
    let mut masks = vec![l.clone()];
    while masks.len() < a.len().max(c.len()) + 3 {
        masks.push(instance.phi(masks.last().unwrap()));
    }
    add("L".into(), l.clone());
    for (j, mask) in masks.iter().enumerate().take(6).skip(1) {
        add(format!("mask_{j}"), mask.clone());
    }
    let mut n0 = nonce.to_vec();
    n0.resize(m, 0);
    for j in 0..3 {
        let delta = xor(&masks[j], &masks[j + 1]);
        let input = xor(&n0, &delta);
        let output = instance.permute(&input);
        add(format!("δ_{j}"), delta.clone());
        add(format!("N‖0 ⊕ δ_{j}"), input);
        add(format!("P(N‖0 ⊕ δ_{j})"), output.clone());
        add(format!("keystream_{j}"), xor(&output, &delta));
    }
    // The tag sum: the nonce‖AD terms, then the ciphertext's; the first
    // few terms' permutation inputs and outputs are secrets too.
    let mut t = a[0].clone();
    for (j, block) in a.iter().enumerate().skip(1) {
        let input = xor(block, &masks[j]);
        let output = instance.permute(&input);
        if j <= 2 {
            add(format!("AD term {j} input"), input.clone());
            add(format!("AD term {j} output"), output.clone());
        }
        t = xor(&t, &xor(&output, &masks[j]));
    }
    for (j, block) in c.iter().enumerate() {
        let both = xor(&masks[j], &masks[j + 2]);
        let input = xor(block, &both);
        let output = instance.permute(&input);
        if j <= 2 {
            add(format!("C term {j} input"), input.clone());
            add(format!("C term {j} output"), output.clone());
        }
        t = xor(&t, &xor(&output, &both));
    }
    add("T".into(), t.clone());
    let t_l = xor(&t, &l);
    add("T ⊕ L".into(), t_l.clone());
    let p = instance.permute(&t_l);
    add("P(T ⊕ L)".into(), p.clone());
    add("tag block P(T ⊕ L) ⊕ L".into(), xor(&p, &l));
    secrets
}

/// How a call comes in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// `encrypt_in_place` on a `Vec`.
    Encrypt,
    /// `decrypt_in_place` on a `Vec`, with the right tag.
    DecryptAccepted,
    /// `decrypt_inout_detached` in place, with a wrong tag.
    DecryptRejected,
    /// `decrypt_inout_detached` from the ciphertext into a separate
    /// buffer, with a wrong tag.
    DecryptRejectedSeparate,
}

const KINDS: [Kind; 4] = [
    Kind::Encrypt,
    Kind::DecryptAccepted,
    Kind::DecryptRejected,
    Kind::DecryptRejectedSeparate,
];

/// (message, AD) lengths: the short path, one batch, two passes, and long
/// AD with and without a message.
const LENGTHS: [(usize, usize); 7] = [
    (0, 0),
    (16, 0),
    (100, 0),
    (1500, 0),
    (6000, 0),
    (0, 3000),
    (1500, 3000),
];

/// Where a secret was found: its name and the depth below the probing
/// frame's region top.
struct Hit {
    name: String,
    depth: usize,
}

/// Every window of every secret found in `region` (the first place each).
fn find(region: &[u8], secrets: &[Secret]) -> Vec<Hit> {
    let mut windows: HashMap<[u8; WINDOW], usize> = HashMap::new();
    for (index, secret) in secrets.iter().enumerate() {
        for window in secret.bytes.windows(WINDOW) {
            let window: [u8; WINDOW] = window.try_into().unwrap();
            // Windows of one repeated byte could match by chance.
            if window.iter().all(|&b| b == window[0]) {
                continue;
            }
            windows.entry(window).or_insert(index);
        }
    }
    let mut found = vec![None; secrets.len()];
    for (offset, window) in region.windows(WINDOW).enumerate() {
        if let Some(&index) = windows.get(<&[u8; WINDOW]>::try_from(window).unwrap()) {
            found[index].get_or_insert(region.len() - offset);
        }
    }
    found
        .into_iter()
        .zip(secrets)
        .filter_map(|(depth, secret)| {
            depth.map(|depth| Hit {
                name: secret.name.clone(),
                depth,
            })
        })
        .collect()
}

/// The deepest byte (counted from the region's top) that no longer holds
/// `byte`: how far down the stack the call (and the probe's own frames)
/// went.
///
/// [`read_back`]'s prologue probes its frame a page at a time (a zero word
/// stored at every 4 KiB from the region's top, which `REGION`'s being a
/// multiple of 4 KiB puts at the start of each page of `region`): those
/// words are skipped.
fn depth(region: &[u8], byte: u8) -> usize {
    region
        .iter()
        .enumerate()
        .position(|(i, &b)| b != byte && i % 4096 >= 8)
        .map_or(0, |offset| region.len() - offset)
}

/// Runs every call kind and length for one instance; returns the number of
/// cases and the lines describing every hit.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64", target_os = "wasi"))]
fn check_instance<C: AeadInOut + KeyInit>(instance: Instance, seed: u64) -> (usize, Vec<String>) {
    let mut region = vec![0u8; REGION];
    let mut cases = 0;
    let mut failures = Vec::new();
    for (case, &(msg_len, ad_len)) in LENGTHS.iter().enumerate() {
        let seed = seed.wrapping_mul(100).wrapping_add(case as u64);
        let key: [u8; 16] = bytes(seed, 16).try_into().unwrap();
        let nonce_bytes: [u8; 12] = bytes(seed ^ 0xA5, 12).try_into().unwrap();
        let ad = bytes(seed ^ 0x5A, ad_len);
        let plaintext = bytes(seed ^ 0x33, msg_len);
        let sealed = reference_encrypt(instance, &key, &nonce_bytes, &ad, &plaintext);
        let (ciphertext, tag_bytes) = sealed.split_at(msg_len);
        let secrets = call_secrets(instance, &key, &nonce_bytes, &ad, ciphertext);
        let cipher = C::new_from_slice(&key).unwrap();
        let nonce = Nonce::<C>::try_from(&nonce_bytes[..]).unwrap();
        let tag = Tag::<C>::try_from(tag_bytes).unwrap();
        let mut wrong_tag = tag.clone();
        let flip = msg_len % wrong_tag.len();
        wrong_tag[flip] ^= 0x10;
        for kind in KINDS {
            // What this kind must not leave, besides the call's secrets:
            // the correct tag and the plaintext of a rejected decryption.
            // (An encryption's tag and an accepted decryption's plaintext
            // are its output.)
            let mut searched: Vec<&Secret> = secrets.iter().collect();
            let extra;
            let tag_size = instance.tag_size();
            let tag_block = secrets.last().unwrap();
            let tag_rest;
            if matches!(kind, Kind::Encrypt | Kind::DecryptAccepted) {
                // The tag is the encryption's output, and the accepted
                // decryption's input (aead's `decrypt_in_place` copies it
                // out of the buffer): only the rest of its block is secret.
                searched.pop();
                tag_rest = Secret {
                    name: "tag block past the tag".into(),
                    bytes: tag_block.bytes[tag_size..].to_vec(),
                };
                searched.push(&tag_rest);
            }
            if matches!(kind, Kind::DecryptRejected | Kind::DecryptRejectedSeparate) {
                extra = Secret {
                    name: "unverified plaintext".into(),
                    bytes: plaintext.clone(),
                };
                searched.push(&extra);
            }
            let searched: Vec<Secret> = searched
                .into_iter()
                .map(|s| Secret {
                    name: s.name.clone(),
                    bytes: s.bytes.clone(),
                })
                .collect();
            // Buffers on the heap, made before the paint.
            let mut vec_buffer = match kind {
                Kind::Encrypt => plaintext.clone(),
                _ => sealed.clone(),
            };
            let mut detached = ciphertext.to_vec();
            let mut out = vec![0u8; msg_len];
            let mut ok = false;
            let mut call = || {
                ok = match kind {
                    Kind::Encrypt => cipher
                        .encrypt_in_place(&nonce, &ad, black_box(&mut vec_buffer))
                        .is_ok(),
                    Kind::DecryptAccepted => cipher
                        .decrypt_in_place(&nonce, &ad, black_box(&mut vec_buffer))
                        .is_ok(),
                    Kind::DecryptRejected => cipher
                        .decrypt_inout_detached(
                            &nonce,
                            &ad,
                            black_box(&mut detached[..]).into(),
                            &wrong_tag,
                        )
                        .is_err(),
                    Kind::DecryptRejectedSeparate => cipher
                        .decrypt_inout_detached(
                            &nonce,
                            &ad,
                            InOutBuf::new(black_box(&detached[..]), &mut out[..]).unwrap(),
                            &wrong_tag,
                        )
                        .is_err(),
                };
            };
            probe(0, &mut region, &mut call);
            assert!(ok, "{instance:?} {kind:?} {msg_len}+{ad_len}: wrong result");
            match kind {
                Kind::Encrypt => assert_eq!(vec_buffer, sealed),
                Kind::DecryptAccepted => assert_eq!(vec_buffer, plaintext),
                _ => assert_eq!(detached, ciphertext),
            }
            cases += 1;
            let hits = find(&region, &searched);
            let used = depth(&region, 0);
            // How deep the call went (painted with a byte that it does not
            // write over whole words), for the scrub's bound.
            let mut vec_again = vec_buffer.clone();
            let _ = &mut vec_again;
            let mut detached_again = ciphertext.to_vec();
            let mut again = || {
                let _ = match kind {
                    Kind::Encrypt => {
                        vec_again.truncate(msg_len);
                        vec_again.copy_from_slice(&plaintext);
                        cipher.encrypt_in_place(&nonce, &ad, black_box(&mut vec_again))
                    }
                    Kind::DecryptAccepted => {
                        cipher.decrypt_in_place(&nonce, &ad, black_box(&mut sealed.clone()))
                    }
                    Kind::DecryptRejected | Kind::DecryptRejectedSeparate => cipher
                        .decrypt_inout_detached(
                            &nonce,
                            &ad,
                            black_box(&mut detached_again[..]).into(),
                            &wrong_tag,
                        ),
                };
            };
            probe(0xC3, &mut region, &mut again);
            let touched = depth(&region, 0xC3);
            // The library clears the plan's depth after each call (its
            // `src/scrub.rs`); a call that went deeper than that would
            // touch more. The slack is this probe's closure and the
            // frames above the scrub.
            let sealing = kind == Kind::Encrypt;
            let bound = match instance {
                Instance::Dumbo => after_call::<Spongent160>(sealing, ad_len, msg_len),
                Instance::Jumbo => after_call::<Spongent176>(sealing, ad_len, msg_len),
                Instance::Delirium => after_call::<Keccak200>(sealing, ad_len, msg_len),
            };
            println!(
                "depth: {instance:?} {kind:?} {msg_len}+{ad_len} B: {touched} B of {bound} B cleared"
            );
            if touched > bound + 1024 {
                failures.push(format!(
                    "{instance:?} {kind:?} message {msg_len} B, AD {ad_len} B: the call used \
                     {touched} B of stack, more than the {bound} B the library clears after it"
                ));
            }
            for hit in &hits {
                failures.push(format!(
                    "{instance:?} {kind:?} message {msg_len} B, AD {ad_len} B: {} at depth {} B (stack touched to {used} B)",
                    hit.name, hit.depth
                ));
            }
        }
    }
    (cases, failures)
}

/// Packet lengths of a mixed multi-message call: short packets (in
/// lockstep) and longer ones (the general scheduler), in turn.
const MIXED: [usize; 5] = [16, 0, 100, 1500, 40];

/// Packet lengths of a call whose packets all go in lockstep (at most two
/// blocks of message, and of `nonce ‖ AD` with 20 B of AD, for every
/// instance).
const ALL_LOCKSTEP: [usize; 3] = [16, 0, 30];

/// Multi-message calls (`batch::seal`, `batch::open` with some packets
/// rejected) of `count` packets whose message lengths cycle through
/// `lengths`: how deep they go, and what they leave. The secrets searched:
/// every packet's `L`, and all the secrets of the first few packets; for
/// opening, also the plaintext of the rejected ones.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64", target_os = "wasi"))]
fn check_batches<P: Permutation>(
    instance: Instance,
    count: usize,
    lengths: &[usize],
) -> Vec<String> {
    let mut region = vec![0u8; REGION];
    let mut failures = Vec::new();
    let all_lockstep = lengths == ALL_LOCKSTEP;
    // In lockstep, AD that takes a second block: three permutations per
    // packet in a stage, the fullest runs.
    let ad_len = if all_lockstep { 20 } else { 5 };
    let packets: Vec<_> = (0..count as u64)
        .map(|i| {
            let key: [u8; 16] = bytes(i ^ 0x1000, 16).try_into().unwrap();
            let nonce: [u8; 12] = bytes(i ^ 0x2000, 12).try_into().unwrap();
            let ad = bytes(i ^ 0x3000, ad_len);
            let plaintext = bytes(i ^ 0x4000, lengths[i as usize % lengths.len()]);
            let sealed = reference_encrypt(instance, &key, &nonce, &ad, &plaintext);
            (key, nonce, ad, plaintext, sealed)
        })
        .collect();
    let mut secrets = Vec::new();
    for (i, (key, nonce, ad, plaintext, sealed)) in packets.iter().enumerate() {
        let call = call_secrets(instance, key, nonce, ad, &sealed[..plaintext.len()]);
        if i < 8 {
            // The tag block without the tag itself, which is output.
            let tag_block = call.last().unwrap().bytes[instance.tag_size()..].to_vec();
            secrets.extend(
                call.into_iter()
                    .take_while(|s| !s.name.starts_with("tag block")),
            );
            secrets.push(Secret {
                name: format!("packet {i}: tag block past the tag"),
                bytes: tag_block,
            });
        } else {
            secrets.extend(call.into_iter().filter(|s| s.name == "L"));
        }
    }
    let ciphers: Vec<Elephant<P>> = packets
        .iter()
        .map(|(key, ..)| Elephant::<P>::new_from_slice(key).unwrap())
        .collect();
    let nonces: Vec<Nonce<Elephant<P>>> = packets
        .iter()
        .map(|(_, nonce, ..)| Nonce::<Elephant<P>>::try_from(&nonce[..]).unwrap())
        .collect();
    let bound = after_batch::<P>(
        &packets
            .iter()
            .map(|(_, _, ad, plaintext, _)| (ad.len(), plaintext.len()))
            .collect::<Vec<_>>(),
    );
    let mix = if all_lockstep { "lockstep" } else { "mixed" };
    for opening in [false, true] {
        let mut buffers: Vec<Vec<u8>> = packets
            .iter()
            .map(|(_, _, _, plaintext, sealed)| {
                if opening {
                    sealed[..plaintext.len()].to_vec()
                } else {
                    plaintext.clone()
                }
            })
            .collect();
        let mut tags: Vec<Tag<Elephant<P>>> = packets
            .iter()
            .map(|(_, _, _, plaintext, sealed)| {
                Tag::<Elephant<P>>::try_from(&sealed[plaintext.len()..]).unwrap()
            })
            .collect();
        let mut searched: Vec<&Secret> = secrets.iter().collect();
        let rejected: Vec<Secret>;
        if opening {
            // Every fifth packet's tag is wrong: its plaintext must not
            // appear anywhere.
            for tag in tags.iter_mut().step_by(5) {
                tag[0] ^= 1;
            }
            rejected = packets
                .iter()
                .enumerate()
                .step_by(5)
                .filter(|(_, packet)| packet.3.len() >= 8)
                .map(|(i, packet)| Secret {
                    name: format!("packet {i}: rejected plaintext"),
                    bytes: packet.3.clone(),
                })
                .collect();
            searched.extend(&rejected);
        }
        let secrets_now: Vec<Secret> = searched
            .iter()
            .map(|s| Secret {
                name: s.name.clone(),
                bytes: s.bytes.clone(),
            })
            .collect();
        for paint_byte in [0, 0xC3] {
            let mut work = buffers.clone();
            let mut work_tags = tags.clone();
            let mut call = || {
                let mut list: Vec<batch::Packet<'_, Elephant<P>>> = ciphers
                    .iter()
                    .zip(&nonces)
                    .zip(&packets)
                    .zip(work.iter_mut().zip(work_tags.iter_mut()))
                    .map(|(((cipher, nonce), packet), (buffer, tag))| {
                        batch::Packet::new(cipher, nonce, &packet.2, buffer, tag)
                    })
                    .collect();
                let result = if opening {
                    batch::open(black_box(&mut list))
                } else {
                    batch::seal(black_box(&mut list))
                };
                black_box(result).ok();
            };
            probe(paint_byte, &mut region, &mut call);
            let what = if opening {
                "batch::open"
            } else {
                "batch::seal"
            };
            if paint_byte == 0 {
                for hit in find(&region, &secrets_now) {
                    failures.push(format!(
                        "{instance:?} {what} of {count} ({mix}): {} at depth {} B",
                        hit.name, hit.depth
                    ));
                }
            } else {
                let touched = depth(&region, paint_byte);
                println!(
                    "depth: {instance:?} {what} of {count} packets ({mix}): {touched} B of \
                     {bound} B cleared"
                );
                if touched > bound + 1024 {
                    failures.push(format!(
                        "{instance:?} {what} of {count} ({mix}): the call used {touched} B of stack, \
                         more than the {bound} B the library clears after it"
                    ));
                }
            }
            buffers = work;
            let _ = &mut tags;
        }
    }
    failures
}

/// A named call to probe.
type Probe<'a> = (&'static str, Box<dyn FnMut() + 'a>);

/// Key setup and clone of instance `C`: what they leave (the key `K` and
/// `L`). `KeyInit::new` and `new_from_slice` are probed both where the
/// compiler may inline them and through function pointers, which makes it
/// call their out-of-line copies; returns the cases run and the findings.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64", target_os = "wasi"))]
fn report_key_setup<C: KeyInit + Clone>(instance: Instance, seed: u64) -> (usize, Vec<String>) {
    let mut region = vec![0u8; REGION];
    let mut lines = Vec::new();
    let key = bytes(seed, 16);
    let mut block = key.clone();
    block.resize(instance.block_size(), 0);
    let secrets = [
        Secret {
            name: "L".into(),
            bytes: instance.permute(&block),
        },
        Secret {
            name: "K".into(),
            bytes: key.clone(),
        },
    ];
    let key_array = elephant_aead::Key::<C>::try_from(&key[..]).unwrap();
    let new: fn(&elephant_aead::Key<C>) -> C = C::new;
    let new_from_slice: fn(&[u8]) -> Result<C, _> = C::new_from_slice;
    let cipher = C::new(&key_array);
    let clone: fn(&C) -> C = C::clone;
    // Each result is kept in place and dropped, which wipes it: only what
    // the library's frames leave is looked for.
    let mut calls: [Probe; 6] = [
        (
            "KeyInit::new",
            Box::new(|| {
                let fresh = C::new(black_box(&key_array));
                black_box(&fresh);
            }),
        ),
        (
            "KeyInit::new through a function pointer",
            Box::new(|| {
                let fresh = black_box(new)(black_box(&key_array));
                black_box(&fresh);
            }),
        ),
        (
            "KeyInit::new_from_slice",
            Box::new(|| {
                let fresh = C::new_from_slice(black_box(&key));
                assert!(fresh.is_ok());
                black_box(&fresh);
            }),
        ),
        (
            "KeyInit::new_from_slice through a function pointer",
            Box::new(|| {
                let fresh = black_box(new_from_slice)(black_box(&key));
                assert!(fresh.is_ok());
                black_box(&fresh);
            }),
        ),
        (
            "clone",
            Box::new(|| {
                let copy = black_box(&cipher).clone();
                black_box(&copy);
            }),
        ),
        (
            "clone through a function pointer",
            Box::new(|| {
                let copy = black_box(clone)(black_box(&cipher));
                black_box(&copy);
            }),
        ),
    ];
    let cases = calls.len();
    for (what, call) in &mut calls {
        probe(0, &mut region, call.as_mut());
        for hit in find(&region, &secrets) {
            lines.push(format!(
                "{instance:?} {what}: {} at depth {} B",
                hit.name, hit.depth
            ));
        }
    }
    (cases, lines)
}

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64", target_os = "wasi"))]
#[test]
fn no_secret_is_left_in_dead_stack() {
    let mut cases = 0;
    let mut failures = Vec::new();
    for (count, lines) in [
        check_instance::<Dumbo>(Instance::Dumbo, 1),
        check_instance::<Jumbo>(Instance::Jumbo, 2),
        check_instance::<Delirium>(Instance::Delirium, 3),
    ] {
        cases += count;
        failures.extend(lines);
    }
    // Multi-message calls: a short run, the small and the large wave
    // (mixed lengths), and calls whose packets all go in lockstep (a small
    // wave, a full one and many).
    for (count, lengths) in [
        (2, &MIXED[..]),
        (5, &MIXED),
        (300, &MIXED),
        (10, &ALL_LOCKSTEP),
        (16, &ALL_LOCKSTEP),
        (256, &ALL_LOCKSTEP),
        (4096, &ALL_LOCKSTEP),
    ] {
        failures.extend(check_batches::<Spongent160>(
            Instance::Dumbo,
            count,
            lengths,
        ));
        failures.extend(check_batches::<Spongent176>(
            Instance::Jumbo,
            count,
            lengths,
        ));
        failures.extend(check_batches::<Keccak200>(
            Instance::Delirium,
            count,
            lengths,
        ));
        cases += 6;
    }
    // Key setup and clone: the key expansion runs in a frame of its own,
    // cleared after it, and `new` wipes its working copy of `L`.
    for (count, lines) in [
        report_key_setup::<Dumbo>(Instance::Dumbo, 77),
        report_key_setup::<Jumbo>(Instance::Jumbo, 78),
        report_key_setup::<Delirium>(Instance::Delirium, 79),
    ] {
        cases += count;
        failures.extend(lines);
    }
    for line in &failures {
        println!("LEFT: {line}");
    }
    println!(
        "stack secrets: {cases} cases, {} secrets found",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} secrets left in dead stack",
        failures.len()
    );
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64", target_os = "wasi")))]
#[test]
fn no_secret_is_left_in_dead_stack() {
    println!("stack secrets: not probed on this architecture (x86-64, aarch64 and WASI only)");
}
