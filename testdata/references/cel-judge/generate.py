#!/usr/bin/env python3
"""Random CRDs and custom resources for the differential against cel-judge (the API server's own
CRD validation, decoding and CEL, ../../../../shared/oracle/cel-judge): seeded and repeatable.

Each CRD has a random `spec` schema using the OpenAPI keywords and formats the API server checks
(types, nullable, defaults, enum, pattern, lengths, bounds, multipleOf, item and property
counts, formats, list types, int-or-string, preserve-unknown-fields, embedded resources) and
CEL rules from the Kubernetes libraries (strings, lists, regex, URLs, IP and CIDR, quantities,
semver, format, two-variable comprehensions, optionals, transition rules). For each CRD some
objects are built to pass and then mutated to fail (a missing required field, a wrong type, a
value out of bounds, a bad format value, a null, an unknown field, a repeated set item); some
get an old object, for an update.

    python3 generate.py --seed 47 --crds 300 > cases.json      # a JSON list, the judge's input

Each case: {"id", "crd_id", "crd" (JSON text), "object" (JSON text), "old" (optional)}.
record.py runs the judge at each Kubernetes version and writes what it says.
"""

import argparse
import copy
import json
import random
import string

FORMAT_VALUES = {
    "date": (["2024-02-29", "2023-12-31", "0001-01-01"],
             ["2023-02-29", "2024-13-01", "2024-02-30", "2024-1-01", "24-01-01", "2024-01-01T00:00:00Z", ""]),
    "date-time": (["2024-01-01T00:00:00Z", "2024-01-01t23:59:59.123+02:00", "2024-06-01T12:00:00.5-07:00", "2024-01-01T00:00:00.1Z"],
                  ["2024-01-01T24:00:00Z", "2024-01-01T00:60:00Z", "2024-02-30T00:00:00Z", "2024-01-01T00:00:00", "2024-01-01", "2024-01-01 00:00:00Z", ""]),
    "duration": (["1h30m", "0", "-1.5s", "3 days", "1 minute", "2w", "100ms", "5µs", "10 hours"],
                 ["30", "1x", "", "1.5", "h", "one hour", "99999999999999999999h"]),
    "byte": (["aGVsbG8=", "aGVsbA==", "YWJj", "+/+/"],
             ["hello!", "aGVsbG8", "aGVsbG8=\n", "aGVs\nbG8=", "", "aGVsbG8==", "aGVsbG8=="]),
    "uuid": (["123e4567-e89b-12d3-a456-426614174000", "123E4567E89B12D3A456426614174000", "123e4567e89b-12d3-a456426614174000"],
             ["123e4567-e89b-12d3-a456-42661417400", "g23e4567-e89b-12d3-a456-426614174000", "123e4567--e89b-12d3-a456-426614174000"]),
    "uuid4": (["025b0d74-00a2-4048-bf57-227c5111bb34"], ["025b0d74-00a2-4048-cf57-227c5111bb34", "025b0d74-00a2-3048-bf57-227c5111bb34"]),
    "uuid3": (["bcd02e22-68f0-3046-a512-327cca9def8f"], ["bcd02e22-68f0-4046-a512-327cca9def8f"]),
    "uuid5": (["886313e1-3b8a-5372-9b90-0c9aee199e5d"], ["886313e1-3b8a-5372-7b90-0c9aee199e5d"]),
    "ipv4": (["10.0.0.1", "010.0.0.1", "::ffff:10.0.0.1", "255.255.255.255"], ["10.0.0.256", "10.0.0", "fd00::1", "1.2.3.4.5", ""]),
    "ipv6": (["fd00::1", "::", "::ffff:1.2.3.4", "1:2:3:4:5:6:7:8", "1::"], ["fd00:::1", "10.0.0.1", "fe80::1%eth0", "1:2:3:4:5:6:7:8:9", "00001::", "::ffff:01.2.3.4"]),
    "cidr": (["10.0.0.0/8", "010.0.0.0/08", "fd00::/64", "10.1.2.3/32", "::ffff:1.2.3.4/100"], ["10.0.0.0/33", "10.0.0.0", "fd00::/129", "10.0.0.0/+8", "10.0.0.0/-1", "/8"]),
    "mac": (["01:23:45:67:89:ab", "01-23-45-67-89-AB", "0123.4567.89ab", "01:23:45:67:89:ab:cd:ef"], ["01:23:45:67:89", "01:23-45:67:89:ab", "0123:4567:89ab", "01:23:45:67:89:ag"]),
    "hostname": (["example.com", "a", "xn--bcher-kva.example", "bücher.de", "a-b.c-d.ef"], ["-example.com", "example.c", "exa mple.com", "a..b", "a" * 64 + ".com", "example.com."]),
    "uri": (["http://example.com/a?b", "https://[::1]:8443/", "mailto:x@example.com", "/absolute/path", "*", "http://user:pw@host:80/x#frag", "ftp://a/b%20c", "HTTP://EXAMPLE.COM"],
            ["relative/path", "", "http://exa mple.com/", "http://a:b:c/", "http://[1.2.3.4]/", "/a%zz", "http://[::1", ":no-scheme", "http://host:port/"]),
    "email": (["a@example.com", "Jane Doe <jane@example.com>", "\"q u\"@example.com", "a@[10.0.0.1]", "a.b+c@example.co.uk", " a@example.com "],
              ["example.com", "a@", "a@b@c", "<a@example.com", "a..b@example.com", ".a@example.com", "a@example.com>"]),
    "bsonobjectid": (["507f1f77bcf86cd799439011", "507F1F77BCF86CD799439011"], ["507f1f77bcf86cd79943901", "507f1f77bcf86cd79943901g"]),
    "isbn10": (["0321751043", "0-321-75104-3", "080442957X"], ["0321751044", "03217510433"]),
    "isbn13": (["978-0321751041", "9780321751041"], ["978-0321751042", "97803217510"]),
    "isbn": (["0321751043", "9780321751041"], ["123", "0321751044"]),
    "creditcard": (["4111 1111 1111 1111", "5500-0000-0000-0004", "378282246310005"], ["4111 1111 1111 1112", "1234", "6011000000000005"]),
    "ssn": (["123-45-6789", "123 45 6789"], ["123456789", "123-45-678", "123-45-67890"]),
    "hexcolor": (["#fff", "FFFFFF", "#a1b2c3"], ["#ffff", "#ggg", "fffffff"]),
    "rgbcolor": (["rgb(0, 128, 255)", "rgb(255,255,255)", "rgb( 1 , 2 , 3 )"], ["rgb(256,0,0)", "rgb(01,0,0)", "rgb(0,0)", "rgb(0,0,0"]),
    "password": (["anything", ""], []),
    "k8s-short-name": (["a-name", "x1"], ["Not_A_Name", "-a", "a" * 64, ""]),
    "k8s-long-name": (["a.b-c.d", "example.com"], ["a..b", "A.b", "a" * 254]),
}

