//! CEL's evaluation: operators, macros, selection and indexing, over the values of
//! [`super::value`]; functions are [`super::library`]'s.
//!
//! Each step is charged as cel-go's cost tracker charges it (interpreter/runtimecost.go, the
//! macros as cel-go's parser expands them, parser/macro.go and ext/comprehensions.go): a
//! variable or a field selected 1, a constant 0, a list built 10 and a map 30 (a literal of
//! constants is folded: 0), a call by its function ([`super::library`]), `&&`, `||` and
//! `?:` nothing of their own. A comprehension pays its loop's own steps: `all` 3 per item
//! (its condition and accumulator), `exists` 4, `map` and `transformList` 12 per item kept,
//! `filter` 13, `transformMap` 3, `transformMapEntry` 2, and 1 or 2 for its result.
//! Where this evaluator does more work than cel-go charges (equality of nested lists and
//! maps, a list concatenated), it charges that work too, so that what an evaluation does is
//! bounded by its charge.

use std::cmp::Ordering;
use std::rc::Rc;

use serde_json::Value;

use super::library;
use super::parse::{Binary, Expr, Literal};
use super::value::{
    Entries, Evaluation, Fault, Fold, Result, Text, Val, checked_duration, checked_timestamp,
    compare, equal_counting, error, items_cost, no_overload, shown, traversal,
};

/// Whether `expr` is an attribute cel-go plans as one (a variable and the fields and indexes
/// selected from it): a conditional's chosen branch of that kind does not pay for its
/// variable.
fn rooted_at_variable(expr: &Expr) -> bool {
    match expr {
        Expr::Ident(_) => true,
        Expr::Select { operand, .. } | Expr::Index { operand, .. } => rooted_at_variable(operand),
        _ => false,
    }
}

/// Whether `expr` is an attribute (so a field selected from it is one more qualifier) rather
/// than a computed value (a field of which costs an attribute of its own).
fn is_attribute(expr: &Expr) -> bool {
    matches!(
        expr,
        Expr::Ident(_) | Expr::Select { .. } | Expr::Index { .. }
    )
}

/// Whether `expr` is a constant cel-go folds: a literal, or a list or map of them.
fn is_constant(expr: &Expr) -> bool {
    match expr {
        Expr::Literal(_) => true,
        Expr::List(items) => items.iter().all(is_constant),
        Expr::Map(entries) => entries
            .iter()
            .all(|(key, value)| is_constant(key) && is_constant(value)),
        _ => false,
    }
}

