//! The type checker, as cel-go's checker/checker.go checks an expression: every identifier
//! declared, every field of an object defined, every call matching an overload of its
//! function, with type parameters bound as the arguments are checked; each error worded and
//! located as cel-go words and locates it (checker/errors.go), so that a refused CRD says
//! what the API server says.
//!
//! The macros are checked as the comprehensions cel-go's parser expands them to: `all`'s
//! predicate is an operand of `_&&_`, `exists_one`'s and `filter`'s the condition of a
//! `_?_:_`.

use std::collections::HashMap;

use super::environment::{Environment, Overload};
use super::parse::{Binary, Expr, Literal, Macro, Macro2, Parsed, Span};
use super::types::{Decl, Mapping, Type, most_general};

/// One error of a compilation: the byte offset it is at (none for an error of the whole
/// expression) and what cel-go says.
#[derive(Debug, Clone, PartialEq)]
pub struct CompileError {
    pub at: Option<usize>,
    pub message: String,
}

/// What the checker found of an expression: its type, and each node's.
#[derive(Debug)]
pub struct Checked {
    pub result: Type,
    pub types: HashMap<*const Expr, Type>,
}

/// Checks `parsed` in `environment` with `variables` declared.
pub fn check(
    parsed: &Parsed,
    environment: &Environment,
    variables: &[(&str, Type)],
) -> Result<Checked, Vec<CompileError>> {
    let mut checker = TypeChecker {
        environment,
        offsets: parsed.offsets(),
        mapping: Mapping::default(),
        scopes: variables
            .iter()
            .map(|(name, t)| (name.to_string(), t.clone()))
            .collect(),
        errors: Vec::new(),
        fresh: 0,
        types: HashMap::new(),
    };
    let result = checker.check(&parsed.expr);
    if !checker.errors.is_empty() {
        return Err(checker.errors);
    }
    let mapping = checker.mapping;
    let types = checker
        .types
        .into_iter()
        .map(|(node, t)| (node, mapping.substitute(&t, true)))
        .collect();
    Ok(Checked {
        result: mapping.substitute(&result, true),
        types,
    })
}

struct TypeChecker<'e> {
    environment: &'e Environment,
    offsets: HashMap<*const Expr, Span>,
    mapping: Mapping,
    /// The variables in scope, innermost last.
    scopes: Vec<(String, Type)>,
    errors: Vec<CompileError>,
    fresh: u32,
    types: HashMap<*const Expr, Type>,
}

