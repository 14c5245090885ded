//! Compiled kernels on disk: one file per [`CacheKey`], written so that
//! concurrent writers and crashes can never leave a half-written entry
//! under an entry's name.
//!
//! An entry is `<dir>/<key hex>.tile`: a line `key <hex> <binding>`
//! followed by the [`Artifact`] bytes, whose own checksum covers the
//! artifact. The binding is the SHA-256 of the key's hex followed by those
//! bytes: an entry moved or copied under another key's name, with its key
//! line rewritten to match, is refused rather than run as the other
//! kernel. A writer writes a
//! temporary file in the same directory and renames it over the entry
//! (atomic on POSIX file systems); every writer of a key writes the same
//! bytes, so the last rename wins harmlessly. A reader that finds a
//! truncated, damaged or foreign file reports it as
//! [`Lookup::Corrupt`], and the caller recompiles and overwrites it.
//!
//! # What the cache trusts
//!
//! Nothing in the directory is taken on faith. On Unix the directory is
//! created private (mode 0700) and refused ([`DiskCache::check_dir`]) when
//! it is not a directory the user owns or when group or others may write
//! to it. An entry is opened without following a symbolic link and without
//! blocking (a FIFO cannot stall a compile), and used only when it is a
//! regular file the user owns of at most [`MAX_ENTRY_BYTES`]; it is read
//! through that bound, never whole. Anything else at an entry's name (a
//! directory, a FIFO, a link, junk) is [`Lookup::Corrupt`] and replaced by
//! the next store. The autotuner's records in the same directory are read
//! the same way ([`DiskCache::read_file`]).
//!
//! The artifact's checksum (SHA-256 over its contents) and the `key` line
//! with its binding protect against accidents: a truncated or partly
//! written file, flipped bits, an entry of another key (renamed, or its
//! key line edited) or another version. The launcher then checks the
//! code it got against the kernel it launches (name, parameters, argument
//! facts) before using it. They do not protect
//! against someone who can write to the directory: such a writer can make
//! an entry with a valid checksum, whose PTX then runs on the GPU as the
//! user. That is why the directory must be private; the checksum is not a
//! signature.
//!
//! ```
//! use tile_runtime::{Artifact, DiskCache, KernelSpec, KeyBuilder, Lookup, Specialization};
//!
//! let dir = std::env::temp_dir().join(format!("tile-doc-{}", std::process::id()));
//! let cache = DiskCache::at(&dir);
//! let key = KeyBuilder::new("doc").field("kernel", "k").finish();
//! assert!(matches!(cache.load(&key), Lookup::Miss));
//! let artifact = Artifact {
//!     spec: KernelSpec {
//!         name: "k".into(),
//!         params: vec![],
//!         num_warps: 1,
//!         shared_mem_bytes: 0,
//!         i32_offset_elem_bytes: vec![],
//!         specialization: Specialization::none(),
//!     },
//!     ptx: ".version 8.0".into(),
//! };
//! cache.store(&key, &artifact).unwrap();
//! assert!(matches!(cache.load(&key), Lookup::Hit(a) if a == artifact));
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

use crate::artifact::Artifact;
use crate::cache_key::CacheKey;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The variable naming the cache directory (overrides the default).
pub const CACHE_DIR_VAR: &str = "TILE_CACHE_DIR";
/// The variable that turns the disk cache off: any value but `0` or empty.
pub const NO_CACHE_VAR: &str = "TILE_NO_CACHE";

/// The file extension of entries.
const EXTENSION: &str = "tile";

