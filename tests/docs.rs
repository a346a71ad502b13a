//! The documents against the repository: the README's examples and
//! links, and every figure the docs quote against the benchmark data
//! (`tools/bench-report`). A test binary of its own, left out of the
//! published crate, which ships neither the data nor the tools.
//!
//! The README is shown on the repository, on crates.io and (as the crate's
//! front page) on docs.rs, and people copy its code from all three. Rustdoc
//! tests that its examples compile and run; these tests keep out what would
//! work in rustdoc only: hidden `#` lines, feature `cfg` wrappers,
//! intra-doc links, relative links, and the repository's own commands.

const README: &str = include_str!("../README.md");

/// The Rust code blocks of the README, each as its lines.
fn rust_blocks() -> Vec<Vec<&'static str>> {
    let mut blocks = Vec::new();
    let mut current: Option<Vec<&str>> = None;
    for line in README.lines() {
        match (&mut current, line.trim_end()) {
            (None, "```rust") => current = Some(Vec::new()),
            (Some(_), "```") => blocks.extend(current.take()),
            (Some(block), _) => block.push(line),
            (None, _) => {}
        }
    }
    assert!(current.is_none(), "unclosed code block in README.md");
    blocks
}

#[test]
fn examples_are_complete_programs_without_rustdoc_syntax() {
    let blocks = rust_blocks();
    assert!(blocks.len() >= 4, "expected the README's examples");
    for block in blocks {
        let first = block.first().copied().unwrap_or_default();
        assert!(
            block.iter().any(|line| line.starts_with("fn main()")),
            "README example without fn main: {first}"
        );
        for line in &block {
            let code = line.trim_start();
            assert!(
                code != "#" && !code.starts_with("# "),
                "hidden rustdoc line in README: {line}"
            );
            assert!(
                !code.contains("cfg(feature"),
                "feature cfg in a README example: {line}"
            );
        }
    }
}

#[test]
fn no_intra_doc_links() {
    // `[`Name`]` not followed by `(` or `[` is a rustdoc intra-doc link.
    for (at, _) in README.match_indices("[`") {
        let rest = &README[at..];
        let Some(end) = rest.find("`]") else { continue };
        let after = rest[end + 2..].chars().next();
        assert!(
            matches!(after, Some('(' | '[')),
            "intra-doc link in README: {}",
            &rest[..end + 2]
        );
    }
}

#[test]
fn links_are_absolute_and_point_at_the_package_repository() {
    let repository = env!("CARGO_PKG_REPOSITORY");
    assert!(repository.starts_with("https://github.com/"));
    for (at, _) in README.match_indices("https://github.com/") {
        assert!(
            README[at..].starts_with(repository),
            "a GitHub link that is not the package's repository ({repository}): {}",
            README[at..].lines().next().unwrap_or_default()
        );
    }
    for (at, _) in README.match_indices("](") {
        let target = &README[at + 2..];
        assert!(
            target.starts_with("https://") || target.starts_with('#'),
            "relative link in README: {}",
            target.lines().next().unwrap_or_default()
        );
    }
    for line in README.lines() {
        if let Some((label, target)) = line.split_once("]: ") {
            if label.starts_with('[') {
                assert!(target.starts_with("https://"), "relative link: {line}");
            }
        }
    }
}

#[test]
fn repository_commands_stay_out_of_the_front_page() {
    for command in [
        ".ci/run",
        "tools/ct-check/run",
        "tools/bench-report/run",
        "fuzz run",
        "miri",
    ] {
        assert!(
            !README.contains(command),
            "`{command}` belongs in CONTRIBUTING.md, not on the crate's front page"
        );
    }
}

// The figures: every number the README, SECURITY.md and the API docs quote
// from a measurement is computed here from `tools/bench-report/data`, and
// BENCHMARKS.md and its charts are rendered from it, so that a stale copy
// fails this test. The reading and the rendering are the report tool's
// library (`tools/bench-report`, a dev-dependency).

use elephant_bench_report::{self as report, Table};
use std::path::Path;

fn data() -> Vec<Table> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(report::DATA);
    report::load(&dir).unwrap_or_else(|e| panic!("{}: {e}", report::DATA))
}

fn table<'a>(tables: &'a [Table], name: &str) -> &'a Table {
    report::find(tables, name).unwrap_or_else(|| panic!("no {}/{name}.csv", report::DATA))
}

fn number(table: &Table, row: &str, column: &str) -> f64 {
    table.number(row, column).unwrap_or_else(|| {
        panic!(
            "{}: no number in row {row:?}, column {column:?}",
            table.name
        )
    })
}

fn whole(table: &Table, row: &str, column: &str) -> u64 {
    table
        .cell(row, column)
        .and_then(|cell| cell.parse().ok())
        .unwrap_or_else(|| {
            panic!(
                "{}: no whole number in row {row:?}, column {column:?}",
                table.name
            )
        })
}

/// `text` with every run of white space (line breaks and indentation
/// included) as one space, and without `///` comment markers.
fn words(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().filter(|w| *w != "///").collect();
    words.join(" ")
}

/// Fails unless `text` contains `expected`, both taken as [`words`].
fn assert_quotes(document: &str, text: &str, expected: &str) {
    assert!(
        words(text).contains(&words(expected)),
        "{document} no longer quotes the benchmark data: expected {expected:?} \
         (figures live in tools/bench-report/data; the report: `cargo run --manifest-path \
         tools/bench-report/Cargo.toml`)"
    );
}

const INSTANCES: [&str; 3] = ["Dumbo", "Jumbo", "Delirium"];

/// The firmware benchmark's cores: their `counted` data files.
const FIRMWARE_CORES: [&str; 4] = ["cortex-m4", "cortex-m33", "cortex-m0", "rv32imc"];

#[test]
fn benchmarks_report_and_charts_are_generated_from_the_data() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tables = data();
    let mut expected = vec![(report::REPORT.to_string(), report::benchmarks_md(&tables))];
    expected.extend(report::charts(&tables));
    for (file, text) in expected {
        let committed = std::fs::read_to_string(root.join(&file)).unwrap_or_default();
        assert!(
            committed == text,
            "{file} is not what tools/bench-report/data gives: run `cargo run --manifest-path \
             tools/bench-report/Cargo.toml` and commit the result"
        );
    }
}

