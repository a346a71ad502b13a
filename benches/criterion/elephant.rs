//! Criterion benchmarks: the three permutations, then encryption and
//! decryption with Dumbo, Jumbo and Delirium next to ChaCha20-Poly1305,
//! AES-128-GCM and Ascon-AEAD128 in the same groups, so every run shows the
//! ratios on the machine at hand.
//!
//! Sizes: the seed library's (32 B of AD; 64, 256, 1024 and 4096 B messages)
//! and the real-world sizes of the CAESAR software benchmarking study (5 B of
//! AD; 1, 16, 557, 1500 and 16384 B and 1 MiB messages).
//!
//! Then many messages, each with its own key, in one multi-message call
//! (`batch::seal`, `batch::open`) against the other ciphers one at a time.
//!
//! A package of its own (criterion is its dependency, not the library's).
//! Run everything with `cargo bench -p elephant-aead-benches` (about 7
//! minutes); one group with its name as the filter, e.g.
//! `cargo bench -p elephant-aead-benches -- "encrypt AD 5 B"` (the groups:
//! `permutation`, `encrypt AD 5 B`, `decrypt AD 5 B`, `encrypt AD 32 B`,
//! `decrypt AD 32 B`, `many messages/16 B`, `many messages/64 B`,
//! `many messages/1500 B`, `many messages open/16 B`), or a part of one,
//! e.g. `cargo bench -p elephant-aead-benches -- "AD 5 B/.*/1500$"`. The
//! quick table is `cargo bench --bench summary`.

// Benchmarks fail by panicking, like tests; filler bytes truncate on purpose;
// criterion's macros generate undocumented functions.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::cast_possible_truncation,
    missing_docs
)]

use aes_gcm::Aes128Gcm;
use ascon_aead::AsconAead128;
use chacha20poly1305::ChaCha20Poly1305;
use criterion::measurement::WallTime;
use criterion::{
    BenchmarkGroup, BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group,
    criterion_main,
};
use elephant_aead::aead::inout::InOutBuf;
use elephant_aead::aead::{AeadInOut, KeyInit, Nonce};
use elephant_aead::permutation::{keccak_f200, spongent_pi_160, spongent_pi_176};
use elephant_aead::{
    Delirium, Dumbo, Jumbo, Keccak200, Permutation, Spongent160, Spongent176, batch,
};
use std::hint::black_box;
use std::time::Duration;

#[path = "../packets/mod.rs"]
mod packets;
use packets::{Packets, filler};

/// The seed library's benchmark: 32 B of AD.
const SEED_AD: usize = 32;
const SEED_SIZES: [usize; 4] = [64, 256, 1024, 4096];

/// The CAESAR study's real-world sizes: 5 B of AD.
const REAL_WORLD_AD: usize = 5;
const REAL_WORLD_SIZES: [usize; 6] = [1, 16, 557, 1500, 16384, 1 << 20];

/// Blocks per batched permutation call in the permutation benchmarks: one
/// full run of the mode.
const BATCH: usize = 256;

/// Batch lengths for the Spongent tier benchmarks: the mode's short
/// messages (1–4 blocks), medium runs, and a full run.
const SPONGENT_BATCH_LENGTHS: [usize; 10] = [1, 2, 4, 16, 32, 64, 75, 128, 256, 512];

/// Keeps criterion's own overhead small: the groups are many, and the
/// ratios between neighbours in one run are what is reported.
fn configure(group: &mut BenchmarkGroup<'_, WallTime>) {
    group
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(20)
        .sampling_mode(SamplingMode::Linear);
}

/// For the benchmarks that follow in `group`: [`configure`], or for long
/// iterations (`bytes` per iteration in `calls` calls: a 1 MiB message,
/// thousands of packets), ten samples of equal iteration counts in 5 s,
/// which fit where the 210 iterations of twenty linearly growing samples
/// would not (criterion's "Unable to complete" warning): 4096 packets of
/// 1500 B one at a time take up to about 0.4 s an iteration.
fn configure_for(group: &mut BenchmarkGroup<'_, WallTime>, bytes: usize, calls: usize) {
    configure(group);
    if bytes >= 1 << 18 || calls >= 4096 {
        group
            .sampling_mode(SamplingMode::Flat)
            .sample_size(10)
            .measurement_time(Duration::from_secs(5));
    }
}

