//! text/template's parser (text/template/parse/parse.go and node.go, to the package
//! documentation): a tree of text and actions per template, `define` and `block` adding named
//! templates beside the main one. Messages are Go's: `template: NAME:LINE: …`.

use super::lexer::{Kind, Token, lex};
use super::number::{Number, number};
use super::unquote::unquote;
use std::collections::BTreeMap;

/// A node of a template's list.
#[derive(Debug, Clone)]
pub(super) enum Node {
    Text(String),
    Action(Pipe),
    If(Control),
    With(Control),
    Range(Control),
    Template {
        pos: usize,
        name: String,
        pipe: Option<Pipe>,
    },
    Break,
    Continue,
}

/// `{{if}}`, `{{with}}`, `{{range}}`: a pipeline, a list and an optional else list.
#[derive(Debug, Clone)]
pub(super) struct Control {
    pub pipe: Pipe,
    pub list: Vec<Node>,
    pub else_list: Option<Vec<Node>>,
}

#[derive(Debug, Clone)]
pub(super) struct Pipe {
    pub pos: usize,
    pub is_assign: bool,
    pub decl: Vec<String>,
    pub cmds: Vec<Command>,
}

#[derive(Debug, Clone)]
pub(super) struct Command {
    pub pos: usize,
    pub args: Vec<Arg>,
}

/// An operand (node.go's argument nodes).
#[derive(Debug, Clone)]
pub(super) enum Arg {
    Field {
        pos: usize,
        idents: Vec<String>,
    },
    /// `$x.a.b`: the variable's name first.
    Variable {
        pos: usize,
        idents: Vec<String>,
    },
    Chain {
        pos: usize,
        node: Box<Arg>,
        fields: Vec<String>,
    },
    Identifier {
        pos: usize,
        name: String,
    },
    Dot(usize),
    Nil(usize),
    Bool(usize, bool),
    Number(usize, Number),
    String {
        pos: usize,
        quoted: String,
        value: String,
    },
    Pipe(Box<Pipe>),
}

impl Arg {
    pub fn pos(&self) -> usize {
        match self {
            Arg::Field { pos, .. }
            | Arg::Variable { pos, .. }
            | Arg::Chain { pos, .. }
            | Arg::Identifier { pos, .. }
            | Arg::Dot(pos)
            | Arg::Nil(pos)
            | Arg::Bool(pos, _)
            | Arg::Number(pos, _)
            | Arg::String { pos, .. } => *pos,
            Arg::Pipe(pipe) => pipe.pos,
        }
    }
}

impl std::fmt::Display for Arg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Arg::Field { idents, .. } => {
                for ident in idents {
                    write!(f, ".{ident}")?;
                }
                Ok(())
            }
            Arg::Variable { idents, .. } => f.write_str(&idents.join(".")),
            Arg::Chain { node, fields, .. } => {
                if let Arg::Pipe(_) = **node {
                    write!(f, "({node})")?;
                } else {
                    write!(f, "{node}")?;
                }
                for field in fields {
                    write!(f, ".{field}")?;
                }
                Ok(())
            }
            Arg::Identifier { name, .. } => f.write_str(name),
            Arg::Dot(_) => f.write_str("."),
            Arg::Nil(_) => f.write_str("nil"),
            Arg::Bool(_, value) => write!(f, "{value}"),
            Arg::Number(_, number) => f.write_str(&number.text),
            Arg::String { quoted, .. } => f.write_str(quoted),
            Arg::Pipe(pipe) => write!(f, "{pipe}"),
        }
    }
}

impl std::fmt::Display for Command {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, arg) in self.args.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            if let Arg::Pipe(_) = arg {
                write!(f, "({arg})")?;
            } else {
                write!(f, "{arg}")?;
            }
        }
        Ok(())
    }
}

impl std::fmt::Display for Pipe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if !self.decl.is_empty() {
            f.write_str(&self.decl.join(", "))?;
            f.write_str(if self.is_assign { " = " } else { " := " })?;
        }
        for (i, cmd) in self.cmds.iter().enumerate() {
            if i > 0 {
                f.write_str(" | ")?;
            }
            write!(f, "{cmd}")?;
        }
        Ok(())
    }
}

/// Every template a text defines: the main one under `name`, and each `define` and `block`.
pub(super) type Templates = BTreeMap<String, Vec<Node>>;

