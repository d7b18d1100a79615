//! What `fuzz_targets/quantity.rs` does with an input, which `engine/tests/fuzz_seeds.rs`
//! replays on every seed: Kubernetes quantity parsing. Any text either fails or gives a value
//! that reads back from its own decimal form exactly, and whose rounded values do not
//! overflow; and the text Kubernetes writes back for it reads back as the same value.

use fedrender_engine::quantity::{Quantity, parse_quantity, quantity_from_json, round_trip};

/// Whether `data` reached the parser; panics where a check fails.
pub fn run(data: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(data) else {
        return false;
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
        let written_back = round_trip(text).expect("a quantity that parses round-trips");
        // Decimal-SI values of 10^21 units and more lose their magnitude in Kubernetes' own
        // writer (`1000E` is written `1`), which round_trip reproduces.
        const TEN_POW_21_NANOS: i128 = 10i128.pow(30);
        if quantity.nanos().abs() < TEN_POW_21_NANOS {
            assert_eq!(
                parse_quantity(&written_back),
                Ok(quantity),
                "{text:?} was written back as {written_back:?}"
            );
        }
    }
    let _ = quantity_from_json(&serde_json::Value::String(text.to_string()));
    true
}
