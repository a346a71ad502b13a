/work/main/.ci/inline-probe/target/debug/deps/inout-c44a4f92fd25d789.d: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/inout-0.2.6/src/lib.rs /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/inout-0.2.6/src/errors.rs /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/inout-0.2.6/src/inout.rs /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/inout-0.2.6/src/inout_buf.rs /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/inout-0.2.6/src/reserved.rs

/work/main/.ci/inline-probe/target/debug/deps/libinout-c44a4f92fd25d789.rmeta: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/inout-0.2.6/src/lib.rs /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/inout-0.2.6/src/errors.rs /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/inout-0.2.6/src/inout.rs /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/inout-0.2.6/src/inout_buf.rs /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/inout-0.2.6/src/reserved.rs

/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/inout-0.2.6/src/lib.rs:
/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/inout-0.2.6/src/errors.rs:
/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/inout-0.2.6/src/inout.rs:
/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/inout-0.2.6/src/inout_buf.rs:
/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/inout-0.2.6/src/reserved.rs:
