//! The `..` operator as gopher-lua runs it. C Lua turns a number into text inside the virtual
//! machine (`%.14g`: `2e+15`), where no library function can step in; gopher-lua writes it as
//! an integer or Go's shortest float (`2000000000000000`). So before a script is compiled, every
//! `a .. b` becomes `CONCAT(a, b)`, a function that concatenates as gopher-lua does.
//!
//! The rewrite parses the script with Lua 5.1's grammar (lparser.c: statements, and
//! expressions by operator priority, `..` right-associative) only to find each `..` and its two
//! operands; it inserts text on the operands' own lines, so every line number stays the
//! script's. A script that does not parse is left as it is, for Lua to report.

/// A token: its kind and where it is in the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Token<'a> {
    text: &'a str,
    kind: Kind,
    start: usize,
    end: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Name,
    Keyword,
    Number,
    String,
    Symbol,
}

const KEYWORDS: [&str; 21] = [
    "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "if", "in", "local",
    "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
];

/// `source` with every `..` made a call of `function`; `None` when it does not lex or parse.
pub fn rewrite(source: &str, function: &str) -> Option<String> {
    if !source.contains("..") {
        return Some(source.to_string());
    }
    let tokens = lex(source)?;
    let mut parser = Parser {
        tokens: &tokens,
        at: 0,
        concats: Vec::new(),
        depth: 0,
    };
    parser.block()?;
    if parser.at != tokens.len() {
        return None;
    }
    // Insertions by position; at one position, closing parentheses before opening calls.
    let mut edits: Vec<(usize, u8, String)> = Vec::new();
    for concat in &parser.concats {
        edits.push((concat.left, 1, format!("{function}(")));
        edits.push((concat.operator.0, 2, ",".to_string()));
        edits.push((concat.right, 0, ")".to_string()));
    }
    edits.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut out = String::with_capacity(source.len() + edits.len() * function.len());
    let mut copied = 0;
    for (position, kind, text) in edits {
        out.push_str(&source[copied..position]);
        copied = position;
        out.push_str(&text);
        if kind == 2 {
            // The operator itself is replaced.
            copied = position + 2;
        }
    }
    out.push_str(&source[copied..]);
    Some(out)
}

/// llex.c, as far as telling tokens apart needs: names, numbers, strings (short and long),
/// comments, symbols.
fn lex(source: &str) -> Option<Vec<Token<'_>>> {
    let bytes = source.as_bytes();
    let mut tokens = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let byte = bytes[at];
        if byte.is_ascii_whitespace() {
            at += 1;
            continue;
        }
        let start = at;
        let kind = if source[at..].starts_with("--") {
            at += 2;
            match long_bracket(bytes, at) {
                Some(level) => at = close_long_bracket(bytes, at, level)?,
                None => {
                    while at < bytes.len() && bytes[at] != b'\n' {
                        at += 1;
                    }
                }
            }
            continue;
        } else if byte.is_ascii_alphabetic() || byte == b'_' {
            while at < bytes.len() && (bytes[at].is_ascii_alphanumeric() || bytes[at] == b'_') {
                at += 1;
            }
            if KEYWORDS.contains(&&source[start..at]) {
                Kind::Keyword
            } else {
                Kind::Name
            }
        } else if byte.is_ascii_digit()
            || byte == b'.' && bytes.get(at + 1).is_some_and(u8::is_ascii_digit)
        {
            // read_numeral: digits and points, an exponent with its sign, then any letters.
            while at < bytes.len() && (bytes[at].is_ascii_digit() || bytes[at] == b'.') {
                at += 1;
            }
            if at < bytes.len() && matches!(bytes[at], b'e' | b'E') {
                at += 1;
                if at < bytes.len() && matches!(bytes[at], b'+' | b'-') {
                    at += 1;
                }
            }
            while at < bytes.len() && (bytes[at].is_ascii_alphanumeric() || bytes[at] == b'_') {
                at += 1;
            }
            Kind::Number
        } else if byte == b'"' || byte == b'\'' {
            at += 1;
            loop {
                match bytes.get(at)? {
                    b'\\' => at += 2,
                    b'\n' => return None,
                    &quote if quote == byte => {
                        at += 1;
                        break;
                    }
                    _ => at += 1,
                }
            }
            Kind::String
        } else if let Some(level) = (byte == b'[').then(|| long_bracket(bytes, at)).flatten() {
            at = close_long_bracket(bytes, at, level)?;
            Kind::String
        } else {
            let symbol = ["...", "..", "==", "~=", "<=", ">="]
                .iter()
                .find(|symbol| source[at..].starts_with(**symbol))
                .map_or(1, |symbol| symbol.len());
            if symbol == 1 && !b"+-*/%^#<>=(){}[];:,.".contains(&byte) {
                return None;
            }
            at += symbol;
            Kind::Symbol
        };
        tokens.push(Token {
            text: &source[start..at],
            kind,
            start,
            end: at,
        });
    }
    Some(tokens)
}

