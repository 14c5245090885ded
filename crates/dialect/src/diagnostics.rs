//! Captures MLIR diagnostics as Rust values instead of letting MLIR print
//! them, so failures become typed errors.

use crate::error::Diagnostic;
use melior::Context;
use melior::diagnostic::{DiagnosticHandlerId, DiagnosticSeverity};
use melior::ir::Location;
use std::sync::{Arc, Mutex};

/// While alive, collects every diagnostic the context emits.
pub struct DiagnosticCapture<'c> {
    context: &'c Context,
    id: Option<DiagnosticHandlerId>,
    store: Arc<Mutex<Vec<Diagnostic>>>,
}

impl<'c> DiagnosticCapture<'c> {
    /// Starts capturing the diagnostics of `context`.
    pub fn new(context: &'c Context) -> Self {
        let store = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&store);
        let id = context.attach_diagnostic_handler(move |d| {
            let mut entries = vec![convert(&d)];
            for i in 0..d.note_count() {
                if let Ok(note) = d.note(i) {
                    entries.push(convert(&note));
                }
            }
            if let Ok(mut s) = sink.lock() {
                s.extend(entries);
            }
            true
        });
        DiagnosticCapture {
            context,
            id: Some(id),
            store,
        }
    }

    /// Stops capturing and returns what was collected.
    pub fn finish(mut self) -> Vec<Diagnostic> {
        self.detach();
        std::mem::take(&mut *self.store.lock().unwrap_or_else(|e| e.into_inner()))
    }

    fn detach(&mut self) {
        if let Some(id) = self.id.take() {
            self.context.detach_diagnostic_handler(id);
        }
    }
}

impl Drop for DiagnosticCapture<'_> {
    fn drop(&mut self) {
        self.detach();
    }
}

fn convert(d: &melior::diagnostic::Diagnostic) -> Diagnostic {
    Diagnostic {
        severity: match d.severity() {
            DiagnosticSeverity::Error => "error",
            DiagnosticSeverity::Warning => "warning",
            DiagnosticSeverity::Note => "note",
            DiagnosticSeverity::Remark => "remark",
        },
        location: location_string(d.location()),
        message: d.to_string(),
    }
}

/// `file:line:col` for file locations (also inside name and call-site
/// locations); MLIR's own spelling otherwise.
pub fn location_string(loc: Location) -> String {
    if loc.is_file_line_col_range() {
        return format!(
            "{}:{}:{}",
            loc.file_line_col_range_filename()
                .as_string_ref()
                .as_str()
                .unwrap_or("?"),
            loc.file_line_col_range_start_line(),
            loc.file_line_col_range_start_column()
        );
    }
    if loc.is_name() {
        return location_string(loc.name_child_location());
    }
    if loc.is_call_site() {
        return location_string(loc.call_site_caller());
    }
    if loc.is_fused() && loc.fused_num_locations() > 0 {
        return location_string(loc.fused_location(0));
    }
    loc.to_string()
}
