/work/main/.ci/inline-probe/target/debug/deps/aead-774591610d84de4d.d: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/aead-0.6.1/src/lib.rs /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/aead-0.6.1/src/../README.md

/work/main/.ci/inline-probe/target/debug/deps/libaead-774591610d84de4d.rmeta: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/aead-0.6.1/src/lib.rs /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/aead-0.6.1/src/../README.md

/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/aead-0.6.1/src/lib.rs:
/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/aead-0.6.1/src/../README.md:
