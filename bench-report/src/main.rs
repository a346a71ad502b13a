//! Turns the criterion results of `bash bench-report/run` into the tables of
//! `BENCHMARKS.md` (between its `tables:begin`/`tables:end` markers) and the
//! bar charts `benchmarks/*.svg`.
//!
//! Results are read from `target/criterion/<group>/<cipher>/<size>/<baseline>/
//! estimates.json`, for the baselines `dispatch` (default build: backends
//! chosen at run time), `soft` (built with `--cfg elephant_force_soft`) and
//! `rayon` (default build with the `rayon` feature, 1 MiB only). Every ratio
//! compares numbers of the same baseline, i.e. of the same run.

use serde_json::Value;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const ELEPHANTS: [&str; 3] = ["Dumbo", "Jumbo", "Delirium"];
const BASELINE_CIPHERS: [&str; 3] = ["ChaCha20Poly1305", "AES-128-GCM", "Ascon-AEAD128"];
const REFERENCE: &str = "ChaCha20Poly1305";
const REAL_WORLD_SIZES: [u64; 6] = [1, 16, 557, 1500, 16384, 1 << 20];
const SEED_SIZES: [u64; 4] = [64, 256, 1024, 4096];

/// The median time in nanoseconds of one benchmark, if it was run.
fn median_ns(root: &Path, group: &str, cipher: &str, size: u64, baseline: &str) -> Option<f64> {
    let path = root
        .join(group)
        .join(cipher)
        .join(size.to_string())
        .join(baseline)
        .join("estimates.json");
    let text = fs::read_to_string(path).ok()?;
    let json: Value = serde_json::from_str(&text).ok()?;
    json.get("median")?.get("point_estimate")?.as_f64()
}

/// TSC ticks per nanosecond, measured against the wall clock.
fn tsc_ghz() -> f64 {
    #[cfg(target_arch = "x86_64")]
    {
        let read = || {
            // SAFETY: `rdtsc` only reads the time-stamp counter; every
            // x86-64 CPU has it, and it touches no memory.
            unsafe { core::arch::x86_64::_rdtsc() }
        };
        let start = Instant::now();
        let ticks = read();
        std::thread::sleep(Duration::from_millis(200));
        let ticks = read().wrapping_sub(ticks);
        let ns = start.elapsed().as_nanos();
        return ticks as f64 / ns as f64;
    }
    #[allow(unreachable_code)]
    1.0
}

/// One measured row: a cipher built one way.
struct Row {
    label: String,
    cipher: &'static str,
    baseline: &'static str,
}

fn rows() -> Vec<Row> {
    let mut rows = Vec::new();
    for cipher in ELEPHANTS {
        for (baseline, how) in [("dispatch", "run-time dispatch"), ("soft", "portable")] {
            rows.push(Row {
                label: format!("{cipher} ({how})"),
                cipher,
                baseline,
            });
        }
    }
    for cipher in BASELINE_CIPHERS {
        rows.push(Row {
            label: cipher.to_string(),
            cipher,
            baseline: "dispatch",
        });
    }
    rows
}

/// A markdown table: cycles per byte and throughput in ChaChaPoly units.
fn table(root: &Path, group: &str, sizes: &[u64], ghz: f64) -> String {
    let mut out = String::new();
    let _ = write!(out, "| {group} |");
    for size in sizes {
        let _ = write!(out, " {} |", size_label(*size));
    }
    out.push_str("\n|---|");
    out.push_str(&"---:|".repeat(sizes.len()));
    out.push('\n');
    for row in rows() {
        let _ = write!(out, "| {} |", row.label);
        for &size in sizes {
            let cell = match (
                median_ns(root, group, row.cipher, size, row.baseline),
                median_ns(root, group, REFERENCE, size, row.baseline),
            ) {
                (Some(ns), Some(reference)) => format!(
                    "{} c/B ({:.3}×)",
                    cycles(ns * ghz / size as f64),
                    reference / ns
                ),
                _ => "—".to_string(),
            };
            let _ = write!(out, " {cell} |");
        }
        out.push('\n');
    }
    out
}