fn permutations(c: &mut Criterion) {
    fn single<P: Permutation>(group: &mut BenchmarkGroup<'_, WallTime>, name: &str) {
        group.throughput(Throughput::Bytes(P::BLOCK_SIZE as u64));
        let mut block = P::Block::default();
        group.bench_function(BenchmarkId::new(name, "single"), |b| {
            b.iter(|| P::permute(black_box(&mut block)));
        });
        group.throughput(Throughput::Bytes((P::BLOCK_SIZE * BATCH) as u64));
        let mut blocks = vec![P::Block::default(); BATCH];
        group.bench_function(BenchmarkId::new(name, format!("batch of {BATCH}")), |b| {
            b.iter(|| P::permute_batch(black_box(&mut blocks)));
        });
    }

    fn spongent_batch_lengths<P: Permutation>(
        group: &mut BenchmarkGroup<'_, WallTime>,
        name: &str,
    ) {
        for len in SPONGENT_BATCH_LENGTHS {
            group.throughput(Throughput::Bytes((P::BLOCK_SIZE * len) as u64));
            let mut blocks = vec![P::Block::default(); len];
            group.bench_function(BenchmarkId::new(name, format!("batch {len}")), |b| {
                b.iter(|| P::permute_batch(black_box(&mut blocks)));
            });
        }
    }

    /// Every Spongent tier on its own (built with
    /// `RUSTFLAGS="--cfg elephant_bench_tiers"`), at the same lengths.
    #[cfg(elephant_bench_tiers)]
    fn spongent_tiers<const N: usize>(
        group: &mut BenchmarkGroup<'_, WallTime>,
        name: &str,
        tiers: &[(&'static str, fn(&mut [[u8; N]]))],
    ) {
        for len in SPONGENT_BATCH_LENGTHS {
            group.throughput(Throughput::Bytes((N * len) as u64));
            let mut blocks = vec![[0x5a_u8; N]; len];
            for (tier, run) in tiers {
                let id = BenchmarkId::new(format!("{name} tier {tier}"), len);
                group.bench_function(id, |b| b.iter(|| run(black_box(&mut blocks))));
            }
        }
    }

    let mut group = c.benchmark_group("permutation");
    configure(&mut group);
    single::<Spongent160>(&mut group, "Spongent-pi[160]");
    single::<Spongent176>(&mut group, "Spongent-pi[176]");
    single::<Keccak200>(&mut group, "Keccak-f[200]");

    // Batch lengths across the tier crossovers of the Spongent backends
    // (planes, 64-wide, 256-wide): the numbers behind the tier choice.
    spongent_batch_lengths::<Spongent160>(&mut group, "Spongent-pi[160]");
    spongent_batch_lengths::<Spongent176>(&mut group, "Spongent-pi[176]");
    #[cfg(elephant_bench_tiers)]
    {
        use elephant_aead::permutation::spongent_batch_tiers::{ALL_160, ALL_176};
        spongent_tiers(&mut group, "Spongent-pi[160]", ALL_160);
        spongent_tiers(&mut group, "Spongent-pi[176]", ALL_176);
    }

    // The const fns themselves, which every backend is checked against.
    group.throughput(Throughput::Bytes(20));
    group.bench_function(BenchmarkId::new("Spongent-pi[160]", "const fn"), |b| {
        b.iter(|| spongent_pi_160(black_box([0; 20])));
    });
    group.throughput(Throughput::Bytes(22));
    group.bench_function(BenchmarkId::new("Spongent-pi[176]", "const fn"), |b| {
        b.iter(|| spongent_pi_176(black_box([0; 22])));
    });
    group.throughput(Throughput::Bytes(25));
    group.bench_function(BenchmarkId::new("Keccak-f[200]", "const fn"), |b| {
        b.iter(|| keccak_f200(black_box([0; 25])));
    });
    group.finish();
}

/// Batch lengths for the Keccak tier benchmarks: the short runs of short
/// messages, the backend widths, and a full run of the mode.
const KECCAK_BATCH_LENGTHS: [usize; 11] = [1, 2, 4, 8, 16, 32, 33, 60, 64, 128, 256];

/// Keccak-f\[200\] batches of each length, through the dispatcher and (when
/// built with `RUSTFLAGS="--cfg elephant_bench_tiers"`) through every tier on
/// its own, so the tier crossovers in `keccak_batch` are backed by numbers.
fn keccak_batches(c: &mut Criterion) {
    let mut group = c.benchmark_group("permutation");
    configure(&mut group);
    for len in KECCAK_BATCH_LENGTHS {
        let mut blocks = vec![[0x5a_u8; 25]; len];
        group.throughput(Throughput::Bytes((25 * len) as u64));
        group.bench_function(BenchmarkId::new("Keccak-f[200] batch", len), |b| {
            b.iter(|| Keccak200::permute_batch(black_box(&mut blocks)));
        });
        #[cfg(elephant_bench_tiers)]
        for (tier, run) in elephant_aead::permutation::keccak_batch_tiers::ALL {
            let name = format!("Keccak-f[200] tier {tier}");
            group.bench_function(BenchmarkId::new(name, len), |b| {
                b.iter(|| run(black_box(&mut blocks)));
            });
        }
    }
    group.finish();
}

/// Encryption of `size` bytes with `ad_len` bytes of AD, in place.
fn encrypt<C: AeadInOut + KeyInit>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    size: usize,
    ad_len: usize,
) {
    let cipher = C::new_from_slice(&filler(C::key_size(), 1)).unwrap();
    let mut nonce = Nonce::<C>::default();
    let nonce_bytes = filler(nonce.len(), 2);
    nonce.copy_from_slice(&nonce_bytes);
    let ad = filler(ad_len, 3);
    let mut buffer = filler(size, 4);
    group.throughput(Throughput::Bytes(size as u64));
    group.bench_function(BenchmarkId::new(name, size), |b| {
        b.iter(|| {
            cipher
                .encrypt_inout_detached(&nonce, &ad, InOutBuf::from(black_box(&mut buffer[..])))
                .unwrap()
        });
    });
}

/// Decryption (verification included) of `size` bytes with `ad_len` bytes
/// of AD, in place; each iteration restores the ciphertext first, which
/// costs every cipher the same copy.
fn decrypt<C: AeadInOut + KeyInit>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    size: usize,
    ad_len: usize,
) {
    let cipher = C::new_from_slice(&filler(C::key_size(), 1)).unwrap();
    let mut nonce = Nonce::<C>::default();
    let nonce_bytes = filler(nonce.len(), 2);
    nonce.copy_from_slice(&nonce_bytes);
    let ad = filler(ad_len, 3);
    let mut ciphertext = filler(size, 4);
    let tag = cipher
        .encrypt_inout_detached(&nonce, &ad, InOutBuf::from(&mut ciphertext[..]))
        .unwrap();
    let mut buffer = ciphertext.clone();
    group.throughput(Throughput::Bytes(size as u64));
    group.bench_function(BenchmarkId::new(name, size), |b| {
        b.iter(|| {
            buffer.copy_from_slice(&ciphertext);
            cipher
                .decrypt_inout_detached(
                    &nonce,
                    &ad,
                    InOutBuf::from(black_box(&mut buffer[..])),
                    &tag,
                )
                .unwrap();
        });
    });
}

