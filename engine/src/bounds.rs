//! What the documents of one run may weigh. An object may be no larger than the Kubernetes API
//! server accepts, and aliases may copy only so much in a file and in a run: a few hundred bytes
//! of YAML can otherwise ask for gigabytes (each document within serde-saphyr's own per-document
//! limits, ten of them in a file). Documents that may grow beyond their text are weighed before
//! they are built (`crate::yaml::weigh_document`, `weigh_json`), and admitted in file order
//! (`admit`), so that the same input passes or fails alike whatever the thread count.

use std::fmt;

use serde::de::{self, DeserializeSeed, Visitor};
use serde_json::Value;

use crate::diagnostics::{Diagnostic, Origin};
use crate::yaml::{self, DocumentText, Weight};

/// The largest object the Kubernetes API server accepts: its limit on a write request's body,
/// 3 MiB (`MaxRequestBodyBytes` in k8s.io/apiserver pkg/server/config.go: twice the 1.5 MiB
/// etcd takes in one request, since an object sent as JSON is stored as protobuf), measured on
/// the object as compact JSON, as kubectl sends it.
pub(crate) const MAX_OBJECT_BYTES: u64 = 3 << 20;

/// A document whose text is shorter than this cannot be an object larger than
/// [`MAX_OBJECT_BYTES`] without aliases: YAML grows at most about five times as JSON (`{a, b}`
/// is `{"a":null,"b":null}`; `1e15` is `1000000000000000.0`), and this leaves room for eight.
/// Longer ones are measured once built.
const MEASURED_FROM_BYTES: u64 = MAX_OBJECT_BYTES / 8;

/// What aliases may copy in one file and in all the files read together (the fleet's files, and
/// then what its tools print, each one [`crate::documents::parse_files_at`]), in nodes
/// (scalars, lists and maps, a string counting one node for each 64 bytes): far beyond the
/// copies a manifest makes (an anchored list of environment variables used in a few containers
/// copies a few hundred), far short of a machine's memory (400,000 copied nodes took 90 MiB).
pub(crate) const MAX_COPIED_NODES_PER_FILE: u64 = 100_000;
pub(crate) const MAX_COPIED_NODES_PER_RUN: u64 = 400_000;

/// One document of a file, as split, with its weight when it was weighed.
pub(crate) struct Piece<'a> {
    pub document: DocumentText<'a>,
    pub weight: Option<Result<Weight, Diagnostic>>,
}

/// What is done with a document.
pub(crate) enum Verdict {
    /// Parse it; with `measure`, measure its objects once built.
    Parse { measure: bool },
    /// It could not be weighed (a syntax error): parse it without letting an alias copy
    /// anything, which reports the error.
    ParseUnweighed {
        cannot_weigh: Diagnostic,
        measure: bool,
    },
    /// Refused before it was built.
    Refuse(Diagnostic),
}

/// Whether a document must be weighed before it is built: it may hold aliases, or it is long
/// enough to be an object the API server refuses.
pub(crate) fn needs_weighing(text: &str, yaml: bool) -> bool {
    text.len() as u64 > MAX_OBJECT_BYTES || yaml && yaml::may_hold_aliases(text)
}

