//! text/template's executor (text/template/exec.go, to the package documentation) over the
//! parameters as JSON values: fields of maps, variables, pipelines, `if`/`with`/`range` with
//! Go's truth, `template`, `break`/`continue`, and function calls with Go's argument checks.
//! Messages are Go's: `template: NAME:LINE:COL: executing "NAME" at <NODE>: …`.

use super::coerce::MOST_BUILT;
use super::funcs;
use super::options::GoOptions;
use super::parse::{Arg, Command, Node, Pipe, Templates};
use super::semver::Version;
use super::signature::{Func, Param};
use super::value::{Value, VersionKind, sprint_value};
use std::rc::Rc;

/// exec.go `maxExecDepth` is 100000; a Rust stack holds fewer nested templates.
const MAX_DEPTH: usize = 1000;

pub(super) struct Exec<'a> {
    pub name: &'a str,
    pub text: &'a str,
    pub templates: &'a Templates,
    pub missing_key_error: bool,
    pub missing_key_zero: bool,
    pub out: String,
    vars: Vec<(String, Value)>,
    node: Option<(usize, String)>,
    depth: usize,
    /// The template being executed, which messages name (`executing "r"`); positions stay the
    /// parsed text's (`base:1:25`).
    current: String,
    /// What the execution has done so far: a unit for each node walked and range step, each
    /// byte written and each byte or item a call returned.
    work: usize,
}

/// How a list ended: normally, or at `{{break}}` / `{{continue}}`.
enum Flow {
    Normal,
    Break,
    Continue,
}

type Run<T> = Result<T, String>;

/// What a command gives the method its last field names: the operands after the field, the
/// value piped in, and the node that error messages name (`<$v.SetPrerelease>`).
struct MethodArgs<'c> {
    dot: Dot,
    args: &'c [Arg],
    final_value: Option<Value>,
    pos: usize,
    node: String,
}

impl<'c> MethodArgs<'c> {
    /// A field read as an operand, which calls a method with no arguments.
    fn none(dot: &Dot, arg: &Arg) -> MethodArgs<'c> {
        MethodArgs {
            dot: dot.clone(),
            args: &[],
            final_value: None,
            pos: arg.pos(),
            node: arg.to_string(),
        }
    }

    fn given(&self) -> usize {
        self.args.len() + usize::from(self.final_value.is_some())
    }
}

/// A value and whether it was read out of a map or list, where Go holds it as `interface {}`.
#[derive(Clone)]
struct Dot {
    value: Value,
    wrapped: bool,
}

impl<'a> Exec<'a> {
    pub fn new(name: &'a str, text: &'a str, templates: &'a Templates, options: GoOptions) -> Self {
        Exec {
            name,
            text,
            templates,
            missing_key_error: options.missing_key_error,
            missing_key_zero: options.missing_key_zero,
            out: String::new(),
            vars: Vec::new(),
            node: None,
            depth: 0,
            current: name.to_string(),
            work: 0,
        }
    }

    pub fn execute(&mut self, data: Value) -> Run<()> {
        let root = &self.templates[self.name];
        self.vars.push(("$".to_string(), data.clone()));
        let dot = Dot {
            value: data,
            wrapped: false,
        };
        self.walk_list(&dot, root)?;
        Ok(())
    }

    fn at(&mut self, pos: usize, context: String) {
        self.node = Some((pos, context));
    }

    fn error<T>(&self, message: String) -> Run<T> {
        match &self.node {
            None => Err(format!("template: {}: {}", self.name, message)),
            Some((pos, context)) => {
                let before = &self.text[..(*pos).min(self.text.len())];
                let line = 1 + before.matches('\n').count();
                let column = match before.rfind('\n') {
                    Some(newline) => pos - newline - 1,
                    None => *pos,
                };
                Err(format!(
                    "template: {}:{line}:{column}: executing {} at <{context}>: {message}",
                    self.name,
                    super::super::quote::quote(&self.current)
                ))
            }
        }
    }