/// One group per direction and AD size, every cipher at every message size.
fn aead_group(c: &mut Criterion, title: &str, ad_len: usize, sizes: &[usize]) {
    type Run = fn(&mut BenchmarkGroup<'_, WallTime>, &str, usize, usize);
    let directions: [(&str, [Run; 6]); 2] = [
        (
            "encrypt",
            [
                encrypt::<Dumbo>,
                encrypt::<Jumbo>,
                encrypt::<Delirium>,
                encrypt::<ChaCha20Poly1305>,
                encrypt::<Aes128Gcm>,
                encrypt::<AsconAead128>,
            ],
        ),
        (
            "decrypt",
            [
                decrypt::<Dumbo>,
                decrypt::<Jumbo>,
                decrypt::<Delirium>,
                decrypt::<ChaCha20Poly1305>,
                decrypt::<Aes128Gcm>,
                decrypt::<AsconAead128>,
            ],
        ),
    ];
    let names = [
        "Dumbo",
        "Jumbo",
        "Delirium",
        "ChaCha20Poly1305",
        "AES-128-GCM",
        "Ascon-AEAD128",
    ];
    for (direction, runs) in directions {
        let mut group = c.benchmark_group(format!("{direction} {title}"));
        configure(&mut group);
        for &size in sizes {
            configure_for(&mut group, size, 1);
            for (run, name) in runs.iter().zip(names) {
                run(&mut group, name, size, ad_len);
            }
        }
        group.finish();
    }
}

fn seed_sizes(c: &mut Criterion) {
    aead_group(c, &format!("AD {SEED_AD} B"), SEED_AD, &SEED_SIZES);
}

fn real_world_sizes(c: &mut Criterion) {
    aead_group(
        c,
        &format!("AD {REAL_WORLD_AD} B"),
        REAL_WORLD_AD,
        &REAL_WORLD_SIZES,
    );
}

/// Packet sizes and batch sizes of the multi-message benchmarks (5 B AD).
const MANY_SIZES: [usize; 3] = [16, 64, 1500];
const MANY_COUNTS: [usize; 4] = [1, 16, 256, 4096];

/// Many packets, each with its own key: `batch::seal` for the Elephants
/// against ChaCha20-Poly1305, Ascon-AEAD128 and Elephant's own
/// single-message call, each packet on its own; then `batch::open`.
/// Throughput is the packets' bytes, so per-packet time is the reported
/// time over the count (the BenchmarkId's parameter).
fn many_messages(c: &mut Criterion) {
    fn batch_seal<P: Permutation>(
        group: &mut BenchmarkGroup<'_, WallTime>,
        name: &str,
        count: usize,
        size: usize,
    ) {
        let mut packets = Packets::<elephant_aead::Elephant<P>>::new(count, size);
        group.bench_function(BenchmarkId::new(name, count), |b| {
            b.iter(|| {
                // Building the list is part of the call a user makes.
                let mut list = packets.list();
                batch::seal(black_box(&mut list)).unwrap();
            });
        });
    }
    fn one_at_a_time<C: KeyInit + AeadInOut>(
        group: &mut BenchmarkGroup<'_, WallTime>,
        name: &str,
        count: usize,
        size: usize,
    ) {
        let mut packets = Packets::<C>::new(count, size);
        group.bench_function(BenchmarkId::new(name, count), |b| {
            b.iter(|| packets.seal_one_at_a_time());
        });
    }
    fn batch_open<P: Permutation>(
        group: &mut BenchmarkGroup<'_, WallTime>,
        name: &str,
        count: usize,
        size: usize,
    ) {
        let mut packets = Packets::<elephant_aead::Elephant<P>>::new(count, size);
        let mut list = packets.list();
        batch::seal(&mut list).unwrap();
        drop(list);
        let sealed = packets.buffers.clone();
        group.bench_function(BenchmarkId::new(name, count), |b| {
            b.iter(|| {
                // Restoring the ciphertexts (a copy of count × size bytes)
                // is timed too; it is small next to the opening.
                for (buffer, ciphertext) in packets.buffers.iter_mut().zip(&sealed) {
                    buffer.copy_from_slice(ciphertext);
                }
                let mut list = packets.list();
                batch::open(black_box(&mut list)).unwrap();
            });
        });
    }

    for size in MANY_SIZES {
        let mut group = c.benchmark_group(format!("many messages/{size} B"));
        configure(&mut group);
        for count in MANY_COUNTS {
            configure_for(&mut group, count * size, count);
            group.throughput(Throughput::Bytes((count * size) as u64));
            batch_seal::<Spongent160>(&mut group, "Dumbo", count, size);
            batch_seal::<Spongent176>(&mut group, "Jumbo", count, size);
            batch_seal::<Keccak200>(&mut group, "Delirium", count, size);
            one_at_a_time::<AsconAead128>(&mut group, "Ascon-AEAD128", count, size);
            one_at_a_time::<ChaCha20Poly1305>(&mut group, "ChaCha20Poly1305", count, size);
            one_at_a_time::<Dumbo>(&mut group, "Dumbo one at a time", count, size);
        }
        group.finish();
    }
    let mut group = c.benchmark_group("many messages open/16 B");
    configure(&mut group);
    for count in [256, 4096] {
        configure_for(&mut group, count * 16, count);
        group.throughput(Throughput::Bytes((count * 16) as u64));
        batch_open::<Spongent160>(&mut group, "Dumbo", count, 16);
        batch_open::<Spongent176>(&mut group, "Jumbo", count, 16);
        batch_open::<Keccak200>(&mut group, "Delirium", count, 16);
    }
    group.finish();
}

criterion_group!(
    benches,
    permutations,
    keccak_batches,
    real_world_sizes,
    seed_sizes,
    many_messages
);
criterion_main!(benches);
