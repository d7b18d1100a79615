//! text/template's lexer (text/template/parse/lex.go, as the package documentation specifies
//! it): text up to `{{`, then an action's tokens up to `}}`. `{{- ` and ` -}}` trim the white
//! space around the action; `{{/* */}}` is a comment; newlines are allowed inside actions.

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Kind {
    Text,
    LeftDelim,
    RightDelim,
    Space,
    Field,
    Dot,
    Variable,
    Identifier,
    Keyword,
    Bool,
    Nil,
    Number,
    Char,
    CharConstant,
    String,
    RawString,
    Pipe,
    Assign,
    Declare,
    LeftParen,
    RightParen,
    Comment,
    Eof,
    Error,
}

#[derive(Debug, Clone)]
pub(super) struct Token {
    pub kind: Kind,
    pub pos: usize,
    pub text: String,
    pub line: usize,
}

impl Token {
    /// How the parser names a token in a message (lex.go `item.String`).
    pub fn describe(&self) -> String {
        match self.kind {
            Kind::Eof => "EOF".to_string(),
            Kind::Error => self.text.clone(),
            Kind::Keyword => format!("<{}>", self.text),
            _ if self.text.chars().count() > 10 => {
                let head: String = self.text.chars().take(10).collect();
                format!("{}...", super::super::quote::quote(&head))
            }
            _ => super::super::quote::quote(&self.text),
        }
    }
}

const KEYWORDS: [&str; 9] = [
    "block", "break", "continue", "define", "else", "end", "if", "range", "template",
];
const KEYWORDS_TOO: [&str; 1] = ["with"];

/// The whole template as tokens, ending with `Eof` or at the first `Error`.
pub(super) fn lex(input: &str) -> Vec<Token> {
    let mut lexer = Lexer {
        input,
        start: 0,
        pos: 0,
        line: 1,
        start_line: 1,
        tokens: Vec::new(),
        paren_depth: 0,
    };
    lexer.run();
    lexer.tokens
}

struct Lexer<'a> {
    input: &'a str,
    start: usize,
    pos: usize,
    line: usize,
    start_line: usize,
    tokens: Vec<Token>,
    paren_depth: usize,
}

fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n')
}

fn is_alphanumeric(c: char) -> bool {
    c == '_' || c.is_alphabetic() || c.is_numeric()
}

