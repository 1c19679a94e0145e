//! The `merkle` target's comparison of the core's Merkle verdicts with ct-merkle's.

use std::sync::OnceLock;

use crate::impls::Implementation;
use crate::merkle::policies::MERKLE_RULES;
use crate::panel::Panel;

/// Compares the core's Merkle verdicts with ct-merkle's on `data` (a Merkle case); returns the
/// signature when they differ in a way no registered policy explains.
pub fn merkle_check(data: &[u8]) -> Result<(), String> {
    static PANEL: OnceLock<Panel> = OnceLock::new();
    PANEL
        .get_or_init(|| merkle_panel(Box::new(crate::merkle::impls::core())))
        .diverges(data)
}

/// The `merkle` target's comparison with `core` standing for the core: it and ct-merkle.
pub fn merkle_panel(core: Box<dyn Implementation>) -> Panel {
    Panel::new(
        MERKLE_RULES,
        vec![core, Box::new(crate::merkle::impls::ct_merkle())],
    )
}
