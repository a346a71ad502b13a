//! The benchmark report: reads the measured figures in
//! `tools/bench-report/data/*.csv` and renders `BENCHMARKS.md` and the
//! charts `tools/bench-report/charts/*.svg` from them.
//!
//! One place per figure: the `elephant-bench-report` binary writes the
//! report with this library, and elephant-aead's `tests/integration/readme.rs`
//! uses it too (a dev-dependency), to check that the committed report and
//! charts are what the data gives and that the README, SECURITY.md and the
//! API docs quote the data. Std only, so that the crate's tests build
//! nothing more for it.
//!
//! A data file is a CSV table with a header of `# key: value` lines:
//! `title`, `order` (sections in ascending order), `kind`, `machine`,
//! `method` and `reproduce` (one sentence each), and optionally `import`
//! (the measuring tool's output that `bench-report import` reads) and
//! `level: 3` (a subsection of the section before it). Kinds:
//!
//! - `timed`: rows `instance,bytes,ns`, one encryption's time; the report
//!   pivots them (a row per instance, a column per size) and gives each
//!   time's throughput relative to ChaCha20-Poly1305's in the same table;
//! - `counted`: a row per cipher, executed instructions and stack bytes
//!   (the column `enc 1500 B` gives the chart), the file named after its
//!   core; where [`BEST_C`] has the core's counts for a cipher, the report
//!   adds how many times fewer instructions than that C it takes;
//! - `many`: a row per packet size and packets per call, then the time per
//!   packet of each cipher;
//! - `table`: any other table, shown as it is.
//!
//! A new platform class is a new data file: no code changes.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;

/// The data files, from the repository's root.
pub const DATA: &str = "tools/bench-report/data";

/// The report, from the repository's root.
pub const REPORT: &str = "BENCHMARKS.md";

/// The cipher every `timed` ratio is relative to.
pub const REFERENCE: &str = "ChaCha20-Poly1305";

/// The data file (a `table`) of the best C implementations' counts: rows
/// `core,cipher,` then [`BEST_C_SIZES`], the core a `counted` file's name.
pub const BEST_C: &str = "best-c";

/// The columns the firmware tables are compared with [`BEST_C`] at.
pub const BEST_C_SIZES: [&str; 2] = ["enc 16 B", "enc 128 B"];

/// The ciphers drawn in the Elephant colour in the charts.
const ELEPHANTS: [&str; 3] = ["Dumbo", "Jumbo", "Delirium"];

/// One data file.
#[derive(Debug, Clone)]
pub struct Table {
    /// The file's name without `.csv`: the chart's name too.
    pub name: String,
    /// The `# key: value` lines, in order.
    pub meta: Vec<(String, String)>,
    /// The column names.
    pub header: Vec<String>,
    /// The rows, each as many cells as the header.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// Parses one data file's text.
    pub fn parse(name: &str, text: &str) -> Result<Self, String> {
        let mut meta = Vec::new();
        let mut lines = Vec::new();
        for line in text.lines() {
            if let Some(entry) = line.strip_prefix("# ") {
                let (key, value) = entry
                    .split_once(": ")
                    .ok_or_else(|| format!("{name}: not a `# key: value` line: {line}"))?;
                meta.push((key.to_string(), value.to_string()));
            } else if !line.trim().is_empty() {
                lines.push(line.split(',').map(str::to_string).collect::<Vec<_>>());
            }
        }
        let mut lines = lines.into_iter();
        let header = lines
            .next()
            .ok_or_else(|| format!("{name}: no header row"))?;
        let rows: Vec<Vec<String>> = lines.collect();
        if let Some(row) = rows.iter().find(|row| row.len() != header.len()) {
            return Err(format!("{name}: row {row:?} does not match the header"));
        }
        let table = Table {
            name: name.to_string(),
            meta,
            header,
            rows,
        };
        for key in ["title", "order", "kind", "machine", "method", "reproduce"] {
            if table.get(key).is_none() {
                return Err(format!("{name}: no `# {key}:` line"));
            }
        }
        Ok(table)
    }

    /// The value of a `# key: value` line.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.meta
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    fn kind(&self) -> &str {
        self.get("kind").unwrap_or("table")
    }

