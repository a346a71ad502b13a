//! The one-screen answer: Dumbo, Jumbo, Delirium, ChaCha20-Poly1305,
//! Ascon-AEAD128 and AES-128-GCM sealing 16, 1500 and 16384 B messages
//! (5 B of associated data), with the time per call, the throughput and
//! the speed relative to ChaCha20-Poly1305, and the kernels each Elephant
//! instance runs on this CPU; then many messages: 256 packets of 16 B,
//! each with its own key, sealed by one `batch::seal` call per Elephant
//! instance and one call per packet for the others, per packet against
//! ChaCha20-Poly1305 and Ascon-AEAD128.
//!
//! Run with `cargo bench --bench summary` (a few seconds after the build).
//!
//! Method: for each message size, rounds in which every cipher in turn
//! times a few runs of enough calls to last about half a millisecond and
//! keeps its fastest (a run the scheduler interrupted is slower, never
//! faster). Each figure is the median over the rounds, and the ratio is
//! the median of the per-round ratios (ChaCha20-Poly1305's time over the
//! cipher's: above 1 is faster): the ciphers of one round see the same
//! machine, so the ratio holds on a busy one too. The full criterion suite
//! is `cargo bench -p elephant-aead-benches` (`benches/criterion`).

use aes_gcm::Aes128Gcm;
use ascon_aead::AsconAead128;
use chacha20poly1305::ChaCha20Poly1305;
use elephant_aead::aead::{AeadInOut, KeyInit, Nonce};
use elephant_aead::{
    Delirium, Dumbo, Elephant, Jumbo, Keccak200, Permutation, Spongent160, Spongent176, batch,
};
use std::hint::black_box;
use std::time::{Duration, Instant};

mod packets;
use packets::{Packets, filler};

/// Message sizes: a short sensor reading, an Ethernet frame, a large record.
const SIZES: [usize; 3] = [16, 1500, 16384];
/// Associated data per message.
const AD: usize = 5;
/// Rounds per size; every figure is a median over them.
const ROUNDS: usize = 31;
/// Runs per cipher and round, of which the fastest counts.
const RUNS: usize = 5;
/// Target duration of one run.
const RUN: Duration = Duration::from_micros(500);
/// Many messages: packets per call and bytes per packet.
const PACKETS: usize = 256;
const PACKET: usize = 16;

/// One cipher, ready to seal a message of a given size.
struct Contender {
    name: &'static str,
    kernels: String,
    /// Seals the message `calls` times; returns the time taken.
    run: Box<dyn FnMut(u64) -> Duration>,
}

/// `C` sealing `size` bytes with [`AD`] bytes of associated data, in place.
fn contender<C: AeadInOut + KeyInit + 'static>(
    name: &'static str,
    kernels: String,
    size: usize,
) -> Contender {
    let cipher = C::new_from_slice(&filler(C::key_size(), 1)).unwrap();
    let nonce = Nonce::<C>::try_from(&filler(Nonce::<C>::default().len(), 2)[..]).unwrap();
    let ad = filler(AD, 3);
    let mut buffer = filler(size, 4);
    Contender {
        name,
        kernels,
        run: Box::new(move |calls| {
            let start = Instant::now();
            for _ in 0..calls {
                let tag = cipher
                    .encrypt_inout_detached(&nonce, &ad, black_box(&mut buffer[..]).into())
                    .unwrap();
                black_box(tag);
            }
            start.elapsed()
        }),
    }
}

/// `C` sealing [`PACKETS`] packets of [`PACKET`] bytes one call each.
fn one_at_a_time<C: AeadInOut + KeyInit + 'static>(name: &'static str) -> Contender {
    let mut packets = Packets::<C>::new(PACKETS, PACKET);
    Contender {
        name,
        kernels: "its crate's choice".to_string(),
        run: Box::new(move |calls| {
            let start = Instant::now();
            for _ in 0..calls {
                packets.seal_one_at_a_time();
                black_box(&mut packets);
            }
            start.elapsed()
        }),
    }
}

/// An Elephant instance sealing the packets in one `batch::seal` call,
/// the list of packets built in the timed part (as a user's call does).
fn batched<P: Permutation + 'static>(name: &'static str) -> Contender {
    let mut packets = Packets::<Elephant<P>>::new(PACKETS, PACKET);
    Contender {
        name,
        // A lockstep stage queues a block of every packet.
        kernels: format!("{}, {}", P::kernels_for(1), P::kernels_for(PACKETS)),
        run: Box::new(move |calls| {
            let start = Instant::now();
            for _ in 0..calls {
                let mut list = packets.list();
                batch::seal(black_box(&mut list)).unwrap();
            }
            start.elapsed()
        }),
    }
}

/// The kernels sealing `size` bytes with `P` runs on this CPU, as
/// "single state, batch": the batch kernel is the one of the call's
/// longest batch.
fn kernels<P: Permutation>(size: usize) -> String {
    let longest = elephant_aead::longest_batch::<P>(true, AD, size);
    format!("{}, {}", P::kernels_for(1), P::kernels_for(longest))
}

/// The contenders at `size`, ChaCha20-Poly1305 first (the reference).
fn contenders(size: usize) -> Vec<Contender> {
    let theirs = || "its crate's choice".to_string();
    vec![
        contender::<ChaCha20Poly1305>("ChaCha20-Poly1305", theirs(), size),
        contender::<Dumbo>("Dumbo", kernels::<Spongent160>(size), size),
        contender::<Jumbo>("Jumbo", kernels::<Spongent176>(size), size),
        contender::<Delirium>("Delirium", kernels::<Keccak200>(size), size),
        contender::<AsconAead128>("Ascon-AEAD128", theirs(), size),
        contender::<Aes128Gcm>("AES-128-GCM", theirs(), size),
    ]
}

