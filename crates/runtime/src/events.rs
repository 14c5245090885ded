//! What the runtime reports each time a kernel gets a new variant: where
//! its code came from and why it was needed.
//!
//! Every event is logged through the [`log`] facade (target
//! `tile::compile`; compiles at `info`, cache hits at `debug`) and kept by
//! the [`Launcher`](crate::Launcher) that produced it
//! ([`Launcher::events`](crate::Launcher::events)).
//!
//! ```
//! use std::time::Duration;
//! use tile_runtime::{ArgChange, CompileEvent, Fact, Origin, Specialization, VariantReason};
//!
//! let event = CompileEvent {
//!     kernel: "safe_kernel".into(),
//!     specialization: Specialization { facts: vec![Fact::DivisibleBy16, Fact::DivisibleBy16] },
//!     reason: VariantReason::Specialization(vec![ArgChange {
//!         index: 1,
//!         name: "n".into(),
//!         from: Fact::None,
//!         to: Fact::DivisibleBy16,
//!     }]),
//!     origin: Origin::Memory,
//!     key: None,
//!     elapsed: Duration::from_micros(40),
//!     cache_warning: None,
//! };
//! assert!(!event.compiled());
//! let line = event.to_string();
//! assert!(line.starts_with("`safe_kernel` from the memory cache; new specialization: "), "{line}");
//! assert!(line.contains("argument 1 (`n`)"), "{line}");
//! ```

use crate::cache_key::CacheKey;
use crate::specialization::{Fact, Specialization};
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// One new variant of a kernel: compiled, or found in a cache.
#[derive(Clone, Debug, PartialEq)]
pub struct CompileEvent {
    /// The kernel.
    pub kernel: String,
    /// The argument facts the variant is for.
    pub specialization: Specialization,
    /// Why a new variant was needed.
    pub reason: VariantReason,
    /// Where its code came from.
    pub origin: Origin,
    /// Its cache key (`None` for precompiled code).
    pub key: Option<CacheKey>,
    /// How long getting it took (compiling, or reading the cache).
    pub elapsed: Duration,
    /// The disk cache could not be used or written for it (the kernel was
    /// compiled and runs; see [`KernelCache`](crate::KernelCache)).
    pub cache_warning: Option<String>,
}

/// Why a launch needed a variant the kernel did not have yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantReason {
    /// The kernel's first variant.
    First,
    /// The launch's arguments have other facts than every variant so far;
    /// these are the differences from the closest one.
    Specialization(Vec<ArgChange>),
}

/// An argument whose fact differs from the closest existing variant's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgChange {
    /// 0-based position of the argument.
    pub index: usize,
    /// The parameter's name.
    pub name: String,
    /// The fact in the existing variant.
    pub from: Fact,
    /// The fact of this launch's argument.
    pub to: Fact,
}

/// Where a variant's code came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Compiled now.
    Compiled(CompileCause),
    /// The process's memory cache (compiled earlier by another launcher).
    Memory,
    /// The disk cache entry at this path.
    Disk(PathBuf),
    /// Code compiled ahead of time.
    Precompiled,
}

/// Why a variant was compiled rather than taken from a cache.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompileCause {
    /// Neither cache held it.
    NotCached,
    /// The disk cache is off and the memory cache did not hold it.
    NoDiskCache,
    /// A cached copy was skipped on purpose (IR dumps were asked for).
    Fresh(String),
    /// The disk entry could not be used.
    Corrupt {
        /// The entry.
        path: PathBuf,
        /// What was wrong with it.
        reason: String,
    },
}

impl CompileEvent {
    /// True when the code was compiled now (not read from a cache).
    pub fn compiled(&self) -> bool {
        matches!(self.origin, Origin::Compiled(_))
    }
}

impl fmt::Display for CompileEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = self.elapsed.as_secs_f64() * 1e3;
        match &self.origin {
            Origin::Compiled(cause) => {
                write!(f, "compiled `{}` in {ms:.1} ms ({cause})", self.kernel)?
            }
            Origin::Memory => write!(f, "`{}` from the memory cache", self.kernel)?,
            Origin::Disk(path) => write!(
                f,
                "`{}` from the disk cache in {ms:.1} ms ({})",
                self.kernel,
                path.display()
            )?,
            Origin::Precompiled => write!(f, "`{}` precompiled", self.kernel)?,
        }
        write!(f, "; ")?;
        match &self.reason {
            VariantReason::First => write!(f, "first variant")?,
            VariantReason::Specialization(changes) => {
                write!(f, "new specialization: ")?;
                for (i, c) in changes.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(
                        f,
                        "argument {} (`{}`) {} -> {}",
                        c.index,
                        c.name,
                        short(c.from),
                        short(c.to)
                    )?;
                }
            }
        }
        write!(f, " [facts {}]", facts_text(&self.specialization))?;
        if let Some(warning) = &self.cache_warning {
            write!(f, "; warning: {warning}")?;
        }
        Ok(())
    }
}

impl fmt::Display for CompileCause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompileCause::NotCached => f.write_str("not cached"),
            CompileCause::NoDiskCache => f.write_str("disk cache off"),
            CompileCause::Fresh(why) => write!(f, "cache skipped: {why}"),
            CompileCause::Corrupt { path, reason } => {
                write!(f, "cache entry {} unusable: {reason}", path.display())
            }
        }
    }
}

/// A fact in a few characters, for one-line events.
fn short(fact: Fact) -> &'static str {
    match fact {
        Fact::None => "none",
        Fact::DivisibleBy16 => "%16",
        Fact::DivisibleBy8 => "%8",
        Fact::DivisibleBy4 => "%4",
        Fact::EqualToOne => "==1",
    }
}

/// Every fact of a specialization, space-separated.
fn facts_text(s: &Specialization) -> String {
    if s.facts.is_empty() {
        return "none".into();
    }
    s.facts
        .iter()
        .map(|f| short(*f))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The differences between `from` and `to`, naming parameters by `names`.
pub(crate) fn changes(
    from: &Specialization,
    to: &Specialization,
    names: &[String],
) -> Vec<ArgChange> {
    let n = from.facts.len().max(to.facts.len());
    (0..n)
        .filter(|&i| from.fact(i) != to.fact(i))
        .map(|i| ArgChange {
            index: i,
            name: names.get(i).cloned().unwrap_or_else(|| format!("#{i}")),
            from: from.fact(i),
            to: to.fact(i),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_names_the_changed_argument() {
        let names = vec!["x_ptr".to_string(), "n".to_string()];
        let from = Specialization {
            facts: vec![Fact::DivisibleBy16, Fact::DivisibleBy16],
        };
        let to = Specialization {
            facts: vec![Fact::DivisibleBy16, Fact::None],
        };
        let event = CompileEvent {
            cache_warning: None,
            kernel: "safe_kernel".into(),
            specialization: to.clone(),
            reason: VariantReason::Specialization(changes(&from, &to, &names)),
            origin: Origin::Compiled(CompileCause::NotCached),
            key: None,
            elapsed: Duration::from_micros(12_345),
        };
        assert!(event.compiled());
        assert_eq!(
            event.to_string(),
            "compiled `safe_kernel` in 12.3 ms (not cached); new specialization: argument 1 \
             (`n`) %16 -> none [facts %16 none]"
        );
        assert_eq!(changes(&from, &from, &names), vec![]);
        // A shorter specialization means "nothing assumed" past its end.
        assert_eq!(
            changes(&Specialization::none(), &from, &names)
                .iter()
                .map(|c| c.index)
                .collect::<Vec<_>>(),
            vec![0, 1]
        );
    }
}
