//! Human tables for a terminal: a header row, columns sized to their content, no borders (the
//! look of `cargo` and `kubectl`); a long last column wraps to the terminal's width. Every cell
//! is made printable first: a label or subject a model chose cannot move the cursor.

use std::io::Write;

use comfy_table::{ContentArrangement, Table, presets};
use serde::Serialize;

use super::Context;
use crate::error::Result;
use crate::store::page::Page;

/// Prints a list: `{"items":[…],"next_cursor":…}` as JSON; for people a table of `row`s under
/// `headers`, and on stderr where the next page starts (or that the list is empty).
pub fn page<T: Serialize, const N: usize>(
    ctx: &Context,
    page: &Page<T>,
    headers: &[&str; N],
    row: impl Fn(&T) -> [String; N],
) -> Result<()> {
    ctx.out.data(page, |w| {
        let rows: Vec<[String; N]> = page.items.iter().map(&row).collect();
        if rows.is_empty() {
            return Ok(());
        }
        write(w, headers, &rows)
    })?;
    if !ctx.out.is_json() {
        match &page.next_cursor {
            Some(cursor) => ctx.out.note(&format!("more: --cursor {cursor}")),
            None if page.items.is_empty() => ctx.out.note("(nothing to list)"),
            None => {}
        }
    }
    Ok(())
}

/// Writes `rows` under `headers`.
pub fn write<const N: usize>(
    w: &mut dyn Write,
    headers: &[&str; N],
    rows: &[[String; N]],
) -> std::io::Result<()> {
    let mut table = Table::new();
    table
        .load_preset(presets::NOTHING)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_header(headers.iter().copied());
    for row in rows {
        // A cell is one line: a newline in a subject cannot forge a row.
        table.add_row(
            row.iter()
                .map(|cell| crate::text::printable::printable(cell).replace(['\n', '\t'], " ")),
        );
    }
    // comfy-table pads every cell with one space each side; the first column needs none.
    for line in table.lines() {
        writeln!(w, "{}", line.strip_prefix(' ').unwrap_or(&line).trim_end())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    #[test]
    fn columns_fit_their_content() {
        let mut out = Vec::new();
        super::write(
            &mut out,
            &["AREA", "STATUS"],
            &[
                ["store".into(), "ok".into()],
                ["sandbox".into(), "warn".into()],
            ],
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert!(lines[0].starts_with("AREA"), "{text}");
        let col = lines[0].find("STATUS").unwrap();
        assert_eq!(lines[1].find("ok"), Some(col), "{text}");
        assert_eq!(lines[2].find("warn"), Some(col), "{text}");
    }

    /// A hostile cell (a task subject, a label) can neither forge a row nor hide or reorder
    /// text: newlines and tabs become spaces, escapes and invisible characters U+FFFD.
    #[test]
    fn a_cell_is_one_visible_line() {
        let mut out = Vec::new();
        super::write(
            &mut out,
            &["TASK", "SUBJECT"],
            &[[
                "T-1".into(),
                "legit\nT-777  completed\t\u{1b}[2Jx\u{202E}evil\u{200B}".into(),
            ]],
        )
        .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count(), 2, "{text}");
        for bad in ['\u{1b}', '\u{202E}', '\u{200B}', '\t'] {
            assert!(!text.contains(bad), "{text:?}");
        }
        assert!(text.contains("legit T-777  completed"), "{text}");
    }
}