impl TypeChecker<'_> {
    fn span(&self, expr: &Expr) -> Span {
        self.offsets
            .get(&(expr as *const Expr))
            .copied()
            .unwrap_or(Span {
                at: 0,
                namespace: None,
            })
    }

    fn error(&mut self, expr: &Expr, message: String) {
        let at = self.span(expr).at;
        self.error_at(at, message);
    }

    fn error_at(&mut self, at: usize, message: String) {
        self.errors.push(CompileError {
            at: Some(at),
            message,
        });
    }

    fn fresh_var(&mut self) -> Type {
        let name = format!("_var{}", self.fresh);
        self.fresh += 1;
        Type::param(&name)
    }

    fn check(&mut self, expr: &Expr) -> Type {
        let t = self.check_inner(expr);
        self.types.insert(expr as *const Expr, t.clone());
        t
    }

    fn check_inner(&mut self, expr: &Expr) -> Type {
        match expr {
            Expr::Literal(literal) => match literal {
                Literal::Null => Type::Null,
                Literal::Bool(_) => Type::Bool,
                Literal::Int(_) => Type::Int,
                Literal::Uint(_) => Type::Uint,
                Literal::Double(_) => Type::Double,
                Literal::String(_) => Type::String,
                Literal::Bytes(_) => Type::Bytes,
            },
            Expr::Ident(name) => self.ident(expr, name),
            Expr::Select {
                operand,
                field,
                optional,
            } => {
                let t = self.select_field(expr, operand, field, *optional);
                self.mapping.substitute(&t, false)
            }
            Expr::Has { operand, field } => {
                self.select_field(expr, operand, field, false);
                Type::Bool
            }
            Expr::Index {
                operand,
                index,
                optional,
            } => {
                let operand_type = self.check(operand);
                let index_type = self.check(index);
                let function = if *optional { "_[?_]" } else { "_[_]" };
                self.resolve(expr, function, vec![operand_type, index_type], false)
            }
            Expr::Call {
                target,
                function,
                args,
            } => self.call(expr, target.as_deref(), function, args),
            Expr::List(items) => {
                let items: Vec<(&Expr, bool)> = items.iter().map(|item| (item, false)).collect();
                self.list(&items)
            }
            Expr::OptionalList(items) => {
                let items: Vec<(&Expr, bool)> = items
                    .iter()
                    .map(|(item, optional)| (item, *optional))
                    .collect();
                self.list(&items)
            }
            Expr::Map(entries) => {
                let entries: Vec<(&Expr, &Expr, bool)> =
                    entries.iter().map(|(k, v)| (k, v, false)).collect();
                self.map(&entries)
            }
            Expr::OptionalMap(entries) => {
                let entries: Vec<(&Expr, &Expr, bool)> = entries
                    .iter()
                    .map(|(k, v, optional)| (k, v, *optional))
                    .collect();
                self.map(&entries)
            }
            Expr::Not(operand) => {
                let t = self.check(operand);
                self.resolve(expr, "!_", vec![t], false)
            }
            Expr::Negate(operand) => {
                let t = self.check(operand);
                self.resolve(expr, "-_", vec![t], false)
            }
            Expr::And(left, right) | Expr::Or(left, right) => {
                let mut ok = true;
                for side in [left, right] {
                    let t = self.check(side);
                    if !self.mapping.assign(&t, &Type::Bool) {
                        self.error(side, format!("expected type 'bool' but found '{t}'"));
                        ok = false;
                    }
                }
                if ok { Type::Bool } else { Type::Error }
            }
            Expr::Conditional(condition, then, otherwise) => {
                let types = vec![
                    self.check(condition),
                    self.check(then),
                    self.check(otherwise),
                ];
                self.resolve(expr, "_?_:_", types, false)
            }
            Expr::Binary(op, left, right) => {
                let left = self.check(left);
                let right = self.check(right);
                let function = match op {
                    Binary::Equal => "_==_",
                    Binary::NotEqual => "_!=_",
                    Binary::Less => "_<_",
                    Binary::LessOrEqual => "_<=_",
                    Binary::Greater => "_>_",
                    Binary::GreaterOrEqual => "_>=_",
                    Binary::In => "@in",
                    Binary::Add => "_+_",
                    Binary::Subtract => "_-_",
                    Binary::Multiply => "_*_",
                    Binary::Divide => "_/_",
                    Binary::Remainder => "_%_",
                };
                self.resolve(expr, function, vec![left, right], false)
            }
            Expr::Comprehension {
                kind,
                range,
                variable,
                filter,
                body,
            } => self.comprehension(expr, *kind, range, variable, filter.as_deref(), body),
            Expr::Comprehension2 {
                kind,
                range,
                first,
                second,
                filter,
                body,
            } => self.comprehension2(expr, *kind, range, (first, second), filter.as_deref(), body),
            Expr::SortBy {
                range,
                variable,
                key,
            } => {
                let range_type = self.check(range);
                let item = self.range_variables(range, &range_type, false).0;
                self.scopes.push((variable.clone(), item));
                let key_type = self.check(key);
                self.scopes.pop();
                let keys = Type::list(key_type);
                self.resolve_as(
                    expr,
                    "@sortByAssociatedKeys",
                    SORT_BY_KEYS,
                    vec![range_type, keys],
                )
            }
            Expr::OptMap {
                operand,
                variable,
                body,
                flat,
            } => {
                // cel-go's expansion: `operand.hasValue() ? optional.of(body) : optional.none()`
                // with the variable bound to `operand.value()`.
                let operand_type = self.check(operand);
                self.resolve(expr, "hasValue", vec![operand_type.clone()], true);
                let value = self.resolve(expr, "value", vec![operand_type], true);
                self.scopes.push((variable.clone(), value));
                let body_type = self.check(body);
                self.scopes.pop();
                if *flat {
                    let none = self.resolve(expr, "optional.none", Vec::new(), false);
                    self.resolve(expr, "_?_:_", vec![Type::Bool, body_type, none], false)
                } else {
                    Type::optional(body_type)
                }
            }
        }
    }

    fn ident(&mut self, expr: &Expr, name: &str) -> Type {
        if let Some((_, t)) = self
            .scopes
            .iter()
            .rev()
            .find(|(variable, _)| variable == name)
        {
            return t.clone();
        }
        if let Some(t) = self.environment.type_ident(name) {
            return t.clone();
        }
        self.error(expr, undeclared(name));
        Type::Error
    }

    /// cel-go's `checkSelectField`: a map's value, an object's field, dyn for dyn; optional in,
    /// optional out.
    fn select_field(&mut self, expr: &Expr, operand: &Expr, field: &str, optional: bool) -> Type {
        let operand_type = self.check(operand);
        let operand_type = self.mapping.substitute(&operand_type, false);
        let (target, was_optional) = operand_type.unwrap_optional();
        let result = match target {
            Type::Map(_, value) => (**value).clone(),
            Type::Object(object) => match object.fields.get(field) {
                Some(decl) => decl.ty.clone(),
                None => {
                    self.error(expr, format!("undefined field '{field}'"));
                    Type::Error
                }
            },
            Type::Param(_) => {
                let target = target.clone();
                self.mapping.assign(&Type::Dyn, &target);
                Type::Dyn
            }
            Type::Dyn | Type::Error => Type::Dyn,
            other => {
                let message = format!("type '{other}' does not support field selection");
                self.error(expr, message);
                Type::Dyn
            }
        };
        if was_optional || optional {
            Type::optional(result)
        } else {
            result
        }
    }

    fn call(&mut self, expr: &Expr, target: Option<&Expr>, function: &str, args: &[Expr]) -> Type {
        let mut types: Vec<Type> = args.iter().map(|arg| self.check(arg)).collect();
        let span = self.span(expr);
        match target {
            None => {
                if self.environment.function(function).is_some() {
                    return self.resolve(expr, function, types, false);
                }
                let Some(namespace_at) = span.namespace else {
                    self.error(expr, undeclared(function));
                    return Type::Error;
                };
                // `math.greatest(…)` in an environment without it: cel-go checks `math` as a
                // variable, then `greatest` as a method of it.
                let (namespace, name) = function.split_once('.').unwrap_or(("", function));
                self.error_at(namespace_at, undeclared(namespace));
                if self.environment.function(name).is_none() {
                    self.error(expr, undeclared(name));
                    return Type::Error;
                }
                types.insert(0, Type::Error);
                self.resolve(expr, name, types, true)
            }
            Some(target) => {
                let target_type = self.check(target);
                if self.environment.function(function).is_none() {
                    self.error(expr, undeclared(function));
                    return Type::Error;
                }
                types.insert(0, target_type);
                self.resolve(expr, function, types, true)
            }
        }
    }

    fn resolve(&mut self, expr: &Expr, function: &str, args: Vec<Type>, member: bool) -> Type {
        let Some(overloads) = self.environment.function(function) else {
            self.error(expr, undeclared(function));
            return Type::Error;
        };
        let overloads = overloads.to_vec();
        self.resolve_overloads(expr, function, &overloads, args, member)
    }

    fn resolve_as(
        &mut self,
        expr: &Expr,
        function: &str,
        overloads: fn() -> Vec<Overload>,
        args: Vec<Type>,
    ) -> Type {
        let overloads = overloads();
        self.resolve_overloads(expr, function, &overloads, args, true)
    }

    /// cel-go's `resolveOverload`: the first overload the arguments are assignable to gives
    /// the result; several that match with different results give dyn.
    fn resolve_overloads(
        &mut self,
        expr: &Expr,
        function: &str,
        overloads: &[Overload],
        args: Vec<Type>,
        member: bool,
    ) -> Type {
        let mut result: Option<Type> = None;
        for overload in overloads {
            if overload.member != member {
                continue;
            }
            let mut params = overload.params.clone();
            let mut overload_result = overload.result.clone();
            if !overload.type_params.is_empty() {
                let mut instance = Mapping::default();
                for name in &overload.type_params {
                    let fresh = self.fresh_var();
                    instance.bind(name, fresh);
                }
                params = params
                    .iter()
                    .map(|p| instance.substitute(p, false))
                    .collect();
                overload_result = instance.substitute(&overload_result, false);
            }
            if self.mapping.assign_all(&args, &params) {
                let found = self.mapping.substitute(&overload_result, false);
                result = Some(match result {
                    None => found,
                    Some(previous) if previous != Type::Dyn && !found.is_exact(&previous) => {
                        Type::Dyn
                    }
                    Some(previous) => previous,
                });
            }
        }
        match result {
            Some(t) => t,
            None => {
                let args: Vec<String> = args
                    .iter()
                    .map(|t| self.mapping.substitute(t, true).to_string())
                    .collect();
                let signature = if member {
                    format!("{}.({})", args[0], args[1..].join(", "))
                } else {
                    format!("({})", args.join(", "))
                };
                self.error(
                    expr,
                    format!("found no matching overload for '{function}' applied to '{signature}'"),
                );
                Type::Error
            }
        }
    }

    /// cel-go's `checkCreateList`, with homogeneous aggregate literals: each element must be
    /// assignable to the first's type.
    fn list(&mut self, items: &[(&Expr, bool)]) -> Type {
        let mut element: Option<Type> = None;
        for (item, optional) in items {
            let mut t = self.check(item);
            if *optional {
                let (inner, was_optional) = t.unwrap_optional();
                let inner = inner.clone();
                if !was_optional && inner != Type::Dyn {
                    let message = format!(
                        "expected type '{}' but found '{inner}'",
                        Type::optional(inner.clone())
                    );
                    self.error(item, message);
                }
                t = inner;
            }
            element = Some(self.join(element, t));
        }
        let element = element.unwrap_or_else(|| self.fresh_var());
        Type::list(element)
    }

    fn map(&mut self, entries: &[(&Expr, &Expr, bool)]) -> Type {
        let mut key_type: Option<Type> = None;
        let mut value_type: Option<Type> = None;
        for (key, value, optional) in entries {
            let k = self.check(key);
            key_type = Some(self.join(key_type, k));
            let mut v = self.check(value);
            if *optional {
                let (inner, was_optional) = v.unwrap_optional();
                let inner = inner.clone();
                if !was_optional && inner != Type::Dyn {
                    let message = format!(
                        "expected type '{}' but found '{inner}'",
                        Type::optional(inner.clone())
                    );
                    self.error(value, message);
                }
                v = inner;
            }
            value_type = Some(self.join(value_type, v));
        }
        match (key_type, value_type) {
            (Some(key), Some(value)) => Type::map(key, value),
            _ => {
                let key = self.fresh_var();
                let value = self.fresh_var();
                Type::map(key, value)
            }
        }
    }

    /// cel-go's `joinTypes`: the most general of two element types that assign; mixed ones
    /// are dyn to the checker, and the homogeneous aggregate literal validator refuses them
    /// outside `format`'s arguments.
    fn join(&mut self, previous: Option<Type>, current: Type) -> Type {
        let Some(previous) = previous else {
            return current;
        };
        if self.mapping.assign(&previous, &current) {
            return most_general(&previous, &current);
        }
        Type::Dyn
    }

    /// The types of a comprehension's variables over `range`: an item (or a key), and with
    /// `two` the index (or key) and the item (or value).
    fn range_variables(&mut self, range: &Expr, range_type: &Type, two: bool) -> (Type, Type) {
        let range_type = self.mapping.substitute(range_type, false);
        match &range_type {
            Type::List(item) if two => (Type::Int, (**item).clone()),
            Type::List(item) => ((**item).clone(), Type::Error),
            Type::Map(key, value) => ((**key).clone(), (**value).clone()),
            Type::Dyn | Type::Error | Type::Param(_) => {
                self.mapping.assign(&Type::Dyn, &range_type);
                (Type::Dyn, Type::Dyn)
            }
            other => {
                let message = format!(
                    "expression of type '{other}' cannot be range of a comprehension (must be \
                     list, map, or dynamic)"
                );
                self.error(range, message);
                (Type::Error, Type::Error)
            }
        }
    }

    fn comprehension(
        &mut self,
        expr: &Expr,
        kind: Macro,
        range: &Expr,
        variable: &str,
        filter: Option<&Expr>,
        body: &Expr,
    ) -> Type {
        let range_type = self.check(range);
        let (item, _) = self.range_variables(range, &range_type, false);
        self.scopes.push((variable.to_string(), item.clone()));
        let result = match kind {
            Macro::All | Macro::Exists => {
                let t = self.check(body);
                if !self.mapping.assign(&t, &Type::Bool) {
                    self.error(body, format!("expected type 'bool' but found '{t}'"));
                }
                Type::Bool
            }
            Macro::ExistsOne => {
                let t = self.check(body);
                self.resolve(expr, "_?_:_", vec![t, Type::Int, Type::Int], false);
                Type::Bool
            }
            Macro::Filter => {
                let t = self.check(body);
                let list = Type::list(item);
                self.resolve(expr, "_?_:_", vec![t, list.clone(), list.clone()], false);
                list
            }
            Macro::Map => {
                let condition = filter.map(|filter| self.check(filter));
                let t = self.check(body);
                let list = Type::list(t);
                if let Some(condition) = condition {
                    self.resolve(
                        expr,
                        "_?_:_",
                        vec![condition, list.clone(), list.clone()],
                        false,
                    );
                }
                list
            }
        };
        self.scopes.pop();
        result
    }

    fn comprehension2(
        &mut self,
        expr: &Expr,
        kind: Macro2,
        range: &Expr,
        (first, second): (&str, &str),
        filter: Option<&Expr>,
        body: &Expr,
    ) -> Type {
        let range_type = self.check(range);
        let (first_type, second_type) = self.range_variables(range, &range_type, true);
        self.scopes.push((first.to_string(), first_type.clone()));
        self.scopes.push((second.to_string(), second_type));
        let condition = filter.map(|filter| self.check(filter));
        let t = self.check(body);
        let result = match kind {
            Macro2::All | Macro2::Exists => {
                if !self.mapping.assign(&t, &Type::Bool) {
                    self.error(body, format!("expected type 'bool' but found '{t}'"));
                }
                Type::Bool
            }
            Macro2::ExistsOne => {
                self.resolve(expr, "_?_:_", vec![t, Type::Int, Type::Int], false);
                Type::Bool
            }
            Macro2::TransformList => Type::list(t),
            Macro2::TransformMap => Type::map(first_type, t),
            Macro2::TransformMapEntry => {
                let key = self.fresh_var();
                let value = self.fresh_var();
                let accumulator = Type::map(key, value);
                self.resolve(expr, "cel.@mapInsert", vec![accumulator, t], false)
            }
        };
        if let Some(condition) = condition {
            let result = result.clone();
            self.resolve(
                expr,
                "_?_:_",
                vec![condition, result.clone(), result],
                false,
            );
        }
        self.scopes.pop();
        self.scopes.pop();
        result
    }
}

