//! What one call of a script may spend: Lua instructions, counted rather than timed so that
//! whether a script finishes does not depend on the machine's load, and memory.

/// Lua instructions one call may run: a few hundred milliseconds, far beyond what reading an
/// object takes, far short of hanging a build.
pub(crate) const INSTRUCTION_BUDGET: u64 = 50_000_000;
/// Memory one call may allocate beyond what the runtime holds already.
pub(crate) const MEMORY_BUDGET: usize = 64 << 20;
/// How often the instruction hook runs; the budget is checked in steps of this size.
pub(super) const HOOK_INTERVAL: u32 = 1_000;

pub(super) fn out_of_instructions() -> String {
    format!(
        "the script did not finish within {INSTRUCTION_BUDGET} Lua instructions (does it loop \
         forever?)"
    )
}
