//! The encodings sprig's and Argo CD's functions need, as Go writes them: `encoding/json`,
//! base64 and SHA-256.

/// `json.Marshal` (or `MarshalIndent(v, "", "  ")`): keys sorted, `<`, `>`, `&` and the line
/// separators escaped as Go does, floats as `encoding/json` writes them.
pub(crate) fn go_json(value: &serde_json::Value, pretty: bool) -> String {
    let mut out = String::new();
    write_json(&mut out, value, pretty, 0, true);
    out
}

/// sprig `toRawJson`: an `Encoder` with `SetEscapeHTML(false)`, its final newline trimmed.
pub(crate) fn go_json_raw(value: &serde_json::Value) -> String {
    let mut out = String::new();
    write_json(&mut out, value, false, 0, false);
    out
}

fn write_json(out: &mut String, value: &serde_json::Value, pretty: bool, depth: usize, html: bool) {
    let newline = |out: &mut String, depth: usize| {
        if pretty {
            out.push('\n');
            out.push_str(&"  ".repeat(depth));
        }
    };
    match value {
        serde_json::Value::Null => out.push_str("null"),
        serde_json::Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        serde_json::Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => out.push_str(&i.to_string()),
            (None, Some(f)) => out.push_str(&json_float(f)),
            _ => out.push_str(&n.to_string()),
        },
        serde_json::Value::String(s) => json_string(out, s, html),
        serde_json::Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                write_json(out, item, pretty, depth + 1, html);
            }
            if !items.is_empty() {
                newline(out, depth);
            }
            out.push(']');
        }
        serde_json::Value::Object(fields) => {
            let mut keys: Vec<&String> = fields.keys().collect();
            keys.sort();
            out.push('{');
            for (i, key) in keys.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                json_string(out, key, html);
                out.push(':');
                if pretty {
                    out.push(' ');
                }
                write_json(out, &fields[*key], pretty, depth + 1, html);
            }
            if !keys.is_empty() {
                newline(out, depth);
            }
            out.push('}');
        }
    }
}

/// encoding/json's float64: 'f' shortest, or 'e' below 1e-6 and from 1e21 with a short exponent.
fn json_float(f: f64) -> String {
    let magnitude = f.abs();
    if magnitude != 0.0 && !(1e-6..1e21).contains(&magnitude) {
        let written = format!("{f:e}");
        match written.split_once('e') {
            Some((mantissa, exponent)) if !exponent.starts_with('-') => {
                format!("{mantissa}e+{exponent}")
            }
            _ => written,
        }
    } else {
        format!("{f}")
    }
}

fn json_string(out: &mut String, s: &str, html: bool) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' if !html => out.push(c),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", c as u32))
            }
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// `base64.StdEncoding.EncodeToString`.
pub(crate) fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let bits = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(bits >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// `base64.StdEncoding.DecodeString`, with Go's message for bad input.
pub(crate) fn base64_decode(text: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let bytes: Vec<u8> = text
        .bytes()
        .filter(|b| *b != b'\n' && *b != b'\r')
        .collect();
    let illegal = |at: usize| format!("illegal base64 data at input byte {at}");
    if !bytes.len().is_multiple_of(4) {
        return Err(illegal(bytes.len() / 4 * 4));
    }
    for (c, chunk) in bytes.chunks(4).enumerate() {
        let mut bits = 0u32;
        let mut padding = 0;
        for (i, &b) in chunk.iter().enumerate() {
            let v = if b == b'=' && i >= 2 {
                padding += 1;
                0
            } else if padding > 0 {
                return Err(illegal(c * 4 + i));
            } else {
                ALPHABET
                    .iter()
                    .position(|&a| a == b)
                    .ok_or_else(|| illegal(c * 4 + i))? as u32
            };
            bits = bits << 6 | v;
        }
        let decoded = bits.to_be_bytes();
        out.extend_from_slice(&decoded[1..4 - padding]);
    }
    Ok(out)
}

/// SHA-256 (FIPS 180-4) as lower-case hex, sprig's `sha256sum`.
pub(crate) fn sha256_hex(data: &[u8]) -> String {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    for block in padded(data).chunks(64) {
        let mut w = [0u32; 64];
        for i in 0..16 {
            w[i] = u32::from_be_bytes([
                block[4 * i],
                block[4 * i + 1],
                block[4 * i + 2],
                block[4 * i + 3],
            ]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = h;
        for i in 0..64 {
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let ch = (e & f) ^ (!e & g);
            let t1 = hh
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[i])
                .wrapping_add(w[i]);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let maj = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(maj);
            hh = g;
            g = f;
            f = e;
            e = d.wrapping_add(t1);
            d = c;
            c = b;
            b = a;
            a = t1.wrapping_add(t2);
        }
        for (slot, v) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
            *slot = slot.wrapping_add(v);
        }
    }
    h.iter().map(|v| format!("{v:08x}")).collect()
}

/// The message padded as SHA-1 and SHA-256 pad it (FIPS 180-4 5.1.1): a 1 bit, zeros, and the
/// length in bits, to a whole number of 64-byte blocks.
fn padded(data: &[u8]) -> Vec<u8> {
    let mut message = data.to_vec();
    message.push(0x80);
    while message.len() % 64 != 56 {
        message.push(0);
    }
    message.extend_from_slice(&((data.len() as u64).wrapping_mul(8)).to_be_bytes());
    message
}

/// SHA-1 (FIPS 180-4 6.1) as lower-case hex, sprig's `sha1sum`.
pub(crate) fn sha1_hex(data: &[u8]) -> String {
    let mut h: [u32; 5] = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0];
    for block in padded(data).chunks(64) {
        let mut w = [0u32; 80];
        for (i, word) in block.chunks(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..80 {
            w[i] = (w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]).rotate_left(1);
        }
        let [mut a, mut b, mut c, mut d, mut e] = h;
        for (i, &word) in w.iter().enumerate() {
            let (f, k) = match i {
                0..=19 => ((b & c) | (!b & d), 0x5a827999),
                20..=39 => (b ^ c ^ d, 0x6ed9eba1),
                40..=59 => ((b & c) | (b & d) | (c & d), 0x8f1bbcdc),
                _ => (b ^ c ^ d, 0xca62c1d6),
            };
            let next = a
                .rotate_left(5)
                .wrapping_add(f)
                .wrapping_add(e)
                .wrapping_add(k)
                .wrapping_add(word);
            e = d;
            d = c;
            c = b.rotate_left(30);
            b = a;
            a = next;
        }
        for (slot, v) in h.iter_mut().zip([a, b, c, d, e]) {
            *slot = slot.wrapping_add(v);
        }
    }
    h.iter().map(|v| format!("{v:08x}")).collect()
}

