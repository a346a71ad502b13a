/work/main/.ci/inline-probe/target/debug/deps/elephant_aead-2b3af6998d8c5fa0.d: /work/main/src/lib.rs /work/main/src/batch.rs /work/main/src/permutation.rs /work/main/src/permutation/cpu.rs /work/main/src/permutation/keccak.rs /work/main/src/permutation/keccak/backends.rs /work/main/src/permutation/keccak/backends/avx2.rs /work/main/src/permutation/keccak/backends/soft64.rs /work/main/src/permutation/keccak/round.rs /work/main/src/permutation/spongent.rs /work/main/src/permutation/spongent/backends.rs /work/main/src/permutation/spongent/backends/avx2.rs /work/main/src/permutation/spongent/backends/avx2/medium.rs /work/main/src/permutation/spongent/backends/pext.rs /work/main/src/permutation/spongent/backends/soft32.rs /work/main/src/permutation/spongent/backends/soft64.rs /work/main/src/permutation/spongent/sbox.rs /work/main/src/mode.rs /work/main/src/mode/call.rs /work/main/src/mode/data.rs /work/main/src/mode/keystream.rs /work/main/src/mode/limits.rs /work/main/src/mode/lockstep.rs /work/main/src/mode/masks.rs /work/main/src/mode/plan.rs /work/main/src/mode/run.rs /work/main/src/mode/schedule.rs /work/main/src/mode/tag.rs /work/main/src/mode/xor.rs /work/main/src/scrub.rs /work/main/src/permutation/avx512.rs /work/main/src/permutation/keccak/backends/avx512.rs /work/main/src/permutation/keccak/backends/avx512_one.rs /work/main/src/permutation/spongent/backends/avx512.rs /work/main/src/permutation/spongent/backends/avx512/medium.rs /work/main/src/permutation/spongent/backends/avx512/columns.rs /work/main/src/mode/xor/avx512.rs

/work/main/.ci/inline-probe/target/debug/deps/libelephant_aead-2b3af6998d8c5fa0.rmeta: /work/main/src/lib.rs /work/main/src/batch.rs /work/main/src/permutation.rs /work/main/src/permutation/cpu.rs /work/main/src/permutation/keccak.rs /work/main/src/permutation/keccak/backends.rs /work/main/src/permutation/keccak/backends/avx2.rs /work/main/src/permutation/keccak/backends/soft64.rs /work/main/src/permutation/keccak/round.rs /work/main/src/permutation/spongent.rs /work/main/src/permutation/spongent/backends.rs /work/main/src/permutation/spongent/backends/avx2.rs /work/main/src/permutation/spongent/backends/avx2/medium.rs /work/main/src/permutation/spongent/backends/pext.rs /work/main/src/permutation/spongent/backends/soft32.rs /work/main/src/permutation/spongent/backends/soft64.rs /work/main/src/permutation/spongent/sbox.rs /work/main/src/mode.rs /work/main/src/mode/call.rs /work/main/src/mode/data.rs /work/main/src/mode/keystream.rs /work/main/src/mode/limits.rs /work/main/src/mode/lockstep.rs /work/main/src/mode/masks.rs /work/main/src/mode/plan.rs /work/main/src/mode/run.rs /work/main/src/mode/schedule.rs /work/main/src/mode/tag.rs /work/main/src/mode/xor.rs /work/main/src/scrub.rs /work/main/src/permutation/avx512.rs /work/main/src/permutation/keccak/backends/avx512.rs /work/main/src/permutation/keccak/backends/avx512_one.rs /work/main/src/permutation/spongent/backends/avx512.rs /work/main/src/permutation/spongent/backends/avx512/medium.rs /work/main/src/permutation/spongent/backends/avx512/columns.rs /work/main/src/mode/xor/avx512.rs

/work/main/src/lib.rs:
/work/main/src/batch.rs:
/work/main/src/permutation.rs:
/work/main/src/permutation/cpu.rs:
/work/main/src/permutation/keccak.rs:
/work/main/src/permutation/keccak/backends.rs:
/work/main/src/permutation/keccak/backends/avx2.rs:
/work/main/src/permutation/keccak/backends/soft64.rs:
/work/main/src/permutation/keccak/round.rs:
/work/main/src/permutation/spongent.rs:
/work/main/src/permutation/spongent/backends.rs:
/work/main/src/permutation/spongent/backends/avx2.rs:
/work/main/src/permutation/spongent/backends/avx2/medium.rs:
/work/main/src/permutation/spongent/backends/pext.rs:
/work/main/src/permutation/spongent/backends/soft32.rs:
/work/main/src/permutation/spongent/backends/soft64.rs:
/work/main/src/permutation/spongent/sbox.rs:
/work/main/src/mode.rs:
/work/main/src/mode/call.rs:
/work/main/src/mode/data.rs:
/work/main/src/mode/keystream.rs:
/work/main/src/mode/limits.rs:
/work/main/src/mode/lockstep.rs:
/work/main/src/mode/masks.rs:
/work/main/src/mode/plan.rs:
/work/main/src/mode/run.rs:
/work/main/src/mode/schedule.rs:
/work/main/src/mode/tag.rs:
/work/main/src/mode/xor.rs:
/work/main/src/scrub.rs:
/work/main/src/permutation/avx512.rs:
/work/main/src/permutation/keccak/backends/avx512.rs:
/work/main/src/permutation/keccak/backends/avx512_one.rs:
/work/main/src/permutation/spongent/backends/avx512.rs:
/work/main/src/permutation/spongent/backends/avx512/medium.rs:
/work/main/src/permutation/spongent/backends/avx512/columns.rs:
/work/main/src/mode/xor/avx512.rs:
