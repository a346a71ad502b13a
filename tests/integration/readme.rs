//! The README is shown on the repository, on crates.io and (as the crate's
//! front page) on docs.rs, and people copy its code from all three. Rustdoc
//! tests that its examples compile and run; these tests keep out what would
//! work in rustdoc only: hidden `#` lines, feature `cfg` wrappers,
//! intra-doc links, relative links, and the repository's own commands.

// A failing test panics.
#![allow(clippy::panic)]

const README: &str = include_str!("../../README.md");

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
        "ct-check/run",
        "bench-report/run",
        "fuzz run",
        "miri",
    ] {
        assert!(
            !README.contains(command),
            "`{command}` belongs in CONTRIBUTING.md, not on the crate's front page"
        );
    }
}