#[test]
fn readme_figures_come_from_the_data() {
    let tables = data();
    // The instance table: a timed row per x86-64 class at 1500 B.
    for (name, label) in [
        ("x86-64-avx512", "x86-64 with AVX-512, 1500 B"),
        ("x86-64-avx2", "x86-64 with AVX2, 1500 B"),
        ("x86-64-avx2-zen3", "x86-64 with AVX2 on a Zen 3, 1500 B"),
        ("x86-64-portable", "portable code, 1500 B"),
    ] {
        let timed = table(&tables, name);
        let mut row = format!("| {label} |");
        for instance in INSTANCES {
            let ns = timed
                .ns(instance, 1500)
                .unwrap_or_else(|| panic!("{name}: {instance}"));
            let ratio = timed
                .ratio(instance, 1500)
                .unwrap_or_else(|| panic!("{name}: ratio"));
            row += &format!(
                " {} ({}) |",
                report::duration(ns),
                report::ratio_label(ratio)
            );
        }
        assert_quotes("README.md", README, &row);
    }
    // A firmware row per core.
    let m4 = table(&tables, "cortex-m4");
    for (name, label) in [
        ("cortex-m4", "Cortex-M4"),
        ("cortex-m33", "Cortex-M33"),
        ("cortex-m0", "Cortex-M0"),
        ("rv32imc", "RV32IMC"),
    ] {
        let core = table(&tables, name);
        let mut row = format!("| {label}, 128 B message |");
        for instance in INSTANCES {
            let count = whole(core, instance, "enc 128 B");
            row += &format!(" {} |", report::thousands(count));
        }
        assert_quotes("README.md", README, &row);
    }

    // Against the best C, on every core at 16 and 128 B.
    let range = |instances: &[&str]| {
        let mut ratios = Vec::new();
        for core in FIRMWARE_CORES {
            let core = table(&tables, core);
            for instance in instances {
                for size in report::BEST_C_SIZES {
                    ratios.push(
                        report::fewer_than_best_c(&tables, core, instance, size)
                            .unwrap_or_else(|| panic!("{}: no best C for {instance}", core.name)),
                    );
                }
            }
        }
        let low = ratios.iter().copied().fold(f64::INFINITY, f64::min);
        let high = ratios.iter().copied().fold(0.0, f64::max);
        (low, high)
    };
    let (low, high) = range(&["Dumbo", "Jumbo"]);
    assert_quotes(
        "README.md",
        README,
        &format!("Dumbo and Jumbo take {low:.1}–{high:.1}× fewer instructions"),
    );
    let (low, high) = range(&["Delirium"]);
    assert!(
        low > 0.9 && high < 1.25,
        "Delirium is no longer \"about as many\" instructions as the best C: reword the README"
    );
    assert_quotes(
        "README.md",
        README,
        &format!("Delirium about as many ({low:.2}–{high:.2}×)"),
    );
    let size = table(&tables, "cortex-m4-footprint");
    let mut row = String::from("| Cortex-M4 code / stack |");
    for instance in INSTANCES {
        let code = whole(size, instance, "own code (B)");
        let stack = whole(size, instance, "worst-case stack (B)");
        row += &format!(
            " {} B / {} B |",
            report::thousands(code),
            report::thousands(stack)
        );
    }
    assert_quotes("README.md", README, &row);

    // What the bullets say of the footprints: Dumbo under Delirium in code
    // and stack, Jumbo within 5 % of Dumbo in both (either may be smaller).
    let code = |instance| number(size, instance, "own code (B)");
    let stack = |instance| number(size, instance, "worst-case stack (B)");
    assert!(
        code("Dumbo") < code("Delirium") && stack("Dumbo") < stack("Delirium"),
        "Dumbo no longer takes less code and stack than Delirium: reword the README"
    );
    assert_quotes(
        "README.md",
        README,
        "**Dumbo**, the designers' primary member, takes less code and stack than Delirium",
    );
    let close = |a: f64, b: f64| (a / b - 1.0).abs() < 0.05;
    assert!(
        close(code("Jumbo"), code("Dumbo")) && close(stack("Jumbo"), stack("Dumbo")),
        "Jumbo's footprint is no longer about Dumbo's: reword the README"
    );
    assert_quotes(
        "README.md",
        README,
        "about the same code and stack as Dumbo, and is slower on every platform above",
    );
    // ... and that Jumbo is slower than Dumbo in every timed and counted row.
    for name in [
        "x86-64-avx512",
        "x86-64-avx2",
        "x86-64-avx2-zen3",
        "x86-64-portable",
    ] {
        let timed = table(&tables, name);
        let ns = |instance| timed.ns(instance, 1500).unwrap_or_else(|| panic!("{name}"));
        assert!(
            ns("Jumbo") > ns("Dumbo"),
            "{name}: Jumbo is not slower than Dumbo"
        );
    }
    for core in FIRMWARE_CORES {
        let core = table(&tables, core);
        assert!(
            whole(core, "Jumbo", "enc 128 B") > whole(core, "Dumbo", "enc 128 B"),
            "{}: Jumbo is not slower than Dumbo",
            core.name
        );
    }

    // Delirium against Dumbo on a Cortex-M4.
    let ratios: Vec<f64> = ["enc 16 B", "enc 128 B", "enc 1500 B"]
        .into_iter()
        .map(|size| number(m4, "Dumbo", size) / number(m4, "Delirium", size))
        .collect();
    let low = ratios.iter().copied().fold(f64::INFINITY, f64::min);
    let high = ratios.iter().copied().fold(0.0, f64::max);
    assert_quotes(
        "README.md",
        README,
        &format!("{low:.1}–{high:.1}× fewer instructions"),
    );
    let more_code =
        number(size, "Delirium", "own code (B)") - number(size, "Dumbo", "own code (B)");
    assert_quotes("README.md", README, &format!("{more_code} B more code"));

    // The multi-message call's stack.
    let largest = largest_batch_clearing(&tables);
    assert_quotes(
        "README.md",
        README,
        &format!("at most {largest} KiB of stack"),
    );

    // Debug builds.
    let debug = table(&tables, "debug-build");
    let column = "µs per call";
    let plain = number(debug, "debug", column);
    let optimised = number(debug, "debug with opt-level 3 for elephant-aead", column);
    let both = number(
        debug,
        "debug with opt-level 3 for elephant-aead and the app",
        column,
    );
    let release = number(debug, "release", column);
    for figure in [
        format!("{:.0}× as long", plain / release),
        format!("{:.0}× faster", plain / optimised),
        format!("{:.0}× a release build's time", optimised / release),
        format!("{:.1}× the release build's time", both / release),
    ] {
        assert_quotes("README.md", README, &figure);
    }

    // WebAssembly: `simd128` halves Spongent's time on long messages.
    let plain = table(&tables, "wasm32");
    let simd = table(&tables, "wasm32-simd128");
    for instance in ["Dumbo", "Jumbo"] {
        for bytes in [1500, 16384] {
            let ns = |t: &Table| {
                t.ns(instance, bytes)
                    .unwrap_or_else(|| panic!("{}: no {instance} at {bytes} B", t.name))
            };
            let share = ns(simd) / ns(plain);
            assert!(
                (0.45..=0.55).contains(&share),
                "README.md says simd128 halves {instance}'s time; the data gives \
                 {share:.2} of it at {bytes} B"
            );
        }
    }
    assert_quotes(
        "README.md",
        README,
        "halves Dumbo's and Jumbo's time on long messages",
    );
}

