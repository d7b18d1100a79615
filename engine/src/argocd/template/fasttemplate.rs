//! The default (non-`goTemplate`) replacement: Argo CD's `Render.Replace` hands the string to
//! valyala/fasttemplate with `{{` and `}}` as tags, and replaces each tag whose trimmed inner
//! text is a key of the flat parameter map holding a string. Any other tag (an unknown key, a
//! value that is not a string, an empty tag) is written back as it was, braces and spaces
//! included (argo-cd applicationset/utils/utils.go `Replace`; fasttemplate template.go).

use super::error::TemplateError;
use serde_json::{Map, Value};

const START: &str = "{{";
const END: &str = "}}";

/// `Render.Replace(template, params, false, _)`.
pub fn replace(template: &str, params: &Map<String, Value>) -> Result<String, TemplateError> {
    // Argo CD first asks `.*{{.*}}.*`: `.` stops at a line break, so a string whose `{{` and
    // `}}` are never on one line is returned untouched, even one fasttemplate would refuse.
    if !template.lines().any(has_tag_on_line) {
        return Ok(template.to_string());
    }
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(start) = rest.find(START) {
        out.push_str(&rest[..start]);
        let after = &rest[start + START.len()..];
        let Some(end) = after.find(END) else {
            // fasttemplate `NewTemplate`: a start tag with no end tag after it.
            return Err(TemplateError::new(format!(
                "invalid template: Cannot find end tag={} in the template={} starting from {}",
                super::quote::quote(END),
                super::quote::quote(template),
                super::quote::quote(after)
            )));
        };
        let tag = &after[..end];
        let trimmed = tag.trim_matches(is_go_space);
        match params.get(trimmed) {
            Some(Value::String(replacement)) if !trimmed.is_empty() => out.push_str(replacement),
            _ => {
                out.push_str(START);
                out.push_str(tag);
                out.push_str(END);
            }
        }
        rest = &after[end + END.len()..];
    }
    out.push_str(rest);
    Ok(out)
}

/// Whether one line (as Go's regexp `.` sees lines: split at `\n` only) holds `{{` and, later,
/// `}}`.
fn has_tag_on_line(line: &str) -> bool {
    line.find(START)
        .is_some_and(|start| line[start + START.len()..].contains(END))
}

/// `strings.TrimSpace`: Unicode white space.
fn is_go_space(c: char) -> bool {
    c.is_whitespace()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn params(value: Value) -> Map<String, Value> {
        value.as_object().expect("an object").clone()
    }

    // argo-cd utils_test.go TestRenderTemplateParams: "simple substitution", "simple
    // substitution with whitespace", "template characters but not in a param", "nested
    // template", "field with whitespace", "template contains itself", "template contains itself,
    // containing itself", "unmatched template" and "multiple unmatched templates".
    #[test]
    fn replaces_trimmed_tags_and_leaves_the_rest_as_written() {
        let p =
            params(json!({"one": "two", "path": "path", "path.basename": "bn", "cluster": "c"}));
        let cases = [
            ("{{one}}", "two"),
            ("{{       one       }}", "two"),
            ("}}{{ one}}", "}}two"),
            ("{{ some {{ one }} }}", "{{ some {{ one }} }}"),
            ("{{ cluster }}", "c"),
            ("{{ {{ one }} }}", "{{ {{ one }} }}"),
            ("{{ path.basename }}/{{ path }}", "bn/path"),
            ("{{ unknown }}", "{{ unknown }}"),
            ("{{ a }}{{ b }}", "{{ a }}{{ b }}"),
            ("{{}}", "{{}}"),
            ("{{   }}", "{{   }}"),
            ("no tags at all", "no tags at all"),
        ];
        for (template, expected) in cases {
            assert_eq!(replace(template, &p).unwrap(), expected, "{template}");
        }
    }

    #[test]
    fn only_strings_replace_a_tag() {
        // `replaceMap[trimmedTag].(string)`: a number or a map is not a replacement.
        let p = params(json!({"n": 3, "m": {"a": "b"}, "s": "x"}));
        assert_eq!(replace("{{n}}-{{m}}-{{s}}", &p).unwrap(), "{{n}}-{{m}}-x");
    }

    #[test]
    fn a_start_tag_without_an_end_tag_on_a_templated_line_is_an_error() {
        let p = params(json!({"a": "b"}));
        let error = replace("{{a}} {{b", &p).unwrap_err();
        assert_eq!(
            error.to_string(),
            r#"invalid template: Cannot find end tag="}}" in the template="{{a}} {{b" starting from "b""#
        );
        // A dangling `{{` after a replaced tag (the oracle agrees).
        assert!(replace("}}{{ one}}{{", &p).is_err());
        // With no line holding both tags, the string is not looked at.
        assert_eq!(replace("{{a\n}}", &p).unwrap(), "{{a\n}}");
        assert_eq!(replace("{{ b", &p).unwrap(), "{{ b");
    }

    #[test]
    fn tags_span_lines_once_one_line_is_templated() {
        let p = params(json!({"a": "b"}));
        assert_eq!(replace("{{a}}\n{{\na\n}}", &p).unwrap(), "b\nb");
    }
}