/// cel-go's ext.Lists `@sortByAssociatedKeys`: a list of anything by keys of one comparable
/// type.
const SORT_BY_KEYS: fn() -> Vec<Overload> = || {
    [
        "int",
        "uint",
        "double",
        "bool",
        "duration",
        "timestamp",
        "string",
        "bytes",
    ]
    .into_iter()
    .map(|key| {
        let key = match key {
            "int" => Type::Int,
            "uint" => Type::Uint,
            "double" => Type::Double,
            "bool" => Type::Bool,
            "duration" => Type::Duration,
            "timestamp" => Type::Timestamp,
            "string" => Type::String,
            _ => Type::Bytes,
        };
        Overload {
            member: true,
            params: vec![Type::list(Type::param("T")), Type::list(key)],
            result: Type::list(Type::param("T")),
            type_params: vec!["T"],
        }
    })
    .collect()
};

fn undeclared(name: &str) -> String {
    format!("undeclared reference to '{name}' (in container '')")
}

/// The errors as cel-go's `Issues.String()` writes them: sorted by place, each
/// `ERROR: <input>:line:column: message` with the line and a caret under the column.
pub fn display(text: &str, errors: &[CompileError]) -> String {
    let mut located: Vec<(Option<(usize, usize)>, &str)> = errors
        .iter()
        .map(|error| {
            (
                error.at.map(|at| line_and_column(text, at)),
                error.message.as_str(),
            )
        })
        .collect();
    located.sort_by_key(|(place, _)| place.map_or((0, 0), |(line, column)| (line + 1, column)));
    let mut shown = Vec::new();
    for (place, message) in located.iter().take(100) {
        let Some((line, column)) = place else {
            shown.push(format!("ERROR: <input>:-1:0: {message}"));
            continue;
        };
        let mut entry = format!("ERROR: <input>:{line}:{}: {message}", column + 1);
        if let Some(snippet) = text.split('\n').nth(line - 1)
            && snippet.len() <= 16384
        {
            let snippet = snippet.replace('\t', " ");
            entry.push_str("\n | ");
            entry.push_str(&snippet);
            entry.push_str("\n | ");
            let mut chars = snippet.chars();
            for _ in 0..*column {
                match chars.next() {
                    Some(c) if c.len_utf8() > 1 => entry.push('\u{ff0e}'),
                    Some(_) => entry.push('.'),
                    None => break,
                }
            }
            match chars.next() {
                Some(c) if c.len_utf8() > 1 => entry.push('\u{ff3e}'),
                _ => entry.push('^'),
            }
        }
        shown.push(entry);
    }
    if located.len() > 100 {
        shown.push(format!(
            "{} more errors were truncated",
            located.len() - 100
        ));
    }
    shown.join("\n")
}

