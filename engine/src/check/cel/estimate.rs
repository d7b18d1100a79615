//! The estimated cost of an expression, as cel-go's checker/cost.go estimates it with the
//! API server's size estimator (apiextensions-apiserver pkg/apiserver/schema/cel
//! compilation.go: the most elements a value at a path of the schema can have, from its
//! maxLength, maxItems and maxProperties or else from the largest request) and function
//! costs (apiserver pkg/cel/library/cost.go). The API server refuses a CRD whose rule is
//! estimated above 10,000,000 times the number of times its node can occur, or whose rules
//! together are above 100,000,000.
//!
//! The macros are costed as the comprehensions cel-go expands them to: `all` iterates
//! `@not_strictly_false(@result)` and `@result && predicate`, `map` appends a one-element list
//! to its accumulator, and so on.

use std::collections::HashMap;

use super::parse::{Binary, Expr, Literal, Macro, Macro2};
use super::types::{Decl, Type};

/// The per-rule limit: apiextensions validation.go `StaticEstimatedCostLimit`.
pub const STATIC_ESTIMATED_COST_LIMIT: u64 = 10_000_000;

/// cel-go's `common.StringTraversalCostFactor`: the cost of a character read.
const STRING_TRAVERSAL: f64 = 0.1;
/// cel-go's `common.RegexStringLengthCostFactor`.
const REGEX_LENGTH: f64 = 0.25;
/// apiserver pkg/cel/limits.go `MaxNameFormatRegexSize`: the size of the largest regex a
/// named format validates with.
const MAX_NAME_FORMAT_REGEX_SIZE: f64 = 128.0;
const LIST_CREATE: u64 = 10;
const MAP_CREATE: u64 = 30;

/// A range, of a cost or a size, that does not overflow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Range {
    min: u64,
    max: u64,
}

impl Range {
    const UNKNOWN: Range = Range {
        min: 0,
        max: u64::MAX,
    };

    fn fixed(n: u64) -> Range {
        Range { min: n, max: n }
    }

    fn add(self, other: Range) -> Range {
        Range {
            min: self.min.saturating_add(other.min),
            max: self.max.saturating_add(other.max),
        }
    }

    fn multiply(self, other: Range) -> Range {
        Range {
            min: self.min.saturating_mul(other.min),
            max: self.max.saturating_mul(other.max),
        }
    }

    /// cel-go's `MultiplyByCostFactor`: rounded up.
    fn factor(self, factor: f64) -> Range {
        let scale = |n: u64| {
            if n == u64::MAX {
                return u64::MAX;
            }
            let scaled = (n as f64 * factor).ceil();
            if scaled >= u64::MAX as f64 {
                u64::MAX
            } else {
                scaled as u64
            }
        };
        Range {
            min: scale(self.min),
            max: scale(self.max),
        }
    }

    fn union(self, other: Range) -> Range {
        Range {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }
}

/// The largest estimated cost of `expr`, checked to `types` (each node's, by its address),
/// whose `self` (and `oldSelf`) is declared `decl`.
pub fn estimate(expr: &Expr, types: &HashMap<*const Expr, Type>, decl: &Decl) -> u64 {
    let mut estimator = Estimator {
        types,
        root: decl,
        variables: Vec::new(),
        sizes: HashMap::new(),
    };
    estimator.cost(expr).max
}

/// The API server's message for an estimated cost over its limit (validation.go
/// `getCostErrorMessage`).
pub fn cost_exceeded(name: &str, cost: u64, limit: u64) -> String {
    let factor = cost as f64 / limit as f64;
    let factor = if factor > 100.0 {
        "more than 100x".to_string()
    } else if factor < 1.5 {
        format!("{factor:.6}x")
    } else {
        format!("{factor:.1}x")
    };
    format!(
        "{name} exceeds budget by factor of {factor} (try simplifying the rule, or adding \
         maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"
    )
}

/// Where a value comes from, for its size: a declaration of the schema, or a size known
/// otherwise.
#[derive(Clone, Copy)]
enum Origin<'d> {
    Decl(&'d Decl),
    Size(Range),
}

struct Estimator<'c, 'd> {
    types: &'c HashMap<*const Expr, Type>,
    root: &'d Decl,
    /// The comprehensions' variables, innermost last.
    variables: Vec<(&'c str, Option<Origin<'d>>)>,
    /// What each node's value comes from, when known.
    sizes: HashMap<*const Expr, Origin<'d>>,
}

impl<'c, 'd> Estimator<'c, 'd> {
    fn type_of(&self, expr: &Expr) -> Type {
        self.types
            .get(&(expr as *const Expr))
            .cloned()
            .unwrap_or(Type::Dyn)
    }

