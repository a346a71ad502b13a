/work/main/.ci/inline-probe/target/debug/deps/elephant_inline_probe-897a9263a1800d4c.d: src/main.rs Cargo.toml

/work/main/.ci/inline-probe/target/debug/deps/libelephant_inline_probe-897a9263a1800d4c.rmeta: src/main.rs Cargo.toml

src/main.rs:
Cargo.toml:

# env-dep:CLIPPY_ARGS=-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__
# env-dep:CLIPPY_CONF_DIR