/// Decides, in file order, what is done with each document of `files`: an object too large
/// for the API server, and a document whose aliases would copy more than the file's or the
/// run's share, are refused at their line; the copies of the documents admitted are counted
/// against both.
pub(crate) fn admit(files: &[(&str, Vec<Piece<'_>>)]) -> Vec<Vec<Verdict>> {
    let mut copied_in_run = 0u64;
    let mut verdicts = Vec::with_capacity(files.len());
    for (file, pieces) in files {
        let mut copied_in_file = 0u64;
        let mut file_verdicts = Vec::with_capacity(pieces.len());
        for piece in pieces {
            let document = &piece.document;
            let origin = || Some(Origin::new(*file, 0, document.content_line));
            let long = document.text.len() as u64 > MEASURED_FROM_BYTES;
            let verdict = match &piece.weight {
                None => Verdict::Parse { measure: long },
                // A long document is not built before it is weighed.
                Some(Err(cannot_weigh)) if document.text.len() as u64 > MAX_OBJECT_BYTES => {
                    Verdict::Refuse(cannot_weigh.clone())
                }
                Some(Err(cannot_weigh)) => Verdict::ParseUnweighed {
                    cannot_weigh: cannot_weigh.clone(),
                    measure: long,
                },
                Some(Ok(weight)) => {
                    let copied = weight.copied_nodes;
                    let in_file = copied_in_file.saturating_add(copied);
                    let in_run = copied_in_run.saturating_add(copied);
                    // At the alias that goes beyond the share.
                    let beyond = |already: u64, limit: u64| {
                        let line = weight
                            .line_beyond(already, limit)
                            .unwrap_or(document.content_line);
                        Some(Origin::new(*file, 0, line))
                    };
                    if in_file > MAX_COPIED_NODES_PER_FILE {
                        Verdict::Refuse(Diagnostic::error(
                            beyond(copied_in_file, MAX_COPIED_NODES_PER_FILE),
                            too_many_copies(copied, in_file, MAX_COPIED_NODES_PER_FILE, "file"),
                        ))
                    } else if in_run > MAX_COPIED_NODES_PER_RUN {
                        Verdict::Refuse(Diagnostic::error(
                            beyond(copied_in_run, MAX_COPIED_NODES_PER_RUN),
                            too_many_copies(
                                copied,
                                in_run,
                                MAX_COPIED_NODES_PER_RUN,
                                "run (all the files read together)",
                            ),
                        ))
                    } else if weight.object_json_bytes > MAX_OBJECT_BYTES {
                        Verdict::Refuse(Diagnostic::error(
                            origin(),
                            too_large(weight.object_json_bytes, true),
                        ))
                    } else {
                        copied_in_file = in_file;
                        copied_in_run = in_run;
                        Verdict::Parse {
                            measure: long || copied > 0,
                        }
                    }
                }
            };
            file_verdicts.push(verdict);
        }
        verdicts.push(file_verdicts);
    }
    verdicts
}

/// The message for an object larger than the API server accepts: `at_least` when its size is
/// a lower bound, weighed before it was built.
pub fn too_large(size: u64, at_least: bool) -> String {
    format!(
        "this object is {}{} ({size} bytes) as JSON, more than the {} the Kubernetes API server \
         accepts in one request, so it could never be applied; split it, or keep the data \
         elsewhere (a volume, an image)",
        if at_least { "at least " } else { "" },
        bytes(size),
        bytes(MAX_OBJECT_BYTES)
    )
}

/// A size for messages: `256 MiB`, `1.5 GiB`, `512 bytes`.
pub fn bytes(size: u64) -> String {
    const UNITS: [(&str, u64); 3] = [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)];
    for (unit, scale) in UNITS {
        if size >= scale {
            let value = size as f64 / scale as f64;
            return if value.fract() == 0.0 {
                format!("{value} {unit}")
            } else {
                format!("{value:.1} {unit}")
            };
        }
    }
    format!("{size} bytes")
}

fn too_many_copies(copied: u64, total: u64, limit: u64, scope: &str) -> String {
    format!(
        "the aliases of this document copy {copied} nodes, which brings what aliases copy in \
         this {scope} to {total}, beyond the {limit} allowed (a string counts one node for each \
         64 bytes); an alias-heavy document such as this one (a \"billion laughs\"?) is refused \
         before it is built: write the copies out"
    )
}

/// The size of `value` as compact JSON, without writing it anywhere.
pub(crate) fn json_size(value: &Value) -> u64 {
    struct Count(u64);
    impl std::io::Write for Count {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len() as u64;
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    serde_json::to_writer(&mut count, value).expect("a JSON value always writes");
    count.0
}

/// What a JSON file weighs before it is built: at least how many bytes its largest object
/// takes as compact JSON (the file's value, or each item of a `List`). An error is the
/// parser's, at its line.
pub(crate) fn weigh_json(text: &str, file: &str) -> Result<Weight, Diagnostic> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    deserializer.disable_recursion_limit();
    let weighed = TopLevel {
        levels_left: yaml::MAX_NESTING_DEPTH,
    }
    .deserialize(&mut deserializer)
    .and_then(|weight| deserializer.end().map(|()| weight));
    weighed
        .map(|object_json_bytes| Weight {
            object_json_bytes,
            ..Weight::default()
        })
        .map_err(|error| {
            let message = error.to_string();
            let message = match message.rfind(" at line ") {
                Some(at) => message[..at].to_string(),
                None => message,
            };
            Diagnostic::error(Some(Origin::new(file, 0, error.line() as u64)), message)
        })
}

/// The top of a JSON file: a `List` (a `kind` ending in `List`, with `items`) weighs as its
/// largest item, anything else as itself.
struct TopLevel {
    levels_left: usize,
}

impl<'de> DeserializeSeed<'de> for TopLevel {
    type Value = u64;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<u64, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for TopLevel {
    type Value = u64;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a JSON value")
    }

    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<u64, A::Error> {
        let inside = Weigh {
            levels_left: self.levels_left,
        }
        .inside()?;
        let mut total = 2u64;
        let mut entries = 0u64;
        let mut list_kind = false;
        let mut largest_item = None;
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            total = total.saturating_add(key.len() as u64 + 4);
            entries += 1;
            let weight = match &*key {
                "kind" => {
                    let kind: Value = map.next_value()?;
                    list_kind = kind.as_str().is_some_and(|kind| kind.ends_with("List"));
                    json_size(&kind)
                }
                "items" => {
                    let (weight, largest) = map.next_value_seed(Items(inside))?;
                    largest_item = largest;
                    weight
                }
                _ => map.next_value_seed(inside)?,
            };
            total = total.saturating_add(weight);
        }
        total = total.saturating_sub(u64::from(entries > 0));
        Ok(match largest_item {
            Some(largest) if list_kind => largest,
            _ => total,
        })
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, sequence: A) -> Result<u64, A::Error> {
        Weigh {
            levels_left: self.levels_left,
        }
        .visit_seq(sequence)
    }

    fn visit_bool<E>(self, _: bool) -> Result<u64, E> {
        Ok(1)
    }

    fn visit_i64<E>(self, _: i64) -> Result<u64, E> {
        Ok(1)
    }

    fn visit_u64<E>(self, _: u64) -> Result<u64, E> {
        Ok(1)
    }

    fn visit_f64<E>(self, _: f64) -> Result<u64, E> {
        Ok(1)
    }

    fn visit_str<E>(self, text: &str) -> Result<u64, E> {
        Ok(text.len() as u64 + 2)
    }

    fn visit_unit<E>(self) -> Result<u64, E> {
        Ok(1)
    }
}

