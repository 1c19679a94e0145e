//! The end of a campaign, for a person (a readable table and each finding with its minimized
//! input) and for machines (`--summary-json`).

use std::fmt::Write as _;

use serde_json::{json, Value};

use crate::campaign::Summary;
use crate::compare::Verdict;
use crate::outcome::Outcome;
use crate::vector::excerpt;

/// The summary as text.
pub fn render(summary: &Summary) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "canonfuzz diff --family {}: {} cases in {:.1}s ({:.0} cases/s), seed {}; {} findings minimized in {:.1}s",
        summary.family.name(),
        summary.cases,
        summary.elapsed.as_secs_f64(),
        summary.cases_per_second(),
        summary.seed,
        summary.findings.len(),
        summary.shrink_elapsed.as_secs_f64()
    );
    for (name, why) in &summary.missing {
        let _ = writeln!(out, "WARNING: {name} did not run: {why}");
    }
    let _ = writeln!(
        out,
        "\n{:<26} {:<14} {:<24} {:>10} {:>9}",
        "implementation", "version", "group", "agreement", "findings"
    );
    for s in &summary.impls {
        let rate = if s.answered == 0 {
            "-".to_string()
        } else {
            format!("{:.2}%", 100.0 * s.agreed as f64 / s.answered as f64)
        };
        let version: String = s.version.chars().take(14).collect();
        let _ = writeln!(
            out,
            "{:<26} {:<14} {:<24} {:>10} {:>9}",
            s.name, version, s.group, rate, s.findings
        );
    }
    let verdicts: Vec<String> = summary
        .verdicts
        .iter()
        .map(|(v, n)| format!("{v} {n}"))
        .collect();
    let _ = writeln!(out, "\ncases by verdict: {}", verdicts.join(", "));
    let q = &summary.quorum;
    let present: Vec<&str> = q.present.iter().map(String::as_str).collect();
    let _ = writeln!(
        out,
        "voted: the core and {} of {} independence groups needed ({}){}",
        q.needed.intersection(&q.present).count(),
        q.needed.len(),
        present.join(", "),
        if q.narrowed {
            ", as narrowed by --impls"
        } else {
            ""
        }
    );
    if !q.absent().is_empty() {
        let _ = writeln!(
            out,
            "WARNING: compared without {} (--allow-missing)",
            q.absent().join(", ")
        );
    }
    if summary.findings.is_empty() {
        let _ = writeln!(out, "no disagreements");
    }
    for f in &summary.findings {
        let reason = match f.evaluation.verdict {
            Verdict::Policy(p) => format!(" [policy {}]", p.id),
            _ => String::new(),
        };
        let _ = writeln!(
            out,
            "\n{}{reason} ({} cases, first case {})",
            f.evaluation.verdict.name(),
            f.count,
            f.case
        );
        let _ = writeln!(out, "  {}", f.signature);
        for (imp, outcome) in summary.impls.iter().zip(&f.outcomes) {
            if let Outcome::Crashed(why) = outcome {
                let _ = writeln!(out, "  {} crashed: {why}", imp.name);
            }
        }
        let _ = writeln!(
            out,
            "  minimized ({} bytes): {}",
            f.minimized.len(),
            excerpt(&f.minimized)
        );
        if let Some(v) = &f.vector {
            let _ = writeln!(out, "  vector: {v}");
        }
    }
    for (name, why) in &summary.missing {
        let _ = writeln!(
            out,
            "\nWARNING: {name} did not run, so this campaign compared without it: {why}"
        );
    }
    let diverges = summary
        .findings
        .iter()
        .filter(|f| f.evaluation.verdict == Verdict::CoreDiverges)
        .count();
    let _ = writeln!(
        out,
        "\n{} findings: {diverges} where the core diverges, {} registered policy, {} among third parties",
        summary.findings.len(),
        summary.findings.iter().filter(|f| matches!(f.evaluation.verdict, Verdict::Policy(_))).count(),
        summary.findings.iter().filter(|f| f.evaluation.verdict == Verdict::ThirdParties).count(),
    );
    out
}

/// The summary in the `--summary-json` shape.
pub fn to_json(summary: &Summary) -> Value {
    json!({
        "family": summary.family.name(),
        "seed": summary.seed,
        "cases": summary.cases,
        "cases_per_s": summary.cases_per_second(),
        "implementations": summary.impls.iter().map(|s| json!({
            "name": s.name, "version": s.version, "independent_group": s.group,
            "answered": s.answered, "agreed": s.agreed, "findings": s.findings,
        })).collect::<Vec<_>>(),
        "missing": summary.missing.iter().map(|(n, why)| json!({"name": n, "reason": why})).collect::<Vec<_>>(),
        "quorum": {
            "needed": summary.quorum.needed,
            "present": summary.quorum.present,
            "absent": summary.quorum.absent(),
            "narrowed": summary.quorum.narrowed,
            "allow_missing": summary.quorum.allow_missing,
        },
        "voters": summary.voters,
        "categories": summary.categories,
        "findings": summary.findings.iter().map(|f| json!({
            "signature": f.signature,
            "diverging": f.evaluation.diverging,
            "verdict": f.evaluation.verdict.name(),
            "policy": match f.evaluation.verdict { Verdict::Policy(p) => Some(p.id), _ => None },
            "category": f.category.name(),
            "input_hex": crate::vector::to_hex(&f.minimized),
            "vector": f.vector,
            "outcomes": summary.impls.iter().zip(&f.outcomes).map(|(s, o)| (s.name.clone(), o.to_json())).collect::<serde_json::Map<_, _>>(),
        })).collect::<Vec<_>>(),
    })
}