/// The largest entry read: larger files are [`Lookup::Corrupt`] without
/// being read (the PTX of the largest tile a kernel may hold is a few MB).
pub const MAX_ENTRY_BYTES: u64 = 64 << 20;

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

    /// Reads the entry for `key`. A missing file is a miss; a file that is
    /// there but not a valid entry for `key` (or not a regular file the
    /// user owns, or too large) is [`Lookup::Corrupt`]. The directory is
    /// not checked here: see [`check_dir`](Self::check_dir).
    pub fn load(&self, key: &CacheKey) -> Lookup {
        let path = self.path_of(key);
        let bytes = match read_entry(&path) {
            Ok(bytes) => bytes,
            Err(EntryError::Missing) => return Lookup::Miss,
            Err(EntryError::Unusable(reason)) => return Lookup::Corrupt { path, reason },
        };
        let header = format!("key {} ", key.hex());
        let corrupt = |reason: String| Lookup::Corrupt {
            path: path.clone(),
            reason,
        };
        let Some(rest) = bytes.strip_prefix(header.as_bytes()) else {
            return corrupt(format!(
                "does not start with the line `key {} <binding>`{}",
                key.hex(),
                if bytes.is_empty() {
                    " (it is empty)"
                } else {
                    ""
                }
            ));
        };
        let Some(newline) = rest.iter().position(|&b| b == b'\n') else {
            return corrupt("its key line does not end".to_string());
        };
        let (binding, rest) = (&rest[..newline], &rest[newline + 1..]);
        if binding != binding_of(key, rest).as_bytes() {
            return corrupt(
                "its contents are not bound to this key (an entry of another key, renamed or \
                 edited, or damaged)"
                    .to_string(),
            );
        }
        match Artifact::from_bytes(rest) {
            Ok(artifact) => Lookup::Hit(artifact),
            Err(e) => corrupt(e.to_string()),
        }
    }

    /// Writes the entry for `key` (replacing any), through a temporary
    /// file renamed into place. Returns the entry's path.
    pub fn store(&self, key: &CacheKey, artifact: &Artifact) -> io::Result<PathBuf> {
        let body = artifact
            .to_bytes()
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        let mut bytes = format!("key {} {}\n", key.hex(), binding_of(key, &body)).into_bytes();
        bytes.extend(body);
        self.write_atomic(&format!("{}.{EXTENSION}", key.hex()), &bytes)
    }

    /// The bytes of the file `name` in the directory (an autotuning
    /// record), read as an entry is: `None` when it is missing, a link, not
    /// a regular file of the user's (a FIFO would block a read), or larger
    /// than [`MAX_ENTRY_BYTES`].
    pub fn read_file(&self, name: &str) -> Option<Vec<u8>> {
        read_entry(&self.dir.join(name)).ok()
    }

    /// Writes `bytes` to the file `name` in the directory (creating it),
    /// through a temporary file renamed into place, so readers see the
    /// old file or the new one, never a part. Returns the file's path.
    /// A directory at the entry's name (which a rename cannot replace) is
    /// removed first. The directory is created private, and refused as
    /// [`check_dir`](Self::check_dir) says.
    pub fn write_atomic(&self, name: &str, bytes: &[u8]) -> io::Result<PathBuf> {
        create_private_dir(&self.dir)?;
        self.check_dir()
            .map_err(|reason| io::Error::new(io::ErrorKind::PermissionDenied, reason))?;
        let path = self.dir.join(name);
        if fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir()) {
            fs::remove_dir_all(&path)?;
        }
        // A new file of a random name (created exclusively, never through
        // a file or link already there; mode 0600 on Unix), renamed over
        // the entry once whole; removed if anything fails first.
        let mut temp = tempfile::Builder::new()
            .prefix(&format!(".{name}."))
            .suffix(".tmp")
            .tempfile_in(&self.dir)?;
        temp.write_all(bytes)?;
        temp.persist(&path).map_err(|e| e.error)?;
        Ok(path)
    }

    /// Whether the directory may be used: on Unix, a directory (a link to
    /// one is fine) that the user owns and that neither group nor others
    /// may write to. A missing directory is fine (it is created private on
    /// the first store). The error says what is wrong and what to do.
    pub fn check_dir(&self) -> Result<(), String> {
        let meta = match fs::metadata(&self.dir) {
            Ok(meta) => meta,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(format!("cannot inspect {}: {e}", self.dir.display())),
        };
        if !meta.is_dir() {
            return Err(format!("{} is not a directory", self.dir.display()));
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let me = current_uid();
            if meta.uid() != me {
                return Err(format!(
                    "{} belongs to uid {}, not to this user (uid {me}): its entries could be \
                     anyone's code; set {CACHE_DIR_VAR} to a directory of yours",
                    self.dir.display(),
                    meta.uid()
                ));
            }
            if meta.mode() & 0o022 != 0 {
                return Err(format!(
                    "{} may be written by group or others (mode {:o}): anyone who can write \
                     there could plant code that runs on your GPU; make it private (chmod 700) \
                     or set {CACHE_DIR_VAR} to a private directory",
                    self.dir.display(),
                    meta.mode() & 0o7777
                ));
            }
        }
        Ok(())
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

/// Why an entry could not be read.
enum EntryError {
    /// Nothing at the path.
    Missing,
    /// Something that is not a usable entry.
    Unusable(String),
}

/// The binding of an entry's artifact bytes `body` to `key`: the SHA-256
/// (hex) of the key's hex followed by the bytes.
fn binding_of(key: &CacheKey, body: &[u8]) -> String {
    let mut bound = key.hex().into_bytes();
    bound.extend_from_slice(body);
    CacheKey::digest(&bound).hex()
}

/// The bytes of the entry at `path`: opened without following a link or
/// blocking, checked to be a regular file of the user's of at most
/// [`MAX_ENTRY_BYTES`], read through that bound.
fn read_entry(path: &Path) -> Result<Vec<u8>, EntryError> {
    use std::io::Read;
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let file = match options.open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(EntryError::Missing),
        #[cfg(unix)]
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            return Err(EntryError::Unusable(
                "is a symbolic link (links are never followed)".into(),
            ));
        }
        Err(e) => return Err(EntryError::Unusable(format!("cannot be read: {e}"))),
    };
    let meta = file
        .metadata()
        .map_err(|e| EntryError::Unusable(format!("cannot be inspected: {e}")))?;
    if !meta.is_file() {
        let kind = if meta.is_dir() {
            "a directory"
        } else {
            "not a regular file (a FIFO, socket or device)"
        };
        return Err(EntryError::Unusable(format!("is {kind}")));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.uid() != current_uid() {
            return Err(EntryError::Unusable(format!(
                "belongs to uid {}, not to this user",
                meta.uid()
            )));
        }
    }
    if meta.len() > MAX_ENTRY_BYTES {
        return Err(EntryError::Unusable(format!(
            "is {} bytes, above the limit of {MAX_ENTRY_BYTES}",
            meta.len()
        )));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(MAX_ENTRY_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| EntryError::Unusable(format!("cannot be read: {e}")))?;
    if bytes.len() as u64 > MAX_ENTRY_BYTES {
        return Err(EntryError::Unusable(format!(
            "grew past the limit of {MAX_ENTRY_BYTES} bytes while being read"
        )));
    }
    Ok(bytes)
}

