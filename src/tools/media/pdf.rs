//! The text of a PDF, extracted in Rust (`pdf-extract`, over `lopdf`). A malformed PDF can
//! make the extractor panic: the panic is caught and reported as a bad document, never a crash.

/// The text of `bytes`, or why there is none.
pub fn text(bytes: &[u8]) -> Result<String, String> {
    // The extractor's own panics are caught here: keep their default message off stderr
    // while it runs.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let out = std::panic::catch_unwind(|| pdf_extract::extract_text_from_mem(bytes));
    std::panic::set_hook(hook);
    match out {
        Ok(Ok(text)) => Ok(text),
        Ok(Err(e)) => Err(format!("not a readable PDF: {e}")),
        Err(_) => Err("not a readable PDF: the extractor gave up on it".into()),
    }
}

/// Whether extracted text holds anything to read (a scanned PDF gives only white space).
pub fn has_text(text: &str) -> bool {
    text.chars().filter(|c| c.is_alphanumeric()).count() >= 16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garbage_is_a_bad_document_not_a_crash() {
        assert!(text(b"%PDF-1.4\n garbage").is_err());
        assert!(text(b"").is_err());
        assert!(!has_text(" \n\x0c "));
        assert!(has_text("The quarterly report shows growth."));
    }
}
