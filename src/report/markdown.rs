//! Names from the fleet in GitHub Markdown, one helper for each place they are printed: in a
//! code span, in a table cell, in HTML, in running text, and a fenced block. A pull request
//! names the fleet's directories, files, kinds and objects; printed raw, a backtick, a blank
//! line or `<!--` would end a code span, forge a heading or hide the rest of the comment.
//! Every helper first makes control characters visible ([`printable`]), so that no name holds
//! a line break.

use fedrender_engine::diagnostics::{printable, printable_lines};

/// `text` as inline code: fenced by one more backtick than its longest run of backticks, so
/// that nothing in it closes the span; padded with a space where it starts or ends with a
/// backtick or a space, which Markdown strips again.
pub fn code(text: &str) -> String {
    let text = printable(text);
    if text.is_empty() {
        return "` `".to_string();
    }
    let fence = "`".repeat(longest_run(&text, '`') + 1);
    let all_spaces = text.bytes().all(|byte| byte == b' ');
    let pad = !all_spaces && (text.starts_with(['`', ' ']) || text.ends_with(['`', ' ']));
    let pad = if pad { " " } else { "" };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// `text` in a table cell: as it is when it is [plain](is_plain), else as [`code`] with every
/// `|` written `\|`, which the table reads as part of the cell (inside code too).
pub fn cell(text: &str) -> String {
    if is_plain(text) {
        text.to_string()
    } else {
        code(text).replace('|', "\\|")
    }
}

/// `text` in running Markdown text: as it is when it is [plain](is_plain), else as [`code`],
/// where nothing is markup, a link or a mention.
pub fn text(text: &str) -> String {
    if is_plain(text) {
        text.to_string()
    } else {
        code(text)
    }
}

/// `text` as the content of an HTML element (`<summary>`, `<code>`) or an attribute value:
/// `&`, `<`, `>`, `"` and `'` as entities, and the characters Markdown would read as markup on
/// a line outside an HTML block (a list item holding `<code>` is one) as numeric references,
/// which both read as the character itself and never as markup.
pub fn html(text: &str) -> String {
    let text = printable(text);
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            // GitHub reads the character a reference stands for before it looks for mentions
            // and issue references: a zero-width space after `@` and `#` keeps `@team` and `#8`
            // (and `owner/repo#8`) from becoming live.
            '#' | '@' => escaped.push_str(&format!("&#{};&#8203;", c as u32)),
            '`' | '*' | '_' | '[' | ']' | '\\' | '~' | '|' | '$' | '!' | ':' => {
                escaped.push_str(&format!("&#{};", c as u32))
            }
            '-' if ends_with_gh(&escaped) => escaped.push_str("&#8203;-"),
            c => escaped.push(c),
        }
    }
    escaped
}

/// Whether `text` ends in `GH` (any case) not preceded by a letter or digit: GitHub reads
/// `GH-8` as a reference to issue 8.
fn ends_with_gh(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    lower.ends_with("gh")
        && !lower[..lower.len() - 2]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric())
}

/// Whether GitHub would read part of `text` as a `GH-8` issue reference.
fn holds_gh_reference(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    lower.match_indices("gh-").any(|(at, _)| {
        let before = lower[..at].chars().next_back();
        let after = lower[at + 3..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric()) && after.is_some_and(|c| c.is_ascii_digit())
    })
}

/// `content` as a fenced code block with the info string `info`: the fence is one backtick
/// longer than any run of backticks in `content` (three at least), so no line of it closes
/// the block; control characters are made visible line by line.
pub fn fenced(content: &str, info: &str) -> String {
    let content = printable_lines(content);
    let fence = "`".repeat((longest_run(&content, '`') + 1).max(3));
    let newline = if content.is_empty() || content.ends_with('\n') {
        ""
    } else {
        "\n"
    };
    format!("{fence}{info}\n{content}{newline}{fence}\n")
}

/// Whether `text` reads as itself in running Markdown text and in a table cell: letters,
/// digits, spaces and `. - / : , ( ) =`, and no web address GitHub would make a link of.
/// Kinds, cluster names and policy names are; anything else goes into a code span.
pub fn is_plain(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    !text.is_empty()
        && text.chars().all(|c| {
            c.is_alphanumeric() || matches!(c, ' ' | '.' | '-' | '/' | ':' | ',' | '(' | ')' | '=')
        })
        && !lower.contains("www.")
        && !lower.contains("://")
        && !holds_gh_reference(text)
}

