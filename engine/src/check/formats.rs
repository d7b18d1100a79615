//! The string and number formats the API server enforces on a value.

use serde_json::Value;

/// The formats the API server enforces (kube-openapi strfmt, as CRD validation and the
/// decoding of built-in kinds apply them): integer bounds, base64 for `byte` (Secret data),
/// and the address formats. Others (`date-time` among them, whose Go parser accepts several
/// layouts) are left to the API server.
pub(super) fn check_format(format: &str, value: &Value, invalid: &mut impl FnMut(String)) {
    if let Some(number) = value.as_f64() {
        let (low, high) = match format {
            "int32" => (i32::MIN as f64, i32::MAX as f64),
            "int64" => (i64::MIN as f64, i64::MAX as f64),
            _ => return,
        };
        if number < low || number > high {
            invalid(format!("{number} does not fit an {format}"));
        }
        return;
    }
    let Some(text) = value.as_str() else {
        return;
    };
    let valid = match format {
        "byte" => is_base64(text),
        "uuid" => is_uuid(text),
        "ipv4" => text.parse::<std::net::Ipv4Addr>().is_ok(),
        "ipv6" => text.parse::<std::net::Ipv6Addr>().is_ok(),
        "cidr" => text.split_once('/').is_some_and(|(address, prefix)| {
            let bits = match address.parse::<std::net::IpAddr>() {
                Ok(std::net::IpAddr::V4(_)) => 32,
                Ok(std::net::IpAddr::V6(_)) => 128,
                Err(_) => return false,
            };
            prefix.parse::<u8>().is_ok_and(|prefix| prefix <= bits) && !prefix.starts_with('+')
        }),
        _ => true,
    };
    if !valid {
        let what = match format {
            "byte" => "base64 (standard alphabet, padded)",
            "uuid" => "a UUID",
            "ipv4" => "an IPv4 address",
            "ipv6" => "an IPv6 address",
            _ => "a CIDR (address/prefix)",
        };
        invalid(format!("{} is not {what}", describe(value)));
    }
}

/// Go's `base64.StdEncoding`, which JSON decoding of a byte field uses: the standard alphabet,
/// padded to a multiple of four; line breaks are skipped.
fn is_base64(text: &str) -> bool {
    let bytes: Vec<u8> = text.bytes().filter(|&b| b != b'\r' && b != b'\n').collect();
    if !bytes.len().is_multiple_of(4) {
        return false;
    }
    let padding = bytes.iter().rev().take_while(|&&b| b == b'=').count();
    padding <= 2
        && bytes[..bytes.len() - padding]
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
}

/// strfmt's UUID: 8-4-4-4-12 hexadecimal digits.
fn is_uuid(text: &str) -> bool {
    let groups: Vec<&str> = text.split('-').collect();
    groups.len() == 5
        && groups.iter().zip([8, 4, 4, 4, 12]).all(|(group, length)| {
            group.len() == length && group.bytes().all(|b| b.is_ascii_hexdigit())
        })
}

/// A value as a message shows it: its JSON, cut to 60 characters. Only as much of it is
/// written as is shown, since a value may be large and a check may describe it often.
pub(super) fn describe(value: &Value) -> String {
    const SHOWN: usize = 60;
    struct Prefix {
        bytes: Vec<u8>,
        limit: usize,
    }
    impl std::io::Write for Prefix {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            let room = self.limit - self.bytes.len();
            if room == 0 {
                return Err(std::io::Error::other("shown in full"));
            }
            let taken = bytes.len().min(room);
            self.bytes.extend_from_slice(&bytes[..taken]);
            Ok(taken)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    // A character takes at most four bytes: this many hold more than are shown.
    let mut prefix = Prefix {
        bytes: Vec::new(),
        limit: (SHOWN + 1) * 4,
    };
    let _ = serde_json::to_writer(&mut prefix, value);
    let text = match std::str::from_utf8(&prefix.bytes) {
        Ok(text) => text,
        Err(cut) => std::str::from_utf8(&prefix.bytes[..cut.valid_up_to()]).unwrap_or_default(),
    };
    if text.chars().count() > SHOWN {
        format!("{}…", text.chars().take(57).collect::<String>())
    } else {
        text.to_string()
    }
}
