//! Compiled kernels on disk: one file per [`CacheKey`], written so that
//! concurrent writers and crashes can never leave a half-written entry
//! under an entry's name.
//!
//! An entry is `<dir>/<key hex>.tile`: a line `key <hex>` followed by the
//! [`Artifact`] bytes, whose checksum covers the rest. A writer writes a
//! temporary file in the same directory and renames it over the entry
//! (atomic on POSIX file systems); every writer of a key writes the same
//! bytes, so the last rename wins harmlessly. A reader that finds a
//! truncated, damaged or foreign file reports it as
//! [`Lookup::Corrupt`], and the caller recompiles and overwrites it.

use crate::artifact::Artifact;
use crate::cache_key::CacheKey;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The variable naming the cache directory (overrides the default).
pub const CACHE_DIR_VAR: &str = "TILE_CACHE_DIR";
/// The variable that turns the disk cache off: any value but `0` or empty.
pub const NO_CACHE_VAR: &str = "TILE_NO_CACHE";

/// The file extension of entries.
const EXTENSION: &str = "tile";

/// A directory of compiled kernels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiskCache {
    dir: PathBuf,
}

/// What [`DiskCache::load`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// A valid entry.
    Hit(Artifact),
    /// No entry for the key.
    Miss,
    /// An entry that cannot be used; it will be overwritten.
    Corrupt {
        /// The entry's path.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
}

impl DiskCache {
    /// A cache in `dir` (created on the first store).
    pub fn at(dir: impl Into<PathBuf>) -> DiskCache {
        DiskCache { dir: dir.into() }
    }

    /// The cache the environment asks for: none when [`NO_CACHE_VAR`] is
    /// set, else [`CACHE_DIR_VAR`] when set, else the user's cache
    /// directory (`$XDG_CACHE_HOME/tile`, else `$HOME/.cache/tile`; on
    /// macOS `~/Library/Caches/tile`; on Windows `%LOCALAPPDATA%\tile`).
    /// `None` too when no directory can be found.
    pub fn from_env() -> Option<DiskCache> {
        Self::from_vars(|name| std::env::var_os(name))
    }

    /// [`from_env`](Self::from_env) with the variables read through `var`.
    pub fn from_vars(var: impl Fn(&str) -> Option<std::ffi::OsString>) -> Option<DiskCache> {
        let set = |name: &str| var(name).filter(|v| !v.is_empty());
        if set(NO_CACHE_VAR).is_some_and(|v| v != "0") {
            return None;
        }
        if let Some(dir) = set(CACHE_DIR_VAR) {
            return Some(DiskCache::at(dir));
        }
        let absolute = |name: &str| set(name).map(PathBuf::from).filter(|p| p.is_absolute());
        let base = if cfg!(target_os = "macos") {
            absolute("HOME").map(|h| h.join("Library").join("Caches"))
        } else if cfg!(windows) {
            absolute("LOCALAPPDATA")
        } else {
            absolute("XDG_CACHE_HOME").or_else(|| absolute("HOME").map(|h| h.join(".cache")))
        }?;
        Some(DiskCache::at(base.join("tile")))
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where the entry for `key` lives.
    pub fn path_of(&self, key: &CacheKey) -> PathBuf {
        self.dir.join(format!("{}.{EXTENSION}", key.hex()))
    }

    /// Reads the entry for `key`. An unreadable directory counts as a
    /// miss; a file that is there but not a valid entry for `key` is
    /// [`Lookup::Corrupt`].
    pub fn load(&self, key: &CacheKey) -> Lookup {
        let path = self.path_of(key);
        let bytes = match fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Lookup::Miss,
            Err(e) => {
                return Lookup::Corrupt {
                    path,
                    reason: format!("cannot be read: {e}"),
                };
            }
        };
        let header = format!("key {}\n", key.hex());
        let corrupt = |reason: String| Lookup::Corrupt {
            path: path.clone(),
            reason,
        };
        let Some(rest) = bytes.strip_prefix(header.as_bytes()) else {
            return corrupt(format!(
                "does not start with the line `key {}`{}",
                key.hex(),
                if bytes.is_empty() {
                    " (it is empty)"
                } else {
                    ""
                }
            ));
        };
        match Artifact::from_bytes(rest) {
            Ok(artifact) => Lookup::Hit(artifact),
            Err(e) => corrupt(e.to_string()),
        }
    }

    /// Writes the entry for `key` (replacing any), through a temporary
    /// file renamed into place. Returns the entry's path.
    pub fn store(&self, key: &CacheKey, artifact: &Artifact) -> io::Result<PathBuf> {
        let mut bytes = format!("key {}\n", key.hex()).into_bytes();
        bytes.extend(
            artifact
                .to_bytes()
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?,
        );
        self.write_atomic(&format!("{}.{EXTENSION}", key.hex()), &bytes)
    }

    /// Writes `bytes` to the file `name` in the directory (creating it),
    /// through a temporary file renamed into place, so readers see the
    /// old file or the new one, never a part. Returns the file's path.
    pub fn write_atomic(&self, name: &str, bytes: &[u8]) -> io::Result<PathBuf> {
        fs::create_dir_all(&self.dir)?;
        let path = self.dir.join(name);
        let temp = self.dir.join(temp_name(name));
        let written = fs::File::create(&temp).and_then(|mut f| f.write_all(bytes));
        if let Err(e) = written.and_then(|()| fs::rename(&temp, &path)) {
            let _ = fs::remove_file(&temp);
            return Err(e);
        }
        Ok(path)
    }