/// Parses `text` as the template `name`; `is_function` says which identifiers are functions.
pub(super) fn parse(
    name: &str,
    text: &str,
    is_function: &dyn Fn(&str) -> bool,
) -> Result<Templates, String> {
    let mut parser = Parser {
        name: name.to_string(),
        tokens: lex(text),
        at: 0,
        vars: vec!["$".to_string()],
        range_depth: 0,
        action_line: 0,
        is_function,
        templates: BTreeMap::new(),
        furthest: 0,
    };
    let root = parser.parse_top()?;
    parser.add(name.to_string(), root)?;
    Ok(parser.templates)
}

enum End {
    End,
    Else,
}

struct Parser<'a> {
    name: String,
    tokens: Vec<Token>,
    at: usize,
    vars: Vec<String>,
    range_depth: usize,
    action_line: usize,
    is_function: &'a dyn Fn(&str) -> bool,
    templates: Templates,
    furthest: usize,
}

type Parsed<T> = Result<T, String>;

impl Parser<'_> {
    fn next(&mut self) -> Token {
        let index = self.at.min(self.tokens.len() - 1);
        self.furthest = self.furthest.max(index);
        let token = self.tokens[index].clone();
        self.at += 1;
        token
    }

    fn backup(&mut self) {
        self.at -= 1;
    }

    fn peek(&mut self) -> &Token {
        let index = self.at.min(self.tokens.len() - 1);
        self.furthest = self.furthest.max(index);
        &self.tokens[index]
    }

    fn next_non_space(&mut self) -> Token {
        loop {
            let token = self.next();
            if token.kind != Kind::Space {
                return token;
            }
        }
    }

    fn peek_non_space(&mut self) -> Token {
        let token = self.next_non_space();
        self.backup();
        token
    }

    /// The line of the furthest token read, lookahead included, as parse.go's `t.token[0]`.
    fn line(&self) -> usize {
        self.tokens[self.furthest.min(self.tokens.len() - 1)].line
    }

    fn error<T>(&self, message: String) -> Parsed<T> {
        Err(format!(
            "template: {}:{}: {}",
            self.name,
            self.line(),
            message
        ))
    }

    fn unexpected<T>(&self, token: &Token, context: &str) -> Parsed<T> {
        if token.kind == Kind::Error {
            let mut extra = String::new();
            if self.action_line != 0 && self.action_line != token.line {
                extra = format!(" in action started at {}:{}", self.name, self.action_line);
                if token.text.ends_with(" action") {
                    extra = extra[" in action".len()..].to_string();
                }
            }
            return self.error(format!("{}{}", token.text, extra));
        }
        self.error(format!("unexpected {} in {}", token.describe(), context))
    }

    fn expect(&mut self, kind: Kind, context: &str) -> Parsed<Token> {
        let token = self.next_non_space();
        if token.kind != kind {
            return self.unexpected(&token, context);
        }
        Ok(token)
    }

    fn add(&mut self, name: String, root: Vec<Node>) -> Parsed<()> {
        match self.templates.get(&name) {
            Some(existing) if !is_empty(existing) && !is_empty(&root) => self.error(format!(
                "template: multiple definition of template {name:?}"
            )),
            Some(existing) if !is_empty(existing) => Ok(()),
            _ => {
                self.templates.insert(name, root);
                Ok(())
            }
        }
    }

    fn parse_top(&mut self) -> Parsed<Vec<Node>> {
        let mut list = Vec::new();
        while self.peek().kind != Kind::Eof {
            if self.peek().kind == Kind::LeftDelim {
                self.next();
                let keyword = self.next_non_space();
                if keyword.kind == Kind::Keyword && keyword.text == "define" {
                    self.parse_definition()?;
                    continue;
                }
                self.backup();
                self.backup();
                while self.peek().kind != Kind::LeftDelim {
                    self.backup();
                }
            }
            match self.text_or_action()? {
                Item::Node(node) => list.push(node),
                Item::Nothing => {}
                Item::End => return self.error("unexpected {{end}}".to_string()),
                Item::Else => return self.error("unexpected {{else}}".to_string()),
            }
        }
        Ok(list)
    }

    fn parse_definition(&mut self) -> Parsed<()> {
        let context = "define clause";
        let token = self.next_non_space();
        let name = self.template_name(&token, context)?;
        self.expect(Kind::RightDelim, context)?;
        let saved = std::mem::replace(&mut self.vars, vec!["$".to_string()]);
        let (list, end) = self.item_list()?;
        self.vars = saved;
        if let End::Else = end {
            return self.error(format!("unexpected {{{{else}}}} in {context}"));
        }
        self.add(name, list)
    }

    fn template_name(&self, token: &Token, context: &str) -> Parsed<String> {
        match token.kind {
            Kind::String | Kind::RawString => unquote(&token.text).or_else(|e| self.error(e)),
            _ => self.unexpected(token, context),
        }
    }

    fn item_list(&mut self) -> Parsed<(Vec<Node>, End)> {
        let mut list = Vec::new();
        while self.peek_non_space().kind != Kind::Eof {
            match self.text_or_action()? {
                Item::Node(node) => list.push(node),
                Item::Nothing => {}
                Item::End => return Ok((list, End::End)),
                Item::Else => return Ok((list, End::Else)),
            }
        }
        self.error("unexpected EOF".to_string())
    }

    fn text_or_action(&mut self) -> Parsed<Item> {
        let token = self.next_non_space();
        match token.kind {
            Kind::Text => Ok(Item::Node(Node::Text(token.text))),
            Kind::LeftDelim => {
                self.action_line = self.peek().line;
                let item = self.action();
                self.action_line = 0;
                item
            }
            Kind::Comment => Ok(Item::Nothing),
            _ => self.unexpected(&token, "input"),
        }
    }

    fn action(&mut self) -> Parsed<Item> {
        let token = self.next_non_space();
        if token.kind == Kind::Keyword {
            return match token.text.as_str() {
                "block" => self.block_control().map(Item::Node),
                "break" | "continue" => self.break_control(&token).map(Item::Node),
                "else" => self.else_control(),
                "end" => {
                    self.expect(Kind::RightDelim, "end")?;
                    Ok(Item::End)
                }
                "if" => self.control("if").map(|c| Item::Node(Node::If(c))),
                "range" => self.control("range").map(|c| Item::Node(Node::Range(c))),
                "with" => self.control("with").map(|c| Item::Node(Node::With(c))),
                "template" => self.template_control().map(Item::Node),
                _ => {
                    self.backup();
                    let pipe = self.pipeline("command", Kind::RightDelim)?;
                    Ok(Item::Node(Node::Action(pipe)))
                }
            };
        }
        self.backup();
        let pipe = self.pipeline("command", Kind::RightDelim)?;
        Ok(Item::Node(Node::Action(pipe)))
    }

    fn break_control(&mut self, keyword: &Token) -> Parsed<Node> {
        let context = format!("{{{{{}}}}}", keyword.text);
        let token = self.next_non_space();
        if token.kind != Kind::RightDelim {
            return self.unexpected(&token, &context);
        }
        if self.range_depth == 0 {
            return self.error(format!("{context} outside {{{{range}}}}"));
        }
        Ok(if keyword.text == "break" {
            Node::Break
        } else {
            Node::Continue
        })
    }

    fn else_control(&mut self) -> Parsed<Item> {
        let peek = self.peek_non_space();
        if peek.kind == Kind::Keyword && (peek.text == "if" || peek.text == "with") {
            return Ok(Item::Else);
        }
        self.expect(Kind::RightDelim, "else")?;
        Ok(Item::Else)
    }

    fn control(&mut self, context: &str) -> Parsed<Control> {
        let vars = self.vars.len();
        let pipe = self.pipeline(context, Kind::RightDelim)?;
        if context == "range" {
            self.range_depth += 1;
        }
        let (list, end) = self.item_list()?;
        if context == "range" {
            self.range_depth -= 1;
        }
        let mut else_list = None;
        if let End::Else = end {
            let peek = self.peek_non_space();
            if peek.kind == Kind::Keyword
                && ((context == "if" && peek.text == "if")
                    || (context == "with" && peek.text == "with"))
            {
                self.next_non_space();
                let nested = self.control(context)?;
                else_list = Some(vec![if context == "if" {
                    Node::If(nested)
                } else {
                    Node::With(nested)
                }]);
            } else {
                let (list, end) = self.item_list()?;
                if let End::Else = end {
                    return self.error("expected end; found {{else}}".to_string());
                }
                else_list = Some(list);
            }
        }
        self.vars.truncate(vars);
        Ok(Control {
            pipe,
            list,
            else_list,
        })
    }

    fn template_control(&mut self) -> Parsed<Node> {
        let context = "template clause";
        let token = self.next_non_space();
        let name = self.template_name(&token, context)?;
        let mut pipe = None;
        if self.next_non_space().kind != Kind::RightDelim {
            self.backup();
            pipe = Some(self.pipeline(context, Kind::RightDelim)?);
        }
        Ok(Node::Template {
            pos: token.pos,
            name,
            pipe,
        })
    }

    fn block_control(&mut self) -> Parsed<Node> {
        let context = "block clause";
        let token = self.next_non_space();
        let name = self.template_name(&token, context)?;
        let pipe = self.pipeline(context, Kind::RightDelim)?;
        let saved = std::mem::replace(&mut self.vars, vec!["$".to_string()]);
        let (list, end) = self.item_list()?;
        self.vars = saved;
        if let End::Else = end {
            return self.error(format!("unexpected {{{{else}}}} in {context}"));
        }
        self.add(name.clone(), list)?;
        Ok(Node::Template {
            pos: token.pos,
            name,
            pipe: Some(pipe),
        })
    }

    fn pipeline(&mut self, context: &str, end: Kind) -> Parsed<Pipe> {
        let start = self.peek_non_space();
        let mut pipe = Pipe {
            pos: start.pos,
            is_assign: false,
            decl: Vec::new(),
            cmds: Vec::new(),
        };
        loop {
            let variable = self.peek_non_space();
            if variable.kind != Kind::Variable {
                break;
            }
            let mark = self.at;
            self.next_non_space();
            let next = self.peek_non_space();
            match next.kind {
                Kind::Assign | Kind::Declare => {
                    pipe.is_assign = next.kind == Kind::Assign;
                    self.next_non_space();
                    pipe.decl.push(variable.text.clone());
                    self.vars.push(variable.text);
                    break;
                }
                Kind::Char if next.text == "," => {
                    self.next_non_space();
                    pipe.decl.push(variable.text.clone());
                    self.vars.push(variable.text);
                    if context == "range" && pipe.decl.len() < 2 {
                        match self.peek_non_space().kind {
                            Kind::Variable | Kind::RightDelim | Kind::RightParen => continue,
                            _ => return self.error("range can only initialize variables".into()),
                        }
                    }
                    return self.error(format!("too many declarations in {context}"));
                }
                _ => {
                    self.at = mark;
                    break;
                }
            }
        }
        loop {
            let token = self.next_non_space();
            if token.kind == end {
                return self.check_pipeline(pipe, context);
            }
            match token.kind {
                Kind::Bool
                | Kind::CharConstant
                | Kind::Dot
                | Kind::Field
                | Kind::Identifier
                | Kind::Number
                | Kind::Nil
                | Kind::RawString
                | Kind::String
                | Kind::Variable
                | Kind::LeftParen => {
                    self.backup();
                    let command = self.command()?;
                    pipe.cmds.push(command);
                }
                _ => return self.unexpected(&token, context),
            }
        }
    }

    fn check_pipeline(&self, pipe: Pipe, context: &str) -> Parsed<Pipe> {
        if pipe.cmds.is_empty() {
            return self.error(format!("missing value for {context}"));
        }
        for (i, cmd) in pipe.cmds.iter().enumerate().skip(1) {
            if matches!(
                cmd.args[0],
                Arg::Bool(..) | Arg::Dot(_) | Arg::Nil(_) | Arg::Number(..) | Arg::String { .. }
            ) {
                return self.error(format!(
                    "non executable command in pipeline stage {}",
                    i + 1
                ));
            }
        }
        Ok(pipe)
    }

    fn command(&mut self) -> Parsed<Command> {
        let mut cmd = Command {
            pos: self.peek_non_space().pos,
            args: Vec::new(),
        };
        loop {
            self.peek_non_space();
            if let Some(operand) = self.operand()? {
                cmd.args.push(operand);
            }
            let token = self.next();
            match token.kind {
                Kind::Space => continue,
                Kind::RightDelim | Kind::RightParen => self.backup(),
                Kind::Pipe => {}
                _ => return self.unexpected(&token, "operand"),
            }
            break;
        }
        if cmd.args.is_empty() {
            return self.error("empty command".to_string());
        }
        Ok(cmd)
    }

    fn operand(&mut self) -> Parsed<Option<Arg>> {
        let Some(node) = self.term()? else {
            return Ok(None);
        };
        if self.peek().kind != Kind::Field {
            return Ok(Some(node));
        }
        let chain_pos = self.peek().pos;
        let mut fields = Vec::new();
        while self.peek().kind == Kind::Field {
            fields.push(self.next().text[1..].to_string());
        }
        Ok(Some(match node {
            Arg::Field { mut idents, .. } => {
                idents.extend(fields);
                Arg::Field {
                    pos: chain_pos,
                    idents,
                }
            }
            Arg::Variable { mut idents, .. } => {
                idents.extend(fields);
                Arg::Variable {
                    pos: chain_pos,
                    idents,
                }
            }
            Arg::Bool(..) | Arg::String { .. } | Arg::Number(..) | Arg::Nil(_) | Arg::Dot(_) => {
                return self.error(format!("unexpected . after term {:?}", node.to_string()));
            }
            other => Arg::Chain {
                pos: chain_pos,
                node: Box::new(other),
                fields,
            },
        }))
    }

    fn term(&mut self) -> Parsed<Option<Arg>> {
        let token = self.next_non_space();
        Ok(Some(match token.kind {
            Kind::Identifier => {
                if !(self.is_function)(&token.text) {
                    if super::funcs::is_nondeterministic_sprig(&token.text) {
                        return self.error(format!(
                            "function {:?} is sprig's, and its answer changes each time Argo \
                             CD renders the template: fedrender cannot say what it would be",
                            token.text
                        ));
                    }
                    if super::funcs::is_unimplemented_sprig(&token.text) {
                        return self.error(format!(
                            "function {:?} is sprig's, which Argo CD's templates have and \
                             fedrender does not implement yet",
                            token.text
                        ));
                    }
                    return self.error(format!("function {:?} not defined", token.text));
                }
                Arg::Identifier {
                    pos: token.pos,
                    name: token.text,
                }
            }
            Kind::Dot => Arg::Dot(token.pos),
            Kind::Nil => Arg::Nil(token.pos),
            Kind::Variable => {
                if !self.vars.contains(&token.text) {
                    return self.error(format!("undefined variable {:?}", token.text));
                }
                Arg::Variable {
                    pos: token.pos,
                    idents: vec![token.text],
                }
            }
            Kind::Field => Arg::Field {
                pos: token.pos,
                idents: vec![token.text[1..].to_string()],
            },
            Kind::Bool => Arg::Bool(token.pos, token.text == "true"),
            Kind::CharConstant | Kind::Number => {
                let number = number(&token).or_else(|e| self.error(e))?;
                Arg::Number(token.pos, number)
            }
            Kind::LeftParen => {
                let pipe = self.pipeline("parenthesized pipeline", Kind::RightParen)?;
                Arg::Pipe(Box::new(pipe))
            }
            Kind::String | Kind::RawString => {
                let value = unquote(&token.text).or_else(|e| self.error(e))?;
                Arg::String {
                    pos: token.pos,
                    quoted: token.text,
                    value,
                }
            }
            _ => {
                self.backup();
                return Ok(None);
            }
        }))
    }
}

