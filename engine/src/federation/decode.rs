//! Decoding a KubeFed document into its type, the object named in the message of a document
//! that does not decode.

use serde_json::Value;

use crate::diagnostics::Rejected;
use crate::documents::{RawDocument, SourceFile};

pub(super) fn identify(kind: &str, namespace: &str, name: &str) -> String {
    if namespace.is_empty() {
        format!("{kind} {name}")
    } else {
        format!("{kind} {namespace}/{name}")
    }
}

/// Parses a typed document, naming the object in the error, and every unknown field of it.
pub(super) fn decode<T: serde::de::DeserializeOwned>(
    document: &RawDocument,
    files: &[SourceFile],
) -> Result<T, Rejected> {
    document.decode(files).map_err(|mut error| {
        let text = |pointer: &str| {
            crate::json_pointer::pointer(&document.value, pointer).and_then(Value::as_str)
        };
        let kind = text("/kind").unwrap_or("object");
        let id = identify(
            kind,
            text("/metadata/namespace").unwrap_or(""),
            text("/metadata/name").unwrap_or(""),
        );
        error.message = format!("{id}: {}", error.message);
        document.with_every_unknown_field::<T>(files, error, &format!("{id}: "))
    })
}
