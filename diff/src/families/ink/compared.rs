//! Where each decision `canonfuzz ink decide` takes ([`super::published::DECISIONS`]) is
//! compared with implementations other than the core: the campaign and the case ops that ask
//! it (INK's own corpus still checks each as published).
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
    /// Whole, by this family's campaign, across its cases of these ops (`decide <decision>`
    /// for the cases of op `decide` that name it): a decision that reads several shapes of
    /// input.
    Ops(&'static [&'static str]),
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
    (
        "seed-transport-auth",
        Compared::Ops(&["base", "decide seed-transport-auth"]),
    ),
    ("seed-containment", Compared::Decide),
    ("seed-key-rotation", Compared::Decide),
    ("seed-discovery-gating", Compared::Decide),
    (
        "seed-witness",
        Compared::Ops(&[
            "leaf",
            "node",
            "root",
            "submit",
            "witness-checkpoint",
            "chain",
            "decide seed-witness",
        ]),
    ),
    ("seed-audit-response", Compared::Op("audit-response")),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::ink::published::DECISIONS;

    /// The `op` of each of the first cases a family's campaign generates, and of its `decide`
    /// cases the decision too (`decide <decision>`).
    fn ops_of(family: crate::family::Family) -> std::collections::BTreeSet<String> {
        (0..5_000)
            .filter_map(|i| {
                let case =
                    canonfuzz_props::read::for_judgment::case(&family.generate(1, i).1).ok()?;
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
        let ink = ops_of(crate::families::ink::FAMILY);
        for (decision, compared) in COMPARED {
            let asked = [format!("decide {decision}")];
            let (family, ops): (Option<&str>, Vec<&str>) = match compared {
                Compared::Op(op) => (None, vec![op]),
                Compared::Ops(ops) => (None, ops.to_vec()),
                Compared::Decide => (None, asked.iter().map(String::as_str).collect()),
                Compared::Family(family, op) => (Some(family), vec![op]),
            };
            let generated = match family {
                None => ink.clone(),
                Some(name) => ops_of(crate::families::from_name(name).unwrap()),
            };
            for op in ops {
                assert!(
                    generated.contains(op),
                    "{decision}: no case of op {op} is generated"
                );
            }
        }
    }
}
