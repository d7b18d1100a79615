//! sprig's float functions (functions.go, numeric.go): `addf`, `subf`, `mulf`, `divf` and
//! `add1f` in shopspring/decimal's exact arithmetic, then back to the nearest float64 as its
//! `Float64` gives it — so `subf 1 0.1` is `0.9`, not float64's `0.09999999999999998` — and
//! `maxf`, `minf`, `ceil`, `floor`, `round` in float64's.

use super::signature::{Func, Param, f};
use super::sprig::to_float64;
use super::value::Value;

use Param::{Any, Float, Int};

/// A decimal `±digits × 10^exponent`, its digits most significant first, exact: what
/// `decimal.NewFromFloat` makes of a float and `Add`, `Sub`, `Mul` keep.
#[derive(Debug, Clone)]
struct Decimal {
    negative: bool,
    digits: Vec<u8>,
    exponent: i64,
}

/// shopspring/decimal's `DivisionPrecision`: a quotient has 16 digits after the point.
const DIVISION_PLACES: i64 = 16;

/// The most digits a decimal may grow to. Floats span about 650 digits, so only a long chain
/// of operands (a pull request's `mulf` of thousands) comes near, and the long arithmetic
/// here would take minutes where Go's big integers take a moment.
const MOST_DIGITS: i64 = 10_000;

fn within_digits(digits: i64) -> Result<(), String> {
    if digits > MOST_DIGITS {
        return Err(format!(
            "the decimal would have {digits} digits, past fedrender's bound of {MOST_DIGITS}"
        ));
    }
    Ok(())
}

impl Decimal {
    /// `decimal.NewFromFloat`: the shortest decimal that reads back as the float, which is what
    /// Rust's `{:e}` writes.
    fn from_float(x: f64) -> Result<Decimal, String> {
        if !x.is_finite() {
            return Err(format!(
                "Cannot create a Decimal from {}",
                super::value::sprint_value(&Value::Float(x))
            ));
        }
        let written = format!("{:e}", x.abs());
        let (mantissa, exponent) = written.split_once('e').expect("{:e} writes an exponent");
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let digits: Vec<u8> = whole
            .bytes()
            .chain(fraction.bytes())
            .map(|b| b - b'0')
            .collect();
        let exponent = exponent.parse::<i64>().expect("an integer") - fraction.len() as i64;
        Ok(Decimal {
            negative: x < 0.0,
            digits,
            exponent,
        }
        .trimmed())
    }

    /// Leading zeros dropped; zero has no digits and no sign.
    fn trimmed(mut self) -> Decimal {
        let leading = self.digits.iter().take_while(|&&d| d == 0).count();
        self.digits.drain(..leading);
        if self.digits.is_empty() {
            self.negative = false;
        }
        self
    }

    /// The digits scaled to `exponent` (at most this one's).
    fn digits_at(&self, exponent: i64) -> Vec<u8> {
        let mut digits = self.digits.clone();
        digits.resize(digits.len() + (self.exponent - exponent) as usize, 0);
        digits
    }

    fn add(&self, other: &Decimal) -> Result<Decimal, String> {
        let exponent = self.exponent.min(other.exponent);
        within_digits(
            (self.digits.len() as i64 + self.exponent - exponent)
                .max(other.digits.len() as i64 + other.exponent - exponent),
        )?;
        let (a, b) = (self.digits_at(exponent), other.digits_at(exponent));
        let (negative, digits) = if self.negative == other.negative {
            (self.negative, add_digits(&a, &b))
        } else if compare_digits(&a, &b).is_ge() {
            (self.negative, sub_digits(&a, &b))
        } else {
            (other.negative, sub_digits(&b, &a))
        };
        Ok(Decimal {
            negative,
            digits,
            exponent,
        }
        .trimmed())
    }

    fn negated(&self) -> Decimal {
        Decimal {
            negative: !self.negative,
            ..self.clone()
        }
        .trimmed()
    }

