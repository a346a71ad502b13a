//! Writes `BENCHMARKS.md` and the charts `tools/bench-report/charts/*.svg`
//! from the measured figures in `tools/bench-report/data/*.csv` (the
//! rendering is this package's library, which elephant-aead's
//! `tests/integration/readme.rs` uses too, to check the committed files).
//!
//! Usage, from the repository root (`cargo run --manifest-path
//! tools/bench-report/Cargo.toml -- [command]`):
//!
//! - no command: regenerate the report and the charts;
//! - `check`: fail if they differ from what the data gives;
//! - `import`: refresh the data files that name a measuring tool's output
//!   (`# import:`, e.g. the tables `.ci/firmware-bench` writes) from that
//!   output, then regenerate.

use elephant_bench_report::{self as report, DATA, REPORT};
use std::fs;
use std::path::Path;

/// The report and the charts the data gives: (file, contents).
fn outputs() -> Result<Vec<(String, String)>, String> {
    let tables = report::load(Path::new(DATA))?;
    let mut files = vec![(REPORT.to_string(), report::benchmarks_md(&tables))];
    files.extend(report::charts(&tables));
    Ok(files)
}

/// Rewrites every data file that has an `# import:` source present.
fn import() -> Result<(), String> {
    for table in report::load(Path::new(DATA))? {
        let Some(source) = table.get("import") else {
            continue;
        };
        let Ok(measured) = fs::read_to_string(source) else {
            println!("{}: no {source}, left as it is", table.name);
            continue;
        };
        let file = format!("{DATA}/{}.csv", table.name);
        let text = fs::read_to_string(&file).map_err(|e| format!("{file}: {e}"))?;
        fs::write(&file, report::import_markdown(&table, &text, &measured)?)
            .map_err(|e| format!("{file}: {e}"))?;
        println!("{file}: imported from {source}");
    }
    Ok(())
}

fn main() -> Result<(), String> {
    if !Path::new(DATA).is_dir() {
        return Err(format!("no {DATA}: run from the repository root"));
    }
    let command = std::env::args().nth(1);
    match command.as_deref() {
        None => {}
        Some("import") => import()?,
        Some("check") => {
            let stale: Vec<String> = outputs()?
                .into_iter()
                .filter(|(file, text)| fs::read_to_string(file).ok().as_deref() != Some(text))
                .map(|(file, _)| file)
                .collect();
            if stale.is_empty() {
                return Ok(());
            }
            return Err(format!("stale (run bench-report): {}", stale.join(", ")));
        }
        Some(other) => return Err(format!("unknown command {other:?} (see the tool's docs)")),
    }
    for (file, text) in outputs()? {
        fs::write(&file, text).map_err(|e| format!("{file}: {e}"))?;
        println!("wrote {file}");
    }
    Ok(())
}
