//! The `..` operator as gopher-lua runs it. C Lua turns a number into text inside the virtual
//! machine (`%.14g`: `2e+15`), where no library function can step in; gopher-lua writes it as
//! an integer or Go's shortest float (`2000000000000000`). So before a script is compiled, every
//! `a .. b` becomes `CONCAT(a, b)`, a function that concatenates as gopher-lua does.
//!
//! The same rewrite makes the rest of what gopher-lua's compiler does differently from C Lua's
//! reach the C compiler in a form it reads the same way:
//! - `a % b` becomes `MODULO(a, b)`: gopher-lua computes Go's `math.Mod` and then moves the
//!   result to the divisor's sign (vm.go `luaModulo`), where C Lua computes `a - floor(a/b)*b`
//!   (`5 % math.huge` is 5, not NaN; large operands keep every digit);
//! - `a ^ b` becomes `POWER(a, b)`: Go's `math.Pow` multiplies by repeated squaring where C's
//!   `pow` rounds once, so the last digit may differ (`1.1 ^ 3`);
//! - number literals are read as gopher-lua's lexer reads them (a fraction ends at a second
//!   point, so `0.5.."x"` is `0.5 .. "x"`; one leading zero is dropped and the rest is Go's
//!   `ParseInt` in base 0, so `0017` is octal) and then as its compiler reads them: a literal Go
//!   cannot read (`1e309`, `0x8000000000000000`) is NaN;
//! - arithmetic on number literals is folded as gopher-lua folds it (compile.go `constFold`:
//!   `+ - * / % ^` of two constants and `-` of one, through parentheses), where C Lua leaves a
//!   division by zero and a NaN to run time; and a zero constant is the sign of the first zero
//!   its function's constant table holds (`ConstIndex` finds `0` equal to `-0.0`), so after
//!   `local a = -0.0` a `1/0` is `+Inf` in gopher-lua (folded first) and `-Inf` in C Lua (its
//!   `0` shares the slot of `-0.0`). Every folded constant is written as a literal C Lua reads
//!   back exactly, and a negative zero as the global [`Functions::negative_zero`], so the C
//!   compiler never holds a `-0.0` constant to share;
//! - a long string or comment `[[...]]` holding `[[` (which Lua 5.1 refuses as "nesting of
//!   [[...]]" and gopher-lua reads as text) gets a long bracket with `=` signs.
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

/// The functions the rewritten script calls.
pub(crate) struct Functions<'f> {
    /// Called as `concat(a, b)` for `a .. b`.
    pub concat: &'f str,
    /// Called as `modulo(a, b)` for `a % b`.
    pub(crate) modulo: &'f str,
    /// Called as `power(a, b)` for `a ^ b`.
    pub(crate) power: &'f str,
    /// A global holding `-0.0`, read where gopher-lua's constant is a negative zero.
    pub(crate) negative_zero: &'f str,
}

/// One change to the source: `text` at `position`, in place of the `replaced` bytes there.
struct Edit {
    position: usize,
    /// At one position: closing parentheses (0), then opening calls (1), then replacements (2).
    rank: u8,
    /// Among openings at one position, the outer call (found later) first.
    sequence: isize,
    text: String,
    replaced: usize,
}

