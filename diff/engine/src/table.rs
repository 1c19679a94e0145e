//! The tables of a report over the corpus: one implementation per column, cells coloured by
//! the most severe bug their failures show, rendered alike as Markdown and as HTML. Every
//! family's corpus table is one of these ([`crate::family::Spec::corpus_table`]).

use std::fmt::Write as _;

use canonfuzz_props::impls::Implementation;

use crate::difference::Severity;
use crate::escape::{html, markdown, terminal};

/// Passed and run counts for one implementation in one category.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Score {
    /// Vectors whose expected result the implementation gave.
    pub passed: u64,
    /// Vectors the implementation could be asked (unsupported ones left out).
    pub run: u64,
}

/// A family's table over the corpus ([`crate::family::Spec::corpus_table`]), and the same
/// for `--summary-json`.
#[derive(Debug, Clone)]
pub struct FamilyTable {
    /// The table, as both output formats render it.
    pub table: Table,
    /// Its rows as JSON.
    pub json: serde_json::Value,
    /// The implementations it ran, for the provenance header (filled by
    /// [`crate::harness::family_table`]).
    pub implementations: Vec<Column>,
}

/// One implementation's column: who it is and how it is driven.
#[derive(Debug, Clone, Default)]
pub struct Column {
    /// Its name.
    pub name: String,
    /// Its version, with its runtime.
    pub version: String,
    /// Its independence group.
    pub group: String,
    /// What reads the input and what canonicalizes it.
    pub driven: String,
    /// What it computes with underneath (its crypto library), when known.
    pub uses: String,
}

impl Column {
    /// The column of `implementation`, driven as `driven` says.
    pub fn of(implementation: &dyn Implementation, driven: String) -> Column {
        Column {
            name: implementation.name().to_string(),
            version: implementation.version(),
            group: implementation.group().to_string(),
            driven,
            uses: implementation.uses().unwrap_or_default(),
        }
    }
}

/// A score's cell: passed of run, and for a cell short of all, the most severe bug its
/// failures show (`worst`, the most severe when unknown), which colours it: one wrong byte
/// costs a signature more than any number of refusals at a stated limit, so a cell is
/// coloured by what its failures cost, not by how many passed.
pub fn cell(score: Option<&Score>, worst: Option<Severity>) -> Cell {
    match score {
        Some(s) if s.run > 0 => {
            // Truncated, so that a cell short of all reads below 100%.
            let tenths = s.passed * 1000 / s.run;
            let text = format!("{}/{} ({}.{}%)", s.passed, s.run, tenths / 10, tenths % 10);
            if s.passed == s.run {
                return Cell::new(text, "pass");
            }
            let (class, word) = severity_class(worst);
            Cell::new(format!("{text} {word}"), class)
        }
        _ => Cell::new("n/a", "none"),
    }
}

/// The colour class and the word of a failing cell whose most severe bug is `worst`.
fn severity_class(worst: Option<Severity>) -> (&'static str, &'static str) {
    match worst {
        Some(Severity::Crash) => ("wrong", "crashes"),
        Some(Severity::WrongBytes) | None => ("wrong", "wrong bytes"),
        Some(Severity::AcceptsInvalid) => ("accepts", "accepts invalid"),
        Some(Severity::RefusesValid) => ("refuses", "refuses valid"),
        Some(Severity::AtLimit | Severity::OtherProblem) => ("limit", "at a limit"),
    }
}

/// What the cells' colours mean, for the page and the Markdown.
pub const COLOURS: &str = "A cell short of all is coloured and named by the most severe bug its failures show: red, wrong bytes for a valid input or a crash; orange, accepts what must be refused; yellow, refuses what is valid; blue, refuses at a limit the rules allow or names another problem.";

/// One cell of a table: its text, colour class, and optionally a title (a heading's
/// explanation) and the anchor it leads to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cell {
    /// What it shows.
    pub text: String,
    /// `pass`, `wrong`, `accepts`, `refuses`, `limit`, `partial` (an agreement that is no
    /// verdict), `none`, `cat` or empty.
    pub class: &'static str,
    /// What it means, shown on hover and in the Markdown legend.
    pub title: Option<String>,
    /// The anchor of what lies behind it.
    pub link: Option<String>,
}

impl Cell {
    /// A plain cell.
    pub fn new(text: impl Into<String>, class: &'static str) -> Cell {
        Cell {
            text: text.into(),
            class,
            ..Cell::default()
        }
    }

    /// The cell with a title.
    pub fn titled(mut self, title: impl Into<String>) -> Cell {
        self.title = Some(title.into());
        self
    }
}

/// One table of the report: a heading, a sentence on how to read it, column headings, and
/// rows of cells. Both output formats render the same tables.
#[derive(Debug, Clone)]
pub struct Table {
    /// The heading.
    pub title: &'static str,
    /// How to read it.
    pub intro: String,
    /// Column headings.
    pub columns: Vec<Cell>,
    /// Rows of cells.
    pub rows: Vec<Vec<Cell>>,
}

impl Table {
    /// The table as Markdown, under its heading.
    pub fn to_markdown(&self) -> String {
        let mut out = String::new();
        self.markdown(&mut out);
        out
    }