impl<'a> Evaluation<'a> {
    fn variable(&self, name: &str) -> Option<&Val<'a>> {
        self.variables
            .iter()
            .rev()
            .find(|(variable, _)| *variable == name)
            .map(|(_, value)| value)
    }

    /// The value of `expr`. A value of the object its schema does not allow is an error
    /// wherever it is used, as cel-go's error values are.
    pub fn eval(&mut self, expr: &'a Expr) -> Result<Val<'a>> {
        match self.eval_expr(expr)? {
            Val::Invalid(problem) => error(problem.to_string()),
            value => Ok(value),
        }
    }

    fn eval_expr(&mut self, expr: &'a Expr) -> Result<Val<'a>> {
        match expr {
            Expr::Literal(literal) => Ok(match literal {
                Literal::Null => Val::Null,
                Literal::Bool(value) => Val::Bool(*value),
                Literal::Int(value) => Val::Int(*value),
                Literal::Uint(value) => Val::Uint(*value),
                Literal::Double(value) => Val::Double(*value),
                Literal::String(value) => Val::Str(Text::Borrowed(value)),
                Literal::Bytes(value) => Val::Bytes(Rc::from(value.as_slice())),
            }),
            Expr::Ident(name) => match self.variable(name) {
                Some(value) => {
                    let value = value.clone();
                    self.spend(1)?;
                    Ok(value)
                }
                None => match name.as_str() {
                    "int" | "uint" | "double" | "bool" | "string" | "bytes" | "list" | "map"
                    | "null_type" | "type" => Ok(Val::Type(type_name(name))),
                    _ => error(format!("undeclared reference to '{name}'")),
                },
            },
            Expr::Select {
                operand: inner,
                field,
                optional,
            } => {
                let operand = self.eval(inner)?;
                if !is_attribute(inner) {
                    self.spend(1)?;
                }
                let selected = select(operand, field, *optional)?;
                // An optional field that is absent is not a qualification cel-go charges.
                if !matches!(selected, Val::Optional(None)) {
                    self.spend(1)?;
                }
                Ok(selected)
            }
            Expr::Index {
                operand: inner,
                index,
                optional,
            } => {
                let operand = self.eval(inner)?;
                if !is_attribute(inner) {
                    self.spend(1)?;
                }
                if matches!(**index, Expr::Literal(_)) {
                    self.spend(1)?;
                }
                let index = self.eval(index)?;
                self.index(operand, index, *optional)
            }
            Expr::Has { operand, field } => {
                let operand = self.eval(operand)?;
                match &operand {
                    Val::Map(_) | Val::Json(Value::Object(_), _) => match operand.field(field) {
                        Some(Val::Invalid(problem)) => error(problem.to_string()),
                        found => Ok(Val::Bool(found.is_some())),
                    },
                    Val::Optional(None) => Ok(Val::Bool(false)),
                    _ => no_overload("has", &[&operand]),
                }
            }
            Expr::Call {
                target,
                function,
                args,
            } => self.call(target.as_deref(), function, args),
            Expr::List(items) => {
                if !is_constant(expr) {
                    self.spend(10)?;
                }
                let mut values = Vec::with_capacity(items.len());
                for item in items {
                    values.push(self.eval(item)?);
                }
                Ok(Val::List(Rc::new(values)))
            }
            Expr::Map(entries) => {
                if !is_constant(expr) {
                    self.spend(30)?;
                }
                let mut values = Entries::with_capacity(entries.len());
                for (key, value) in entries {
                    let key = self.eval(key)?;
                    if !matches!(key, Val::Str(_) | Val::Int(_) | Val::Uint(_) | Val::Bool(_)) {
                        return error(format!("unsupported key type: {}", key.type_name()));
                    }
                    let value = self.eval(value)?;
                    if !values.insert(key.clone(), value) {
                        return error(format!("Failed with repeated key: {}", shown(&key)));
                    }
                }
                Ok(Val::map(values))
            }
            Expr::Not(operand) => {
                let value = self.eval(operand)?;
                self.spend(1)?;
                match value {
                    Val::Bool(value) => Ok(Val::Bool(!value)),
                    other => no_overload("!_", &[&other]),
                }
            }
            Expr::Negate(operand) => {
                let value = self.eval(operand)?;
                self.spend(1)?;
                match value {
                    Val::Int(value) => value
                        .checked_neg()
                        .map(Val::Int)
                        .ok_or_else(|| Fault::Error("integer overflow".into())),
                    Val::Double(value) => Ok(Val::Double(-value)),
                    Val::Duration(value) => checked_duration(-value).map(Val::Duration),
                    other => no_overload("-_", &[&other]),
                }
            }
            Expr::And(left, right) => self.logic(left, right, false),
            Expr::Or(left, right) => self.logic(left, right, true),
            Expr::Conditional(condition, then, otherwise) => {
                let branch = match self.eval(condition)? {
                    Val::Bool(true) => then,
                    Val::Bool(false) => otherwise,
                    other => return no_overload("_?_:_", &[&other]),
                };
                let value = self.eval(branch)?;
                if rooted_at_variable(branch) {
                    self.left += 1;
                }
                Ok(value)
            }
            Expr::Binary(op, left, right) => {
                let left = self.eval(left)?;
                let right = self.eval(right)?;
                self.binary(*op, left, right)
            }
            Expr::Comprehension {
                kind,
                range,
                variable,
                filter,
                body,
            } => {
                let range = self.eval(range)?;
                self.fold(
                    Fold::of(*kind),
                    range,
                    (variable, None),
                    filter.as_deref(),
                    body,
                )
            }
            Expr::OptionalList(_)
            | Expr::OptionalMap(_)
            | Expr::Comprehension2 { .. }
            | Expr::SortBy { .. }
            | Expr::OptMap { .. } => self.eval_library_syntax(expr),
        }
    }

    /// A call, or one of the macros the parser leaves as a call: the two-variable
    /// comprehensions, `sortBy`, `optMap`, `optFlatMap` and `lists.range`.
    fn call(
        &mut self,
        target: Option<&'a Expr>,
        function: &'a str,
        args: &'a [Expr],
    ) -> Result<Val<'a>> {
        let variable = |at: usize| match args.get(at) {
            Some(Expr::Ident(name)) => Ok(name.as_str()),
            _ => error(format!("{function}: argument {at} must be a simple name")),
        };
        // The parser names a namespaced function whole (`lists.range`).
        if target.is_none() && function == "lists.range" && args.len() == 1 {
            let count = self.eval(&args[0])?;
            return library::range(self, count);
        }
        if let Some(target) = target {
            if let Some(kind) = Fold::two_variable(function, args.len()) {
                let (first, second) = (variable(0)?, variable(1)?);
                let range = self.eval(target)?;
                let filter = (args.len() == 4).then(|| &args[2]);
                return self.fold(
                    kind,
                    range,
                    (first, Some(second)),
                    filter,
                    &args[args.len() - 1],
                );
            }
            match (function, args.len()) {
                ("sortBy", 2) => {
                    let name = variable(0)?;
                    let list = self.eval(target)?;
                    return library::sort_by(self, list, name, &args[1]);
                }
                ("optMap" | "optFlatMap", 2) => {
                    let name = variable(0)?;
                    let optional = self.eval(target)?;
                    self.spend(1)?;
                    let inner = match optional {
                        Val::Optional(None) => return Ok(Val::Optional(None)),
                        Val::Optional(Some(inner)) => inner.as_ref().clone(),
                        other => return no_overload(function, &[&other]),
                    };
                    self.spend(1)?;
                    self.variables.push((name, inner));
                    let mapped = self.eval(&args[1]);
                    self.variables.pop();
                    let mapped = mapped?;
                    return match (function, mapped) {
                        ("optMap", value) => {
                            self.spend(1)?;
                            Ok(Val::Optional(Some(Rc::new(value))))
                        }
                        (_, value @ Val::Optional(_)) => Ok(value),
                        (_, other) => no_overload(function, &[&other]),
                    };
                }
                _ => {}
            }
            if let Expr::Ident(namespace) = target
                && self.variable(namespace).is_none()
                && let ("lists", "range", 1) = (namespace.as_str(), function, args.len())
            {
                let count = self.eval(&args[0])?;
                return library::range(self, count);
            }
        }
        let target = match target {
            Some(target) => Some(self.eval(target)?),
            None => None,
        };
        if function == "or" || function == "orValue" {
            // The alternative is evaluated only when needed; cel-go charges neither.
            if let Some(Val::Optional(Some(value))) = &target {
                return Ok(match function {
                    "or" => Val::Optional(Some(value.clone())),
                    _ => value.as_ref().clone(),
                });
            }
            if let (Some(Val::Optional(None)), [alternative]) = (&target, args) {
                let alternative = self.eval(alternative)?;
                return match (function, alternative) {
                    ("orValue", value) => Ok(value),
                    (_, value @ Val::Optional(_)) => Ok(value),
                    (_, other) => no_overload("or", &[&other]),
                };
            }
        }
        let mut values = Vec::with_capacity(args.len());
        for arg in args {
            values.push(self.eval(arg)?);
        }
        library::call(self, target, function, values)
    }

    /// `&&` (`decides` false) and `||` (`decides` true): commutative as CEL's are, an error on
    /// one side giving way to the side that decides.
    fn logic(&mut self, left: &'a Expr, right: &'a Expr, decides: bool) -> Result<Val<'a>> {
        let left = match self.eval(left) {
            Ok(Val::Bool(value)) if value == decides => return Ok(Val::Bool(decides)),
            Ok(Val::Bool(_)) => None,
            Ok(_) => Some(Fault::Error("no such overload".to_string())),
            Err(Fault::Budget) => return Err(Fault::Budget),
            Err(fault) => Some(fault),
        };
        match self.eval(right) {
            Ok(Val::Bool(value)) if value == decides => Ok(Val::Bool(decides)),
            Ok(Val::Bool(value)) => match left {
                None => Ok(Val::Bool(value)),
                Some(fault) => Err(fault),
            },
            Ok(_) => Err(left.unwrap_or_else(|| Fault::Error("no such overload".to_string()))),
            Err(Fault::Budget) => Err(Fault::Budget),
            Err(fault) => Err(left.unwrap_or(fault)),
        }
    }

    fn index(&mut self, operand: Val<'a>, index: Val<'a>, optional: bool) -> Result<Val<'a>> {
        let (operand, wrapped) = match operand {
            Val::Optional(None) => return Ok(Val::Optional(None)),
            Val::Optional(Some(value)) => (value.as_ref().clone(), true),
            operand => (operand, false),
        };
        let found = if let Some(len) = operand.list_len() {
            let position = match index {
                Val::Int(position) => position,
                Val::Uint(position) => i64::try_from(position).unwrap_or(i64::MAX),
                Val::Double(position) if position.fract() == 0.0 => position as i64,
                _ => return no_overload("_[_]", &[&operand, &index]),
            };
            usize::try_from(position)
                .ok()
                .filter(|&at| at < len)
                .and_then(|at| operand.list_item(at))
                .ok_or_else(|| format!("index out of bounds: {position}"))
        } else if operand.is_map() {
            operand
                .get(&index)
                .ok_or_else(|| format!("no such key: {}", key_shown(&index)))
        } else {
            return no_overload("_[_]", &[&operand, &index]);
        };
        match found {
            Ok(Val::Invalid(problem)) => error(problem.to_string()),
            Ok(value) if optional || wrapped => Ok(Val::Optional(Some(Rc::new(value)))),
            Ok(value) => Ok(value),
            Err(_) if optional || wrapped => Ok(Val::Optional(None)),
            Err(message) => error(message),
        }
    }

    /// cel-go's `==`: `ceil(0.1 × the smaller size)` (1 for Kubernetes' own types), and the
    /// nested values compared beyond that.
    pub(super) fn equals(&mut self, left: &Val<'a>, right: &Val<'a>) -> Result<bool> {
        let cost = if is_kubernetes_type(left) {
            1
        } else {
            traversal(self.size(left).min(self.size(right)))
        };
        self.spend(cost)?;
        let mut visited = 0;
        let equal = equal_counting(left, right, &mut visited);
        self.spend(traversal(visited).saturating_sub(cost))?;
        Ok(equal)
    }

    fn binary(&mut self, op: Binary, left: Val<'a>, right: Val<'a>) -> Result<Val<'a>> {
        use Val::*;
        let overflow = || Fault::Error("integer overflow".to_string());
        Ok(match op {
            Binary::Equal | Binary::NotEqual => {
                Bool(self.equals(&left, &right)? == (op == Binary::Equal))
            }
            Binary::Less | Binary::LessOrEqual | Binary::Greater | Binary::GreaterOrEqual => {
                let cost = match (&left, &right) {
                    (Str(_), Str(_)) | (Bytes(_), Bytes(_)) => {
                        traversal(self.size(&left).min(self.size(&right)))
                    }
                    _ => 1,
                };
                self.spend(cost)?;
                let ordering = compare(&left, &right)?;
                Bool(match op {
                    Binary::Less => ordering == Ordering::Less,
                    Binary::LessOrEqual => ordering != Ordering::Greater,
                    Binary::Greater => ordering == Ordering::Greater,
                    _ => ordering != Ordering::Less,
                })
            }
            Binary::In => {
                if let Some(len) = right.list_len() {
                    self.spend(len as u64)?;
                    let mut visited = 0;
                    let mut found = false;
                    for at in 0..len {
                        if let Some(item) = right.list_item(at)
                            && equal_counting(&item, &left, &mut visited)
                        {
                            found = true;
                            break;
                        }
                    }
                    self.spend(traversal(visited).saturating_sub(len as u64))?;
                    Bool(found)
                } else if right.is_map() {
                    self.spend(1)?;
                    Bool(right.get(&left).is_some())
                } else {
                    return no_overload("@in", &[&left, &right]);
                }
            }
            Binary::Add => {
                match (&left, &right) {
                    (Str(a), Str(b)) => {
                        let cost = traversal(self.size(&left) + self.size(&right));
                        self.spend(cost)?;
                        if b.is_empty() {
                            return Ok(left);
                        }
                        if a.is_empty() {
                            return Ok(right);
                        }
                        let mut joined = String::with_capacity(a.len() + b.len());
                        joined.push_str(a);
                        joined.push_str(b);
                        return Ok(Val::owned(joined));
                    }
                    (Bytes(a), Bytes(b)) => {
                        self.spend(traversal((a.len() + b.len()) as u64))?;
                        return Ok(Bytes(Rc::from([a.as_ref(), b.as_ref()].concat())));
                    }
                    _ => {}
                }
                self.spend(1)?;
                match (&left, &right) {
                    (Int(a), Int(b)) => Int(a.checked_add(*b).ok_or_else(overflow)?),
                    (Uint(a), Uint(b)) => Uint(a.checked_add(*b).ok_or_else(overflow)?),
                    (Double(a), Double(b)) => Double(a + b),
                    (Duration(a), Duration(b)) => Duration(checked_duration(a + b)?),
                    (Timestamp(a), Duration(b)) | (Duration(b), Timestamp(a)) => {
                        Timestamp(checked_timestamp(a + b)?)
                    }
                    _ => match (left.list_len(), right.list_len()) {
                        (Some(0), Some(_)) => right,
                        (Some(_), Some(0)) => left,
                        (Some(a), Some(b)) => {
                            // cel-go concatenates lists without copying them and charges 1;
                            // this evaluator copies, and charges the copy.
                            self.spend(items_cost((a + b) as u64))?;
                            let mut joined = Vec::with_capacity(a + b);
                            joined.extend(left.elements().into_iter().flatten());
                            joined.extend(right.elements().into_iter().flatten());
                            List(Rc::new(joined))
                        }
                        _ => return no_overload("_+_", &[&left, &right]),
                    },
                }
            }
            Binary::Subtract => {
                self.spend(1)?;
                match (&left, &right) {
                    (Int(a), Int(b)) => Int(a.checked_sub(*b).ok_or_else(overflow)?),
                    (Uint(a), Uint(b)) => Uint(a.checked_sub(*b).ok_or_else(overflow)?),
                    (Double(a), Double(b)) => Double(a - b),
                    (Duration(a), Duration(b)) => Duration(checked_duration(a - b)?),
                    (Timestamp(a), Duration(b)) => Timestamp(checked_timestamp(a - b)?),
                    (Timestamp(a), Timestamp(b)) => Duration(checked_duration(a - b)?),
                    _ => return no_overload("_-_", &[&left, &right]),
                }
            }
            Binary::Multiply => {
                self.spend(1)?;
                match (&left, &right) {
                    (Int(a), Int(b)) => Int(a.checked_mul(*b).ok_or_else(overflow)?),
                    (Uint(a), Uint(b)) => Uint(a.checked_mul(*b).ok_or_else(overflow)?),
                    (Double(a), Double(b)) => Double(a * b),
                    _ => return no_overload("_*_", &[&left, &right]),
                }
            }
            Binary::Divide | Binary::Remainder => {
                self.spend(1)?;
                let divide = op == Binary::Divide;
                match (&left, &right) {
                    (Int(_), Int(0)) | (Uint(_), Uint(0)) => {
                        return error(if divide {
                            "division by zero"
                        } else {
                            "modulus by zero"
                        });
                    }
                    (Int(a), Int(b)) => Int(if divide {
                        a.checked_div(*b).ok_or_else(overflow)?
                    } else {
                        a.checked_rem(*b).ok_or_else(overflow)?
                    }),
                    (Uint(a), Uint(b)) => Uint(if divide { a / b } else { a % b }),
                    (Double(a), Double(b)) if divide => Double(a / b),
                    _ => {
                        return no_overload(if divide { "_/_" } else { "_%_" }, &[&left, &right]);
                    }
                }
            }
        })
    }

    /// A comprehension over `range` (a list's items, or a map's keys; with two variables, a
    /// list's indexes and items or a map's keys and values), charged as cel-go's expansion
    /// of the macro costs.
    pub fn fold(
        &mut self,
        kind: Fold,
        range: Val<'a>,
        (first, second): (&'a str, Option<&'a str>),
        filter: Option<&'a Expr>,
        body: &'a Expr,
    ) -> Result<Val<'a>> {
        let Some(elements) = range.elements() else {
            return no_overload(kind.name(), &[&range]);
        };
        let is_list = range.is_list();
        let mut first_error: Option<Fault> = None;
        let mut count: i64 = 0;
        let mut built: Vec<Val<'a>> = Vec::new();
        let mut map = Entries::default();
        let pushed = self.variables.len();
        let mut elements = elements.enumerate().peekable();
        while let Some((at, element)) = elements.next() {
            // The loop's condition: `@not_strictly_false(accu)`, with a `!` for exists.
            self.spend(match kind {
                Fold::All => 2,
                Fold::Exists => 3,
                _ => 0,
            })?;
            let (one, two) = match second {
                None => (element, None),
                Some(_) if is_list => (Val::Int(at as i64), Some(element)),
                Some(_) => {
                    let value = range.get(&element).unwrap_or(Val::Null);
                    (element, Some(value))
                }
            };
            self.variables.push((first, one.clone()));
            if let (Some(name), Some(value)) = (second, &two) {
                self.variables.push((name, value.clone()));
            }
            let outcome = self.fold_step(kind, filter, body);
            self.variables.truncate(pushed);
            let value = match outcome {
                Err(Fault::Budget) => return Err(Fault::Budget),
                Err(fault) if matches!(kind, Fold::All | Fold::Exists) => {
                    first_error.get_or_insert(fault);
                    continue;
                }
                Err(fault) => return Err(fault),
                Ok(None) => continue,
                Ok(Some(value)) => value,
            };
            match (kind, value) {
                // The loop stops at the next element's condition, then reads its result.
                (Fold::All, Val::Bool(false)) => {
                    self.spend(if elements.peek().is_some() { 3 } else { 1 })?;
                    return Ok(Val::Bool(false));
                }
                (Fold::Exists, Val::Bool(true)) => {
                    self.spend(if elements.peek().is_some() { 4 } else { 1 })?;
                    return Ok(Val::Bool(true));
                }
                (Fold::All | Fold::Exists, Val::Bool(_)) => {}
                (Fold::ExistsOne, Val::Bool(true)) => {
                    self.spend(2)?;
                    count += 1;
                }
                (Fold::ExistsOne, Val::Bool(false)) => {}
                (Fold::Filter, Val::Bool(keep)) => {
                    if keep {
                        self.spend(13)?;
                        built.push(two.unwrap_or(one));
                    }
                }
                (Fold::Map | Fold::TransformList, value) => built.push(value),
                (Fold::TransformMap, value) => {
                    if !map.insert(one.clone(), value) {
                        return error(format!(
                            "insert failed: key {} already exists",
                            key_shown(&one)
                        ));
                    }
                }
                (Fold::TransformMapEntry, entry) => {
                    let Val::Map(entry) = entry else {
                        return no_overload("cel.@mapInsert", &[&entry]);
                    };
                    for (key, value) in &entry.pairs {
                        if !map.insert(key.clone(), value.clone()) {
                            return error(format!(
                                "insert failed: key {} already exists",
                                key_shown(key)
                            ));
                        }
                    }
                }
                (_, _) => {
                    let fault = Fault::Error("no such overload".to_string());
                    if matches!(kind, Fold::All | Fold::Exists) {
                        first_error.get_or_insert(fault);
                    } else {
                        return Err(fault);
                    }
                }
            }
        }
        // The result: the accumulator read, compared with 1 for exists_one.
        self.spend(if kind == Fold::ExistsOne { 2 } else { 1 })?;
        if let Some(fault) = first_error {
            return Err(fault);
        }
        Ok(match kind {
            Fold::All => Val::Bool(true),
            Fold::Exists => Val::Bool(false),
            Fold::ExistsOne => Val::Bool(count == 1),
            Fold::Map | Fold::Filter | Fold::TransformList => Val::List(Rc::new(built)),
            Fold::TransformMap | Fold::TransformMapEntry => Val::map(map),
        })
    }

    /// One element of a comprehension: the body's value, or none where a filter leaves the
    /// element out. Charges the step's own cost (the accumulator read, the list or map
    /// insertion) before the body runs.
    fn fold_step(
        &mut self,
        kind: Fold,
        filter: Option<&'a Expr>,
        body: &'a Expr,
    ) -> Result<Option<Val<'a>>> {
        if let Some(filter) = filter {
            match self.eval(filter)? {
                Val::Bool(true) => {}
                Val::Bool(false) => return Ok(None),
                _ => return error("no such overload"),
            }
        }
        self.spend(match kind {
            Fold::All | Fold::Exists => 1,
            Fold::Map | Fold::TransformList => 12,
            Fold::TransformMap => 3,
            Fold::TransformMapEntry => 2,
            Fold::ExistsOne | Fold::Filter => 0,
        })?;
        self.eval(body).map(Some)
    }
}