impl Lexer<'_> {
    fn peek(&self) -> Option<char> {
        self.input[self.pos..].chars().next()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn backup(&mut self, c: char) {
        self.pos -= c.len_utf8();
        if c == '\n' {
            self.line -= 1;
        }
    }

    fn emit(&mut self, kind: Kind) {
        let text = self.input[self.start..self.pos].to_string();
        self.tokens.push(Token {
            kind,
            pos: self.start,
            text,
            line: self.start_line,
        });
        self.ignore();
    }

    fn ignore(&mut self) {
        self.start = self.pos;
        self.start_line = self.line;
    }

    fn error(&mut self, message: String) -> bool {
        self.tokens.push(Token {
            kind: Kind::Error,
            pos: self.start,
            text: message,
            line: self.start_line,
        });
        false
    }

    fn rest(&self) -> &str {
        &self.input[self.pos..]
    }

    fn run(&mut self) {
        while self.lex_text() {
            if self.tokens.last().is_some_and(|t| t.kind == Kind::Comment) {
                continue;
            }
            if !self.lex_action() {
                break;
            }
        }
    }

    /// Text up to the next `{{`; false at the end of the input.
    fn lex_text(&mut self) -> bool {
        match self.rest().find("{{") {
            Some(offset) => {
                let delim = self.pos + offset;
                let trim = self.input[delim + 2..].starts_with('-')
                    && self.input[delim + 3..].starts_with(is_space);
                let mut text_end = delim;
                if trim {
                    text_end = self.input[..delim]
                        .trim_end_matches(is_space)
                        .len()
                        .max(self.start);
                }
                self.advance_to(text_end);
                if self.pos > self.start {
                    self.emit(Kind::Text);
                }
                self.advance_to(delim);
                self.ignore();
                // The delimiter, and the trim marker with its space.
                self.advance_to(delim + if trim { 4 } else { 2 });
                if self.rest().starts_with("/*") {
                    return self.lex_comment(trim);
                }
                self.emit_at(Kind::LeftDelim, delim, 2);
                self.paren_depth = 0;
                true
            }
            None => {
                self.advance_to(self.input.len());
                if self.pos > self.start {
                    self.emit(Kind::Text);
                }
                self.emit(Kind::Eof);
                false
            }
        }
    }

    fn emit_at(&mut self, kind: Kind, pos: usize, len: usize) {
        self.tokens.push(Token {
            kind,
            pos,
            text: self.input[pos..pos + len].to_string(),
            line: self.start_line,
        });
        self.ignore();
    }

    fn advance_to(&mut self, pos: usize) {
        while self.pos < pos {
            self.next();
        }
    }

    fn lex_comment(&mut self, _left_trim: bool) -> bool {
        let Some(end) = self.rest().find("*/") else {
            return self.error("unclosed comment".to_string());
        };
        self.advance_to(self.pos + end + 2);
        let (close, trim) = self.at_right_delim();
        if !close {
            return self.error("comment ends before closing delimiter".to_string());
        }
        self.emit(Kind::Comment);
        self.finish_right_delim(trim);
        true
    }

    /// Whether the input continues with `}}` or ` -}}`, and which.
    fn at_right_delim(&self) -> (bool, bool) {
        let rest = self.rest();
        if rest.starts_with(is_space) && rest[1..].starts_with("-}}") {
            return (true, true);
        }
        (rest.starts_with("}}"), false)
    }

    fn finish_right_delim(&mut self, trim: bool) {
        if trim {
            self.advance_to(self.pos + 2);
            self.ignore();
        }
        self.advance_to(self.pos + 2);
        self.ignore();
        if trim {
            let skipped = self.rest().len() - self.rest().trim_start_matches(is_space).len();
            self.advance_to(self.pos + skipped);
            self.ignore();
        }
    }

    /// One action's tokens; false once an error was emitted.
    fn lex_action(&mut self) -> bool {
        loop {
            let (close, trim) = self.at_right_delim();
            if close && self.paren_depth > 0 {
                return self.error("unclosed left paren".to_string());
            }
            if close {
                if trim {
                    // The space before ` -}}` is not a token of its own.
                    self.advance_to(self.pos + 2);
                    self.ignore();
                }
                let at = self.pos;
                self.advance_to(at + 2);
                self.start = at;
                self.emit(Kind::RightDelim);
                if trim {
                    let skipped =
                        self.rest().len() - self.rest().trim_start_matches(is_space).len();
                    self.advance_to(self.pos + skipped);
                    self.ignore();
                }
                return true;
            }
            let Some(c) = self.next() else {
                return self.error("unclosed action".to_string());
            };
            let ok = match c {
                c if is_space(c) => {
                    while self.peek().is_some_and(is_space) {
                        // Stop before a ` -}}`.
                        let rest = self.rest();
                        if rest[1..].starts_with("-}}") {
                            break;
                        }
                        self.next();
                    }
                    self.emit(Kind::Space);
                    true
                }
                '=' => {
                    self.emit(Kind::Assign);
                    true
                }
                ':' => {
                    if self.next() != Some('=') {
                        return self.error("expected :=".to_string());
                    }
                    self.emit(Kind::Declare);
                    true
                }
                '|' => {
                    self.emit(Kind::Pipe);
                    true
                }
                '"' => self.lex_quote(),
                '`' => self.lex_raw_quote(),
                '$' => self.lex_field_or_variable(Kind::Variable),
                '\'' => self.lex_char(),
                '.' => {
                    if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                        self.backup('.');
                        self.lex_number()
                    } else {
                        self.lex_field_or_variable(Kind::Field)
                    }
                }
                '+' | '-' | '0'..='9' => {
                    self.backup(c);
                    self.lex_number()
                }
                c if is_alphanumeric(c) => {
                    self.backup(c);
                    self.lex_identifier()
                }
                '(' => {
                    self.paren_depth += 1;
                    self.emit(Kind::LeftParen);
                    true
                }
                ')' => {
                    if self.paren_depth == 0 {
                        return self.error("unexpected right paren".to_string());
                    }
                    self.paren_depth -= 1;
                    self.emit(Kind::RightParen);
                    true
                }
                c if c.is_ascii() && !c.is_ascii_control() => {
                    self.emit(Kind::Char);
                    true
                }
                c => self.error(format!(
                    "unrecognized character in action: {}",
                    unicode_name(c)
                )),
            };
            if !ok {
                return false;
            }
        }
    }

    fn lex_identifier(&mut self) -> bool {
        while self.peek().is_some_and(is_alphanumeric) {
            self.next();
        }
        if !self.at_terminator() {
            let c = self.peek().unwrap_or('\0');
            return self.error(format!("bad character {}", unicode_name(c)));
        }
        let word = &self.input[self.start..self.pos];
        let kind = if KEYWORDS.contains(&word) || KEYWORDS_TOO.contains(&word) {
            Kind::Keyword
        } else if word == "true" || word == "false" {
            Kind::Bool
        } else if word == "nil" {
            Kind::Nil
        } else if word.starts_with('.') {
            Kind::Field
        } else {
            Kind::Identifier
        };
        self.emit(kind);
        true
    }

    /// `$x` or `.x` (the first character already read); `$` alone is a variable, `.` alone dot.
    fn lex_field_or_variable(&mut self, kind: Kind) -> bool {
        if self.at_terminator() {
            self.emit(if kind == Kind::Variable {
                Kind::Variable
            } else {
                Kind::Dot
            });
            return true;
        }
        while self.peek().is_some_and(is_alphanumeric) {
            self.next();
        }
        if !self.at_terminator() {
            let c = self.peek().unwrap_or('\0');
            return self.error(format!("bad character {}", unicode_name(c)));
        }
        self.emit(kind);
        true
    }

    /// lex.go `atTerminator`: what may follow a word.
    fn at_terminator(&self) -> bool {
        match self.peek() {
            None => true,
            Some(c) if is_space(c) => true,
            Some('.' | ',' | '|' | ':' | ')' | '(') => true,
            Some(_) => self.rest().starts_with("}}"),
        }
    }

    fn lex_char(&mut self) -> bool {
        loop {
            match self.next() {
                Some('\\') => {
                    if self.next().is_none_or(|c| c == '\n') {
                        return self.error("unterminated character constant".to_string());
                    }
                }
                None | Some('\n') => {
                    return self.error("unterminated character constant".to_string());
                }
                Some('\'') => break,
                Some(_) => {}
            }
        }
        self.emit(Kind::CharConstant);
        true
    }

    fn lex_number(&mut self) -> bool {
        if !self.scan_number() {
            let text = self.input[self.start..self.pos].to_string();
            return self.error(format!(
                "bad number syntax: {}",
                super::super::quote::quote(&text)
            ));
        }
        self.emit(Kind::Number);
        true
    }

    /// lex.go `scanNumber`: sign, base prefix, digits with `_`, fraction, exponent, `i`.
    fn scan_number(&mut self) -> bool {
        self.accept("+-");
        let mut digits = "0123456789_";
        if self.accept("0") {
            if self.accept("xX") {
                digits = "0123456789abcdefABCDEF_";
            } else if self.accept("oO") {
                digits = "01234567_";
            } else if self.accept("bB") {
                digits = "01_";
            }
        }
        self.accept_run(digits);
        if self.accept(".") {
            self.accept_run(digits);
        }
        if digits.len() == 11 && self.accept("eE") {
            self.accept("+-");
            self.accept_run("0123456789_");
        }
        if digits.len() == 23 && self.accept("pP") {
            self.accept("+-");
            self.accept_run("0123456789_");
        }
        self.accept("i");
        if self.peek().is_some_and(is_alphanumeric) {
            self.next();
            return false;
        }
        true
    }

    fn accept(&mut self, valid: &str) -> bool {
        match self.peek() {
            Some(c) if valid.contains(c) => {
                self.next();
                true
            }
            _ => false,
        }
    }

    fn accept_run(&mut self, valid: &str) {
        while self.accept(valid) {}
    }

    fn lex_quote(&mut self) -> bool {
        loop {
            match self.next() {
                Some('\\') => {
                    if self.next().is_none_or(|c| c == '\n') {
                        return self.error("unterminated quoted string".to_string());
                    }
                }
                None | Some('\n') => return self.error("unterminated quoted string".to_string()),
                Some('"') => break,
                Some(_) => {}
            }
        }
        self.emit(Kind::String);
        true
    }

    fn lex_raw_quote(&mut self) -> bool {
        match self.rest().find('`') {
            Some(end) => {
                self.advance_to(self.pos + end + 1);
                self.emit(Kind::RawString);
                true
            }
            None => self.error("unterminated raw quoted string".to_string()),
        }
    }
}

