//! What a compilation targets and how it is laid out.

use crate::dump::Dump;
use tile_runtime::Specialization;

/// Options of one compilation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Warps per program (threads = 32 x this); a power of two, 1 to 32.
    pub num_warps: u32,
    /// The GPU architecture (`sm_90`).
    pub chip: String,
    /// LLVM target features (`+ptx81`: the PTX ISA version). PTX 8.1
    /// (CUDA 12.1 drivers and later) is the first with sm_90's vector
    /// atomics (`atom.add.v4.f32`); with `+ptx80` f32 atomic adds move one
    /// element at a time.
    pub features: String,
    /// The LLVM optimisation level, 0 to 3.
    pub opt_level: u8,
    /// Buffers of the K loops whose `dot` operands are copied ahead into
    /// shared memory (`num_stages - 1` tiles in flight; 1: none). 1 to 8.
    pub num_stages: u32,
    /// Where to write every stage's IR, if anywhere.
    pub dump: Option<Dump>,
    /// What the code may assume of each argument (see [`Specialization`]):
    /// divisibility by 16 and equality to 1 let the compiler prove aligned,
    /// unit-stride accesses and use 128-bit loads and stores. Launches are
    /// checked against it. Default: nothing assumed.
    pub specialization: Specialization,
    /// A debug build: `device_assert`s are compiled in (elsewhere they
    /// are dropped). Default: on when the environment variable
    /// `TILE_DEBUG` ([`DEBUG_VAR`]) is `1`.
    pub debug: bool,
    /// A float product feeding a sum or difference may become one fused
    /// multiply-add, rounded once (as Triton's `enable_fp_fusion`, on by
    /// default there too): fewer instructions, and a result as accurate
    /// or more. Off: every product and sum rounds on its own, as the CPU
    /// interpreter computes them. Default: on.
    pub fp_fusion: bool,
    /// The programs of a 2-D grid may be renumbered so that the ones the
    /// GPU starts one after another touch adjacent memory
    /// (`tile-launch-order`: a kernel over tiles of short rows with
    /// `program_id(0)` over row blocks then reads and writes at a copy's
    /// rate). Off: `program_id` is the block's index as launched.
    /// Default: on.
    pub launch_order: bool,
}

/// The environment variable that turns on debug builds (`TILE_DEBUG=1`):
/// see [`Options::debug`].
pub const DEBUG_VAR: &str = "TILE_DEBUG";

/// True when the environment asks for debug builds.
pub fn debug_from_env() -> bool {
    std::env::var(DEBUG_VAR).is_ok_and(|v| v == "1")
}

impl Default for Options {
    /// 4 warps, sm_90 with PTX 8.1, -O3, 3 pipeline stages, dumps and
    /// debug as the environment says.
    fn default() -> Self {
        Options {
            num_warps: 4,
            chip: "sm_90".into(),
            features: "+ptx81".into(),
            opt_level: 3,
            num_stages: 3,
            dump: Dump::from_env(),
            specialization: Specialization::none(),
            debug: debug_from_env(),
            fp_fusion: true,
            launch_order: true,
        }
    }
}

impl Options {
    /// These options, specialized for `specialization`
    /// (typically `Specialization::of(&args)`).
    pub fn specialized(self, specialization: Specialization) -> Self {
        Options {
            specialization,
            ..self
        }
    }

    /// The default options with `num_warps` warps.
    pub fn with_warps(num_warps: u32) -> Self {
        Options {
            num_warps,
            ..Options::default()
        }
    }
}