# More values for the format probes: corners of each grammar.
FORMAT_CORNERS = {
    "uri": ["http://a/b c", "http://a:80", "http://a:", "http://[fe80::1%25en0]/", "http://[fe80::1%en0]/", "//host/path", "a:b", "1a:b", "http://a@b@c/", "http://a b@c/", "http://%41/", "http://%c3%a9/", "/p?q#f", "http://a:1:2/", "redis://a:1,b:2/", "http://a/%", "http://a/%4", "http://[::ffff:1.2.3.4]/", "x:", "?q", "http://é.com/"],
    "email": ["a@b", "a@b.c", "a b@c.d", "\"\"@a.b", "(comment) a@b.c", "a@b.c (comment)", "Name <a@b.c> x", "a@[IPv6:::1]", "a@[300.1.1.1]", "a@-b.c", "é@b.c", "a.@b.c", "\"a\\\"b\"@c.d", "group: a@b.c;"],
    "duration": ["1h1h", "1.5h", ".5s", "1.", "+5m", "-0", "5 sec", "5seconds", "5 mins", "5 months", "7 hrs", "2 weeks ago", "in 3 days", "1e3s", "1hr", "3 µs", "100000000000h", "5 x 3 days"],
    "date-time": ["2024-01-01T00:00:00.Z", "2024-01-01T00:00:00+0100", "2024-01-01T00:00:00+01:00t", "2024-01-01T00:00:00.123456789Z", "2024-01-01T23:59:60Z", "2024-01-01T00:00:00 Z", "2024-01-01TT00:00:00Z", "2024-01-01T00:00:00x5Z", "2024-01-01T00:00:00+99:99"],
    "ipv6": ["1:2:3:4:5:6:7::", "::1:2:3:4:5:6:7", "1::2::3", "1:2:3:4:5:6:1.2.3.4", "::1.2.3.4", "1:2:3:4:5:6:7:1.2.3.4", "12345::", "::ffff:256.1.1.1", ":1::", "1:::"],
    "ipv4": ["0.0.0.0", "1.2.3.04", "1.2.3", "1.2.3.4 ", "::1.2.3.4", "0x1.2.3.4"],
    "cidr": ["10.0.0.0/0", "10.0.0.0/008", "::/0", "1.2.3.4/32/1", "1.2.3.4/ 8", "01.02.03.04/8"],
    "hostname": ["localhost", "a.b", "1.2.3.4", "a-.b.com", "a.b-", "☃.com", "a_b.com", "ab.c1", "a.bc"],
    "mac": ["01:23:45:67:89:ab:cd:ef:01:23:45:67:89:ab:cd:ef:01:23:45:67", "0123.4567.89ab.cdef", "01:23:45:67:89:AB", "01:23:45:67:89:ab:"],
    "byte": ["====", "a===", "ab=c", "abcd", "ab+/", "ab-_"],
    "date": ["2000-02-29", "1900-02-29", "2024-04-31", "2024-00-10", "2024-12-00", "+024-01-01", "2024-01-1a"],
}

# CEL rules on a string node: (rule, library, minimum Kubernetes minor that compiles it).
STRING_RULES = [
    ("self.size() <= {n}", "strings", 30),
    ("self.startsWith('{c}')", "strings", 30),
    ("self.endsWith('{c}')", "strings", 30),
    ("self.contains('{c}')", "strings", 30),
    ("self.matches('^[a-z0-9-]*$')", "regex", 30),
    ("self.lowerAscii() == self", "strings", 30),
    ("self.upperAscii() != self || self == ''", "strings", 30),
    ("self.trim() == self", "strings", 30),
    ("self.indexOf('{c}') < 3", "strings", 30),
    ("self.lastIndexOf('{c}') >= -1", "strings", 30),
    ("self.replace('{c}', 'x').size() == self.size()", "strings", 30),
    ("self.split('-').size() <= 3", "strings", 30),
    ("self.find('[0-9]+') == '' || int(self.find('[0-9]+')) < 100", "regex", 30),
    ("self.findAll('[a-z]').size() >= 1", "regex", 30),
    ("isURL(self) || self.size() < 100", "urls", 30),
    ("!isURL(self) || url(self).getScheme() in ['http', 'https']", "urls", 30),
    ("!isIP(self) || ip(self).family() == 4", "ip", 31),
    ("!isCIDR(self) || cidr(self).prefixLength() >= 8", "cidr", 31),
    ("!isQuantity(self) || quantity(self).isLessThan(quantity('10Gi'))", "quantity", 30),
    ("!isSemver(self) || semver(self).isGreaterThan(semver('1.0.0'))", "semver", 34),
    ("!format.dns1123Label().validate(self).hasValue()", "format", 32),
    ("format.named('dns1123Subdomain').value().validate(self).hasValue() || self.size() > 0", "format", 32),
    ("self.charAt(0) != '-' || self == ''", "strings", 30),
    ("self == '' || self.substring(0, 1) != '_'", "strings", 30),
    ("self.reverse() != 'x'", "strings", 30),
    ("'%s-%d'.format([self, self.size()]).size() > 1", "strings", 30),
    ("[self].join(',') == self", "strings", 30),
    ("bytes(self).size() >= self.size()", "core", 30),
]
INT_RULES = [
    ("self % 2 == 0", "core", 30),
    ("self <= {n}", "core", 30),
    ("self >= 0", "core", 30),
    ("self == 0 || 100 / self > 1", "core", 30),
    ("string(self).size() <= 3", "core", 30),
    ("double(self) / 2.0 < 50.0", "core", 30),
    ("self < 10 ? true : self % 5 == 0", "core", 30),
    ("int(string(self)) == self", "core", 30),
]
LIST_RULES = [
    ("self.all(x, x.size() > 1)", "lists", 30, "string"),
    ("self.exists(x, x == 'a')", "lists", 30, "string"),
    ("self.exists_one(x, x.startsWith('b'))", "lists", 30, "string"),
    ("size(self) <= {n}", "lists", 30, None),
    ("self.map(x, x + 1).all(y, y > 0)", "lists", 30, "integer"),
    ("self.filter(x, x > 2).size() <= 2", "lists", 30, "integer"),
    ("self.isSorted()", "lists", 30, "integer"),
    ("self.size() == 0 || self.sum() < 100", "lists", 30, "integer"),
    ("self.size() == 0 || self.min() >= 0", "lists", 30, "integer"),
    ("self.indexOf(3) <= 1", "lists", 30, "integer"),
    ("self.distinct().size() == self.size()", "lists", 35, "integer"),
    ("self.all(i, v, i < 3 || v != 'x')", "two-variable", 33, "string"),
    ("self.exists(i, v, i == 0 && v.size() > 0) || self.size() == 0", "two-variable", 33, "string"),
    ("self.transformList(i, v, v.size()).all(n, n < 10)", "two-variable", 33, "string"),
    ("self.sort().size() == self.size()", "lists", 35, "integer"),
    ("lists.range(self.size()).all(i, self[i] >= i)", "lists", 35, "integer"),
    ("self.first().orValue(0) >= 0", "lists", 35, "integer"),
    ("self.size() < 2 || self[0] != self[1]", "core", 30, None),
]
OBJECT_RULES = [
    ("!has(self.{a}) || !has(self.{b})", "core", 30),
    ("has(self.{a}) || has(self.{b})", "core", 30),
    ("self.?{a}.hasValue() || true", "optionals", 30),
    ("self.size() <= 3", "core", 30),
    ("self.all(k, k.size() < 10)", "core", 30),
    ("self.transformMap(k, v, k).size() >= 0", "two-variable", 33),
]


