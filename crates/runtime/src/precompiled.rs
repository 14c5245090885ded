//! Kernels compiled ahead of time: a set of [`Artifact`]s, one per
//! specialization, that a program links with the runtime alone (no
//! compiler in it) and launches through a [`Launcher`](crate::Launcher).
//!
//! ```no_run
//! use tile_runtime::{Arg, Device, Launcher, Precompiled};
//! # fn main() -> Result<(), tile_runtime::RuntimeError> {
//! # let (generic, aligned): (&[u8], &[u8]) = (b"", b"");
//! // Bytes written at build time by `tile::aot::write_artifact`.
//! let add = Launcher::new(Precompiled::from_bytes(&[generic, aligned])?);
//! let device = Device::new(0)?;
//! let x = device.upload(&[1.0f32; 1000])?;
//! let y = device.upload(&[2.0f32; 1000])?;
//! let out = device.alloc::<f32>(1000)?;
//! add.launch(&device, 1, &[(&x).into(), (&y).into(), (&out).into(), Arg::I32(1000)])?;
//! # Ok(())
//! # }
//! ```

use crate::artifact::Artifact;
use crate::cache_key::CacheKey;
use crate::error::{Result, RuntimeError};
use crate::kernel::ParamType;
use crate::launcher::VariantSource;
use crate::specialization::{Fact, Specialization};

/// Variants of one kernel compiled ahead of time. A launch runs the
/// variant that assumes the most of its arguments among those whose every
/// assumption holds for them.
#[derive(Clone, Debug)]
pub struct Precompiled {
    name: String,
    params: Vec<(String, ParamType)>,
    artifacts: Vec<Artifact>,
}

impl Precompiled {
    /// The variants `artifacts`, which must all be of one kernel (same
    /// name and parameters); at least one.
    pub fn new(artifacts: Vec<Artifact>) -> Result<Precompiled> {
        let Some(first) = artifacts.first() else {
            return Err(RuntimeError::BadArtifact {
                kernel: "?".into(),
                message: "no variants given".into(),
            });
        };
        let (name, params) = (first.spec.name.clone(), first.spec.params.clone());
        if let Some(other) = artifacts
            .iter()
            .find(|a| a.spec.name != name || a.spec.params != params)
        {
            return Err(RuntimeError::BadArtifact {
                kernel: name,
                message: format!(
                    "the variants are of different kernels: `{}` {:?} and `{}` {:?}",
                    first.spec.name, first.spec.params, other.spec.name, other.spec.params
                ),
            });
        }
        Ok(Precompiled {
            name,
            params,
            artifacts,
        })
    }

    /// Reads each variant with [`Artifact::from_bytes`].
    pub fn from_bytes(variants: &[&[u8]]) -> Result<Precompiled> {
        let artifacts = variants
            .iter()
            .enumerate()
            .map(|(i, bytes)| {
                Artifact::from_bytes(bytes).map_err(|e| RuntimeError::BadArtifact {
                    kernel: "?".into(),
                    message: format!("variant {i}: {e}"),
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Precompiled::new(artifacts)
    }

    /// The variants.
    pub fn artifacts(&self) -> &[Artifact] {
        &self.artifacts
    }
}

impl VariantSource for Precompiled {
    fn name(&self) -> &str {
        &self.name
    }

    fn params(&self) -> &[(String, ParamType)] {
        &self.params
    }

    fn cache_key(&self, _: &Specialization) -> Option<CacheKey> {
        None
    }

    fn produce(&self, wanted: &Specialization) -> Result<Artifact> {
        let holds = |a: &Artifact| {
            let facts = &a.spec.specialization.facts;
            facts
                .iter()
                .enumerate()
                .all(|(i, f)| *f == Fact::None || *f == wanted.fact(i))
        };
        let assumed = |a: &Artifact| {
            let facts = &a.spec.specialization.facts;
            facts.iter().filter(|f| **f != Fact::None).count()
        };
        self.artifacts
            .iter()
            .filter(|a| holds(a))
            .max_by_key(|a| assumed(a))
            .cloned()
            .ok_or_else(|| RuntimeError::NoVariant {
                kernel: self.name.clone(),
                message: format!(
                    "none of the {} precompiled variants fits arguments with facts {:?}; \
                     compile one that assumes nothing (`Specialization::none()`)",
                    self.artifacts.len(),
                    wanted.facts
                ),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::KernelSpec;

    fn variant(facts: Vec<Fact>) -> Artifact {
        Artifact {
            spec: KernelSpec {
                name: "k".into(),
                params: vec![("x".into(), ParamType::Ptr), ("n".into(), ParamType::I32)],
                num_warps: 4,
                shared_mem_bytes: 0,
                i32_offset_elem_bytes: vec![],
                specialization: Specialization { facts },
            },
            ptx: String::new(),
        }
    }

    #[test]
    fn the_most_specialized_fitting_variant_wins() {
        use Fact::*;
        let p = Precompiled::new(vec![
            variant(vec![]),
            variant(vec![DivisibleBy16, None]),
            variant(vec![DivisibleBy16, DivisibleBy16]),
        ])
        .unwrap();
        let pick = |facts: Vec<Fact>| {
            p.produce(&Specialization { facts })
                .unwrap()
                .spec
                .specialization
                .facts
        };
        assert_eq!(
            pick(vec![DivisibleBy16, DivisibleBy16]),
            vec![DivisibleBy16, DivisibleBy16]
        );
        assert_eq!(pick(vec![DivisibleBy16, None]), vec![DivisibleBy16, None]);
        assert_eq!(
            pick(vec![DivisibleBy16, EqualToOne]),
            vec![DivisibleBy16, None]
        );
        assert_eq!(pick(vec![None, DivisibleBy16]), Vec::<Fact>::new());
        let only_aligned = Precompiled::new(vec![variant(vec![DivisibleBy16, None])]).unwrap();
        assert!(matches!(
            only_aligned.produce(&Specialization::none()),
            Err(RuntimeError::NoVariant { .. })
        ));
    }

    #[test]
    fn variants_must_be_of_one_kernel() {
        let mut other = variant(vec![]);
        other.spec.name = "other".into();
        assert!(Precompiled::new(vec![variant(vec![]), other]).is_err());
        assert!(Precompiled::new(vec![]).is_err());
        let bytes = variant(vec![]).to_bytes().unwrap();
        assert_eq!(
            Precompiled::from_bytes(&[&bytes]).unwrap().artifacts(),
            &[variant(vec![])]
        );
        assert!(Precompiled::from_bytes(&[&bytes[..bytes.len() - 1]]).is_err());
    }
}
