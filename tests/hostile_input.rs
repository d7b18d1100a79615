//! Bounded cost on hostile input: one line of input must not stall a render. Each parser is fed
//! text far larger than any real manifest holds and must answer, correctly, within a bound that
//! a linear parser meets easily even unoptimised and a quadratic one misses by minutes.

use std::time::{Duration, Instant};

use fedrender::quantity::{Quantity, parse_quantity};

const MILLION: usize = 1_000_000;
const NANOS_PER_UNIT: i128 = 1_000_000_000;

/// Runs `work` and fails when it took longer than `limit`.
fn within<T>(limit: Duration, what: &str, work: impl FnOnce() -> T) -> T {
    let started = Instant::now();
    let result = work();
    let elapsed = started.elapsed();
    assert!(
        elapsed < limit,
        "{what} took {elapsed:?}, more than {limit:?}"
    );
    result
}

/// The case: the former bignum took 18 s for 300,000 digits and minutes for a million.
#[test]
fn million_digit_quantities_parse_in_linear_time() {
    let zeros = "0".repeat(MILLION - 1);
    let results = within(Duration::from_secs(5), "million-digit quantities", || {
        [
            // A million-digit integer: far too large, unless a binary suffix caps it.
            parse_quantity(&format!("1{zeros}")),
            parse_quantity(&format!("1{zeros}Ki")),
            // Leading zeros are not size.
            parse_quantity(&format!("{zeros}7")),
            // A million-digit fraction: its last digit rounds up to the next nano.
            parse_quantity(&format!("0.{zeros}1")),
            parse_quantity(&format!("1.{zeros}1Ki")),
            // The exponent moves the point back across all those digits.
            parse_quantity(&format!("1{zeros}e-999990")),
            // A million-digit exponent: its value counts, not its length.
            parse_quantity(&format!("1e{zeros}3")),
            parse_quantity(&format!("1e{}", "9".repeat(MILLION))),
        ]
    });
    let [
        too_large,
        capped,
        seven,
        one_nano,
        kibi_and_a_nano,
        moved_back,
        thousand,
        huge_exponent,
    ] = results;
    assert!(
        too_large
            .as_ref()
            .is_err_and(|error| error.contains("too large")),
        "{too_large:?}"
    );
    assert_eq!(
        capped,
        Ok(Quantity::from_nanos(i128::from(i64::MAX) * NANOS_PER_UNIT))
    );
    assert_eq!(seven, Ok(Quantity::from_units(7)));
    assert_eq!(one_nano, Ok(Quantity::from_nanos(1)));
    assert_eq!(
        kibi_and_a_nano,
        Ok(Quantity::from_nanos(1024 * NANOS_PER_UNIT + 1))
    );
    assert_eq!(moved_back, Ok(Quantity::from_units(1_000_000_000)));
    assert_eq!(thousand, Ok(Quantity::from_units(1_000)));
    assert!(
        huge_exponent
            .as_ref()
            .is_err_and(|error| error.contains("unknown suffix")),
        "an exponent beyond 32 bits is refused as before"
    );
}
