//! HTML → Markdown (or plain text) for `web_fetch`: htmd does the conversion; before it, the
//! parsed page loses what a reader never sees (§10.5): the always-skipped tags (scripts, styles,
//! navigation, forms…), and elements hidden by the `hidden` attribute, `aria-hidden`, the usual
//! "hidden" classes or an inline style that hides them. Text mode also drops headers and asides
//! and then strips the Markdown.

use std::rc::Rc;
use std::sync::LazyLock;

use htmd::HtmlToMarkdown;
use markup5ever_rcdom::{Node, NodeData};
use regex::Regex;

/// Tags dropped with everything inside them.
const SKIPPED: &[&str] = &[
    "head", "script", "style", "noscript", "svg", "template", "iframe", "select", "option",
    "button", "input", "form", "nav", "footer", "picture", "source",
];
/// Also dropped in text mode.
const SKIPPED_IN_TEXT: &[&str] = &["header", "aside"];

/// Class names that hide an element (compared case-insensitively).
const HIDDEN_CLASSES: &[&str] = &[
    "hidden",
    "invisible",
    "collapse",
    "sr-only",
    "d-none",
    "visually-hidden",
    "is-hidden",
    "is-invisible",
    "is-sr-only",
    "hide",
    "show-for-sr",
    "uk-hidden",
    "uk-invisible",
    "d-hide",
    "d-invisible",
    "text-hide",
    "text-assistive",
    "clip",
    "dn",
    "vis-hidden",
    "screen-reader-text",
    "cdk-visually-hidden",
    "offscreen",
    "clip-hide",
];

static OFFSCREEN: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"-[5-9]\d{3,}|-\d{5,}").ok());
static NO_SIZE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r#"(?i)font-size\s*:\s*0(?:\s*[;"]|$)|(?i)opacity\s*:\s*0(?:\s*[;"]|$)"#).ok()
});

/// Whether an element with these attributes is hidden from readers.
fn hidden(attrs: &[(&str, &str)]) -> bool {
    attrs.iter().any(|&(name, value)| match name {
        "hidden" => true,
        "aria-hidden" => value.trim().eq_ignore_ascii_case("true"),
        "class" => value
            .split_ascii_whitespace()
            .any(|c| HIDDEN_CLASSES.iter().any(|h| h.eq_ignore_ascii_case(c))),
        "style" => {
            let s = value.to_ascii_lowercase();
            (s.contains("display") && s.contains("none"))
                || (s.contains("visibility") && s.contains("hidden"))
                || OFFSCREEN.as_ref().is_some_and(|r| r.is_match(&s))
                || NO_SIZE.as_ref().is_some_and(|r| r.is_match(&s))
        }
        _ => false,
    })
}

/// Removes skipped and hidden elements below `node`.
fn prune(node: &Rc<Node>, text_mode: bool) {
    node.children
        .borrow_mut()
        .retain(|child| match &child.data {
            NodeData::Element { name, attrs, .. } => {
                let tag = name.local.as_ref();
                let skip = SKIPPED.contains(&tag)
                    || (text_mode && SKIPPED_IN_TEXT.contains(&tag))
                    || hidden(
                        &attrs
                            .borrow()
                            .iter()
                            .map(|a| (&*a.name.local, &*a.value))
                            .collect::<Vec<_>>(),
                    );
                !skip
            }
            NodeData::Comment { .. } | NodeData::ProcessingInstruction { .. } => false,
            _ => true,
        });
    for child in node.children.borrow().iter() {
        prune(child, text_mode);
    }
}

static BLANK_LINES: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r"\n{3,}").ok());

/// Page chrome that converts to nothing readable: bullets with no text (icon buttons were
/// dropped from them) and links with no text (icons).
static EMPTY_BITS: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"(?m)^[ \t]*[*-][ \t]*$|\[\]\([^)]*\)[ \t]*").ok());