    fn walk_list(&mut self, dot: &Dot, list: &[Node]) -> Run<Flow> {
        for node in list {
            match self.walk(dot, node)? {
                Flow::Normal => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Normal)
    }

    /// Counts `units` of work, and stops the execution once it passes [`MOST_BUILT`]: Argo CD
    /// has no bound, and `{{ range until 100000 }}{{ range until 100000 }}…` would hold the job
    /// for hours.
    fn charge(&mut self, units: usize) -> Run<()> {
        self.work = self.work.saturating_add(units);
        if self.work > MOST_BUILT {
            return self.error(format!(
                "the template's work passes fedrender's bound of {MOST_BUILT} steps and bytes \
                 (a pull request may not exhaust the job)"
            ));
        }
        Ok(())
    }

    fn walk(&mut self, dot: &Dot, node: &Node) -> Run<Flow> {
        self.charge(1)?;
        match node {
            Node::Text(text) => {
                self.charge(text.len())?;
                self.out.push_str(text);
            }
            Node::Action(pipe) => {
                let value = self.eval_pipeline(dot, pipe)?;
                if pipe.decl.is_empty() {
                    let text = match value {
                        Value::Missing | Value::Nil => "<no value>".to_string(),
                        other => sprint_value(&other),
                    };
                    self.charge(text.len())?;
                    self.out.push_str(&text);
                }
            }
            Node::If(control) | Node::With(control) => {
                let with = matches!(node, Node::With(_));
                let mark = self.vars.len();
                let value = self.eval_pipeline(dot, &control.pipe)?;
                let flow = if value.truth() {
                    if with {
                        let inner = Dot {
                            value,
                            wrapped: false,
                        };
                        self.walk_list(&inner, &control.list)?
                    } else {
                        self.walk_list(dot, &control.list)?
                    }
                } else if let Some(else_list) = &control.else_list {
                    self.walk_list(dot, else_list)?
                } else {
                    Flow::Normal
                };
                self.vars.truncate(mark);
                return Ok(flow);
            }
            Node::Range(control) => {
                let mark = self.vars.len();
                let flow = self.walk_range(dot, control)?;
                self.vars.truncate(mark);
                return Ok(flow);
            }
            Node::Template { pos, name, pipe } => {
                let quoted = super::super::quote::quote(name);
                let context = match pipe {
                    Some(pipe) => format!("{{{{template {quoted} {pipe}}}}}"),
                    None => format!("{{{{template {quoted}}}}}"),
                };
                self.at(*pos, context);
                let Some(list) = self.templates.get(name) else {
                    return self.error(format!("template {quoted} not defined"));
                };
                if self.depth >= MAX_DEPTH {
                    return self.error(format!("exceeded maximum template depth ({MAX_DEPTH})"));
                }
                let value = match pipe {
                    Some(pipe) => self.eval_pipeline(dot, pipe)?,
                    None => Value::Missing,
                };
                let saved =
                    std::mem::replace(&mut self.vars, vec![("$".to_string(), value.clone())]);
                self.depth += 1;
                let caller = std::mem::replace(&mut self.current, name.clone());
                let result = self.walk_list(
                    &Dot {
                        value,
                        wrapped: false,
                    },
                    list,
                );
                self.current = caller;
                self.depth -= 1;
                self.vars = saved;
                result?;
            }
            Node::Break => return Ok(Flow::Break),
            Node::Continue => return Ok(Flow::Continue),
        }
        Ok(Flow::Normal)
    }

    fn walk_range(&mut self, dot: &Dot, control: &super::parse::Control) -> Run<Flow> {
        let value = self.eval_pipeline(dot, &control.pipe)?;
        let decl = &control.pipe;
        let mut items: Vec<(Value, Value)> = Vec::new();
        match &value {
            Value::List(list, _) => {
                items = list
                    .iter()
                    .enumerate()
                    .map(|(i, v)| (Value::int(i as i64), v.clone()))
                    .collect();
            }
            Value::Map(map, _) => {
                items = map
                    .borrow()
                    .iter()
                    .map(|(k, v)| (Value::String(k.clone()), v.clone()))
                    .collect();
            }
            Value::Int(n, _) => {
                if decl.decl.len() > 1 {
                    return self.error(format!(
                        "can't use {n} to iterate over more than one variable"
                    ));
                }
                // Each step is charged as it is taken; none is laid out that could not be.
                let steps = usize::try_from(*n).unwrap_or(0);
                if self.work.saturating_add(steps) > MOST_BUILT {
                    self.charge(steps)?;
                }
                items = (0..(*n).max(0))
                    .map(|i| (Value::int(i), Value::int(i)))
                    .collect();
            }
            Value::Missing | Value::Nil => {}
            other => {
                return self.error(format!("range can't iterate over {}", sprint_value(other)));
            }
        }
        if items.is_empty() {
            if let Some(else_list) = &control.else_list {
                return self.walk_list(dot, else_list);
            }
            return Ok(Flow::Normal);
        }
        let wrapped = !matches!(value, Value::Int(..));
        for (index, elem) in items {
            self.charge(1)?;
            let top = self.vars.len();
            match decl.decl.len() {
                0 => {}
                1 => self.set_range_var(decl, 0, elem.clone(), top, 1)?,
                _ => {
                    self.set_range_var(decl, 0, index, top, 2)?;
                    self.set_range_var(decl, 1, elem.clone(), top, 1)?;
                }
            }
            let inner = Dot {
                value: elem,
                wrapped,
            };
            let flow = self.walk_list(&inner, &control.list)?;
            self.vars.truncate(top);
            if let Flow::Break = flow {
                break;
            }
        }
        Ok(Flow::Normal)
    }

    fn set_range_var(
        &mut self,
        pipe: &Pipe,
        which: usize,
        value: Value,
        top: usize,
        from_top: usize,
    ) -> Run<()> {
        if pipe.is_assign {
            return self.set_var(&pipe.decl[which], value);
        }
        self.vars[top - from_top].1 = value;
        Ok(())
    }

    fn set_var(&mut self, name: &str, value: Value) -> Run<()> {
        match self.vars.iter_mut().rev().find(|(n, _)| n == name) {
            Some(slot) => {
                slot.1 = value;
                Ok(())
            }
            None => self.error(format!("undefined variable: {name}")),
        }
    }

    fn var_value(&self, name: &str) -> Run<Value> {
        match self.vars.iter().rev().find(|(n, _)| n == name) {
            Some((_, value)) => Ok(value.clone()),
            None => self.error(format!("undefined variable: {name}")),
        }
    }

    fn eval_pipeline(&mut self, dot: &Dot, pipe: &Pipe) -> Run<Value> {
        self.at(pipe.pos, pipe.to_string());
        let mut value: Option<Value> = None;
        for cmd in &pipe.cmds {
            let result = self.eval_command(dot, cmd, value.take())?;
            // exec.go: an interface result is unwrapped, so a nil becomes no value.
            value = Some(match result {
                Value::Nil => Value::Missing,
                other => other,
            });
        }
        let value = value.unwrap_or(Value::Missing);
        for name in &pipe.decl {
            if pipe.is_assign {
                self.set_var(name, value.clone())?;
            } else {
                self.vars.push((name.clone(), value.clone()));
            }
        }
        Ok(value)
    }

    fn not_a_function(&self, cmd: &Command, final_value: &Option<Value>) -> Run<()> {
        if cmd.args.len() > 1 || final_value.is_some() {
            return self.error(format!(
                "can't give argument to non-function {}",
                cmd.args[0]
            ));
        }
        Ok(())
    }

    fn eval_command(&mut self, dot: &Dot, cmd: &Command, final_value: Option<Value>) -> Run<Value> {
        let first = &cmd.args[0];
        match first {
            Arg::Field { pos, idents } => {
                self.at(*pos, first.to_string());
                let call = MethodArgs {
                    dot: dot.clone(),
                    args: &cmd.args[1..],
                    final_value,
                    pos: *pos,
                    node: first.to_string(),
                };
                return self.eval_field_chain(dot.clone(), idents, call);
            }
            Arg::Chain { pos, node, fields } => {
                let call = MethodArgs {
                    dot: dot.clone(),
                    args: &cmd.args[1..],
                    final_value,
                    pos: *pos,
                    node: first.to_string(),
                };
                return self.eval_chain(dot, *pos, first, node, fields, call);
            }
            Arg::Identifier { pos, name } => {
                return self.eval_function(dot, *pos, name, cmd, final_value);
            }
            Arg::Pipe(pipe) => {
                self.not_a_function(cmd, &final_value)?;
                return self.eval_pipeline(dot, pipe);
            }
            Arg::Variable { pos, idents } => {
                self.at(*pos, first.to_string());
                let value = self.var_value(&idents[0])?;
                if idents.len() == 1 {
                    self.not_a_function(cmd, &final_value)?;
                    return Ok(value);
                }
                let call = MethodArgs {
                    dot: dot.clone(),
                    args: &cmd.args[1..],
                    final_value,
                    pos: *pos,
                    node: first.to_string(),
                };
                return self.eval_field_chain(
                    Dot {
                        value,
                        wrapped: false,
                    },
                    &idents[1..],
                    call,
                );
            }
            _ => {}
        }
        self.at(first.pos(), first.to_string());
        self.not_a_function(cmd, &final_value)?;
        match first {
            Arg::Bool(_, b) => Ok(Value::Bool(*b)),
            Arg::Dot(_) => Ok(dot.value.clone()),
            Arg::Nil(_) => self.error("nil is not a command".to_string()),
            Arg::Number(_, number) => self.ideal_constant(number),
            Arg::String { value, .. } => Ok(Value::String(value.clone())),
            _ => self.error(format!("can't evaluate command {first:?}")),
        }
    }

    /// exec.go `idealConstant`: an untyped number is a float64 when written as one, else an int.
    fn ideal_constant(&self, number: &super::number::Number) -> Run<Value> {
        let text = &number.text;
        let hex = text
            .trim_start_matches(['+', '-'])
            .to_ascii_lowercase()
            .starts_with("0x");
        if !number.is_char
            && !hex
            && text.contains(['.', 'e', 'E', 'p', 'P'])
            && let Some(float) = number.float
        {
            return Ok(Value::Float(float));
        }
        match number.int {
            Some(int) => Ok(Value::int(int)),
            None => self.error(format!("{text} overflows int")),
        }
    }

    fn eval_chain(
        &mut self,
        dot: &Dot,
        pos: usize,
        chain: &Arg,
        node: &Arg,
        fields: &[String],
        call: MethodArgs<'_>,
    ) -> Run<Value> {
        if matches!(node, Arg::Nil(_)) {
            self.at(pos, chain.to_string());
            return self.error(format!("indirection through explicit nil in {chain}"));
        }
        let value = self.eval_arg(dot, node, Param::Value)?;
        self.eval_field_chain(
            Dot {
                value,
                wrapped: false,
            },
            fields,
            call,
        )
    }

    /// exec.go `evalFieldChain`: the fields in turn, the last one given the command's
    /// arguments should it name a method.
    fn eval_field_chain(
        &mut self,
        receiver: Dot,
        idents: &[String],
        call: MethodArgs<'_>,
    ) -> Run<Value> {
        let mut receiver = receiver;
        let mut call = Some(call);
        for (i, ident) in idents.iter().enumerate() {
            let this = match call.take() {
                Some(last) if i + 1 == idents.len() => last,
                Some(call_) => {
                    let before = MethodArgs {
                        dot: call_.dot.clone(),
                        args: &[],
                        final_value: None,
                        pos: call_.pos,
                        node: call_.node.clone(),
                    };
                    call = Some(call_);
                    before
                }
                None => break,
            };
            // A method's result is the value itself; a map's entry is an interface.
            let wrapped = !matches!(receiver.value, Value::Version(..) | Value::Time(_));
            let value = self.eval_field(&receiver, ident, this)?;
            receiver = Dot { value, wrapped };
        }
        Ok(receiver.value)
    }

    fn eval_field(&mut self, receiver: &Dot, name: &str, call: MethodArgs<'_>) -> Run<Value> {
        let has_args = call.given() > 0;
        match &receiver.value {
            Value::Missing => {
                if self.missing_key_error {
                    return self.error(format!("nil data; no entry for key {name:?}"));
                }
                Ok(Value::Missing)
            }
            Value::Nil => self.error(format!("nil pointer evaluating interface {{}}.{name}")),
            Value::Map(map, _) => {
                if has_args {
                    return self.error(format!("{name} is not a method but has arguments"));
                }
                match map.borrow().get(name) {
                    Some(value) => Ok(value.clone()),
                    None if self.missing_key_error => {
                        self.error(format!("map has no entry for key {name:?}"))
                    }
                    None if self.missing_key_zero => Ok(Value::Nil),
                    None => Ok(Value::Missing),
                }
            }
            Value::Version(version, kind) => {
                let typ = if receiver.wrapped {
                    "interface {}"
                } else {
                    receiver.value.type_name()
                };
                self.version_method(version.clone(), *kind, typ, name, call)
            }
            Value::Time(t) => match super::sprig_time::method(t, name, call.given()) {
                Some(result) => result.or_else(|message| self.error(message)),
                None => self.error(format!("can't evaluate field {name} in type time.Time")),
            },
            other => {
                let typ = if receiver.wrapped {
                    "interface {}"
                } else {
                    other.type_name()
                };
                self.error(format!("can't evaluate field {name} in type {typ}"))
            }
        }
    }

    fn eval_function(
        &mut self,
        dot: &Dot,
        pos: usize,
        name: &str,
        cmd: &Command,
        final_value: Option<Value>,
    ) -> Run<Value> {
        self.at(pos, name.to_string());
        let args = &cmd.args[1..];
        if name == "and" || name == "or" {
            return self.eval_and_or(dot, name, cmd, args, final_value);
        }
        let Some(func) = funcs::lookup(name) else {
            return self.error(format!("{name:?} is not a defined function"));
        };
        let given = args.len() + usize::from(final_value.is_some());
        let fixed = func.params.len();
        if func.variadic.is_some() {
            if given < fixed {
                return self.error(format!(
                    "wrong number of args for {name}: want at least {fixed} got {}",
                    args.len()
                ));
            }
        } else if given != fixed {
            return self.error(format!(
                "wrong number of args for {name}: want {fixed} got {given}"
            ));
        }
        let mut values = Vec::with_capacity(given);
        for (i, arg) in args.iter().enumerate() {
            values.push(self.eval_arg(dot, arg, param_at(&func, i))?);
        }
        if let Some(final_value) = final_value {
            let param = param_at(&func, given - 1);
            values.push(self.validate(final_value, param, false)?);
        }
        self.call(&func, name, name == "call", cmd, values)
    }

    fn call(
        &mut self,
        func: &Func,
        name: &str,
        _is_call: bool,
        cmd: &Command,
        values: Vec<Value>,
    ) -> Run<Value> {
        let callee = if name == "call" {
            cmd.args.get(1).map(ToString::to_string)
        } else {
            None
        };
        // semver's regular expressions read their text whole on every call: a loop over a
        // long constraint is charged for what it reads, not only for the one bool it gives.
        if matches!(name, "semver" | "semverCompare") {
            let read: usize = values
                .iter()
                .map(|value| match value {
                    Value::String(text) => text.len(),
                    _ => 0,
                })
                .sum();
            if self.work.saturating_add(read) > MOST_BUILT {
                self.at(cmd.pos, cmd.to_string());
            }
            self.charge(read)?;
        }
        match (func.call)(&values, callee.as_deref()) {
            Ok(value) => {
                let built = match &value {
                    Value::String(text) => text.len(),
                    Value::List(items, _) => items.len(),
                    Value::Map(map, _) => map.borrow().len(),
                    _ => 1,
                };
                if self.work.saturating_add(built) > MOST_BUILT {
                    self.at(cmd.pos, cmd.to_string());
                }
                self.charge(built)?;
                Ok(value)
            }
            Err(message) => {
                self.at(cmd.pos, cmd.to_string());
                self.error(format!("error calling {name}: {message}"))
            }
        }
    }

    /// A field of a `*semver.Version` (or of the `semver.Version` a method returns, which
    /// lacks the pointer's methods): its methods are called with the command's arguments,
    /// converted to their parameters' types; its fields are unexported.
    fn version_method(
        &mut self,
        version: Rc<Version>,
        kind: VersionKind,
        typ: &str,
        name: &str,
        call: MethodArgs<'_>,
    ) -> Run<Value> {
        use Param::{Any, Str, Version as V};
        let (params, pointer_only): (&[Param], bool) = match name {
            "String" | "Major" | "Minor" | "Patch" | "Prerelease" | "Metadata" | "IncPatch"
            | "IncMinor" | "IncMajor" | "MarshalJSON" | "MarshalText" | "Value" => (&[], false),
            "SetPrerelease" | "SetMetadata" => (&[Str], false),
            "Original" => (&[], true),
            "LessThan" | "LessThanEqual" | "GreaterThan" | "GreaterThanEqual" | "Equal"
            | "Compare" => (&[V], true),
            "UnmarshalJSON" | "UnmarshalText" | "Scan" => (&[Any], true),
            _ => (&[][..], false),
        };
        let is_method = !params.is_empty()
            || matches!(
                name,
                "String"
                    | "Major"
                    | "Minor"
                    | "Patch"
                    | "Prerelease"
                    | "Metadata"
                    | "IncPatch"
                    | "IncMinor"
                    | "IncMajor"
                    | "MarshalJSON"
                    | "MarshalText"
                    | "Value"
                    | "Original"
            );
        if !is_method || (pointer_only && kind == VersionKind::Value) {
            if matches!(
                name,
                "major" | "minor" | "patch" | "pre" | "metadata" | "original"
            ) {
                return self.error(format!(
                    "{name} is an unexported field of struct type {typ}"
                ));
            }
            return self.error(format!("can't evaluate field {name} in type {typ}"));
        }
        if call.given() != params.len() {
            return self.error(format!(
                "wrong number of args for {name}: want {} got {}",
                params.len(),
                call.given()
            ));
        }
        let mut values = Vec::with_capacity(params.len());
        for (arg, param) in call.args.iter().zip(params) {
            values.push(self.eval_arg(&call.dot, arg, *param)?);
        }
        if let Some(value) = call.final_value {
            values.push(self.validate(value, params[params.len() - 1], false)?);
        }
        let other = || match values.first() {
            Some(Value::Version(other, _)) => Ok(other.clone()),
            _ => Err(super::coerce::NIL_DEREFERENCE.to_string()),
        };
        let text = |i: usize| match values.get(i) {
            Some(Value::String(text)) => text.clone(),
            _ => String::new(),
        };
        let segment = |n: u64| {
            i64::try_from(n)
                .map(|n| Value::Int(n, super::value::IntType::Uint64))
                .map_err(|_| {
                    format!("{n} is past the int64 values fedrender holds (Go's uint64 holds it)")
                })
        };
        let value = |v: Version| Value::Version(Rc::new(v), VersionKind::Value);
        let result = match name {
            "String" | "Value" => Ok(Value::String(version.string())),
            // The bytes of the JSON string or the text, a list of numbers as fmt prints them
            // (its Go type, `[]uint8`, is the one thing not kept).
            "MarshalJSON" | "MarshalText" => {
                let text = if name == "MarshalJSON" {
                    Value::String(version.string()).to_json().to_string()
                } else {
                    version.string()
                };
                Ok(Value::List(
                    Rc::new(text.bytes().map(|b| Value::int(i64::from(b))).collect()),
                    super::value::Elem::Int,
                ))
            }
            "Original" => Ok(Value::String(version.original.clone())),
            "Major" => segment(version.major),
            "Minor" => segment(version.minor),
            "Patch" => segment(version.patch),
            "Prerelease" => Ok(Value::String(version.pre.clone())),
            "Metadata" => Ok(Value::String(version.metadata.clone())),
            "IncPatch" => Ok(value(version.inc_patch())),
            "IncMinor" => Ok(value(version.inc_minor())),
            "IncMajor" => Ok(value(version.inc_major())),
            "SetPrerelease" => version.set_prerelease(&text(0)).map(value),
            "SetMetadata" => version.set_metadata(&text(0)).map(value),
            "Equal" => Ok(Value::Bool(match values.first() {
                Some(Value::Version(other, _)) => version.compare(other).is_eq(),
                _ => false,
            })),
            "Compare" => other().map(|o| Value::int(version.compare(&o) as i64)),
            "LessThan" => other().map(|o| Value::Bool(version.compare(&o).is_lt())),
            "LessThanEqual" => other().map(|o| Value::Bool(version.compare(&o).is_le())),
            "GreaterThan" => other().map(|o| Value::Bool(version.compare(&o).is_gt())),
            "GreaterThanEqual" => other().map(|o| Value::Bool(version.compare(&o).is_ge())),
            _ => Err(format!(
                "fedrender does not implement {typ}'s method {name} (a change to the version \
                 in place)"
            )),
        };
        match result {
            Ok(value) => {
                self.charge(1)?;
                Ok(value)
            }
            Err(message) => {
                self.at(call.pos, call.node);
                self.error(format!("error calling {name}: {message}"))
            }
        }
    }

    /// `and` and `or` evaluate their arguments one by one and stop at the first that decides.
    fn eval_and_or(
        &mut self,
        dot: &Dot,
        name: &str,
        cmd: &Command,
        args: &[Arg],
        final_value: Option<Value>,
    ) -> Run<Value> {
        if args.is_empty() && final_value.is_none() {
            return self.error(format!(
                "wrong number of args for {name}: want at least 1 got 0"
            ));
        }
        let mut last = Value::Missing;
        for arg in args {
            last = self.eval_arg(dot, arg, Param::Value)?;
            if last.truth() == (name == "or") {
                return Ok(last);
            }
        }
        if let Some(value) = final_value {
            last = value;
        }
        self.at(cmd.pos, cmd.to_string());
        Ok(last)
    }

    /// exec.go `evalArg`: an operand converted to the parameter's type.
    fn eval_arg(&mut self, dot: &Dot, arg: &Arg, param: Param) -> Run<Value> {
        self.at(arg.pos(), arg.to_string());
        match arg {
            Arg::Dot(_) => self.validate(dot.value.clone(), param, dot.wrapped),
            Arg::Nil(_) => match param {
                Param::Value => Ok(Value::Missing),
                Param::Any | Param::Map | Param::Version => Ok(Value::Nil),
                _ => self.error(format!("cannot assign nil to {}", param.go_type())),
            },
            Arg::Field { idents, .. } => {
                let value =
                    self.eval_field_chain(dot.clone(), idents, MethodArgs::none(dot, arg))?;
                self.at(arg.pos(), arg.to_string());
                self.validate(value, param, true)
            }
            Arg::Variable { idents, .. } => {
                let value = self.var_value(&idents[0])?;
                let (value, wrapped) = if idents.len() == 1 {
                    (value, false)
                } else {
                    (
                        self.eval_field_chain(
                            Dot {
                                value,
                                wrapped: false,
                            },
                            &idents[1..],
                            MethodArgs::none(dot, arg),
                        )?,
                        true,
                    )
                };
                self.at(arg.pos(), arg.to_string());
                self.validate(value, param, wrapped)
            }
            Arg::Pipe(pipe) => {
                let value = self.eval_pipeline(dot, pipe)?;
                self.validate(value, param, false)
            }
            Arg::Identifier { pos, name } => {
                let cmd = Command {
                    pos: *pos,
                    args: vec![arg.clone()],
                };
                let value = self.eval_function(dot, *pos, name, &cmd, None)?;
                self.validate(value, param, false)
            }
            Arg::Chain { pos, node, fields } => {
                let value =
                    self.eval_chain(dot, *pos, arg, node, fields, MethodArgs::none(dot, arg))?;
                self.validate(value, param, true)
            }
            Arg::Bool(_, b) => match param {
                Param::Bool | Param::Any | Param::Value => Ok(Value::Bool(*b)),
                Param::Int => self.error(format!("expected integer; found {arg}")),
                Param::Float => self.error(format!("expected float; found {arg}")),
                Param::Str => self.error(format!("expected string; found {arg}")),
                Param::Map | Param::Version | Param::Time => self.error(format!(
                    "can't handle {arg} for arg of type {}",
                    param.go_type()
                )),
            },
            Arg::Number(_, number) => match param {
                Param::Int => match number.int {
                    Some(int) => Ok(Value::int(int)),
                    None => self.error(format!("expected integer; found {arg}")),
                },
                Param::Float => match number.float {
                    Some(float) => Ok(Value::Float(float)),
                    None => self.error(format!("expected float; found {arg}")),
                },
                Param::Any | Param::Value => self.ideal_constant(number),
                Param::Str => self.error(format!("expected string; found {arg}")),
                Param::Bool => self.error(format!("expected bool; found {arg}")),
                Param::Map | Param::Version | Param::Time => self.error(format!(
                    "can't handle {arg} for arg of type {}",
                    param.go_type()
                )),
            },
            Arg::String { value, .. } => match param {
                Param::Str | Param::Any | Param::Value => Ok(Value::String(value.clone())),
                Param::Int => self.error(format!("expected integer; found {arg}")),
                Param::Float => self.error(format!("expected float; found {arg}")),
                Param::Bool => self.error(format!("expected bool; found {arg}")),
                Param::Map | Param::Version | Param::Time => self.error(format!(
                    "can't handle {arg} for arg of type {}",
                    param.go_type()
                )),
            },
        }
    }

    /// exec.go `validateType`: a value given to a typed parameter.
    fn validate(&self, value: Value, param: Param, wrapped: bool) -> Run<Value> {
        let expected = param.go_type();
        match (&value, param) {
            (_, Param::Value) => Ok(value),
            (Value::Missing, Param::Any) => Ok(Value::Nil),
            (Value::Missing, Param::Map) => Ok(Value::map(Default::default())),
            // A nil pointer, which the method is then called with.
            (Value::Missing, Param::Version) => Ok(Value::Nil),
            (Value::Missing, _) => self.error(format!("invalid value; expected {expected}")),
            (Value::Nil, Param::Any) => Ok(value),
            (Value::Nil, _) => self.error(format!(
                "wrong type for value; expected {expected}; got interface {{}}"
            )),
            (_, Param::Any) => Ok(value),
            (Value::String(_), Param::Str)
            | (Value::Int(_, super::value::IntType::Int), Param::Int)
            | (Value::Float(_), Param::Float)
            | (Value::Bool(_), Param::Bool)
            | (Value::Map(_, super::value::Elem::Any), Param::Map)
            | (Value::Version(_, VersionKind::Pointer), Param::Version) => Ok(value),
            (Value::Time(_), Param::Time) => Ok(value),
            _ => {
                let _ = wrapped;
                self.error(format!(
                    "wrong type for value; expected {expected}; got {}",
                    value.type_name()
                ))
            }
        }
    }
}

fn param_at(func: &Func, index: usize) -> Param {
    func.params
        .get(index)
        .copied()
        .or(func.variadic)
        .unwrap_or(Param::Any)
}