class Gen:
    def __init__(self, rng, creation=False):
        self.r = rng
        self.rules_used = set()
        # --creation: leaves get random defaults, good or not, for CRD creation to judge.
        self.creation = creation

    def name(self):
        return self.r.choice(["alpha", "beta", "gamma", "delta", "mode", "size", "tags", "ports",
                              "limits", "url", "when", "period", "addr", "net", "items", "spec2",
                              "kind2", "owner", "zone", "weight", "ratio", "count", "labels"]) + \
            ("" if self.r.random() < 0.7 else str(self.r.randint(1, 9)))

    def rule(self, table, **fill):
        rule, library, since = table[0], table[1], table[2]
        self.rules_used.add(library)
        text = rule.format(n=self.r.randint(1, 6), c=self.r.choice("ab-1"), **fill)
        entry = {"rule": text}
        if self.r.random() < 0.3:
            entry["message"] = "must hold: " + library
        if self.r.random() < 0.1:
            entry["messageExpression"] = "'failed: ' + '" + library + "'"
        if self.r.random() < 0.1:
            entry["reason"] = self.r.choice(["FieldValueInvalid", "FieldValueForbidden", "FieldValueRequired", "FieldValueDuplicate"])
        return entry, since

    def string_schema(self, depth):
        s = {"type": "string"}
        r = self.r.random()
        if r < 0.45:
            s["format"] = self.r.choice(list(FORMAT_VALUES))
        elif r < 0.6:
            s["enum"] = self.r.sample(["a", "b", "fast", "slow", "x-y", ""], self.r.randint(1, 4))
        elif r < 0.75:
            s["pattern"] = self.r.choice(["^[a-z]+$", "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", "\\d+", "^(foo|bar)?$", "[[:alpha:]]", "^\\w+$", "^\\S*$", "^[\\w.-]+$", "\\pL"])
        if self.r.random() < 0.9:
            s["maxLength"] = self.r.randint(1, 64)
        if self.r.random() < 0.15:
            s["minLength"] = self.r.randint(0, 3)
        return s

    def int_schema(self, depth):
        s = {"type": "integer"}
        if self.r.random() < 0.3:
            s["minimum"] = self.r.randint(-5, 3)
            if self.r.random() < 0.3:
                s["exclusiveMinimum"] = True
        if self.r.random() < 0.3:
            s["maximum"] = self.r.randint(5, 200)
            if self.r.random() < 0.3:
                s["exclusiveMaximum"] = True
        if self.r.random() < 0.3:
            s["multipleOf"] = self.r.choice([2, 3, 5, 0.5, 10])
        if self.r.random() < 0.2:
            s["format"] = self.r.choice(["int32", "int64"])
        return s

    def number_schema(self, depth):
        s = {"type": "number"}
        if self.r.random() < 0.5:
            s["multipleOf"] = self.r.choice([0.1, 0.25, 2.5, 3, 0.01])
        if self.r.random() < 0.3:
            s["maximum"] = self.r.choice([1, 10.5, 100])
        if self.r.random() < 0.2:
            s["format"] = self.r.choice(["float", "double"])
        return s

    def leaf(self, depth, since):
        kind = self.r.choice(["string", "string", "string", "integer", "integer", "number", "boolean", "intorstring"])
        if kind == "string":
            s = self.string_schema(depth)
            if self.r.random() < 0.35:
                entry, v = self.rule(self.r.choice(STRING_RULES))
                s["x-kubernetes-validations"] = [entry]
                since[0] = max(since[0], v)
        elif kind == "integer":
            s = self.int_schema(depth)
            if self.r.random() < 0.35:
                entry, v = self.rule(self.r.choice(INT_RULES))
                s["x-kubernetes-validations"] = [entry]
                since[0] = max(since[0], v)
        elif kind == "number":
            s = self.number_schema(depth)
        elif kind == "boolean":
            s = {"type": "boolean"}
        else:
            s = {"x-kubernetes-int-or-string": True}
            if self.r.random() < 0.3:
                s["pattern"] = "^[0-9]+%?$"
        if self.r.random() < 0.2:
            s["nullable"] = True
        if self.creation and self.r.random() < 0.25:
            s["default"] = self.value(s) if self.r.random() < 0.5 else self.mutate(self.value(s), s)
            if s["default"] is None:
                del s["default"]
        elif self.r.random() < 0.15 and kind in ("string", "integer", "boolean"):
            s["default"] = {"string": "", "integer": 0, "boolean": False}[kind]
            if kind == "string" and ("format" in s or "enum" in s or "pattern" in s or "x-kubernetes-validations" in s):
                del s["default"]
        return s

    def schema(self, depth, since):
        r = self.r.random()
        if depth >= 3 or r < 0.55:
            return self.leaf(depth, since)
        if r < 0.75:
            return self.object_schema(depth + 1, since)
        return self.array_schema(depth + 1, since)

    def object_schema(self, depth, since):
        s = {"type": "object"}
        if self.r.random() < 0.2:
            s["additionalProperties"] = self.leaf(depth, since) if self.r.random() < 0.7 else {"type": "string"}
            s["additionalProperties"].pop("default", None)
            s["maxProperties"] = self.r.randint(1, 3) if self.r.random() < 0.7 else 10
            if self.r.random() < 0.3:
                s["minProperties"] = self.r.randint(0, 2)
            if self.r.random() < 0.3:
                entry, v = self.rule(self.r.choice([OBJECT_RULES[4], OBJECT_RULES[5], OBJECT_RULES[3]]))
                s["x-kubernetes-validations"] = [entry]
                since[0] = max(since[0], v)
            return s
        props = {}
        for _ in range(self.r.randint(1, 4)):
            props[self.name()] = self.schema(depth, since)
        s["properties"] = props
        names = list(props)
        if self.r.random() < 0.35:
            s["required"] = self.r.sample(names, self.r.randint(1, len(names)))
        if self.r.random() < 0.15:
            s["x-kubernetes-preserve-unknown-fields"] = True
        if self.r.random() < 0.15:
            s["maxProperties"] = self.r.randint(1, 3)
        if self.r.random() < 0.1:
            s["minProperties"] = 1
        if self.r.random() < 0.1:
            s["nullable"] = True
        if self.r.random() < 0.1 and "required" not in s:
            s["default"] = {}
        if len(names) >= 2 and self.r.random() < 0.35:
            a, b = self.r.sample(names, 2)
            entry, v = self.rule(self.r.choice(OBJECT_RULES[:3]), a=a, b=b)
            s["x-kubernetes-validations"] = [entry]
            since[0] = max(since[0], v)
        if self.r.random() < 0.12:
            entry = {"rule": "self == oldSelf", "message": "Value is immutable"}
            if self.r.random() < 0.3:
                entry = {"rule": "!oldSelf.hasValue() || oldSelf.value() == self", "optionalOldSelf": True}
            s.setdefault("x-kubernetes-validations", []).append(entry)
        return s

    def array_schema(self, depth, since):
        kind = self.r.choice(["string", "integer", "object"])
        s = {"type": "array"}
        if kind == "string":
            s["items"] = self.string_schema(depth)
            s["items"].pop("default", None)
        elif kind == "integer":
            s["items"] = self.int_schema(depth)
        else:
            item = {"type": "object", "properties": {"name": {"type": "string", "maxLength": 8},
                                                     "value": {"type": "integer"}}, "required": ["name"]}
            s["items"] = item
            if self.r.random() < 0.5:
                s["x-kubernetes-list-type"] = "map"
                s["x-kubernetes-list-map-keys"] = ["name"]
        if kind != "object" and self.r.random() < 0.3:
            s["x-kubernetes-list-type"] = "set"
        s["maxItems"] = self.r.randint(1, 4) if self.r.random() < 0.5 else 10
        if self.r.random() < 0.15:
            s["minItems"] = 1
        if self.r.random() < 0.4:
            candidates = [t for t in LIST_RULES if t[3] in (None, kind)]
            if candidates:
                t = self.r.choice(candidates)
                entry, v = self.rule(t)
                s["x-kubernetes-validations"] = [entry]
                since[0] = max(since[0], v)
        return s

    # ---- values ----
    def value(self, s, depth=0):
        if "x-kubernetes-int-or-string" in s:
            return self.r.choice([80, "http", "50%", 0])
        t = s.get("type")
        if t == "string":
            if "format" in s:
                good, bad = FORMAT_VALUES[s["format"]]
                return self.r.choice(good) if good else ""
            if "enum" in s:
                return self.r.choice(s["enum"])
            return self.r.choice(["abc", "a-b", "x1", "ab", "foo", "10", "b-c-d", "http://x.io/y", "10.0.0.1", "10.0.0.0/16", "1Gi", "1.2.3", "a"])[:s.get("maxLength", 100)]
        if t == "integer":
            lo, hi = s.get("minimum", -3), s.get("maximum", 120)
            v = self.r.randint(int(lo), int(hi))
            m = s.get("multipleOf")
            if m and m >= 1:
                v = v - v % int(m)
            return v
        if t == "number":
            return self.r.choice([0.5, 1.0, 2.5, 0.3, 7, 0.25, 10.0])
        if t == "boolean":
            return self.r.random() < 0.5
        if t == "array":
            n = self.r.randint(0, min(3, s.get("maxItems", 3)))
            items = [self.value(s["items"], depth + 1) for _ in range(n)]
            if s.get("x-kubernetes-list-type") in ("set", "map"):
                seen, out = set(), []
                for item in items:
                    key = json.dumps(item["name"] if isinstance(item, dict) else item)
                    if key not in seen:
                        seen.add(key)
                        out.append(item)
                items = out
            return items
        if t == "object":
            if "properties" in s:
                out = {}
                for k, sub in s["properties"].items():
                    if k in s.get("required", []) or self.r.random() < 0.7:
                        out[k] = self.value(sub, depth + 1)
                return out
            if "additionalProperties" in s:
                return {self.r.choice("abc") + str(i): self.value(s["additionalProperties"], depth + 1)
                        for i in range(self.r.randint(0, 2))}
            return {}
        return None

    def mutate(self, obj, s):
        """A mutation of some field of obj (under schema s) likely to fail a check."""
        paths = []

        def walk(value, schema, path):
            paths.append((path, value, schema))
            if isinstance(value, dict) and schema.get("type") == "object":
                for k, v in value.items():
                    sub = schema.get("properties", {}).get(k) or schema.get("additionalProperties")
                    if isinstance(sub, dict):
                        walk(v, sub, path + [k])
            elif isinstance(value, list) and schema.get("type") == "array":
                for i, v in enumerate(value):
                    walk(v, schema["items"], path + [i])
        walk(obj, s, [])
        path, value, schema = self.r.choice(paths)

        def setter(new):
            if not path:
                return new
            target = obj
            for p in path[:-1]:
                target = target[p]
            target[path[-1]] = new
            return obj
        choice = self.r.random()
        t = schema.get("type")
        if choice < 0.15:
            return setter(None)
        if choice < 0.25 and t == "object":
            value = dict(value) if isinstance(value, dict) else {}
            value["unknownField" + str(self.r.randint(0, 9))] = self.r.choice([1, "x", None, {"a": 1}])
            return setter(value)
        if choice < 0.35 and t == "object" and isinstance(value, dict) and value:
            value = dict(value)
            del value[self.r.choice(list(value))]
            return setter(value)
        if choice < 0.45:
            return setter(self.r.choice(["str", 7, 2.5, True, [], {}]))
        if t == "string" and "format" in schema:
            good, bad = FORMAT_VALUES[schema["format"]]
            return setter(self.r.choice(bad or good))
        if t == "string":
            return setter(self.r.choice(["", "UPPER", "has space", "x" * 20, "-lead", "a_b", "ünï", "http://", "1.2.3.4", "::1", "0", "1.0.0"]))
        if t == "integer":
            return setter(self.r.choice([-1000, -1, 0, 1, 3, 7, 250, 2147483648, 2**53, 15]))
        if t == "number":
            return setter(self.r.choice([0.35, 1e39, -0.1, 3, 0.75, 12.5]))
        if t == "array" and isinstance(value, list):
            if value and self.r.random() < 0.5:
                return setter(value + [copy.deepcopy(value[0])])
            return setter(value + [self.value(schema["items"])] * self.r.randint(1, 4))
        return setter(self.r.choice([None, "x", 1]))