fn longest_run(text: &str, of: char) -> usize {
    text.split(|c| c != of)
        .map(|run| run.len())
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_span_is_fenced_longer_than_any_backtick_run_inside() {
        assert_eq!(code("fleet/web.yaml"), "`fleet/web.yaml`");
        assert_eq!(code("a`b``c"), "```a`b``c```");
        // Spaces pad a span that starts or ends with a backtick or a space.
        assert_eq!(code("`x"), "`` `x ``");
        assert_eq!(code(" x "), "`  x  `");
        assert_eq!(code("  "), "`  `");
        assert_eq!(code(""), "` `");
    }

    #[test]
    fn a_code_span_holds_no_line_break_to_end_a_paragraph() {
        let forged = "dir`\n\n### No changes to the rendered fleet.\n<!--";
        let span = code(forged);
        assert_eq!(
            span,
            "``dir`\\n\\n### No changes to the rendered fleet.\\n<!--``"
        );
        assert!(!span.contains('\n'));
        assert_eq!(code("a\rb\u{1b}[31m"), "`a\\rb\\u{1b}[31m`");
    }

    #[test]
    fn a_table_cell_escapes_pipes_even_in_code() {
        assert_eq!(cell("Deployment.apps"), "Deployment.apps");
        assert_eq!(cell("A|B"), "`A\\|B`");
        assert_eq!(cell("x\\|y"), "`x\\\\|y`");
        assert_eq!(cell("<b>\nx"), "`<b>\\nx`");
        assert_eq!(cell(""), "` `");
    }

    /// A fork's text holds no live reference: `#8`, `owner/repo#8` and `GH-8` read as text in
    /// running text (a code span) and in HTML (a zero-width space after `@`, `#` and `GH`).
    #[test]
    fn issue_references_and_mentions_stay_text() {
        for reference in ["#8", "owner/repo#8", "GH-8", "gh-12 here"] {
            assert!(!is_plain(reference), "{reference}");
        }
        assert!(
            is_plain("ghost-1"),
            "a word ending in gh is not a reference"
        );
        assert_eq!(html("GH-8"), "GH&#8203;-8");
        assert_eq!(html("high-8"), "high-8");
        assert_eq!(html("org/repo#8"), "org/repo&#35;&#8203;8");
    }

    #[test]
    fn running_text_is_plain_or_code() {
        assert_eq!(
            text("fedrender: what this pull request changes"),
            "fedrender: what this pull request changes"
        );
        assert_eq!(
            text("ClusterPropagationPolicy everything"),
            "ClusterPropagationPolicy everything"
        );
        for marked_up in [
            "**bold**",
            "_x_",
            "[a](b)",
            "<!--",
            "@team",
            "#12",
            "$x$",
            "www.example.com",
            "https://example.com",
            "a\nb",
        ] {
            let shown = text(marked_up);
            assert!(shown.starts_with('`') && shown.ends_with('`'), "{shown}");
        }
    }

    #[test]
    fn html_escapes_tags_quotes_and_markdown_punctuation() {
        assert_eq!(
            html("</summary><!-- `x` *y* [z](u) | a&b \"q\" 'r' @s #1"),
            "&lt;/summary&gt;&lt;&#33;-- &#96;x&#96; &#42;y&#42; &#91;z&#93;(u) &#124; a&amp;b &quot;q&quot; &#39;r&#39; &#64;&#8203;s &#35;&#8203;1"
        );
        assert_eq!(
            html("Deployment.apps shop/web-1"),
            "Deployment.apps shop/web-1"
        );
        // A line break is shown, its backslash a reference too.
        assert_eq!(html("a\n\nb"), "a&#92;n&#92;nb");
    }

    #[test]
    fn a_fence_is_longer_than_any_backtick_run_in_the_block() {
        assert_eq!(
            fenced("-a: 1\n+a: 2\n", "diff"),
            "```diff\n-a: 1\n+a: 2\n```\n"
        );
        assert_eq!(
            fenced("x: ```\n````\n", "diff"),
            "`````diff\nx: ```\n````\n`````\n"
        );
        assert_eq!(fenced("no newline", ""), "```\nno newline\n```\n");
        assert_eq!(
            fenced("a\u{1b}[2J\n", "diff"),
            "```diff\na\\u{1b}[2J\n```\n"
        );
    }
}
