//! What a kernel takes: its spec (entry name, parameters, warps, shared
//! memory) in [`KernelSpec`], the types of its parameters in
//! [`ParamType`], the launch arguments in [`Arg`], and the check of one
//! against the other ([`KernelSpec::check_args`]).

mod arg;
mod param_type;
mod spec;

pub use arg::Arg;
pub use param_type::ParamType;
pub use spec::{KernelSpec, MAX_I32_OFFSET_ELEMS};
