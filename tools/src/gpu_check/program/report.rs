//! What `tile-tools gpu-check` says of its cases: a `PASS` or `FAIL` line
//! as each finishes, then a table of the groups, the totals, and how the
//! GPU's launches compared with the CPU interpreter's.

use crate::gpu_check::{GUARD, Outcome, POISON, cross_check};
use crate::markdown::Table;
use std::time::Instant;
use tile::Device;

/// One case's record.
struct Record {
    group: String,
    passed: bool,
}

/// The cases run so far.
#[derive(Default)]
pub struct Report {
    records: Vec<Record>,
}

impl Report {
    /// Records the outcome of `case` in `group` and prints its line.
    pub fn record(&mut self, group: &str, case: String, outcome: Outcome) {
        let (passed, note) = match outcome {
            Ok(()) => (true, String::new()),
            Err(e) => (false, e),
        };
        println!(
            "{} {group} {case} {note}",
            if passed { "PASS" } else { "FAIL" }
        );
        self.records.push(Record {
            group: group.to_string(),
            passed,
        });
    }

    /// The table of the groups in order of first appearance (cases of two
    /// groups interleave): cases, passed and failed.
    fn table(&self) -> Table {
        let mut groups: Vec<&str> = Vec::new();
        for r in &self.records {
            if !groups.contains(&r.group.as_str()) {
                groups.push(&r.group);
            }
        }
        let mut table = Table::new(&["group", "cases", "passed", "failed"]);
        for g in groups {
            let cases = self.records.iter().filter(|r| r.group == g).count();
            let passed = self
                .records
                .iter()
                .filter(|r| r.group == g && r.passed)
                .count();
            table.push([
                g.to_string(),
                cases.to_string(),
                passed.to_string(),
                (cases - passed).to_string(),
            ]);
        }
        table
    }

    /// Prints the table, the totals (on the device named `name`, since
    /// `started`) and, on a GPU with the cross-check on, how its launches
    /// compared with the interpreter's. True when every case passed.
    pub fn summarize(&self, name: &str, started: Instant, device: &Device) -> bool {
        let failed = self.records.iter().filter(|r| !r.passed).count();
        println!();
        print!("{}", self.table());
        println!(
            "\n{} cases, {failed} failed, poison {:#x}, guard {GUARD} elements, {:.1} s on {name}",
            self.records.len(),
            POISON.to_bits(),
            started.elapsed().as_secs_f64()
        );
        if let Some(line) = cross_check::summary(device) {
            println!("\n{line}");
        }
        failed == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_counted_in_order_of_first_appearance() {
        let mut report = Report::default();
        report.record("b", "one".into(), Ok(()));
        report.record("a", "two".into(), Err("wrong".into()));
        report.record("b", "three".into(), Err("wrong".into()));
        assert_eq!(
            report.table().to_string(),
            "| group | cases | passed | failed |\n|---|---|---|---|\n| b | 2 | 1 | 1 |\n| a | 1 | 0 | 1 |\n"
        );
        assert!(!report.summarize("test", Instant::now(), &Device::interpreter()));
        assert!(Report::default().summarize("test", Instant::now(), &Device::interpreter()));
    }
}
