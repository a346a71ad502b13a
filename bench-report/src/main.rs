//! Turns the criterion results of `bash bench-report/run` into the tables of
//! `BENCHMARKS.md` (between its `tables:begin`/`tables:end` and
//! `many-messages:begin`/`many-messages:end` markers) and the charts
//! `benchmarks/*.svg`.
//!
//! Results are read from `target/criterion/<group>/<cipher>/<size>/<baseline>/
//! estimates.json`, for the baselines `dispatch` (default build: backends
//! chosen at run time), `soft` (built with `--cfg elephant_force_soft`) and
//! `rayon` (default build with the `rayon` feature, 1 MiB only). Every ratio
//! compares numbers of the same baseline, i.e. of the same run.
//!
//! Usage (from the repository root):
//!
//! - `bench-report`: everything, as `bash bench-report/run` does;
//! - `bench-report many-messages [--criterion DIR] [--baseline NAME]`: only
//!   the "many messages" table and charts, from an existing run of
//!   `cargo bench --bench elephant -- --save-baseline NAME "many messages"`
//!   (defaults: `target/criterion`, `dispatch`; a run without
//!   `--save-baseline` is criterion's baseline `new`).

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

/// Packet sizes and packets per call of the "many messages" groups
/// (`benches/elephant.rs`).
const MANY_SIZES: [u64; 3] = [16, 64, 1500];
const MANY_COUNTS: [u64; 4] = [1, 16, 256, 4096];
/// The "many messages" table's columns: benchmark name and heading; the
/// first three are `batch::seal`, the rest one packet per call.
const MANY_COLUMNS: [(&str, &str); 6] = [
    ("Dumbo", "Dumbo"),
    ("Jumbo", "Jumbo"),
    ("Delirium", "Delirium"),
    ("Ascon-AEAD128", "Ascon-AEAD128"),
    ("ChaCha20Poly1305", "ChaCha20-Poly1305"),
    ("Dumbo one at a time", "Dumbo, single call"),
];
const ASCON: &str = "Ascon-AEAD128";
/// The packets per call of the opening group (16 B packets).
const OPEN_COUNTS: [u64; 2] = [256, 4096];

/// A group or benchmark name as criterion names its directory: `/` and the
/// other characters that paths cannot hold become `_`.
fn path_part(name: &str) -> String {
    name.chars()
        .map(|c| match c {
            '/' | '\\' | '?' | '"' | '*' | '<' | '>' | ':' | '|' | '^' => '_',
            c => c,
        })
        .collect()
}

/// The median time in nanoseconds of one benchmark, if it was run.
fn median_ns(root: &Path, group: &str, cipher: &str, size: u64, baseline: &str) -> Option<f64> {
    let path = root
        .join(path_part(group))
        .join(path_part(cipher))
        .join(size.to_string())
        .join(baseline)
        .join("estimates.json");
    let text = fs::read_to_string(path).ok()?;
    median_of(&text)
}

/// The median point estimate of a criterion `estimates.json`.
fn median_of(estimates: &str) -> Option<f64> {
    let json: Value = serde_json::from_str(estimates).ok()?;
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

/// `value` with thousands separators: `4,096`.
fn thousands(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// A time per packet, rounded to the nanosecond: `4,742 ns`.
fn nanoseconds(ns: f64) -> String {
    format!("{} ns", thousands(ns.round() as u64))
}

/// The time per packet of the "many messages" benchmark `name` on `size`-byte
/// packets, `count` per call (criterion times a whole call).
type PerPacket<'a> = dyn Fn(u64, &str, u64) -> Option<f64> + 'a;

/// Per-packet times from `root`'s `baseline`: sealing (`group` "many
/// messages") or opening ("many messages open").
fn per_packet<'a>(root: &'a Path, group: &'a str, baseline: &'a str) -> Box<PerPacket<'a>> {
    Box::new(move |size, name, count| {
        let group = format!("{group}/{size} B");
        median_ns(root, &group, name, count, baseline).map(|ns| ns / count as f64)
    })
}

