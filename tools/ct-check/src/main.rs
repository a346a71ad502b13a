//! Constant-time check under valgrind memcheck (the "ctgrind" technique).
//!
//! The key, the cipher (which holds the expanded key `L`), the plaintext and
//! the tag are marked *undefined* through valgrind client requests. Memcheck
//! then reports every conditional jump and every memory address computed from
//! them: exactly the secret-dependent branches and indices that a timing
//! attack could see. Public values (ciphertext after encryption, lengths) are
//! marked defined again where the protocol makes them public.
//!
//! The one secret-dependent branch that is allowed, whether the tag matched
//! (the caller learns it anyway), is listed in `tools/ct-check/verdict.supp`.
//!
//! Run: `bash tools/ct-check/run` (builds in release with debug info, runs
//! valgrind, fails on any report). Run directly outside valgrind, it refuses
//! to pass.

use core::arch::asm;
use core::ffi::c_void;
use elephant_aead::aead::{AeadInOut, KeyInit, Nonce, Tag};
use elephant_aead::batch::{self, Outcome, Packet};
use elephant_aead::{
    Delirium, Dumbo, Elephant, Jumbo, Keccak200, Permutation, Spongent160, Spongent176,
};
use std::process::ExitCode;

/// Memcheck's client requests: `VG_USERREQ_TOOL_BASE('M', 'C')` plus an index.
const MAKE_MEM_UNDEFINED: usize = 0x4d43_0001;
const MAKE_MEM_DEFINED: usize = 0x4d43_0002;
/// Valgrind's core request `RUNNING_ON_VALGRIND`.
const RUNNING_ON_VALGRIND: usize = 0x1001;

/// Issues a valgrind client request; outside valgrind it returns 0.
///
/// The instruction sequence is valgrind's documented "magic" preamble for
/// the target: four rotations of `rdi` (`edi` on 32-bit x86) that add up to
/// a whole turn (so the register is unchanged) followed by `xchg rbx, rbx`
/// (`ebx`); natively it does nothing, and under valgrind it performs the
/// request whose arguments `rax` (`eax`) points to, result in `rdx` (`edx`).
fn client_request(request: usize, arg1: usize, arg2: usize) -> usize {
    let args: [usize; 6] = [request, arg1, arg2, 0, 0, 0];
    let result: usize;
    // SAFETY: the sequence only rotates `rdi` back to its value and swaps
    // `rbx` with itself; `rax` points to `args`, which lives across the asm
    // and is only read; `rdx` is declared as the output. Valgrind, when
    // present, reads `args` and may change the definedness (not the bytes)
    // of the memory the request names, which belongs to the caller.
    #[cfg(target_arch = "x86_64")]
    unsafe {
        asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            in("rax") args.as_ptr(),
            inout("rdx") 0usize => result,
            inout("rdi") 0usize => _,
        );
    }
    // SAFETY: as above, with the 32-bit registers (valgrind's x86 preamble).
    #[cfg(target_arch = "x86")]
    unsafe {
        asm!(
            "rol edi, 3",
            "rol edi, 13",
            "rol edi, 29",
            "rol edi, 19",
            "xchg ebx, ebx",
            in("eax") args.as_ptr(),
            inout("edx") 0usize => result,
            inout("edi") 0usize => _,
        );
    }
    result
}

/// Marks the bytes of `value` as secret (undefined) for memcheck.
fn secret<T: ?Sized>(value: &T) {
    let ptr = (value as *const T).cast::<c_void>() as usize;
    client_request(MAKE_MEM_UNDEFINED, ptr, size_of_val(value));
}

/// Marks the bytes of `value` as public (defined) again.
fn public<T: ?Sized>(value: &T) {
    let ptr = (value as *const T).cast::<c_void>() as usize;
    client_request(MAKE_MEM_DEFINED, ptr, size_of_val(value));
}