/// The 1-based line and 0-based column (in characters) of a byte offset.
fn line_and_column(text: &str, at: usize) -> (usize, usize) {
    let at = at.min(text.len());
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |newline| newline + 1);
    (line, text[start..at].chars().count())
}

/// An expression compiled as the API server compiles it: parsed in the macros of its
/// environment, checked, its literals validated.
#[derive(Debug)]
pub struct Compiled {
    /// Boxed: the checker's types are keyed by the addresses of the tree's nodes.
    pub parsed: Box<Parsed>,
    pub checked: Checked,
}

/// Compiles `text` in `environment` with `variables` declared, as cel-go's `Env.Compile`:
/// on failure the API server's detail after `compilation failed: `.
pub fn compile(
    text: &str,
    environment: &Environment,
    variables: &[(&str, Type)],
) -> Result<Compiled, String> {
    let parsed = super::parse::parse_with(text, environment.macros).map_err(|error| {
        display(
            text,
            &[CompileError {
                at: error.at,
                message: error.message,
            }],
        )
    })?;
    let parsed = Box::new(parsed);
    let checked =
        check(&parsed, environment, variables).map_err(|errors| display(text, &errors))?;
    let errors = validate_literals(&parsed, &checked, environment.literal_validators);
    if !errors.is_empty() {
        return Err(display(text, &errors));
    }
    Ok(Compiled { parsed, checked })
}

