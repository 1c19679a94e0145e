//! The end of a campaign, for a person (a readable table and each finding with its minimized
//! input) and for machines (`--summary-json`).

use std::fmt::Write as _;
use std::time::Duration;

use serde_json::{json, Value};

use crate::bugs::Bug;
use crate::campaign::{Finding, ImplStats, Summary};
use crate::compare::{Verdict, UNJUDGED};
use crate::escape::terminal;
use crate::lines::{wrap, wrap_with, WIDTH};
use crate::outcome::Outcome;
use crate::vector::excerpt;

/// How much of a campaign's end a person is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    /// The headline, the quorum and the totals.
    Quiet,
    /// Also one line per finding, grouped by verdict and by who differs, with findings that
    /// differ only in error kinds folded, and the implementation table.
    Normal,
    /// Also the folded findings, and each finding's signature, crashes and minimized input.
    Verbose,
}

/// ANSI colours for a terminal, or none.
#[derive(Debug, Clone, Copy)]
pub struct Paint(pub bool);

impl Paint {
    /// Colour for `stream` when it is a terminal and `NO_COLOR` is unset or empty.
    pub fn for_terminal(is_terminal: bool) -> Paint {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Paint(is_terminal && !no_color)
    }

    fn paint(self, code: &str, text: &str) -> String {
        if self.0 {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
}

/// The verdicts in the order a person reads them, with their headings and colours.
const SECTIONS: [(&str, &str, &str); 4] = [
    (UNJUDGED, "the harness could not judge", "1;35"),
    ("core_diverges", "core diverges", "1;31"),
    ("policy", "registered policy", "33"),
    ("third_parties_disagree", "third parties disagree", "36"),
];

/// The verdicts that fail a campaign, whose findings are always listed one by one.
const FAILURES: [&str; 2] = [UNJUDGED, "core_diverges"];

/// Bugs listed in full, two lines each, so that the list fits a screen; the rest are counted.
pub const SHOWN_BUGS: usize = 12;

/// Whether a finding's answers are all rejections, differing only in the kind they name.
fn labels_only(finding: &Finding) -> bool {
    finding
        .outcomes
        .iter()
        .filter(|o| !matches!(o, Outcome::Unsupported))
        .all(|o| matches!(o, Outcome::Rejected(_)))
}

/// Who a finding is about: the policy for a policy finding, else who differs.
fn cause(finding: &Finding) -> String {
    terminal(&match finding.evaluation.verdict {
        Verdict::Policy(p) => format!("{} (core)", p.id),
        Verdict::Unjudged(p) => format!("{} (unread)", p.id),
        _ if finding.evaluation.diverging.is_empty() => "(no consensus)".to_string(),
        _ => finding.evaluation.diverging.join(","),
    })
    .into_owned()
}

/// Why a finding the harness could not judge was not judged: the error its policy's predicate
/// gives on the finding's first case.
pub fn unread(finding: &Finding) -> Option<String> {
    match finding.evaluation.verdict {
        Verdict::Unjudged(policy) => Some(format!(
            "the {} predicate could not read case {}: {}",
            policy.id,
            finding.case,
            (policy.applies)(&finding.input)
                .err()
                .map_or_else(|| "it reads it when asked again".to_string(), |e| e.0)
        )),
        _ => None,
    }
}

/// Why a campaign failed on its own account, for its exit message: the cases it could not
/// judge, with the first reason.
pub fn harness_failure(summary: &Summary) -> Option<String> {
    let cases = summary.verdicts.get(UNJUDGED).copied().unwrap_or(0);
    let first = summary.findings.iter().find_map(unread)?;
    Some(format!(
        "the harness could not judge {cases} {}: {first}; this is a fault of canonfuzz, not of any implementation: report it with the case's seed and index",
        if cases == 1 { "case" } else { "cases" }
    ))
}

/// `text` cut to `width` characters, `…` marking a cut.
pub fn clip(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        text.to_string()
    } else {
        let mut cut: String = text.chars().take(width.saturating_sub(1)).collect();
        cut.push('…');
        cut
    }
}

/// "finding" or "findings", as `count` asks.
fn finding_word(count: usize) -> &'static str {
    if count == 1 {
        "finding"
    } else {
        "findings"
    }
}

