//! Compare mode: two sessions' runs side by side (the view model is built in
//! `crate::comparison`, from the machines handed over here).

use crate::comparison::{between, ComparisonView};

use super::Session;

/// The comparison of the runs of `a` and `b` as far as each has gone; `None` while either has no
/// machine (an error in its source or launch).
pub fn comparison(a: &Session, b: &Session) -> Option<ComparisonView> {
    let run_a = (a.machine()?, a.kernel()?);
    let run_b = (b.machine()?, b.kernel()?);
    Some(between(run_a, run_b))
}
