//! Registration of every dialect and pass, shared by the library and
//! `tile-opt`.

use melior::Context;
use melior::pass::Pass;
use melior::utility::{register_all_llvm_translations, register_all_passes};
use tile_dialect::Result;

/// A pass of ours: its flag (`tile-<name>`), a one-line summary, and its
/// constructor.
pub struct TilePass {
    /// The command-line flag, without dashes.
    pub flag: &'static str,
    /// What it does, for `--help`.
    pub summary: &'static str,
    /// Creates a fresh instance.
    pub create: fn() -> Pass,
}

static TILE_PASSES: &[TilePass] = &[
    TilePass {
        flag: "tile-verify",
        summary: "check the tile dialect's rules (shapes, axes, orders) that IRDL cannot express",
        create: crate::verify::create,
    },
    TilePass {
        flag: crate::assign_layouts::FLAG,
        summary: "give every tensor a blocked or sliced layout (module attribute tile.num_warps)",
        create: crate::assign_layouts::create,
    },
    TilePass {
        flag: crate::predicate::FLAG,
        summary: "give masked loads an explicit other; drop all-true masks and all-false accesses",
        create: crate::predicate::create,
    },
    TilePass {
        flag: crate::vectorize::FLAG,
        summary: "give loads and stores the widest access alignment, contiguity and masks allow",
        create: crate::vectorize::create,
    },
    TilePass {
        flag: crate::simt::FLAG,
        summary: "lower laid-out tile IR to per-thread code in a gpu.module (gpu, arith, llvm)",
        create: crate::simt::create,
    },
];

/// Every pass of ours, in registration order.
pub fn tile_passes() -> &'static [TilePass] {
    TILE_PASSES
}

/// The pass of ours with this flag.
pub fn find_pass(flag: &str) -> Option<&'static TilePass> {
    TILE_PASSES.iter().find(|p| p.flag == flag)
}

/// Makes `context` know every upstream dialect, the tile dialect, every
/// upstream pass (for textual pipelines) and the LLVM translations. The
/// library and `tile-opt` both start here. Calling it again is harmless.
pub fn register_all(context: &Context) -> Result<()> {
    // melior guards this with a `Once` of its own.
    register_all_passes();
    tile_dialect::register_dialects(context)?;
    register_all_llvm_translations(context);
    Ok(())
}
