//! BM25 exactly as §15.1 (skill_search; mcp_tool_search uses the same): lower-cased tokens of
//! Unicode letters and digits, tokens of one byte dropped; k1 = 1.2, b = 0.75,
//! idf = ln((N − df + 0.5)/(df + 0.5) + 1); every query token counts, repeats included; only
//! positive scores; a stable sort by score, ties in document order; at most `max` (≤ 0 → 5).

const K1: f64 = 1.2;
const B: f64 = 0.75;

/// The tokens of `text`.
pub fn tokenize(text: &str) -> Vec<String> {
    let spaced: String = text
        .to_lowercase()
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { ' ' })
        .collect();
    spaced
        .split_whitespace()
        .filter(|t| t.len() > 1)
        .map(str::to_string)
        .collect()
}

/// `(document index, score)` of the best documents for `query`.
pub fn rank(docs: &[String], query: &str, max: i64) -> Vec<(usize, f64)> {
    let max = if max <= 0 { 5 } else { max as usize };
    let tokenized: Vec<Vec<String>> = docs.iter().map(|d| tokenize(d)).collect();
    let n = tokenized.len() as f64;
    if tokenized.is_empty() {
        return Vec::new();
    }
    let avg = tokenized.iter().map(Vec::len).sum::<usize>() as f64 / n;
    let query = tokenize(query);
    let mut scored: Vec<(usize, f64)> = Vec::new();
    for (i, doc) in tokenized.iter().enumerate() {
        let dl = doc.len() as f64;
        let mut score = 0.0;
        for q in &query {
            let tf = doc.iter().filter(|t| *t == q).count() as f64;
            if tf == 0.0 {
                continue;
            }
            let df = tokenized.iter().filter(|d| d.contains(q)).count() as f64;
            let idf = ((n - df + 0.5) / (df + 0.5) + 1.0).ln();
            let norm = if avg > 0.0 { dl / avg } else { 0.0 };
            score += idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * norm));
        }
        if score > 0.0 {
            scored.push((i, score));
        }
    }
    // Stable: equal scores keep document order.
    scored.sort_by(|a, b| b.1.partial_cmp(&a.1).unwrap_or(std::cmp::Ordering::Equal));
    scored.truncate(max);
    scored
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_follow_the_reference() {
        assert_eq!(
            tokenize("PDF-Export: a x é 2 42 über_alles"),
            vec!["pdf", "export", "é", "42", "über", "alles"]
        );
    }

    /// Scores computed by hand from the formula.
    #[test]
    fn scores_match_hand_computed_values() {
        let docs = vec![
            "pdf export tool".to_string(),     // 3 tokens
            "image resize".to_string(),        // 2 tokens
            "pdf merge pdf split".to_string(), // 4 tokens
        ];
        // N = 3, avgDL = 3. "pdf": df = 2, idf = ln((3-2+0.5)/(2+0.5)+1) = ln(1.6).
        let idf_pdf = (1.6f64).ln();
        // doc 0: tf 1, dl 3: 1·2.2/(1+1.2·(0.25+0.75·1)) = 2.2/2.2 = 1.
        let d0 = idf_pdf * 1.0;
        // doc 2: tf 2, dl 4: 2·2.2/(2+1.2·(0.25+0.75·4/3)) = 4.4/3.5.
        let d2 = idf_pdf * 4.4 / 3.5;
        let r = rank(&docs, "pdf", 5);
        assert_eq!(r.iter().map(|x| x.0).collect::<Vec<_>>(), vec![2, 0]);
        assert!((r[0].1 - d2).abs() < 1e-12, "{} vs {d2}", r[0].1);
        assert!((r[1].1 - d0).abs() < 1e-12);
        // "resize": df 1, idf = ln(2.5/1.5+1) = ln(8/3); doc 1: tf 1, dl 2:
        // 2.2/(1+1.2·(0.25+0.5)) = 2.2/1.9. A repeated query token counts twice.
        let r = rank(&docs, "resize resize", 5);
        let expect = 2.0 * (8.0f64 / 3.0).ln() * 2.2 / 1.9;
        assert_eq!(r.len(), 1);
        assert!((r[0].1 - expect).abs() < 1e-12);
        assert!(rank(&docs, "nothing", 5).is_empty());
        assert_eq!(rank(&docs, "pdf", 1).len(), 1);
        assert_eq!(rank(&docs, "pdf", 0).len(), 2, "≤ 0 means 5");
    }

    #[test]
    fn ties_keep_document_order() {
        let docs = vec!["alpha beta".to_string(), "alpha beta".to_string()];
        let r = rank(&docs, "alpha", 5);
        assert_eq!(r.iter().map(|x| x.0).collect::<Vec<_>>(), vec![0, 1]);
    }
}
