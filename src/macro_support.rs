//! What `#[tile::kernel]`'s expansion calls: not an API of its own (the
//! names may change with the macro).

use crate::{Jit, Kernel, KernelBuilder, Options, Tile};
use melior::Context;
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex};

/// Values made once per key on first use: a kernel's [`Jit`]s (one per
/// set of constexpr values and element types), its autotuners (one per
/// set of element types).
pub struct Made<K, V> {
    made: Mutex<Option<HashMap<K, Arc<V>>>>,
}

/// A kernel's [`Jit`]s.
pub type JitCache<K> = Made<K, Jit>;

impl<K: Hash + Eq, V> Made<K, V> {
    /// None made yet (a `static`'s initialiser).
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Self {
        Made {
            made: Mutex::new(None),
        }
    }

    /// The value for `key`, made by `make` if new.
    pub fn get(&self, key: K, make: impl FnOnce() -> crate::Result<V>) -> crate::Result<Arc<V>> {
        let lock = || self.made.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(v) = lock().as_ref().and_then(|m| m.get(&key)) {
            return Ok(v.clone());
        }
        // Made outside the lock: making one may need another.
        let v = Arc::new(make()?);
        let mut made = lock();
        Ok(made
            .get_or_insert_with(HashMap::new)
            .entry(key)
            .or_insert(v)
            .clone())
    }
}

/// The [`Jit`] of the kernel `build` makes, compiled with `options`.
pub fn jit_of(
    options: Options,
    build: impl for<'c> FnOnce(&'c Context) -> crate::Result<Kernel<'c>>,
) -> crate::Result<Jit> {
    crate::jit::jit_built(build, options)
}

/// An autotuner over `configs`, each configuration's kernel made by
/// `build` and compiled with `options` and the configuration's warps and
/// stages.
pub fn tuner(
    name: &str,
    configs: Vec<crate::Config>,
    options: Options,
    build: impl for<'c> Fn(&'c Context, &crate::Config) -> Result<Kernel<'c>, String>,
) -> crate::Result<crate::Autotuner<crate::TileCompiler>> {
    Ok(crate::autotuner(name, configs, options, build)?)
}

/// The constexpr `name` of an autotuned kernel, from `config`.
pub fn config_value<T: TryFrom<i64>>(config: &crate::Config, name: &str) -> Result<T, String> {
    let value = config
        .get(name)
        .ok_or_else(|| format!("configuration {config} has no value for the constexpr `{name}`"))?;
    T::try_from(value).map_err(|_| {
        format!("configuration {config}: {value} does not fit the constexpr `{name}`'s type")
    })
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