    /// The paths of every entry (not temporary files), sorted.
    pub fn entries(&self) -> io::Result<Vec<PathBuf>> {
        let mut out = Vec::new();
        let listing = match fs::read_dir(&self.dir) {
            Ok(listing) => listing,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(out),
            Err(e) => return Err(e),
        };
        for entry in listing {
            let path = entry?.path();
            let is_entry = path.extension().is_some_and(|e| e == EXTENSION)
                && path
                    .file_stem()
                    .and_then(|s| s.to_str())
                    .and_then(CacheKey::from_hex)
                    .is_some();
            if is_entry {
                out.push(path);
            }
        }
        out.sort();
        Ok(out)
    }
}

/// A temporary file name no other writer uses: the file's name, the
/// process and a per-process counter. It starts with a dot and ends in
/// `.tmp`, so it is never taken for an entry.
fn temp_name(name: &str) -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    format!(
        ".{name}.{}.{}.tmp",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::KeyBuilder;
    use std::ffi::OsString;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("tile-disk-cache-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    fn artifact() -> Artifact {
        Artifact {
            spec: crate::KernelSpec {
                name: "k".into(),
                params: vec![("n".into(), crate::ParamType::I32)],
                num_warps: 4,
                shared_mem_bytes: 0,
                i32_offset_elem_bytes: vec![],
                specialization: Default::default(),
            },
            ptx: ".version 8.0\n".into(),
        }
    }

    #[test]
    fn miss_store_hit() {
        let cache = DiskCache::at(scratch("hit"));
        let key = KeyBuilder::new("t").field("k", "1").finish();
        assert_eq!(cache.load(&key), Lookup::Miss);
        assert_eq!(cache.entries().unwrap(), Vec::<PathBuf>::new());
        let path = cache.store(&key, &artifact()).unwrap();
        assert_eq!(path, cache.path_of(&key));
        assert_eq!(cache.load(&key), Lookup::Hit(artifact()));
        assert_eq!(cache.entries().unwrap(), vec![path]);
        // Storing again replaces the entry and leaves no temporary file.
        cache.store(&key, &artifact()).unwrap();
        assert_eq!(fs::read_dir(cache.dir()).unwrap().count(), 1);
        fs::remove_dir_all(cache.dir()).unwrap();
    }

    #[test]
    fn damaged_truncated_and_foreign_entries_are_corrupt() {
        let cache = DiskCache::at(scratch("corrupt"));
        let key = KeyBuilder::new("t").field("k", "2").finish();
        let other = KeyBuilder::new("t").field("k", "3").finish();
        let path = cache.store(&key, &artifact()).unwrap();
        let good = fs::read(&path).unwrap();
        let cases: Vec<(&str, Vec<u8>)> = vec![
            ("empty", vec![]),
            ("truncated", good[..good.len() - 3].to_vec()),
            ("flipped", {
                let mut b = good.clone();
                let last = b.len() - 2;
                b[last] ^= 1;
                b
            }),
            (
                "foreign",
                fs::read(cache.store(&other, &artifact()).unwrap()).unwrap(),
            ),
        ];
        for (what, bytes) in cases {
            fs::write(&path, bytes).unwrap();
            match cache.load(&key) {
                Lookup::Corrupt { path: p, reason } => {
                    assert_eq!(p, path, "{what}");
                    assert!(!reason.is_empty());
                }
                other => panic!("{what}: {other:?}"),
            }
        }
        // A store repairs it.
        cache.store(&key, &artifact()).unwrap();
        assert_eq!(cache.load(&key), Lookup::Hit(artifact()));
        fs::remove_dir_all(cache.dir()).unwrap();
    }

    #[test]
    fn the_environment_picks_the_directory() {
        let vars = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| OsString::from(v))
            }
        };
        let dir = |pairs| DiskCache::from_vars(vars(pairs)).map(|c| c.dir().to_path_buf());
        assert_eq!(
            dir(&[(CACHE_DIR_VAR, "/tmp/x"), ("HOME", "/home/u")]),
            Some(PathBuf::from("/tmp/x"))
        );
        assert_eq!(dir(&[(NO_CACHE_VAR, "1"), (CACHE_DIR_VAR, "/tmp/x")]), None);
        assert_eq!(
            dir(&[(NO_CACHE_VAR, "0"), (CACHE_DIR_VAR, "/tmp/x")]),
            Some(PathBuf::from("/tmp/x"))
        );
        if cfg!(all(unix, not(target_os = "macos"))) {
            assert_eq!(
                dir(&[("HOME", "/home/u")]),
                Some(PathBuf::from("/home/u/.cache/tile"))
            );
            assert_eq!(
                dir(&[("HOME", "/home/u"), ("XDG_CACHE_HOME", "/c")]),
                Some(PathBuf::from("/c/tile"))
            );
            // A relative XDG_CACHE_HOME is ignored, as the spec says.
            assert_eq!(
                dir(&[("HOME", "/home/u"), ("XDG_CACHE_HOME", "c")]),
                Some(PathBuf::from("/home/u/.cache/tile"))
            );
            assert_eq!(dir(&[]), None);
        }
    }
}