/// The summary as text, for an 80-column terminal; `only` narrows its bugs to one
/// implementation's.
pub fn render(summary: &Summary, detail: Detail, paint: Paint, only: Option<&str>) -> String {
    let mut out = String::new();
    headline(&mut out, summary);
    votes(&mut out, summary, detail, paint);
    pace(&mut out, summary);
    if detail != Detail::Quiet {
        findings(&mut out, summary, detail, paint);
        bugs(&mut out, summary, detail, paint, only);
        table(&mut out, summary);
    }
    totals(&mut out, summary, detail, paint);
    out
}

/// What ran, how fast, what was planted or repeated, and the findings new and known.
fn headline(out: &mut String, summary: &Summary) {
    let ran = match (summary.interrupted, summary.planned) {
        (true, Some(planned)) => format!("{} of {planned} cases (interrupted)", summary.cases),
        (true, None) => format!("{} cases (interrupted)", summary.cases),
        (false, _) => format!("{} cases", summary.cases),
    };
    out.push_str(&wrap(&format!(
        "canonfuzz diff --family {}: {ran} in {:.1}s ({:.0} cases/s), seed {}",
        summary.family.name(),
        summary.elapsed.as_secs_f64(),
        summary.cases_per_second(),
        summary.seed,
    )));
    if let Some(mutant) = summary.plant {
        out.push_str(&wrap(&format!(
            "planted in the core's place: the mutant {} ({}); nothing was saved",
            mutant.name, mutant.bug
        )));
    }
    if summary.dropped > 0 {
        out.push_str(&wrap(&format!(
            "{} cases escalated to the workers were left unjudged when the campaign stopped",
            summary.dropped
        )));
    }
    if summary.repeated > 0 {
        out.push_str(&wrap(&format!(
            "{} cases repeated an earlier input and were judged from its answers",
            summary.repeated
        )));
    }
    let new = summary.findings.iter().filter(|f| f.new).count();
    let known = summary.findings.len() - new;
    let minimized = match (new, summary.interrupted) {
        (0, _) => "no new findings".to_string(),
        (_, true) => format!("{new} new {} left unminimized", finding_word(new)),
        (_, false) => format!(
            "{new} new {} minimized in {:.1}s ({:.0} cases/s end to end)",
            finding_word(new),
            summary.shrink_elapsed.as_secs_f64(),
            summary.end_to_end_cases_per_second()
        ),
    };
    let known = match known {
        0 => String::new(),
        _ => format!("; {known} known, minimized in the corpus"),
    };
    out.push_str(&wrap(&format!("{minimized}{known}")));
}

/// The warning for `name`, which did not run (`what` says what became of it): the first line
/// of `why` in at most 80 columns a line, or with `verbose` all of it, a line at a time as the
/// tool wrote it.
pub fn not_run(name: &str, what: &str, why: &str, verbose: bool) -> String {
    let name = terminal(name);
    if !verbose {
        let first = crate::lines::first_line(why);
        return wrap(&format!("WARNING: {name} {what}: {}", terminal(first)));
    }
    let mut out = wrap(&format!("WARNING: {name} {what}:"));
    for line in why.lines() {
        out.push_str(&format!("  | {}\n", terminal(line)));
    }
    out
}

/// Where a person learns more after [`not_run`]'s warnings.
pub const NOT_RUN_HINT: &str =
    "(canonfuzz setup says what each runtime needs; -v shows each reason whole)\n";

/// A warning for each implementation that did not run, then where to learn more.
fn missing(out: &mut String, summary: &Summary, detail: Detail, what: &str) {
    let verbose = detail == Detail::Verbose;
    for (name, why) in &summary.missing {
        out.push_str(&not_run(name, what, why, verbose));
    }
    if !summary.missing.is_empty() && !verbose {
        out.push_str(NOT_RUN_HINT);
    }
}

/// Who could not run, the cases by verdict, and which groups voted.
fn votes(out: &mut String, summary: &Summary, detail: Detail, paint: Paint) {
    missing(out, summary, detail, "did not run");
    let verdicts: Vec<String> = summary
        .verdicts
        .iter()
        .map(|(v, n)| format!("{v} {n}"))
        .collect();
    out.push_str(&wrap(&format!("cases by verdict: {}", verdicts.join(", "))));
    let q = &summary.quorum;
    let present: Vec<&str> = q.present.iter().map(String::as_str).collect();
    out.push_str(&wrap(&format!(
        "voted: the core and {} of {} independence groups needed ({}){}",
        q.needed.intersection(&q.present).count(),
        q.needed.len(),
        present.join(", "),
        if q.narrowed {
            ", as narrowed by --impls"
        } else {
            ""
        }
    )));
    if !q.absent().is_empty() {
        out.push_str(&paint.paint(
            "1;31",
            &wrap(&format!(
                "WARNING: compared without {} (--allow-missing)",
                q.absent().join(", ")
            )),
        ));
    }
}