/// Kubernetes' own types, whose `==` costs 1 (pkg/cel/library/cost.go).
fn is_kubernetes_type(value: &Val<'_>) -> bool {
    matches!(
        value,
        Val::Ip(_)
            | Val::Cidr(..)
            | Val::Url(_)
            | Val::Quantity(_)
            | Val::Format(_)
            | Val::Semver(_)
    )
}

/// A key as cel-go's `no such key` error shows it: the bare text of a string.
fn key_shown(key: &Val<'_>) -> String {
    match key {
        Val::Str(text) => text.to_string(),
        other => shown(other),
    }
}

/// `operand.field`: a field of an object or map; `.?field` and fields of optionals give
/// optionals.
fn select<'a>(operand: Val<'a>, field: &str, optional: bool) -> Result<Val<'a>> {
    let (operand, wrapped) = match operand {
        Val::Optional(None) => return Ok(Val::Optional(None)),
        Val::Optional(Some(value)) => (value.as_ref().clone(), true),
        operand => (operand, false),
    };
    match &operand {
        Val::Map(_) | Val::Json(Value::Object(_), _) => match operand.field(field) {
            Some(Val::Invalid(problem)) => error(problem.to_string()),
            Some(value) if optional || wrapped => Ok(Val::Optional(Some(Rc::new(value)))),
            Some(value) => Ok(value),
            None if optional || wrapped => Ok(Val::Optional(None)),
            None => error(format!("no such key: {field}")),
        },
        _ => error(format!("no such key: {field}")),
    }
}

