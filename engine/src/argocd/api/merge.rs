//! `mergo.Merge(dst, src)` without options, as the controller's `mergeGeneratorTemplate` merges
//! `spec.template` into a generator's own `template` (applicationset/generators
//! generator_spec_processor.go): every field of the generator's template that is Go's zero
//! value takes the ApplicationSet's; a struct behind a pointer set on both sides is merged field
//! by field; a map takes the keys it lacks (and those whose value is empty); a list, a string,
//! a number and a boolean set on the generator's side stay as they are.

use std::collections::BTreeMap;

use serde_json::Value;

/// A value mergo merges: `self` is the destination (the generator's template), `src` the
/// ApplicationSet's `spec.template`.
pub trait Merge {
    /// Fills what is Go's zero value in `self` from `src`.
    fn merge_from(&mut self, src: &Self);
}

impl Merge for String {
    fn merge_from(&mut self, src: &Self) {
        if self.is_empty() {
            self.clone_from(src);
        }
    }
}

impl Merge for bool {
    fn merge_from(&mut self, src: &Self) {
        *self = *self || *src;
    }
}

impl Merge for i64 {
    fn merge_from(&mut self, src: &Self) {
        if *self == 0 {
            *self = *src;
        }
    }
}

impl<T: Clone> Merge for Vec<T> {
    fn merge_from(&mut self, src: &Self) {
        if self.is_empty() {
            self.clone_from(src);
        }
    }
}

impl<T: Merge + Clone> Merge for Option<T> {
    fn merge_from(&mut self, src: &Self) {
        match (self.as_mut(), src) {
            (_, None) => {}
            (None, Some(src)) => *self = Some(src.clone()),
            (Some(dst), Some(src)) => dst.merge_from(src),
        }
    }
}

/// A map's missing keys, and its keys holding Go's zero value, come from `src`.
impl<V: Clone + IsZero> Merge for BTreeMap<String, V> {
    fn merge_from(&mut self, src: &Self) {
        for (key, value) in src {
            match self.get(key) {
                Some(existing) if !existing.is_zero() => {}
                _ => {
                    self.insert(key.clone(), value.clone());
                }
            }
        }
    }
}

/// A free-form value (a `runtime.RawExtension` or a part fedrender keeps as written): whole,
/// the generator's when it has one.
impl Merge for Value {
    fn merge_from(&mut self, src: &Self) {
        if self.is_null() {
            self.clone_from(src);
        }
    }
}

/// Go's zero value, for a map's values.
pub trait IsZero {
    /// Whether this is Go's zero value.
    fn is_zero(&self) -> bool;
}

impl IsZero for String {
    fn is_zero(&self) -> bool {
        self.is_empty()
    }
}

impl IsZero for bool {
    fn is_zero(&self) -> bool {
        !*self
    }
}

/// `Merge` for a struct, field by field (mergo recurses into every exported field).
macro_rules! merge_fields {
    ($type:ty { $($field:ident),* $(,)? }) => {
        impl $crate::argocd::api::merge::Merge for $type {
            fn merge_from(&mut self, src: &Self) {
                $( $crate::argocd::api::merge::Merge::merge_from(&mut self.$field, &src.$field); )*
            }
        }
    };
}
pub(crate) use merge_fields;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_values_take_the_source_and_maps_gain_missing_keys() {
        let mut name = String::new();
        name.merge_from(&"base".to_string());
        assert_eq!(name, "base");
        let mut name = "mine".to_string();
        name.merge_from(&"base".to_string());
        assert_eq!(name, "mine");
        let mut flag = false;
        flag.merge_from(&true);
        assert!(flag);
        let mut list = vec![1];
        list.merge_from(&vec![2, 3]);
        assert_eq!(list, [1]);
        let mut labels: BTreeMap<String, String> =
            [("a".into(), "1".into()), ("b".into(), String::new())].into();
        labels.merge_from(&[("b".into(), "2".into()), ("c".into(), "3".into())].into());
        assert_eq!(
            labels,
            BTreeMap::from([
                ("a".into(), "1".into()),
                ("b".into(), "2".into()),
                ("c".into(), "3".into())
            ])
        );
    }
}