    /// The table for a terminal, at most 80 columns a line: its heading and how to read it,
    /// then each row as its first cell and each other cell after its column's heading, then
    /// the columns' titles. A table as wide as its columns are many is read in a file, as
    /// Markdown.
    pub fn to_text(&self) -> String {
        let mut out = format!("\n{}\n", terminal(self.title));
        out.push_str(&crate::lines::wrap(&terminal(&self.intro)));
        for row in &self.rows {
            let Some((label, cells)) = row.split_first() else {
                continue;
            };
            let pairs: Vec<String> = self
                .columns
                .iter()
                .skip(1)
                .zip(cells)
                .map(|(column, cell)| format!("{} {}", column.text, cell.text))
                .collect();
            let line = format!("{}: {}", label.text, pairs.join(", "));
            out.push_str(&crate::lines::wrap_with("  ", "      ", &terminal(&line)));
        }
        for column in &self.columns {
            if let Some(title) = &column.title {
                let line = format!("{}: {title}", column.text);
                out.push_str(&crate::lines::wrap_with("  ", "      ", &terminal(&line)));
            }
        }
        out
    }

    /// Appends the table as Markdown, under its heading.
    pub fn markdown(&self, out: &mut String) {
        let _ = write!(
            out,
            "\n## {}\n\n{}\n\n|",
            markdown(self.title),
            markdown(&self.intro)
        );
        for column in &self.columns {
            let _ = write!(out, " {} |", markdown(&column.text));
        }
        let _ = write!(out, "\n|{}\n", "---|".repeat(self.columns.len()));
        for row in &self.rows {
            out.push('|');
            for cell in row {
                match &cell.link {
                    Some(link) => {
                        let _ = write!(out, " [{}](#{link}) |", markdown(&cell.text));
                    }
                    None => {
                        let _ = write!(out, " {} |", markdown(&cell.text));
                    }
                }
            }
            out.push('\n');
        }
        let legend: Vec<String> = self
            .columns
            .iter()
            .filter_map(|c| {
                c.title
                    .as_ref()
                    .map(|t| format!("- {}: {}", markdown(&c.text), markdown(t)))
            })
            .collect();
        if !legend.is_empty() {
            let _ = write!(out, "\n{}\n", legend.join("\n"));
        }
    }

    /// Appends the table as an HTML fragment, under its heading.
    pub fn html(&self, out: &mut String) {
        let _ = write!(
            out,
            "<h2>{}</h2>\n<p>{}</p>\n<div class=\"scroll\"><table>\n<tr>",
            html(self.title),
            html(&self.intro)
        );
        for column in &self.columns {
            match &column.title {
                Some(title) => {
                    let _ = write!(
                        out,
                        "<th title=\"{}\">{}</th>",
                        html(title),
                        html(&column.text)
                    );
                }
                None => {
                    let _ = write!(out, "<th>{}</th>", html(&column.text));
                }
            }
        }
        out.push_str("</tr>\n");
        for row in &self.rows {
            out.push_str("<tr>");
            for cell in row {
                let class = if cell.class.is_empty() {
                    String::new()
                } else {
                    format!(" class=\"{}\"", cell.class)
                };
                let title = cell
                    .title
                    .as_ref()
                    .map_or(String::new(), |t| format!(" title=\"{}\"", html(t)));
                match &cell.link {
                    Some(link) => {
                        let _ = write!(
                            out,
                            "<td{class}{title}><a href=\"#{link}\">{}</a></td>",
                            html(&cell.text)
                        );
                    }
                    None => {
                        let _ = write!(out, "<td{class}{title}>{}</td>", html(&cell.text));
                    }
                }
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</table></div>\n");
        let legend: Vec<String> = self
            .columns
            .iter()
            .filter_map(|c| {
                c.title
                    .as_ref()
                    .map(|t| format!("<li><b>{}</b>: {}</li>", html(&c.text), html(t)))
            })
            .collect();
        if !legend.is_empty() {
            let _ = writeln!(out, "<ul class=\"legend\">{}</ul>", legend.join(""));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wide_table_reads_on_a_terminal_as_a_line_per_row_within_80_columns() {
        let columns = std::iter::once(Cell::new("verifier", ""))
            .chain((0..12).map(|k| Cell::new(k.to_string(), "").titled(format!("case {k}"))))
            .collect();
        let rows = ["core", "a-verifier-with-a-long-name"]
            .iter()
            .map(|name| {
                std::iter::once(Cell::new(*name, ""))
                    .chain((0..12).map(|_| Cell::new("✗ rejects", "pass")))
                    .collect()
            })
            .collect();
        let table = Table {
            title: "Verifiers",
            intro: "Each case \u{1b}[2J accepted or rejected.".to_string(),
            columns,
            rows,
        };
        let text = table.to_text();
        assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
        assert!(!text.contains('\u{1b}'), "{text}");
        let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(joined.contains("a-verifier-with-a-long-name: 0 ✗ rejects, 1 ✗ rejects"));
        assert!(joined.ends_with("10: case 10 11: case 11"), "{joined}");
        assert!(table.to_markdown().lines().any(|l| l.chars().count() > 80));
    }
}
