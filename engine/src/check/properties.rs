//! A schema node's properties: iterated by name, as a sorted map would give them, and looked
//! up by length first.
//!
//! Every field of every object checked is looked up among its schema node's properties. A
//! B-tree compares the field's name with up to a dozen property names, each compare a call to
//! `memcmp`. Here the lookup halves a list ordered by a tag — the name's length and first four
//! bytes, one integer — then by name: most steps compare two integers, and only a name with the
//! field's tag is compared byte by byte. A CRD chooses its property names, so the lookup is a
//! binary search, never a hash a CRD could flood.

/// Properties by name; `S` is the schema of one.
#[derive(Debug, Clone, PartialEq)]
pub struct Properties<S> {
    /// By name, as `BTreeMap` orders its keys: what iteration gives.
    by_name: Vec<(String, S)>,
    /// Each name's [`tag`], ascending (names of one tag by name): what a lookup halves.
    tags: Vec<u64>,
    /// The position in `by_name` of the name of each tag.
    positions: Vec<u32>,
}

impl<S> Default for Properties<S> {
    fn default() -> Self {
        Properties {
            by_name: Vec::new(),
            tags: Vec::new(),
            positions: Vec::new(),
        }
    }
}

impl<S> Properties<S> {
    /// The property `name`.
    pub fn get(&self, name: &str) -> Option<&S> {
        let wanted = tag(name);
        let first = self.tags.partition_point(|&tag| tag < wanted);
        (self.tags[first..].iter().zip(&self.positions[first..]))
            .take_while(|&(&tag, _)| tag == wanted)
            .map(|(_, &position)| &self.by_name[position as usize])
            .find_map(|(key, schema)| (key == name).then_some(schema))
    }

    pub fn contains_key(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    /// Names and schemas, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &S)> {
        self.by_name.iter().map(|(name, schema)| (name, schema))
    }

    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.by_name.iter().map(|(name, _)| name)
    }

    pub fn values(&self) -> impl Iterator<Item = &S> {
        self.by_name.iter().map(|(_, schema)| schema)
    }

    /// Sets the property `name`, replacing one of that name.
    pub fn insert(&mut self, name: String, schema: S) {
        match self.position(&name) {
            Ok(at) => self.by_name[at].1 = schema,
            Err(at) => {
                self.by_name.insert(at, (name, schema));
                self.index();
            }
        }
    }

    /// Takes the property `name` out.
    pub fn remove(&mut self, name: &str) -> Option<S> {
        let at = self.position(name).ok()?;
        let (_, schema) = self.by_name.remove(at);
        self.index();
        Some(schema)
    }

    fn position(&self, name: &str) -> Result<usize, usize> {
        self.by_name
            .binary_search_by(|(key, _)| key.as_str().cmp(name))
    }

    /// Tags and orders the names anew, once `by_name` is sorted.
    fn index(&mut self) {
        let by_name = &self.by_name;
        let mut by_tag: Vec<(u64, u32)> = (by_name.iter().enumerate())
            .map(|(position, (name, _))| {
                let position = u32::try_from(position).expect("fewer properties than u32::MAX");
                (tag(name), position)
            })
            .collect();
        // Sorted names in order stay in order among equal tags.
        by_tag.sort_by_key(|&(tag, _)| tag);
        (self.tags, self.positions) = by_tag.into_iter().unzip();
    }
}

/// A name's length, then its first four bytes (zeros past its end), as one integer: names with
/// different tags differ, so most steps of a lookup compare tags alone.
fn tag(name: &str) -> u64 {
    let mut first = [0; 4];
    let bytes = name.as_bytes();
    let taken = bytes.len().min(4);
    first[..taken].copy_from_slice(&bytes[..taken]);
    let length = u64::try_from(bytes.len())
        .unwrap_or(u64::MAX)
        .min(u64::from(u32::MAX));
    (length << 32) | u64::from(u32::from_be_bytes(first))
}

/// Properties from names and schemas; of a name given twice, the last schema stays (as a map's
/// `collect` keeps it).
impl<S> FromIterator<(String, S)> for Properties<S> {
    fn from_iter<I: IntoIterator<Item = (String, S)>>(pairs: I) -> Self {
        let mut by_name: Vec<(String, S)> = pairs.into_iter().collect();
        // Stable, so that of two equal names the one given last is last: dedup then keeps it.
        by_name.sort_by(|(a, _), (b, _)| a.cmp(b));
        let mut kept: Vec<(String, S)> = Vec::with_capacity(by_name.len());
        for (name, schema) in by_name {
            match kept.last_mut() {
                Some((last, slot)) if *last == name => *slot = schema,
                _ => kept.push((name, schema)),
            }
        }
        let mut properties = Properties {
            by_name: kept,
            tags: Vec::new(),
            positions: Vec::new(),
        };
        properties.index();
        properties
    }
}

impl<S> IntoIterator for Properties<S> {
    type Item = (String, S);
    type IntoIter = std::vec::IntoIter<(String, S)>;

    fn into_iter(self) -> Self::IntoIter {
        self.by_name.into_iter()
    }
}

impl<'p, S> IntoIterator for &'p Properties<S> {
    type Item = (&'p String, &'p S);
    type IntoIter =
        std::iter::Map<std::slice::Iter<'p, (String, S)>, fn(&(String, S)) -> (&String, &S)>;

    fn into_iter(self) -> Self::IntoIter {
        self.by_name.iter().map(|(name, schema)| (name, schema))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// Built, changed and looked up, the properties answer as a `BTreeMap` of the same pairs
    /// does: iteration order, lookups of present and absent names (of every length around
    /// theirs, prefixes, non-ASCII), a name given twice, insert and remove.
    #[test]
    fn properties_answer_as_a_sorted_map() {
        let pairs = [
            ("spec", 1),
            ("status", 2),
            ("apiVersion", 3),
            ("kind", 4),
            ("metadata", 5),
            ("a", 6),
            ("", 7),
            ("spec", 8),
            ("späc", 9),
            ("specs", 10),
            ("Spec", 11),
        ];
        let mut ours: Properties<i32> = pairs
            .iter()
            .map(|&(name, value)| (name.to_string(), value))
            .collect();
        let mut map: BTreeMap<String, i32> = pairs
            .iter()
            .map(|&(name, value)| (name.to_string(), value))
            .collect();
        let probes = [
            "spec",
            "spe",
            "specs",
            "specz",
            "Spec",
            "status",
            "",
            "a",
            "b",
            "kind",
            "kinds",
            "späc",
            "metadata",
            "metadatb",
            "apiVersion",
            "zzzzzzzzzzzz",
        ];
        let same = |ours: &Properties<i32>, map: &BTreeMap<String, i32>| {
            assert!(ours.iter().eq(map.iter()), "iteration");
            for probe in probes {
                assert_eq!(ours.get(probe), map.get(probe), "{probe:?}");
                assert_eq!(
                    ours.contains_key(probe),
                    map.contains_key(probe),
                    "{probe:?}"
                );
            }
        };
        same(&ours, &map);
        ours.insert("specz".to_string(), 12);
        map.insert("specz".to_string(), 12);
        ours.insert("kind".to_string(), 13);
        map.insert("kind".to_string(), 13);
        same(&ours, &map);
        assert_eq!(ours.remove("spec"), map.remove("spec"));
        assert_eq!(ours.remove("absent"), map.remove("absent"));
        same(&ours, &map);
        assert!(ours.into_iter().eq(map));
    }
}