/// The level of a long bracket opening at `at` (`[[` is 0, `[==[` is 2).
fn long_bracket(bytes: &[u8], at: usize) -> Option<usize> {
    if bytes.get(at) != Some(&b'[') {
        return None;
    }
    let level = bytes[at + 1..]
        .iter()
        .take_while(|&&byte| byte == b'=')
        .count();
    (bytes.get(at + 1 + level) == Some(&b'[')).then_some(level)
}

/// Where the long bracket opened at `at` ends.
fn close_long_bracket(bytes: &[u8], at: usize, level: usize) -> Option<usize> {
    let closing: Vec<u8> = std::iter::once(b']')
        .chain(std::iter::repeat_n(b'=', level))
        .chain(std::iter::once(b']'))
        .collect();
    let from = at + level + 2;
    bytes[from..]
        .windows(closing.len())
        .position(|window| window == closing.as_slice())
        .map(|offset| from + offset + closing.len())
}

/// One `..`: where its left operand starts, the operator, where its right operand ends.
struct Concat {
    left: usize,
    operator: (usize, usize),
    right: usize,
}

struct Parser<'t, 'a> {
    tokens: &'t [Token<'a>],
    at: usize,
    concats: Vec<Concat>,
    /// Nesting, bounded as Lua bounds it (LUAI_MAXCCALLS).
    depth: usize,
}

/// How deep blocks and expressions may nest before the script is left to Lua to refuse.
const MAX_DEPTH: usize = 200;