    fn order(&self) -> f64 {
        self.get("order")
            .and_then(|o| o.parse().ok())
            .unwrap_or(f64::MAX)
    }

    /// The cell in the row whose first cell is `row`, column `column`.
    pub fn cell(&self, row: &str, column: &str) -> Option<&str> {
        let index = self.header.iter().position(|h| h == column)?;
        let found = self
            .rows
            .iter()
            .find(|r| r.first().map(String::as_str) == Some(row))?;
        found.get(index).map(String::as_str)
    }

    /// [`Table::cell`] as a number.
    pub fn number(&self, row: &str, column: &str) -> Option<f64> {
        self.cell(row, column)?.parse().ok()
    }

    /// A `timed` table's time in nanoseconds for `instance` at `bytes`.
    pub fn ns(&self, instance: &str, bytes: u64) -> Option<f64> {
        self.rows
            .iter()
            .find(|r| {
                r.first().map(String::as_str) == Some(instance)
                    && r.get(1).and_then(|b| b.parse().ok()) == Some(bytes)
            })
            .and_then(|r| r.get(2)?.parse().ok())
    }

    /// A `timed` table's throughput of `instance` at `bytes` relative to
    /// [`REFERENCE`] (its time over ours: above 1 is faster).
    pub fn ratio(&self, instance: &str, bytes: u64) -> Option<f64> {
        Some(self.ns(REFERENCE, bytes)? / self.ns(instance, bytes)?)
    }

    /// A `timed` table's instances and sizes, in the order they first appear.
    fn instances_and_sizes(&self) -> (Vec<String>, Vec<u64>) {
        let mut instances: Vec<String> = Vec::new();
        let mut sizes: Vec<u64> = Vec::new();
        for row in &self.rows {
            if let Some(instance) = row.first() {
                if !instances.contains(instance) {
                    instances.push(instance.clone());
                }
            }
            if let Some(size) = row.get(1).and_then(|s| s.parse().ok()) {
                if !sizes.contains(&size) {
                    sizes.push(size);
                }
            }
        }
        (instances, sizes)
    }
}

/// Reads every `*.csv` of `dir`, in report order.
pub fn load(dir: &Path) -> Result<Vec<Table>, String> {
    let mut tables = Vec::new();
    let entries = fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.extension().and_then(|e| e.to_str()) != Some("csv") {
            continue;
        }
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .ok_or_else(|| format!("{}: not a UTF-8 name", path.display()))?;
        let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        tables.push(Table::parse(name, &text)?);
    }
    tables.sort_by(|a, b| a.order().total_cmp(&b.order()).then(a.name.cmp(&b.name)));
    Ok(tables)
}

/// The table named `name` (its file stem).
pub fn find<'a>(tables: &'a [Table], name: &str) -> Option<&'a Table> {
    tables.iter().find(|t| t.name == name)
}

/// How many times fewer instructions `cipher` takes in the `counted`
/// table `core` than the best C implementation (its count in [`BEST_C`]
/// divided by ours), in `column`.
pub fn fewer_than_best_c(
    tables: &[Table],
    core: &Table,
    cipher: &str,
    column: &str,
) -> Option<f64> {
    let best = find(tables, BEST_C)?;
    let index = best.header.iter().position(|h| h == column)?;
    let row = best
        .rows
        .iter()
        .find(|r| r.first() == Some(&core.name) && r.get(1).map(String::as_str) == Some(cipher))?;
    let c: f64 = row.get(index)?.parse().ok()?;
    Some(c / core.number(cipher, column)?)
}

/// A `counted` table with a last column against [`BEST_C`] (if it has the
/// core's counts): best C's count ÷ ours at each of [`BEST_C_SIZES`].
pub fn counted_markdown(table: &Table, tables: &[Table]) -> String {
    let against: Vec<Option<String>> = table
        .rows
        .iter()
        .map(|row| {
            let cipher = row.first()?;
            let ratios = BEST_C_SIZES
                .iter()
                .map(|size| Some(ratio_label(fewer_than_best_c(tables, table, cipher, size)?)))
                .collect::<Option<Vec<String>>>()?;
            Some(ratios.join(" / "))
        })
        .collect();
    if against.iter().all(Option::is_none) {
        return markdown(table);
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| {} | best C ÷ this, 16 / 128 B |",
        table.header.join(" | ")
    );
    out.push_str("|---|");
    out.push_str(&"---:|".repeat(table.header.len()));
    out.push('\n');
    for (row, ratios) in table.rows.iter().zip(&against) {
        let cells: Vec<String> = row.iter().map(|c| shown(c)).collect();
        let ratios = ratios.as_deref().unwrap_or("—");
        let _ = writeln!(out, "| {} | {ratios} |", cells.join(" | "));
    }
    out
}

