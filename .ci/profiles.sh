# The release profiles users build the crate with, by name: sourced by the
# checks that must hold in every one of them (.ci/inline-check,
# .ci/stack-probe). Each is cargo's release profile changed through
# CARGO_PROFILE_RELEASE_* variables (or RUSTFLAGS), so that one Cargo.toml
# serves all of them.

# shellcheck shell=bash
profiles=(defaults cgu1 cgu1-lto-fat cgu1-lto-thin opt2 opt-s opt1 x86-64-v3 aarch64-cgu1)

# profile_env NAME RUSTFLAGS: sets `env` (the variables a build under the
# profile needs, RUSTFLAGS given last) and `target` (empty: the host).
profile_env() {
  local rustflags=$2
  env=(RUSTFLAGS="$rustflags")
  target=
  case $1 in
    defaults) ;;
    cgu1) env+=(CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1) ;;
    cgu1-lto-fat) env+=(CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 CARGO_PROFILE_RELEASE_LTO=fat) ;;
    cgu1-lto-thin) env+=(CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 CARGO_PROFILE_RELEASE_LTO=thin) ;;
    opt2) env+=(CARGO_PROFILE_RELEASE_OPT_LEVEL=2) ;;
    opt-s) env+=(CARGO_PROFILE_RELEASE_OPT_LEVEL=s) ;;
    opt1) env+=(CARGO_PROFILE_RELEASE_OPT_LEVEL=1) ;;
    x86-64-v3) env=(RUSTFLAGS="-Ctarget-cpu=x86-64-v3 $rustflags") ;;
    aarch64-cgu1)
      # NEON is baseline there: the same questions for its kernels.
      target=aarch64-unknown-linux-gnu
      env+=(CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1
        CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER="$root/.ci/aarch64-linker"
        CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu")
      ;;
    *)
      echo "unknown profile '$1'; known: ${profiles[*]} (or all)" >&2
      exit 2
      ;;
  esac
}