/// `source` rewritten as the module's header says; `None` when it does not lex or parse.
pub fn rewrite(source: &str, functions: &Functions<'_>) -> Option<String> {
    // The lexer's edits are long brackets, never inside a constant.
    let (tokens, mut edits) = lex(source)?;
    let mut parser = Parser {
        tokens: &tokens,
        at: 0,
        operations: Vec::new(),
        constants: Vec::new(),
        function: 0,
        functions: 1,
        depth: 0,
    };
    parser.block()?;
    if parser.at != tokens.len() {
        return None;
    }
    let constants = outermost(parser.constants);
    let zero_signs = first_zero_signs(&constants, parser.functions);
    // The constants written anew: each zero (its sign is its function's first zero's), each NaN
    // or infinity (C Lua computes those at run time), and each holding a literal C Lua reads
    // otherwise. C Lua folds the rest to the same value itself.
    let mut written: Vec<(usize, usize)> = Vec::new();
    for constant in &constants {
        let replaced = &source[constant.start..constant.end];
        let value = if constant.value == 0.0 {
            zero_signs[constant.function]
        } else {
            constant.value
        };
        let read_otherwise = tokens
            .iter()
            .filter(|token| constant.start <= token.start && token.end <= constant.end)
            .any(|token| token.kind == Kind::Number && number_replacement(token.text).is_some());
        let text = if value == 0.0 && value.is_sign_negative() {
            functions.negative_zero.to_string()
        } else if constant.tokens == 1 {
            match number_replacement(replaced) {
                Some(text) => text,
                None => continue,
            }
        } else if value == 0.0 || !value.is_finite() || read_otherwise {
            number_literal(value)
        } else {
            continue;
        };
        // The lines the constant spanned stay lines, so that every later line keeps its number.
        let breaks = "\n".repeat(replaced.matches('\n').count());
        edits.push(Edit {
            position: constant.start,
            rank: 2,
            sequence: 0,
            text: format!("{text}{breaks}"),
            replaced: constant.end - constant.start,
        });
        written.push((constant.start, constant.end));
    }
    let inside_a_constant =
        |start: usize, end: usize| written.iter().any(|&(from, to)| from <= start && end <= to);
    for (index, operation) in parser.operations.iter().enumerate() {
        if inside_a_constant(operation.left, operation.right) {
            continue;
        }
        let function = match operation.operator_text {
            ".." => functions.concat,
            "^" => functions.power,
            _ => functions.modulo,
        };
        let sequence = index as isize;
        edits.push(Edit {
            position: operation.left,
            rank: 1,
            sequence: -sequence,
            text: format!("{function}("),
            replaced: 0,
        });
        edits.push(Edit {
            position: operation.operator.0,
            rank: 2,
            sequence: 0,
            text: ",".to_string(),
            replaced: operation.operator.1 - operation.operator.0,
        });
        edits.push(Edit {
            position: operation.right,
            rank: 0,
            sequence,
            text: ")".to_string(),
            replaced: 0,
        });
    }
    edits.sort_by_key(|edit| (edit.position, edit.rank, edit.sequence));
    let mut out = String::with_capacity(source.len() + edits.len() * 16);
    let mut copied = 0;
    for edit in edits {
        out.push_str(&source[copied..edit.position.max(copied)]);
        out.push_str(&edit.text);
        copied = copied.max(edit.position + edit.replaced);
    }
    out.push_str(&source[copied..]);
    Some(out)
}

/// The constants not inside another: what gopher-lua's compiler puts in a constant table.
fn outermost(mut constants: Vec<Constant>) -> Vec<Constant> {
    // By start, the longest first: each constant is inside the last one kept or after it.
    constants.sort_by_key(|constant| (constant.start, std::cmp::Reverse(constant.end)));
    let mut kept: Vec<Constant> = Vec::with_capacity(constants.len());
    for constant in constants {
        if kept.last().is_some_and(|last| constant.end <= last.end) {
            continue;
        }
        kept.push(constant);
    }
    kept
}

/// Per function, the zero its constant table holds first (gopher-lua compile.go
/// `ConstIndex`: a later `0` or `-0.0` is found equal to it and shares its slot), in the order
/// the constants appear; `0.0` where a function holds none.
fn first_zero_signs(constants: &[Constant], functions: usize) -> Vec<f64> {
    let mut signs: Vec<Option<f64>> = vec![None; functions];
    for constant in constants {
        if constant.value == 0.0 && signs[constant.function].is_none() {
            signs[constant.function] = Some(constant.value);
        }
    }
    signs.into_iter().map(|sign| sign.unwrap_or(0.0)).collect()
}

/// gopher-lua's value of a number literal as its lexer cut it: one leading zero before a
/// digit dropped (scanNumber), then `parseNumber` (Go's `ParseInt` in base 0, else
/// `ParseFloat`); a literal Go cannot read is NaN (compile.go).
fn gopher_value(literal: &str) -> f64 {
    let bytes = literal.as_bytes();
    let read = if bytes.len() > 1 && bytes[0] == b'0' && bytes[1].is_ascii_digit() {
        &literal[1..]
    } else {
        literal
    };
    super::gopher::parse_number(read.as_bytes()).unwrap_or(f64::NAN)
}

/// C Lua's value of a literal (`strtod`, which reads hexadecimal too).
fn c_value(literal: &str) -> Option<f64> {
    match literal
        .strip_prefix("0x")
        .or_else(|| literal.strip_prefix("0X"))
    {
        Some(hexadecimal) => {
            Some(u128::from_str_radix(hexadecimal, 16).map_or(f64::INFINITY, |value| value as f64))
        }
        None => literal.parse().ok(),
    }
}

