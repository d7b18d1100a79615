//! Go's `strconv.FormatFloat` (strconv/ftoa.go `formatDigits`, `fmtE`, `fmtF`) for the formats
//! fedrender has to reproduce byte for byte: the YAML go-yaml writes (`'g'`, shortest), and the
//! numbers Karmada's Lua runtime (gopher-lua) prints through `tostring`, `..` and
//! `string.format` (`'e'`, `'f'`, `'g'`, with or without a precision). Rust computes the same
//! correctly rounded digits; only the layout is Go's here.

/// A float's digits as Go's `decimal` holds them: no leading or trailing zeros, the decimal
/// point after `point` of them.
struct Digits {
    digits: String,
    point: i32,
}

impl Digits {
    /// The shortest digits that read back as `magnitude`.
    fn shortest(magnitude: f64) -> Digits {
        Digits::from_scientific(&format!("{magnitude:e}"))
    }

    /// `magnitude` rounded to `significant` digits (at least one), trailing zeros dropped.
    fn significant(magnitude: f64, significant: usize) -> Digits {
        let precision = significant.max(1) - 1;
        Digits::from_scientific(&format!("{magnitude:.precision$e}"))
    }

    /// From Rust's `{:e}` layout, `d.ddde±x`.
    fn from_scientific(scientific: &str) -> Digits {
        let (mantissa, exponent) = scientific
            .split_once('e')
            .expect("`{:e}` always writes an exponent");
        let exponent: i32 = exponent.parse().expect("`{:e}` writes a decimal exponent");
        let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
        let trimmed = digits.trim_end_matches('0');
        if trimmed.is_empty() {
            return Digits {
                digits: String::new(),
                point: 0,
            };
        }
        Digits {
            digits: trimmed.to_string(),
            point: exponent + 1,
        }
    }

    fn count(&self) -> i32 {
        self.digits.len() as i32
    }

    /// The digit at `index`, `0` past the end.
    fn at(&self, index: i32) -> char {
        usize::try_from(index)
            .ok()
            .and_then(|index| self.digits.as_bytes().get(index))
            .map_or('0', |&byte| char::from(byte))
    }
}

/// The names Go gives the values that are not numbers.
fn special(float: f64) -> Option<&'static str> {
    if float.is_nan() {
        Some("NaN")
    } else if float.is_infinite() {
        Some(if float > 0.0 { "+Inf" } else { "-Inf" })
    } else {
        None
    }
}

/// `strconv.FormatFloat(float, 'g', -1, 64)`: the shortest digits that read back as `float`,
/// in exponent form (`1e+06`, `1.5e-07`) when the decimal exponent is below -4 or at least 6.
pub(crate) fn shortest(float: f64) -> String {
    format(float, 'g', None)
}

/// `strconv.FormatFloat(float, 'g', -1, 32)`: the shortest digits that read back as the same
/// float32.
pub(crate) fn shortest32(float: f64) -> String {
    let single = float as f32;
    if let Some(name) = special(f64::from(single)) {
        return name.to_string();
    }
    let digits = Digits::from_scientific(&format!("{:e}", single.abs()));
    let mut out = if single.is_sign_negative() { "-" } else { "" }.to_string();
    let precision = digits.count();
    format_digits(&mut out, &digits, true, precision, 'g');
    out
}

/// `strconv.FormatFloat(float, verb, precision, 64)` for `verb` in `eEfFgG`; `None` is Go's
/// -1, the fewest digits that read back as `float`.
pub fn format(float: f64, verb: char, precision: Option<usize>) -> String {
    if let Some(name) = special(float) {
        return name.to_string();
    }
    let magnitude = float.abs();
    let mut out = if float.is_sign_negative() { "-" } else { "" }.to_string();
    let lower = verb.to_ascii_lowercase();
    if lower == 'f'
        && let Some(precision) = precision
    {
        // Rounded at a decimal place rather than to significant digits: Rust's fixed
        // formatting rounds the exact value as Go's does.
        out.push_str(&format!("{magnitude:.precision$}"));
        return out;
    }
    let shortest = precision.is_none();
    let (digits, precision) = match precision {
        None => {
            let digits = Digits::shortest(magnitude);
            let precision = match lower {
                'e' => (digits.count() - 1).max(0),
                'f' => (digits.count() - digits.point).max(0),
                _ => digits.count(),
            };
            (digits, precision)
        }
        Some(precision) => {
            let precision = precision as i32;
            match lower {
                'e' => (
                    Digits::significant(magnitude, precision as usize + 1),
                    precision,
                ),
                _ => {
                    let precision = precision.max(1);
                    (
                        Digits::significant(magnitude, precision as usize),
                        precision,
                    )
                }
            }
        }
    };
    format_digits(&mut out, &digits, shortest, precision, verb);
    out
}