/// Drops empty bullets and links, collapses three or more newlines to two, and trims.
fn tidy(text: &str) -> String {
    let mut text = text.to_string();
    if let Some(re) = EMPTY_BITS.as_ref() {
        text = re.replace_all(&text, "").into_owned();
    }
    if let Some(re) = BLANK_LINES.as_ref() {
        text = re.replace_all(&text, "\n\n").into_owned();
    }
    text.trim().to_string()
}

/// The page as Markdown, or as plain text in `text_mode`.
pub fn convert(html: &str, text_mode: bool) -> String {
    let converter = HtmlToMarkdown::new();
    let markdown = match converter.html_to_tree(html) {
        Ok(tree) => {
            prune(&tree, text_mode);
            converter.tree_to_markdown(&tree)
        }
        Err(_) => strip_tags(html),
    };
    if text_mode {
        markdown_to_text(&markdown)
    } else {
        tidy(&markdown)
    }
}

/// The last resort when a page cannot be parsed: tags removed.
fn strip_tags(html: &str) -> String {
    static TAG: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new(r"<[^>]+>").ok());
    match TAG.as_ref() {
        Some(r) => r.replace_all(html, "").trim().to_string(),
        None => html.to_string(),
    }
}

/// Markdown reduced to its text (§10.5 markdownToText): headings' `#`, emphasis and code marks
/// go, links and images keep their text (images first, so `![a](u)` becomes `a`, not the
/// original's `!a`); trailing spaces go and blank runs collapse.
pub fn markdown_to_text(markdown: &str) -> String {
    static RULES: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
        [
            (r"(?m)^#{1,6}\s+", ""),
            (r"\*\*|__", ""),
            (r"`([^`\n]*)`", "$1"),
            (r"(?m)^```[^\n]*\n?", ""),
            (r"!\[([^\]]*)\]\([^)]*\)", "$1"),
            (r"\[([^\]]*)\]\([^)]*\)", "$1"),
            (r"(?m)[ \t]+$", ""),
        ]
        .into_iter()
        .filter_map(|(p, r)| Regex::new(p).ok().map(|re| (re, r)))
        .collect()
    });
    let mut text = markdown.to_string();
    for (re, with) in RULES.iter() {
        text = re.replace_all(&text, *with).into_owned();
    }
    tidy(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_and_skipped_elements_are_dropped() {
        let page = r#"<html><head><title>T</title><style>p{}</style></head><body>
            <nav>menu</nav><h1>Title</h1>
            <p>Visible <b>text</b> with <a href="https://example.com/x">a link</a>.</p>
            <p hidden>hidden attr</p><p aria-hidden="true">aria</p>
            <div class="Foo SR-ONLY">sr only</div>
            <span style="display: none">display none</span>
            <span style="position:absolute;left:-9999px">offscreen</span>
            <span style="font-size:0">tiny</span><span style="opacity: 0;">clear</span>
            <script>alert('x')</script><form><input value="v"><button>Go</button></form>
            <!-- a comment --><footer>foot</footer></body></html>"#;
        let md = convert(page, false);
        assert_eq!(
            md,
            "# Title\n\nVisible **text** with [a link](https://example.com/x)."
        );
        let text = convert(page, true);
        assert_eq!(text, "Title\n\nVisible text with a link.");
    }

    #[test]
    fn code_blocks_and_tables_survive() {
        let page = "<body><pre><code class=\"language-rust\">fn main() {\n    let x = 1;\n}</code></pre>\
            <table><tr><th>Length</th><th>Signed</th></tr><tr><td>8-bit</td><td>i8</td></tr></table></body>";
        let md = convert(page, false);
        assert!(
            md.contains("```rust\nfn main() {\n    let x = 1;\n}\n```"),
            "{md}"
        );
        assert!(md.contains("| Length | Signed |"), "{md}");
        assert!(md.contains("| 8-bit  | i8     |"), "{md}");
    }

    #[test]
    fn markdown_to_text_keeps_link_and_image_text() {
        assert_eq!(
            markdown_to_text(
                "## Head\n\nSee [docs](http://x) and ![logo](l.png), `code`.\n\n\n\nEnd  "
            ),
            "Head\n\nSee docs and logo, code.\n\nEnd"
        );
    }
}
