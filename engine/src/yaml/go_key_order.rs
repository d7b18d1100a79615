//! go-yaml v2's key order (go.yaml.in/yaml/v2 sorter.go `keyList.Less`), in which `Marshal`
//! writes a mapping's keys: digit runs compare as numbers, letters before other characters.

/// Go's `sort.Sort` sorts up to 12 elements by insertion, exactly as [`insertion_sort_by`]
/// does; longer slices are merged from sorted halves here, in O(n log n) where insertion alone
/// would make a document of many keys cost the square of their number. Where `key_less` is a
/// strict order every sort gives Go's result; it is not one on keys that mix digit runs and
/// letters at the same places (`9` < `11` < `1a` < `9`), and there, past 12 keys, Go's order
/// is whatever its pdqsort makes of the cycle, which this does not reproduce (nor did the
/// insertion sort before). Neither sort panics on such keys, unlike `slice::sort_by`.
pub(super) fn sort_by_less<T: Copy>(items: &mut [T], less: &impl Fn(&T, &T) -> bool) {
    const GO_INSERTION_SORT_MAX: usize = 12;
    if items.len() <= GO_INSERTION_SORT_MAX {
        insertion_sort_by(items, less);
        return;
    }
    let middle = items.len() / 2;
    sort_by_less(&mut items[..middle], less);
    sort_by_less(&mut items[middle..], less);
    let mut merged = Vec::with_capacity(items.len());
    let (mut left, mut right) = (0, middle);
    while left < middle && right < items.len() {
        // Taking from the left unless the right is strictly less keeps equal keys in order.
        if less(&items[right], &items[left]) {
            merged.push(items[right]);
            right += 1;
        } else {
            merged.push(items[left]);
            left += 1;
        }
    }
    merged.extend_from_slice(&items[left..middle]);
    merged.extend_from_slice(&items[right..]);
    items.copy_from_slice(&merged);
}

/// A stable insertion sort that only needs a `less` predicate: what Go's `sort.Sort` does for
/// up to 12 elements, so the order matches go-yaml's even if `less` were not a strict order on
/// some exotic keys.
pub(super) fn insertion_sort_by<T>(items: &mut [T], less: impl Fn(&T, &T) -> bool) {
    for index in 1..items.len() {
        let mut position = index;
        while position > 0 && less(&items[position], &items[position - 1]) {
            items.swap(position, position - 1);
            position -= 1;
        }
    }
}

/// go-yaml v2 `keyList.Less` for two string keys: letters compare as characters and come after
/// non-letters, and runs of digits compare as numbers (`a2` before `a10`).
pub(crate) fn key_less(a: &str, b: &str) -> bool {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    for i in 0..a.len().min(b.len()) {
        if a[i] == b[i] {
            continue;
        }
        let a_letter = a[i].is_alphabetic();
        let b_letter = b[i].is_alphabetic();
        if a_letter && b_letter {
            return a[i] < b[i];
        }
        if a_letter || b_letter {
            return b_letter;
        }
        // Both are non-letters: compare the digit runs starting here as numbers. A run that
        // continues a number with a non-zero digit before it keeps its leading zeros significant.
        let (mut a_number, mut b_number) = (0i64, 0i64);
        if a[i] == '0' || b[i] == '0' {
            for &previous in a[..i].iter().rev() {
                if !is_go_digit(previous) {
                    break;
                }
                if previous != '0' {
                    a_number = 1;
                    b_number = 1;
                    break;
                }
            }
        }
        let mut a_end = i;
        while a_end < a.len() && is_go_digit(a[a_end]) {
            a_number = a_number
                .wrapping_mul(10)
                .wrapping_add(i64::from(u32::from(a[a_end])) - i64::from(u32::from('0')));
            a_end += 1;
        }
        let mut b_end = i;
        while b_end < b.len() && is_go_digit(b[b_end]) {
            b_number = b_number
                .wrapping_mul(10)
                .wrapping_add(i64::from(u32::from(b[b_end])) - i64::from(u32::from('0')));
            b_end += 1;
        }
        if a_number != b_number {
            return a_number < b_number;
        }
        if a_end != b_end {
            return a_end < b_end;
        }
        return a[i] < b[i];
    }
    a.len() < b.len()
}