enum Item {
    Node(Node),
    Nothing,
    End,
    Else,
}

fn is_empty(list: &[Node]) -> bool {
    list.iter().all(|node| match node {
        Node::Text(text) => text.trim().is_empty(),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse("base", text, &|name| name == "printf").unwrap_err()
    }

    // Go text/template/parse parse_test.go parseTests (the "error" rows) and builtinTests.
    #[test]
    fn parse_errors_are_go_s() {
        assert_eq!(
            err("{{ nope }}"),
            r#"template: base:1: function "nope" not defined"#
        );
        assert_eq!(err("{{if}}"), "template: base:1: missing value for if");
        assert_eq!(err("{{end}}"), "template: base:1: unexpected {{end}}");
        assert_eq!(err("{{if .x}}"), "template: base:1: unexpected EOF");
        assert_eq!(
            err("{{ $x }}"),
            r#"template: base:1: undefined variable "$x""#
        );
        assert_eq!(
            err("{{ .x | 3 }}"),
            "template: base:1: non executable command in pipeline stage 2"
        );
        assert_eq!(
            err("{{break}}"),
            "template: base:1: {{break}} outside {{range}}"
        );
        assert_eq!(err("\n{{ .x"), "template: base:2: unclosed action");
        assert_eq!(
            err("{{ 3.x }}"),
            r#"template: base:1: bad number syntax: "3.x""#
        );
        assert_eq!(
            err(r#"{{ "a".x }}"#),
            r#"template: base:1: unexpected . after term "\"a\"""#
        );
    }

    #[test]
    fn chains_collapse_into_fields_at_the_chain_s_position() {
        let templates = parse("base", "{{.a.b}}", &|_| false).unwrap();
        let Node::Action(pipe) = &templates["base"][0] else {
            panic!("an action")
        };
        let arg = &pipe.cmds[0].args[0];
        assert_eq!(arg.to_string(), ".a.b");
        assert_eq!(arg.pos(), 4);
    }

    #[test]
    fn defines_and_blocks_add_templates() {
        let templates = parse(
            "base",
            r#"{{define "x"}}X{{end}}{{block "y" .}}Y{{end}}"#,
            &|_| false,
        )
        .unwrap();
        assert_eq!(templates.keys().collect::<Vec<_>>(), ["base", "x", "y"]);
    }
}