/// Per worker of a paced campaign: the cases it answered, and how they were chosen.
fn pace(out: &mut String, summary: &Summary) {
    let paced: Vec<(&ImplStats, crate::pacing::Pace)> = summary
        .impls
        .iter()
        .filter_map(|s| s.pace.map(|p| (s, p)))
        .collect();
    if paced.is_empty() {
        if let Some(why) = summary
            .unpaced
            .filter(|why| *why != crate::pacing::ALL_IN_PROCESS)
        {
            out.push_str(&wrap(&format!(
                "not paced: every implementation answered every case ({why})"
            )));
        }
        return;
    }
    out.push_str(&wrap(&format!(
        "paced: the implementations in process answered every case; each worker below, \
         every case on which they differed or no implementation independent of the core \
         answered, and {}% of the rest, chosen by the seed a category and answer at a time \
         (one given with --with answers every case; --every-case asks every one every case)",
        summary.family.facts().sample_percent
    )));
    let _ = writeln!(
        out,
        "{:<24} {:>10} {:>6} {:>13} {:>9} {:>5}",
        "worker", "answered", "share", "escalated", "sampled", "busy"
    );
    let cases = summary.cases.max(1) as f64;
    let wall = summary.elapsed.as_secs_f64().max(1e-9);
    for (s, p) in paced {
        let _ = writeln!(
            out,
            "{:<24} {:>10} {:>5.0}% {:>13} {:>9} {:>4.0}%",
            clip(&terminal(&s.name), 24),
            p.answered(),
            100.0 * p.answered() as f64 / cases,
            p.escalated,
            p.sampled,
            (100.0 * p.busy.as_secs_f64() / wall).min(100.0)
        );
    }
}

/// The warnings for implementations that did not run, repeated last, and the findings'
/// totals, red when the core diverges or a case could not be judged.
fn totals(out: &mut String, summary: &Summary, detail: Detail, paint: Paint) {
    if !summary.missing.is_empty() {
        out.push('\n');
    }
    missing(
        out,
        summary,
        detail,
        "did not run, so this campaign compared without it",
    );
    let count = |verdict: &str| {
        summary
            .findings
            .iter()
            .filter(|f| f.evaluation.verdict.name() == verdict)
            .count()
    };
    let new = summary.findings.iter().filter(|f| f.new).count();
    let diverges = count("core_diverges");
    let unjudged = match count(UNJUDGED) {
        0 => String::new(),
        n => format!(", {n} the harness could not judge"),
    };
    let totals = format!(
        "{} findings ({new} new): {diverges} where the core diverges, {} registered policy, {} among third parties{unjudged}",
        summary.findings.len(),
        count("policy"),
        count("third_parties_disagree"),
    );
    out.push('\n');
    let totals = wrap(&totals);
    out.push_str(&if diverges > 0 || !unjudged.is_empty() {
        paint.paint("1;31", &totals)
    } else {
        totals
    });
}

/// One line per finding, by verdict and cause: `new`, who differs, a short input, the vector.
fn findings(out: &mut String, summary: &Summary, detail: Detail, paint: Paint) {
    if summary.findings.is_empty() {
        let _ = writeln!(out, "\nno disagreements");
        return;
    }
    let dir = format!("{}/findings/", summary.family.name());
    for (verdict, heading, colour) in SECTIONS {
        // The campaign's own failures are listed by finding; the rest are read as bugs.
        if detail != Detail::Verbose && !FAILURES.contains(&verdict) {
            continue;
        }
        let mut these: Vec<&Finding> = summary
            .findings
            .iter()
            .filter(|f| f.evaluation.verdict.name() == verdict)
            .collect();
        if these.is_empty() {
            continue;
        }
        these.sort_by(|a, b| cause(a).cmp(&cause(b)).then(b.count.cmp(&a.count)));
        let cases: u64 = these.iter().map(|f| f.count).sum();
        let _ = writeln!(
            out,
            "\n{} — {} findings, {cases} cases (vectors in {dir})",
            paint.paint(colour, heading),
            these.len()
        );
        let fold = detail == Detail::Normal && verdict != "core_diverges";
        let folded = these.iter().filter(|f| fold && labels_only(f)).count();
        for f in these.iter().filter(|f| !(fold && labels_only(f))) {
            finding(out, summary, f, &dir, detail, paint);
        }
        if folded > 0 {
            let _ = writeln!(
                out,
                "  ... and {folded} more where all reject, naming other error kinds (-v lists them)"
            );
        }
    }
}

