//! What a kernel takes: its spec (entry name, parameters, warps, shared
//! memory) in [`KernelSpec`], the types of its parameters in
//! [`ParamType`], the launch arguments in [`Arg`], and the check of one
//! against the other ([`KernelSpec::check_args`]).
//!
//! ```
//! use tile_runtime::{Arg, KernelSpec, ParamType, Specialization};
//!
//! let spec = KernelSpec {
//!     name: "scale".into(),
//!     params: vec![("x".into(), ParamType::Ptr), ("n".into(), ParamType::I32)],
//!     num_warps: 4,
//!     shared_mem_bytes: 0,
//!     i32_offset_elem_bytes: vec![],
//!     specialization: Specialization::none(),
//! };
//! let x = tile_runtime::Device::interpreter().upload(&[0.0f32; 8])?;
//! assert!(spec.check_args(&[Arg::from(&x), Arg::from(8)]).is_ok());
//! // An i64 where the kernel takes an i32 is refused, not converted.
//! assert!(spec.check_args(&[Arg::from(&x), Arg::from(8i64)]).is_err());
//! # Ok::<(), tile_runtime::RuntimeError>(())
//! ```

mod arg;
mod param_type;
mod pointee;
mod spec;

pub use arg::Arg;
pub use param_type::ParamType;
pub use pointee::{check_pointees, holds};
pub use spec::{KernelSpec, MAX_I32_OFFSET_ELEMS};