/// Calls per run for a contender: about [`RUN`] long.
fn calibrate(contender: &mut Contender) -> u64 {
    (contender.run)(16); // Warm-up: caches, CPU detection, frequency.
    let mut calls = 1;
    loop {
        if (contender.run)(calls) >= RUN / 8 {
            let per_call = fastest(contender, calls);
            return ((RUN.as_secs_f64() * 1e9 / per_call) as u64).max(1);
        }
        calls *= 4;
    }
}

/// Nanoseconds per call: the fastest of [`RUNS`] runs of `calls` calls.
fn fastest(contender: &mut Contender, calls: u64) -> f64 {
    (0..RUNS)
        .map(|_| (contender.run)(calls).as_secs_f64() * 1e9 / calls as f64)
        .fold(f64::INFINITY, f64::min)
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Interleaved rounds over `contenders`: each one's median time per call
/// and, for each reference index in `references`, the median of the
/// per-round ratios (the reference's time over the contender's).
fn measure(contenders: &mut [Contender], references: &[usize]) -> Vec<(f64, Vec<f64>)> {
    let calls: Vec<u64> = contenders.iter_mut().map(calibrate).collect();
    let mut nanos = vec![Vec::with_capacity(ROUNDS); contenders.len()];
    let mut ratios = vec![vec![Vec::with_capacity(ROUNDS); references.len()]; contenders.len()];
    for _ in 0..ROUNDS {
        let per_call: Vec<f64> = contenders
            .iter_mut()
            .zip(&calls)
            .map(|(contender, &calls)| fastest(contender, calls))
            .collect();
        for (i, &ns) in per_call.iter().enumerate() {
            nanos[i].push(ns);
            for (r, &reference) in references.iter().enumerate() {
                ratios[i][r].push(per_call[reference] / ns);
            }
        }
    }
    nanos
        .iter_mut()
        .zip(&mut ratios)
        .map(|(nanos, ratios)| {
            (
                median(nanos),
                ratios.iter_mut().map(|r| median(r)).collect(),
            )
        })
        .collect()
}

fn main() {
    // `cargo bench` passes `--bench` and the filter, if any: a filter for
    // other benchmarks skips the table.
    let mut filters = std::env::args().skip(1).filter(|arg| !arg.starts_with('-'));
    if filters
        .next()
        .is_some_and(|filter| !"summary".contains(&filter))
    {
        return;
    }
    let started = Instant::now();
    println!(
        "Sealing (encrypt + tag), {AD} B of associated data; median of {ROUNDS} \
         interleaved rounds, each the fastest of {RUNS} runs.\n\"vs ChaCha\": ChaCha20-Poly1305's time over the \
         cipher's, per round, median (above 1 is faster).\n"
    );
    println!(
        "{:>7}  {:<18} {:>11} {:>11} {:>9}  kernels (single, batch)",
        "size", "cipher", "ns/call", "MB/s", "vs ChaCha"
    );
    for size in SIZES {
        let mut contenders = contenders(size);
        let results = measure(&mut contenders, &[0]);
        for (contender, (ns, ratios)) in contenders.iter().zip(results) {
            // Bytes per nanosecond = GB/s; times 1000 for MB/s.
            let throughput = size as f64 / ns * 1e3;
            println!(
                "{size:>6} B  {:<18} {ns:>11.1} {throughput:>11.1} {:>9.3}  {}",
                contender.name, ratios[0], contender.kernels
            );
        }
        println!();
    }
    println!(
        "Many messages: {PACKETS} packets of {PACKET} B, each with its own key; the \
         Elephants in one batch::seal call,\nthe others one call per packet. Per packet; \
         \"vs\" as above.\n"
    );
    println!(
        "{:>7}  {:<18} {:>11} {:>9} {:>9}  kernels (single, batch)",
        "packets", "cipher", "ns/packet", "vs ChaCha", "vs Ascon"
    );
    let mut contenders = vec![
        one_at_a_time::<ChaCha20Poly1305>("ChaCha20-Poly1305"),
        batched::<Spongent160>("Dumbo"),
        batched::<Spongent176>("Jumbo"),
        batched::<Keccak200>("Delirium"),
        one_at_a_time::<AsconAead128>("Ascon-AEAD128"),
    ];
    let results = measure(&mut contenders, &[0, 4]);
    for (contender, (ns, ratios)) in contenders.iter().zip(results) {
        println!(
            "{PACKETS:>4}×{PACKET:<2}  {:<18} {:>11.1} {:>9.3} {:>9.3}  {}",
            contender.name,
            ns / PACKETS as f64,
            ratios[0],
            ratios[1],
            contender.kernels
        );
    }
    println!();
    println!(
        "MB = 10^6 bytes. The peers pick their own backends (this CPU: {}). \
         Took {:.1} s.",
        cpu_features(),
        started.elapsed().as_secs_f64()
    );
}

/// The CPU features the peers' backends look for, as this CPU reports them.
fn cpu_features() -> String {
    #[cfg(target_arch = "x86_64")]
    {
        let features = [
            ("avx2", std::arch::is_x86_feature_detected!("avx2")),
            ("avx512f", std::arch::is_x86_feature_detected!("avx512f")),
            ("aes", std::arch::is_x86_feature_detected!("aes")),
            (
                "pclmulqdq",
                std::arch::is_x86_feature_detected!("pclmulqdq"),
            ),
        ];
        let present: Vec<&str> = features
            .iter()
            .filter(|(_, present)| *present)
            .map(|(name, _)| *name)
            .collect();
        if present.is_empty() {
            "none of avx2, avx512f, aes, pclmulqdq".to_owned()
        } else {
            present.join(", ")
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        std::env::consts::ARCH.to_owned()
    }
}
