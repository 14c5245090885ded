//! The Markdown the programs print and write, written once: tables
//! ([`Table`]) and reports (a title, a list of facts, then the tables:
//! [`report`], written by [`write_report`]; [`publish`] ends a benchmark
//! with both).

use std::fmt::Display;

/// A Markdown table: a header row, a rule, then one row a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    lines: Vec<String>,
}

impl Table {
    /// A table under `header`, its rule `|---|---|...`.
    pub fn new(header: &[&str]) -> Table {
        Table {
            lines: vec![row(header), format!("|{}", "---|".repeat(header.len()))],
        }
    }

    /// A table under `header`, its rule cells given (`---:` aligns a
    /// column right): `| --- | ---: |`.
    pub fn with_rule(header: &[&str], rule: &[&str]) -> Table {
        Table {
            lines: vec![row(header), row(rule)],
        }
    }

    /// Adds a row of `cells`.
    pub fn push<T: Display>(&mut self, cells: impl IntoIterator<Item = T>) {
        let cells: Vec<String> = cells.into_iter().map(|c| c.to_string()).collect();
        self.lines.push(row(&cells));
    }

    /// Adds a line as it is (a row formatted elsewhere).
    pub fn push_line(&mut self, line: String) {
        self.lines.push(line);
    }

    /// The header, the rule and the rows, one a line.
    pub fn lines(&self) -> &[String] {
        &self.lines
    }
}

impl Display for Table {
    /// Each line ended by a newline.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.lines.iter().try_for_each(|line| writeln!(f, "{line}"))
    }
}

/// `| a | b |`.
fn row<T: AsRef<str>>(cells: &[T]) -> String {
    let cells: Vec<&str> = cells.iter().map(AsRef::as_ref).collect();
    format!("| {} |", cells.join(" | "))
}

/// A report: `# TITLE`, a blank line, each fact as `- FACT`, a blank
/// line, then `body` (the tables).
pub fn report(title: &str, facts: &[String], body: &str) -> String {
    let facts: Vec<String> = facts.iter().map(|f| format!("- {f}")).collect();
    format!("# {title}\n\n{}\n\n{body}", facts.join("\n"))
}

/// Writes a Markdown `report` to `path` and says so; false (after a
/// `FAIL` line) when it cannot.
pub fn write_report(path: &std::path::Path, report: &str) -> bool {
    match std::fs::write(path, report) {
        Ok(()) => {
            println!("wrote {}", path.display());
            true
        }
        Err(e) => {
            println!("FAIL: cannot write {}: {e}", path.display());
            false
        }
    }
}

/// Ends a benchmark: writes the report (`title`, `facts`, then `table`)
/// to `out` when given, then prints `table` last. False when the report
/// could not be written.
pub fn publish(out: Option<&std::path::Path>, title: &str, facts: &[String], table: &str) -> bool {
    let written = out.is_none_or(|path| write_report(path, &report(title, facts, table)));
    println!("\n{table}");
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_and_reports() {
        let mut t = Table::new(&["a", "b"]);
        t.push(["1", "2"]);
        t.push([3.5, 4.0]);
        assert_eq!(
            t.to_string(),
            "| a | b |\n|---|---|\n| 1 | 2 |\n| 3.5 | 4 |\n"
        );
        let mut aligned = Table::with_rule(&["x", "ms"], &["---", "---:"]);
        aligned.push_line("| **y** | 1 |".into());
        assert_eq!(
            aligned.to_string(),
            "| x | ms |\n| --- | ---: |\n| **y** | 1 |\n"
        );
        assert_eq!(aligned.lines().len(), 3);
        let r = report("t", &["device: H100".into(), "INFO x".into()], "| t |");
        assert_eq!(r, "# t\n\n- device: H100\n- INFO x\n\n| t |");
    }

    #[test]
    fn an_unwritable_report_is_a_failure() {
        let dir = tempfile::tempdir().unwrap();
        assert!(write_report(&dir.path().join("r.md"), "# r"));
        assert!(!write_report(&dir.path().join("no/such/dir/r.md"), "# r"));
        let path = dir.path().join("p.md");
        assert!(publish(Some(&path), "t", &["a".into()], "| t |"));
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "# t\n\n- a\n\n| t |"
        );
        assert!(publish(None, "t", &[], "| t |"));
    }
}