/// Adler-32 (RFC 1950 8.2), sprig's `adler32sum`, which writes it in decimal.
pub(crate) fn adler32(data: &[u8]) -> u32 {
    const MOD: u32 = 65521;
    let (mut a, mut b) = (1u32, 0u32);
    for &byte in data {
        a = (a + u32::from(byte)) % MOD;
        b = (b + a) % MOD;
    }
    (b << 16) | a
}

/// `json.Marshal`'s refusal of a float JSON cannot hold: `json: unsupported value: NaN`.
pub(crate) fn unsupported_float(value: &super::value::Value) -> Option<String> {
    match value {
        super::value::Value::Float(x) if !x.is_finite() => Some(format!(
            "json: unsupported value: {}",
            if x.is_nan() {
                "NaN"
            } else if *x > 0.0 {
                "+Inf"
            } else {
                "-Inf"
            }
        )),
        super::value::Value::List(items, _) => items.iter().find_map(unsupported_float),
        super::value::Value::Map(map, _) => map.borrow().values().find_map(unsupported_float),
        _ => None,
    }
}

/// `base32.StdEncoding.EncodeToString` (RFC 4648 6), sprig's `b32enc`.
pub(crate) fn base32_encode(data: &[u8]) -> String {
    const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    let mut out = String::new();
    for chunk in data.chunks(5) {
        let mut block = [0u8; 5];
        block[..chunk.len()].copy_from_slice(chunk);
        let bits = block
            .iter()
            .fold(0u64, |bits, &byte| bits << 8 | u64::from(byte));
        // Each 8 bits of input need 8/5 characters, rounded up: 1 byte 2, 2 bytes 4, ...
        let written = (chunk.len() * 8).div_ceil(5);
        for i in 0..8 {
            if i < written {
                out.push(ALPHABET[(bits >> (35 - 5 * i) & 31) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// `base32.StdEncoding.DecodeString` (RFC 4648 6), sprig's `b32dec`: line breaks dropped,
/// padding required, and Go's `illegal base32 data at input byte N` for the first bad byte.
pub(crate) fn base32_decode(text: &str) -> Result<Vec<u8>, String> {
    let input: Vec<u8> = text
        .bytes()
        .filter(|b| *b != b'\r' && *b != b'\n')
        .collect();
    let illegal = |at: usize| format!("illegal base32 data at input byte {at}");
    let value = |b: u8| match b {
        b'A'..=b'Z' => Some(b - b'A'),
        b'2'..=b'7' => Some(b - b'2' + 26),
        _ => None,
    };
    let mut out = Vec::new();
    let mut rest = &input[..];
    let total = input.len();
    while !rest.is_empty() {
        let mut quantum = [0u8; 8];
        let mut filled = 0;
        let mut end = false;
        while filled < 8 {
            let Some((&b, after)) = rest.split_first() else {
                return Err(illegal(total - filled));
            };
            rest = after;
            if b == b'=' && filled >= 2 && rest.len() < 8 {
                // Padding: what is left must all be padding, 8 characters in all.
                if rest.len() + filled < 7 {
                    return Err(illegal(total));
                }
                for k in 0..7 - filled {
                    if rest.len() > k && rest[k] != b'=' {
                        return Err(illegal(total - rest.len() + k - 1));
                    }
                }
                if matches!(filled, 1 | 3 | 6) {
                    return Err(illegal(total - rest.len() - 1));
                }
                end = true;
                break;
            }
            quantum[filled] = value(b).ok_or_else(|| illegal(total - rest.len() - 1))?;
            filled += 1;
        }
        let bits = quantum
            .iter()
            .fold(0u64, |bits, &five| bits << 5 | u64::from(five));
        let bytes = bits.to_be_bytes();
        // 8 characters carry 5 bytes; 2, 4, 5 and 7 carry 1, 2, 3 and 4.
        let carried = match filled {
            8 => 5,
            7 => 4,
            5 => 3,
            4 => 2,
            _ => 1,
        };
        out.extend_from_slice(&bytes[3..3 + carried]);
        if end {
            break;
        }
    }
    Ok(out)
}

/// SHA-512 (FIPS 180-4 6.4) as lower-case hex, sprig's `sha512sum`.
pub(crate) fn sha512_hex(data: &[u8]) -> String {
    const K: [u64; 80] = [
        0x428a2f98d728ae22,
        0x7137449123ef65cd,
        0xb5c0fbcfec4d3b2f,
        0xe9b5dba58189dbbc,
        0x3956c25bf348b538,
        0x59f111f1b605d019,
        0x923f82a4af194f9b,
        0xab1c5ed5da6d8118,
        0xd807aa98a3030242,
        0x12835b0145706fbe,
        0x243185be4ee4b28c,
        0x550c7dc3d5ffb4e2,
        0x72be5d74f27b896f,
        0x80deb1fe3b1696b1,
        0x9bdc06a725c71235,
        0xc19bf174cf692694,
        0xe49b69c19ef14ad2,
        0xefbe4786384f25e3,
        0x0fc19dc68b8cd5b5,
        0x240ca1cc77ac9c65,
        0x2de92c6f592b0275,
        0x4a7484aa6ea6e483,
        0x5cb0a9dcbd41fbd4,
        0x76f988da831153b5,
        0x983e5152ee66dfab,
        0xa831c66d2db43210,
        0xb00327c898fb213f,
        0xbf597fc7beef0ee4,
        0xc6e00bf33da88fc2,
        0xd5a79147930aa725,
        0x06ca6351e003826f,
        0x142929670a0e6e70,
        0x27b70a8546d22ffc,
        0x2e1b21385c26c926,
        0x4d2c6dfc5ac42aed,
        0x53380d139d95b3df,
        0x650a73548baf63de,
        0x766a0abb3c77b2a8,
        0x81c2c92e47edaee6,
        0x92722c851482353b,
        0xa2bfe8a14cf10364,
        0xa81a664bbc423001,
        0xc24b8b70d0f89791,
        0xc76c51a30654be30,
        0xd192e819d6ef5218,
        0xd69906245565a910,
        0xf40e35855771202a,
        0x106aa07032bbd1b8,
        0x19a4c116b8d2d0c8,
        0x1e376c085141ab53,
        0x2748774cdf8eeb99,
        0x34b0bcb5e19b48a8,
        0x391c0cb3c5c95a63,
        0x4ed8aa4ae3418acb,
        0x5b9cca4f7763e373,
        0x682e6ff3d6b2b8a3,
        0x748f82ee5defb2fc,
        0x78a5636f43172f60,
        0x84c87814a1f0ab72,
        0x8cc702081a6439ec,
        0x90befffa23631e28,
        0xa4506cebde82bde9,
        0xbef9a3f7b2c67915,
        0xc67178f2e372532b,
        0xca273eceea26619c,
        0xd186b8c721c0c207,
        0xeada7dd6cde0eb1e,
        0xf57d4f7fee6ed178,
        0x06f067aa72176fba,
        0x0a637dc5a2c898a6,
        0x113f9804bef90dae,
        0x1b710b35131c471b,
        0x28db77f523047d84,
        0x32caab7b40c72493,
        0x3c9ebe0a15c9bebc,
        0x431d67c49c100d4c,
        0x4cc5d4becb3e42b6,
        0x597f299cfc657e2a,
        0x5fcb6fab3ad6faec,
        0x6c44198c4a475817,
    ];
    let mut h: [u64; 8] = [
        0x6a09e667f3bcc908,
        0xbb67ae8584caa73b,
        0x3c6ef372fe94f82b,
        0xa54ff53a5f1d36f1,
        0x510e527fade682d1,
        0x9b05688c2b3e6c1f,
        0x1f83d9abfb41bd6b,
        0x5be0cd19137e2179,
    ];
    // FIPS 180-4 5.1.2: a 1 bit, zeros, and the length in bits as 128 bits, to 128-byte blocks.
    let mut message = data.to_vec();
    message.push(0x80);
    while message.len() % 128 != 112 {
        message.push(0);
    }
    message.extend_from_slice(&((data.len() as u128).wrapping_mul(8)).to_be_bytes());
    for block in message.chunks(128) {
        let mut w = [0u64; 80];
        for (i, word) in block.chunks(8).enumerate() {
            w[i] = u64::from_be_bytes(word.try_into().expect("8 bytes"));
        }
        for i in 16..80 {
            let s0 = w[i - 15].rotate_right(1) ^ w[i - 15].rotate_right(8) ^ (w[i - 15] >> 7);
            let s1 = w[i - 2].rotate_right(19) ^ w[i - 2].rotate_right(61) ^ (w[i - 2] >> 6);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = h;
        for i in 0..80 {
            let s1 = e.rotate_right(14) ^ e.rotate_right(18) ^ e.rotate_right(41);
            let ch = (e & f) ^ (!e & g);
            let t1 = hh
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[i])
                .wrapping_add(w[i]);
            let s0 = a.rotate_right(28) ^ a.rotate_right(34) ^ a.rotate_right(39);
            let maj = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(maj);
            hh = g;
            g = f;
            f = e;
            e = d.wrapping_add(t1);
            d = c;
            c = b;
            b = a;
            a = t1.wrapping_add(t2);
        }
        for (slot, v) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
            *slot = slot.wrapping_add(v);
        }
    }
    h.iter().map(|v| format!("{v:016x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha1_adler32_and_base32_give_the_standard_vectors() {
        // FIPS 180-4's examples, RFC 1950's "Wikipedia" checksum, RFC 4648 10's vectors.
        assert_eq!(sha1_hex(b"abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
        assert_eq!(sha1_hex(b""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
        assert_eq!(
            sha1_hex(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1"
        );
        assert_eq!(adler32(b"Wikipedia"), 0x11e60398);
        assert_eq!(adler32(b""), 1);
        let vectors = [
            ("", ""),
            ("f", "MY======"),
            ("fo", "MZXQ===="),
            ("foo", "MZXW6==="),
            ("foob", "MZXW6YQ="),
            ("fooba", "MZXW6YTB"),
            ("foobar", "MZXW6YTBOI======"),
        ];
        for (text, encoded) in vectors {
            assert_eq!(base32_encode(text.as_bytes()), encoded, "{text}");
            assert_eq!(
                base32_decode(encoded).unwrap(),
                text.as_bytes(),
                "{encoded}"
            );
        }
        // Corrupt inputs in the style of Go's base32_test.go TestDecodeCorrupt, with the offsets
        // the reference answered (answers.jsonl).
        let corrupt = [
            ("!!!!", 0),
            ("x===", 0),
            ("AA=A====", 2),
            ("AAA=AAAA", 3),
            ("MMMMMMMMM", 8),
            ("MMMMMM", 0),
            ("A=", 1),
            ("AA=", 3),
            ("AA==", 4),
            ("AA===", 5),
            ("AAAA=", 5),
            ("AAAAA=", 6),
            ("A=======", 1),
            ("AAA=====", 3),
            ("AAAAAA==", 6),
        ];
        for (text, at) in corrupt {
            assert_eq!(
                base32_decode(text).unwrap_err(),
                format!("illegal base32 data at input byte {at}"),
                "{text}"
            );
        }
        for text in [
            "", "AA======", "AAAA====", "AAAAA===", "AAAAAAA=", "AAAAAAAA",
        ] {
            assert!(base32_decode(text).is_ok(), "{text}");
        }
        // FIPS 180-4's SHA-512 examples.
        assert_eq!(
            sha512_hex(b"abc"),
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a\
             2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
        );
        assert_eq!(sha512_hex(b"").len(), 128);
    }

    #[test]
    fn encodings() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(base64_encode(b"hello"), "aGVsbG8=");
        assert_eq!(base64_decode("aGVsbG8=").unwrap(), b"hello");
        assert_eq!(
            base64_decode("a!").unwrap_err(),
            "illegal base64 data at input byte 0"
        );
        assert_eq!(
            go_json(&serde_json::json!({"b": [1, 1.5], "a": "<x>"}), false),
            r#"{"a":"\u003cx\u003e","b":[1,1.5]}"#
        );
    }
}