/// cel-go's AST validators: a list or map literal whose elements differ in type (dyn among
/// them), outside `format`'s arguments (`HomogeneousAggregateLiterals`, always); and from
/// 1.29 (`literals`) a literal argument of `duration`, `timestamp` or `matches` that does not
/// convert or compile.
fn validate_literals(parsed: &Parsed, checked: &Checked, literals: bool) -> Vec<CompileError> {
    let offsets = parsed.offsets();
    let mut errors = Vec::new();
    let at = |expr: &Expr| offsets.get(&(expr as *const Expr)).map(|span| span.at);
    let type_of = |expr: &Expr| {
        checked
            .types
            .get(&(expr as *const Expr))
            .cloned()
            .unwrap_or(Type::Dyn)
    };
    fn walk<'e>(expr: &'e Expr, in_format: bool, each: &mut dyn FnMut(&'e Expr, bool)) {
        each(expr, in_format);
        let in_format = in_format
            || matches!(expr, Expr::Call { function, target: Some(_), .. } if function == "format");
        for child in expr.children() {
            walk(child, in_format, each);
        }
    }
    walk(&parsed.expr, false, &mut |expr, in_format| match expr {
        Expr::Call { function, args, .. }
            if literals && matches!(function.as_str(), "duration" | "timestamp" | "matches") =>
        {
            let Some(literal @ Expr::Literal(Literal::String(text))) = args.first() else {
                return;
            };
            let invalid = match function.as_str() {
                "matches" => super::regexp::go_regexp(text).is_err(),
                _ => constant_fails(expr).is_some(),
            };
            if invalid {
                errors.push(CompileError {
                    at: at(literal),
                    message: format!("invalid {function} argument"),
                });
            }
        }
        Expr::List(_) | Expr::OptionalList(_) if !in_format => {
            let items: Vec<(&Expr, bool)> = match expr {
                Expr::List(items) => items.iter().map(|item| (item, false)).collect(),
                Expr::OptionalList(items) => items.iter().map(|(i, o)| (i, *o)).collect(),
                _ => Vec::new(),
            };
            let mut first: Option<Type> = None;
            for (item, optional) in items {
                let mut t = type_of(item);
                if optional {
                    t = t.unwrap_optional().0.clone();
                }
                match &first {
                    None => first = Some(t),
                    Some(expected) if !equivalent(expected, &t) => {
                        errors.push(CompileError {
                            at: at(item),
                            message: format!("expected type '{expected}' but found '{t}'"),
                        });
                        break;
                    }
                    Some(_) => {}
                }
            }
        }
        Expr::Map(_) | Expr::OptionalMap(_) if !in_format => {
            let entries: Vec<(&Expr, &Expr, bool)> = match expr {
                Expr::Map(entries) => entries.iter().map(|(k, v)| (k, v, false)).collect(),
                Expr::OptionalMap(entries) => entries.iter().map(|(k, v, o)| (k, v, *o)).collect(),
                _ => Vec::new(),
            };
            let mut first: Option<(Type, Type)> = None;
            for (key, value, optional) in entries {
                let k = type_of(key);
                let mut v = type_of(value);
                if optional {
                    v = v.unwrap_optional().0.clone();
                }
                match &first {
                    None => first = Some((k, v)),
                    Some((key_type, value_type)) => {
                        if !equivalent(key_type, &k) {
                            errors.push(CompileError {
                                at: at(key),
                                message: format!("expected type '{key_type}' but found '{k}'"),
                            });
                        }
                        if !equivalent(value_type, &v) {
                            errors.push(CompileError {
                                at: at(value),
                                message: format!("expected type '{value_type}' but found '{v}'"),
                            });
                        }
                    }
                }
            }
        }
        _ => {}
    });
    errors
}