/// Encrypts and decrypts (tag accepted, then rejected) with every secret
/// marked; returns how many cases ran.
fn check<C: AeadInOut + KeyInit>(message_lens: &[usize], ad_lens: &[usize]) -> usize {
    let mut cases = 0;
    for &ad_len in ad_lens {
        for &message_len in message_lens {
            let key = [0x5au8; 16];
            secret(&key);
            let cipher = C::new_from_slice(&key).map_err(|_| ()).ok();
            let Some(cipher) = cipher else { continue };
            secret(&cipher);
            let nonce = Nonce::<C>::default();
            let ad = vec![0x33u8; ad_len];
            let plaintext = vec![0xa7u8; message_len];
            let mut buffer = plaintext.clone();
            secret(buffer.as_slice());

            let sealed = cipher.encrypt_inout_detached(&nonce, &ad, buffer.as_mut_slice().into());
            public(&sealed);
            let Ok(tag) = sealed else { continue };
            // Ciphertext and tag go on the wire: public from here on.
            public(buffer.as_slice());
            public(&tag);

            // Accepted: the plaintext comes back (secret again).
            let opened =
                cipher.decrypt_inout_detached(&nonce, &ad, buffer.as_mut_slice().into(), &tag);
            public(&opened);
            public(buffer.as_slice());
            assert!(opened.is_ok() && buffer == plaintext);

            // Rejected: one flipped tag bit; the buffer must stay untouched.
            let mut forged = tag.clone();
            if let Some(byte) = forged.first_mut() {
                *byte ^= 1;
            }
            let mut ciphertext = buffer.clone();
            cipher
                .encrypt_inout_detached(&nonce, &ad, ciphertext.as_mut_slice().into())
                .map(|_| ())
                .unwrap_or(());
            public(ciphertext.as_slice());
            let before = ciphertext.clone();
            let rejected = cipher.decrypt_inout_detached(
                &nonce,
                &ad,
                ciphertext.as_mut_slice().into(),
                &Tag::<C>::try_from(forged.as_slice()).unwrap_or_default(),
            );
            public(&rejected);
            public(ciphertext.as_slice());
            assert!(rejected.is_err() && ciphertext == before);
            cases += 1;
        }
    }
    cases
}

/// The multi-message calls: a mix of packets (several keys, lengths and
/// AD lengths) sealed in one call, then opened in one call with some tags
/// wrong, every secret marked; returns how many packets ran.
fn check_batch<P: Permutation>(count: usize) -> usize {
    let lengths = [0usize, 16, 100, 1500, 21];
    let keys: Vec<[u8; 16]> = (0..count).map(|i| [0x5a ^ (i as u8); 16]).collect();
    for key in &keys {
        secret(key);
    }
    let ciphers: Vec<Elephant<P>> = keys
        .iter()
        .map(|key| Elephant::<P>::new(&(*key).into()))
        .collect();
    for cipher in &ciphers {
        secret(cipher);
    }
    let nonces: Vec<Nonce<Elephant<P>>> = (0..count)
        .map(|i| Nonce::<Elephant<P>>::from([i as u8; 12]))
        .collect();
    let ads: Vec<Vec<u8>> = (0..count).map(|i| vec![0x33; 5 * (i % 2)]).collect();
    let plaintexts: Vec<Vec<u8>> = (0..count)
        .map(|i| vec![0xa7 ^ (i as u8); lengths[i % lengths.len()]])
        .collect();
    let mut buffers = plaintexts.clone();
    for buffer in &buffers {
        secret(buffer.as_slice());
    }
    let mut tags = vec![Tag::<Elephant<P>>::default(); count];
    let mut list = packets(&ciphers, &nonces, &ads, &mut buffers, &mut tags);
    let sealed = batch::seal(&mut list);
    public(&sealed);
    assert!(sealed.is_ok());
    drop(list);
    // Ciphertexts and tags go on the wire: public from here on.
    for (buffer, tag) in buffers.iter().zip(&tags) {
        public(buffer.as_slice());
        public(tag);
    }
    let ciphertexts = buffers.clone();

    // Every third tag wrong: those packets are rejected, the others opened.
    for tag in tags.iter_mut().step_by(3) {
        tag[0] ^= 1;
    }
    let mut list = packets(&ciphers, &nonces, &ads, &mut buffers, &mut tags);
    let mut opened = batch::open(&mut list);
    public(&opened);
    // Read back from the memory just marked public: the compiler may
    // otherwise keep the call's result in a register, which the marking
    // does not reach (whether it does depends on inlining).
    std::hint::black_box(&mut opened);
    let outcomes: Vec<bool> = list
        .iter()
        .map(|packet| packet.outcome() == Outcome::Done)
        .collect();
    public(outcomes.as_slice());
    drop(list);
    assert!(opened.is_err());
    for (i, buffer) in buffers.iter().enumerate() {
        public(buffer.as_slice());
        let expected = if i % 3 == 0 {
            &ciphertexts[i]
        } else {
            &plaintexts[i]
        };
        assert!(outcomes[i] == (i % 3 != 0) && buffer == expected);
    }
    count
}