    fn origin(&self, expr: &Expr) -> Option<Origin<'d>> {
        self.sizes.get(&(expr as *const Expr)).copied()
    }

    /// cel-go's `sizeOrUnknown`: a literal's length, a schema value's most elements, 1 for a
    /// scalar, else unknown.
    fn size(&self, expr: &Expr) -> Range {
        match expr {
            Expr::Literal(Literal::String(text)) => {
                return Range::fixed(text.chars().count() as u64);
            }
            Expr::Literal(Literal::Bytes(bytes)) => return Range::fixed(bytes.len() as u64),
            Expr::Literal(_) => return Range::fixed(1),
            Expr::List(items) => return Range::fixed(items.len() as u64),
            Expr::Map(entries) => return Range::fixed(entries.len() as u64),
            _ => {}
        }
        // The API server's size estimator answers for every path, a scalar's too (its most
        // elements are 0), before cel-go's sizes of scalar types are asked.
        match self.origin(expr) {
            Some(Origin::Size(size)) => return size,
            Some(Origin::Decl(decl)) => {
                return Range {
                    min: 0,
                    max: decl.max_elements,
                };
            }
            _ => {}
        }
        if is_scalar(&self.type_of(expr)) {
            return Range::fixed(1);
        }
        Range::UNKNOWN
    }

