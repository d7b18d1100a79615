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
mod conversions;
mod environment;
mod escape;
mod estimate;
mod eval;
mod format;
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
pub use regexp::{go_regexp, go_regexp_cost, go_regexp_syntax};
pub use shape::{Declared, Shape};
pub use types::Decl;

use serde_json::Value;

use self::parse::Expr;
use self::value::{Evaluation, Fault, Val};

/// The most one rule may cost on one value: the API server's per-call limit
/// (`PerCallLimit`, 1,000,000), in cel-go's runtime cost units.
pub const CALL_BUDGET: u64 = 1_000_000;

/// The most all the rules of one object may cost: the API server's `RuntimeCELCostBudget`
/// (10,000,000).
pub const OBJECT_BUDGET: u64 = 10_000_000;

/// The longest evaluated `messageExpression` the API server keeps
/// (`MaxEvaluatedMessageExpressionSizeBytes`, 5 KiB); a longer one gives way to `message`.
pub const MAX_MESSAGE_BYTES: usize = 5 * 1024;

/// What the API server says when the object's rules have spent its CEL budget
/// (apiextensions-apiserver pkg/apiserver/schema/cel/validation.go).
pub const OUT_OF_BUDGET: &str =
    "validation failed due to running out of cost budget, no further validation rules will be run";