/// The `items` of a top-level map: their weight, and the largest item's when it is a list.
struct Items(Weigh);

impl<'de> DeserializeSeed<'de> for Items {
    type Value = (u64, Option<u64>);

    fn deserialize<D: de::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Items {
    type Value = (u64, Option<u64>);

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a JSON value")
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, mut sequence: A) -> Result<Self::Value, A::Error> {
        let inside = self.0.inside()?;
        let (mut total, mut count, mut largest) = (2u64, 0u64, 0u64);
        while let Some(item) = sequence.next_element_seed(inside)? {
            total = total.saturating_add(item + 1);
            count += 1;
            largest = largest.max(item);
        }
        Ok((total.saturating_sub(u64::from(count > 0)), Some(largest)))
    }

    fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        self.0.visit_map(map).map(|weight| (weight, None))
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok((1, None))
    }

    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok((1, None))
    }

    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok((1, None))
    }

    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok((1, None))
    }

    fn visit_str<E>(self, text: &str) -> Result<Self::Value, E> {
        Ok((text.len() as u64 + 2, None))
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok((1, None))
    }
}

/// At least how many bytes one JSON value takes as compact JSON: every string and key with its
/// quotes, every number, boolean and null as one byte. Nesting is capped as the reader caps it.
#[derive(Clone, Copy)]
struct Weigh {
    levels_left: usize,
}

impl Weigh {
    fn inside<E: de::Error>(self) -> Result<Weigh, E> {
        match self.levels_left.checked_sub(1) {
            Some(levels_left) => Ok(Weigh { levels_left }),
            None => Err(E::custom(format!(
                "lists and maps nest deeper than {} levels",
                yaml::MAX_NESTING_DEPTH
            ))),
        }
    }
}