    fn mul(&self, other: &Decimal) -> Result<Decimal, String> {
        within_digits((self.digits.len() + other.digits.len()) as i64)?;
        // A column sums at most 81 × MOST_DIGITS, well inside u32: carry once at the end.
        let mut product = vec![0u32; self.digits.len() + other.digits.len()];
        for (i, &x) in self.digits.iter().enumerate() {
            for (j, &y) in other.digits.iter().enumerate() {
                product[i + j + 1] += u32::from(x) * u32::from(y);
            }
        }
        for k in (1..product.len()).rev() {
            product[k - 1] += product[k] / 10;
            product[k] %= 10;
        }
        Ok(Decimal {
            negative: self.negative != other.negative,
            digits: product.into_iter().map(|d| d as u8).collect(),
            exponent: self.exponent + other.exponent,
        }
        .trimmed())
    }

    /// `Div`: the quotient to 16 places, its last digit rounded half away from zero
    /// (`DivRound`).
    fn div(&self, other: &Decimal) -> Result<Decimal, String> {
        if other.digits.is_empty() {
            return Err("decimal division by 0".into());
        }
        // self / other = (a / b) × 10^(ea - eb); scaled so the quotient is an integer count of
        // 10^-16: q = a × 10^(ea - eb + 16) / b.
        let shift = self.exponent - other.exponent + DIVISION_PLACES;
        within_digits(self.digits.len() as i64 + shift.max(0))?;
        within_digits(other.digits.len() as i64 - shift.min(0))?;
        let (mut dividend, mut divisor) = (self.digits.clone(), other.digits.clone());
        if shift >= 0 {
            dividend.resize(dividend.len() + shift as usize, 0);
        } else {
            divisor.resize(divisor.len() + (-shift) as usize, 0);
        }
        let (mut quotient, remainder) = divide_digits(&dividend, &divisor);
        let twice = add_digits(&remainder, &remainder);
        if compare_digits(&twice, &divisor).is_ge() {
            quotient = add_digits(&quotient, &[1]);
        }
        Ok(Decimal {
            negative: self.negative != other.negative,
            digits: quotient,
            exponent: -DIVISION_PLACES,
        }
        .trimmed())
    }

    /// `Float64`: the nearest float64, which Rust's parser finds for any number of digits.
    fn to_float(&self) -> f64 {
        if self.digits.is_empty() {
            return 0.0;
        }
        let digits: String = self.digits.iter().map(|d| char::from(b'0' + d)).collect();
        let magnitude: f64 = format!("{digits}e{}", self.exponent)
            .parse()
            .expect("digits and an exponent are a float");
        if self.negative { -magnitude } else { magnitude }
    }
}

