// Runs a wasm32-wasip1 program under Node's WASI (`node:wasi`): cargo's
// runner for that target (.cargo/config.toml), so that `cargo test` and
// `cargo bench` with `--target wasm32-wasip1` run under Node.
//
//   node .ci/wasi-runner.mjs program.wasm [arguments...]
//
// The program sees its arguments, the environment and the file system at
// the same paths as on the host, as a native test does (the KAT tests
// read their files by absolute path; relative paths start at `/`). Exits
// with the program's exit code. Node 20 or newer; Node 18 (Debian 12's) with
// `--experimental-wasi-unstable-preview1` before the script.
import { readFile } from 'node:fs/promises';
import process from 'node:process';
import { WASI } from 'node:wasi';

const [program, ...args] = process.argv.slice(2);
if (!program) {
  console.error('usage: node wasi-runner.mjs program.wasm [arguments...]');
  process.exit(2);
}
const wasi = new WASI({
  version: 'preview1',
  args: [program, ...args],
  env: process.env,
  preopens: { '/': '/' },
  returnOnExit: true,
});
const module = await WebAssembly.compile(await readFile(program));
// Not `getImportObject()`, which Node 18 lacks.
const instance = await WebAssembly.instantiate(module, {
  wasi_snapshot_preview1: wasi.wasiImport,
});
process.exitCode = wasi.start(instance);