/// cel-go's `IsEquivalentType`: the same type, type parameters' names aside.
fn equivalent(a: &Type, b: &Type) -> bool {
    match (a, b) {
        (Type::Param(_), Type::Param(_)) => true,
        (Type::List(a), Type::List(b)) => equivalent(a, b),
        (Type::Map(ak, av), Type::Map(bk, bv)) => equivalent(ak, bk) && equivalent(av, bv),
        (Type::Opaque(an, ap), Type::Opaque(bn, bp)) => {
            an == bn && ap.len() == bp.len() && ap.iter().zip(bp).all(|(a, b)| equivalent(a, b))
        }
        _ => a.is_exact(b),
    }
}

/// The most evaluating one constant may cost: the API server's per-call limit.
const FOLDING_BUDGET: u64 = 1_000_000;

/// The error of evaluating a constant expression (`int('9223372036854775808')`), if it
/// has one.
fn constant_fails(expr: &Expr) -> Option<String> {
    let mut evaluation = super::value::Evaluation::new(Vec::new(), FOLDING_BUDGET);
    match evaluation.eval(expr) {
        Err(super::value::Fault::Error(message)) => Some(message),
        _ => None,
    }
}

/// The functions cel-go's optimizer folds when their one argument is constant
/// (`overloads.IsTypeConversionFunction`).
const CONVERSIONS: [&str; 10] = [
    "bool",
    "bytes",
    "double",
    "duration",
    "dyn",
    "int",
    "string",
    "timestamp",
    "type",
    "uint",
];