fn type_name(name: &str) -> &'static str {
    match name {
        "int" => "int",
        "uint" => "uint",
        "double" => "double",
        "bool" => "bool",
        "string" => "string",
        "bytes" => "bytes",
        "list" => "list",
        "map" => "map",
        "null_type" => "null_type",
        _ => "type",
    }
}

/// The syntax of the libraries Kubernetes enables beyond CEL's core: optional elements and
/// entries (`[?x]`, `{?k: v}`), two-variable comprehensions, `sortBy`, `optMap` and
/// `optFlatMap`; as cel-go's interpreter evaluates their expansions.
impl<'a> Evaluation<'a> {
    fn eval_library_syntax(&mut self, expr: &'a Expr) -> Result<Val<'a>> {
        match expr {
            Expr::OptionalList(items) => {
                let mut values = Vec::with_capacity(items.len());
                for (item, optional) in items {
                    match (self.eval(item)?, optional) {
                        (Val::Optional(Some(value)), true) => values.push(value.as_ref().clone()),
                        (Val::Optional(None), true) => {}
                        (value, false) => values.push(value),
                        (other, true) => {
                            return error(format!(
                                "cannot initialize optional list element from non-optional \
                                 value {}",
                                shown(&other)
                            ));
                        }
                    }
                }
                Ok(Val::List(Rc::new(values)))
            }
            Expr::OptionalMap(entries) => {
                let mut values = Entries::with_capacity(entries.len());
                for (key, value, optional) in entries {
                    let key = self.eval(key)?;
                    if !matches!(key, Val::Str(_) | Val::Int(_) | Val::Uint(_) | Val::Bool(_)) {
                        return error(format!("a map key cannot be a {}", key.type_name()));
                    }
                    let value = match (self.eval(value)?, optional) {
                        (Val::Optional(Some(value)), true) => value.as_ref().clone(),
                        (Val::Optional(None), true) => continue,
                        (value, false) => value,
                        (other, true) => {
                            return error(format!(
                                "cannot initialize optional entry '{}' from non-optional value \
                                 {}",
                                shown(&key),
                                shown(&other)
                            ));
                        }
                    };
                    if !values.insert(key, value) {
                        return error("a map literal repeats a key");
                    }
                }
                Ok(Val::Map(Rc::new(values)))
            }
            Expr::Comprehension2 {
                kind,
                range,
                first,
                second,
                filter,
                body,
            } => {
                let range = self.eval(range)?;
                self.fold(
                    Fold::of_two_variable(*kind),
                    range,
                    (first, Some(second)),
                    filter.as_deref(),
                    body,
                )
            }
            Expr::SortBy {
                range,
                variable,
                key,
            } => {
                let range = self.eval(range)?;
                library::sort_by(self, range, variable, key)
            }
            Expr::OptMap {
                operand,
                variable,
                body,
                flat,
            } => {
                let function = if *flat { "optFlatMap" } else { "optMap" };
                match self.eval(operand)? {
                    Val::Optional(None) => Ok(Val::Optional(None)),
                    Val::Optional(Some(value)) => {
                        self.variables.push((variable, value.as_ref().clone()));
                        let mapped = self.eval(body);
                        self.variables.pop();
                        match (mapped?, flat) {
                            (optional @ Val::Optional(_), true) => Ok(optional),
                            (other, true) => no_overload(function, &[&other]),
                            (value, false) => Ok(Val::Optional(Some(Rc::new(value)))),
                        }
                    }
                    other => no_overload(function, &[&other]),
                }
            }
            _ => unreachable!("eval_library_syntax is called on library syntax only"),
        }
    }
}
