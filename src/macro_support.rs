//! What `#[tile::kernel]`'s expansion calls: not an API of its own (the
//! names may change with the macro).

use crate::{Jit, Kernel, KernelBuilder, Options, Tile};
use melior::Context;
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex};

/// A kernel's [`Jit`]s, one per set of constexpr values, made on first
/// use.
pub struct JitCache<K> {
    variants: Mutex<Option<HashMap<K, Arc<Jit>>>>,
}

impl<K: Hash + Eq> JitCache<K> {
    /// An empty cache (a `static`'s initialiser).
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Self {
        JitCache {
            variants: Mutex::new(None),
        }
    }

    /// The [`Jit`] for `key`, built by `build` with `options` if new.
    pub fn get(
        &self,
        key: K,
        options: Options,
        build: impl for<'c> FnOnce(&'c Context) -> crate::Result<Kernel<'c>>,
    ) -> crate::Result<Arc<Jit>> {
        let lock = || self.variants.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(jit) = lock().as_ref().and_then(|m| m.get(&key)) {
            return Ok(jit.clone());
        }
        // Built outside the lock: a kernel's build may launch others.
        let jit = Arc::new(crate::jit::jit_built(build, options)?);
        let mut variants = lock();
        Ok(variants
            .get_or_insert_with(HashMap::new)
            .entry(key)
            .or_insert(jit)
            .clone())
    }
}

/// A branch's condition: a scalar tile (`scf.if`, both sides built) or a
/// `bool` (decided as the kernel is built, one side run).
pub trait Condition<'k, R> {
    /// `then()` or `otherwise()`'s values.
    fn branch(
        self,
        k: &'k KernelBuilder<'k>,
        then: impl FnOnce() -> R,
        otherwise: impl FnOnce() -> R,
    ) -> R;

    /// `then()` or `otherwise()` for their effects.
    fn guard(
        self,
        k: &'k KernelBuilder<'k>,
        then: impl FnOnce() -> [Tile<'k>; 0],
        otherwise: Option<impl FnOnce() -> [Tile<'k>; 0]>,
    );
}

impl<'k, R> Condition<'k, R> for bool {
    fn branch(
        self,
        _: &'k KernelBuilder<'k>,
        then: impl FnOnce() -> R,
        o: impl FnOnce() -> R,
    ) -> R {
        if self { then() } else { o() }
    }

    fn guard(
        self,
        _: &'k KernelBuilder<'k>,
        then: impl FnOnce() -> [Tile<'k>; 0],
        otherwise: Option<impl FnOnce() -> [Tile<'k>; 0]>,
    ) {
        if self {
            then();
        } else if let Some(o) = otherwise {
            o();
        }
    }
}

impl<'k, const N: usize> Condition<'k, [Tile<'k>; N]> for Tile<'k> {
    #[track_caller]
    fn branch(
        self,
        k: &'k KernelBuilder<'k>,
        then: impl FnOnce() -> [Tile<'k>; N],
        otherwise: impl FnOnce() -> [Tile<'k>; N],
    ) -> [Tile<'k>; N] {
        k.if_else(self, then, otherwise)
    }

    #[track_caller]
    fn guard(
        self,
        k: &'k KernelBuilder<'k>,
        then: impl FnOnce() -> [Tile<'k>; 0],
        otherwise: Option<impl FnOnce() -> [Tile<'k>; 0]>,
    ) {
        match otherwise {
            None => k.if_then(self, || {
                then();
            }),
            Some(o) => {
                k.if_else(self, then, o);
            }
        }
    }
}

/// `if c { .. } else { .. }` whose sides give values (the assigned
/// variables, then the value).
#[track_caller]
pub fn branch<'k, R, C: Condition<'k, R>>(
    k: &'k KernelBuilder<'k>,
    condition: C,
    then: impl FnOnce() -> R,
    otherwise: impl FnOnce() -> R,
) -> R {
    condition.branch(k, then, otherwise)
}

/// `if c { .. } [else { .. }]` run for its effects.
#[track_caller]
pub fn guard<'k, C: Condition<'k, [Tile<'k>; 0]>>(
    k: &'k KernelBuilder<'k>,
    condition: C,
    then: impl FnOnce() -> [Tile<'k>; 0],
    otherwise: Option<impl FnOnce() -> [Tile<'k>; 0]>,
) {
    condition.guard(k, then, otherwise)
}

/// The missing `else` of [`guard`].
pub fn no_else<'k>() -> Option<fn() -> [Tile<'k>; 0]> {
    None
}