/// The most stack a multi-message call clears (and so may use), in KiB.
fn largest_batch_clearing(tables: &[Table]) -> f64 {
    let stack = table(tables, "x86-64-stack");
    stack
        .rows
        .iter()
        .filter(|row| {
            row.first()
                .is_some_and(|call| call.starts_with("many messages"))
        })
        .filter_map(|row| row.get(1)?.parse::<f64>().ok())
        .fold(0.0, f64::max)
}

#[test]
fn security_and_api_docs_quote_the_data() {
    let tables = data();
    let stack = table(&tables, "x86-64-stack");
    let cleared = |call: &str| number(stack, call, "cleared (KiB)");
    let small = cleared("many messages: up to 16");
    let largest = largest_batch_clearing(&tables);
    let batch_docs = include_str!("../src/batch.rs");
    assert_quotes(
        "src/batch.rs",
        batch_docs,
        &format!("at most {small} KiB for up to 16 packets and {largest} KiB for more"),
    );
    let security = include_str!("../SECURITY.md");
    for (call, what) in [
        (
            "one message of up to 8 blocks (Dumbo and Jumbo)",
            "after a short call",
        ),
        (
            "sealing a medium message (runs of 64 blocks)",
            "after sealing a medium message",
        ),
        ("one longer message", "after a longer one"),
        ("key expansion", "after the key expansion"),
        ("many messages: more than 16", "after a multi-message call"),
    ] {
        assert_quotes(
            "SECURITY.md",
            security,
            &format!("{} KiB {what}", cleared(call)),
        );
    }
    let deepest = stack
        .rows
        .iter()
        .filter_map(|row| row.get(2)?.parse::<f64>().ok())
        .fold(0.0, f64::max);
    assert_quotes(
        "SECURITY.md",
        security,
        &format!("the deepest of all is {deepest} KiB"),
    );
}

#[test]
fn security_names_the_private_reporting_channel() {
    let repository = env!("CARGO_PKG_REPOSITORY");
    let security = include_str!("../SECURITY.md");
    assert_quotes(
        "SECURITY.md",
        security,
        &format!("<{repository}/security/advisories/new>"),
    );
}
