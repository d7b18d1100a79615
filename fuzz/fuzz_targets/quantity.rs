//! Kubernetes quantity parsing: any text either fails or gives a value that reads back from
//! its own decimal form exactly, and whose rounded values do not overflow.

#![no_main]

use fedrender::quantity::{Quantity, parse_quantity, quantity_from_json};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(quantity) = parse_quantity(text) {
        let written = quantity.to_string();
        assert_eq!(
            parse_quantity(&written),
            Ok(quantity),
            "{text:?} was written as {written:?}"
        );
        let _ = (quantity.milli_value_ceil(), quantity.value_ceil());
        let _: Quantity = quantity.saturating_add(quantity).saturating_sub(quantity);
    }
    let _ = quantity_from_json(&serde_json::Value::String(text.to_string()));
});