/// The "many messages" table: per packet size and packets per call, the
/// time per packet of each column and, for the Elephants, their ratios to
/// Ascon-AEAD128 and ChaCha20-Poly1305 one packet at a time (same run; above
/// 1 is faster).
fn many_messages_table(time: &PerPacket<'_>) -> String {
    let mut out = String::from("| packet | packets per call |");
    for (_, heading) in MANY_COLUMNS {
        let _ = write!(out, " {heading} |");
    }
    out.push_str("\n|---|---:|");
    out.push_str(&"---:|".repeat(MANY_COLUMNS.len()));
    out.push('\n');
    for size in MANY_SIZES {
        for count in MANY_COUNTS {
            let ascon = time(size, ASCON, count);
            let chacha = time(size, REFERENCE, count);
            let _ = write!(out, "| {size} B | {} |", thousands(count));
            for (index, (name, _)) in MANY_COLUMNS.into_iter().enumerate() {
                let cell = match (time(size, name, count), ascon, chacha) {
                    (Some(ns), Some(ascon), Some(chacha)) if index < ELEPHANTS.len() => {
                        format!(
                            "{} ({:.2}× / {:.2}×)",
                            nanoseconds(ns),
                            ascon / ns,
                            chacha / ns
                        )
                    }
                    (Some(ns), ..) => nanoseconds(ns),
                    _ => "—".into(),
                };
                let _ = write!(out, " {cell} |");
            }
            out.push('\n');
        }
    }
    out
}

/// Opening 16 B packets: time per packet of each instance.
fn many_messages_open_table(time: &PerPacket<'_>) -> String {
    let mut out = String::from("| packet | packets per call |");
    for cipher in ELEPHANTS {
        let _ = write!(out, " {cipher} |");
    }
    out.push_str("\n|---|---:|");
    out.push_str(&"---:|".repeat(ELEPHANTS.len()));
    out.push('\n');
    for count in OPEN_COUNTS {
        let _ = write!(out, "| 16 B | {} |", thousands(count));
        for cipher in ELEPHANTS {
            let cell = time(16, cipher, count).map_or_else(|| "—".into(), nanoseconds);
            let _ = write!(out, " {cell} |");
        }
        out.push('\n');
    }
    out
}

