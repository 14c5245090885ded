//! What a loaded kernel uses of a multiprocessor, and the register cap
//! that lets one more of its blocks share one.
//!
//! The driver's JIT gives a kernel as many registers as its code wants
//! (up to what its block size allows). A kernel just past a register
//! cliff (1024 threads at 35 registers: one block a multiprocessor, where
//! 32 would fit two) loses half its resident warps to a few registers,
//! which a memory-bound kernel pays in bandwidth. So a kernel whose
//! resident blocks are bound by its registers, and which would fit one
//! more block with at most one allocation unit (8 registers a thread)
//! fewer, is compiled again under that cap: as `.maxnreg` in place of the
//! entry's own register directive where it has one (the `.minnctapersm 1`
//! of kernels that stream memory in a loop, which would override a
//! global cap), else as `CU_JIT_MAX_REGISTERS`. The capped code is kept
//! when it does fit more blocks and spills at most
//! [`SPILL_ALLOWANCE_BYTES`] a thread more. [`NO_REGISTER_CAP_VAR`] turns
//! this off.

/// The variable that turns the register cap off: any value but `0` or
/// empty.
pub const NO_REGISTER_CAP_VAR: &str = "TILE_NO_REGISTER_CAP";

/// The local memory a thread may gain under the cap (a few registers'
/// worth of spills, which stay in L1) and still be kept.
pub(crate) const SPILL_ALLOWANCE_BYTES: u32 = 16;

/// Registers are allocated to a thread in units of this many.
pub(crate) const REGISTER_UNIT: u32 = 8;

/// What a kernel loaded on a GPU uses, as the driver reports it
/// ([`LoadedKernel::resources`](super::LoadedKernel::resources)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resources {
    /// Registers per thread.
    pub registers: u32,
    /// Local memory per thread, in bytes: register spills and stack.
    pub local_bytes: u32,
    /// Static shared memory per block, in bytes.
    pub static_shared_bytes: u32,
    /// Blocks resident on one multiprocessor at once, with the kernel's
    /// block size and dynamic shared memory.
    pub blocks_per_multiprocessor: u32,
    /// The register cap the code was compiled under (see the module
    /// docs), if one was set.
    pub register_cap: Option<u32>,
}

/// The blocks of `threads` threads at `registers` registers each that
/// fit in `registers_per_sm` (warps get whole units of
/// [`REGISTER_UNIT`] registers a thread).
pub(crate) fn blocks_by_registers(registers: u32, threads: u32, registers_per_sm: u32) -> u32 {
    let per_thread = registers.max(1).div_ceil(REGISTER_UNIT) * REGISTER_UNIT;
    let warps = threads.div_ceil(32).max(1);
    registers_per_sm / (per_thread * 32 * warps)
}

/// The cap to try for a kernel with `first`'s resources and `threads`
/// threads a block: the most registers (a whole number of units) at which
/// one more block fits in `registers_per_sm`, when registers are what
/// binds its blocks and the cap takes at most one unit off. `None`
/// otherwise.
pub(crate) fn register_cap(first: &Resources, threads: u32, registers_per_sm: u32) -> Option<u32> {
    let blocks = first.blocks_per_multiprocessor;
    if blocks == 0 || blocks_by_registers(first.registers, threads, registers_per_sm) != blocks {
        return None;
    }
    let want = u64::from(blocks + 1) * u64::from(threads.div_ceil(32) * 32);
    let cap = u32::try_from(u64::from(registers_per_sm) / want).ok()?;
    let cap = cap / REGISTER_UNIT * REGISTER_UNIT;
    let fits = cap >= 2 * REGISTER_UNIT && cap < first.registers;
    (fits && first.registers <= cap + REGISTER_UNIT).then_some(cap)
}

/// Whether the code compiled under a cap (`capped`) is better than the
/// first (`first`): more blocks resident, and local memory at most
/// [`SPILL_ALLOWANCE_BYTES`] larger.
pub(crate) fn keeps_cap(first: &Resources, capped: &Resources) -> bool {
    capped.blocks_per_multiprocessor > first.blocks_per_multiprocessor
        && capped.local_bytes <= first.local_bytes.saturating_add(SPILL_ALLOWANCE_BYTES)
}

/// `ptx` with each entry's register directives (`.minnctapersm`,
/// `.maxnreg`) replaced by one `.maxnreg cap`, or `None` when no entry
/// has one.
pub(crate) fn with_register_cap(ptx: &str, cap: u32) -> Option<String> {
    let mut out = String::with_capacity(ptx.len() + 16);
    let (mut found, mut capped_entry) = (false, false);
    for line in ptx.split_inclusive('\n') {
        let t = line.trim_start();
        if t.starts_with(".visible") || t.starts_with(".entry") {
            capped_entry = false;
        }
        let directive = t.starts_with(".minnctapersm") || t.starts_with(".maxnreg");
        if !directive {
            out.push_str(line);
            continue;
        }
        found = true;
        if !capped_entry {
            out.push_str(&format!(".maxnreg {cap}\n"));
            capped_entry = true;
        }
    }
    found.then_some(out)
}

/// Whether `var` (the environment read through it) turns the cap off.
pub(crate) fn cap_disabled(var: impl Fn(&str) -> Option<std::ffi::OsString>) -> bool {
    var(NO_REGISTER_CAP_VAR).is_some_and(|v| !v.is_empty() && v != "0")
}

