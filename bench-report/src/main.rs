//! Writes `BENCHMARKS.md` and the charts `benchmarks/*.svg` from the
//! measured figures in `benchmarks/data/*.csv` (the rendering is
//! `benchmarks/report.rs`, which `tests/integration/readme.rs` shares to check the
//! committed files).
//!
//! Usage, from the repository root:
//!
//! - `bench-report`: regenerate the report and the charts;
//! - `bench-report check`: fail if they differ from what the data gives;
//! - `bench-report import`: refresh the data files that name a measuring
//!   tool's output (`# import:`, e.g. the tables `.ci/firmware-bench`
//!   writes) from that output, then regenerate.

#[allow(dead_code)] // `find` serves the tests of the figures.
#[path = "../../benchmarks/report.rs"]
mod report;

use std::fs;
use std::path::Path;

const DATA: &str = "benchmarks/data";
const REPORT: &str = "BENCHMARKS.md";

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

#[cfg(test)]
mod tests {
    use super::report::*;

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