impl<'a> Parser<'_, 'a> {
    fn peek(&self) -> Option<&Token<'a>> {
        self.tokens.get(self.at)
    }

    fn is(&self, text: &str) -> bool {
        self.peek()
            .is_some_and(|token| token.text == text && token.kind != Kind::String)
    }

    fn eat(&mut self, text: &str) -> bool {
        let found = self.is(text);
        if found {
            self.at += 1;
        }
        found
    }

    fn expect(&mut self, text: &str) -> Option<()> {
        self.eat(text).then_some(())
    }

    fn name(&mut self) -> Option<()> {
        let token = self.peek()?;
        (token.kind == Kind::Name).then(|| self.at += 1)
    }

    fn nested<T>(&mut self, work: impl FnOnce(&mut Self) -> Option<T>) -> Option<T> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        let result = work(self);
        self.depth -= 1;
        result
    }

    /// A block, up to a token that ends one (or the end of the source).
    fn block(&mut self) -> Option<()> {
        self.nested(|parser| {
            loop {
                match parser.peek() {
                    None => return Some(()),
                    Some(token)
                        if token.kind == Kind::Keyword
                            && matches!(token.text, "end" | "else" | "elseif" | "until") =>
                    {
                        return Some(());
                    }
                    _ => {}
                }
                if parser.eat("return") {
                    if !(parser.peek().is_none()
                        || ["end", "else", "elseif", "until", ";"]
                            .iter()
                            .any(|text| parser.is(text)))
                    {
                        parser.expression_list()?;
                    }
                    parser.eat(";");
                    continue;
                }
                parser.statement()?;
                parser.eat(";");
            }
        })
    }

    fn statement(&mut self) -> Option<()> {
        let token = *self.peek()?;
        if token.kind == Kind::Keyword {
            self.at += 1;
            match token.text {
                "break" => {}
                "do" => {
                    self.block()?;
                    self.expect("end")?;
                }
                "while" => {
                    self.expression()?;
                    self.expect("do")?;
                    self.block()?;
                    self.expect("end")?;
                }
                "repeat" => {
                    self.block()?;
                    self.expect("until")?;
                    self.expression()?;
                }
                "if" => {
                    self.expression()?;
                    self.expect("then")?;
                    self.block()?;
                    while self.eat("elseif") {
                        self.expression()?;
                        self.expect("then")?;
                        self.block()?;
                    }
                    if self.eat("else") {
                        self.block()?;
                    }
                    self.expect("end")?;
                }
                "for" => {
                    self.name()?;
                    if self.eat("=") {
                        self.expression_list()?;
                    } else {
                        while self.eat(",") {
                            self.name()?;
                        }
                        self.expect("in")?;
                        self.expression_list()?;
                    }
                    self.expect("do")?;
                    self.block()?;
                    self.expect("end")?;
                }
                "function" => {
                    self.name()?;
                    while self.eat(".") {
                        self.name()?;
                    }
                    if self.eat(":") {
                        self.name()?;
                    }
                    self.function_body()?;
                }
                "local" => {
                    if self.eat("function") {
                        self.name()?;
                        self.function_body()?;
                    } else {
                        self.name()?;
                        while self.eat(",") {
                            self.name()?;
                        }
                        if self.eat("=") {
                            self.expression_list()?;
                        }
                    }
                }
                _ => return None,
            }
            return Some(());
        }
        // An assignment or a call.
        self.suffixed()?;
        if self.is("=") || self.is(",") {
            while self.eat(",") {
                self.suffixed()?;
            }
            self.expect("=")?;
            self.expression_list()?;
        }
        Some(())
    }

    fn function_body(&mut self) -> Option<()> {
        self.expect("(")?;
        if !self.eat(")") {
            loop {
                if self.eat("...") {
                    break;
                }
                self.name()?;
                if !self.eat(",") {
                    break;
                }
            }
            self.expect(")")?;
        }
        self.block()?;
        self.expect("end")
    }

    fn expression_list(&mut self) -> Option<()> {
        self.expression()?;
        while self.eat(",") {
            self.expression()?;
        }
        Some(())
    }

    fn expression(&mut self) -> Option<(usize, usize)> {
        self.nested(|parser| parser.binary(0))
    }

    /// lparser.c `subexpr`: operands and binary operators above priority `limit`.
    fn binary(&mut self, limit: u8) -> Option<(usize, usize)> {
        let start = self.peek()?.start;
        let mut end;
        if self.is("not") || self.is("-") || self.is("#") {
            self.at += 1;
            end = self.nested(|parser| parser.binary(UNARY_PRIORITY))?.1;
        } else {
            end = self.simple()?;
        }
        while let Some(&operator) = self.peek() {
            let Some((left, right)) = priority(&operator) else {
                break;
            };
            if left <= limit {
                break;
            }
            self.at += 1;
            let (_, right_end) = self.nested(|parser| parser.binary(right))?;
            if operator.text == ".." {
                self.concats.push(Concat {
                    left: start,
                    operator: (operator.start, operator.end),
                    right: right_end,
                });
            }
            end = right_end;
        }
        Some((start, end))
    }

    /// A simple expression: a literal, `...`, a function, a table, or a suffixed expression.
    fn simple(&mut self) -> Option<usize> {
        let token = *self.peek()?;
        match (token.kind, token.text) {
            (Kind::Number | Kind::String, _)
            | (Kind::Keyword, "nil" | "true" | "false")
            | (Kind::Symbol, "...") => {
                self.at += 1;
                Some(token.end)
            }
            (Kind::Keyword, "function") => {
                self.at += 1;
                self.function_body()?;
                Some(self.tokens[self.at - 1].end)
            }
            (Kind::Symbol, "{") => self.table(),
            _ => self.suffixed(),
        }
    }

    fn table(&mut self) -> Option<usize> {
        self.expect("{")?;
        while !self.is("}") {
            if self.eat("[") {
                self.expression()?;
                self.expect("]")?;
                self.expect("=")?;
                self.expression()?;
            } else if self.peek()?.kind == Kind::Name
                && self
                    .tokens
                    .get(self.at + 1)
                    .is_some_and(|next| next.text == "=")
            {
                self.at += 2;
                self.expression()?;
            } else {
                self.expression()?;
            }
            if !self.eat(",") && !self.eat(";") {
                break;
            }
        }
        self.expect("}")?;
        Some(self.tokens[self.at - 1].end)
    }

    /// A name or parenthesised expression followed by fields, indexes and calls.
    fn suffixed(&mut self) -> Option<usize> {
        if self.eat("(") {
            self.expression()?;
            self.expect(")")?;
        } else {
            self.name()?;
        }
        loop {
            if self.eat(".") {
                self.name()?;
            } else if self.eat("[") {
                self.expression()?;
                self.expect("]")?;
            } else if self.eat(":") {
                self.name()?;
                self.arguments()?;
            } else if self.is("(")
                || self.is("{")
                || self.peek().is_some_and(|t| t.kind == Kind::String)
            {
                self.arguments()?;
            } else {
                return Some(self.tokens[self.at - 1].end);
            }
        }
    }

    fn arguments(&mut self) -> Option<()> {
        let token = *self.peek()?;
        if token.kind == Kind::String {
            self.at += 1;
            return Some(());
        }
        if self.is("{") {
            return self.table().map(|_| ());
        }
        self.expect("(")?;
        if !self.eat(")") {
            self.expression_list()?;
            self.expect(")")?;
        }
        Some(())
    }
}