impl<'de> DeserializeSeed<'de> for Weigh {
    type Value = u64;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<u64, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Weigh {
    type Value = u64;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<u64, E> {
        Ok(1)
    }

    fn visit_i64<E>(self, _: i64) -> Result<u64, E> {
        Ok(1)
    }

    fn visit_u64<E>(self, _: u64) -> Result<u64, E> {
        Ok(1)
    }

    fn visit_f64<E>(self, _: f64) -> Result<u64, E> {
        Ok(1)
    }

    fn visit_str<E>(self, text: &str) -> Result<u64, E> {
        Ok(text.len() as u64 + 2)
    }

    fn visit_unit<E>(self) -> Result<u64, E> {
        Ok(1)
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, mut sequence: A) -> Result<u64, A::Error> {
        let inside = self.inside()?;
        let (mut total, mut count) = (2u64, 0u64);
        while let Some(item) = sequence.next_element_seed(inside)? {
            total = total.saturating_add(item + 1);
            count += 1;
        }
        Ok(total.saturating_sub(u64::from(count > 0)))
    }

    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<u64, A::Error> {
        let inside = self.inside()?;
        let (mut total, mut count) = (2u64, 0u64);
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            let value = map.next_value_seed(inside)?;
            total = total.saturating_add(key.len() as u64 + 4 + value);
            count += 1;
        }
        Ok(total.saturating_sub(u64::from(count > 0)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A document at `line` whose aliases copy `copied` nodes.
    fn copying(line: u64, copied: u64) -> Piece<'static> {
        Piece {
            document: DocumentText {
                text: "a: &a [x]\nb: *a\n",
                first_line: line,
                content_line: line,
            },
            weight: Some(Ok(Weight {
                object_json_bytes: 100,
                copied_nodes: copied,
                copies_by_line: vec![(copied, line + 1)],
            })),
        }
    }

    /// The refusals, as `file:line`.
    fn refused(files: &[(&str, Vec<Piece<'_>>)]) -> Vec<String> {
        admit(files)
            .iter()
            .flatten()
            .filter_map(|verdict| match verdict {
                Verdict::Refuse(error) => Some(error.origin.as_ref().unwrap().to_string()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn aliases_copy_within_a_files_share_and_then_the_runs_in_file_order() {
        let third = MAX_COPIED_NODES_PER_FILE / 3;
        // In one file, the fourth document of a third of the file's share goes beyond it, as
        // does every later one; a smaller one after them still fits.
        let one_file = [(
            "a.yaml",
            vec![
                copying(1, third),
                copying(5, third),
                copying(9, third),
                copying(13, third),
                copying(17, third),
                copying(21, 1),
            ],
        )];
        assert_eq!(refused(&one_file), ["a.yaml:14", "a.yaml:18"]);
        // Files each within their share: the run's share runs out in the fifth.
        let files: Vec<(&str, Vec<Piece<'_>>)> = ["a", "b", "c", "d", "e", "f"]
            .into_iter()
            .map(|name| {
                (
                    name,
                    vec![copying(1, third), copying(5, third), copying(9, third)],
                )
            })
            .collect();
        let expected_first = (MAX_COPIED_NODES_PER_RUN / third) as usize;
        let refusals = refused(&files);
        assert_eq!(refusals.len(), 18 - expected_first, "{refusals:?}");
        let message = match &admit(&files)[5][0] {
            Verdict::Refuse(error) => error.message.clone(),
            _ => panic!("the sixth file is admitted"),
        };
        assert!(
            message.contains("in this run (all the files read together)"),
            "{message}"
        );
        assert!(
            message.contains(&MAX_COPIED_NODES_PER_RUN.to_string()),
            "{message}"
        );
    }

    #[test]
    fn an_object_larger_than_the_api_server_takes_is_refused_before_it_is_built() {
        let mut piece = copying(3, 0);
        piece.weight = Some(Ok(Weight {
            object_json_bytes: MAX_OBJECT_BYTES + 1,
            ..Weight::default()
        }));
        let verdicts = admit(&[("big.yaml", vec![piece])]);
        let Verdict::Refuse(error) = &verdicts[0][0] else {
            panic!("admitted");
        };
        assert_eq!(error.origin.as_ref().unwrap().to_string(), "big.yaml:3");
        assert!(
            error.message.starts_with(
                "this object is at least 3.0 MiB (3145729 bytes) as JSON, more than the 3 MiB"
            ),
            "{}",
            error.message
        );
    }

    #[test]
    fn a_json_file_weighs_at_least_as_its_largest_object() {
        let weigh = |text: &str| weigh_json(text, "f.json").unwrap().object_json_bytes;
        let object = r#"{ "kind": "ConfigMap", "data": { "a": "bb", "n": 12345, "t": true } }"#;
        let compact = json_size(&serde_json::from_str(object).unwrap());
        assert!(weigh(object) <= compact);
        assert_eq!(
            weigh(object),
            compact - 4 - 3,
            "12345 and true weigh a byte each"
        );
        let list = format!(
            r#"{{"apiVersion": "v1", "items": [{object}, {{"kind": "A"}}], "kind": "List"}}"#
        );
        assert_eq!(weigh(&list), weigh(object));
        let error = weigh_json("{\n\"a\": [1,\n", "f.json").unwrap_err();
        assert_eq!(error.origin.unwrap().line, 3);
    }
}
