//! CEL's grammar (cel-spec's langdef.md): text to an expression tree, with the macros (`has`,
//! `all`, `exists`, `exists_one`, `map`, `filter`) expanded as they are parsed and the
//! namespaced functions of Kubernetes' libraries (`optional.of`, `sets.contains`,
//! `format.named`, …) resolved to one name.

/// A literal of the expression's text.
#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Double(f64),
    String(String),
    Bytes(Vec<u8>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Binary {
    Equal,
    NotEqual,
    Less,
    LessOrEqual,
    Greater,
    GreaterOrEqual,
    In,
    Add,
    Subtract,
    Multiply,
    Divide,
    Remainder,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Macro {
    All,
    Exists,
    ExistsOne,
    Map,
    Filter,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Literal(Literal),
    /// A variable (`self`, `oldSelf`, a macro's) or a type name (`int`, `string`).
    Ident(String),
    /// `operand.field`, or `operand.?field` (optional).
    Select {
        operand: Box<Expr>,
        field: String,
        optional: bool,
    },
    /// `operand[index]`, or `operand[?index]`.
    Index {
        operand: Box<Expr>,
        index: Box<Expr>,
        optional: bool,
    },
    /// `function(args)`, `target.function(args)`; namespaced ones (`sets.contains`) carry
    /// their namespace in the name and no target.
    Call {
        target: Option<Box<Expr>>,
        function: String,
        args: Vec<Expr>,
    },
    List(Vec<Expr>),
    Map(Vec<(Expr, Expr)>),
    Not(Box<Expr>),
    Negate(Box<Expr>),
    Binary(Binary, Box<Expr>, Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Conditional(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `has(operand.field)`.
    Has {
        operand: Box<Expr>,
        field: String,
    },
    /// `range.all(variable, body)` and the other macros; `map` with a filter has both.
    Comprehension {
        kind: Macro,
        range: Box<Expr>,
        variable: String,
        filter: Option<Box<Expr>>,
        body: Box<Expr>,
    },
}

impl Expr {
    /// Whether the expression reads `oldSelf`: a transition rule.
    pub fn reads(&self, name: &str) -> bool {
        let mut found = false;
        self.visit(&mut |expr| {
            if matches!(expr, Expr::Ident(ident) if ident == name) {
                found = true;
            }
        });
        found
    }

    fn visit(&self, each: &mut dyn FnMut(&Expr)) {
        each(self);
        match self {
            Expr::Literal(_) | Expr::Ident(_) => {}
            Expr::Select { operand, .. } | Expr::Has { operand, .. } => operand.visit(each),
            Expr::Not(operand) | Expr::Negate(operand) => operand.visit(each),
            Expr::Index { operand, index, .. } => {
                operand.visit(each);
                index.visit(each);
            }
            Expr::Call { target, args, .. } => {
                if let Some(target) = target {
                    target.visit(each);
                }
                args.iter().for_each(|arg| arg.visit(each));
            }
            Expr::List(items) => items.iter().for_each(|item| item.visit(each)),
            Expr::Map(entries) => entries.iter().for_each(|(key, value)| {
                key.visit(each);
                value.visit(each);
            }),
            Expr::Binary(_, left, right) | Expr::And(left, right) | Expr::Or(left, right) => {
                left.visit(each);
                right.visit(each);
            }
            Expr::Conditional(condition, then, otherwise) => {
                condition.visit(each);
                then.visit(each);
                otherwise.visit(each);
            }
            Expr::Comprehension {
                range,
                filter,
                body,
                ..
            } => {
                range.visit(each);
                if let Some(filter) = filter {
                    filter.visit(each);
                }
                body.visit(each);
            }
        }
    }
}

/// The namespaces of Kubernetes' CEL libraries: `optional.of(x)` is the function
/// `optional.of`, not a field of a variable named optional.
const NAMESPACES: [&str; 5] = ["optional", "sets", "format", "math", "strings"];

/// The most an expression nests: cel-go's parser refuses deeper ones (its recursion limit).
const MAX_DEPTH: usize = 250;

/// The longest expression parsed: the API server's limit on a rule's length is far below it.
const MAX_LENGTH: usize = 100_000;

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Int(i64),
    Uint(u64),
    Double(f64),
    String(String),
    Bytes(Vec<u8>),
    Ident(String),
    /// An operator or punctuation: `==`, `.?`, `[?`, `(`, …
    Symbol(&'static str),
}

const SYMBOLS: [&str; 29] = [
    "==", "!=", "<=", ">=", "&&", "||", ".?", "[?", "<", ">", "!", "+", "-", "*", "/", "%", "?",
    ":", ".", ",", "(", ")", "[", "]", "{", "}", "=", "&", "|",
];

fn lex(text: &str) -> Result<Vec<Token>, String> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let c = bytes[at];
        if c.is_ascii_whitespace() {
            at += 1;
            continue;
        }
        if text[at..].starts_with("//") {
            at += text[at..].find('\n').unwrap_or(text.len() - at);
            continue;
        }
        // String and bytes literals, with their r/R and b/B prefixes.
        let prefix: String = text[at..]
            .chars()
            .take_while(|c| matches!(c, 'r' | 'R' | 'b' | 'B'))
            .take(2)
            .collect();
        let quote_at = at + prefix.len();
        if quote_at < bytes.len()
            && matches!(bytes[quote_at], b'"' | b'\'')
            && (prefix.is_empty() || !text[quote_at..].is_empty())
        {
            let raw = prefix.contains(['r', 'R']);
            let is_bytes = prefix.contains(['b', 'B']);
            let (content, next) = string_literal(text, quote_at, raw)?;
            tokens.push(if is_bytes {
                Token::Bytes(content)
            } else {
                Token::String(
                    String::from_utf8(content).map_err(|_| "a string is not UTF-8".to_string())?,
                )
            });
            at = next;
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let end = text[at..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(text.len(), |end| at + end);
            tokens.push(Token::Ident(text[at..end].to_string()));
            at = end;
            continue;
        }
        if c.is_ascii_digit() || (c == b'.' && bytes.get(at + 1).is_some_and(u8::is_ascii_digit)) {
            let (token, next) = number(text, at)?;
            tokens.push(token);
            at = next;
            continue;
        }
        let Some(symbol) = SYMBOLS
            .iter()
            .find(|symbol| text[at..].starts_with(**symbol))
        else {
            return Err(format!(
                "unexpected character {:?}",
                text[at..].chars().next().unwrap_or_default()
            ));
        };
        tokens.push(Token::Symbol(symbol));
        at += symbol.len();
    }
    Ok(tokens)
}

fn number(text: &str, start: usize) -> Result<(Token, usize), String> {
    let rest = &text[start..];
    if let Some(hex) = rest.strip_prefix("0x").or_else(|| rest.strip_prefix("0X")) {
        let digits = hex
            .find(|c: char| !c.is_ascii_hexdigit())
            .unwrap_or(hex.len());
        let end = start + 2 + digits;
        let unsigned = text[end..].starts_with(['u', 'U']);
        let value = u64::from_str_radix(&hex[..digits], 16)
            .map_err(|_| format!("{} is out of range", &text[start..end]))?;
        return Ok(if unsigned {
            (Token::Uint(value), end + 1)
        } else {
            (
                Token::Int(
                    i64::try_from(value)
                        .map_err(|_| format!("{} is out of range", &text[start..end]))?,
                ),
                end,
            )
        });
    }
    let bytes = text.as_bytes();
    let mut end = start;
    let mut double = false;
    while end < bytes.len() && bytes[end].is_ascii_digit() {
        end += 1;
    }
    if end < bytes.len() && bytes[end] == b'.' && bytes.get(end + 1).is_some_and(u8::is_ascii_digit)
    {
        double = true;
        end += 1;
        while end < bytes.len() && bytes[end].is_ascii_digit() {
            end += 1;
        }
    }
    if end < bytes.len() && matches!(bytes[end], b'e' | b'E') {
        let mut exponent = end + 1;
        if exponent < bytes.len() && matches!(bytes[exponent], b'+' | b'-') {
            exponent += 1;
        }
        if exponent < bytes.len() && bytes[exponent].is_ascii_digit() {
            double = true;
            end = exponent;
            while end < bytes.len() && bytes[end].is_ascii_digit() {
                end += 1;
            }
        }
    }
    let literal = &text[start..end];
    if double {
        return literal
            .parse()
            .map(|value| (Token::Double(value), end))
            .map_err(|_| format!("{literal} is not a number"));
    }
    if text[end..].starts_with(['u', 'U']) {
        return literal
            .parse()
            .map(|value| (Token::Uint(value), end + 1))
            .map_err(|_| format!("{literal}u is out of range"));
    }
    // The magnitude of the most negative int is read here and negated by the parser.
    match literal.parse::<i64>() {
        Ok(value) => Ok((Token::Int(value), end)),
        Err(_) if literal == "9223372036854775808" => Ok((Token::Uint(1 << 63), end)),
        Err(_) => Err(format!("{literal} is out of range")),
    }
}

/// A quoted literal at `start` (its opening quote): its bytes and where it ends.
fn string_literal(text: &str, start: usize, raw: bool) -> Result<(Vec<u8>, usize), String> {
    let quote = &text[start..start + 1];
    let triple = quote.repeat(3);
    let (delimiter, mut at) = if text[start..].starts_with(&triple) {
        (triple.as_str(), start + 3)
    } else {
        (quote, start + 1)
    };
    let mut content = Vec::new();
    loop {
        let rest = &text[at..];
        if rest.starts_with(delimiter) {
            return Ok((content, at + delimiter.len()));
        }
        let Some(c) = rest.chars().next() else {
            return Err("a string is not closed".to_string());
        };
        if (c == '\n' || c == '\r') && delimiter.len() == 1 {
            return Err("a string is not closed on its line".to_string());
        }
        if c != '\\' || raw {
            let mut buffer = [0; 4];
            content.extend_from_slice(c.encode_utf8(&mut buffer).as_bytes());
            at += c.len_utf8();
            continue;
        }
        let escape = rest[1..].chars().next().ok_or("a string ends in \\")?;
        at += 1 + escape.len_utf8();
        let simple = match escape {
            'a' => Some(7),
            'b' => Some(8),
            'f' => Some(12),
            'n' => Some(b'\n'),
            'r' => Some(b'\r'),
            't' => Some(b'\t'),
            'v' => Some(11),
            '\\' => Some(b'\\'),
            '\'' => Some(b'\''),
            '"' => Some(b'"'),
            '`' => Some(b'`'),
            '?' => Some(b'?'),
            _ => None,
        };
        if let Some(byte) = simple {
            content.push(byte);
            continue;
        }
        let (digits, radix) = match escape {
            'x' | 'X' => (2, 16),
            'u' => (4, 16),
            'U' => (8, 16),
            '0'..='3' => {
                at -= 1;
                (3, 8)
            }
            _ => return Err(format!("\\{escape} is not an escape")),
        };
        let code = text
            .get(at..at + digits)
            .and_then(|digits| u32::from_str_radix(digits, radix).ok())
            .ok_or_else(|| format!("a \\{escape} escape lacks its digits"))?;
        at += digits;
        if matches!(escape, 'u' | 'U') {
            let c = char::from_u32(code).ok_or("an escape is not a character")?;
            let mut buffer = [0; 4];
            content.extend_from_slice(c.encode_utf8(&mut buffer).as_bytes());
        } else {
            content.push(code as u8);
        }
    }
}

struct Parser {
    tokens: Vec<Token>,
    at: usize,
    depth: usize,
}

/// Parses `text` as a CEL expression.
pub fn parse(text: &str) -> Result<Expr, String> {
    if text.len() > MAX_LENGTH {
        return Err(format!("longer than {MAX_LENGTH} bytes"));
    }
    let mut parser = Parser {
        tokens: lex(text)?,
        at: 0,
        depth: 0,
    };
    let expr = parser.expr()?;
    match parser.tokens.get(parser.at) {
        None => Ok(expr),
        Some(token) => Err(format!("unexpected {} after the expression", shown(token))),
    }
}

fn shown(token: &Token) -> String {
    match token {
        Token::Symbol(symbol) => format!("'{symbol}'"),
        Token::Ident(name) => format!("'{name}'"),
        _ => "a literal".to_string(),
    }
}

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn eat(&mut self, symbol: &str) -> bool {
        if matches!(self.peek(), Some(Token::Symbol(s)) if *s == symbol) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, symbol: &str) -> Result<(), String> {
        if self.eat(symbol) {
            return Ok(());
        }
        Err(match self.peek() {
            Some(token) => format!("expected '{symbol}', found {}", shown(token)),
            None => format!("expected '{symbol}' at the end"),
        })
    }

    fn expr(&mut self) -> Result<Expr, String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(format!("nests more than {MAX_DEPTH} deep"));
        }
        let condition = self.or()?;
        let expr = if self.eat("?") {
            let then = self.or()?;
            self.expect(":")?;
            let otherwise = self.expr()?;
            Expr::Conditional(Box::new(condition), Box::new(then), Box::new(otherwise))
        } else {
            condition
        };
        self.depth -= 1;
        Ok(expr)
    }

    fn or(&mut self) -> Result<Expr, String> {
        let mut left = self.and()?;
        while self.eat("||") {
            left = Expr::Or(Box::new(left), Box::new(self.and()?));
        }
        Ok(left)
    }

    fn and(&mut self) -> Result<Expr, String> {
        let mut left = self.relation()?;
        while self.eat("&&") {
            left = Expr::And(Box::new(left), Box::new(self.relation()?));
        }
        Ok(left)
    }

    fn relation(&mut self) -> Result<Expr, String> {
        let mut left = self.addition()?;
        loop {
            let op = match self.peek() {
                Some(Token::Symbol("==")) => Binary::Equal,
                Some(Token::Symbol("!=")) => Binary::NotEqual,
                Some(Token::Symbol("<")) => Binary::Less,
                Some(Token::Symbol("<=")) => Binary::LessOrEqual,
                Some(Token::Symbol(">")) => Binary::Greater,
                Some(Token::Symbol(">=")) => Binary::GreaterOrEqual,
                Some(Token::Ident(name)) if name == "in" => Binary::In,
                _ => return Ok(left),
            };
            self.at += 1;
            left = Expr::Binary(op, Box::new(left), Box::new(self.addition()?));
        }
    }

    fn addition(&mut self) -> Result<Expr, String> {
        let mut left = self.multiplication()?;
        loop {
            let op = match self.peek() {
                Some(Token::Symbol("+")) => Binary::Add,
                Some(Token::Symbol("-")) => Binary::Subtract,
                _ => return Ok(left),
            };
            self.at += 1;
            left = Expr::Binary(op, Box::new(left), Box::new(self.multiplication()?));
        }
    }

    fn multiplication(&mut self) -> Result<Expr, String> {
        let mut left = self.unary()?;
        loop {
            let op = match self.peek() {
                Some(Token::Symbol("*")) => Binary::Multiply,
                Some(Token::Symbol("/")) => Binary::Divide,
                Some(Token::Symbol("%")) => Binary::Remainder,
                _ => return Ok(left),
            };
            self.at += 1;
            left = Expr::Binary(op, Box::new(left), Box::new(self.unary()?));
        }
    }

    fn unary(&mut self) -> Result<Expr, String> {
        if self.eat("!") {
            return Ok(Expr::Not(Box::new(self.unary()?)));
        }
        if self.eat("-") {
            // -9223372036854775808 is an int; its magnitude alone is not.
            if let Some(Token::Uint(value)) = self.peek()
                && *value == 1 << 63
            {
                self.at += 1;
                return self.member(Expr::Literal(Literal::Int(i64::MIN)));
            }
            let operand = self.unary()?;
            return Ok(match operand {
                Expr::Literal(Literal::Int(value)) => Expr::Literal(Literal::Int(-value)),
                Expr::Literal(Literal::Double(value)) => Expr::Literal(Literal::Double(-value)),
                operand => Expr::Negate(Box::new(operand)),
            });
        }
        let primary = self.primary()?;
        self.member(primary)
    }

    fn member(&mut self, mut expr: Expr) -> Result<Expr, String> {
        loop {
            if self.eat(".") || self.eat(".?") {
                let optional = matches!(self.tokens[self.at - 1], Token::Symbol(".?"));
                let Some(Token::Ident(field)) = self.peek().cloned() else {
                    return Err("expected a field name after '.'".to_string());
                };
                self.at += 1;
                if !optional && self.eat("(") {
                    let args = self.arguments(")")?;
                    expr = self.method(expr, field, args)?;
                } else {
                    expr = Expr::Select {
                        operand: Box::new(expr),
                        field,
                        optional,
                    };
                }
            } else if self.eat("[") || self.eat("[?") {
                let optional = matches!(self.tokens[self.at - 1], Token::Symbol("[?"));
                let index = self.expr()?;
                self.expect("]")?;
                expr = Expr::Index {
                    operand: Box::new(expr),
                    index: Box::new(index),
                    optional,
                };
            } else {
                return Ok(expr);
            }
        }
    }

    /// `target.function(args)`: a macro, a namespaced function, or a method.
    fn method(
        &mut self,
        target: Expr,
        function: String,
        mut args: Vec<Expr>,
    ) -> Result<Expr, String> {
        if let Expr::Ident(namespace) = &target
            && (NAMESPACES.contains(&namespace.as_str())
                || namespace == "ip" && function == "isCanonical")
        {
            return Ok(Expr::Call {
                target: None,
                function: format!("{namespace}.{function}"),
                args,
            });
        }
        let kind = match (function.as_str(), args.len()) {
            ("all", 2) => Some(Macro::All),
            ("exists", 2) => Some(Macro::Exists),
            ("exists_one", 2) => Some(Macro::ExistsOne),
            ("map", 2 | 3) => Some(Macro::Map),
            ("filter", 2) => Some(Macro::Filter),
            _ => None,
        };
        let Some(kind) = kind else {
            return Ok(Expr::Call {
                target: Some(Box::new(target)),
                function,
                args,
            });
        };
        let Expr::Ident(variable) = args.remove(0) else {
            return Err(format!(
                "{function}'s first argument must be a variable name"
            ));
        };
        let body = args.pop().expect("two or three arguments");
        let filter = args.pop().map(Box::new);
        Ok(Expr::Comprehension {
            kind,
            range: Box::new(target),
            variable,
            filter,
            body: Box::new(body),
        })
    }

    fn arguments(&mut self, close: &str) -> Result<Vec<Expr>, String> {
        let mut args = Vec::new();
        if self.eat(close) {
            return Ok(args);
        }
        loop {
            args.push(self.expr()?);
            if self.eat(close) {
                return Ok(args);
            }
            self.expect(",")?;
            // A trailing comma.
            if self.eat(close) {
                return Ok(args);
            }
        }
    }

    fn primary(&mut self) -> Result<Expr, String> {
        let Some(token) = self.peek().cloned() else {
            return Err("the expression ends too soon".to_string());
        };
        self.at += 1;
        Ok(match token {
            Token::Int(value) => Expr::Literal(Literal::Int(value)),
            Token::Uint(value) => Expr::Literal(Literal::Uint(value)),
            Token::Double(value) => Expr::Literal(Literal::Double(value)),
            Token::String(value) => Expr::Literal(Literal::String(value)),
            Token::Bytes(value) => Expr::Literal(Literal::Bytes(value)),
            Token::Ident(name) => match name.as_str() {
                "true" => Expr::Literal(Literal::Bool(true)),
                "false" => Expr::Literal(Literal::Bool(false)),
                "null" => Expr::Literal(Literal::Null),
                _ if self.eat("(") => {
                    let mut args = self.arguments(")")?;
                    if name == "has" {
                        return match (args.pop(), args.is_empty()) {
                            (
                                Some(Expr::Select {
                                    operand,
                                    field,
                                    optional: false,
                                }),
                                true,
                            ) => Ok(Expr::Has { operand, field }),
                            _ => Err("has() takes one field selection, has(a.b)".to_string()),
                        };
                    }
                    Expr::Call {
                        target: None,
                        function: name,
                        args,
                    }
                }
                _ => Expr::Ident(name),
            },
            Token::Symbol("(") => {
                let expr = self.expr()?;
                self.expect(")")?;
                expr
            }
            Token::Symbol("[") => Expr::List(self.arguments("]")?),
            Token::Symbol("{") => {
                let mut entries = Vec::new();
                if !self.eat("}") {
                    loop {
                        let key = self.expr()?;
                        self.expect(":")?;
                        entries.push((key, self.expr()?));
                        if self.eat("}") {
                            break;
                        }
                        self.expect(",")?;
                        if self.eat("}") {
                            break;
                        }
                    }
                }
                Expr::Map(entries)
            }
            Token::Symbol(".") => {
                // A leading dot names the root namespace: `.self` is `self`.
                return self.primary();
            }
            token => return Err(format!("unexpected {}", shown(&token))),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precedence_and_literals() {
        let expr = parse("a || b && c == 1 + 2 * 3").unwrap();
        let Expr::Or(_, right) = expr else {
            panic!("{expr:?}")
        };
        assert!(matches!(*right, Expr::And(..)));
        assert_eq!(
            parse("-9223372036854775808").unwrap(),
            Expr::Literal(Literal::Int(i64::MIN))
        );
        assert_eq!(parse("0x1Fu").unwrap(), Expr::Literal(Literal::Uint(31)));
        assert_eq!(
            parse(r#"'a\'b\n' + r'\d' + """x"y""""#).unwrap(),
            parse(r#""a'b\n" + '\\d' + 'x"y'"#).unwrap()
        );
        assert_eq!(
            parse("b'\\xff'").unwrap(),
            Expr::Literal(Literal::Bytes(vec![255]))
        );
        assert!(parse("1 +").is_err());
        assert!(parse("'open").is_err());
        assert!(parse(&"(".repeat(300)).unwrap_err().contains("nests"));
    }

    #[test]
    fn macros_and_namespaces() {
        assert!(matches!(
            parse("self.all(x, x > 0)").unwrap(),
            Expr::Comprehension {
                kind: Macro::All,
                ..
            }
        ));
        assert!(matches!(parse("has(self.a)").unwrap(), Expr::Has { .. }));
        assert!(matches!(
            parse("optional.of(1)").unwrap(),
            Expr::Call { target: None, ref function, .. } if function == "optional.of"
        ));
        assert!(parse("self.x == oldSelf.x").unwrap().reads("oldSelf"));
        assert!(!parse("self.x == 1").unwrap().reads("oldSelf"));
    }
}