    fn element_origin(&self, expr: &Expr) -> Option<Origin<'d>> {
        match self.origin(expr) {
            Some(Origin::Decl(decl)) => decl.element.as_deref().map(Origin::Decl),
            _ => None,
        }
    }

    fn cost(&mut self, expr: &'c Expr) -> Range {
        let key = expr as *const Expr;
        match expr {
            Expr::Literal(_) => Range::fixed(0),
            Expr::Ident(name) => {
                // The API server's size estimator walks a path from its second step: any
                // root (`self`, `oldSelf`, `int`, a variable over a literal) is the rule's node.
                let origin = match self.variables.iter().rev().find(|(v, _)| v == name) {
                    Some((_, Some(origin))) => Some(*origin),
                    _ => Some(Origin::Decl(self.root)),
                };
                if let Some(origin) = origin {
                    self.sizes.insert(key, origin);
                }
                Range::fixed(1)
            }
            Expr::Select { operand, field, .. } => {
                let mut cost = self.cost(operand);
                if matches!(
                    self.type_of(operand).unwrap_optional().0,
                    Type::Map(..) | Type::Object(_) | Type::Param(_)
                ) {
                    cost = cost.add(Range::fixed(1));
                }
                if let Some(Origin::Decl(decl)) = self.origin(operand) {
                    let below = match &decl.ty {
                        Type::Object(_) => decl.field(field).map(|f| &**f),
                        Type::Map(..) => decl.element.as_deref(),
                        _ => None,
                    };
                    if let Some(below) = below {
                        self.sizes.insert(key, Origin::Decl(below));
                    }
                }
                cost
            }
            // Presence tests cost nothing of their own (PresenceTestHasCost(false)).
            Expr::Has { operand, .. } => self.cost(operand),
            Expr::Index { operand, index, .. } => {
                let cost = self.cost(operand).add(self.cost(index));
                if let Some(element) = self.element_origin(operand) {
                    self.sizes.insert(key, element);
                }
                cost.add(Range::fixed(1))
            }
            Expr::List(items) => {
                let mut cost = Range::fixed(LIST_CREATE);
                for item in items {
                    cost = cost.add(self.cost(item));
                }
                cost
            }
            Expr::OptionalList(items) => {
                let mut cost = Range::fixed(LIST_CREATE);
                for (item, _) in items {
                    cost = cost.add(self.cost(item));
                }
                cost
            }
            Expr::Map(entries) => {
                let mut cost = Range::fixed(MAP_CREATE);
                for (k, v) in entries {
                    cost = cost.add(self.cost(k)).add(self.cost(v));
                }
                cost
            }
            Expr::OptionalMap(entries) => {
                let mut cost = Range::fixed(MAP_CREATE);
                for (k, v, _) in entries {
                    cost = cost.add(self.cost(k)).add(self.cost(v));
                }
                cost
            }
            Expr::Not(operand) | Expr::Negate(operand) => self.cost(operand).add(Range::fixed(1)),
            Expr::And(left, right) | Expr::Or(left, right) => {
                let left = self.cost(left);
                let right = self.cost(right);
                Range {
                    min: left.min,
                    max: left.add(right).max,
                }
            }
            Expr::Conditional(condition, then, otherwise) => {
                let condition = self.cost(condition);
                let then_cost = self.cost(then);
                let otherwise_cost = self.cost(otherwise);
                let size = self.size(then).union(self.size(otherwise));
                self.sizes.insert(key, Origin::Size(size));
                condition.add(then_cost.union(otherwise_cost))
            }
            Expr::Binary(op, left, right) => {
                let arguments = self.cost(left).add(self.cost(right));
                let (left_size, right_size) = (self.size(left), self.size(right));
                let left_type = self.type_of(left);
                let call = match op {
                    Binary::Equal | Binary::NotEqual => compare_cost(left_size, right_size),
                    Binary::Less
                    | Binary::LessOrEqual
                    | Binary::Greater
                    | Binary::GreaterOrEqual
                        if matches!(left_type, Type::String | Type::Bytes) =>
                    {
                        compare_cost(left_size, right_size)
                    }
                    Binary::In if matches!(self.type_of(right), Type::List(_)) => {
                        right_size.factor(1.0)
                    }
                    Binary::Add
                        if matches!(left_type, Type::String | Type::Bytes | Type::List(_)) =>
                    {
                        let size = left_size.add(right_size);
                        self.sizes.insert(key, Origin::Size(size));
                        if matches!(left_type, Type::List(_)) {
                            Range::fixed(1)
                        } else {
                            size.factor(STRING_TRAVERSAL)
                        }
                    }
                    _ => Range::fixed(1),
                };
                call.add(arguments)
            }
            Expr::Call {
                target,
                function,
                args,
            } => self.call(expr, target.as_deref(), function, args),
            Expr::Comprehension {
                kind,
                range,
                variable,
                filter,
                body,
            } => {
                let range_cost = self.cost(range);
                let count = self.size(range);
                // One variable over a map is its key.
                let over_map = matches!(self.type_of(range), Type::Map(..));
                let item = self.item_origin(range, over_map);
                self.variables.push((variable, item));
                let filter_cost = filter.as_deref().map(|filter| self.cost(filter));
                let body_cost = self.cost(body);
                self.variables.pop();
                let (init, per_item, result) = match kind {
                    // @not_strictly_false(@result), then @result && body; the result read.
                    Macro::All => (0, Range::fixed(3).add(body_cost), 1),
                    // @not_strictly_false(!@result), then @result || body.
                    Macro::Exists => (0, Range::fixed(4).add(body_cost), 1),
                    // body ? @result + 1 : @result; then @result == 1.
                    Macro::ExistsOne => (0, body_cost.add(Range::fixed(2)), 2),
                    // body ? @result + [item] : @result, from [].
                    Macro::Filter => (LIST_CREATE, body_cost.add(Range::fixed(13)), 1),
                    Macro::Map => {
                        let append = body_cost.add(Range::fixed(12));
                        let step = match filter_cost {
                            Some(filter) => filter.add(append.union(Range::fixed(1))),
                            None => append,
                        };
                        (LIST_CREATE, step, 1)
                    }
                };
                if matches!(kind, Macro::Map | Macro::Filter) {
                    self.sizes.insert(key, Origin::Size(count));
                }
                range_cost
                    .add(Range::fixed(init + result))
                    .add(count.multiply(per_item))
            }
            Expr::Comprehension2 {
                kind,
                range,
                first,
                second,
                filter,
                body,
            } => {
                let range_cost = self.cost(range);
                let count = self.size(range);
                let key_origin = self.item_origin(range, true);
                let value_origin = self.item_origin(range, false);
                self.variables.push((first, key_origin));
                self.variables.push((second, value_origin));
                let filter_cost = filter.as_deref().map(|filter| self.cost(filter));
                let body_cost = self.cost(body);
                self.variables.pop();
                self.variables.pop();
                let (init, step) = match kind {
                    Macro2::All => (0, Range::fixed(3).add(body_cost)),
                    Macro2::Exists => (0, Range::fixed(4).add(body_cost)),
                    Macro2::ExistsOne => (0, body_cost.add(Range::fixed(2))),
                    Macro2::TransformList => (LIST_CREATE, body_cost.add(Range::fixed(12))),
                    // cel.@mapInsert(@result, key, value) or (@result, entry).
                    Macro2::TransformMap => (MAP_CREATE, body_cost.add(Range::fixed(3))),
                    Macro2::TransformMapEntry => (MAP_CREATE, body_cost.add(Range::fixed(2))),
                };
                let step = match filter_cost {
                    Some(filter) => filter.add(step.union(Range::fixed(1))),
                    None => step,
                };
                let result = if *kind == Macro2::ExistsOne { 2 } else { 1 };
                if matches!(
                    kind,
                    Macro2::TransformList | Macro2::TransformMap | Macro2::TransformMapEntry
                ) {
                    self.sizes.insert(key, Origin::Size(count));
                }
                range_cost
                    .add(Range::fixed(init + result))
                    .add(count.multiply(step))
            }
            Expr::SortBy {
                range,
                variable,
                key: sort_key,
            } => {
                // @sortByAssociatedKeys(range, range.map(variable, key)).
                let range_cost = self.cost(range);
                let count = self.size(range);
                let item = self.item_origin(range, false);
                self.variables.push((variable, item));
                let key_cost = self.cost(sort_key);
                self.variables.pop();
                let mapping = Range::fixed(LIST_CREATE + 1)
                    .add(count.multiply(key_cost.add(Range::fixed(12))));
                self.sizes.insert(key, Origin::Size(count));
                // ext.Lists' sort estimate: n² comparisons, a tenth more for strings.
                let factor = match self.type_of(sort_key) {
                    Type::String | Type::Bytes => 2.0 + STRING_TRAVERSAL,
                    _ => 2.0,
                };
                let sort = count
                    .multiply(count)
                    .factor(factor)
                    .add(Range::fixed(1 + LIST_CREATE));
                range_cost.add(range_cost).add(mapping).add(sort)
            }
            Expr::OptMap {
                operand,
                variable,
                body,
                ..
            } => {
                // operand.hasValue() ? optional.of(body) : optional.none(), the variable bound
                // to operand.value().
                let operand_cost = self.cost(operand);
                self.variables.push((variable, None));
                let body_cost = self.cost(body);
                self.variables.pop();
                operand_cost.add(Range::fixed(1)).add(
                    body_cost
                        .add(operand_cost)
                        .add(Range::fixed(2))
                        .union(Range::fixed(1)),
                )
            }
        }
    }

    /// What a comprehension's variable over `range` comes from: a list's items or a map's
    /// keys (`key` over a list is its index, a scalar).
    fn item_origin(&self, range: &Expr, key: bool) -> Option<Origin<'d>> {
        match self.origin(range) {
            Some(Origin::Decl(decl)) => match &decl.ty {
                Type::List(_) if key => Some(Origin::Size(Range::fixed(1))),
                Type::List(_) => decl.element.as_deref().map(Origin::Decl),
                // A map's keys are declared strings with no most elements.
                Type::Map(..) if key => Some(Origin::Size(Range::fixed(0))),
                Type::Map(..) => decl.element.as_deref().map(Origin::Decl),
                _ => None,
            },
            _ => None,
        }
    }

    fn call(
        &mut self,
        expr: &'c Expr,
        target: Option<&'c Expr>,
        function: &str,
        args: &'c [Expr],
    ) -> Range {
        let key = expr as *const Expr;
        let mut arguments = Range::fixed(0);
        for arg in args {
            arguments = arguments.add(self.cost(arg));
        }
        if function == "dyn" && args.len() == 1 {
            if let Some(origin) = self.origin(&args[0]) {
                self.sizes.insert(key, origin);
            }
            return arguments.add(Range::fixed(1));
        }
        if let Some(target) = target {
            arguments = arguments.add(self.cost(target));
        }
        let target_size = target.map(|target| self.size(target));
        let arg_size = |index: usize, this: &Self| args.get(index).map(|arg| this.size(arg));
        let element_cost = |this: &Self, target: &Expr| {
            let mut cost = Range::fixed(1);
            if let Type::List(item) = this.type_of(target)
                && matches!(*item, Type::String | Type::Bytes)
            {
                let size = match this.element_origin(target) {
                    Some(Origin::Decl(decl)) => Range {
                        min: 0,
                        max: decl.max_elements,
                    },
                    _ => Range::UNKNOWN,
                };
                cost = cost.add(size.factor(STRING_TRAVERSAL));
            }
            cost
        };
        let call = match (function, target, target_size) {
            ("check", ..) => Range::fixed(350_000),
            (
                "isSorted" | "sum" | "max" | "min" | "indexOf" | "lastIndexOf",
                Some(target),
                Some(size),
            ) => {
                if matches!(self.type_of(target), Type::List(_)) {
                    size.multiply(element_cost(self, target))
                } else {
                    size.factor(STRING_TRAVERSAL)
                }
            }
            ("lowerAscii" | "upperAscii" | "substring" | "trim", Some(_), Some(size)) => {
                self.sizes.insert(key, Origin::Size(size));
                size.factor(STRING_TRAVERSAL)
            }
            ("replace", Some(_), Some(size)) if args.len() >= 2 => {
                self.sizes.insert(key, Origin::Size(Range::UNKNOWN));
                size.factor(2.0 * STRING_TRAVERSAL)
            }
            ("split", Some(_), Some(size)) => {
                self.sizes.insert(
                    key,
                    Origin::Size(Range {
                        min: 0,
                        max: size.max,
                    }),
                );
                size.factor(2.0 * STRING_TRAVERSAL)
            }
            ("join", Some(target), Some(list)) => {
                let element = match self.element_origin(target) {
                    Some(Origin::Decl(decl)) => Range {
                        min: 0,
                        max: decl.max_elements,
                    },
                    _ => Range::UNKNOWN,
                };
                let mut size = list.multiply(element);
                if let Some(separator) = arg_size(0, self) {
                    let separators = Range {
                        min: list.min.saturating_sub(1),
                        max: list.max.saturating_sub(1),
                    };
                    size = size.add(separator.multiply(separators));
                }
                self.sizes.insert(key, Origin::Size(size));
                size.factor(STRING_TRAVERSAL)
            }
            ("find" | "findAll", Some(_), Some(size)) if !args.is_empty() => {
                let text = size.add(Range::fixed(1)).factor(STRING_TRAVERSAL);
                let regex = arg_size(0, self)
                    .unwrap_or(Range::UNKNOWN)
                    .factor(REGEX_LENGTH);
                self.sizes.insert(
                    key,
                    Origin::Size(Range {
                        min: 0,
                        max: size.max,
                    }),
                );
                text.multiply(regex)
            }
            ("matches", Some(_), Some(size)) if args.len() == 1 => {
                let text = size.add(Range::fixed(1)).factor(STRING_TRAVERSAL);
                text.multiply(
                    arg_size(0, self)
                        .unwrap_or(Range::UNKNOWN)
                        .factor(REGEX_LENGTH),
                )
            }
            ("contains", Some(_), Some(size)) if args.len() == 1 => {
                size.factor(STRING_TRAVERSAL).multiply(
                    arg_size(0, self)
                        .unwrap_or(Range::UNKNOWN)
                        .factor(STRING_TRAVERSAL),
                )
            }
            ("startsWith" | "endsWith", Some(_), Some(_)) if args.len() == 1 => arg_size(0, self)
                .unwrap_or(Range::UNKNOWN)
                .factor(STRING_TRAVERSAL),
            ("format", Some(_), Some(size)) => size.factor(STRING_TRAVERSAL),
            // A named format's validate runs its regex over the string: apiserver
            // pkg/cel/library/cost.go charges the string's size for its traversal and for a
            // regex of the largest named format's size (limits.go MaxNameFormatRegexSize).
            ("validate", Some(_), _) if args.len() == 1 => arg_size(0, self)
                .unwrap_or(Range::UNKNOWN)
                .factor(STRING_TRAVERSAL)
                .factor(MAX_NAME_FORMAT_REGEX_SIZE * REGEX_LENGTH),
            (
                "url" | "cidr" | "isIP" | "isCIDR" | "ip" | "isURL" | "quantity" | "isQuantity"
                | "semver" | "isSemver",
                None,
                _,
            ) if !args.is_empty() => arg_size(0, self)
                .unwrap_or(Range::UNKNOWN)
                .factor(STRING_TRAVERSAL),
            ("ip.isCanonical", None, _) if !args.is_empty() => arg_size(0, self)
                .unwrap_or(Range::UNKNOWN)
                .factor(2.0 * STRING_TRAVERSAL),
            ("bytes" | "string", None, _)
                if args.len() == 1
                    && matches!(self.type_of(&args[0]), Type::String | Type::Bytes) =>
            {
                arg_size(0, self)
                    .unwrap_or(Range::UNKNOWN)
                    .factor(STRING_TRAVERSAL)
            }
            ("strings.quote", None, _) if args.len() == 1 => arg_size(0, self)
                .unwrap_or(Range::UNKNOWN)
                .factor(STRING_TRAVERSAL),
            ("sets.contains" | "sets.equivalent" | "sets.intersects", None, _)
                if args.len() == 2 =>
            {
                let a = arg_size(0, self).unwrap_or(Range::UNKNOWN);
                let b = arg_size(1, self).unwrap_or(Range::UNKNOWN);
                a.multiply(b)
            }
            // cel-go's ext.Lists estimates: the result list's size times a factor, one for
            // the call and ten for the list.
            ("sort" | "distinct", Some(target), Some(size)) => {
                let strings = matches!(
                    self.type_of(target),
                    Type::List(item) if matches!(*item, Type::String | Type::Bytes)
                );
                let factor = if function == "sort" && strings {
                    2.0 + STRING_TRAVERSAL
                } else {
                    2.0
                };
                let result = size.multiply(size);
                self.sizes.insert(key, Origin::Size(result));
                result.factor(factor).add(Range::fixed(1 + LIST_CREATE))
            }
            ("reverse" | "flatten", Some(target), Some(size))
                if matches!(self.type_of(target), Type::List(_)) =>
            {
                self.sizes.insert(key, Origin::Size(size));
                size.add(Range::fixed(1 + LIST_CREATE))
            }
            ("slice", Some(_), Some(size)) if args.len() == 2 => {
                let start = literal_uint(&args[0]).unwrap_or(0);
                let end = literal_uint(&args[1]).unwrap_or(size.max);
                let result = Range::fixed(end.saturating_sub(start));
                self.sizes.insert(key, Origin::Size(result));
                result.add(Range::fixed(1 + LIST_CREATE))
            }
            ("lists.range", None, _) if args.len() == 1 => {
                let result = Range::fixed(literal_uint(&args[0]).unwrap_or(u64::MAX));
                self.sizes.insert(key, Origin::Size(result));
                result.add(Range::fixed(1 + LIST_CREATE))
            }
            _ => Range::fixed(1),
        };
        call.add(arguments)
    }
}

/// The value of an integer literal, as ext.Lists' `nodeAsUintValue` reads it.
fn literal_uint(expr: &Expr) -> Option<u64> {
    match expr {
        Expr::Literal(Literal::Int(value)) => u64::try_from(*value).ok(),
        Expr::Literal(Literal::Uint(value)) => Some(*value),
        _ => None,
    }
}

/// cel-go's equality and string comparison: one per ten characters of the shorter.
fn compare_cost(left: Range, right: Range) -> Range {
    let smallest = left.max.min(right.max);
    Range {
        min: u64::from(smallest > 0),
        max: smallest,
    }
    .factor(STRING_TRAVERSAL)
}

/// cel-go's `isScalar`: a type whose values have one size.
fn is_scalar(t: &Type) -> bool {
    matches!(
        t,
        Type::Bool | Type::Double | Type::Duration | Type::Int | Type::Timestamp | Type::Uint
    )
}