fn cycles(value: f64) -> String {
    if value >= 100.0 {
        format!("{value:.0}")
    } else {
        format!("{value:.2}")
    }
}

fn size_label(size: u64) -> String {
    if size == 1 << 20 {
        "1 MiB".into()
    } else {
        format!("{size} B")
    }
}

/// Decryption time over encryption time at 1500 B, per instance and backend.
fn decrypt_vs_encrypt(root: &Path) -> String {
    let mut out =
        String::from("| instance | backend | decrypt / encrypt time at 1500 B |\n|---|---|---:|\n");
    for cipher in ELEPHANTS {
        for baseline in ["dispatch", "soft"] {
            let enc = median_ns(root, "encrypt AD 5 B", cipher, 1500, baseline);
            let dec = median_ns(root, "decrypt AD 5 B", cipher, 1500, baseline);
            let cell = match (enc, dec) {
                (Some(e), Some(d)) => format!("{:.3}", d / e),
                _ => "—".into(),
            };
            let _ = writeln!(out, "| {cipher} | {baseline} | {cell} |");
        }
    }
    out
}

/// One core against all cores (feature `rayon`) at 1 MiB.
fn rayon_speedup(root: &Path) -> String {
    let mut out = String::from(
        "| instance | direction | one core | `rayon` | speedup |\n|---|---|---:|---:|---:|\n",
    );
    for cipher in ELEPHANTS {
        for direction in ["encrypt", "decrypt"] {
            let group = format!("{direction} AD 5 B");
            let one = median_ns(root, &group, cipher, 1 << 20, "dispatch");
            let all = median_ns(root, &group, cipher, 1 << 20, "rayon");
            let cells = match (one, all) {
                (Some(one), Some(all)) => {
                    format!(
                        "{:.2} ms | {:.2} ms | {:.2}×",
                        one / 1e6,
                        all / 1e6,
                        one / all
                    )
                }
                _ => "— | — | —".into(),
            };
            let _ = writeln!(out, "| {cipher} | {direction} | {cells} |");
        }
    }
    out
}