/// The priority of unary operators (lparser.c UNARY_PRIORITY).
const UNARY_PRIORITY: u8 = 8;

/// lparser.c `priority`: left and right priority of each binary operator.
fn priority(token: &Token<'_>) -> Option<(u8, u8)> {
    if token.kind == Kind::String {
        return None;
    }
    Some(match token.text {
        "+" | "-" => (6, 6),
        "*" | "/" | "%" => (7, 7),
        "^" => (10, 9),
        ".." => (5, 4),
        "==" | "~=" | "<" | "<=" | ">" | ">=" => (3, 3),
        "and" => (2, 2),
        "or" => (1, 1),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewritten(source: &str) -> String {
        rewrite(source, "C").expect("parses")
    }

    #[test]
    fn each_concatenation_becomes_a_call_right_to_left() {
        assert_eq!(rewritten("x = a .. b"), "x = C(a , b)");
        assert_eq!(rewritten("x = a .. b .. c"), "x = C(a , C(b , c))");
        assert_eq!(rewritten("x = (a .. b) .. c"), "x = C((C(a , b)) , c)");
        assert_eq!(rewritten("x = 1 + 2 .. 3 * 4"), "x = C(1 + 2 , 3 * 4)");
        assert_eq!(rewritten("x = a == b .. c"), "x = a == C(b , c)");
        assert_eq!(rewritten("x = -a .. #t"), "x = C(-a , #t)");
        assert_eq!(rewritten("x = 2^k .. ''"), "x = C(2^k , '')");
        assert_eq!(
            rewritten("return obj.metadata.name .. '-' .. f(x, y):g()[1]"),
            "return C(obj.metadata.name , C('-' , f(x, y):g()[1]))"
        );
        assert_eq!(
            rewritten("t = {a = 'x' .. n, [k .. 'y'] = 1}"),
            "t = {a = C('x' , n), [C(k , 'y')] = 1}"
        );
    }

    #[test]
    fn strings_comments_and_varargs_are_not_operators() {
        let source = "local s = 'a..b' -- x .. y\nlocal t = [[..]] --[[ .. ]]\nfunction f(...) return ... end";
        assert_eq!(rewritten(source), source);
        assert_eq!(rewritten("x = 1.5 .. 'e'"), "x = C(1.5 , 'e')");
    }

    #[test]
    fn lines_stay_where_they_were() {
        let source = "function GetReplicas(obj)\n  local name = obj.metadata.name ..\n    '-' .. obj.spec.suffix\n  error('x')\nend";
        let out = rewritten(source);
        assert_eq!(out.lines().count(), source.lines().count());
        assert!(out.lines().nth(3).unwrap().contains("error"));
    }

    #[test]
    fn a_script_that_does_not_parse_is_left_to_lua() {
        assert_eq!(rewrite("x = a ..", "C"), None);
        assert_eq!(rewrite("x = 'open ..", "C"), None);
    }
}