#[cfg(test)]
mod tests {
    use super::*;

    const H100_REGISTERS: u32 = 65536;

    fn resources(registers: u32, local_bytes: u32, blocks: u32) -> Resources {
        Resources {
            registers,
            local_bytes,
            static_shared_bytes: 0,
            blocks_per_multiprocessor: blocks,
            register_cap: None,
        }
    }

    #[test]
    fn blocks_count_whole_units_of_registers() {
        assert_eq!(blocks_by_registers(32, 1024, H100_REGISTERS), 2);
        assert_eq!(blocks_by_registers(33, 1024, H100_REGISTERS), 1);
        assert_eq!(blocks_by_registers(40, 1024, H100_REGISTERS), 1);
        assert_eq!(blocks_by_registers(64, 1024, H100_REGISTERS), 1);
        assert_eq!(blocks_by_registers(65, 1024, H100_REGISTERS), 0);
        assert_eq!(blocks_by_registers(72, 256, H100_REGISTERS), 3);
        assert_eq!(blocks_by_registers(1, 32, H100_REGISTERS), 256);
    }

    #[test]
    fn a_kernel_one_unit_past_a_cliff_is_capped_at_it() {
        // 1024 threads at 35 or 40 registers: one block; 32 fits two.
        assert_eq!(
            register_cap(&resources(35, 0, 1), 1024, H100_REGISTERS),
            Some(32)
        );
        assert_eq!(
            register_cap(&resources(40, 0, 1), 1024, H100_REGISTERS),
            Some(32)
        );
        // 256 threads at 72: three blocks; 64 fits four.
        assert_eq!(
            register_cap(&resources(72, 0, 3), 256, H100_REGISTERS),
            Some(64)
        );
        // 128 threads at 168 (three blocks): 128 for four is five units off.
        assert_eq!(
            register_cap(&resources(168, 0, 3), 128, H100_REGISTERS),
            None
        );
    }

    #[test]
    fn kernels_far_from_a_cliff_or_bound_elsewhere_are_left_alone() {
        // 41 registers is past one unit of 32.
        assert_eq!(
            register_cap(&resources(41, 0, 1), 1024, H100_REGISTERS),
            None
        );
        // 32 registers already fit two blocks; more would need 21 (too few
        // threads per multiprocessor anyway is the driver's to say).
        assert_eq!(
            register_cap(&resources(32, 0, 2), 1024, H100_REGISTERS),
            None
        );
        // Bound by shared memory (one block where registers allow two).
        assert_eq!(
            register_cap(&resources(32, 0, 1), 1024, H100_REGISTERS),
            None
        );
        // Nothing resident at all: nothing to gain.
        assert_eq!(
            register_cap(&resources(64, 0, 0), 1024, H100_REGISTERS),
            None
        );
        // A cap under two units is never tried (16 registers at 1024
        // threads: four blocks by registers; five would need 12).
        assert_eq!(
            register_cap(&resources(16, 0, 4), 1024, H100_REGISTERS),
            None
        );
    }

    #[test]
    fn capped_code_is_kept_only_when_it_fits_more_and_spills_little() {
        let first = resources(35, 0, 1);
        assert!(keeps_cap(&first, &resources(32, 0, 2)));
        assert!(keeps_cap(&first, &resources(32, 16, 2)));
        assert!(!keeps_cap(&first, &resources(32, 20, 2)));
        assert!(!keeps_cap(&first, &resources(32, 0, 1)));
        let spilling = resources(40, 24, 1);
        assert!(keeps_cap(&spilling, &resources(32, 40, 2)));
        assert!(!keeps_cap(&spilling, &resources(32, 48, 2)));
    }

    #[test]
    fn the_cap_replaces_an_entrys_register_directives() {
        let ptx = ".visible .entry k(\n\t.param .u64 p\n)\n.maxntid 128, 1, 1\n.minnctapersm 1\n{\n\tret;\n}\n";
        let capped = with_register_cap(ptx, 32).unwrap();
        assert_eq!(
            capped,
            ".visible .entry k(\n\t.param .u64 p\n)\n.maxntid 128, 1, 1\n.maxnreg 32\n{\n\tret;\n}\n"
        );
        // Both directives: one cap for the entry.
        let both = ptx.replace(".minnctapersm 1\n", ".minnctapersm 1\n.maxnreg 200\n");
        assert_eq!(with_register_cap(&both, 32).unwrap(), capped);
        // Two entries, each capped.
        let two = format!("{ptx}{}", ptx.replace("entry k", "entry j"));
        assert_eq!(
            with_register_cap(&two, 40)
                .unwrap()
                .matches(".maxnreg 40")
                .count(),
            2
        );
        // No directive: the cap goes to the JIT instead.
        assert_eq!(
            with_register_cap(&ptx.replace(".minnctapersm 1\n", ""), 32),
            None
        );
    }

    #[test]
    fn the_variable_turns_the_cap_off() {
        let with = |v: Option<&str>| cap_disabled(|_| v.map(Into::into));
        assert!(!with(None));
        assert!(!with(Some("")));
        assert!(!with(Some("0")));
        assert!(with(Some("1")));
    }
}
