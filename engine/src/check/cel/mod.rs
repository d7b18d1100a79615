//! CEL validation rules of CRD schemas (`x-kubernetes-validations`), judged as the API server
//! judges them: the rule evaluated with `self` the value at its node, the rule's `message` or
//! evaluated `messageExpression`, its `reason` and `fieldPath`.
//!
//! The evaluator is this project's own ([`parse`], [`eval`], [`library`]) rather than the
//! `cel` crate (formerly `cel-interpreter`): that crate has no bound on a rule's evaluation,
//! which the API server has and a check of a pull request needs, and none of Kubernetes'
//! libraries, which would be written here either way; the subset Kubernetes' rules use is
//! small, and owning it makes the budget a count of steps, the same on every machine.

mod checker;
mod environment;
mod escape;
mod estimate;
mod eval;
mod kubernetes;
mod library;
mod parse;
mod regexp;
mod shape;
mod types;
mod value;

pub use checker::compile_rule;
pub use environment::Environment;
pub use estimate::cost_exceeded;
pub use regexp::go_regexp;
pub use shape::Shape;
pub use types::Decl;

use serde_json::Value;

use self::parse::Expr;
use self::value::{Evaluation, Fault, Val};

/// The most one rule may cost on one value: the API server's per-call limit
/// (`PerCallLimit`, 1,000,000), in steps of about its cost units.
pub const CALL_BUDGET: u64 = 1_000_000;

/// The most all the rules of one object may cost: the API server's `RuntimeCELCostBudget`
/// (10,000,000).
pub const OBJECT_BUDGET: u64 = 10_000_000;

/// One `x-kubernetes-validations` entry, compiled with its CRD.
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    source: String,
    program: Result<Expr, String>,
    message: Option<String>,
    message_expression: Option<Result<Expr, String>>,
    reason: Option<String>,
    field_path: Option<String>,
    transition: bool,
}

/// What a rule says of a value.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    Holds,
    /// The value fails the rule: the path below the value to report at (`fieldPath`), and
    /// what the message says.
    Fails {
        field: Option<String>,
        problem: String,
    },
    /// The object's CEL budget ran out.
    OutOfBudget,
}

impl Rule {
    pub fn from_crd(value: &Value) -> Rule {
        let text = |name: &str| value.get(name).and_then(Value::as_str).map(String::from);
        let source = text("rule").unwrap_or_default();
        let program = parse::parse(&source);
        let transition = program
            .as_ref()
            .is_ok_and(|program| program.reads("oldSelf"));
        Rule {
            message_expression: text("messageExpression").map(|source| parse::parse(&source)),
            message: text("message"),
            reason: text("reason"),
            field_path: text("fieldPath"),
            program,
            source,
            transition,
        }
    }

    /// A transition rule reads `oldSelf`: it judges a change, and a build has no object
    /// before the change.
    pub fn is_transition(&self) -> bool {
        self.transition
    }

    /// Judges `value` (of `schema`), spending from `left`, the object's CEL budget.
    pub fn judge(&self, value: &Value, schema: &dyn Shape, left: &mut u64) -> Verdict {
        self.judge_with(value, None, schema, left)
    }

    /// Judges the change of a value from `old` to `value` (of `schema`), `oldSelf` bound to
    /// `old`, as the API server judges an update; spends from `left`.
    pub fn judge_change(
        &self,
        value: &Value,
        old: &Value,
        schema: &dyn Shape,
        left: &mut u64,
    ) -> Verdict {
        self.judge_with(value, Some(old), schema, left)
    }

    fn judge_with(
        &self,
        value: &Value,
        old: Option<&Value>,
        schema: &dyn Shape,
        left: &mut u64,
    ) -> Verdict {
        let program = match &self.program {
            Ok(program) => program,
            Err(problem) => {
                return Verdict::Fails {
                    field: None,
                    problem: format!(
                        "the CRD's rule `{}` does not compile: {problem}; the API server \
                         refuses the CRD",
                        self.source
                    ),
                };
            }
        };
        let budget = CALL_BUDGET.min(*left);
        let (outcome, spent) = evaluate(program, (value, old), schema, budget);
        *left -= spent;
        let failed = |problem: String| Verdict::Fails {
            field: self.field_path.clone(),
            problem,
        };
        match outcome {
            Ok(Val::Bool(true)) => Verdict::Holds,
            Ok(Val::Bool(false)) => {
                failed(self.reason_said(self.message((value, old), schema, left)))
            }
            Ok(other) => failed(format!(
                "the rule `{}` gives a {}, not a bool",
                self.source,
                other.type_name()
            )),
            Err(Fault::Budget) if budget < CALL_BUDGET => Verdict::OutOfBudget,
            Err(Fault::Budget) => failed(format!(
                "the rule `{}` costs more than the API server allows one rule on one value \
                 ({} steps)",
                self.source, CALL_BUDGET
            )),
            Err(Fault::Error(problem)) => failed(format!(
                "the rule `{}` cannot be evaluated: {problem}",
                self.source
            )),
        }
    }

    /// The message of a failure: the evaluated `messageExpression` when it gives a
    /// non-empty string of one line, else `message`, else the rule.
    fn message(
        &self,
        values: (&Value, Option<&Value>),
        schema: &dyn Shape,
        left: &mut u64,
    ) -> String {
        if let Some(Ok(expression)) = &self.message_expression {
            let budget = CALL_BUDGET.min(*left);
            let (outcome, spent) = evaluate(expression, values, schema, budget);
            *left -= spent;
            if let Ok(Val::Str(text)) = outcome
                && !text.trim().is_empty()
                && !text.contains('\n')
            {
                return text.to_string();
            }
        }
        match &self.message {
            Some(message) if !message.is_empty() => message.clone(),
            _ => format!("failed rule: {}", self.source),
        }
    }

    /// The message with the `reason` before it, as the API server words its field errors.
    fn reason_said(&self, message: String) -> String {
        match self.reason.as_deref() {
            Some("FieldValueForbidden") => format!("Forbidden: {message}"),
            Some("FieldValueRequired") => format!("Required value: {message}"),
            Some("FieldValueDuplicate") => format!("Duplicate value: {message}"),
            _ => message,
        }
    }
}

/// Evaluates `program` with `self` bound to the value, and `oldSelf` to the old one when it
/// judges a change: its value and the steps spent.
fn evaluate<'a>(
    program: &'a Expr,
    (value, old): (&'a Value, Option<&'a Value>),
    schema: &'a dyn Shape,
    budget: u64,
) -> (value::Result<Val<'a>>, u64) {
    let mut variables = vec![("self", Val::of_json(value, Some(schema)))];
    if let Some(old) = old {
        variables.push(("oldSelf", Val::of_json(old, Some(schema))));
    }
    let mut evaluation = Evaluation {
        variables,
        left: budget,
    };
    let outcome = evaluation.eval(program);
    (outcome, budget - evaluation.left)
}

#[cfg(test)]
mod tests;
