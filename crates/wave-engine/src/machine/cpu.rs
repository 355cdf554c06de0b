//! What the CPU offers the run loop, found out once per machine.

/// Proof that the CPU this process runs on has AVX2, FMA, POPCNT, BMI1, BMI2 and LZCNT: only
/// [`Avx2Fma::detect`] makes one (the field is private to this module), and only after asking
/// the CPU. Code compiled for those features may run wherever a value of this type exists.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) struct Avx2Fma {
    _detected: (),
}

impl Avx2Fma {
    /// `Some` when the CPU has every feature (always `None` off x86-64).
    pub(super) fn detect() -> Option<Avx2Fma> {
        #[cfg(target_arch = "x86_64")]
        {
            let has_all = std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("fma")
                && std::arch::is_x86_feature_detected!("popcnt")
                && std::arch::is_x86_feature_detected!("bmi1")
                && std::arch::is_x86_feature_detected!("bmi2")
                && std::arch::is_x86_feature_detected!("lzcnt");
            has_all.then_some(Avx2Fma { _detected: () })
        }
        #[cfg(not(target_arch = "x86_64"))]
        None
    }
}
