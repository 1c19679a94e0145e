//! Where each decision `canonfuzz ink decide` takes ([`super::published::DECISIONS`]) is
//! compared with implementations other than the core: the campaign and the case `op` that
//! asks it, and what part, if any, is not compared (INK's own corpus still checks each as
//! published).
//! A test holds the table to every decision `ink decide` lists and to what the campaigns
//! generate, so a decision added there without a place here fails it.

/// How one of INK's decisions is compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compared {
    /// Whole, by this family's campaign, in its cases of this `op`.
    Op(&'static str),
    /// Whole, by this family's campaign, in its cases of op `decide` that name it: the core
    /// answers through `ink decide` itself.
    Decide,
    /// Whole, by another family's campaign (by name), in its cases of this `op`.
    Family(&'static str, &'static str),
    /// In part, by this family's cases of this `op`; the rest, said in words, is not.
    Part(&'static str, &'static str),
}

/// Every decision `ink decide` takes, and how it is compared.
pub const COMPARED: [(&str, Compared); 22] = [
    ("agent-card", Compared::Decide),
    ("audit-query-response", Compared::Decide),
    ("connection-payload", Compared::Decide),
    ("handshake-message", Compared::Decide),
    ("inclusion-receipt", Compared::Decide),
    ("jcs-number", Compared::Op("body")),
    ("jcs-string-safety", Compared::Op("body")),
    ("key-rotation", Compared::Op("rotation")),
    ("merkle-checkpoint", Compared::Op("checkpoint")),
    (
        "merkle-consistency",
        Compared::Family("merkle", "consistency"),
    ),
    ("merkle-inclusion", Compared::Op("inclusion")),
    ("merkle-leaf", Compared::Op("leaf")),
    ("principal-normalization", Compared::Op("principal")),
    ("replay-freshness", Compared::Op("replay")),
    ("signature-base", Compared::Op("signed")),
    ("timestamp-validity", Compared::Op("timestamp")),
    ("seed-transport-auth", Compared::Decide),
    ("seed-containment", Compared::Decide),
    (
        "seed-key-rotation",
        Compared::Part(
            "rotation",
            "the choice of entry is compared over signature bases; over the seed's raw messages it is not",
        ),
    ),
    ("seed-discovery-gating", Compared::Decide),
    (
        "seed-witness",
        Compared::Part(
            "chain",
            "ops leaf, node, root, checkpoint, chain and submit are compared; a claimed canonical form beside an event is not",
        ),
    ),
    ("seed-audit-response", Compared::Op("audit-response")),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::ink::published::DECISIONS;

    /// The `op` of each of the first cases a family's campaign generates, and of its `decide`
    /// cases the decision too (`decide <decision>`).
    fn ops(family: crate::family::Family) -> std::collections::BTreeSet<String> {
        (0..5_000)
            .filter_map(|i| {
                let case = canonfuzz_props::values::case(&family.generate(1, i).1).ok()?;
                let op = case.get("op")?.as_str()?;
                Some(match case.get("decision").and_then(|d| d.as_str()) {
                    Some(decision) => format!("{op} {decision}"),
                    None => op.to_string(),
                })
            })
            .collect()
    }

    #[test]
    fn every_decision_ink_decide_takes_has_a_place_and_each_op_named_is_generated() {
        let listed: Vec<&str> = DECISIONS.iter().map(|(name, _)| *name).collect();
        let placed: Vec<&str> = COMPARED.iter().map(|(name, _)| *name).collect();
        assert_eq!(listed, placed);
        let ink = ops(crate::families::ink::FAMILY);
        for (decision, compared) in COMPARED {
            let asked = format!("decide {decision}");
            let (family, op) = match compared {
                Compared::Op(op) | Compared::Part(op, _) => (None, op),
                Compared::Decide => (None, asked.as_str()),
                Compared::Family(family, op) => (Some(family), op),
            };
            let generated = match family {
                None => ink.contains(op),
                Some(name) => ops(crate::families::from_name(name).unwrap()).contains(op),
            };
            assert!(generated, "{decision}: no case of op {op} is generated");
        }
    }
}