/// One finding's line, `new` marked, with its crashes, and under `-v` its signature, cases
/// and input.
fn finding(
    out: &mut String,
    summary: &Summary,
    f: &Finding,
    dir: &str,
    detail: Detail,
    paint: Paint,
) {
    let vector = f
        .vector
        .as_deref()
        .and_then(|v| v.strip_prefix(dir))
        .unwrap_or("-");
    let marker = if f.new {
        paint.paint("32", "new")
    } else {
        "   ".to_string()
    };
    let shown = if f.is_minimized {
        excerpt(&f.minimized)
    } else if let Some(known) = f.known_input.as_deref() {
        excerpt(known)
    } else if !f.new {
        "(minimized in its vector)".to_string()
    } else {
        format!("(unminimized) {}", excerpt(&f.minimized))
    };
    let _ = writeln!(
        out,
        "  {marker} {:<22} {:<26} {}",
        clip(&cause(f), 22),
        clip(&shown, 26),
        terminal(vector)
    );
    if detail == Detail::Verbose {
        let _ = writeln!(
            out,
            "      {} ({} cases, first case {})",
            terminal(&f.signature),
            f.count,
            f.case
        );
    }
    for (imp, outcome) in summary.impls.iter().zip(&f.outcomes) {
        if let Outcome::Crashed(why) = outcome {
            let why = terminal(why).to_string();
            let why = match detail {
                Detail::Verbose => why,
                _ => clip(&why, 60),
            };
            let _ = writeln!(out, "      {} crashed: {why}", terminal(&imp.name));
        }
    }
    if detail == Detail::Verbose {
        let _ = writeln!(
            out,
            "      input ({} bytes): {}",
            f.minimized.len(),
            excerpt(&f.minimized)
        );
    }
    if let Some(why) = unread(f) {
        out.push_str(&wrap(&format!("      {}", terminal(&why))));
    }
}

/// The campaign's bugs, most severe first (an implementation given with `--with` before the
/// others, `only` narrowing them to one implementation's): per bug, who is blamed, the rule and
/// the shape, the cases, and its smallest example with the expected answer against the one
/// given, from where they part. At most [`SHOWN_BUGS`] unless verbose; the rest counted.
fn bugs(out: &mut String, summary: &Summary, detail: Detail, paint: Paint, only: Option<&str>) {
    let (mut bugs, mut renamed): (Vec<Bug>, Vec<Bug>) = summary
        .bugs()
        .into_iter()
        .partition(|b| b.key.severity.is_bug());
    let found = bugs.len();
    if let Some(name) = only {
        bugs.retain(|b| b.concerns(name));
        renamed.retain(|b| b.concerns(name));
    }
    // The order is kept within each side: most severe first.
    bugs.sort_by_key(|b| !summary.own.iter().any(|n| b.concerns(n)));
    let without = summary
        .findings
        .iter()
        .filter(|f| {
            f.evaluation.consensus.is_none() && !FAILURES.contains(&f.evaluation.verdict.name())
        })
        .count();
    let narrowed = only.map_or(String::new(), |n| format!(" of {}", terminal(n)));
    let _ = writeln!(
        out,
        "\n{} — {} of {found}{narrowed}, most severe first",
        paint.paint("1", "bugs"),
        bugs.len(),
    );
    if bugs.is_empty() {
        let _ = writeln!(out, "  none");
    }
    let shown = if detail == Detail::Verbose {
        bugs.len()
    } else {
        SHOWN_BUGS
    };
    write_bugs(out, bugs.iter().take(shown), paint, "case");
    if bugs.len() > shown {
        out.push_str(&wrap(&format!(
            "... and {} more bugs: --only NAME shows one implementation's, -v all of them, --summary-json each with its vectors",
            bugs.len() - shown
        )));
    }
    renamed_note(out, &renamed, detail, paint, "case");
    if without > 0 {
        out.push_str(&wrap(&format!(
            "{without} findings without a consensus to judge them by are not counted as bugs (-v lists them)"
        )));
    }
}