/// The packets of one multi-message call.
fn packets<'a, P: Permutation>(
    ciphers: &'a [Elephant<P>],
    nonces: &'a [Nonce<Elephant<P>>],
    ads: &'a [Vec<u8>],
    buffers: &'a mut [Vec<u8>],
    tags: &'a mut [Tag<Elephant<P>>],
) -> Vec<Packet<'a, Elephant<P>>> {
    ciphers
        .iter()
        .zip(nonces)
        .zip(ads)
        .zip(buffers.iter_mut().zip(tags.iter_mut()))
        .map(|(((cipher, nonce), ad), (buffer, tag))| Packet::new(cipher, nonce, ad, buffer, tag))
        .collect()
}

/// A deliberate leak: branches on a secret byte. `bash tools/ct-check/run`
/// expects memcheck to report it, which shows that the marking above really
/// works.
fn leak_on_purpose() {
    let key = [0x5au8; 16];
    secret(&key);
    let branch_taken = std::hint::black_box(key[0]) & 1 == 1;
    if branch_taken {
        println!("self-test: branched on a secret (memcheck must report this)");
    } else {
        println!("self-test: branched on a secret (memcheck must report this).");
    }
}

fn main() -> ExitCode {
    if client_request(RUNNING_ON_VALGRIND, 0, 0) == 0 {
        eprintln!("ct-check must run under valgrind: bash tools/ct-check/run");
        return ExitCode::FAILURE;
    }
    if std::env::args().nth(1).as_deref() == Some("--self-test") {
        leak_on_purpose();
        return ExitCode::SUCCESS;
    }
    // What this build runs, so that the report says which paths it checked.
    let mode = if cfg!(target_pointer_width = "64") {
        "64-bit mode (runs of blocks)"
    } else {
        "32-bit mode (one block at a time, as firmware)"
    };
    let mut paths = vec![
        mode.to_string(),
        format!(
            "Spongent-π kernels: {}, {} (256 blocks)",
            Spongent160::kernels_for(1),
            Spongent160::kernels_for(256)
        ),
        format!(
            "Keccak-f[200] kernels: {}, {} (256 blocks)",
            Keccak200::kernels_for(1),
            Keccak200::kernels_for(256)
        ),
    ];
    // Short messages (single-block paths), runs around every batch width,
    // and long messages that fill several full runs of the mode; with
    // `rayon`, messages long enough to be split across cores.
    let mut message_lens = vec![0, 1, 16, 20, 100, 557, 1500, 5200, 16384];
    if cfg!(feature = "rayon") {
        message_lens.extend([70_000, 200_000]);
        paths.push("rayon (messages of 64 KiB and more on all cores)".to_string());
    }
    println!("ct-check: paths: {}", paths.join("; "));
    if let Some(required) = std::env::args()
        .nth(1)
        .filter(|arg| arg == "--require-pext")
    {
        if Spongent160::kernels_for(1) != "pext" {
            eprintln!("ct-check: {required}: this CPU does not reach the pext kernel");
            return ExitCode::FAILURE;
        }
    }
    let ad_lens = [0, 5, 32, 600];
    let cases = check::<Dumbo>(&message_lens, &ad_lens)
        + check::<Jumbo>(&message_lens, &ad_lens)
        + check::<Delirium>(&message_lens, &ad_lens);
    println!("ct-check: {cases} encrypt/decrypt/reject cases ran with secrets marked undefined");
    // The multi-message calls, in the small (up to 16) and the large wave.
    let mut packets = 0;
    for count in [7, 40] {
        packets += check_batch::<Spongent160>(count)
            + check_batch::<Spongent176>(count)
            + check_batch::<Keccak200>(count);
    }
    println!("ct-check: {packets} packets sealed and opened in multi-message calls");
    ExitCode::SUCCESS
}
