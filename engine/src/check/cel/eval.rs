//! CEL's evaluation: operators, macros, selection and indexing, over the values of
//! [`super::value`]; functions are [`super::library`]'s.

use std::cmp::Ordering;
use std::rc::Rc;

use serde_json::Value;

use super::library;
use super::parse::{Binary, Expr, Literal, Macro, Macro2};
use super::value::{
    Evaluation, Fault, Result, Val, checked_duration, checked_timestamp, compare, compare_numbers,
    equal, error, no_overload, shown,
};

impl<'a> Evaluation<'a> {
    fn variable(&self, name: &str) -> Option<&Val<'a>> {
        self.variables
            .iter()
            .rev()
            .find(|(variable, _)| *variable == name)
            .map(|(_, value)| value)
    }

    pub fn eval(&mut self, expr: &'a Expr) -> Result<Val<'a>> {
        self.spend(1)?;
        match expr {
            Expr::Literal(literal) => Ok(match literal {
                Literal::Null => Val::Null,
                Literal::Bool(value) => Val::Bool(*value),
                Literal::Int(value) => Val::Int(*value),
                Literal::Uint(value) => Val::Uint(*value),
                Literal::Double(value) => Val::Double(*value),
                Literal::String(value) => Val::string(value),
                Literal::Bytes(value) => Val::Bytes(Rc::from(value.as_slice())),
            }),
            Expr::Ident(name) => match self.variable(name) {
                Some(value) => Ok(value.clone()),
                None => match name.as_str() {
                    "int" | "uint" | "double" | "bool" | "string" | "bytes" | "list" | "map"
                    | "null_type" | "type" => Ok(Val::Type(type_name(name))),
                    _ => error(format!("undeclared reference to '{name}'")),
                },
            },
            Expr::Select {
                operand,
                field,
                optional,
            } => {
                let operand = self.eval(operand)?;
                select(operand, field, *optional)
            }
            Expr::Index {
                operand,
                index,
                optional,
            } => {
                let operand = self.eval(operand)?;
                let index = self.eval(index)?;
                self.index(operand, index, *optional)
            }
            Expr::Has { operand, field } => {
                let operand = self.eval(operand)?;
                match &operand {
                    Val::Map(_) | Val::Json(Value::Object(_), _) => {
                        Ok(Val::Bool(operand.field(field).is_some()))
                    }
                    Val::Optional(None) => Ok(Val::Bool(false)),
                    _ => no_overload("has", &[&operand]),
                }
            }
            Expr::Call {
                target,
                function,
                args,
            } => {
                let target = match target {
                    Some(target) => Some(self.eval(target)?),
                    None => None,
                };
                if function == "or" || function == "orValue" {
                    // The alternative is evaluated only when needed.
                    if let Some(Val::Optional(Some(value))) = &target {
                        return Ok(match function.as_str() {
                            "or" => Val::Optional(Some(value.clone())),
                            _ => value.as_ref().clone(),
                        });
                    }
                }
                let mut values = Vec::with_capacity(args.len());
                for arg in args {
                    values.push(self.eval(arg)?);
                }
                library::call(self, target, function, values)
            }
            Expr::List(items) => {
                let mut values = Vec::with_capacity(items.len());
                for item in items {
                    values.push(self.eval(item)?);
                }
                Ok(Val::List(Rc::new(values)))
            }
            Expr::Map(entries) => {
                let mut values: Vec<(Val<'a>, Val<'a>)> = Vec::with_capacity(entries.len());
                for (key, value) in entries {
                    let key = self.eval(key)?;
                    if !matches!(key, Val::Str(_) | Val::Int(_) | Val::Uint(_) | Val::Bool(_)) {
                        return error(format!("a map key cannot be a {}", key.type_name()));
                    }
                    if values.iter().any(|(existing, _)| equal(existing, &key)) {
                        return error("a map literal repeats a key");
                    }
                    values.push((key, self.eval(value)?));
                }
                Ok(Val::Map(Rc::new(values)))
            }
            Expr::Not(operand) => match self.eval(operand)? {
                Val::Bool(value) => Ok(Val::Bool(!value)),
                other => no_overload("!_", &[&other]),
            },
            Expr::Negate(operand) => match self.eval(operand)? {
                Val::Int(value) => value
                    .checked_neg()
                    .map(Val::Int)
                    .ok_or_else(|| Fault::Error("integer overflow".into())),
                Val::Double(value) => Ok(Val::Double(-value)),
                Val::Duration(value) => Ok(Val::Duration(-value)),
                other => no_overload("-_", &[&other]),
            },
            Expr::And(left, right) => self.logic(left, right, false),
            Expr::Or(left, right) => self.logic(left, right, true),
            Expr::Conditional(condition, then, otherwise) => match self.eval(condition)? {
                Val::Bool(true) => self.eval(then),
                Val::Bool(false) => self.eval(otherwise),
                other => no_overload("_?_:_", &[&other]),
            },
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
                self.comprehension(*kind, range, variable, filter.as_deref(), body)
            }
            Expr::OptionalList(_)
            | Expr::OptionalMap(_)
            | Expr::Comprehension2 { .. }
            | Expr::SortBy { .. }
            | Expr::OptMap { .. } => self.eval_library_syntax(expr),
        }
    }

    /// `&&` (`decides` false) and `||` (`decides` true): commutative as CEL's are, an error on
    /// one side giving way to the side that decides.
    fn logic(&mut self, left: &'a Expr, right: &'a Expr, decides: bool) -> Result<Val<'a>> {
        let left = match self.eval(left) {
            Ok(Val::Bool(value)) if value == decides => return Ok(Val::Bool(decides)),
            Ok(Val::Bool(_)) => None,
            Ok(other) => Some(Fault::Error(format!(
                "no such overload: {}(bool, {})",
                if decides { "_||_" } else { "_&&_" },
                other.type_name()
            ))),
            Err(Fault::Budget) => return Err(Fault::Budget),
            Err(fault) => Some(fault),
        };
        match self.eval(right) {
            Ok(Val::Bool(value)) if value == decides => Ok(Val::Bool(decides)),
            Ok(Val::Bool(value)) => match left {
                None => Ok(Val::Bool(value)),
                Some(fault) => Err(fault),
            },
            Ok(other) => Err(left.unwrap_or_else(|| {
                Fault::Error(format!("no such overload for {}", other.type_name()))
            })),
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
        let found = match (&operand, &index) {
            (Val::List(_) | Val::Json(Value::Array(_), _), _) => {
                let position = match index {
                    Val::Int(position) => Some(position),
                    Val::Uint(position) => i64::try_from(position).ok(),
                    Val::Double(position) if position.fract() == 0.0 => Some(position as i64),
                    _ => return no_overload("_[_]", &[&operand, &index]),
                };
                let items = operand.items().unwrap_or_default();
                position
                    .and_then(|position| usize::try_from(position).ok())
                    .and_then(|position| items.get(position).cloned())
                    .ok_or_else(|| format!("index out of range: {}", position.unwrap_or(i64::MAX)))
            }
            (Val::Map(_) | Val::Json(Value::Object(_), _), _) => operand
                .get(&index)
                .or_else(|| {
                    // Numeric keys are found by value whatever their type.
                    let entries = operand.entries()?;
                    entries
                        .into_iter()
                        .find(|(key, _)| compare_numbers(key, &index) == Some(Ordering::Equal))
                        .map(|(_, value)| value)
                })
                .ok_or_else(|| format!("no such key: {}", shown(&index))),
            _ => return no_overload("_[_]", &[&operand, &index]),
        };
        match found {
            Ok(value) if optional || wrapped => Ok(Val::Optional(Some(Rc::new(value)))),
            Ok(value) => Ok(value),
            Err(_) if optional || wrapped => Ok(Val::Optional(None)),
            Err(message) => error(message),
        }
    }

    fn binary(&mut self, op: Binary, left: Val<'a>, right: Val<'a>) -> Result<Val<'a>> {
        use Val::*;
        let overflow = || Fault::Error("integer overflow".to_string());
        Ok(match op {
            Binary::Equal | Binary::NotEqual => {
                self.spend(left.weight().min(right.weight()))?;
                Bool(equal(&left, &right) == (op == Binary::Equal))
            }
            Binary::Less | Binary::LessOrEqual | Binary::Greater | Binary::GreaterOrEqual => {
                let ordering = compare(&left, &right)?;
                Bool(match op {
                    Binary::Less => ordering == Ordering::Less,
                    Binary::LessOrEqual => ordering != Ordering::Greater,
                    Binary::Greater => ordering == Ordering::Greater,
                    _ => ordering != Ordering::Less,
                })
            }
            Binary::In => {
                self.spend(right.weight())?;
                if let Some(items) = right.items() {
                    Bool(items.iter().any(|item| equal(item, &left)))
                } else if right.entries().is_some() {
                    Bool(
                        right.get(&left).is_some() || {
                            let entries = right.entries().unwrap_or_default();
                            entries.iter().any(|(key, _)| {
                                compare_numbers(key, &left) == Some(Ordering::Equal)
                            })
                        },
                    )
                } else {
                    return no_overload("@in", &[&left, &right]);
                }
            }
            Binary::Add => match (&left, &right) {
                (Int(a), Int(b)) => Int(a.checked_add(*b).ok_or_else(overflow)?),
                (Uint(a), Uint(b)) => Uint(a.checked_add(*b).ok_or_else(overflow)?),
                (Double(a), Double(b)) => Double(a + b),
                (Str(a), Str(b)) => {
                    self.spend((a.len() + b.len()) as u64 / 10)?;
                    Val::string(&format!("{a}{b}"))
                }
                (Bytes(a), Bytes(b)) => Bytes(Rc::from([a.as_ref(), b.as_ref()].concat())),
                (Duration(a), Duration(b)) => Duration(checked_duration(a + b)?),
                (Timestamp(a), Duration(b)) | (Duration(b), Timestamp(a)) => {
                    Timestamp(checked_timestamp(a + b)?)
                }
                _ => match (left.items(), right.items()) {
                    (Some(mut a), Some(b)) => {
                        self.spend((a.len() + b.len()) as u64)?;
                        a.extend(b);
                        List(Rc::new(a))
                    }
                    _ => return no_overload("_+_", &[&left, &right]),
                },
            },
            Binary::Subtract => match (&left, &right) {
                (Int(a), Int(b)) => Int(a.checked_sub(*b).ok_or_else(overflow)?),
                (Uint(a), Uint(b)) => Uint(a.checked_sub(*b).ok_or_else(overflow)?),
                (Double(a), Double(b)) => Double(a - b),
                (Duration(a), Duration(b)) => Duration(checked_duration(a - b)?),
                (Timestamp(a), Duration(b)) => Timestamp(checked_timestamp(a - b)?),
                (Timestamp(a), Timestamp(b)) => Duration(checked_duration(a - b)?),
                _ => return no_overload("_-_", &[&left, &right]),
            },
            Binary::Multiply => match (&left, &right) {
                (Int(a), Int(b)) => Int(a.checked_mul(*b).ok_or_else(overflow)?),
                (Uint(a), Uint(b)) => Uint(a.checked_mul(*b).ok_or_else(overflow)?),
                (Double(a), Double(b)) => Double(a * b),
                _ => return no_overload("_*_", &[&left, &right]),
            },
            Binary::Divide | Binary::Remainder => {
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

    fn comprehension(
        &mut self,
        kind: Macro,
        range: Val<'a>,
        variable: &'a str,
        filter: Option<&'a Expr>,
        body: &'a Expr,
    ) -> Result<Val<'a>> {
        let elements: Vec<Val<'a>> = if let Some(items) = range.items() {
            items
        } else if let Some(entries) = range.entries() {
            entries.into_iter().map(|(key, _)| key).collect()
        } else {
            return no_overload(
                match kind {
                    Macro::All => "all",
                    Macro::Exists => "exists",
                    Macro::ExistsOne => "exists_one",
                    Macro::Map => "map",
                    Macro::Filter => "filter",
                },
                &[&range],
            );
        };
        self.spend(elements.len() as u64)?;
        let mut first_error: Option<Fault> = None;
        let mut count = 0;
        let mut mapped = Vec::new();
        for element in elements {
            self.variables.push((variable, element.clone()));
            let outcome = self.comprehension_step(kind, filter, body);
            self.variables.pop();
            match outcome {
                Err(Fault::Budget) => return Err(Fault::Budget),
                Err(fault) => match kind {
                    Macro::All | Macro::Exists => {
                        first_error.get_or_insert(fault);
                    }
                    _ => return Err(fault),
                },
                Ok(None) => {}
                Ok(Some(value)) => match (kind, value) {
                    (Macro::All, Val::Bool(false)) => return Ok(Val::Bool(false)),
                    (Macro::Exists, Val::Bool(true)) => return Ok(Val::Bool(true)),
                    (Macro::All | Macro::Exists, Val::Bool(_)) => {}
                    (Macro::ExistsOne, Val::Bool(value)) => count += usize::from(value),
                    (Macro::Filter, Val::Bool(keep)) => {
                        if keep {
                            mapped.push(element);
                        }
                    }
                    (Macro::Map, value) => mapped.push(value),
                    (_, other) => {
                        let fault = Fault::Error(format!(
                            "a macro's predicate gave a {}, not a bool",
                            other.type_name()
                        ));
                        match kind {
                            Macro::All | Macro::Exists => {
                                first_error.get_or_insert(fault);
                            }
                            _ => return Err(fault),
                        }
                    }
                },
            }
        }
        if let Some(fault) = first_error {
            return Err(fault);
        }
        Ok(match kind {
            Macro::All => Val::Bool(true),
            Macro::Exists => Val::Bool(false),
            Macro::ExistsOne => Val::Bool(count == 1),
            Macro::Map | Macro::Filter => Val::List(Rc::new(mapped)),
        })
    }

    /// One element of a comprehension: the body's value, or none where a map's filter
    /// leaves the element out.
    fn comprehension_step(
        &mut self,
        kind: Macro,
        filter: Option<&'a Expr>,
        body: &'a Expr,
    ) -> Result<Option<Val<'a>>> {
        if kind == Macro::Map
            && let Some(filter) = filter
        {
            match self.eval(filter)? {
                Val::Bool(true) => {}
                Val::Bool(false) => return Ok(None),
                other => return no_overload("map's filter", &[&other]),
            }
        }
        self.eval(body).map(Some)
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
            Some(value) if optional || wrapped => Ok(Val::Optional(Some(Rc::new(value)))),
            Some(value) => Ok(value),
            None if optional || wrapped => Ok(Val::Optional(None)),
            None => error(format!("no such key: {field}")),
        },
        _ => error(format!(
            "no such field '{field}' on a {}",
            operand.type_name()
        )),
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
                let mut values: Vec<(Val<'a>, Val<'a>)> = Vec::with_capacity(entries.len());
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
                    if values.iter().any(|(existing, _)| equal(existing, &key)) {
                        return error("a map literal repeats a key");
                    }
                    values.push((key, value));
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
                self.comprehension2(*kind, range, (first, second), filter.as_deref(), body)
            }
            Expr::SortBy {
                range,
                variable,
                key,
            } => {
                let range = self.eval(range)?;
                let Some(items) = range.items() else {
                    return no_overload("sortBy", &[&range]);
                };
                self.spend(items.len() as u64)?;
                let mut keyed = Vec::with_capacity(items.len());
                for item in items {
                    self.variables.push((variable, item.clone()));
                    let key = self.eval(key);
                    self.variables.pop();
                    keyed.push((key?, item));
                }
                if let Some((first, _)) = keyed.first()
                    && keyed
                        .iter()
                        .any(|(key, _)| key.type_name() != first.type_name())
                {
                    return error("list elements must have the same type");
                }
                let mut failed = None;
                keyed.sort_by(|(a, _), (b, _)| {
                    compare(a, b).unwrap_or_else(|fault| {
                        failed.get_or_insert(fault);
                        Ordering::Equal
                    })
                });
                if let Some(fault) = failed {
                    return Err(fault);
                }
                Ok(Val::List(Rc::new(
                    keyed.into_iter().map(|(_, item)| item).collect(),
                )))
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

    /// A two-variable comprehension: over a list the index and the item, over a map the key
    /// and the value (cel-go's ext/comprehensions.go).
    fn comprehension2(
        &mut self,
        kind: Macro2,
        range: Val<'a>,
        (first, second): (&'a str, &'a str),
        filter: Option<&'a Expr>,
        body: &'a Expr,
    ) -> Result<Val<'a>> {
        let pairs: Vec<(Val<'a>, Val<'a>)> = if let Some(items) = range.items() {
            (0i64..).map(Val::Int).zip(items).collect()
        } else if let Some(entries) = range.entries() {
            entries
        } else {
            return no_overload(
                match kind {
                    Macro2::All => "all",
                    Macro2::Exists => "exists",
                    Macro2::ExistsOne => "existsOne",
                    Macro2::TransformList => "transformList",
                    Macro2::TransformMap => "transformMap",
                    Macro2::TransformMapEntry => "transformMapEntry",
                },
                &[&range],
            );
        };
        self.spend(pairs.len() as u64)?;
        let mut first_error: Option<Fault> = None;
        let mut count = 0;
        let mut list = Vec::new();
        let mut map: Vec<(Val<'a>, Val<'a>)> = Vec::new();
        for (key, value) in pairs {
            self.variables.push((first, key.clone()));
            self.variables.push((second, value));
            let outcome = (|| -> Result<Option<Val<'a>>> {
                if let Some(filter) = filter {
                    match self.eval(filter)? {
                        Val::Bool(true) => {}
                        Val::Bool(false) => return Ok(None),
                        other => return no_overload("_?_:_", &[&other]),
                    }
                }
                self.eval(body).map(Some)
            })();
            self.variables.pop();
            self.variables.pop();
            let value = match outcome {
                Err(Fault::Budget) => return Err(Fault::Budget),
                Err(fault) if matches!(kind, Macro2::All | Macro2::Exists) => {
                    first_error.get_or_insert(fault);
                    continue;
                }
                Err(fault) => return Err(fault),
                Ok(None) => continue,
                Ok(Some(value)) => value,
            };
            match (kind, value) {
                (Macro2::All, Val::Bool(false)) => return Ok(Val::Bool(false)),
                (Macro2::Exists, Val::Bool(true)) => return Ok(Val::Bool(true)),
                (Macro2::All | Macro2::Exists, Val::Bool(_)) => {}
                (Macro2::ExistsOne, Val::Bool(value)) => count += usize::from(value),
                (Macro2::TransformList, value) => list.push(value),
                (Macro2::TransformMap, value) => map.push((key, value)),
                (Macro2::TransformMapEntry, entry) => {
                    let Some(entries) = entry.entries() else {
                        return no_overload("cel.@mapInsert", &[&entry]);
                    };
                    for (key, value) in entries {
                        if map.iter().any(|(existing, _)| equal(existing, &key)) {
                            return error(format!(
                                "insert failed: key {} already exists",
                                shown(&key)
                            ));
                        }
                        map.push((key, value));
                    }
                }
                (_, other) => {
                    let fault = Fault::Error(format!(
                        "a macro's predicate gave a {}, not a bool",
                        other.type_name()
                    ));
                    if matches!(kind, Macro2::All | Macro2::Exists) {
                        first_error.get_or_insert(fault);
                    } else {
                        return Err(fault);
                    }
                }
            }
        }
        if let Some(fault) = first_error {
            return Err(fault);
        }
        Ok(match kind {
            Macro2::All => Val::Bool(true),
            Macro2::Exists => Val::Bool(false),
            Macro2::ExistsOne => Val::Bool(count == 1),
            Macro2::TransformList => Val::List(Rc::new(list)),
            Macro2::TransformMap | Macro2::TransformMapEntry => Val::Map(Rc::new(map)),
        })
    }
}