/// A horizontal bar chart of cycles per byte (log scale, shorter is faster).
fn chart(root: &Path, title: &str, group: &str, size: u64, ghz: f64) -> String {
    let bars: Vec<(String, f64)> = rows()
        .into_iter()
        .filter_map(|row| {
            let ns = median_ns(root, group, row.cipher, size, row.baseline)?;
            Some((row.label, ns * ghz / size as f64))
        })
        .collect();
    let (left, bar_width, row_height, top) = (230.0, 520.0, 26.0, 50.0);
    let height = top + row_height * bars.len() as f64 + 40.0;
    let max = bars.iter().map(|(_, v)| *v).fold(1.0f64, f64::max);
    let decades = max.log10().ceil().max(1.0);
    let scale = |v: f64| (v.max(1.0).log10() / decades) * bar_width;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{height}\" \
         font-family=\"sans-serif\" font-size=\"13\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"10\" y=\"24\" font-size=\"16\" font-weight=\"bold\">{title}</text>\n",
        w = left + bar_width + 90.0
    );
    for decade in 0..=decades as u32 {
        let x = left + scale(10f64.powi(decade as i32));
        let _ = write!(
            svg,
            "<line x1=\"{x}\" y1=\"{top}\" x2=\"{x}\" y2=\"{y2}\" stroke=\"#ccc\"/>\n\
             <text x=\"{x}\" y=\"{ty}\" text-anchor=\"middle\" fill=\"#555\">{v}</text>\n",
            y2 = height - 34.0,
            ty = height - 18.0,
            v = 10u64.pow(decade)
        );
    }
    let _ = writeln!(
        svg,
        "<text x=\"{x}\" y=\"{y}\" text-anchor=\"middle\" fill=\"#555\">cycles per byte (log scale, shorter is faster)</text>",
        x = left + bar_width / 2.0,
        y = height - 2.0
    );
    for (i, (label, value)) in bars.iter().enumerate() {
        let y = top + row_height * i as f64;
        let colour = if label.starts_with("Dumbo")
            || label.starts_with("Jumbo")
            || label.starts_with("Delirium")
        {
            if label.contains("portable") {
                "#9ecae1"
            } else {
                "#3182bd"
            }
        } else {
            "#bdbdbd"
        };
        let _ = write!(
            svg,
            "<text x=\"{lx}\" y=\"{ty}\" text-anchor=\"end\">{label}</text>\n\
             <rect x=\"{left}\" y=\"{ry}\" width=\"{bw:.1}\" height=\"{h}\" fill=\"{colour}\"/>\n\
             <text x=\"{vx:.1}\" y=\"{ty}\">{v}</text>\n",
            lx = left - 8.0,
            ty = y + 17.0,
            ry = y + 4.0,
            bw = scale(*value).max(1.0),
            h = row_height - 8.0,
            vx = left + scale(*value).max(1.0) + 6.0,
            v = cycles(*value)
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// Replaces the text between the two markers of `file`.
fn replace_between(file: &Path, begin: &str, end: &str, body: &str) -> Result<(), String> {
    let text = fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let (Some(start), Some(stop)) = (text.find(begin), text.find(end)) else {
        return Err(format!(
            "{}: markers {begin} … {end} missing",
            file.display()
        ));
    };
    let new = format!("{}{begin}\n{body}{}", &text[..start], &text[stop..]);
    fs::write(file, new).map_err(|e| format!("{}: {e}", file.display()))
}

fn main() -> Result<(), String> {
    let root = PathBuf::from("target/criterion");
    if !root.is_dir() {
        return Err(
            "no target/criterion: run `bash bench-report/run` from the repository root".into(),
        );
    }
    let ghz = tsc_ghz();
    let mut body = format!("TSC: {ghz:.3} GHz (cycles below are TSC ticks: time × this rate).\n\n");
    for (direction, what) in [
        ("encrypt", "Encryption"),
        ("decrypt", "Decryption (verification included)"),
    ] {
        let _ = write!(
            body,
            "### {what}, CAESAR real-world sizes (AD 5 B)\n\n{}\n### {what}, the seed library's sizes (AD 32 B)\n\n{}\n",
            table(
                &root,
                &format!("{direction} AD 5 B"),
                &REAL_WORLD_SIZES,
                ghz
            ),
            table(&root, &format!("{direction} AD 32 B"), &SEED_SIZES, ghz)
        );
    }
    let _ = write!(
        body,
        "### Decryption against encryption\n\n{}\n### All cores at 1 MiB (feature `rayon`, AD 5 B)\n\n{}\n",
        decrypt_vs_encrypt(&root),
        rayon_speedup(&root)
    );
    replace_between(
        Path::new("BENCHMARKS.md"),
        "<!-- tables:begin -->",
        "<!-- tables:end -->",
        &body,
    )?;
    fs::create_dir_all("benchmarks").map_err(|e| e.to_string())?;
    for (file, title, size) in [
        (
            "benchmarks/tls-1500.svg",
            "TLS-like: 1500 B message, 5 B AD, encryption",
            1500,
        ),
        (
            "benchmarks/ssh-1.svg",
            "SSH-like: 1 B message, 5 B AD, encryption",
            1,
        ),
    ] {
        fs::write(file, chart(&root, title, "encrypt AD 5 B", size, ghz))
            .map_err(|e| e.to_string())?;
    }
    println!("updated BENCHMARKS.md, benchmarks/tls-1500.svg, benchmarks/ssh-1.svg");
    Ok(())
}