/// `value` with thousands separators: `4,096`.
pub fn thousands(value: u64) -> String {
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

/// A size in bytes as the report names it: `16 B`, `1500 B`, `16 KiB`.
pub fn size_label(bytes: u64) -> String {
    if bytes >= 1024 && bytes % 1024 == 0 {
        format!("{} KiB", bytes / 1024)
    } else {
        format!("{bytes} B")
    }
}

/// A time in nanoseconds, three significant digits: `491 ns`, `6.83 µs`.
pub fn duration(ns: f64) -> String {
    if ns < 1000.0 {
        format!("{ns:.0} ns")
    } else if ns < 10_000.0 {
        format!("{:.2} µs", ns / 1000.0)
    } else if ns < 100_000.0 {
        format!("{:.1} µs", ns / 1000.0)
    } else if ns < 1_000_000.0 {
        format!("{:.0} µs", ns / 1000.0)
    } else {
        format!("{:.2} ms", ns / 1e6)
    }
}

/// A throughput ratio: `0.40×`, `1.62×`, `0.040×`.
pub fn ratio_label(value: f64) -> String {
    if value < 0.1 {
        format!("{value:.3}×")
    } else {
        format!("{value:.2}×")
    }
}

/// A cell of a `counted`, `many` or `table` table: whole numbers get
/// thousands separators, the rest is shown as it is (empty: a dash).
fn shown(cell: &str) -> String {
    match cell.parse::<u64>() {
        Ok(n) => thousands(n),
        Err(_) if cell.is_empty() => "—".into(),
        Err(_) => cell.to_string(),
    }
}

/// The markdown table of `table`.
pub fn markdown(table: &Table) -> String {
    let mut out = String::new();
    if table.kind() == "timed" {
        let (instances, sizes) = table.instances_and_sizes();
        out.push_str("| encryption, 5 B AD |");
        for size in &sizes {
            let _ = write!(out, " {} |", size_label(*size));
        }
        out.push_str("\n|---|");
        out.push_str(&"---:|".repeat(sizes.len()));
        out.push('\n');
        for instance in &instances {
            let _ = write!(out, "| {instance} |");
            for &size in &sizes {
                let cell = match (table.ns(instance, size), table.ratio(instance, size)) {
                    (Some(ns), Some(r)) => format!("{} ({})", duration(ns), ratio_label(r)),
                    (Some(ns), None) => duration(ns),
                    _ => "—".into(),
                };
                let _ = write!(out, " {cell} |");
            }
            out.push('\n');
        }
        return out;
    }
    let _ = writeln!(out, "| {} |", table.header.join(" | "));
    out.push_str("|---|");
    out.push_str(&"---:|".repeat(table.header.len().saturating_sub(1)));
    out.push('\n');
    for row in &table.rows {
        let cells: Vec<String> = row.iter().map(|c| shown(c)).collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out
}

/// What the report says before its sections.
const INTRO: &str = "\
# Benchmarks

<!-- Generated by tools/bench-report from tools/bench-report/data/*.csv; edit
the data and run `cargo run --manifest-path tools/bench-report/Cargo.toml`,
not this file. -->

Where `elephant-aead` stands today, one section per platform class, next to
the AEADs a Rust user would otherwise pick. Each section names its machine
and its method in a sentence each, gives its table (and a chart), and the
command that measures it again. Times are one encryption with 5 bytes of
associated data; the ratio in brackets is ChaCha20-Poly1305's time in the
same table divided by the cipher's (above 1× is faster than
ChaCha20-Poly1305). Counted instructions are exact, the same on every run,
and a proxy for cycles, not a time; each firmware table's last column is
the best C implementation's count divided by the cipher's (above 1× takes
fewer instructions than that C).

On your own machine, `cargo bench --bench summary` prints the time, the
throughput and the ratio to ChaCha20-Poly1305 of each instance at 16, 1500 and
16384 bytes, and the backend each ran on, then the time per packet of 256
packets of 16 bytes in one multi-message call against ChaCha20-Poly1305 and
Ascon-AEAD128 one packet at a time; `cargo bench -p elephant-aead-benches --bench elephant`
runs the full criterion suite, and a name after `--` runs one group
(`cargo bench -p elephant-aead-benches --bench elephant -- \"many messages\"`).
";

/// What the report says after its sections.
const OUTRO: &str = "\
## Updating this report

Every figure above is a line in `tools/bench-report/data/*.csv`, and this
file and the charts are generated from them:

1. Measure: `cargo bench --bench summary` on the machine of a section (with
   `RUSTFLAGS=\"--cfg elephant_force_soft\"` for the portable one), or the
   section's own command.
2. Put the figures in the section's data file: by hand for timed sections
   and the best C counts, or, for the firmware counts, `cargo run
   --manifest-path tools/bench-report/Cargo.toml -- import` (it reads the
   tables that `.ci/firmware-bench` writes, as each file's `# import:` line
   names).
3. Regenerate: `cargo run --manifest-path tools/bench-report/Cargo.toml`.

A new platform class is a new data file. `cargo test` fails when this file,
a chart, or a figure quoted in the README, SECURITY.md or the API docs no
longer matches the data.
";

/// The chart file of `table`, if its kind has one.
pub fn chart_file(table: &Table) -> Option<String> {
    matches!(table.kind(), "timed" | "counted" | "many")
        .then(|| format!("tools/bench-report/charts/{}.svg", table.name))
}

/// The whole of `BENCHMARKS.md`.
pub fn benchmarks_md(tables: &[Table]) -> String {
    let mut out = String::from(INTRO);
    out.push('\n');
    for table in tables.iter().filter(|t| t.get("level") != Some("3")) {
        let title = table.get("title").unwrap_or(&table.name);
        let _ = writeln!(out, "- [{title}](#{})", anchor(title));
    }
    out.push_str("- [Updating this report](#updating-this-report)\n");
    for table in tables {
        let get = |key| table.get(key).unwrap_or("");
        let _ = write!(
            out,
            "\n{} {}\n\nMachine: {}\n\nMethod: {}\n\n{}",
            if get("level") == "3" { "###" } else { "##" },
            get("title"),
            get("machine"),
            get("method"),
            if table.kind() == "counted" {
                counted_markdown(table, tables)
            } else {
                markdown(table)
            }
        );
        if let Some(file) = chart_file(table) {
            let _ = write!(out, "\n![{}]({file})\n", get("title"));
        }
        // A command, or a sentence that quotes its own commands.
        let reproduce = get("reproduce");
        if reproduce.contains('`') {
            let _ = write!(out, "\nReproduce: {reproduce}\n");
        } else {
            let _ = write!(out, "\nReproduce: `{reproduce}`\n");
        }
    }
    out.push('\n');
    out.push_str(OUTRO);
    out
}

/// A GitHub heading anchor: lower case, spaces to `-`, punctuation dropped.
pub fn anchor(title: &str) -> String {
    title
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c.to_ascii_lowercase()),
            _ => None,
        })
        .collect()
}

/// Every chart: its file and its SVG.
pub fn charts(tables: &[Table]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for table in tables {
        let Some(file) = chart_file(table) else {
            continue;
        };
        let title = table.get("title").unwrap_or(&table.name);
        let svg = match table.kind() {
            "timed" => {
                let (instances, sizes) = table.instances_and_sizes();
                let mut bars = Vec::new();
                for size in &sizes {
                    for instance in instances.iter().filter(|i| *i != REFERENCE) {
                        if let Some(r) = table.ratio(instance, *size) {
                            bars.push((format!("{instance}, {}", size_label(*size)), r));
                        }
                    }
                }
                bar_chart(
                    &format!("{title}: throughput / ChaCha20-Poly1305's"),
                    &bars,
                    "relative to ChaCha20-Poly1305 (log scale, longer is faster)",
                )
            }
            "counted" => {
                let bars: Vec<(String, f64)> = table
                    .rows
                    .iter()
                    .filter_map(|row| {
                        let name = row.first()?;
                        Some((name.clone(), table.number(name, "enc 1500 B")? / 1500.0))
                    })
                    .collect();
                bar_chart(
                    &format!("{title}: encryption of 1500 B"),
                    &bars,
                    "instructions per byte (log scale, shorter is faster)",
                )
            }
            _ => many_chart(table, title),
        };
        out.push((file, svg));
    }
    out
}

fn svg_start(width: f64, height: f64, title: &str) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         font-family=\"sans-serif\" font-size=\"13\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"10\" y=\"24\" font-size=\"16\" font-weight=\"bold\">{title}</text>\n"
    )
}

/// A horizontal bar chart on a log scale.
fn bar_chart(title: &str, bars: &[(String, f64)], axis: &str) -> String {
    let (left, bar_width, row_height, top) = (200.0, 520.0, 24.0, 50.0);
    let height = top + row_height * bars.len() as f64 + 40.0;
    let values = bars.iter().map(|(_, v)| *v);
    let low = values
        .clone()
        .fold(f64::INFINITY, f64::min)
        .min(1.0)
        .log10()
        .floor();
    let high = values.fold(1.0f64, f64::max).log10().ceil().max(low + 1.0);
    let scale = |v: f64| (v.log10() - low) / (high - low) * bar_width;
    let mut svg = svg_start(left + bar_width + 90.0, height, title);
    let mut decade = low;
    while decade <= high {
        let x = left + scale(10f64.powf(decade));
        let _ = write!(
            svg,
            "<line x1=\"{x:.1}\" y1=\"{top}\" x2=\"{x:.1}\" y2=\"{y2}\" stroke=\"#ccc\"/>\n\
             <text x=\"{x:.1}\" y=\"{ty}\" text-anchor=\"middle\" fill=\"#555\">{v}</text>\n",
            y2 = height - 34.0,
            ty = height - 18.0,
            v = 10f64.powf(decade)
        );
        decade += 1.0;
    }
    let _ = writeln!(
        svg,
        "<text x=\"{x}\" y=\"{y}\" text-anchor=\"middle\" fill=\"#555\">{axis}</text>",
        x = left + bar_width / 2.0,
        y = height - 2.0
    );
    for (i, (label, value)) in bars.iter().enumerate() {
        let y = top + row_height * i as f64;
        let colour = if ELEPHANTS.iter().any(|e| label.starts_with(e)) {
            "#3182bd"
        } else {
            "#bdbdbd"
        };
        let width = scale(*value).max(1.0);
        let shown = if *value >= 100.0 {
            format!("{value:.0}")
        } else {
            format!("{value:.2}")
        };
        let _ = write!(
            svg,
            "<text x=\"{lx}\" y=\"{ty}\" text-anchor=\"end\">{label}</text>\n\
             <rect x=\"{left}\" y=\"{ry}\" width=\"{width:.1}\" height=\"{h}\" fill=\"{colour}\"/>\n\
             <text x=\"{vx:.1}\" y=\"{ty}\">{shown}</text>\n",
            lx = left - 8.0,
            ty = y + 16.0,
            ry = y + 4.0,
            h = row_height - 8.0,
            vx = left + width + 6.0,
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// A `many` table's chart: time per packet against packets per call for
/// its first packet size, a line per cipher, both axes on log scales.
fn many_chart(table: &Table, title: &str) -> String {
    const COLOURS: [&str; 6] = [
        "#3182bd", "#e6550d", "#31a354", "#636363", "#000000", "#9ecae1",
    ];
    let size = table
        .rows
        .first()
        .and_then(|r| r.first())
        .cloned()
        .unwrap_or_default();
    let rows: Vec<&Vec<String>> = table
        .rows
        .iter()
        .filter(|r| r.first() == Some(&size))
        .collect();
    let counts: Vec<String> = rows.iter().filter_map(|r| r.get(1).cloned()).collect();
    let ciphers: Vec<&String> = table.header.iter().skip(2).collect();
    let point = |row: &Vec<String>, c: usize| row.get(c + 2).and_then(|v| v.parse::<f64>().ok());
    let values: Vec<f64> = rows
        .iter()
        .flat_map(|r| (0..ciphers.len()).filter_map(|c| point(r, c)))
        .collect();
    let low = values
        .iter()
        .copied()
        .fold(f64::INFINITY, f64::min)
        .max(1.0)
        .log10()
        .floor();
    let high = values
        .iter()
        .copied()
        .fold(1.0f64, f64::max)
        .log10()
        .ceil()
        .max(low + 1.0);
    let (left, plot_width, plot_top, plot_height) = (90.0, 420.0, 50.0, 300.0);
    let steps = counts.len().saturating_sub(1).max(1) as f64;
    let x = |i: usize| left + plot_width * i as f64 / steps;
    let y = |ns: f64| plot_top + plot_height * (high - ns.log10()) / (high - low);
    let mut svg = svg_start(
        left + plot_width + 240.0,
        plot_top + plot_height + 60.0,
        &format!("{title}: {size} packets, sealing"),
    );
    let mut decade = low;
    while decade <= high {
        let ty = y(10f64.powf(decade));
        let _ = write!(
            svg,
            "<line x1=\"{left}\" y1=\"{ty:.1}\" x2=\"{x2}\" y2=\"{ty:.1}\" stroke=\"#ccc\"/>\n\
             <text x=\"{lx}\" y=\"{ly:.1}\" text-anchor=\"end\" fill=\"#555\">{label} ns</text>\n",
            x2 = left + plot_width,
            lx = left - 6.0,
            ly = ty + 4.0,
            label = 10f64.powf(decade)
        );
        decade += 1.0;
    }
    for (i, count) in counts.iter().enumerate() {
        let _ = writeln!(
            svg,
            "<text x=\"{cx:.1}\" y=\"{ty}\" text-anchor=\"middle\" fill=\"#555\">{count}</text>",
            cx = x(i),
            ty = plot_top + plot_height + 18.0,
        );
    }
    let _ = writeln!(
        svg,
        "<text x=\"{cx}\" y=\"{cy}\" text-anchor=\"middle\" fill=\"#555\">packets per call; \
         time per packet (log scales, lower is faster)</text>",
        cx = left + plot_width / 2.0,
        cy = plot_top + plot_height + 42.0
    );
    for (c, cipher) in ciphers.iter().enumerate() {
        let colour = COLOURS.get(c).copied().unwrap_or("#000000");
        let line: Vec<String> = rows
            .iter()
            .enumerate()
            .filter_map(|(i, r)| Some(format!("{:.1},{:.1}", x(i), y(point(r, c)?))))
            .collect();
        let ly = plot_top + 10.0 + 22.0 * c as f64;
        let lx = left + plot_width + 20.0;
        let _ = write!(
            svg,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"/>\n\
             <line x1=\"{lx}\" y1=\"{ly}\" x2=\"{x2}\" y2=\"{ly}\" stroke=\"{colour}\" stroke-width=\"2\"/>\n\
             <text x=\"{tx}\" y=\"{ty}\">{cipher}</text>\n",
            line.join(" "),
            x2 = lx + 28.0,
            tx = lx + 34.0,
            ty = ly + 4.0,
        );
    }
    svg.push_str("</svg>\n");
    svg
}

/// Replaces `table`'s rows by those of a markdown table (`| a | b |` lines,
/// the first column the row's name) for the names `table` already has;
/// thousands separators are dropped. Returns the new file text.
pub fn import_markdown(table: &Table, text: &str, markdown_table: &str) -> Result<String, String> {
    let lines: Vec<Vec<String>> = markdown_table
        .lines()
        .filter(|l| l.starts_with('|') && !l.starts_with("|---"))
        .map(|l| {
            l.trim_matches('|')
                .split('|')
                .map(|c| c.trim().replace(',', ""))
                .collect()
        })
        .collect();
    let head = lines.first().ok_or("no markdown table")?;
    let mut out = String::new();
    for line in text.lines().filter(|l| l.starts_with("# ")) {
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(out, "{}", table.header.join(","));
    for row in &table.rows {
        let name = row.first().ok_or("empty row")?;
        let source = lines
            .iter()
            .find(|l| l.first() == Some(name))
            .ok_or_else(|| format!("{}: no row {name} in the measured table", table.name))?;
        let mut cells = vec![name.clone()];
        for column in table.header.iter().skip(1) {
            let index = head.iter().position(|h| h == column).ok_or_else(|| {
                format!("{}: no column {column} in the measured table", table.name)
            })?;
            cells.push(source.get(index).cloned().unwrap_or_default());
        }
        let _ = writeln!(out, "{}", cells.join(","));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TIMED: &str = "# title: T\n# order: 1\n# kind: timed\n# machine: m\n# method: x\n\
        # reproduce: r\ninstance,bytes,ns\nDumbo,16,2000\nChaCha20-Poly1305,16,1000\n\
        Dumbo,16384,20000\nChaCha20-Poly1305,16384,10000\n";

    #[test]
    fn timed_tables_pivot_with_same_table_ratios() {
        let table = Table::parse("t", TIMED).unwrap();
        assert_eq!(table.ratio("Dumbo", 16), Some(0.5));
        let md = markdown(&table);
        let lines: Vec<&str> = md.lines().collect();
        assert_eq!(lines[0], "| encryption, 5 B AD | 16 B | 16 KiB |");
        assert_eq!(lines[2], "| Dumbo | 2.00 µs (0.50×) | 20.0 µs (0.50×) |");
        assert_eq!(
            lines[3],
            "| ChaCha20-Poly1305 | 1.00 µs (1.00×) | 10.0 µs (1.00×) |"
        );
    }

    #[test]
    fn counted_tables_compare_with_the_best_c() {
        let head = "# order: 1\n# machine: m\n# method: x\n# reproduce: r\n";
        let core = Table::parse(
            "m4",
            &format!("# title: M4\n# kind: counted\n{head}cipher,enc 16 B,enc 128 B\nDumbo,100,400\nAscon,10,20\n"),
        )
        .unwrap();
        let best = Table::parse(
            BEST_C,
            &format!("# title: C\n# kind: table\n{head}core,cipher,enc 16 B,enc 128 B\nm0,Dumbo,1,1\nm4,Dumbo,300,1000\n"),
        )
        .unwrap();
        let tables = vec![core.clone(), best];
        assert_eq!(
            fewer_than_best_c(&tables, &core, "Dumbo", "enc 16 B"),
            Some(3.0)
        );
        assert_eq!(fewer_than_best_c(&tables, &core, "Ascon", "enc 16 B"), None);
        let md = counted_markdown(&core, &tables);
        let lines: Vec<&str> = md.lines().collect();
        assert_eq!(
            lines[0],
            "| cipher | enc 16 B | enc 128 B | best C ÷ this, 16 / 128 B |"
        );
        assert_eq!(lines[1], "|---|---:|---:|---:|");
        assert_eq!(lines[2], "| Dumbo | 100 | 400 | 3.00× / 2.50× |");
        assert_eq!(lines[3], "| Ascon | 10 | 20 | — |");
        assert_eq!(counted_markdown(&core, &tables[..1]), markdown(&core));
    }

    #[test]
    fn header_lines_are_required() {
        assert!(Table::parse("t", "# title: T\na,b\n1,2\n").is_err());
        assert!(Table::parse("t", &TIMED.replace("Dumbo,16,2000", "Dumbo,16")).is_err());
    }

    #[test]
    fn formats() {
        assert_eq!(thousands(1662305), "1,662,305");
        assert_eq!(duration(491.0), "491 ns");
        assert_eq!(duration(27_850.0), "27.9 µs");
        assert_eq!(ratio_label(0.0403), "0.040×");
        assert_eq!(size_label(1500), "1500 B");
        assert_eq!(
            anchor("Cortex-M4, counted instructions"),
            "cortex-m4-counted-instructions"
        );
    }

    #[test]
    fn import_takes_the_columns_the_data_names() {
        let text = "# title: C\n# order: 2\n# kind: counted\n# machine: m\n# method: x\n\
            # reproduce: r\ncipher,enc 16 B\nDumbo,1\n";
        let table = Table::parse("c", text).unwrap();
        let measured = "| cipher | enc 16 B | other |\n|---|---:|---:|\n| Dumbo | 43,589 | 9 |\n";
        let new = import_markdown(&table, text, measured).unwrap();
        assert!(new.ends_with("cipher,enc 16 B\nDumbo,43589\n"));
        assert!(import_markdown(&table, text, "| cipher | x |\n| Dumbo | 1 |\n").is_err());
    }
}
