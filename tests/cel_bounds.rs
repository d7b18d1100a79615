//! The attacks on the schema and CEL checks a pull request could bring
//! (`benches/support/cel_attacks.rs`), each run through the real binary: each ends bounded —
//! refused as the API server refuses it (its per-call cost limit, its per-object budget, its
//! parser's depth limit), refused once the run's own budget is spent, or checked — never hung,
//! never killed for memory. Their times and peak memory are measured by
//! `cargo bench --bench fleet -- --attacks`, not here.
//!
//! Most CRDs are ones the clusters already hold (`--crds`): the same CRD in the fleet is refused
//! at creation by its estimated cost (`a_fleet_crd_that_costs_this_much_is_refused_at_creation`),
//! so the evaluation's bounds matter for the CRDs a run trusts.

use crate::common::cel_attacks::{self, Attack};
use crate::common::{empty_scratch, fedrender_in, stderr};

/// Runs `attack` in a repository of its own; its exit status and messages.
fn judged(attack: &Attack) -> (Option<i32>, String) {
    let root = empty_scratch(&format!("cel-bounds-{}", attack.name));
    attack.write(&root);
    let output = fedrender_in(&root, &attack.args);
    (output.status.code(), stderr(&output))
}

/// The per-call limit's refusal of `rule`, as the API server words it (validation.go).
fn call_limit(rule: &str) -> String {
    format!(
        "'operation cancelled: actual cost limit exceeded': no further validation rules will be \
         run due to call cost exceeds limit for rule: {rule}"
    )
}

/// `replace('', s)` on 30 KB would build 900 MB: refused by its cost before it is built.
#[test]
fn a_replace_that_multiplies_a_string_is_refused_by_its_cost() {
    let (status, error) = judged(&cel_attacks::named("replace"));
    assert_eq!(status, Some(2), "{error}");
    assert!(
        error.contains(&call_limit("self.s.replace('', self.s).size() > 0")),
        "{error}"
    );
}

/// `map(x, self.s)` over a 1 MB string: the items share the object's string, and the rule is
/// checked.
#[test]
fn a_map_over_a_long_string_is_checked_without_copying_it() {
    let (status, error) = judged(&cel_attacks::named("map-over-a-long-string"));
    assert_eq!(status, Some(0), "{error}");
}

/// `all(x, size(self.s) > 0)` on a 2.6 MB object: checked.
#[test]
fn size_of_a_long_string_in_a_loop_is_checked() {
    let (status, error) = judged(&cel_attacks::named("size-in-a-loop"));
    assert_eq!(status, Some(0), "{error}");
}

/// `join` of many copies of a string is charged by what it would build.
#[test]
fn a_join_of_many_copies_is_refused_by_its_cost() {
    let (status, error) = judged(&cel_attacks::named("join"));
    assert_eq!(status, Some(2), "{error}");
    assert!(
        error.contains(&call_limit("self.l.map(x, self.s).join('') != ''")),
        "{error}"
    );
}

/// A pattern from the object compiled for each item: each compile is charged by the
/// automaton it builds, so `\pL{30}` variants run out of budget, not of time.
#[test]
fn patterns_from_the_object_are_charged_as_they_compile() {
    let (status, error) = judged(&cel_attacks::named("patterns-from-the-object"));
    assert_eq!(status, Some(2), "{error}");
    assert!(
        error.contains(&call_limit("self.l.all(p, !self.s.matches(p))")),
        "{error}"
    );
}

/// `distinct()` of 3,000 items is quadratic, and charged so (cel-go's list extension).
#[test]
fn a_quadratic_distinct_is_refused_by_its_cost() {
    let (status, error) = judged(&cel_attacks::named("distinct"));
    assert_eq!(status, Some(2), "{error}");
    assert!(
        error.contains(&call_limit("self.numbers.distinct().size() > 0")),
        "{error}"
    );
}

/// A `messageExpression` that builds more than 5 KiB gives way to the rule's `message`, as
/// the API server's; one that would build 100 MB with `join` is refused by its cost.
#[test]
fn a_long_message_expression_gives_way_to_the_message() {
    let (status, error) = judged(&cel_attacks::named("long-message-expression"));
    assert_eq!(status, Some(2), "{error}");
    assert!(error.contains("spec: fallback message"), "{error}");
    assert!(!error.contains("xxxxxxxxxx-"), "{error}");
    let (status, error) = judged(&cel_attacks::named("message-expression"));
    assert_eq!(status, Some(2), "{error}");
    assert!(
        error.contains(
            "no further validation rules will be run due to call cost exceeds limit for \
             messageExpression: \"self.l.map(x, self.s).join('-')\""
        ),
        "{error}"
    );
}

/// Rules each within the per-call limit that together exceed the object's budget: the object
/// is refused with the API server's words.
#[test]
fn an_object_whose_rules_exceed_its_budget_is_refused() {
    let (status, error) = judged(&cel_attacks::named("rules-past-the-object-budget"));
    assert_eq!(status, Some(2), "{error}");
    assert!(
        error.contains(
            "spec: validation failed due to running out of cost budget, no further validation \
             rules will be run"
        ),
        "{error}"
    );
}

/// Objects each within the API server's budget that together spend the run's: the objects
/// left are refused, not passed (fail closed), and the run ends.
#[test]
fn objects_past_the_runs_budget_are_refused() {
    let (status, error) = judged(&cel_attacks::named("many-costly-objects"));
    assert_eq!(status, Some(2), "{error}");
    assert!(
        error.contains("the run's budget for CEL rules is spent"),
        "{error}"
    );
}

/// The CRD of an attack in the fleet: the API server refuses to create it by its estimated
/// cost (apiextensions-apiserver validation.go, `StaticEstimatedCostLimit`), before any object
/// is judged.
#[test]
fn a_fleet_crd_that_costs_this_much_is_refused_at_creation() {
    let (status, error) = judged(&cel_attacks::named("costly-crd-in-the-fleet"));
    assert_eq!(status, Some(2), "{error}");
    assert!(
        error.contains("refuses to create the CustomResourceDefinition"),
        "{error}"
    );
    assert!(
        error.contains("estimated rule cost exceeds budget"),
        "{error}"
    );
}

/// A CRD of a thousand costly patterns and no object of its kind: no pattern is compiled,
/// since no value reaches one.
#[test]
fn patterns_no_object_reaches_are_never_compiled() {
    let (status, error) = judged(&cel_attacks::named("patterns-and-no-object"));
    assert_eq!(status, Some(0), "{error}");
}

/// A rule nested past cel-go's parser limit is refused as the API server's parser refuses it,
/// where it overflowed the stack.
#[test]
fn a_rule_nested_past_the_parsers_limit_is_refused() {
    let (status, error) = judged(&cel_attacks::named("deep-expression"));
    assert_eq!(status, Some(2), "{error}");
    assert!(
        error.contains("expression recursion limit exceeded: 250"),
        "{error}"
    );
}