/// What cel-go's `Env.Program` says of a compiled expression with its optimizer on
/// (`OptOptimize`, as the API server builds programs): a type conversion of a constant that
/// fails fails the program, as does a constant regular expression that does not compile.
/// The API server's detail after `program instantiation failed: `.
pub fn instantiate(compiled: &Compiled) -> Result<(), String> {
    fn constant(expr: &Expr, failure: &mut Option<String>) -> bool {
        let children_constant = {
            let mut all = true;
            for child in expr.children() {
                all &= constant(child, failure);
            }
            all
        };
        if failure.is_some() {
            return false;
        }
        match expr {
            Expr::Literal(_) => true,
            Expr::List(_) | Expr::Map(_) => children_constant,
            Expr::Call {
                target: None,
                function,
                args,
            } if CONVERSIONS.contains(&function.as_str()) && args.len() == 1 => {
                if !children_constant {
                    return false;
                }
                match constant_fails(expr) {
                    // cel-go's conversions of a string say only what they failed to do.
                    Some(_) if matches!(args[0], Expr::Literal(Literal::String(_))) => {
                        let to = match function.as_str() {
                            "duration" => "google.protobuf.Duration",
                            "timestamp" => "google.protobuf.Timestamp",
                            other => other,
                        };
                        *failure = Some(format!("type conversion error from 'string' to '{to}'"));
                        false
                    }
                    Some(message) => {
                        *failure = Some(message);
                        false
                    }
                    None => true,
                }
            }
            Expr::Call {
                target: Some(_),
                function,
                args,
            } if matches!(function.as_str(), "matches" | "find" | "findAll") => {
                if let Some(Expr::Literal(Literal::String(pattern))) = args.first()
                    && let Err(problem) = super::regexp::go_regexp(pattern)
                {
                    *failure = Some(problem);
                }
                false
            }
            _ => false,
        }
    }
    let mut failure = None;
    constant(&compiled.parsed.expr, &mut failure);
    match failure {
        Some(message) => Err(message),
        None => Ok(()),
    }
}

