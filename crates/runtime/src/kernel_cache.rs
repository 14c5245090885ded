//! The compiled-kernel cache: in memory for the process, on disk across
//! processes.
//!
//! Lookups go memory, then disk, then compile; a compiled kernel is kept
//! in both. Two threads that miss on the same key at once compile it once:
//! the second waits for the first. A disk entry that cannot be used is
//! recompiled and overwritten. A disk cache that cannot be used (a
//! directory others may write to, see [`DiskCache::check_dir`]) or
//! written does not stop the kernel: it is compiled, and the problem is
//! reported with the compile's event ([`Fetched::cache_warning`]) and, the
//! first time for each directory, as a warning on standard error.
//!
//! ```
//! use tile_runtime::{Artifact, KernelCache, KernelSpec, KeyBuilder, Origin, Specialization};
//!
//! let cache = KernelCache::new(None); // memory only
//! let key = KeyBuilder::new("doc").field("kernel", "k").finish();
//! let compile = || {
//!     Ok(Artifact {
//!         spec: KernelSpec {
//!             name: "k".into(),
//!             params: vec![],
//!             num_warps: 1,
//!             shared_mem_bytes: 0,
//!             i32_offset_elem_bytes: vec![],
//!             specialization: Specialization::none(),
//!         },
//!         ptx: String::new(),
//!     })
//! };
//! let first = cache.get_or_compile(&key, None, compile)?;
//! assert!(matches!(first.origin, Origin::Compiled(_)));
//! assert_eq!(cache.get_or_compile(&key, None, compile)?.origin, Origin::Memory);
//! # Ok::<(), tile_runtime::RuntimeError>(())
//! ```

use crate::artifact::Artifact;
use crate::cache_key::CacheKey;
use crate::disk_cache::{DiskCache, Lookup};
use crate::error::Result;
use crate::events::{CompileCause, Origin};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// What [`KernelCache::get_or_compile`] gives: the code, where it came
/// from, and what went wrong with the disk cache on the way, if anything.
#[derive(Clone, Debug)]
pub struct Fetched {
    /// The compiled kernel.
    pub artifact: Arc<Artifact>,
    /// Memory, disk, or compiled now (and why).
    pub origin: Origin,
    /// The disk cache could not be used or written (the kernel was still
    /// compiled and runs).
    pub cache_warning: Option<String>,
}

/// Prints `warning` on standard error (and logs it) the first time this
/// process has a problem with the cache directory `dir`.
fn warn_once(dir: &Path, warning: &str) {
    static WARNED: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);
    log::warn!(target: "tile::cache", "{warning}");
    let mut warned = WARNED.lock().unwrap_or_else(PoisonError::into_inner);
    if warned
        .get_or_insert_with(HashSet::new)
        .insert(dir.to_path_buf())
    {
        eprintln!("tile: warning: {warning} (said once per directory)");
    }
}

/// One key's place in the memory cache; its lock is held while the key is
/// being compiled, so other threads wait instead of compiling it again.
type Slot = Arc<Mutex<Option<Arc<Artifact>>>>;

/// Compiled kernels by [`CacheKey`], in memory and (optionally) on disk.
#[derive(Debug)]
pub struct KernelCache {
    disk: Option<DiskCache>,
    memory: Mutex<HashMap<CacheKey, Slot>>,
}

impl KernelCache {
    /// A cache with an empty memory and the given disk directory (none:
    /// memory only).
    pub fn new(disk: Option<DiskCache>) -> KernelCache {
        KernelCache {
            disk,
            memory: Mutex::new(HashMap::new()),
        }
    }

    /// The process's cache, with the disk cache the environment asks for
    /// ([`DiskCache::from_env`]), read when it is first used.
    pub fn global() -> Arc<KernelCache> {
        static GLOBAL: OnceLock<Arc<KernelCache>> = OnceLock::new();
        GLOBAL
            .get_or_init(|| Arc::new(KernelCache::new(DiskCache::from_env())))
            .clone()
    }

    /// The disk cache, if on.
    pub fn disk(&self) -> Option<&DiskCache> {
        self.disk.as_ref()
    }

    /// Forgets every kernel held in memory (the disk is left alone).
    pub fn clear_memory(&self) {
        self.memory
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
    }