/// The refusals that name another problem than the one expected: counted apart from the bugs,
/// listed when verbose.
pub fn renamed_note(out: &mut String, renamed: &[Bug], detail: Detail, paint: Paint, unit: &str) {
    if renamed.is_empty() {
        return;
    }
    out.push_str(&wrap(&format!(
        "{} {} refusals naming another problem than the one expected: not counted as bugs, as no rule says which of a document's problems is named{}",
        renamed.len(),
        if renamed.len() == 1 { "behaviour of" } else { "behaviours of" },
        if detail == Detail::Verbose { "" } else { " (-v lists them)" }
    )));
    if detail == Detail::Verbose {
        write_bugs(out, renamed.iter(), paint, unit);
    }
}

/// `bugs` in the order given, two lines each: who is blamed (and through which
/// implementations), the rule and the shape; then how many of `unit` (cases, tests) show it
/// and its smallest example, the expected answer against the one given from where they
/// part. A heading for each severity; a new bug marked.
pub fn write_bugs<'a>(
    out: &mut String,
    bugs: impl Iterator<Item = &'a Bug>,
    paint: Paint,
    unit: &str,
) {
    let mut severity = None;
    for bug in bugs {
        if severity != Some(bug.key.severity) {
            severity = Some(bug.key.severity);
            let _ = writeln!(out, "  {}:", bug.key.severity.words());
        }
        let marker = if bug.new {
            paint.paint("32", "new")
        } else {
            "   ".to_string()
        };
        let via = match bug.implementations.iter().any(|i| *i != bug.key.blamed) {
            true => format!(
                " (via {})",
                bug.implementations
                    .iter()
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            false => String::new(),
        };
        let mut head = format!(
            "{}{via}, {}: {}",
            bug.key.blamed, bug.key.rule, bug.key.shape
        );
        if let Some(exponents) = bug.exponents {
            head.push_str(&format!(", {}", exponents.words()));
        }
        if !bug.also.is_empty() {
            head.push_str(&format!(" (and {} more of its cause)", bug.also.len()));
        }
        // Wrapped, never cut: who, the rule and the shape are the bug's name.
        out.push_str(&wrap_with(
            &format!("  {marker} "),
            "        ",
            &terminal(&head),
        ));
        let (want, got, _) = crate::bugs::parted(&bug.example.expected, &bug.example.actual);
        let example = format!(
            "{} {unit}{}: {} expected {} got {}",
            bug.cases,
            if bug.cases == 1 { "" } else { "s" },
            clip(&excerpt(&bug.example.input), 24),
            clip(&terminal(&want), 16),
            clip(&terminal(&got), 16)
        );
        let _ = writeln!(out, "        {}", clip(&example, WIDTH - 8));
    }
}

/// Per implementation: version, group, agreement with the consensus, findings and its cost —
/// the CPU time it used, where that can be read, else the time the harness waited on it; then
/// the costliest, named, and the rate their CPU time alone allows on these cores.
fn table(out: &mut String, summary: &Summary) {
    let _ = writeln!(
        out,
        "\n{:<24} {:<13} {:<16} {:>9} {:>5} {:>7}",
        "implementation", "version", "group", "agreement", "finds", "cost"
    );
    let cost = |s: &ImplStats| s.cpu.unwrap_or(s.busy);
    for s in &summary.impls {
        let rate = if s.answered == 0 {
            "-".to_string()
        } else {
            format!("{:.2}%", 100.0 * s.agreed as f64 / s.answered as f64)
        };
        let _ = writeln!(
            out,
            "{:<24} {:<13} {:<16} {:>9} {:>5} {:>6.1}s",
            clip(&terminal(&s.name), 24),
            clip(&terminal(&s.version), 13),
            clip(&terminal(&s.group), 16),
            rate,
            s.findings,
            cost(s).as_secs_f64()
        );
    }
    let _ = writeln!(
        out,
        "cost: CPU time, a worker's in its own processes (hosted: its share)"
    );
    if let Some(slowest) = summary.impls.iter().max_by_key(|s| cost(s)) {
        if !cost(slowest).is_zero() {
            let what = if slowest.cpu.is_some() {
                "of CPU"
            } else {
                "answering"
            };
            let _ = writeln!(
                out,
                "costliest: {}, {:.1} s {what}",
                slowest.name,
                cost(slowest).as_secs_f64()
            );
        }
    }
    let used: Duration = summary.impls.iter().filter_map(|s| s.cpu).sum();
    if !used.is_zero() && !summary.cases_cpu.is_zero() && summary.cases > 0 {
        let ceiling = summary.cases as f64 * summary.cores as f64 / summary.cases_cpu.as_secs_f64();
        out.push_str(&wrap(&format!(
            "{:.1} CPU-s in all, {:.1} running the cases: on {} cores they could not run \
             faster than {:.0} cases/s",
            used.as_secs_f64(),
            summary.cases_cpu.as_secs_f64(),
            summary.cores,
            ceiling
        )));
    }
}

/// The summary in the `--summary-json` shape.
pub fn to_json(summary: &Summary) -> Value {
    json!({
        "family": summary.family.name(),
        "seed": summary.seed,
        "cases": summary.cases,
        "repeated": summary.repeated,
        "cases_cpu_s": summary.cases_cpu.as_secs_f64(),
        "cases_per_s": summary.cases_per_second(),
        "elapsed_s": summary.elapsed.as_secs_f64(),
        "minimize_s": summary.shrink_elapsed.as_secs_f64(),
        "end_to_end_cases_per_s": summary.end_to_end_cases_per_second(),
        "implementations": summary.impls.iter().map(|s| json!({
            "name": s.name, "version": s.version, "independent_group": s.group,
            "answered": s.answered, "agreed": s.agreed, "findings": s.findings,
            "busy_s": s.busy.as_secs_f64(),
            "cpu_s": s.cpu.map(|c| c.as_secs_f64()),
            "pace": s.pace,
        })).collect::<Vec<_>>(),
        "paced": summary.unpaced.is_none(),
        "unpaced_because": summary.unpaced,
        "dropped": summary.dropped,
        "missing": summary.missing.iter().map(|(n, why)| json!({"name": n, "reason": why})).collect::<Vec<_>>(),
        "quorum": {
            "needed": summary.quorum.needed,
            "present": summary.quorum.present,
            "absent": summary.quorum.absent(),
            "narrowed": summary.quorum.narrowed,
            "allow_missing": summary.quorum.allow_missing,
        },
        "status": match summary.status() {
            crate::campaign::Status::Clean => "clean",
            crate::campaign::Status::CoreDiverges => "core_diverges",
            crate::campaign::Status::Unjudged => UNJUDGED,
            crate::campaign::Status::Interrupted => "interrupted",
        },
        "verdicts": summary.verdicts,
        "planted": summary.plant.map(|m| m.name),
        "voters": summary.voters,
        "categories": summary.categories,
        "bugs": summary.bugs().iter().map(crate::bugs::Bug::to_json).collect::<Vec<_>>(),
        "findings": summary.findings.iter().map(|f| json!({
            "signature": f.signature,
            "diverging": f.evaluation.diverging,
            "verdict": f.evaluation.verdict.name(),
            "policy": match f.evaluation.verdict { Verdict::Policy(p) | Verdict::Unjudged(p) => Some(p.id), _ => None },
            "category": f.category.name,
            "cases": f.count,
            "first_case": f.case,
            "first_met_s": f.first_met.0.as_secs_f64(),
            "first_met_cases": f.first_met.1,
            "input_hex": crate::vector::to_hex(&f.minimized),
            "minimized": f.is_minimized,
            "new": f.new,
            "vector": f.vector,
            "outcomes": summary.impls.iter().zip(&f.outcomes).map(|(s, o)| (s.name.clone(), o.to_json())).collect::<serde_json::Map<_, _>>(),
        })).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_implementation_that_did_not_run_takes_one_line_unless_asked_for_more() {
        let why = "cargo build --release failed: error: failed to get `ring`\n\nCaused by:\n  \
                   network unreachable\nstack backtrace:\n   0: std::backtrace";
        let short = not_run("josekit", "did not run", why, false);
        assert_eq!(
            short,
            "WARNING: josekit did not run: cargo build --release failed: error: failed to get\n  `ring`\n"
        );
        let whole = not_run("josekit", "did not run", why, true);
        assert!(whole.contains("  |   network unreachable\n"), "{whole}");
        assert!(whole.contains("  |    0: std::backtrace\n"), "{whole}");
        assert!(short.lines().all(|l| l.chars().count() <= WIDTH), "{short}");
        let forged = not_run("x\nWARNING: forged", "did not run", "a\u{1b}[31m", false);
        assert_eq!(forged.lines().count(), 1, "{forged}");
        assert!(!forged.contains('\u{1b}'), "{forged}");
    }
}
