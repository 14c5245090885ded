//! Writing each stage of a compilation to numbered files.

use std::path::{Path, PathBuf};

/// The variable naming the folder stages are dumped to.
pub const DUMP_DIR_VAR: &str = "TILE_DUMP_DIR";
/// The variable restricting dumps to kernels whose name contains it.
pub const DUMP_FILTER_VAR: &str = "TILE_DUMP_FILTER";

/// Where stages go: `dir/<kernel>/NN-<stage>.mlir` (and `.ptx`), for
/// kernels whose name contains `filter` (all when `None`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dump {
    /// The folder; one subfolder per kernel.
    pub dir: PathBuf,
    /// Only kernels whose name contains this.
    pub filter: Option<String>,
}

impl Dump {
    /// Dumps of every kernel into `dir`.
    pub fn to(dir: impl Into<PathBuf>) -> Dump {
        Dump {
            dir: dir.into(),
            filter: None,
        }
    }

    /// `TILE_DUMP_DIR` and `TILE_DUMP_FILTER`, when the first is set and
    /// not empty.
    pub fn from_env() -> Option<Dump> {
        let dir = std::env::var_os(DUMP_DIR_VAR).filter(|d| !d.is_empty())?;
        let filter = std::env::var(DUMP_FILTER_VAR)
            .ok()
            .filter(|f| !f.is_empty());
        Some(Dump {
            dir: dir.into(),
            filter,
        })
    }

    /// Whether kernel `name` is dumped.
    pub fn wants(&self, name: &str) -> bool {
        self.filter.as_deref().is_none_or(|f| name.contains(f))
    }

    /// The folder of kernel `name`'s stages.
    pub fn kernel_dir(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// Writes stage `index` (`NN-<stage>.<ext>`) of kernel `name`.
    pub fn write(
        &self,
        name: &str,
        index: usize,
        stage: &str,
        ext: &str,
        text: &str,
    ) -> std::io::Result<PathBuf> {
        let dir = self.kernel_dir(name);
        std::fs::create_dir_all(&dir)?;
        let path = dir.join(format!("{index:02}-{stage}.{ext}"));
        write_file(&path, text)?;
        Ok(path)
    }
}

fn write_file(path: &Path, text: &str) -> std::io::Result<()> {
    std::fs::write(path, text)
}