/// What to write instead of a number literal that C Lua would read otherwise than gopher-lua.
fn number_replacement(literal: &str) -> Option<String> {
    let gopher = gopher_value(literal);
    let same = c_value(literal).is_some_and(|c| c.to_bits() == gopher.to_bits());
    (!same).then(|| number_literal(gopher))
}

/// A Lua expression for a double that C Lua reads back exactly.
fn number_literal(value: f64) -> String {
    if value.is_nan() {
        "(0/0)".to_string()
    } else if value.is_infinite() {
        if value > 0.0 { "(1/0)" } else { "(-1/0)" }.to_string()
    } else if value == 0.0 {
        // A negative zero is never written: C Lua would share its slot with `0`.
        "0".to_string()
    } else if value < 0.0 {
        format!("(-{:e})", -value)
    } else {
        format!("{value:e}")
    }
}

/// llex.c, as far as telling tokens apart needs: names, numbers, strings (short and long),
/// comments, symbols.
fn lex(source: &str) -> Option<(Vec<Token<'_>>, Vec<Edit>)> {
    let bytes = source.as_bytes();
    let mut tokens = Vec::new();
    let mut edits = Vec::new();
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
                Some(level) => {
                    let end = close_long_bracket(bytes, at, level)?;
                    edits.extend(relevel(source, at, end, level));
                    at = end;
                }
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
            // gopher-lua's scanNumber: `0x` and hexadecimal digits, or digits, one fraction
            // and an exponent; what follows is the next token (`0.5..` is `0.5` and `..`).
            let digits = |mut at: usize| {
                while at < bytes.len() && bytes[at].is_ascii_digit() {
                    at += 1;
                }
                at
            };
            if byte == b'0' && matches!(bytes.get(at + 1), Some(b'x' | b'X')) {
                at += 2;
                while at < bytes.len() && bytes[at].is_ascii_hexdigit() {
                    at += 1;
                }
                if at == start + 2 {
                    return None;
                }
            } else {
                at = digits(at + 1);
                if byte != b'.' && bytes.get(at) == Some(&b'.') {
                    at = digits(at + 1);
                }
                if matches!(bytes.get(at), Some(b'e' | b'E')) {
                    at += 1;
                    if matches!(bytes.get(at), Some(b'+' | b'-')) {
                        at += 1;
                    }
                    if !bytes.get(at).is_some_and(u8::is_ascii_digit) {
                        return None;
                    }
                    at = digits(at);
                }
            }
            // A name glued to a number is no number gopher-lua or Lua reads.
            if bytes
                .get(at)
                .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_')
            {
                return None;
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
            let end = close_long_bracket(bytes, at, level)?;
            edits.extend(relevel(source, at, end, level));
            at = end;
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
    Some((tokens, edits))
}

/// The long bracket `[[`…`]]` from `start` to `end` again with as many `=` as its text needs,
/// when it holds a `[[` (Lua 5.1 refuses that nesting at level 0; gopher-lua reads it as text).
fn relevel(source: &str, start: usize, end: usize, level: usize) -> Option<Edit> {
    let text = &source[start + 2..end - 2];
    if level != 0 || !text.contains("[[") {
        return None;
    }
    let equals = (1..)
        .map(|count| "=".repeat(count))
        .find(|equals| !text.contains(&format!("]{equals}]")))?;
    Some(Edit {
        position: start,
        rank: 2,
        sequence: 0,
        text: format!("[{equals}[{text}]{equals}]"),
        replaced: end - start,
    })
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

/// One `..`, `%` or `^`: where its left operand starts, the operator, where its right operand
/// ends.
struct Operation {
    left: usize,
    operator: (usize, usize),
    operator_text: &'static str,
    right: usize,
}

/// An expression gopher-lua's compiler makes a constant: a number literal, or arithmetic on
/// constants (compile.go `constFold`), with its value and the function whose constant table
/// holds it.
struct Constant {
    start: usize,
    end: usize,
    value: f64,
    /// How many tokens it spans: 1 for a literal as written.
    tokens: usize,
    function: usize,
}

/// An expression's end, and its value where it is a constant.
type Parsed = (usize, Option<f64>);

struct Parser<'t, 'a> {
    tokens: &'t [Token<'a>],
    at: usize,
    operations: Vec<Operation>,
    constants: Vec<Constant>,
    /// The function being parsed (0: the chunk), and how many there are.
    function: usize,
    functions: usize,
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
        let enclosing = self.function;
        self.function = self.functions;
        self.functions += 1;
        self.parameters_and_body()?;
        self.function = enclosing;
        Some(())
    }

    fn parameters_and_body(&mut self) -> Option<()> {
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
            .map(|(start, (end, _))| (start, end))
    }

    /// An expression's start, end and constant value.
    fn constant_expression(&mut self) -> Option<(usize, Parsed)> {
        self.nested(|parser| parser.binary(0))
    }

    /// lparser.c `subexpr`: operands and binary operators above priority `limit`; with the
    /// value gopher-lua folds the whole to, where it folds it.
    fn binary(&mut self, limit: u8) -> Option<(usize, Parsed)> {
        let start = self.peek()?.start;
        let first = self.at;
        let (mut end, mut value);
        if self.is("not") || self.is("-") || self.is("#") {
            let negation = self.is("-");
            self.at += 1;
            let (_, (operand_end, operand)) =
                self.nested(|parser| parser.binary(UNARY_PRIORITY))?;
            end = operand_end;
            value = operand.filter(|_| negation).map(|operand| -operand);
        } else {
            (end, value) = self.simple()?;
        }
        self.record(start, end, value, first);
        while let Some(&operator) = self.peek() {
            let Some((left, right)) = priority(&operator) else {
                break;
            };
            if left <= limit {
                break;
            }
            self.at += 1;
            let (_, (right_end, right_value)) = self.nested(|parser| parser.binary(right))?;
            if let Some(operator_text) = match operator.text {
                ".." => Some(".."),
                "%" => Some("%"),
                "^" => Some("^"),
                _ => None,
            } {
                self.operations.push(Operation {
                    left: start,
                    operator: (operator.start, operator.end),
                    operator_text,
                    right: right_end,
                });
            }
            value = match (value, right_value) {
                (Some(left), Some(right)) => fold(operator.text, left, right),
                _ => None,
            };
            end = right_end;
            self.record(start, end, value, first);
        }
        Some((start, (end, value)))
    }

    /// Notes a constant spanning `start..end`, whose first token is `first`.
    fn record(&mut self, start: usize, end: usize, value: Option<f64>, first: usize) {
        if let Some(value) = value {
            self.constants.push(Constant {
                start,
                end,
                value,
                tokens: self.at - first,
                function: self.function,
            });
        }
    }

    /// A simple expression: a literal, `...`, a function, a table, or a suffixed expression.
    fn simple(&mut self) -> Option<Parsed> {
        let token = *self.peek()?;
        match (token.kind, token.text) {
            (Kind::Number, _) => {
                self.at += 1;
                Some((token.end, Some(gopher_value(token.text))))
            }
            (Kind::String, _)
            | (Kind::Keyword, "nil" | "true" | "false")
            | (Kind::Symbol, "...") => {
                self.at += 1;
                Some((token.end, None))
            }
            (Kind::Keyword, "function") => {
                self.at += 1;
                self.function_body()?;
                Some((self.tokens[self.at - 1].end, None))
            }
            (Kind::Symbol, "{") => self.table().map(|end| (end, None)),
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

    /// A name or parenthesised expression followed by fields, indexes and calls; a
    /// parenthesised constant with nothing after it is that constant (gopher-lua's parser
    /// keeps no node for parentheses).
    fn suffixed(&mut self) -> Option<Parsed> {
        let mut value = None;
        if self.eat("(") {
            value = self.constant_expression()?.1.1;
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
                return Some((self.tokens[self.at - 1].end, value));
            }
            value = None;
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

/// gopher-lua's folding of `left operator right` for two constants (compile.go `constFold`):
/// Go's float arithmetic, `%` as vm.go `luaModulo`, `^` as Go's `math.Pow`; `None` for an
/// operator it does not fold.
fn fold(operator: &str, left: f64, right: f64) -> Option<f64> {
    Some(match operator {
        "+" => left + right,
        "-" => left - right,
        "*" => left * right,
        "/" => left / right,
        "%" => super::gopher::lua_modulo(left, right),
        "^" => super::gopher::go_pow(left, right),
        _ => return None,
    })
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
        rewrite(
            source,
            &Functions {
                concat: "C",
                modulo: "M",
                power: "P",
                negative_zero: "Z",
            },
        )
        .expect("parses")
    }

    #[test]
    fn each_concatenation_becomes_a_call_right_to_left() {
        assert_eq!(rewritten("x = a .. b"), "x = C(a , b)");
        assert_eq!(rewritten("x = a .. b .. c"), "x = C(a , C(b , c))");
        assert_eq!(rewritten("x = (a .. b) .. c"), "x = C((C(a , b)) , c)");
        assert_eq!(rewritten("x = 1 + 2 .. 3 * 4"), "x = C(1 + 2 , 3 * 4)");
        assert_eq!(rewritten("x = a == b .. c"), "x = a == C(b , c)");
        assert_eq!(rewritten("x = -a .. #t"), "x = C(-a , #t)");
        assert_eq!(rewritten("x = 2^k .. ''"), "x = C(P(2,k) , '')");
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
        let functions = Functions {
            concat: "C",
            modulo: "M",
            power: "P",
            negative_zero: "Z",
        };
        assert_eq!(rewrite("x = a ..", &functions), None);
        assert_eq!(rewrite("x = 'open ..", &functions), None);
    }

    #[test]
    fn modulo_becomes_a_call_with_its_operands() {
        assert_eq!(rewritten("x = a % b"), "x = M(a , b)");
        assert_eq!(rewritten("x = a % b % c"), "x = M(M(a , b) , c)");
        assert_eq!(rewritten("x = -a % b * c"), "x = M(-a , b) * c");
        assert_eq!(rewritten("x = a .. b % c"), "x = C(a , M(b , c))");
        assert_eq!(rewritten("x = a%b..c"), "x = C(M(a,b),c)");
        assert_eq!(rewritten("x = 1 + t[i % 2]"), "x = 1 + t[M(i , 2)]");
        assert_eq!(rewritten("x = -a ^ b ^ c"), "x = -P(a , P(b , c))");
        assert_eq!(rewritten("x = a ^ b .. c"), "x = C(P(a , b) , c)");
    }

    /// gopher-lua compile.go: `constFold` folds arithmetic on constants through parentheses,
    /// and `ConstIndex` gives a zero the sign of its function's first zero constant. Go's
    /// answers are in gopher-lua/scripts.jsonl ("zero constants share a slot").
    #[test]
    fn constants_are_folded_and_zeros_share_their_functions_first_sign() {
        // Folded where C Lua would leave it to run time, reading the slot of `-0.0`.
        assert_eq!(rewritten("local a = -0.0 x = 1/0"), "local a = Z x = (1/0)");
        assert_eq!(rewritten("x = 1 / (0 * -1)"), "x = (-1/0)");
        // The first zero is positive: a later `-0.0` is `0`.
        assert_eq!(rewritten("local a = 0 x = -0.0"), "local a = 0 x = 0");
        // Each function has its own table.
        assert_eq!(
            rewritten("local a = -0.0 f = function() return 0 end x = 0"),
            "local a = Z f = function() return 0 end x = Z"
        );
        // C Lua folds the rest alike: left as written; `%` and `^` of constants are folded.
        assert_eq!(rewritten("x = -1 + 2 * 3"), "x = -1 + 2 * 3");
        assert_eq!(rewritten("x = 2 ^ 2 + y % 3"), "x = P(2 , 2) + M(y , 3)");
        assert_eq!(rewritten("x = -1 % 1"), "x = Z");
        // A constant over several lines keeps them.
        assert_eq!(rewritten("x = 1 /\n0\ny = 1"), "x = (1/0)\n\ny = 1");
    }

    #[test]
    fn literals_are_read_as_gopher_lua_reads_them() {
        assert_eq!(rewritten("x = 0.5..'x'"), "x = C(0.5,'x')");
        assert_eq!(rewritten("x = 1e309"), "x = (0/0)");
        assert_eq!(rewritten("x = -0x8000000000000000"), "x = (0/0)");
        // gopher-lua reads `0017` as octal 15: the sum is folded with it.
        assert_eq!(rewritten("x = 0017 + 017 + 0x10"), "x = 4.8e1");
        assert_eq!(rewritten("x = 017 + y"), "x = 017 + y");
        assert_eq!(rewritten("x = 7 / -0.0"), "x = (-1/0)");
        assert_eq!(rewritten("x = y / -0.0 + 7 / 2"), "x = y / Z + 7 / 2");
        assert_eq!(rewritten("x = [[a[[b]]"), "x = [=[a[[b]=]");
        assert_eq!(rewritten("--[[ [[ ]]\nx = 1"), "--[=[ [[ ]=]\nx = 1");
    }
}