/// strconv `formatDigits`.
fn format_digits(out: &mut String, digits: &Digits, shortest: bool, precision: i32, verb: char) {
    match verb {
        'e' | 'E' => format_e(out, digits, precision, verb),
        'f' | 'F' => format_f(out, digits, precision),
        _ => {
            let mut eprec = precision;
            if eprec > digits.count() && digits.count() >= digits.point {
                eprec = digits.count();
            }
            // The shortest form switches to an exponent at 6 digits, whatever it needs.
            if shortest {
                eprec = 6;
            }
            let exponent = digits.point - 1;
            let letter = if verb == 'G' { 'E' } else { 'e' };
            if exponent < -4 || exponent >= eprec {
                format_e(out, digits, precision.min(digits.count()) - 1, letter);
            } else {
                let precision = if precision > digits.point {
                    digits.count()
                } else {
                    precision
                };
                format_f(out, digits, (precision - digits.point).max(0));
            }
        }
    }
}

/// strconv `fmtE`: `d.ddde±dd`, `precision` digits after the point.
fn format_e(out: &mut String, digits: &Digits, precision: i32, letter: char) {
    out.push(digits.at(0));
    if precision > 0 {
        out.push('.');
        for index in 1..=precision {
            out.push(digits.at(index));
        }
    }
    out.push(letter);
    let exponent = if digits.digits.is_empty() {
        0
    } else {
        digits.point - 1
    };
    out.push(if exponent < 0 { '-' } else { '+' });
    out.push_str(&format!("{:02}", exponent.unsigned_abs()));
}

/// strconv `fmtF`: `ddd.ddd`, `precision` digits after the point.
fn format_f(out: &mut String, digits: &Digits, precision: i32) {
    if digits.point > 0 {
        for index in 0..digits.point {
            out.push(digits.at(index));
        }
    } else {
        out.push('0');
    }
    if precision > 0 {
        out.push('.');
        for index in 0..precision {
            out.push(digits.at(digits.point + index));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cases of a reference file: a provenance line, then one case a line.
    fn reference(text: &str) -> Vec<serde_json::Value> {
        let mut lines = text.lines();
        let header: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
        assert!(header["provenance"]["karmada"].is_string(), "{header}");
        lines
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    }

    /// Each expected string is what Go's fmt (strconv.FormatFloat) printed for `%g`, or for the
    /// case's verb and precision, handed the double by gopher-lua's `string.format`:
    /// testdata/references/gopher-lua/go-float.jsonl, with its provenance;
    /// testdata/references/README.md says how to regenerate it.
    #[test]
    fn floats_are_laid_out_as_go_does() {
        let cases = reference(include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../testdata/references/gopher-lua/go-float.jsonl"
        )));
        assert!(cases.len() > 20);
        for case in &cases {
            let float: f64 = case["number"].as_str().unwrap().parse().unwrap();
            let verb = case["verb"].as_str().unwrap().chars().next().unwrap();
            let precision = case["precision"]
                .as_u64()
                .map(|precision| usize::try_from(precision).unwrap());
            let laid_out = if verb == 'g' && precision.is_none() {
                shortest(float)
            } else {
                format(float, verb, precision)
            };
            assert_eq!(
                laid_out,
                case["gopher_lua"].as_str().unwrap(),
                "{}",
                case["lua"]
            );
        }
    }

    /// sigs.k8s.io/yaml writes a float map key in its shortest float32 form: the key Go made of
    /// `1.23456789012345` (testdata/references/go-yaml/reading.jsonl).
    #[test]
    fn shortest_float32s_are_laid_out_as_go_does() {
        let cases = reference(include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../testdata/references/go-yaml/reading.jsonl"
        )));
        let case = cases
            .iter()
            .find(|case| case["id"] == "a float key")
            .unwrap();
        let (written, _) = case["yaml"].as_str().unwrap().split_once(':').unwrap();
        let key = case["go"].as_object().unwrap().keys().next().unwrap();
        assert_eq!(shortest32(written.parse().unwrap()), *key);
    }
}
