//! Quality gates (seed 001 §11) and the evaluate-optimize loop (§9): after the agent's answer,
//! each gate checks it; see [`super::config::QualityGate`].

use super::turn::RunState;
use super::*;

/// What the gates say of an answer.
pub(super) enum GateVerdict {
    /// Every gate passed (or there is none).
    Pass,
    /// A gate failed with retries left: this feedback goes to the agent as a user message.
    Revise(String),
    /// A gate failed with no retry left: the run fails with this error.
    Fail(Error),
}

impl Runner<'_> {
    /// Checks `answer` against the run's gates, in order.
    pub(super) fn check_gates(
        &mut self,
        _req: &RunRequest,
        st: &mut RunState,
        _em: &mut Emitter,
        _answer: &str,
    ) -> Result<GateVerdict> {
        if st.gates.is_empty() {
            return Ok(GateVerdict::Pass);
        }
        Err(Error::internal("quality gates are being built"))
    }
}
