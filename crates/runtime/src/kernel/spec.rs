//! A kernel's spec (entry name, parameters, warps, shared memory) and the
//! check of launch arguments against it.

use super::{Arg, ParamType};
use crate::error::{Result, RuntimeError};
use crate::specialization::Specialization;

/// What the runtime needs to launch a compiled kernel: the PTX entry name,
/// its parameters in order, and the launch shape the code was compiled for.
///
/// It depends on nothing from the compiler, so a spec can be written by hand
/// or stored beside ahead-of-time compiled PTX.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct KernelSpec {
    /// The `.entry` name in the PTX.
    pub name: String,
    /// Parameter names and types, in the order of the PTX entry.
    pub params: Vec<(String, ParamType)>,
    /// Warps per block: blocks are `num_warps * 32` threads in x.
    pub num_warps: u32,
    /// Dynamic shared memory per block, in bytes.
    pub shared_mem_bytes: u32,
    /// For each parameter, in order: `Some(element size in bytes)` when the
    /// kernel addresses memory through that pointer with 32-bit element
    /// offsets (a `tile.addptr` with i32 offsets, as `x_ptr + offs` makes
    /// when `offs` is i32), `None` otherwise (not a pointer, or addressed
    /// only through i64 offsets or block pointers).
    ///
    /// Such a pointer reaches at most [`MAX_I32_OFFSET_ELEMS`] elements, so
    /// [`check_args`](Self::check_args) refuses a launch that hands it a
    /// buffer holding more past the pointer. The compiler fills it from the
    /// kernel's IR; a hand-written spec may leave it empty (nothing known,
    /// nothing checked). Otherwise it has one entry per parameter. An
    /// element size of 0 counts as 1 byte.
    pub i32_offset_elem_bytes: Vec<Option<u32>>,
    /// What the code assumes of each argument (divisibility by 16, equality
    /// to 1); [`check_args`](Self::check_args) refuses arguments that break
    /// it. Empty: nothing assumed.
    pub specialization: Specialization,
}

/// The most elements a pointer addressed with 32-bit (i32) offsets may have
/// past it: `i32::MAX`, the largest offset and the largest element count an
/// i32 (the usual `n` of a kernel) can hold.
pub const MAX_I32_OFFSET_ELEMS: u64 = i32::MAX as u64;

impl KernelSpec {
    /// Checks launch arguments against the parameters: their count, then
    /// each one's type, then the extent of each pointer the kernel
    /// addresses with 32-bit offsets (see
    /// [`i32_offset_elem_bytes`](Self::i32_offset_elem_bytes)): more than
    /// [`MAX_I32_OFFSET_ELEMS`] elements from the pointer to the end of its
    /// buffer is [`RuntimeError::OffsetOverflow`]. A pointer whose extent is
    /// not known (an [`Arg`] made from a bare [`DevicePtr`](crate::DevicePtr)) is not checked.
    /// Errors name the kernel and the parameter.
    pub fn check_args(&self, args: &[Arg]) -> Result<()> {
        let offsets = self.i32_offset_elem_bytes.len();
        if offsets != 0 && offsets != self.params.len() {
            return Err(RuntimeError::BadLaunch {
                kernel: self.name.clone(),
                message: format!(
                    "the spec's i32_offset_elem_bytes has {offsets} entr{} for {} parameter{}; \
                     give one per parameter, or none",
                    if offsets == 1 { "y" } else { "ies" },
                    self.params.len(),
                    if self.params.len() == 1 { "" } else { "s" }
                ),
            });
        }
        if args.len() != self.params.len() {
            return Err(RuntimeError::ArgCount {
                kernel: self.name.clone(),
                params: self
                    .params
                    .iter()
                    .map(|(name, ty)| format!("{name}: {ty}"))
                    .collect(),
                given: args.len(),
            });
        }
        for (index, ((name, expected), arg)) in self.params.iter().zip(args).enumerate() {
            let given = arg.param_type();
            if given != *expected {
                return Err(RuntimeError::BadArgument {
                    kernel: self.name.clone(),
                    index,
                    name: name.clone(),
                    expected: *expected,
                    given,
                });
            }
            if let (
                Some(Some(elem_bytes)),
                Arg::Ptr {
                    extent_bytes: Some(extent),
                    ..
                },
            ) = (self.i32_offset_elem_bytes.get(index), arg)
            {
                let elements = extent / u64::from((*elem_bytes).max(1));
                if elements > MAX_I32_OFFSET_ELEMS {
                    return Err(RuntimeError::OffsetOverflow {
                        kernel: self.name.clone(),
                        index,
                        name: name.clone(),
                        elements,
                        elem_bytes: *elem_bytes,
                        limit: MAX_I32_OFFSET_ELEMS,
                    });
                }
            }
            let fact = self.specialization.fact(index);
            if !fact.holds_for(arg) {
                return Err(RuntimeError::Unspecialized {
                    kernel: self.name.clone(),
                    index,
                    name: name.clone(),
                    assumed: fact,
                    given: *arg,
                });
            }
        }
        Ok(())
    }