    /// The kernel for `key`: from memory, else from disk, else from
    /// `compile` (then kept in both). With `fresh` (a reason) the caches
    /// are not read, only written.
    pub fn get_or_compile(
        &self,
        key: &CacheKey,
        fresh: Option<String>,
        compile: impl FnOnce() -> Result<Artifact>,
    ) -> Result<Fetched> {
        let slot: Slot = self
            .memory
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entry(*key)
            .or_default()
            .clone();
        let mut held = slot.lock().unwrap_or_else(PoisonError::into_inner);
        let fetched = |artifact: Arc<Artifact>, origin, cache_warning| Fetched {
            artifact,
            origin,
            cache_warning,
        };
        if fresh.is_none()
            && let Some(artifact) = held.as_ref()
        {
            return Ok(fetched(artifact.clone(), Origin::Memory, None));
        }
        // A directory others may write to is neither read nor written.
        let mut warning = None;
        let disk = match &self.disk {
            Some(disk) => match disk.check_dir() {
                Ok(()) => Some(disk),
                Err(reason) => {
                    let w = format!("the disk cache is not used: {reason}");
                    warn_once(disk.dir(), &w);
                    warning = Some(w);
                    None
                }
            },
            None => None,
        };
        let cause = match fresh {
            Some(why) => CompileCause::Fresh(why),
            None => match disk.map(|d| (d, d.load(key))) {
                Some((disk, Lookup::Hit(artifact))) => {
                    let artifact = Arc::new(artifact);
                    *held = Some(artifact.clone());
                    let origin = Origin::Disk(disk.path_of(key));
                    return Ok(fetched(artifact, origin, None));
                }
                Some((_, Lookup::Miss)) => CompileCause::NotCached,
                Some((_, Lookup::Corrupt { path, reason })) => {
                    log::warn!(
                        target: "tile::cache",
                        "cache entry {} is unusable ({reason}); recompiling",
                        path.display()
                    );
                    CompileCause::Corrupt { path, reason }
                }
                None if self.disk.is_some() => CompileCause::NotCached,
                None => CompileCause::NoDiskCache,
            },
        };
        let artifact = Arc::new(compile()?);
        if let Some(disk) = disk
            && let Err(e) = disk.store(key, &artifact)
        {
            let w = format!(
                "the disk cache could not store {}: {e}; the kernel runs, uncached",
                disk.path_of(key).display()
            );
            warn_once(disk.dir(), &w);
            warning = Some(w);
        }
        *held = Some(artifact.clone());
        Ok(fetched(artifact, Origin::Compiled(cause), warning))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{KernelSpec, KeyBuilder, RuntimeError};
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn artifact(ptx: &str) -> Artifact {
        Artifact {
            spec: KernelSpec {
                name: "k".into(),
                params: vec![],
                num_warps: 1,
                shared_mem_bytes: 0,
                i32_offset_elem_bytes: vec![],
                specialization: Default::default(),
            },
            ptx: ptx.into(),
        }
    }

    fn scratch(name: &str) -> DiskCache {
        let dir =
            std::env::temp_dir().join(format!("tile-kernel-cache-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        DiskCache::at(dir)
    }

    #[test]
    fn memory_then_disk_then_compile() {
        let disk = scratch("order");
        let key = KeyBuilder::new("t").field("a", "1").finish();
        let cache = KernelCache::new(Some(disk.clone()));
        let (a, origin) = cache
            .get_or_compile(&key, None, || Ok(artifact("one")))
            .map(|f| (f.artifact, f.origin))
            .unwrap();
        assert_eq!(origin, Origin::Compiled(CompileCause::NotCached));
        assert_eq!(a.ptx, "one");
        let (_, origin) = cache
            .get_or_compile(&key, None, || panic!("must not compile"))
            .map(|f| (f.artifact, f.origin))
            .unwrap();
        assert_eq!(origin, Origin::Memory);
        // A new process: memory empty, disk warm.
        let cache = KernelCache::new(Some(disk.clone()));
        let (b, origin) = cache
            .get_or_compile(&key, None, || panic!("must not compile"))
            .map(|f| (f.artifact, f.origin))
            .unwrap();
        assert_eq!(origin, Origin::Disk(disk.path_of(&key)));
        assert_eq!(b.ptx, "one");
        // Fresh compiles skip both but still write.
        let (c, origin) = cache
            .get_or_compile(&key, Some("dumps".into()), || Ok(artifact("two")))
            .map(|f| (f.artifact, f.origin))
            .unwrap();
        assert_eq!(
            origin,
            Origin::Compiled(CompileCause::Fresh("dumps".into()))
        );
        assert_eq!(c.ptx, "two");
        assert_eq!(disk.load(&key), Lookup::Hit(artifact("two")));
        std::fs::remove_dir_all(disk.dir()).unwrap();
    }

    #[test]
    fn a_corrupt_entry_is_recompiled_and_repaired() {
        let disk = scratch("repair");
        let key = KeyBuilder::new("t").field("a", "2").finish();
        disk.store(&key, &artifact("good")).unwrap();
        std::fs::write(disk.path_of(&key), b"key 00\ngarbage").unwrap();
        let cache = KernelCache::new(Some(disk.clone()));
        let (a, origin) = cache
            .get_or_compile(&key, None, || Ok(artifact("good")))
            .map(|f| (f.artifact, f.origin))
            .unwrap();
        assert!(matches!(
            origin,
            Origin::Compiled(CompileCause::Corrupt { .. })
        ));
        assert_eq!(a.ptx, "good");
        assert_eq!(disk.load(&key), Lookup::Hit(artifact("good")));
        std::fs::remove_dir_all(disk.dir()).unwrap();
    }

    #[test]
    fn a_cache_that_cannot_be_written_warns_and_the_compile_succeeds() {
        // The directory would be under a regular file: nothing can be
        // created there, even by root.
        let file =
            std::env::temp_dir().join(format!("tile-kernel-cache-file-{}", std::process::id()));
        std::fs::write(&file, b"not a directory").unwrap();
        let cache = KernelCache::new(Some(DiskCache::at(file.join("cache"))));
        let key = KeyBuilder::new("t").field("a", "unwritable").finish();
        let fetched = cache
            .get_or_compile(&key, None, || Ok(artifact("runs")))
            .unwrap();
        assert_eq!(fetched.artifact.ptx, "runs");
        assert_eq!(fetched.origin, Origin::Compiled(CompileCause::NotCached));
        let warning = fetched.cache_warning.expect("a warning");
        assert!(warning.contains(&file.display().to_string()), "{warning}");
        std::fs::remove_file(&file).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_directory_others_may_write_is_neither_read_nor_written() {
        use std::os::unix::fs::PermissionsExt;
        let disk = scratch("shared");
        let key = KeyBuilder::new("t").field("a", "shared").finish();
        disk.store(&key, &artifact("planted")).unwrap();
        std::fs::set_permissions(disk.dir(), std::fs::Permissions::from_mode(0o777)).unwrap();
        let cache = KernelCache::new(Some(disk.clone()));
        let fetched = cache
            .get_or_compile(&key, None, || Ok(artifact("ours")))
            .unwrap();
        // The planted entry was not used, and not overwritten.
        assert_eq!(fetched.artifact.ptx, "ours");
        assert!(fetched.cache_warning.unwrap().contains("not used"));
        std::fs::set_permissions(disk.dir(), std::fs::Permissions::from_mode(0o700)).unwrap();
        assert_eq!(disk.load(&key), Lookup::Hit(artifact("planted")));
        std::fs::remove_dir_all(disk.dir()).unwrap();
    }

    #[test]
    fn errors_are_not_cached_and_concurrent_misses_compile_once() {
        let cache = KernelCache::new(None);
        let key = KeyBuilder::new("t").field("a", "3").finish();
        let err = RuntimeError::Compile {
            kernel: "k".into(),
            message: "boom".into(),
        };
        assert_eq!(
            cache
                .get_or_compile(&key, None, || Err(err.clone()))
                .map(|f| f.artifact),
            Err(err)
        );
        let compiles = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..8 {
                s.spawn(|| {
                    let a = cache
                        .get_or_compile(&key, None, || {
                            compiles.fetch_add(1, Ordering::SeqCst);
                            std::thread::sleep(std::time::Duration::from_millis(20));
                            Ok(artifact("once"))
                        })
                        .unwrap();
                    assert_eq!(a.artifact.ptx, "once");
                });
            }
        });
        assert_eq!(compiles.load(Ordering::SeqCst), 1);
    }
}