fn compare_digits(a: &[u8], b: &[u8]) -> std::cmp::Ordering {
    let (a, b) = (strip(a), strip(b));
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

fn strip(digits: &[u8]) -> &[u8] {
    let leading = digits.iter().take_while(|&&d| d == 0).count();
    &digits[leading..]
}

fn add_digits(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(a.len().max(b.len()) + 1);
    let (mut i, mut j, mut carry) = (a.len(), b.len(), 0);
    while i > 0 || j > 0 || carry > 0 {
        let mut sum = carry;
        if i > 0 {
            i -= 1;
            sum += a[i];
        }
        if j > 0 {
            j -= 1;
            sum += b[j];
        }
        out.push(sum % 10);
        carry = sum / 10;
    }
    out.reverse();
    out
}

/// `a - b`, for `a >= b`.
fn sub_digits(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut out = a.to_vec();
    let mut borrow = 0;
    for k in 0..out.len() {
        let i = out.len() - 1 - k;
        let subtrahend = b.len().checked_sub(k + 1).map_or(0, |j| b[j]) + borrow;
        if out[i] >= subtrahend {
            out[i] -= subtrahend;
            borrow = 0;
        } else {
            out[i] = out[i] + 10 - subtrahend;
            borrow = 1;
        }
    }
    out
}

/// Long division, a digit of the quotient at a time: the quotient and the remainder.
fn divide_digits(dividend: &[u8], divisor: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let mut quotient = Vec::with_capacity(dividend.len());
    let mut remainder: Vec<u8> = Vec::new();
    for &digit in dividend {
        remainder.push(digit);
        let mut times = 0;
        while compare_digits(&remainder, divisor).is_ge() {
            remainder = sub_digits(&remainder, divisor);
            times += 1;
        }
        quotient.push(times);
        remainder = strip(&remainder).to_vec();
    }
    (quotient, remainder)
}

/// sprig `execDecimalOp`: `first`, then each of `rest` folded in by `op`, as decimals.
fn decimal_fold(
    first: &Value,
    rest: &[Value],
    op: fn(&Decimal, &Decimal) -> Result<Decimal, String>,
) -> Result<Value, String> {
    let mut total = Decimal::from_float(to_float64(first))?;
    for value in rest {
        total = op(&total, &Decimal::from_float(to_float64(value))?)?;
    }
    Ok(Value::Float(total.to_float()))
}

/// Go's `math.Max`: NaN wins, and +0 is above -0.
fn go_max(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else if a == 0.0 && b == 0.0 {
        if a.is_sign_positive() { a } else { b }
    } else {
        a.max(b)
    }
}

/// Go's `math.Min`: NaN wins, and -0 is below +0.
fn go_min(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else if a == 0.0 && b == 0.0 {
        if a.is_sign_negative() { a } else { b }
    } else {
        a.min(b)
    }
}

/// sprig `round`: the digit past `places` compared with `round_on` (0.5 unless given), on the
/// fraction as `math.Modf` splits it (so -2.5 rounds to -3: its fraction -0.5 is below 0.5).
fn round(value: f64, places: i64, round_on: f64) -> f64 {
    let pow = 10f64.powf(places as f64);
    let digit = pow * value;
    let fraction = if digit.is_infinite() {
        f64::NAN
    } else {
        digit - digit.trunc()
    };
    let rounded = if fraction >= round_on {
        digit.ceil()
    } else {
        digit.floor()
    };
    rounded / pow
}

pub(crate) fn lookup(name: &str) -> Option<Func> {
    Some(match name {
        "addf" => f(&[], Some(Any), |a, _| {
            decimal_fold(&Value::Float(0.0), a, Decimal::add)
        }),
        "add1f" => f(&[Any], None, |a, _| {
            decimal_fold(&a[0], &[Value::int(1)], Decimal::add)
        }),
        "subf" => f(&[Any], Some(Any), |a, _| {
            decimal_fold(&a[0], &a[1..], |x, y| x.add(&y.negated()))
        }),
        "mulf" => f(&[Any], Some(Any), |a, _| {
            decimal_fold(&a[0], &a[1..], Decimal::mul)
        }),
        "divf" => f(&[Any], Some(Any), |a, _| {
            decimal_fold(&a[0], &a[1..], Decimal::div)
        }),
        "maxf" => f(&[Any], Some(Any), |a, _| {
            Ok(Value::Float(
                a[1..]
                    .iter()
                    .fold(to_float64(&a[0]), |m, v| go_max(m, to_float64(v))),
            ))
        }),
        "minf" => f(&[Any], Some(Any), |a, _| {
            Ok(Value::Float(
                a[1..]
                    .iter()
                    .fold(to_float64(&a[0]), |m, v| go_min(m, to_float64(v))),
            ))
        }),
        "ceil" => f(&[Any], None, |a, _| {
            Ok(Value::Float(to_float64(&a[0]).ceil()))
        }),
        "floor" => f(&[Any], None, |a, _| {
            Ok(Value::Float(to_float64(&a[0]).floor()))
        }),
        "round" => f(&[Any, Int], Some(Float), |a, _| {
            let places = match a[1] {
                Value::Int(n, _) => n,
                _ => 0,
            };
            let round_on = match a.get(2) {
                Some(Value::Float(x)) => *x,
                _ => 0.5,
            };
            Ok(Value::Float(round(to_float64(&a[0]), places, round_on)))
        }),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fold(values: &[f64], op: fn(&Decimal, &Decimal) -> Result<Decimal, String>) -> String {
        let values: Vec<Value> = values.iter().map(|&x| Value::Float(x)).collect();
        match decimal_fold(&values[0], &values[1..], op) {
            Ok(value) => super::super::value::sprint_value(&value),
            Err(error) => format!("ERR {error}"),
        }
    }

    // sprig numeric_test.go TestAddf, TestSubf, TestMulf, TestDivf, and what the reference
    // answered (answers.jsonl).
    #[test]
    fn decimal_arithmetic_as_shopspring_does_it() {
        let add = Decimal::add;
        let sub = |x: &Decimal, y: &Decimal| x.add(&y.negated());
        let mul = Decimal::mul;
        assert_eq!(fold(&[0.0, 1.0, 2.5], add), "3.5");
        assert_eq!(fold(&[0.1, 0.2], add), "0.3");
        assert_eq!(fold(&[1.0, 0.1], sub), "0.9");
        assert_eq!(fold(&[-1.5, 2.0], sub), "-3.5");
        assert_eq!(fold(&[1.1, 3.0], mul), "3.3");
        assert_eq!(fold(&[-0.5, 0.5], mul), "-0.25");
        assert_eq!(fold(&[1.0, 3.0], Decimal::div), "0.3333333333333333");
        assert_eq!(fold(&[2.0, 3.0], Decimal::div), "0.6666666666666667");
        assert_eq!(fold(&[-2.0, 3.0], Decimal::div), "-0.6666666666666667");
        assert_eq!(fold(&[1e300, 1e-300], Decimal::div), "+Inf");
        assert_eq!(fold(&[1.0, 0.0], Decimal::div), "ERR decimal division by 0");
        assert_eq!(fold(&[1e-20, 3.0], Decimal::div), "0");
        assert_eq!(fold(&[1e308, 10.0], mul), "+Inf");
        assert_eq!(
            fold(&[f64::NAN, 1.0], add),
            "ERR Cannot create a Decimal from NaN"
        );
        // A chain that grows past the bound is refused, not computed for minutes.
        let many = vec![1.2345678901234567; 1000];
        assert!(fold(&many, mul).starts_with("ERR the decimal would have"));
        assert!(
            fold(
                &[
                    1e308, 1e-308, 1e-308, 1e-308, 1e-308, 1e-308, 1e-308, 1e-308, 1e-308, 1e-308,
                    1e-308, 1e-308, 1e-308, 1e-308, 1e-308, 1e-308, 1e-308, 1e-308, 1e-308, 1e-308,
                    1e-308, 1e-308, 1e-308, 1e-308, 1e-308, 1e-308, 1e-308, 1e-308, 1e-308, 1e-308,
                    1e-308, 1e-308, 1e-308, 1e-308
                ],
                Decimal::div
            )
            .starts_with("ERR the decimal")
        );
    }

    // sprig numeric_test.go TestRound.
    #[test]
    fn rounds_as_sprig() {
        assert_eq!(round(1.23456, 3, 0.5), 1.235);
        assert_eq!(round(1.2345, 2, 0.5), 1.23);
        assert_eq!(round(2.5, 0, 0.5), 3.0);
        assert_eq!(round(-2.5, 0, 0.5), -3.0);
        assert_eq!(round(1.5, 0, 0.4), 2.0);
        assert_eq!(round(1.005, 2, 0.5), 1.0);
        assert_eq!(go_max(-0.0, 0.0).to_bits(), 0.0f64.to_bits());
        assert_eq!(go_min(0.0, -0.0).to_bits(), (-0.0f64).to_bits());
        assert!(go_max(1.0, f64::NAN).is_nan());
    }
}