/// A line chart of the time per packet against the packets per call (both
/// on log scales) for `size`-byte packets: one line per column of the
/// table. `None` if nothing was measured.
fn many_messages_chart(time: &PerPacket<'_>, size: u64, title: &str) -> Option<String> {
    const STYLES: [(&str, &str); 6] = [
        ("#3182bd", ""),
        ("#e6550d", ""),
        ("#31a354", ""),
        ("#636363", "6 4"),
        ("#000000", "2 3"),
        ("#9ecae1", "8 3 2 3"),
    ];
    const LEGEND: [&str; 6] = [
        "Dumbo, batch::seal",
        "Jumbo, batch::seal",
        "Delirium, batch::seal",
        "Ascon-AEAD128, one per call",
        "ChaCha20-Poly1305, one per call",
        "Dumbo, one per call",
    ];
    let points: Vec<Vec<(usize, f64)>> = MANY_COLUMNS
        .iter()
        .map(|(name, _)| {
            MANY_COUNTS
                .iter()
                .enumerate()
                .filter_map(|(i, &count)| Some((i, time(size, name, count)?)))
                .collect()
        })
        .collect();
    let values = points.iter().flatten().map(|&(_, ns)| ns);
    let low = values.clone().fold(f64::INFINITY, f64::min);
    let high = values.fold(0.0f64, f64::max);
    if !low.is_finite() || low <= 0.0 {
        return None;
    }
    let (bottom, top) = (
        low.log10().floor(),
        high.log10().ceil().max(low.log10().floor() + 1.0),
    );
    let (left, plot_width, plot_top, plot_height) = (90.0, 420.0, 50.0, 300.0);
    let x = |i: usize| left + plot_width * i as f64 / (MANY_COUNTS.len() - 1) as f64;
    let y = |ns: f64| plot_top + plot_height * (top - ns.log10()) / (top - bottom);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         font-family=\"sans-serif\" font-size=\"13\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"10\" y=\"24\" font-size=\"16\" font-weight=\"bold\">{title}</text>\n",
        w = left + plot_width + 300.0,
        h = plot_top + plot_height + 60.0
    );
    for decade in bottom as i32..=top as i32 {
        let ty = y(10f64.powi(decade));
        let _ = write!(
            svg,
            "<line x1=\"{left}\" y1=\"{ty:.1}\" x2=\"{x2}\" y2=\"{ty:.1}\" stroke=\"#ccc\"/>\n\
             <text x=\"{lx}\" y=\"{ly:.1}\" text-anchor=\"end\" fill=\"#555\">{label}</text>\n",
            x2 = left + plot_width,
            lx = left - 6.0,
            ly = ty + 4.0,
            label = nanoseconds(10f64.powi(decade))
        );
    }
    for (i, count) in MANY_COUNTS.iter().enumerate() {
        let _ = write!(
            svg,
            "<line x1=\"{cx:.1}\" y1=\"{plot_top}\" x2=\"{cx:.1}\" y2=\"{y2}\" stroke=\"#eee\"/>\n\
             <text x=\"{cx:.1}\" y=\"{ty}\" text-anchor=\"middle\" fill=\"#555\">{label}</text>\n",
            cx = x(i),
            y2 = plot_top + plot_height,
            ty = plot_top + plot_height + 18.0,
            label = thousands(*count)
        );
    }
    let _ = writeln!(
        svg,
        "<text x=\"{cx}\" y=\"{cy}\" text-anchor=\"middle\" fill=\"#555\">packets per call \
         (log scale); time per packet (log scale, lower is faster)</text>",
        cx = left + plot_width / 2.0,
        cy = plot_top + plot_height + 42.0
    );
    for (row, ((line, (colour, dash)), label)) in points.iter().zip(STYLES).zip(LEGEND).enumerate()
    {
        let path: Vec<String> = line
            .iter()
            .map(|&(i, ns)| format!("{:.1},{:.1}", x(i), y(ns)))
            .collect();
        let dash = if dash.is_empty() {
            String::new()
        } else {
            format!(" stroke-dasharray=\"{dash}\"")
        };
        let _ = writeln!(
            svg,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"{dash}/>",
            path.join(" ")
        );
        for &(i, ns) in line {
            let _ = writeln!(
                svg,
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"{colour}\"/>",
                x(i),
                y(ns)
            );
        }
        let ly = plot_top + 10.0 + 22.0 * row as f64;
        let lx = left + plot_width + 20.0;
        let _ = write!(
            svg,
            "<line x1=\"{lx}\" y1=\"{ly}\" x2=\"{x2}\" y2=\"{ly}\" stroke=\"{colour}\" stroke-width=\"2\"{dash}/>\n\
             <text x=\"{tx}\" y=\"{ty}\">{label}</text>\n",
            x2 = lx + 28.0,
            tx = lx + 34.0,
            ty = ly + 4.0,
        );
    }
    svg.push_str("</svg>\n");
    Some(svg)
}