/// Creates `dir` and its missing parents, private to the user (0700) on
/// Unix.
fn create_private_dir(dir: &Path) -> io::Result<()> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir)
}

/// The effective user id of this process.
#[cfg(unix)]
fn current_uid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
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
    fn an_entry_under_another_key_is_refused_even_with_its_key_line_rewritten() {
        let cache = DiskCache::at(scratch("swap"));
        let (a, b) = (
            KeyBuilder::new("t").field("kernel", "a").finish(),
            KeyBuilder::new("t").field("kernel", "b").finish(),
        );
        let mut other = artifact();
        other.spec.name = "b".into();
        let from_b = fs::read(cache.store(&b, &other).unwrap()).unwrap();
        // B's entry copied to A's name, its key line made A's: the binding
        // (of B's key and bytes) no longer matches.
        let text = String::from_utf8(from_b).unwrap();
        let swapped = text.replacen(&b.hex(), &a.hex(), 1);
        fs::write(cache.path_of(&a), swapped).unwrap();
        assert!(corrupt_reason(&cache, &a, "swapped").contains("not bound to this key"));
        // A's own entry loads.
        cache.store(&a, &artifact()).unwrap();
        assert_eq!(cache.load(&a), Lookup::Hit(artifact()));
        fs::remove_dir_all(cache.dir()).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn records_are_read_as_entries_are() {
        use std::os::unix::fs::symlink;
        let cache = DiskCache::at(scratch("records"));
        cache.write_atomic("r.tune", b"{}").unwrap();
        assert_eq!(cache.read_file("r.tune"), Some(b"{}".to_vec()));
        assert_eq!(cache.read_file("missing.tune"), None);
        // A link to an endless device is not followed (it exhausted memory).
        symlink("/dev/zero", cache.dir().join("zero.tune")).unwrap();
        assert_eq!(cache.read_file("zero.tune"), None);
        // A FIFO is refused without blocking.
        let fifo = cache.dir().join("fifo.tune");
        let c_path = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
        assert_eq!(cache.read_file("fifo.tune"), None);
        fs::remove_dir_all(cache.dir()).unwrap();
    }

    /// The reason of a [`Lookup::Corrupt`], or a panic naming `what`.
    fn corrupt_reason(cache: &DiskCache, key: &CacheKey, what: &str) -> String {
        match cache.load(key) {
            Lookup::Corrupt { reason, .. } => reason,
            other => panic!("{what}: expected a corrupt entry, got {other:?}"),
        }
    }

    #[cfg(unix)]
    #[test]
    fn hostile_entries_are_refused_without_blocking_following_or_reading_them() {
        use std::os::unix::fs::symlink;
        let cache = DiskCache::at(scratch("hostile"));
        let key = KeyBuilder::new("t").field("k", "hostile").finish();
        let path = cache.store(&key, &artifact()).unwrap();
        let outside = scratch("hostile-outside");
        fs::create_dir_all(&outside).unwrap();
        // A valid entry outside the cache, linked in: not followed.
        let planted = outside.join("planted.tile");
        fs::copy(&path, &planted).unwrap();
        fs::remove_file(&path).unwrap();
        symlink(&planted, &path).unwrap();
        assert!(corrupt_reason(&cache, &key, "link").contains("symbolic link"));
        // A FIFO: used to block every compile forever.
        fs::remove_file(&path).unwrap();
        let c_path = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
        assert!(corrupt_reason(&cache, &key, "fifo").contains("not a regular file"));
        // An 8 GB junk entry (sparse): refused from its size, not read.
        fs::remove_file(&path).unwrap();
        fs::File::create(&path).unwrap().set_len(8 << 30).unwrap();
        let started = std::time::Instant::now();
        assert!(corrupt_reason(&cache, &key, "huge").contains("above the limit"));
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
        // A directory: refused, and replaced by the next store.
        fs::remove_file(&path).unwrap();
        fs::create_dir_all(path.join("inner")).unwrap();
        assert!(corrupt_reason(&cache, &key, "dir").contains("a directory"));
        cache.store(&key, &artifact()).unwrap();
        assert_eq!(cache.load(&key), Lookup::Hit(artifact()));
        // Each other kind is replaced by a store too.
        for plant in ["link", "fifo"] {
            fs::remove_file(&path).unwrap();
            if plant == "link" {
                symlink(&planted, &path).unwrap();
            } else {
                // SAFETY: as above.
                assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
            }
            cache.store(&key, &artifact()).unwrap();
            assert_eq!(cache.load(&key), Lookup::Hit(artifact()), "{plant}");
        }
        // The planted file was never written through the link.
        assert_eq!(fs::read(&planted).unwrap(), fs::read(&path).unwrap());
        // An entry of another user (needs root to make one).
        // SAFETY: geteuid cannot fail.
        if unsafe { libc::geteuid() } == 0 {
            std::os::unix::fs::chown(&path, Some(12345), None).unwrap();
            assert!(corrupt_reason(&cache, &key, "owner").contains("uid 12345"));
        } else {
            eprintln!("skipped: an entry of another user (needs root to chown)");
        }
        fs::remove_dir_all(cache.dir()).unwrap();
        fs::remove_dir_all(&outside).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn the_directory_is_created_private_and_refused_when_others_can_write() {
        use std::os::unix::fs::PermissionsExt;
        let root = scratch("private");
        let cache = DiskCache::at(root.join("a").join("b"));
        let key = KeyBuilder::new("t").field("k", "private").finish();
        cache.store(&key, &artifact()).unwrap();
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(cache.dir()), 0o700);
        assert_eq!(mode(&cache.path_of(&key)), 0o600);
        assert_eq!(cache.check_dir(), Ok(()));
        for loose in [0o777, 0o720, 0o702] {
            fs::set_permissions(cache.dir(), fs::Permissions::from_mode(loose)).unwrap();
            let e = cache.check_dir().unwrap_err();
            assert!(e.contains("written by group or others"), "{e}");
            let e = cache.store(&key, &artifact()).unwrap_err();
            assert_eq!(e.kind(), io::ErrorKind::PermissionDenied);
        }
        fs::set_permissions(cache.dir(), fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(cache.check_dir(), Ok(()));
        // A file where the directory should be.
        let file = DiskCache::at(cache.path_of(&key));
        assert!(file.check_dir().unwrap_err().contains("not a directory"));
        fs::remove_dir_all(&root).unwrap();
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
