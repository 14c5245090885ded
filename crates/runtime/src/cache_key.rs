//! Names for compiled kernels: a SHA-256 digest of everything the PTX
//! depends on.
//!
//! ```
//! use tile_runtime::{CacheKey, KeyBuilder};
//!
//! let key = |warps: &str| KeyBuilder::new("tile-kernel").field("num_warps", warps).finish();
//! assert_eq!(key("4"), key("4"));
//! assert_ne!(key("4"), key("8"));
//! assert_eq!(CacheKey::from_hex(&key("4").hex()), Some(key("4")));
//! ```

use sha2::{Digest, Sha256};
use std::fmt;

/// A 256-bit digest that names one compiled kernel variant: the same key
/// means the same PTX and launch metadata. Build one with [`KeyBuilder`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CacheKey([u8; 32]);

impl CacheKey {
    /// The digest's bytes.
    pub fn bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// The digest as 64 lowercase hex digits (the cache file's stem).
    pub fn hex(&self) -> String {
        hex(&self.0)
    }

    /// Parses 64 hex digits; `None` for anything else.
    pub fn from_hex(text: &str) -> Option<CacheKey> {
        let bytes = text.as_bytes();
        if bytes.len() != 64 {
            return None;
        }
        let mut out = [0u8; 32];
        for (i, pair) in bytes.chunks(2).enumerate() {
            let digit = |c: u8| (c as char).to_digit(16);
            out[i] = u8::try_from(digit(pair[0])? * 16 + digit(pair[1])?).ok()?;
        }
        Some(CacheKey(out))
    }

    /// The SHA-256 digest of `data`.
    pub fn digest(data: &[u8]) -> CacheKey {
        CacheKey(Sha256::digest(data).into())
    }
}

impl fmt::Display for CacheKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.hex())
    }
}

impl fmt::Debug for CacheKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CacheKey({})", &self.hex()[..16])
    }
}

/// Lowercase hex digits of `bytes`.
pub(crate) fn hex(bytes: &[u8]) -> String {
    use fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// Hashes named fields into a [`CacheKey`]. Each field's name and value
/// are length-prefixed, so no two different field lists give the same
/// input to the hash (`("ab", "c")` and `("a", "bc")` differ).
///
/// ```
/// use tile_runtime::KeyBuilder;
/// let a = KeyBuilder::new("example").field("ir", "module {}").field("warps", "4").finish();
/// let b = KeyBuilder::new("example").field("ir", "module {}").field("warps", "8").finish();
/// assert_ne!(a, b);
/// ```
#[derive(Clone)]
pub struct KeyBuilder(Sha256);

impl KeyBuilder {
    /// A builder for keys of one kind (`domain` keeps keys of different
    /// kinds apart).
    pub fn new(domain: &str) -> KeyBuilder {
        KeyBuilder(Sha256::new()).field("domain", domain)
    }

    /// Adds a named field.
    pub fn field(mut self, name: &str, value: impl AsRef<[u8]>) -> KeyBuilder {
        let value = value.as_ref();
        for part in [name.as_bytes(), value] {
            self.0.update((part.len() as u64).to_le_bytes());
            self.0.update(part);
        }
        self
    }

    /// The key of the fields added so far.
    pub fn finish(self) -> CacheKey {
        CacheKey(self.0.finalize().into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_and_rejects_junk() {
        let key = KeyBuilder::new("t").field("a", "b").finish();
        assert_eq!(key.hex().len(), 64);
        assert_eq!(CacheKey::from_hex(&key.hex()), Some(key));
        assert_eq!(CacheKey::from_hex("abc"), None);
        assert_eq!(CacheKey::from_hex(&"g".repeat(64)), None);
        assert_eq!(CacheKey::from_hex(&key.hex().to_uppercase()), Some(key));
    }

    #[test]
    fn fields_are_length_prefixed_and_ordered() {
        let k = |fields: &[(&str, &str)]| {
            fields
                .iter()
                .fold(KeyBuilder::new("t"), |b, (n, v)| b.field(n, v))
                .finish()
        };
        assert_eq!(k(&[("x", "ab"), ("y", "c")]), k(&[("x", "ab"), ("y", "c")]));
        assert_ne!(k(&[("x", "ab"), ("y", "c")]), k(&[("x", "a"), ("y", "bc")]));
        assert_ne!(k(&[("x", "1"), ("y", "2")]), k(&[("y", "2"), ("x", "1")]));
        assert_ne!(k(&[("x", "1")]), k(&[("xx", "1")]));
        assert_ne!(
            KeyBuilder::new("a").field("x", "1").finish(),
            KeyBuilder::new("b").field("x", "1").finish()
        );
    }

    #[test]
    fn digest_is_sha256() {
        // SHA-256 of the empty input.
        assert_eq!(
            CacheKey::digest(b"").hex(),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