# CRD creation probes (--creation): one CRD each, judged at creation by ValidateCustomResourceDefinition
# — the structural-schema rules, the checks of each node's keywords and extensions, patterns in Go's
# syntax, and defaults against their own schema. Each is (name, the spec schema, or a whole root
# schema when it has "$root"). Most the API server refuses; some it takes, so the check cannot
# pass by refusing everything.
S = {"type": "string"}
I = {"type": "integer"}
ITEM = {"type": "object", "properties": {"name": {"type": "string"}, "value": {"type": "integer"}}, "required": ["name"]}
CREATION_PROBES = [
    # structure
    ("type-in-anyof", {"type": "object", "properties": {"a": {"type": "string", "anyOf": [{"type": "string", "maxLength": 3}]}}}),
    ("type-in-allof", {"type": "object", "properties": {"a": {"type": "string", "allOf": [{"type": "string"}]}}}),
    ("type-in-oneof", {"type": "object", "properties": {"a": {"type": "string", "oneOf": [{"type": "string"}, {"maxLength": 2}]}}}),
    ("type-in-not", {"type": "object", "properties": {"a": {"type": "string", "not": {"type": "string", "maxLength": 2}}}}),
    ("value-validation-anyof", {"type": "object", "properties": {"a": {"type": "string", "anyOf": [{"maxLength": 3}, {"pattern": "^x"}]}}}),
    ("no-type-field", {"type": "object", "properties": {"a": {"maxLength": 3}}}),
    ("no-type-item", {"type": "object", "properties": {"a": {"type": "array", "items": {"maxLength": 3}}}}),
    ("array-without-items", {"type": "object", "properties": {"a": {"type": "array"}}}),
    ("no-type-preserved", {"type": "object", "properties": {"a": {"x-kubernetes-preserve-unknown-fields": True}}}),
    ("int-or-string-anyof", {"type": "object", "properties": {"a": {"x-kubernetes-int-or-string": True, "anyOf": [{"type": "integer"}, {"type": "string"}]}}}),
    ("int-or-string-allof-anyof", {"type": "object", "properties": {"a": {"x-kubernetes-int-or-string": True, "allOf": [{"anyOf": [{"type": "integer"}, {"type": "string"}]}, {"pattern": "^[0-9]+%?$"}]}}}),
    ("int-or-string-anyof-reversed", {"type": "object", "properties": {"a": {"x-kubernetes-int-or-string": True, "anyOf": [{"type": "string"}, {"type": "integer"}]}}}),
    ("int-or-string-preserve", {"type": "object", "properties": {"a": {"x-kubernetes-int-or-string": True, "x-kubernetes-preserve-unknown-fields": True}}}),
    ("int-or-string-embedded", {"type": "object", "properties": {"a": {"x-kubernetes-int-or-string": True, "x-kubernetes-embedded-resource": True}}}),
    ("default-in-anyof", {"type": "object", "properties": {"a": {"type": "string", "anyOf": [{"default": "x"}]}}}),
    ("nullable-in-anyof", {"type": "object", "properties": {"a": {"type": "string", "anyOf": [{"nullable": True}]}}}),
    ("description-in-anyof", {"type": "object", "properties": {"a": {"type": "string", "anyOf": [{"description": "d", "maxLength": 2}]}}}),
    ("title-in-allof", {"type": "object", "properties": {"a": {"type": "string", "allOf": [{"title": "t"}]}}}),
    ("additional-in-anyof", {"type": "object", "properties": {"a": {"type": "object", "additionalProperties": S, "anyOf": [{"additionalProperties": S}]}}}),
    ("rules-in-anyof", {"type": "object", "properties": {"a": {"type": "string", "anyOf": [{"x-kubernetes-validations": [{"rule": "self.size() > 1"}]}]}}}),
    ("rules-in-allof", {"type": "object", "properties": {"a": {"type": "string", "allOf": [{"x-kubernetes-validations": [{"rule": "self.size() > 1"}]}]}}}),
    ("list-type-in-anyof", {"type": "object", "properties": {"a": {"type": "array", "items": S, "anyOf": [{"x-kubernetes-list-type": "set"}]}}}),
    ("metadata-in-anyof", {"type": "object", "properties": {"a": {"type": "object", "properties": {"b": S}, "anyOf": [{"properties": {"metadata": {"maxProperties": 1}}}]}}}),
    ("anyof-property-undeclared", {"type": "object", "properties": {"a": {"type": "object", "properties": {"b": S}, "anyOf": [{"properties": {"c": {"maxLength": 1}}}]}}}),
    ("anyof-property-declared", {"type": "object", "properties": {"a": {"type": "object", "properties": {"b": S}, "anyOf": [{"required": ["b"]}, {"properties": {"b": {"maxLength": 1}}}]}}}),
    ("root-anyof-undeclared", {"$root": {"type": "object", "properties": {"spec": {"type": "object"}}, "anyOf": [{"properties": {"status": {"maxProperties": 1}}}]}}),
    ("root-anyof-declared", {"$root": {"type": "object", "properties": {"spec": {"type": "object", "properties": {"a": S}}}, "anyOf": [{"required": ["spec"]}, {"properties": {"spec": {"properties": {"a": {"maxLength": 2}}}}}]}}),
    ("root-anyof-items-undeclared", {"$root": {"type": "object", "properties": {"spec": {"type": "object"}}, "anyOf": [{"properties": {"spec": {"items": {"maxLength": 1}}}}]}}),
    ("embedded-not-object", {"type": "object", "properties": {"a": {"type": "string", "x-kubernetes-embedded-resource": True}}}),
    ("embedded-no-type", {"type": "object", "properties": {"a": {"x-kubernetes-embedded-resource": True, "x-kubernetes-preserve-unknown-fields": True}}}),
    ("embedded-no-properties", {"type": "object", "properties": {"a": {"type": "object", "x-kubernetes-embedded-resource": True}}}),
    ("embedded-with-properties", {"type": "object", "properties": {"a": {"type": "object", "x-kubernetes-embedded-resource": True, "properties": {"apiVersion": S, "kind": S, "metadata": {"type": "object"}, "x": S}}}}),
    ("embedded-additional", {"type": "object", "properties": {"a": {"type": "object", "x-kubernetes-embedded-resource": True, "x-kubernetes-preserve-unknown-fields": True, "additionalProperties": S}}}),
    ("embedded-kind-integer", {"type": "object", "properties": {"a": {"type": "object", "x-kubernetes-embedded-resource": True, "properties": {"kind": I}}}}),
    ("embedded-metadata-string", {"type": "object", "properties": {"a": {"type": "object", "x-kubernetes-embedded-resource": True, "x-kubernetes-preserve-unknown-fields": True, "properties": {"metadata": S}}}}),
    ("embedded-in-metadata", {"$root": {"type": "object", "properties": {"spec": {"type": "object"}, "metadata": {"type": "object", "properties": {"name": {"type": "object", "x-kubernetes-embedded-resource": True, "x-kubernetes-preserve-unknown-fields": True}}}}}}),
    ("root-kind-integer", {"$root": {"type": "object", "properties": {"spec": {"type": "object"}, "kind": I}}}),
    ("root-apiversion-object", {"$root": {"type": "object", "properties": {"spec": {"type": "object"}, "apiVersion": {"type": "object"}}}}),
    ("root-metadata-labels", {"$root": {"type": "object", "properties": {"spec": {"type": "object"}, "metadata": {"type": "object", "properties": {"labels": {"type": "object", "additionalProperties": S}}}}}}),
    ("root-metadata-name", {"$root": {"type": "object", "properties": {"spec": {"type": "object"}, "metadata": {"type": "object", "properties": {"name": {"type": "string", "maxLength": 10}, "generateName": {"type": "string", "maxLength": 5}}}}}}),
    ("root-metadata-description", {"$root": {"type": "object", "properties": {"spec": {"type": "object"}, "metadata": {"type": "object", "description": "the metadata"}}}}),
    ("root-metadata-string", {"$root": {"type": "object", "properties": {"spec": {"type": "object"}, "metadata": {"type": "string"}}}}),
    ("root-metadata-no-type", {"$root": {"type": "object", "properties": {"spec": {"type": "object"}, "metadata": {"x-kubernetes-preserve-unknown-fields": True}}}}),
    ("root-metadata-maxprops", {"$root": {"type": "object", "properties": {"spec": {"type": "object"}, "metadata": {"type": "object", "maxProperties": 3}}}}),
    ("root-not-object", {"$root": {"type": "array", "items": S}}),
    ("root-no-type", {"$root": {"properties": {"spec": {"type": "object"}}}}),
    ("root-additional", {"$root": {"type": "object", "additionalProperties": S}}),
    ("root-additional-true", {"$root": {"type": "object", "properties": {"spec": {"type": "object"}}, "additionalProperties": True}}),
    ("root-nullable", {"$root": {"type": "object", "nullable": True, "properties": {"spec": {"type": "object"}}}}),
    ("root-preserve", {"$root": {"type": "object", "x-kubernetes-preserve-unknown-fields": True}}),
    ("nested-metadata-ok", {"type": "object", "properties": {"metadata": {"type": "object", "properties": {"labels": {"type": "string"}}}}}),
    # patterns, in Go's syntax
] + [("pattern-%d" % n, {"type": "object", "properties": {"a": {"type": "string", "pattern": pattern}}})
     for n, pattern in enumerate(["[a-", "(?<name>x)", "(?P<n>x)", "\\pX", "\\p{Greek}", "a{1001}", "a{1000}", "x**", "x++", "(?i)abc", "\\z", "\\Z", "\\A", "[[:word:]]", "[[:foo:]]", "\\C", "a{,3}", "\\8", "(a)\\1", "(?=a)", "\\Q*\\E", "[a-\\d]", "[\\d-z]", "\\x{110000}", "(?U)a+", "(?s).", "()", "(|a)", "[]a]", "[^]a]", "\\b", "\\e", "\\v", "a{2}{3}", "(?m)^a$", "\\pN", "\\p{^Greek}", "\\P{L}", "[\\p{L}&&a]", "a|*"])] + [
    # the keywords and extensions of each node
    ("unique-items", {"type": "object", "properties": {"a": {"type": "array", "items": S, "uniqueItems": True}}}),
    ("unique-items-false", {"type": "object", "properties": {"a": {"type": "array", "items": S, "uniqueItems": False}}}),
    ("additional-false-with-properties", {"type": "object", "properties": {"a": S}, "additionalProperties": False}),
    ("additional-schema-with-properties", {"type": "object", "properties": {"a": S}, "additionalProperties": S}),
    ("additional-true-with-properties", {"type": "object", "properties": {"a": S}, "additionalProperties": True}),
    ("preserve-false", {"type": "object", "properties": {"a": {"type": "object", "x-kubernetes-preserve-unknown-fields": False}}}),
    ("map-type-on-string", {"type": "object", "properties": {"a": {"type": "string", "x-kubernetes-map-type": "atomic"}}}),
    ("map-type-bogus", {"type": "object", "properties": {"a": {"type": "object", "x-kubernetes-map-type": "bogus"}}}),
    ("map-type-granular", {"type": "object", "properties": {"a": {"type": "object", "x-kubernetes-map-type": "granular", "additionalProperties": S}}}),
    ("list-type-on-object", {"type": "object", "properties": {"a": {"type": "object", "x-kubernetes-list-type": "set"}}}),
    ("list-type-bogus", {"type": "object", "properties": {"a": {"type": "array", "items": S, "x-kubernetes-list-type": "bogus"}}}),
    ("list-map-keys-without-type", {"type": "object", "properties": {"a": {"type": "array", "items": ITEM, "x-kubernetes-list-map-keys": ["name"]}}}),
    ("list-map-keys-on-set", {"type": "object", "properties": {"a": {"type": "array", "items": S, "x-kubernetes-list-type": "set", "x-kubernetes-list-map-keys": ["name"]}}}),
    ("map-list-without-keys", {"type": "object", "properties": {"a": {"type": "array", "items": ITEM, "x-kubernetes-list-type": "map"}}}),
    ("map-list-of-strings", {"type": "object", "properties": {"a": {"type": "array", "items": S, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"]}}}),
    ("map-list-key-object", {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "object"}}, "required": ["name"]}, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"]}}}),
    ("map-list-key-missing", {"type": "object", "properties": {"a": {"type": "array", "items": ITEM, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["nope"]}}}),
    ("map-list-key-twice", {"type": "object", "properties": {"a": {"type": "array", "items": ITEM, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name", "name"]}}}),
    ("map-list-key-optional", {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "object", "properties": {"name": S}}, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"]}}}),
    ("map-list-key-defaulted", {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string", "default": "x"}}}, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"]}}}),
    ("map-list-key-nullable", {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string", "nullable": True}}, "required": ["name"]}, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"]}}}),
    ("set-items-nullable", {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "string", "nullable": True}, "x-kubernetes-list-type": "set"}}}),
    ("set-of-objects", {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "object", "properties": {"b": S}}, "x-kubernetes-list-type": "set"}}}),
    ("set-of-atomic-objects", {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "object", "x-kubernetes-map-type": "atomic", "properties": {"b": S}}, "x-kubernetes-list-type": "set"}}}),
    ("set-of-sets", {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "array", "items": S, "x-kubernetes-list-type": "set"}, "x-kubernetes-list-type": "set"}}}),
    ("type-null", {"type": "object", "properties": {"a": {"type": "null"}}}),
    ("type-bogus", {"type": "object", "properties": {"a": {"type": "str"}}}),
    ("ref", {"type": "object", "properties": {"a": {"$ref": "#/definitions/x"}}}),
    ("id", {"type": "object", "properties": {"a": {"type": "string", "id": "x"}}}),
    ("schema-keyword", {"type": "object", "properties": {"a": {"type": "string", "$schema": "http://json-schema.org/schema#"}}}),
    ("definitions", {"type": "object", "properties": {"a": {"type": "string", "definitions": {"x": S}}}}),
    ("pattern-properties", {"type": "object", "properties": {"a": {"type": "object", "patternProperties": {"^x": S}}}}),
    ("dependencies", {"type": "object", "properties": {"a": {"type": "object", "properties": {"b": S}, "dependencies": {"b": ["c"]}}}}),
    ("additional-items", {"type": "object", "properties": {"a": {"type": "array", "items": S, "additionalItems": False}}}),
    ("items-array", {"type": "object", "properties": {"a": {"type": "array", "items": [S]}}}),
    ("default-in-top-metadata", {"$root": {"type": "object", "properties": {"spec": {"type": "object"}, "metadata": {"type": "object", "properties": {"name": {"type": "string", "default": "x"}}}}}}),
    ("default-in-top-kind", {"$root": {"type": "object", "properties": {"spec": {"type": "object"}, "kind": {"type": "string", "default": "Widget"}}}}),
    # defaults against their own schema
    ("default-too-long", {"type": "object", "properties": {"a": {"type": "string", "maxLength": 2, "default": "abc"}}}),
    ("default-too-short", {"type": "object", "properties": {"a": {"type": "string", "minLength": 2, "default": "a"}}}),
    ("default-not-in-enum", {"type": "object", "properties": {"a": {"type": "string", "enum": ["x", "y"], "default": "z"}}}),
    ("default-in-enum", {"type": "object", "properties": {"a": {"type": "string", "enum": ["x", "y"], "default": "y"}}}),
    ("default-pattern", {"type": "object", "properties": {"a": {"type": "string", "pattern": "^[a-z]+$", "default": "A1"}}}),
    ("default-pattern-ok", {"type": "object", "properties": {"a": {"type": "string", "pattern": "^[a-z]+$", "default": "ab"}}}),
    ("default-minimum", {"type": "object", "properties": {"a": {"type": "integer", "minimum": 1, "default": 0}}}),
    ("default-exclusive-minimum", {"type": "object", "properties": {"a": {"type": "integer", "minimum": 1, "exclusiveMinimum": True, "default": 1}}}),
    ("default-maximum", {"type": "object", "properties": {"a": {"type": "number", "maximum": 1.5, "default": 2}}}),
    ("default-multiple", {"type": "object", "properties": {"a": {"type": "integer", "multipleOf": 3, "default": 4}}}),
    ("default-multiple-fraction", {"type": "object", "properties": {"a": {"type": "integer", "multipleOf": 0.5, "default": 2}}}),
    ("default-number-multiple", {"type": "object", "properties": {"a": {"type": "number", "multipleOf": 0.25, "default": 0.3}}}),
    ("default-wrong-type", {"type": "object", "properties": {"a": {"type": "integer", "default": "3"}}}),
    ("default-bool-for-string", {"type": "object", "properties": {"a": {"type": "string", "default": True}}}),
    ("default-format-uuid", {"type": "object", "properties": {"a": {"type": "string", "format": "uuid", "default": "x"}}}),
    ("default-format-date", {"type": "object", "properties": {"a": {"type": "string", "format": "date", "default": "2024-02-30"}}}),
    ("default-format-ok", {"type": "object", "properties": {"a": {"type": "string", "format": "ipv4", "default": "10.0.0.1"}}}),
    ("default-unknown-field", {"type": "object", "properties": {"a": {"type": "object", "properties": {"b": S}, "default": {"b": "x", "c": 1}}}}),
    ("default-unknown-field-preserved", {"type": "object", "properties": {"a": {"type": "object", "x-kubernetes-preserve-unknown-fields": True, "properties": {"b": S}, "default": {"b": "x", "c": 1}}}}),
    ("default-missing-required", {"type": "object", "properties": {"a": {"type": "object", "properties": {"b": S}, "required": ["b"], "default": {}}}}),
    ("default-nested-invalid", {"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"type": "integer", "maximum": 3}}, "default": {"b": 5}}}}),
    ("default-nested-defaults", {"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"type": "integer", "default": 9, "maximum": 3}}, "default": {}}}}),
    ("default-too-many-items", {"type": "object", "properties": {"a": {"type": "array", "items": S, "maxItems": 1, "default": ["x", "y"]}}}),
    ("default-set-repeats", {"type": "object", "properties": {"a": {"type": "array", "items": S, "x-kubernetes-list-type": "set", "default": ["x", "x"]}}}),
    ("default-map-list-repeats", {"type": "object", "properties": {"a": {"type": "array", "items": ITEM, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"], "default": [{"name": "a"}, {"name": "a"}]}}}),
    ("default-items", {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "string", "maxLength": 1, "default": "xy"}}}}),
    ("default-too-many-properties", {"type": "object", "properties": {"a": {"type": "object", "additionalProperties": S, "maxProperties": 1, "default": {"x": "1", "y": "2"}}}}),
    ("default-additional-properties", {"type": "object", "properties": {"a": {"type": "object", "additionalProperties": {"type": "string", "default": "x"}}}}),
    ("default-null", {"type": "object", "properties": {"a": {"type": "string", "default": None}}}),
    ("default-rule-fails", {"type": "object", "properties": {"a": {"type": "string", "default": "ab", "x-kubernetes-validations": [{"rule": "self.size() > 3"}]}}}),
    ("default-rule-holds", {"type": "object", "properties": {"a": {"type": "string", "default": "abcd", "x-kubernetes-validations": [{"rule": "self.size() > 3"}]}}}),
    ("default-rule-below", {"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"type": "integer", "x-kubernetes-validations": [{"rule": "self > 10"}]}}, "default": {"b": 1}}}}),
    ("default-object-rule", {"type": "object", "properties": {"a": {"type": "object", "properties": {"b": I, "c": I}, "x-kubernetes-validations": [{"rule": "has(self.b) == has(self.c)"}], "default": {"b": 1}}}}),
    ("default-transition-rule", {"type": "object", "properties": {"a": {"type": "string", "default": "x", "x-kubernetes-validations": [{"rule": "self == oldSelf"}]}}}),
    ("default-optional-old-self", {"type": "object", "properties": {"a": {"type": "string", "default": "x", "x-kubernetes-validations": [{"rule": "oldSelf.hasValue()", "optionalOldSelf": True}]}}}),
    ("default-embedded", {"type": "object", "properties": {"a": {"type": "object", "x-kubernetes-embedded-resource": True, "x-kubernetes-preserve-unknown-fields": True, "default": {"x": 1}}}}),
    ("default-embedded-ok", {"type": "object", "properties": {"a": {"type": "object", "x-kubernetes-embedded-resource": True, "x-kubernetes-preserve-unknown-fields": True, "default": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}}}}}),
    ("default-int-or-string", {"type": "object", "properties": {"a": {"x-kubernetes-int-or-string": True, "default": 1.5}}}),
    ("default-int-or-string-ok", {"type": "object", "properties": {"a": {"x-kubernetes-int-or-string": True, "default": "50%"}}}),
    ("default-spec", {"type": "object", "properties": {"a": I}, "default": {"a": "x"}}),
    ("default-spec-ok", {"type": "object", "properties": {"a": I}, "default": {"a": 1}}),
    # keywords of the wrong JSON type: the request does not decode
    ("decode-maxlength-fraction", {"type": "object", "properties": {"a": {"type": "string", "maxLength": 1.5}}}),
    ("decode-maxlength-whole-float", {"type": "object", "properties": {"a": {"type": "string", "maxLength": 5.0}}}),
    ("decode-maxlength-string", {"type": "object", "properties": {"a": {"type": "string", "maxLength": "5"}}}),
    ("decode-maxlength-negative", {"type": "object", "properties": {"a": {"type": "string", "maxLength": -1}}}),
    ("decode-minlength-negative", {"type": "object", "properties": {"a": {"type": "string", "minLength": -1}}}),
    ("decode-minimum-string", {"type": "object", "properties": {"a": {"type": "integer", "minimum": "1"}}}),
    ("decode-type-list", {"type": "object", "properties": {"a": {"type": ["string", "null"]}}}),
    ("decode-required-string", {"type": "object", "properties": {"a": {"type": "object", "properties": {"b": S}, "required": "b"}}}),
    ("decode-nullable-string", {"type": "object", "properties": {"a": {"type": "string", "nullable": "yes"}}}),
    ("decode-enum-string", {"type": "object", "properties": {"a": {"type": "string", "enum": "x"}}}),
    ("decode-items-string", {"type": "object", "properties": {"a": {"type": "array", "items": "x"}}}),
    ("decode-properties-list", {"type": "object", "properties": {"a": {"type": "object", "properties": []}}}),
    ("decode-rule-number", {"type": "object", "properties": {"a": {"type": "string", "x-kubernetes-validations": [{"rule": 1}]}}}),
    ("decode-multipleof-zero", {"type": "object", "properties": {"a": {"type": "integer", "multipleOf": 0}}}),
    ("decode-multipleof-negative", {"type": "object", "properties": {"a": {"type": "number", "multipleOf": -2}}}),
    ("decode-minimum-fraction", {"type": "object", "properties": {"a": {"type": "integer", "minimum": 1.5}}}),
]


def probe_crd(index, name, schema):
    """A CRD whose root (or spec) is `schema`, and one object of it."""
    crd, root, _ = crd_for(Gen(random.Random(0)), 2000 + index)
    crd["spec"]["scope"] = "Cluster"
    if "$root" in schema:
        crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"] = schema["$root"]
    else:
        crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"] = {"type": "object", "properties": {"spec": schema}}
    return crd


def crd_for(gen, index):
    since = [30]
    spec = gen.object_schema(1, since)
    spec.pop("nullable", None)
    spec.pop("default", None)
    root = {"type": "object", "properties": {"spec": spec}}
    if gen.r.random() < 0.3:
        root["properties"]["apiVersion"] = {"type": "string"}
        root["properties"]["kind"] = {"type": "string"}
        root["properties"]["metadata"] = {"type": "object"}
    if gen.r.random() < 0.15:
        root["properties"]["template"] = {"type": "object", "x-kubernetes-embedded-resource": True,
                                          "x-kubernetes-preserve-unknown-fields": True}
    if gen.r.random() < 0.1:
        root["properties"]["status"] = {"type": "object", "properties": {"phase": {"type": "string"}}}
    plural = "widget%ds" % index
    crd = {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
           "metadata": {"name": plural + ".example.io"},
           "spec": {"group": "example.io", "scope": gen.r.choice(["Namespaced", "Cluster"]),
                    "names": {"kind": "Widget%d" % index, "plural": plural, "singular": "widget%d" % index,
                              "listKind": "Widget%dList" % index},
                    "versions": [{"name": "v1", "served": True, "storage": True,
                                  "schema": {"openAPIV3Schema": root}}]}}
    return crd, root, since[0]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=47)
    parser.add_argument("--crds", type=int, default=300)
    parser.add_argument("--objects", type=int, default=4)
    parser.add_argument("--creation", action="store_true",
                        help="random defaults on leaves, and the CRD creation probes")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    gen = Gen(rng, creation=args.creation)
    cases = []
    for index in range(args.crds):
        crd, root, since = crd_for(gen, index)
        crd_id = "s%d-c%d" % (args.seed, index)
        namespaced = crd["spec"]["scope"] == "Namespaced"
        for number in range(args.objects):
            meta = {"name": "w%d" % number}
            if namespaced:
                meta["namespace"] = "default"
            obj = {"apiVersion": "example.io/v1", "kind": crd["spec"]["names"]["kind"], "metadata": meta,
                   "spec": gen.value(root["properties"]["spec"])}
            if "template" in root["properties"] and rng.random() < 0.5:
                obj["template"] = rng.choice([{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "x": 1}, {"kind": "Pod"}])
            old = None
            if number > 0:
                for _ in range(rng.randint(1, 2)):
                    obj["spec"] = gen.mutate(obj["spec"], root["properties"]["spec"])
                if rng.random() < 0.25:
                    obj[rng.choice(["status", "extra"])] = {"phase": rng.choice(["a", None, 3])}
            if rng.random() < 0.25:
                old = copy.deepcopy(obj)
                old["spec"] = gen.value(root["properties"]["spec"]) if rng.random() < 0.5 else gen.mutate(old["spec"], root["properties"]["spec"])
            case = {"id": "%s-o%d" % (crd_id, number), "crd_id": crd_id, "crd": json.dumps(crd, ensure_ascii=False),
                    "object": json.dumps(obj, ensure_ascii=False), "since": since}
            if old is not None:
                case["old"] = json.dumps(old, ensure_ascii=False)
            cases.append(case)
    # Format probes: one CRD a format, one object a value, each value alone in the field.
    for format_name, (good, bad) in FORMAT_VALUES.items():
        index = len(cases)
        crd_id = "s%d-f%s" % (args.seed, format_name)
        field = {"type": "string", "format": format_name}
        crd, root, _ = crd_for(Gen(random.Random(0)), 1000 + list(FORMAT_VALUES).index(format_name))
        root["properties"]["spec"] = {"type": "object", "properties": {"value": field}}
        crd["spec"]["scope"] = "Cluster"
        values = good + bad + FORMAT_CORNERS.get(format_name, [])
        for number, value in enumerate(values):
            obj = {"apiVersion": "example.io/v1", "kind": crd["spec"]["names"]["kind"],
                   "metadata": {"name": "w%d" % number}, "spec": {"value": value}}
            cases.append({"id": "%s-o%d" % (crd_id, number), "crd_id": crd_id,
                          "crd": json.dumps(crd, ensure_ascii=False),
                          "object": json.dumps(obj, ensure_ascii=False), "since": 30})
    if args.creation:
        for index, (name, schema) in enumerate(CREATION_PROBES):
            crd = probe_crd(index, name, schema)
            crd_id = "s%d-p%s" % (args.seed, name)
            kind = crd["spec"]["names"]["kind"]
            for number, spec in enumerate([{}, {"a": "x"}]):
                obj = {"apiVersion": "example.io/v1", "kind": kind, "metadata": {"name": "w%d" % number}, "spec": spec}
                cases.append({"id": "%s-o%d" % (crd_id, number), "crd_id": crd_id,
                              "crd": json.dumps(crd, ensure_ascii=False),
                              "object": json.dumps(obj, ensure_ascii=False), "since": 30})
    json.dump(cases, __import__("sys").stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
