//! Human tables for a terminal: a header row, columns sized to their content, no borders (the
//! look of `cargo` and `kubectl`); a long last column wraps to the terminal's width.

use std::io::Write;

use comfy_table::{ContentArrangement, Table, presets};

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
        table.add_row(row.iter().map(String::as_str));
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
}