/// Go's `unicode.IsDigit` (decimal digits).
fn is_go_digit(c: char) -> bool {
    c.is_ascii_digit() || (!c.is_ascii() && c.is_numeric())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::go_marshal::marshal;
    use serde_json::{Value, json};

    // go.yaml.in/yaml/v2 sorter.go keyList.Less.
    #[test]
    fn keys_sort_with_go_yaml_v2_natural_order() {
        let less = key_less;
        assert!(less("a2", "a10") && !less("a10", "a2"));
        assert!(less("x9y", "x10y"));
        assert!(less("a1", "a01") && !less("a01", "a1"));
        assert!(less("B", "a"), "letters compare as characters");
        assert!(
            less("_x", "a") && less("1", "a") && less("-", "a"),
            "non-letters first"
        );
        assert!(less("a", "ab") && !less("ab", "a"));
        assert!(less("a.b", "a_b"));
        assert_eq!(
            marshal(&json!({"a10": 1, "b": 2, "a2": 3, "A": 4, "1": 5})),
            "\"1\": 5\nA: 4\na2: 3\na10: 1\nb: 2\n"
        );
    }

    proptest::proptest! {
        /// Merging sorted halves gives the order insertion alone gives, for keys of letters then
        /// a digit run (leading zeros included), on which `key_less` is a strict order (checked
        /// exhaustively for this shape). Mixing digits and letters more freely breaks
        /// transitivity, as in Go: "9" < "11" < "1a" < "9".
        #[test]
        fn merged_key_order_is_the_insertion_order(
            keys in proptest::collection::hash_set("[aB_]{1,2}[019]{0,2}", 0..60),
        ) {
            let keys: Vec<String> = keys.into_iter().collect();
            let mut inserted: Vec<&String> = keys.iter().collect();
            insertion_sort_by(&mut inserted, |a, b| key_less(a, b));
            let mut merged: Vec<&String> = keys.iter().collect();
            sort_by_less(&mut merged, &|a, b| key_less(a, b));
            proptest::prop_assert_eq!(merged, inserted);
        }
    }

    /// A map of many keys costs n log n comparisons, not n²: 100,000 keys took minutes. The
    /// comparisons of the sort a mapping's keys go through are counted: at most n·⌈log₂ n⌉,
    /// where an insertion sort of the reversed keys makes n²/2, and twice the keys cost about
    /// twice the comparisons.
    #[test]
    fn many_keys_sort_quickly() {
        let comparisons = |count: usize| {
            let keys: Vec<String> = (0..count).rev().map(|n| format!("key{n}")).collect();
            let mut sorted: Vec<&String> = keys.iter().collect();
            let made = std::cell::Cell::new(0u64);
            sort_by_less(&mut sorted, &|a, b| {
                made.set(made.get() + 1);
                key_less(a, b)
            });
            assert!(sorted.windows(2).all(|pair| key_less(pair[0], pair[1])));
            made.get()
        };
        let (half, whole) = (comparisons(5_000), comparisons(10_000));
        assert!(whole <= 10_000 * 14, "{whole} comparisons for 10,000 keys");
        assert!(
            whole <= half * 2 + half / 4,
            "{half} then {whole}: not n log n"
        );
        let map: serde_json::Map<String, Value> = (0..100_000)
            .rev()
            .map(|number| (format!("key{number}"), json!(number)))
            .collect();
        let text = marshal(&Value::Object(map));
        assert!(
            text.starts_with("key0: 0\nkey1: 1\nkey2: 2\n"),
            "{}",
            &text[..40]
        );
        assert!(text.ends_with("key99999: 99999\n"));
    }
}