/// Regenerates the "many messages" tables of `BENCHMARKS.md` and their
/// charts from `root`'s `baseline`; returns the charts written.
fn many_messages(root: &Path, baseline: &str) -> Result<Vec<String>, String> {
    let seal = per_packet(root, "many messages", baseline);
    let open = per_packet(root, "many messages open", baseline);
    let body = format!(
        "Sealing: time per packet, and for the Elephants (`batch::seal`) in \
         brackets the ratio to Ascon-AEAD128 / ChaCha20-Poly1305 one packet at \
         a time (same run, above 1 is faster). Criterion baseline \
         `{baseline}`.\n\n{}\nOpening (`batch::open`), time per packet:\n\n{}",
        many_messages_table(&*seal),
        many_messages_open_table(&*open)
    );
    replace_between(
        Path::new("BENCHMARKS.md"),
        "<!-- many-messages:begin -->",
        "<!-- many-messages:end -->",
        &body,
    )?;
    fs::create_dir_all("benchmarks").map_err(|e| e.to_string())?;
    let mut written = Vec::new();
    for size in MANY_SIZES {
        let title = format!("Many messages: {size} B packets, 5 B AD, sealing");
        if let Some(svg) = many_messages_chart(&*seal, size, &title) {
            let file = format!("benchmarks/many-messages-{size}.svg");
            fs::write(&file, svg).map_err(|e| format!("{file}: {e}"))?;
            written.push(file);
        }
    }
    Ok(written)
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
    let mut args = std::env::args().skip(1);
    let mut root = PathBuf::from("target/criterion");
    let mut baseline = String::from("dispatch");
    let mut only_many_messages = false;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "many-messages" => only_many_messages = true,
            "--criterion" => root = args.next().ok_or("--criterion needs a directory")?.into(),
            "--baseline" => baseline = args.next().ok_or("--baseline needs a name")?,
            other => return Err(format!("unknown argument {other:?} (see the tool's docs)")),
        }
    }
    if !root.is_dir() {
        return Err(format!(
            "no {}: run `bash bench-report/run` from the repository root",
            root.display()
        ));
    }
    if only_many_messages {
        let charts = many_messages(&root, &baseline)?;
        println!(
            "updated BENCHMARKS.md (many messages), {}",
            charts.join(", ")
        );
        return Ok(());
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
    let charts = many_messages(&root, &baseline)?;
    println!(
        "updated BENCHMARKS.md, benchmarks/tls-1500.svg, benchmarks/ssh-1.svg, {}",
        charts.join(", ")
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn criterion_directory_names() {
        assert_eq!(path_part("many messages/16 B"), "many messages_16 B");
        assert_eq!(path_part("Dumbo one at a time"), "Dumbo one at a time");
        assert_eq!(path_part("encrypt AD 5 B"), "encrypt AD 5 B");
    }

    #[test]
    fn reads_the_median() {
        let json = r#"{"mean":{"point_estimate":9.5},"median":{"point_estimate":1234.5,"standard_error":1.0}}"#;
        assert_eq!(median_of(json), Some(1234.5));
        assert_eq!(median_of(r#"{"mean":{"point_estimate":9.5}}"#), None);
        assert_eq!(median_of("not json"), None);
    }

    #[test]
    fn formats_times_per_packet() {
        assert_eq!(nanoseconds(91.4), "91 ns");
        assert_eq!(nanoseconds(4741.6), "4,742 ns");
        assert_eq!(nanoseconds(1_234_567.0), "1,234,567 ns");
        assert_eq!(thousands(4096), "4,096");
    }

    /// Made-up per-packet times: Ascon 200 ns, ChaCha 1,000 ns, the
    /// Elephants 100 ns, the single call 4,000 ns; 1500 B not measured.
    fn fake(size: u64, name: &str, _count: u64) -> Option<f64> {
        if size == 1500 {
            return None;
        }
        Some(match name {
            "Ascon-AEAD128" => 200.0,
            "ChaCha20Poly1305" => 1000.0,
            "Dumbo one at a time" => 4000.0,
            _ => 100.0,
        })
    }

    #[test]
    fn table_gives_times_and_same_run_ratios() {
        let table = many_messages_table(&fake);
        let lines: Vec<&str> = table.lines().collect();
        // Header, rule, three sizes × four counts.
        assert_eq!(lines.len(), 2 + 12);
        assert_eq!(
            lines[2],
            "| 16 B | 1 | 100 ns (2.00× / 10.00×) | 100 ns (2.00× / 10.00×) | \
             100 ns (2.00× / 10.00×) | 200 ns | 1,000 ns | 4,000 ns |"
        );
        assert!(lines[5].starts_with("| 16 B | 4,096 |"));
        assert_eq!(lines[13], "| 1500 B | 4,096 | — | — | — | — | — | — |");
    }

    #[test]
    fn chart_has_a_line_per_column_and_none_without_data() {
        let svg = many_messages_chart(&fake, 16, "t").unwrap();
        assert_eq!(svg.matches("<polyline").count(), MANY_COLUMNS.len());
        assert_eq!(svg.matches("<circle").count(), MANY_COLUMNS.len() * 4);
        // From 100 ns to 4,000 ns: the decades 100, 1,000 and 10,000 ns.
        assert!(svg.contains(">100 ns<") && svg.contains(">10,000 ns<"));
        assert!(many_messages_chart(&fake, 1500, "t").is_none());
    }
}