/// Go's `%#U`: `U+0023 '#'`.
fn unicode_name(c: char) -> String {
    format!("U+{:04X} '{c}'", c as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(input: &str) -> Vec<(Kind, String)> {
        lex(input).into_iter().map(|t| (t.kind, t.text)).collect()
    }

    // Go text/template/parse lex_test.go: "spaces", "quote", "raw quote", "numbers",
    // "variables", "trimming spaces before and after", "comment".
    #[test]
    fn lexes_actions_as_go_does() {
        use Kind::*;
        let tokens = kinds(r#"a{{ .x.y | printf "%d" 1.5 $v }}b"#);
        let got: Vec<Kind> = tokens.iter().map(|t| t.0.clone()).collect();
        assert_eq!(
            got,
            [
                Text, LeftDelim, Space, Field, Field, Space, Pipe, Space, Identifier, Space,
                String, Space, Number, Space, Variable, Space, RightDelim, Text, Eof
            ]
        );
        assert_eq!(tokens[3].1, ".x");
        assert_eq!(tokens[4].1, ".y");
    }

    #[test]
    fn trim_markers_eat_the_white_space_beside_them() {
        let tokens = kinds("a \n {{- 3 -}} \n b");
        assert_eq!(tokens[0], (Kind::Text, "a".to_string()));
        assert_eq!(tokens[2], (Kind::Number, "3".to_string()));
        assert_eq!(tokens[4], (Kind::Text, "b".to_string()));
        // `{{-3}}` is the number -3, not a trim marker.
        assert_eq!(kinds("{{-3}}")[1], (Kind::Number, "-3".to_string()));
    }

    #[test]
    fn comments_and_errors() {
        assert_eq!(kinds("x{{/* c */}}y")[1].0, Kind::Comment);
        let last = |input: &str| lex(input).pop().unwrap();
        assert_eq!(last("{{ .x ").text, "unclosed action");
        assert_eq!(
            last("{{/* c */ x}}").text,
            "comment ends before closing delimiter"
        );
        assert_eq!(last(r#"{{ "abc }}"#).text, "unterminated quoted string");
        assert_eq!(last("{{ 3k }}").text, r#"bad number syntax: "3k""#);
        assert_eq!(last("{{ ) }}").text, "unexpected right paren");
    }
}