    /// Threads per block (`num_warps * 32`); [`RuntimeError::BadLaunch`]
    /// when `num_warps` is 0, [`RuntimeError::TooManyThreads`] past CUDA's
    /// 1024 threads.
    pub fn block_threads(&self) -> Result<u32> {
        const MAX_THREADS: u32 = 1024;
        let threads = u64::from(self.num_warps) * 32;
        if threads == 0 {
            return Err(RuntimeError::BadLaunch {
                kernel: self.name.clone(),
                message: "num_warps = 0; a block needs at least 1 warp".to_string(),
            });
        }
        if threads > u64::from(MAX_THREADS) {
            return Err(RuntimeError::TooManyThreads {
                kernel: self.name.clone(),
                threads: u32::try_from(threads).unwrap_or(u32::MAX),
                limit: MAX_THREADS,
                why: "CUDA".into(),
            });
        }
        Ok(threads as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::buffer::DevicePtr;

    fn safe_kernel() -> KernelSpec {
        KernelSpec {
            name: "safe_kernel".into(),
            params: vec![
                ("x_ptr".into(), ParamType::Ptr),
                ("y_ptr".into(), ParamType::Ptr),
                ("out_ptr".into(), ParamType::Ptr),
                ("n".into(), ParamType::I32),
            ],
            num_warps: 4,
            shared_mem_bytes: 0,
            i32_offset_elem_bytes: vec![Some(4), Some(4), Some(4), None],
            specialization: Default::default(),
        }
    }

    /// A pointer argument that knows it has `bytes` up to the end of its
    /// buffer.
    fn span(addr: u64, bytes: u64) -> Arg {
        Arg::Ptr {
            ptr: DevicePtr(addr),
            extent_bytes: Some(bytes),
            owner: None,
            elem: None,
        }
    }

    /// Bytes of `elems` f32s.
    fn f32s(elems: u64) -> u64 {
        elems * 4
    }

    fn ptr(v: u64) -> Arg {
        Arg::from(DevicePtr(v))
    }

    #[test]
    fn matching_args_pass() {
        let spec = safe_kernel();
        let args = [ptr(0x1000), ptr(0x2000), ptr(0x3000), Arg::from(1000)];
        spec.check_args(&args).unwrap();
    }

    #[test]
    fn wrong_count_names_every_parameter() {
        let err = safe_kernel()
            .check_args(&[ptr(1), ptr(2), ptr(3)])
            .unwrap_err();
        assert_eq!(
            err,
            RuntimeError::ArgCount {
                kernel: "safe_kernel".into(),
                params: vec![
                    "x_ptr: ptr".into(),
                    "y_ptr: ptr".into(),
                    "out_ptr: ptr".into(),
                    "n: i32".into()
                ],
                given: 3,
            }
        );
        assert_eq!(
            err.to_string(),
            "kernel `safe_kernel` takes 4 arguments (x_ptr: ptr, y_ptr: ptr, out_ptr: ptr, \
             n: i32), given 3"
        );
    }

    #[test]
    fn wrong_type_names_the_first_bad_parameter() {
        let err = safe_kernel()
            .check_args(&[ptr(1), Arg::I64(2), ptr(3), Arg::I64(4)])
            .unwrap_err();
        assert_eq!(
            err,
            RuntimeError::BadArgument {
                kernel: "safe_kernel".into(),
                index: 1,
                name: "y_ptr".into(),
                expected: ParamType::Ptr,
                given: ParamType::I64,
            }
        );
    }

    #[test]
    fn types_must_match_exactly() {
        let all = [
            (ParamType::Ptr, ptr(8)),
            (ParamType::I32, Arg::I32(1)),
            (ParamType::I64, Arg::I64(1)),
            (ParamType::F32, Arg::F32(1.0)),
            (ParamType::F16, Arg::F16(half::f16::ONE)),
            (ParamType::BF16, Arg::BF16(half::bf16::ONE)),
        ];
        for (ty, _) in &all {
            let spec = KernelSpec {
                name: "k".into(),
                params: vec![("p".into(), *ty)],
                num_warps: 1,
                shared_mem_bytes: 0,
                i32_offset_elem_bytes: vec![],
                specialization: Default::default(),
            };
            for (arg_ty, arg) in &all {
                assert_eq!(arg.param_type(), *arg_ty);
                let r = spec.check_args(std::slice::from_ref(arg));
                assert_eq!(r.is_ok(), ty == arg_ty, "{ty} given {arg_ty}");
            }
        }
    }

    #[test]
    fn no_params_no_args() {
        let spec = KernelSpec {
            name: "empty".into(),
            params: vec![],
            num_warps: 1,
            shared_mem_bytes: 0,
            i32_offset_elem_bytes: vec![],
            specialization: Default::default(),
        };
        spec.check_args(&[]).unwrap();
        assert!(matches!(
            spec.check_args(&[Arg::I32(0)]),
            Err(RuntimeError::ArgCount { given: 1, .. })
        ));
    }

    #[test]
    fn a_buffer_past_the_reach_of_i32_offsets_is_refused() {
        let spec = safe_kernel();
        let n = Arg::from(1000);
        let big = span(0x1000, f32s(1 << 31));
        let err = spec
            .check_args(&[span(0x1000, 4000), big, span(0x3000, 4000), n])
            .unwrap_err();
        assert_eq!(
            err,
            RuntimeError::OffsetOverflow {
                kernel: "safe_kernel".into(),
                index: 1,
                name: "y_ptr".into(),
                elements: 1 << 31,
                elem_bytes: 4,
                limit: i32::MAX as u64,
            }
        );
        assert_eq!(err.kernel(), Some("safe_kernel"));
        assert_eq!(
            err.to_string(),
            "kernel `safe_kernel`: argument 1 (`y_ptr`) points at 2147483648 elements of 4 \
             bytes, but the kernel addresses it with 32-bit (i32) offsets, which reach at most \
             2147483647 elements; compute the offsets in i64 (cast them with \
             `.to(DType::I64)` before adding them to the pointer) or use a block pointer \
             (`make_block_ptr`), then recompile"
        );
    }

    #[test]
    fn the_limit_is_i32_max_elements_of_the_kernels_element_size() {
        let spec = safe_kernel();
        let with_x = |x: Arg| spec.check_args(&[x, ptr(0x2000), ptr(0x3000), Arg::from(1)]);
        with_x(span(0x1000, f32s(i32::MAX as u64))).unwrap();
        // A partial element past the last whole one reaches nothing more.
        with_x(span(0x1000, f32s(i32::MAX as u64) + 3)).unwrap();
        assert!(matches!(
            with_x(span(0x1000, f32s(1 << 31))),
            Err(RuntimeError::OffsetOverflow {
                index: 0,
                elements: 2_147_483_648,
                ..
            })
        ));
        // The same bytes are fewer elements of a wider type.
        let mut wide = spec.clone();
        wide.i32_offset_elem_bytes[0] = Some(8);
        wide.check_args(&[span(0x1000, f32s(1 << 31)), ptr(2), ptr(3), Arg::from(1)])
            .unwrap();
        // An element size of 0 in a hand-written spec counts as 1 byte.
        wide.i32_offset_elem_bytes[0] = Some(0);
        assert!(matches!(
            wide.check_args(&[span(0x1000, 1 << 31), ptr(2), ptr(3), Arg::from(1)]),
            Err(RuntimeError::OffsetOverflow { elem_bytes: 0, .. })
        ));
    }

    #[test]
    fn i64_offsets_and_raw_pointers_are_not_limited() {
        let huge = span(0x1000, f32s(1 << 40));
        // Only `x_ptr` is addressed with i32 offsets.
        let mut spec = safe_kernel();
        spec.i32_offset_elem_bytes = vec![Some(4), None, None, None];
        spec.check_args(&[span(0x1000, 4000), huge, huge, Arg::from(1)])
            .unwrap();
        // A bare address has no known extent: nothing to check.
        safe_kernel()
            .check_args(&[ptr(0x1000), ptr(0x2000), ptr(0x3000), Arg::from(1)])
            .unwrap();
        // A spec that knows nothing about offsets checks nothing.
        spec.i32_offset_elem_bytes = vec![];
        spec.check_args(&[huge, huge, huge, Arg::from(1)]).unwrap();
    }

    #[test]
    fn offset_entries_must_match_the_parameters() {
        let mut spec = safe_kernel();
        spec.i32_offset_elem_bytes = vec![Some(4)];
        let err = spec
            .check_args(&[ptr(1), ptr(2), ptr(3), Arg::from(1)])
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "kernel `safe_kernel`: cannot launch: the spec's i32_offset_elem_bytes has 1 entry \
             for 4 parameters; give one per parameter, or none"
        );
    }

    #[test]
    fn block_threads_bounds() {
        let mut spec = safe_kernel();
        assert_eq!(spec.block_threads().unwrap(), 128);
        spec.num_warps = 32;
        assert_eq!(spec.block_threads().unwrap(), 1024);
        spec.num_warps = 0;
        let err = spec.block_threads().unwrap_err();
        assert_eq!(
            err.to_string(),
            "kernel `safe_kernel`: cannot launch: num_warps = 0; a block needs at least 1 warp"
        );
        spec.num_warps = 33;
        assert_eq!(
            spec.block_threads().unwrap_err().to_string(),
            "kernel `safe_kernel`: cannot launch: a block of 1056 threads, but CUDA allows at \
             most 1024; compile it with fewer warps"
        );
        spec.num_warps = u32::MAX;
        assert!(matches!(
            spec.block_threads(),
            Err(RuntimeError::TooManyThreads {
                threads: u32::MAX,
                ..
            })
        ));
    }
}