/// One `x-kubernetes-validations` entry, compiled with its CRD.
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    source: String,
    program: Result<Expr, String>,
    message: Option<String>,
    message_expression: Option<Result<Expr, String>>,
    message_source: String,
    reason: Option<String>,
    field_path: Option<String>,
    transition: bool,
    /// `optionalOldSelf: true`: `oldSelf` is an optional, none where there is no old value.
    optional_old_self: bool,
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
        let message_source = text("messageExpression").unwrap_or_default();
        Rule {
            message_expression: text("messageExpression").map(|source| parse::parse(&source)),
            message_source,
            message: text("message"),
            reason: text("reason"),
            field_path: text("fieldPath"),
            optional_old_self: value
                .get("optionalOldSelf")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            program,
            source,
            transition,
        }
    }

    /// A transition rule reads `oldSelf`: it judges a change, and a build has no object
    /// before the change.
    /// The rule as the CRD writes it.
    pub fn source(&self) -> &str {
        &self.source
    }

    pub fn is_transition(&self) -> bool {
        self.transition
    }

    /// Whether the API server runs the rule where there is no old value (a create, or a
    /// node the old object lacks): a rule that does not read `oldSelf`, or one with
    /// `optionalOldSelf: true`, which then sees `oldSelf` as `optional.none()`.
    pub fn runs_without_old(&self) -> bool {
        !self.transition || self.optional_old_self
    }

    /// Judges `value` (of `schema`), spending from `left`, the object's CEL budget. A rule
    /// with `optionalOldSelf` sees `oldSelf` as `optional.none()`.
    pub fn judge(&self, value: &Value, schema: &dyn Shape, left: &mut u64) -> Verdict {
        self.judge_with(value, None, schema, left).0
    }

    /// Judges a value of an update, `old` its old value where it has one (`oldSelf`, or
    /// `optional.none()` with `optionalOldSelf`), with whether a failure is the rule's own —
    /// false, with its message — which the API server ratchets on an unchanged value, rather
    /// than an evaluation error or the budget, which it never ratchets (validation.go
    /// `validateExpressions`: only `addErr`'s errors are).
    pub fn judge_in_update(
        &self,
        value: &Value,
        old: Option<&Value>,
        schema: &dyn Shape,
        left: &mut u64,
    ) -> (Verdict, bool) {
        self.judge_with(value, old, schema, left)
    }

    /// The rule as the API server names it in its errors (`ruleErrorString`): the message
    /// when there is one, else the rule.
    fn named(&self) -> &str {
        match self.message.as_deref().map(str::trim) {
            Some(message) if !message.is_empty() => message,
            _ => self.source.trim(),
        }
    }

    /// The verdict, and whether a failure is the rule's own (false), not an error.
    fn judge_with(
        &self,
        value: &Value,
        old: Option<&Value>,
        schema: &dyn Shape,
        left: &mut u64,
    ) -> (Verdict, bool) {
        let program = match &self.program {
            Ok(program) => program,
            Err(problem) => {
                let verdict = Verdict::Fails {
                    field: None,
                    problem: format!(
                        "the CRD's rule `{}` does not compile: {problem}; the API server \
                         refuses the CRD",
                        self.source
                    ),
                };
                return (verdict, false);
            }
        };
        if *left == 0 {
            return (Verdict::OutOfBudget, false);
        }
        let old_self = match (old, self.optional_old_self) {
            (Some(old), false) => Some(OldSelf::Value(old)),
            (Some(old), true) => Some(OldSelf::Optional(Some(old))),
            (None, true) => Some(OldSelf::Optional(None)),
            (None, false) => None,
        };
        let budget = CALL_BUDGET.min(*left);
        let (outcome, spent) = evaluate(program, (value, old_self), schema, budget);
        *left -= spent;
        let failed = |problem: String| Verdict::Fails {
            field: self.field_path.clone(),
            problem,
        };
        let verdict = match outcome {
            Ok(Val::Bool(true)) => Verdict::Holds,
            Err(Fault::Budget) if budget < CALL_BUDGET => Verdict::OutOfBudget,
            Err(Fault::Budget) => {
                // The API server stops validating the object here.
                *left = 0;
                Verdict::Fails {
                    field: None,
                    problem: format!(
                        "'operation cancelled: actual cost limit exceeded': no further \
                         validation rules will be run due to call cost exceeds limit for \
                         rule: {}",
                        self.named()
                    ),
                }
            }
            Err(Fault::Error(problem)) if problem.starts_with("no such overload") => {
                Verdict::Fails {
                    field: None,
                    problem: format!(
                        "'{problem}': call arguments did not match a supported operator, \
                         function or macro signature for rule: {}",
                        self.named()
                    ),
                }
            }
            Err(Fault::Error(problem)) => Verdict::Fails {
                field: None,
                problem: format!("{problem} evaluating rule: {}", self.named()),
            },
            // False, or a value that is not true: the rule's message.
            Ok(_) => {
                let old = old_self.and_then(OldSelf::plain);
                let verdict = match self.message((value, old), schema, left) {
                    Ok(message) => failed(self.reason_said(message)),
                    Err(problem) => failed(problem),
                };
                return (verdict, true);
            }
        };
        (verdict, false)
    }

    /// The message of a failure: the evaluated `messageExpression` when it gives a
    /// non-empty string of one line within 5 KiB (trimmed), else `message`, else the rule
    /// (validation.go `evalMessageExpression`, `ruleMessageOrDefault`). The
    /// `messageExpression` sees `oldSelf` as the old value itself, whatever
    /// `optionalOldSelf` says, as the API server binds it. Running out of budget in it is
    /// an error of its own.
    fn message(
        &self,
        (value, old): (&Value, Option<&Value>),
        schema: &dyn Shape,
        left: &mut u64,
    ) -> Result<String, String> {
        if let Some(Ok(expression)) = &self.message_expression {
            let budget = CALL_BUDGET.min(*left);
            let (outcome, spent) =
                evaluate(expression, (value, old.map(OldSelf::Value)), schema, budget);
            *left -= spent;
            match outcome {
                Err(Fault::Budget) if budget < CALL_BUDGET => {
                    *left = 0;
                    return Err("messageExpression evaluation failed due to running out of \
                                cost budget, no further validation rules will be run"
                        .to_string());
                }
                Err(Fault::Budget) => {
                    *left = 0;
                    return Err(format!(
                        "no further validation rules will be run due to call cost exceeds \
                         limit for messageExpression: {:?}",
                        self.message_source
                    ));
                }
                Ok(Val::Str(text)) => {
                    let text = text.trim();
                    if !text.is_empty() && text.len() <= MAX_MESSAGE_BYTES && !text.contains('\n') {
                        return Ok(text.to_string());
                    }
                }
                _ => {}
            }
        }
        Ok(match self.message.as_deref().map(str::trim) {
            Some(message) if !message.is_empty() => message.to_string(),
            _ => format!("failed rule: {}", self.named()),
        })
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

/// What `oldSelf` is bound to: the old value, or with `optionalOldSelf` an optional of it.
#[derive(Clone, Copy)]
enum OldSelf<'a> {
    Value(&'a Value),
    Optional(Option<&'a Value>),
}

impl<'a> OldSelf<'a> {
    fn plain(self) -> Option<&'a Value> {
        match self {
            OldSelf::Value(old) => Some(old),
            OldSelf::Optional(old) => old,
        }
    }
}

/// Evaluates `program` with `self` bound to the value, and `oldSelf` when it judges a
/// change (or the rule takes an optional `oldSelf`): its value and the cost spent.
fn evaluate<'a>(
    program: &'a Expr,
    (value, old): (&'a Value, Option<OldSelf<'a>>),
    schema: &'a dyn Shape,
    budget: u64,
) -> (value::Result<Val<'a>>, u64) {
    let mut variables = vec![("self", Val::of_json(value, Some(schema)))];
    match old {
        Some(OldSelf::Value(old)) => variables.push(("oldSelf", Val::of_json(old, Some(schema)))),
        Some(OldSelf::Optional(old)) => variables.push((
            "oldSelf",
            Val::Optional(old.map(|old| std::rc::Rc::new(Val::of_json(old, Some(schema))))),
        )),
        None => {}
    }
    let mut evaluation = Evaluation::new(variables, budget);
    let outcome = evaluation.eval(program);
    (outcome, budget - evaluation.left)
}

#[cfg(test)]
mod tests;