/// What creating one `x-kubernetes-validations` entry says: its refusals (the entry's field,
/// `rule` or `messageExpression`, and the API server's words), the estimated cost of its
/// expressions (each with its field), and whether the rule reads `oldSelf`.
#[derive(Debug, Default)]
pub struct RuleCompilation {
    pub refusals: Vec<(&'static str, String)>,
    pub costs: Vec<(&'static str, u64)>,
    pub uses_old_self: bool,
}

/// Compiles one entry of a node declared `decl` as apiextensions-apiserver's `compileRule`
/// does, in `environment`; `cardinality` is how many times the node may occur in one object
/// when every list and map above it is bounded (validation.go's `MaxCardinality`), else the
/// rule's own estimate from the node's smallest serialized size.
pub fn compile_rule(
    rule: &serde_json::Value,
    decl: &Decl,
    environment: &Environment,
    cardinality: Option<u64>,
) -> RuleCompilation {
    let mut out = compile_rule_itself(rule, decl, environment, cardinality);
    // validation.go asks this of every entry, whether or not its rule compiled (a rule that
    // does not compile reads no oldSelf).
    if !out.uses_old_self
        && let Some(set) = rule
            .get("optionalOldSelf")
            .and_then(serde_json::Value::as_bool)
    {
        out.refusals.push((
            "optionalOldSelf",
            format!("Invalid value: {set}: may not be set if oldSelf is not used in rule"),
        ));
    }
    out
}

/// [`compile_rule`] but for the entry's optionalOldSelf.
fn compile_rule_itself(
    rule: &serde_json::Value,
    decl: &Decl,
    environment: &Environment,
    cardinality: Option<u64>,
) -> RuleCompilation {
    let mut out = RuleCompilation::default();
    let text = |name: &str| rule.get(name).and_then(serde_json::Value::as_str);
    let Some(source) = text("rule").filter(|source| !source.trim().is_empty()) else {
        return out;
    };
    let optional_old_self = rule
        .get("optionalOldSelf")
        .and_then(serde_json::Value::as_bool);
    let old_self = if optional_old_self == Some(true) {
        Type::optional(decl.ty.clone())
    } else {
        decl.ty.clone()
    };
    let variables = [("self", decl.ty.clone()), ("oldSelf", old_self)];
    let cardinality =
        cardinality.unwrap_or(super::types::MAX_REQUEST_BYTES / (decl.min_serialized_size + 1));
    let limit = super::estimate::STATIC_ESTIMATED_COST_LIMIT;
    let compiled = match compile(source, environment, &variables) {
        Ok(compiled) => compiled,
        Err(detail) => {
            out.costs.push(("rule", 0));
            out.refusals.push((
                "rule",
                format!("Invalid value: compilation failed: {detail}"),
            ));
            return out;
        }
    };
    if compiled.checked.result != Type::Bool {
        out.costs.push(("rule", 0));
        out.refusals.push((
            "rule",
            "Invalid value: cel expression must evaluate to a bool".to_string(),
        ));
        return out;
    }
    out.uses_old_self = compiled.parsed.expr.reads("oldSelf");
    if let Err(problem) = instantiate(&compiled) {
        out.costs.push(("rule", 0));
        out.refusals.push((
            "rule",
            format!("Invalid value: program instantiation failed: {problem}"),
        ));
        return out;
    }
    let cost = super::estimate::estimate(&compiled.parsed.expr, &compiled.checked.types, decl)
        .saturating_mul(cardinality);
    out.costs.push(("rule", cost));
    if cost > limit {
        let said = super::estimate::cost_exceeded("estimated rule cost", cost, limit);
        out.refusals
            .insert(0, ("rule", format!("Forbidden: {said}")));
    }
    if let Some(message) = text("messageExpression").filter(|m| !m.is_empty()) {
        match compile(message, environment, &variables) {
            Err(detail) => out.refusals.push((
                "messageExpression",
                format!("Invalid value: messageExpression compilation failed: {detail}"),
            )),
            Ok(compiled) if compiled.checked.result != Type::String => out.refusals.push((
                "messageExpression",
                "Invalid value: messageExpression must evaluate to a string".to_string(),
            )),
            Ok(compiled) => match instantiate(&compiled) {
                Err(problem) => out.refusals.push((
                    "messageExpression",
                    format!("Invalid value: messageExpression instantiation failed: {problem}"),
                )),
                Ok(()) => {
                    let cost = super::estimate::estimate(
                        &compiled.parsed.expr,
                        &compiled.checked.types,
                        decl,
                    );
                    if cost > limit {
                        let said = super::estimate::cost_exceeded(
                            "estimated messageExpression cost",
                            cost,
                            limit,
                        );
                        out.refusals
                            .push(("messageExpression", format!("Forbidden: {said}")));
                    }
                    out.costs.push(("messageExpression", cost));
                }
            },
        }
    }
    out
}
