//! The part of Go's `time` package sprig's date functions reach (`time.Time` and its
//! locations, `Format` and `ParseInLocation` with Go's layouts, `Duration.String` and
//! `ParseDuration`), written to Go's format.go, format_rfc3339.go and time.go: the calendar
//! arithmetic is Go's own, on wrapping 64-bit integers, so that even a time far outside any
//! calendar a person uses prints as Argo CD's controller prints it.

use std::rc::Rc;

const SECONDS_PER_DAY: i64 = 86_400;
/// Seconds from January 1 of year 1 (where Go counts a `Time` from) to the Unix epoch.
const UNIX_TO_INTERNAL: i64 = 719_162 * SECONDS_PER_DAY;
/// Go counts calendar days from March 1 of this many years before year 0, so that every
/// date it meets has a positive day count and a leap day ends its year.
const ABSOLUTE_YEARS: u64 = 292_277_022_400;
/// Seconds from that absolute zero to January 1 of year 1 (Go's `internalToAbsolute`).
const INTERNAL_TO_ABSOLUTE: i64 = 106_751_990_354_238 * SECONDS_PER_DAY;
const UNIX_TO_ABSOLUTE: i64 = UNIX_TO_INTERNAL + INTERNAL_TO_ABSOLUTE;
/// Days from March 1 to the end of February, which closes Go's absolute year.
const MARCH_THRU_DECEMBER: u32 = 306;

/// A `*time.Location`.
///
/// `Local` is the machine's zone, which fedrender cannot know; Argo CD's ApplicationSet
/// controller runs in a container whose zone is UTC (its image has no zone but UTC), so
/// `Local` is UTC here. It stays apart from `Utc` because Go compares a `Time`'s location
/// by pointer: `eq` tells a time parsed in `Local` from one in `UTC`.
#[derive(Debug, Clone)]
pub(crate) enum Zone {
    Utc,
    Local,
    /// `time.FixedZone(name, offset)`.
    Fixed(Rc<(String, i32)>),
    /// A zone of the IANA database, as `time.LoadLocation` reads it, under the name asked for.
    Named(Rc<(String, jiff::tz::TimeZone)>),
}

impl Zone {
    pub fn fixed(name: &str, offset: i32) -> Zone {
        Zone::Fixed(Rc::new((name.to_string(), offset)))
    }

    /// `time.LoadLocation(name)`, `None` where it fails.
    pub fn load(name: &str) -> Option<Zone> {
        match name {
            "" | "UTC" => return Some(Zone::Utc),
            "Local" => return Some(Zone::Local),
            _ => {}
        }
        if name.contains("..") || name.starts_with(['/', '\\']) {
            return None;
        }
        // Go reads the file of that name below /usr/share/zoneinfo, whose names are matched
        // exactly; the bundled database matches regardless of case, so its canonical name
        // must be the one asked for. Debian's `posix/` tree holds the same zones again. The
        // zones are jiff's bundled tzdata release, not the controller image's: where releases
        // differ (EST, CET, WET and the like became links to cities' zones, with their
        // history), so may a time shown.
        let wanted = name.strip_prefix("posix/").unwrap_or(name);
        let zone = jiff::tz::db().get(wanted).ok()?;
        (zone.iana_name() == Some(wanted)).then(|| Zone::Named(Rc::new((name.to_string(), zone))))
    }

    /// `Location.lookup`: the zone's abbreviation and offset east of UTC at a Unix second.
    fn lookup(&self, unix: i64) -> (String, i32) {
        match self {
            Zone::Utc | Zone::Local => ("UTC".to_string(), 0),
            Zone::Fixed(fixed) => (fixed.0.clone(), fixed.1),
            Zone::Named(zone) => {
                // Outside jiff's years (-9999 to 9999) the zone's rule at that end holds on.
                let second = unix.clamp(
                    jiff::Timestamp::MIN.as_second(),
                    jiff::Timestamp::MAX.as_second(),
                );
                let at =
                    jiff::Timestamp::from_second(second).unwrap_or(jiff::Timestamp::UNIX_EPOCH);
                let info = zone.1.to_offset_info(at);
                (info.abbreviation().to_string(), info.offset().seconds())
            }
        }
    }

    /// Whether Go's `==` sees one location: the same pointer, where `FixedZone` hands out
    /// one cached location for each unnamed whole-hour offset from -12 to +14 hours.
    fn same(&self, other: &Zone) -> bool {
        match (self, other) {
            (Zone::Utc, Zone::Utc) | (Zone::Local, Zone::Local) => true,
            (Zone::Fixed(a), Zone::Fixed(b)) => {
                let cached = |z: &(String, i32)| {
                    z.0.is_empty() && z.1 % 3600 == 0 && (-12..=14).contains(&(z.1 / 3600))
                };
                Rc::ptr_eq(a, b) || (cached(a) && cached(b) && a.1 == b.1)
            }
            (Zone::Named(a), Zone::Named(b)) => Rc::ptr_eq(a, b),
            _ => false,
        }
    }
}

/// A `time.Time` without a monotonic reading (sprig's `now` is not offered): seconds since
/// January 1 of year 1, nanoseconds, and the location it shows in.
#[derive(Debug, Clone)]
pub(crate) struct GoTime {
    sec: i64,
    nsec: u32,
    zone: Zone,
}

impl GoTime {
    /// `time.Time{}`, what sprig's `toDate` returns when its text does not parse.
    pub fn zero() -> GoTime {
        GoTime {
            sec: 0,
            nsec: 0,
            zone: Zone::Utc,
        }
    }

    /// `time.Unix(sec, 0)`, in `Local`.
    pub fn unix(sec: i64) -> GoTime {
        GoTime {
            sec: sec.wrapping_add(UNIX_TO_INTERNAL),
            nsec: 0,
            zone: Zone::Local,
        }
    }

    /// `Time.Unix`.
    pub fn unix_sec(&self) -> i64 {
        self.sec.wrapping_sub(UNIX_TO_INTERNAL)
    }

    pub fn nanosecond(&self) -> u32 {
        self.nsec
    }

    /// `Time.IsZero`: January 1 of year 1, UTC, whatever the location.
    pub fn is_zero(&self) -> bool {
        self.sec == 0 && self.nsec == 0
    }

    /// The wall clock in the time's location: year, day of the year, day of the month, and
    /// the seconds into the day.
    pub fn wall(&self) -> (i64, i64, i64, u64) {
        let (_, _, abs) = self.locabs();
        let civil = Civil::of(abs / SECONDS_PER_DAY as u64);
        (
            civil.year,
            civil.yday,
            civil.day,
            abs % SECONDS_PER_DAY as u64,
        )
    }

    /// `Time.In`.
    pub fn in_zone(&self, zone: Zone) -> GoTime {
        GoTime {
            zone,
            ..self.clone()
        }
    }

    /// `Time.Add`: the seconds saturate, as Go's do, rather than wrap.
    pub fn add(&self, nanos: i64) -> GoTime {
        let mut dsec = nanos / 1_000_000_000;
        let mut nsec = i64::from(self.nsec) + nanos % 1_000_000_000;
        if nsec >= 1_000_000_000 {
            dsec += 1;
            nsec -= 1_000_000_000;
        } else if nsec < 0 {
            dsec -= 1;
            nsec += 1_000_000_000;
        }
        GoTime {
            sec: add_sec(self.sec, dsec),
            nsec: nsec as u32,
            zone: self.zone.clone(),
        }
    }

    /// Go's `==` on two `Time`s (funcs.go `eq` compares structs so).
    pub fn same(&self, other: &GoTime) -> bool {
        self.sec == other.sec && self.nsec == other.nsec && self.zone.same(&other.zone)
    }

    /// `reflect.DeepEqual`: the locations are compared by what they hold, not by pointer.
    pub fn deep_equal(&self, other: &GoTime) -> bool {
        let zone_equal = match (&self.zone, &other.zone) {
            (Zone::Fixed(a), Zone::Fixed(b)) => a == b,
            (Zone::Named(a), Zone::Named(b)) => a.0 == b.0,
            (a, b) => a.same(b),
        };
        self.sec == other.sec && self.nsec == other.nsec && zone_equal
    }

    /// `Time.String()` (no monotonic reading to append).
    pub fn string(&self) -> String {
        self.format("2006-01-02 15:04:05.999999999 -0700 MST")
    }

    /// `Time.GoString()`, what `%#v` prints: `time.Date(2024, time.February, 3, …, time.UTC)`.
    pub fn go_string(&self) -> String {
        let (_, _, abs) = self.locabs();
        let civil = Civil::of(abs / SECONDS_PER_DAY as u64);
        let clock = abs % SECONDS_PER_DAY as u64;
        let location = match &self.zone {
            Zone::Utc => "time.UTC".to_string(),
            Zone::Local => "time.Local".to_string(),
            Zone::Fixed(fixed) => format!("time.Location({})", quote(fixed.0.as_bytes())),
            Zone::Named(named) => format!("time.Location({})", quote(named.0.as_bytes())),
        };
        format!(
            "time.Date({}, time.{}, {}, {}, {}, {}, {}, {location})",
            civil.year,
            MONTHS[civil.month as usize - 1],
            civil.day,
            clock / 3600,
            clock % 3600 / 60,
            clock % 60,
            self.nsec
        )
    }

    /// What `encoding/json` writes for it (`MarshalJSON`, unquoted): RFC 3339 with the
    /// nanoseconds it has.
    pub fn rfc3339_nano(&self) -> String {
        self.format("2006-01-02T15:04:05.999999999Z07:00")
    }

    /// The zone's name and offset at this instant, and Go's absolute seconds of the local
    /// wall clock (`locabs`).
    fn locabs(&self) -> (String, i32, u64) {
        let unix = self.unix_sec();
        let (name, offset) = self.zone.lookup(unix);
        let local = unix.wrapping_add(i64::from(offset));
        (name, offset, local.wrapping_add(UNIX_TO_ABSOLUTE) as u64)
    }

    /// `Time.Format(layout)` for a layout of the program's own.
    pub fn format(&self, layout: &str) -> String {
        self.format_within(layout, usize::MAX).unwrap_or_default()
    }

    /// `Time.Format(layout)`, `Err` with the length reached once it passes `most` bytes: a
    /// zone abbreviation parsed from `GMT+0…023` is as long as its text, and a layout repeating
    /// `MST` repeats it.
    pub fn format_within(&self, layout: &str, most: usize) -> Result<String, usize> {
        let (name, offset, abs) = self.locabs();
        let days = abs / SECONDS_PER_DAY as u64;
        let civil = Civil::of(days);
        let clock = abs % SECONDS_PER_DAY as u64;
        let (hour, min, sec) = (clock / 3600, clock % 3600 / 60, clock % 60);
        let mut out = String::new();
        let mut rest = layout.as_bytes();
        while !rest.is_empty() {
            if out.len() > most {
                return Err(out.len());
            }
            let Some((start, std, end)) = next_std_chunk(rest) else {
                out.push_str(&String::from_utf8_lossy(rest));
                break;
            };
            out.push_str(&String::from_utf8_lossy(&rest[..start]));
            rest = &rest[end..];
            let hour12 = if hour % 12 == 0 { 12 } else { hour % 12 };
            match std {
                Std::Year => push_int(&mut out, civil.year.wrapping_abs() % 100, 2),
                Std::LongYear => push_int(&mut out, civil.year, 4),
                Std::Month => out.push_str(&MONTHS[civil.month as usize - 1][..3]),
                Std::LongMonth => out.push_str(MONTHS[civil.month as usize - 1]),
                Std::NumMonth => push_int(&mut out, civil.month, 0),
                Std::ZeroMonth => push_int(&mut out, civil.month, 2),
                Std::WeekDay => out.push_str(&DAYS[civil.weekday][..3]),
                Std::LongWeekDay => out.push_str(DAYS[civil.weekday]),
                Std::Day => push_int(&mut out, civil.day, 0),
                Std::UnderDay => {
                    if civil.day < 10 {
                        out.push(' ');
                    }
                    push_int(&mut out, civil.day, 0);
                }
                Std::ZeroDay => push_int(&mut out, civil.day, 2),
                Std::UnderYearDay => {
                    if civil.yday < 100 {
                        out.push(' ');
                        if civil.yday < 10 {
                            out.push(' ');
                        }
                    }
                    push_int(&mut out, civil.yday, 0);
                }
                Std::ZeroYearDay => push_int(&mut out, civil.yday, 3),
                Std::Hour => push_int(&mut out, hour as i64, 2),
                Std::Hour12 => push_int(&mut out, hour12 as i64, 0),
                Std::ZeroHour12 => push_int(&mut out, hour12 as i64, 2),
                Std::Minute => push_int(&mut out, min as i64, 0),
                Std::ZeroMinute => push_int(&mut out, min as i64, 2),
                Std::Second => push_int(&mut out, sec as i64, 0),
                Std::ZeroSecond => push_int(&mut out, sec as i64, 2),
                Std::PM => out.push_str(if hour >= 12 { "PM" } else { "AM" }),
                Std::Pm => out.push_str(if hour >= 12 { "pm" } else { "am" }),
                Std::Offset(kind) => push_offset(&mut out, offset, kind),
                Std::TZ => {
                    if !name.is_empty() {
                        out.push_str(&name);
                    } else {
                        // A zone without a name prints its offset, as -0700 would.
                        let zone = offset / 60;
                        out.push(if zone < 0 { '-' } else { '+' });
                        push_int(&mut out, i64::from(zone.abs() / 60), 2);
                        push_int(&mut out, i64::from(zone.abs() % 60), 2);
                    }
                }
                Std::Frac {
                    digits,
                    comma,
                    trim,
                } => {
                    push_nanos(&mut out, self.nsec, digits, comma, trim);
                }
            }
        }
        if out.len() > most {
            return Err(out.len());
        }
        Ok(out)
    }
}

/// Go's `addSec`: saturating at the ends of `int64` (one short of `MinInt64`, as Go).
fn add_sec(sec: i64, d: i64) -> i64 {
    let sum = sec.wrapping_add(d);
    if (sum > sec) == (d > 0) {
        sum
    } else if d > 0 {
        i64::MAX
    } else {
        -i64::MAX
    }
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const DAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

/// A day of Go's absolute calendar, as its date: time.go's `absDays.date` and `yearYday`
/// (Neri and Schneider's arithmetic, which Go uses).
struct Civil {
    year: i64,
    month: i64,
    day: i64,
    yday: i64,
    weekday: usize,
}

impl Civil {
    fn of(days: u64) -> Civil {
        let d = days.wrapping_mul(4).wrapping_add(3);
        let century = d / 146_097;
        let cd = ((d % 146_097) as u32) | 3;
        let product = 2_939_745u64 * u64::from(cd);
        let cyear = (product >> 32) as u32;
        let ayday = (product as u32) / 2_939_745 / 4;
        let m = 2141 * ayday + 197_913;
        let (amonth, day) = (m >> 16, 1 + (m & 0xFFFF) / 2141);
        let jan_feb = u32::from(ayday >= MARCH_THRU_DECEMBER);
        let leap = u32::from(cyear.is_multiple_of(4) && (cyear != 0 || century.is_multiple_of(4)));
        Civil {
            year: (century.wrapping_mul(100).wrapping_sub(ABSOLUTE_YEARS) as i64)
                .wrapping_add(i64::from(cyear + jan_feb)),
            month: i64::from(amonth - jan_feb * 12),
            day: i64::from(day),
            yday: i64::from(ayday) + 60 + i64::from(leap & !jan_feb & 1) - 365 * i64::from(jan_feb),
            // March 1 of an absolute year is a Wednesday.
            weekday: (days.wrapping_add(3) % 7) as usize,
        }
    }
}

/// time.go `dateToAbsDays`: days from the absolute zero to a date of the proleptic calendar.
fn date_to_abs_days(year: i64, month: i64, day: i64) -> u64 {
    let jan_feb = u32::from(month < 3);
    let amonth = month as u32 + 12 * jan_feb;
    let y = (year as u64)
        .wrapping_sub(u64::from(jan_feb))
        .wrapping_add(ABSOLUTE_YEARS);
    let ayday = (979 * amonth - 2919) >> 5;
    let century = y / 100;
    let cyear = (y % 100) as u32;
    let cday = 1461 * cyear / 4;
    let century_days = century.wrapping_mul(146_097) / 4;
    century_days.wrapping_add((i64::from(cday + ayday) + day - 1) as u64)
}

/// `time.Date(...)` in UTC, for fields within their ranges (what a parse yields).
fn date_utc(year: i64, month: i64, day: i64, clock: i64, nsec: u32) -> GoTime {
    let unix = (date_to_abs_days(year, month, day) as i64)
        .wrapping_mul(SECONDS_PER_DAY)
        .wrapping_add(clock)
        .wrapping_sub(UNIX_TO_ABSOLUTE);
    GoTime {
        sec: unix.wrapping_add(UNIX_TO_INTERNAL),
        nsec,
        zone: Zone::Utc,
    }
}

/// format.go `appendInt`: a sign, then at least `width` digits.
fn push_int(out: &mut String, x: i64, width: usize) {
    if x < 0 {
        out.push('-');
    }
    out.push_str(&format!("{:0width$}", x.unsigned_abs()));
}

/// format.go `appendNano`: `digits` places of the second, the trailing zeros dropped for a
/// layout of nines (and the separator with them when nothing is left).
fn push_nanos(out: &mut String, nsec: u32, digits: usize, comma: bool, trim: bool) {
    if trim && (digits == 0 || nsec == 0) {
        return;
    }
    let separator = if comma { ',' } else { '.' };
    let mut text = format!("{nsec:09}");
    text.truncate(digits.min(9));
    if trim {
        text.truncate(text.trim_end_matches('0').len());
        if text.is_empty() {
            return;
        }
    }
    out.push(separator);
    out.push_str(&text);
}

fn push_offset(out: &mut String, offset: i32, kind: OffsetKind) {
    if offset == 0 && kind.z {
        out.push('Z');
        return;
    }
    let zone = offset / 60;
    out.push(if zone < 0 { '-' } else { '+' });
    let (zone, abs) = (zone.abs(), offset.abs());
    push_int(out, i64::from(zone / 60), 2);
    if kind.colon {
        out.push(':');
    }
    if !kind.short {
        push_int(out, i64::from(zone % 60), 2);
    }
    if kind.seconds {
        if kind.colon {
            out.push(':');
        }
        push_int(out, i64::from(abs % 60), 2);
    }
}

/// A numeric zone element: `Z` when UTC (`Z07:00`) or always a sign (`-07:00`); with a colon;
/// the hours alone (`-07`); with seconds (`-070000`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct OffsetKind {
    z: bool,
    colon: bool,
    short: bool,
    seconds: bool,
}

/// A layout element (format.go's `std` values).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Std {
    LongMonth,
    Month,
    NumMonth,
    ZeroMonth,
    LongWeekDay,
    WeekDay,
    Day,
    UnderDay,
    ZeroDay,
    UnderYearDay,
    ZeroYearDay,
    Hour,
    Hour12,
    ZeroHour12,
    Minute,
    ZeroMinute,
    Second,
    ZeroSecond,
    LongYear,
    Year,
    PM,
    Pm,
    TZ,
    Offset(OffsetKind),
    /// `.000` (`trim` false) or `.999` (true); `digits` is kept to 12 bits, as Go packs it.
    Frac {
        digits: usize,
        comma: bool,
        trim: bool,
    },
}

const fn offset(z: bool, colon: bool, short: bool, seconds: bool) -> Std {
    Std::Offset(OffsetKind {
        z,
        colon,
        short,
        seconds,
    })
}

/// format.go `nextStdChunk`: where the first layout element starts, which it is, and where
/// the text after it starts.
fn next_std_chunk(layout: &[u8]) -> Option<(usize, Std, usize)> {
    let at = |i: usize, text: &str| layout[i..].starts_with(text.as_bytes());
    // "Month" is not "Mon" and "th": a lower-case letter after a name makes it text.
    let lower_after = |i: usize| layout.get(i).is_some_and(u8::is_ascii_lowercase);
    const OFFSETS: [(&str, Std); 5] = [
        ("070000", offset(false, false, false, true)),
        ("07:00:00", offset(false, true, false, true)),
        ("0700", offset(false, false, false, false)),
        ("07:00", offset(false, true, false, false)),
        ("07", offset(false, false, true, false)),
    ];
    for i in 0..layout.len() {
        match layout[i] {
            b'J' if at(i, "Jan") => {
                if at(i, "January") {
                    return Some((i, Std::LongMonth, i + 7));
                }
                if !lower_after(i + 3) {
                    return Some((i, Std::Month, i + 3));
                }
            }
            b'M' => {
                if at(i, "Mon") {
                    if at(i, "Monday") {
                        return Some((i, Std::LongWeekDay, i + 6));
                    }
                    if !lower_after(i + 3) {
                        return Some((i, Std::WeekDay, i + 3));
                    }
                }
                if at(i, "MST") {
                    return Some((i, Std::TZ, i + 3));
                }
            }
            b'0' => {
                if let Some(&c @ b'1'..=b'6') = layout.get(i + 1) {
                    let std = [
                        Std::ZeroMonth,
                        Std::ZeroDay,
                        Std::ZeroHour12,
                        Std::ZeroMinute,
                        Std::ZeroSecond,
                        Std::Year,
                    ][usize::from(c - b'1')];
                    return Some((i, std, i + 2));
                }
                if at(i, "002") {
                    return Some((i, Std::ZeroYearDay, i + 3));
                }
            }
            b'1' => {
                if at(i, "15") {
                    return Some((i, Std::Hour, i + 2));
                }
                return Some((i, Std::NumMonth, i + 1));
            }
            b'2' => {
                if at(i, "2006") {
                    return Some((i, Std::LongYear, i + 4));
                }
                return Some((i, Std::Day, i + 1));
            }
            b'_' => {
                if at(i, "_2") {
                    // `_2006` is an underscore, then the year.
                    if at(i + 1, "2006") {
                        return Some((i + 1, Std::LongYear, i + 5));
                    }
                    return Some((i, Std::UnderDay, i + 2));
                }
                if at(i, "__2") {
                    return Some((i, Std::UnderYearDay, i + 3));
                }
            }
            b'3' => return Some((i, Std::Hour12, i + 1)),
            b'4' => return Some((i, Std::Minute, i + 1)),
            b'5' => return Some((i, Std::Second, i + 1)),
            b'P' if at(i, "PM") => return Some((i, Std::PM, i + 2)),
            b'p' if at(i, "pm") => return Some((i, Std::Pm, i + 2)),
            c @ (b'-' | b'Z') => {
                for (text, std) in OFFSETS {
                    if at(i + 1, text) {
                        let Std::Offset(kind) = std else {
                            continue;
                        };
                        let std = Std::Offset(OffsetKind {
                            z: c == b'Z',
                            ..kind
                        });
                        return Some((i, std, i + 1 + text.len()));
                    }
                }
            }
            c @ (b'.' | b',') => {
                if let Some(&digit @ (b'0' | b'9')) = layout.get(i + 1) {
                    let mut j = i + 1;
                    while layout.get(j) == Some(&digit) {
                        j += 1;
                    }
                    // Only a run of digits ending there is a fraction of a second.
                    if !layout.get(j).is_some_and(u8::is_ascii_digit) {
                        let std = Std::Frac {
                            digits: (j - (i + 1)) & 0xfff,
                            comma: c == b',',
                            trim: digit == b'9',
                        };
                        return Some((i, std, j));
                    }
                }
            }
            _ => {}
        }
    }
    None
}

/// Go's `time.quote`: every byte outside printable ASCII as `\xNN`.
pub(crate) fn quote(text: &[u8]) -> String {
    let mut out = String::from("\"");
    for &b in text {
        match b {
            b'"' | b'\\' => {
                out.push('\\');
                out.push(b as char);
            }
            b' '..=0x7f => out.push(b as char),
            _ => out.push_str(&format!("\\x{b:02x}")),
        }
    }
    out.push('"');
    out
}

/// `*time.ParseError`'s message.
fn parse_error(
    layout: &[u8],
    value: &[u8],
    layout_elem: &[u8],
    value_elem: &[u8],
    message: &str,
) -> String {
    if message.is_empty() {
        format!(
            "parsing time {} as {}: cannot parse {} as {}",
            quote(value),
            quote(layout),
            quote(value_elem),
            quote(layout_elem)
        )
    } else {
        format!("parsing time {}{message}", quote(value))
    }
}

/// format.go `leadingInt`: the leading digits, an error past 1<<63.
fn leading_int(s: &[u8]) -> Result<(u64, &[u8]), ()> {
    let mut x: u64 = 0;
    let mut i = 0;
    while let Some(&c @ b'0'..=b'9') = s.get(i) {
        if x > (1 << 63) / 10 {
            return Err(());
        }
        x = x * 10 + u64::from(c - b'0');
        if x > 1 << 63 {
            return Err(());
        }
        i += 1;
    }
    Ok((x, &s[i..]))
}

/// format.go `atoi`: a signed decimal, all of `s`.
fn atoi(s: &[u8]) -> Result<i64, ()> {
    let (negative, digits) = match s.first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let (x, rest) = leading_int(digits)?;
    if !rest.is_empty() {
        return Err(());
    }
    let x = x as i64;
    Ok(if negative { x.wrapping_neg() } else { x })
}

/// format.go `getnum`: one or two digits (two when `fixed`).
fn getnum(s: &[u8], fixed: bool) -> Result<(i64, &[u8]), ()> {
    let digit = |i: usize| {
        s.get(i)
            .filter(|c| c.is_ascii_digit())
            .map(|c| i64::from(c - b'0'))
    };
    let first = digit(0).ok_or(())?;
    match digit(1) {
        Some(second) => Ok((first * 10 + second, &s[2..])),
        None if fixed => Err(()),
        None => Ok((first, &s[1..])),
    }
}

/// format.go `getnum3`: one to three digits (three when `fixed`).
fn getnum3(s: &[u8], fixed: bool) -> Result<(i64, &[u8]), ()> {
    let count = s.iter().take(3).take_while(|c| c.is_ascii_digit()).count();
    if count == 0 || (fixed && count != 3) {
        return Err(());
    }
    let n = s[..count]
        .iter()
        .fold(0, |n, c| n * 10 + i64::from(c - b'0'));
    Ok((n, &s[count..]))
}

/// format.go `skip`: the layout's text, a run of spaces matching any run of spaces. On a
/// mismatch, the value from where it failed.
fn skip<'a>(mut value: &'a [u8], mut prefix: &[u8]) -> Result<&'a [u8], &'a [u8]> {
    let cut = |s: &'a [u8]| -> &'a [u8] { &s[s.iter().take_while(|&&c| c == b' ').count()..] };
    while let Some(&p) = prefix.first() {
        if p == b' ' {
            if value.first().is_some_and(|&c| c != b' ') {
                return Err(value);
            }
            prefix = &prefix[prefix.iter().take_while(|&&c| c == b' ').count()..];
            value = cut(value);
            continue;
        }
        if value.first() != Some(&p) {
            return Err(value);
        }
        prefix = &prefix[1..];
        value = &value[1..];
    }
    Ok(value)
}

/// format.go `lookup`: the first name of `table` the value starts with, ignoring ASCII case.
fn lookup_name<'a>(table: &[&str], value: &'a [u8]) -> Result<(usize, &'a [u8]), ()> {
    for (i, name) in table.iter().enumerate() {
        let name = name.as_bytes();
        if value.len() >= name.len() && value[..name.len()].eq_ignore_ascii_case(name) {
            return Ok((i, &value[name.len()..]));
        }
    }
    Err(())
}

/// format.go `parseTimeZone`: the length of a zone abbreviation at the start of `value`.
fn parse_time_zone(value: &[u8]) -> Option<usize> {
    if value.len() < 3 {
        return None;
    }
    if value.starts_with(b"ChST") || value.starts_with(b"MeST") {
        return Some(4);
    }
    if let Some(rest) = value.strip_prefix(b"GMT") {
        return Some(if rest.is_empty() {
            3
        } else {
            3 + parse_signed_offset(rest)
        });
    }
    if value[0] == b'+' || value[0] == b'-' {
        let n = parse_signed_offset(value);
        return (n > 0).then_some(n);
    }
    let upper = value
        .iter()
        .take(6)
        .take_while(|c| c.is_ascii_uppercase())
        .count();
    match upper {
        5 if value[4] == b'T' => Some(5),
        4 if value[3] == b'T' || value.starts_with(b"WITA") => Some(4),
        3 => Some(3),
        _ => None,
    }
}

/// format.go `parseSignedOffset`: `+N` or `-N` with N at most 23, its length, else 0.
fn parse_signed_offset(value: &[u8]) -> usize {
    if value[0] != b'+' && value[0] != b'-' {
        return 0;
    }
    match leading_int(&value[1..]) {
        Ok((x, rest)) if rest.len() != value.len() - 1 && x <= 23 => value.len() - rest.len(),
        _ => 0,
    }
}

/// format.go `parseNanoseconds`: the separator, then digits scaled to nanoseconds (nine
/// places at most are read).
fn parse_nanoseconds(value: &[u8], nbytes: usize) -> Result<(i64, bool), ()> {
    if value[0] != b'.' && value[0] != b',' {
        return Err(());
    }
    let nbytes = nbytes.min(10);
    let mut ns = atoi(&value[1..nbytes])?;
    if ns < 0 {
        return Ok((0, true));
    }
    for _ in 0..10 - nbytes {
        ns *= 10;
    }
    Ok((ns, false))
}

fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

/// Days before the month `m` (1 to 13) in a year without a leap day.
const DAYS_BEFORE: [i64; 14] = [
    0, 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365,
];

fn days_in(month: i64, year: i64) -> i64 {
    if month == 2 && is_leap(year) {
        return 29;
    }
    DAYS_BEFORE[month as usize + 1] - DAYS_BEFORE[month as usize]
}

/// `time.ParseInLocation(layout, value, time.Local)`, Go's `parse` with `Local` as both the
/// default location and the one whose zones a parsed offset or abbreviation is matched to.
/// Go's RFC 3339 shortcut is left out: where it accepts a text, `parse` answers alike.
pub(crate) fn parse_in_local(layout: &str, value: &str) -> Result<GoTime, String> {
    let (alayout, avalue) = (layout.as_bytes(), value.as_bytes());
    let (mut layout, mut value) = (alayout, avalue);
    let mut range_err: Option<&str> = None;
    let (mut am_set, mut pm_set) = (false, false);
    let (mut year, mut month, mut day, mut yday) = (0i64, -1i64, -1i64, -1i64);
    let (mut hour, mut min, mut sec, mut nsec) = (0i64, 0i64, 0i64, 0i64);
    let mut utc = false;
    let mut zone_offset: i64 = -1;
    let mut zone_name: &[u8] = b"";
    loop {
        let chunk = next_std_chunk(layout);
        let (prefix_end, suffix_start) = chunk.map_or((layout.len(), layout.len()), |c| (c.0, c.2));
        let prefix = &layout[..prefix_end];
        let std_text = &layout[prefix_end..suffix_start];
        value = skip(value, prefix).map_err(|at| parse_error(alayout, avalue, prefix, at, ""))?;
        let Some((_, std, _)) = chunk else {
            if !value.is_empty() {
                let extra = format!(": extra text: {}", quote(value));
                return Err(parse_error(alayout, avalue, b"", value, &extra));
            }
            break;
        };
        layout = &layout[suffix_start..];
        let hold = value;
        let result: Result<(), ()> = (|| {
            match std {
                Std::Year => {
                    if value.len() < 2 {
                        return Err(());
                    }
                    let p;
                    (p, value) = value.split_at(2);
                    year = atoi(p)?;
                    // Two-digit years from 69 are the 1900s (Unix time starts in 1969 in
                    // some zones).
                    year += if year >= 69 { 1900 } else { 2000 };
                }
                Std::LongYear => {
                    if value.len() < 4 || !value[0].is_ascii_digit() {
                        return Err(());
                    }
                    let p;
                    (p, value) = value.split_at(4);
                    year = atoi(p)?;
                }
                Std::Month | Std::LongMonth => {
                    let names: Vec<&str> = if std == Std::Month {
                        MONTHS.iter().map(|m| &m[..3]).collect()
                    } else {
                        MONTHS.to_vec()
                    };
                    let (i, rest) = lookup_name(&names, value)?;
                    (month, value) = (i as i64 + 1, rest);
                }
                Std::NumMonth | Std::ZeroMonth => {
                    (month, value) = getnum(value, std == Std::ZeroMonth)?;
                    if month <= 0 || 12 < month {
                        range_err = Some("month");
                    }
                }
                Std::WeekDay | Std::LongWeekDay => {
                    // The day of the week is read for its syntax and otherwise ignored.
                    let names: Vec<&str> = if std == Std::WeekDay {
                        DAYS.iter().map(|d| &d[..3]).collect()
                    } else {
                        DAYS.to_vec()
                    };
                    value = lookup_name(&names, value)?.1;
                }
                Std::Day | Std::UnderDay | Std::ZeroDay => {
                    if std == Std::UnderDay && value.first() == Some(&b' ') {
                        value = &value[1..];
                    }
                    (day, value) = getnum(value, std == Std::ZeroDay)?;
                }
                Std::UnderYearDay | Std::ZeroYearDay => {
                    for _ in 0..2 {
                        if std == Std::UnderYearDay && value.first() == Some(&b' ') {
                            value = &value[1..];
                        }
                    }
                    (yday, value) = getnum3(value, std == Std::ZeroYearDay)?;
                }
                Std::Hour => {
                    (hour, value) = getnum(value, false)?;
                    if !(0..24).contains(&hour) {
                        range_err = Some("hour");
                    }
                }
                Std::Hour12 | Std::ZeroHour12 => {
                    (hour, value) = getnum(value, std == Std::ZeroHour12)?;
                    if !(0..=12).contains(&hour) {
                        range_err = Some("hour");
                    }
                }
                Std::Minute | Std::ZeroMinute => {
                    (min, value) = getnum(value, std == Std::ZeroMinute)?;
                    if !(0..60).contains(&min) {
                        range_err = Some("minute");
                    }
                }
                Std::Second | Std::ZeroSecond => {
                    (sec, value) = getnum(value, std == Std::ZeroSecond)?;
                    if !(0..60).contains(&sec) {
                        range_err = Some("second");
                        return Ok(());
                    }
                    // A fraction after the seconds is read even when the layout has none.
                    if value.len() >= 2
                        && matches!(value[0], b'.' | b',')
                        && value[1].is_ascii_digit()
                    {
                        if matches!(next_std_chunk(layout), Some((_, Std::Frac { .. }, _))) {
                            return Ok(());
                        }
                        let n = 2 + value[2..].iter().take_while(|c| c.is_ascii_digit()).count();
                        let (ns, out_of_range) = parse_nanoseconds(value, n)?;
                        nsec = ns;
                        if out_of_range {
                            range_err = Some("fractional second");
                        }
                        value = &value[n..];
                    }
                }
                Std::PM | Std::Pm => {
                    if value.len() < 2 {
                        return Err(());
                    }
                    let p;
                    (p, value) = value.split_at(2);
                    let (pm, am): (&[u8], &[u8]) = if std == Std::PM {
                        (b"PM", b"AM")
                    } else {
                        (b"pm", b"am")
                    };
                    if p == pm {
                        pm_set = true;
                    } else if p == am {
                        am_set = true;
                    } else {
                        return Err(());
                    }
                }
                Std::Offset(kind) => {
                    if kind.z && value.first() == Some(&b'Z') {
                        value = &value[1..];
                        utc = true;
                        return Ok(());
                    }
                    let (sign, hh, mm, ss): (u8, &[u8], &[u8], &[u8]);
                    if kind.colon && !kind.seconds {
                        if value.len() < 6 || value[3] != b':' {
                            return Err(());
                        }
                        (sign, hh, mm, ss) = (value[0], &value[1..3], &value[4..6], b"00");
                        value = &value[6..];
                    } else if kind.short {
                        if value.len() < 3 {
                            return Err(());
                        }
                        (sign, hh, mm, ss) = (value[0], &value[1..3], b"00", b"00");
                        value = &value[3..];
                    } else if kind.colon {
                        if value.len() < 9 || value[3] != b':' || value[6] != b':' {
                            return Err(());
                        }
                        (sign, hh, mm, ss) = (value[0], &value[1..3], &value[4..6], &value[7..9]);
                        value = &value[9..];
                    } else if kind.seconds {
                        if value.len() < 7 {
                            return Err(());
                        }
                        (sign, hh, mm, ss) = (value[0], &value[1..3], &value[3..5], &value[5..7]);
                        value = &value[7..];
                    } else {
                        if value.len() < 5 {
                            return Err(());
                        }
                        (sign, hh, mm, ss) = (value[0], &value[1..3], &value[3..5], b"00");
                        value = &value[5..];
                    }
                    // Go reads the fields in turn, stops at the first that fails, and checks
                    // the ranges of what it read before it reports that failure.
                    let field = |text: &[u8]| getnum(text, true).map(|(n, _)| n);
                    let (h, m, s, read) = match field(hh) {
                        Err(()) => (0, 0, 0, false),
                        Ok(h) => match field(mm) {
                            Err(()) => (h, 0, 0, false),
                            Ok(m) => match field(ss) {
                                Err(()) => (h, m, 0, false),
                                Ok(s) => (h, m, s, true),
                            },
                        },
                    };
                    if h > 24 {
                        range_err = Some("time zone offset hour");
                    }
                    if m > 60 {
                        range_err = Some("time zone offset minute");
                    }
                    if s > 60 {
                        range_err = Some("time zone offset second");
                    }
                    zone_offset = (h * 60 + m) * 60 + s;
                    if !read {
                        return Err(());
                    }
                    match sign {
                        b'+' => {}
                        b'-' => zone_offset = -zone_offset,
                        _ => return Err(()),
                    }
                }
                Std::TZ => {
                    if value.starts_with(b"UTC") {
                        utc = true;
                        value = &value[3..];
                        return Ok(());
                    }
                    let n = parse_time_zone(value).ok_or(())?;
                    (zone_name, value) = value.split_at(n);
                }
                Std::Frac {
                    digits,
                    trim: false,
                    ..
                } => {
                    let ndigit = 1 + digits;
                    if value.len() < ndigit {
                        return Err(());
                    }
                    let (ns, out_of_range) = parse_nanoseconds(value, ndigit)?;
                    nsec = ns;
                    if out_of_range {
                        range_err = Some("fractional second");
                    }
                    value = &value[ndigit..];
                }
                Std::Frac { trim: true, .. } => {
                    if value.len() < 2
                        || !matches!(value[0], b'.' | b',')
                        || !value[1].is_ascii_digit()
                    {
                        // The fraction is left out.
                        return Ok(());
                    }
                    // Any number of digits, as after the seconds.
                    let n = 1 + value[1..].iter().take_while(|c| c.is_ascii_digit()).count();
                    let (ns, out_of_range) = parse_nanoseconds(value, n)?;
                    nsec = ns;
                    if out_of_range {
                        range_err = Some("fractional second");
                    }
                    value = &value[n..];
                }
            }
            Ok(())
        })();
        if let Some(what) = range_err {
            let message = format!(": {what} out of range");
            return Err(parse_error(alayout, avalue, std_text, value, &message));
        }
        if result.is_err() {
            return Err(parse_error(alayout, avalue, std_text, hold, ""));
        }
    }
    if pm_set && hour < 12 {
        hour += 12;
    } else if am_set && hour == 12 {
        hour = 0;
    }
    let fail = |message: &str| Err(parse_error(alayout, avalue, b"", value, message));
    if yday >= 0 {
        let (mut m, mut d) = (0, 0);
        if is_leap(year) {
            if yday == 31 + 29 {
                (m, d) = (2, 29);
            } else if yday > 31 + 29 {
                yday -= 1;
            }
        }
        if !(1..=365).contains(&yday) {
            return fail(": day-of-year out of range");
        }
        if m == 0 {
            m = (yday - 1) / 31 + 1;
            if DAYS_BEFORE[m as usize + 1] < yday {
                m += 1;
            }
            d = yday - DAYS_BEFORE[m as usize];
        }
        if month >= 0 && month != m {
            return fail(": day-of-year does not match month");
        }
        month = m;
        if day >= 0 && day != d {
            return fail(": day-of-year does not match day");
        }
        day = d;
    } else {
        if month < 0 {
            month = 1;
        }
        if day < 0 {
            day = 1;
        }
    }
    if day < 1 || day > days_in(month, year) {
        return fail(": day out of range");
    }
    let mut t = date_utc(year, month, day, hour * 3600 + min * 60 + sec, nsec as u32);
    if utc {
        return Ok(t);
    }
    let name = String::from_utf8_lossy(zone_name).into_owned();
    if zone_offset != -1 {
        t.sec = add_sec(t.sec, -zone_offset);
        // Local (UTC here) takes an offset it has, under its own name or none.
        t.zone = if zone_offset == 0 && (name.is_empty() || name == "UTC") {
            Zone::Local
        } else {
            Zone::fixed(&name, zone_offset as i32)
        };
        return Ok(t);
    }
    if !name.is_empty() {
        // An abbreviation Local (UTC) does not have keeps its name at offset zero, but
        // GMT+N at N hours; the instant is the wall clock read as UTC either way.
        let offset = match name.strip_prefix("GMT") {
            Some(hours) if !hours.is_empty() => atoi(hours.as_bytes()).unwrap_or(0) * 3600,
            _ => 0,
        };
        t.zone = Zone::fixed(&name, offset as i32);
        return Ok(t);
    }
    t.zone = Zone::Local;
    Ok(t)
}

/// `Duration.String()`: `72h3m0.5s`, smaller units below a second, `0s` for zero.
pub(crate) fn duration_string(d: i64) -> String {
    let mut u = d.unsigned_abs();
    let mut out: Vec<u8> = Vec::new();
    // Written backwards, from the smallest unit, as Go writes it.
    let frac = |out: &mut Vec<u8>, v: u64, prec: u32| -> u64 {
        let mut v = v;
        let mut print = false;
        for _ in 0..prec {
            let digit = (v % 10) as u8;
            print = print || digit != 0;
            if print {
                out.push(b'0' + digit);
            }
            v /= 10;
        }
        if print {
            out.push(b'.');
        }
        v
    };
    let int = |out: &mut Vec<u8>, v: u64| {
        out.extend(v.to_string().bytes().rev());
    };
    if u < 1_000_000_000 {
        out.push(b's');
        let prec = match u {
            0 => return "0s".to_string(),
            1..1_000 => {
                out.push(b'n');
                0
            }
            1_000..1_000_000 => {
                out.extend("µ".bytes().rev());
                3
            }
            _ => {
                out.push(b'm');
                6
            }
        };
        u = frac(&mut out, u, prec);
        int(&mut out, u);
    } else {
        out.push(b's');
        u = frac(&mut out, u, 9);
        int(&mut out, u % 60);
        u /= 60;
        if u > 0 {
            out.push(b'm');
            int(&mut out, u % 60);
            u /= 60;
            // Hours are the largest unit: days differ in length.
            if u > 0 {
                out.push(b'h');
                int(&mut out, u);
            }
        }
    }
    if d < 0 {
        out.push(b'-');
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// `time.ParseDuration`: signed decimals with fractions and units (`ns`, `us`, `µs`, `μs`,
/// `ms`, `s`, `m`, `h`), `1h30m`, `-1.5h`; its errors in Go's words.
pub(crate) fn parse_duration(text: &str) -> Result<i64, String> {
    let orig = text.as_bytes();
    let invalid = || format!("time: invalid duration {}", quote(orig));
    let mut s = orig;
    let mut negative = false;
    if let Some(&c @ (b'-' | b'+')) = s.first() {
        negative = c == b'-';
        s = &s[1..];
    }
    if s == b"0" {
        return Ok(0);
    }
    if s.is_empty() {
        return Err(invalid());
    }
    let mut d: u64 = 0;
    while !s.is_empty() {
        if !(s[0] == b'.' || s[0].is_ascii_digit()) {
            return Err(invalid());
        }
        let before = s.len();
        let (mut v, rest) = leading_int(s).map_err(|_| invalid())?;
        s = rest;
        let pre = before != s.len();
        let (mut f, mut scale, mut post) = (0u64, 1f64, false);
        if s.first() == Some(&b'.') {
            s = &s[1..];
            let before = s.len();
            // Digits past what 63 bits hold add no precision and are skipped.
            let mut overflow = false;
            while let Some(&c @ b'0'..=b'9') = s.first() {
                s = &s[1..];
                if overflow {
                    continue;
                }
                if f > ((1u64 << 63) - 1) / 10 {
                    overflow = true;
                    continue;
                }
                let y = f * 10 + u64::from(c - b'0');
                if y > 1 << 63 {
                    overflow = true;
                    continue;
                }
                f = y;
                scale *= 10.0;
            }
            post = before != s.len();
        }
        if !pre && !post {
            return Err(invalid());
        }
        let unit_len = s
            .iter()
            .take_while(|&&c| c != b'.' && !c.is_ascii_digit())
            .count();
        if unit_len == 0 {
            return Err(format!("time: missing unit in duration {}", quote(orig)));
        }
        let (unit_text, rest) = s.split_at(unit_len);
        s = rest;
        let unit: u64 = match unit_text {
            b"ns" => 1,
            // The micro sign U+00B5 and the Greek mu U+03BC.
            b"us" | b"\xc2\xb5s" | b"\xce\xbcs" => 1_000,
            b"ms" => 1_000_000,
            b"s" => 1_000_000_000,
            b"m" => 60_000_000_000,
            b"h" => 3_600_000_000_000,
            _ => {
                return Err(format!(
                    "time: unknown unit {} in duration {}",
                    quote(unit_text),
                    quote(orig)
                ));
            }
        };
        if v > (1 << 63) / unit {
            return Err(invalid());
        }
        v *= unit;
        if f > 0 {
            // A float keeps nanoseconds exact for fractions of an hour, as Go's does.
            v += (f as f64 * (unit as f64 / scale)) as u64;
            if v > 1 << 63 {
                return Err(invalid());
            }
        }
        d = d.wrapping_add(v);
        if d > 1 << 63 {
            return Err(invalid());
        }
    }
    if negative {
        return Ok((d as i64).wrapping_neg());
    }
    if d > (1 << 63) - 1 {
        return Err(invalid());
    }
    Ok(d as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn los_angeles() -> Zone {
        Zone::load("America/Los_Angeles").expect("the bundled database has it")
    }

    // Go time/format_test.go TestFormat's formatTests: Thu Feb 4 21:00:57.012345600 PST 2009.
    #[test]
    fn formats_as_go_s_format_tests() {
        let t = GoTime::unix(1_233_810_057)
            .add(12_345_600)
            .in_zone(los_angeles());
        let cases = [
            ("Mon Jan _2 15:04:05 2006", "Wed Feb  4 21:00:57 2009"),
            (
                "Mon Jan _2 15:04:05 MST 2006",
                "Wed Feb  4 21:00:57 PST 2009",
            ),
            (
                "Mon Jan 02 15:04:05 -0700 2006",
                "Wed Feb 04 21:00:57 -0800 2009",
            ),
            ("02 Jan 06 15:04 MST", "04 Feb 09 21:00 PST"),
            (
                "Monday, 02-Jan-06 15:04:05 MST",
                "Wednesday, 04-Feb-09 21:00:57 PST",
            ),
            (
                "Mon, 02 Jan 2006 15:04:05 MST",
                "Wed, 04 Feb 2009 21:00:57 PST",
            ),
            (
                "Mon, 02 Jan 2006 15:04:05 -0700",
                "Wed, 04 Feb 2009 21:00:57 -0800",
            ),
            ("2006-01-02T15:04:05Z07:00", "2009-02-04T21:00:57-08:00"),
            (
                "2006-01-02T15:04:05.999999999Z07:00",
                "2009-02-04T21:00:57.0123456-08:00",
            ),
            ("3:04PM", "9:00PM"),
            ("3pm", "9pm"),
            ("3PM", "9PM"),
            ("06 01 02", "09 02 04"),
            (
                "Hi Janet, the Month is January",
                "Hi Janet, the Month is February",
            ),
            ("Jan _2 15:04:05", "Feb  4 21:00:57"),
            ("Jan _2 15:04:05.000", "Feb  4 21:00:57.012"),
            ("Jan _2 15:04:05.000000", "Feb  4 21:00:57.012345"),
            ("Jan _2 15:04:05.000000000", "Feb  4 21:00:57.012345600"),
            ("2006-01-02 15:04:05", "2009-02-04 21:00:57"),
            ("Jan  2 002 __2 2", "Feb  4 035  35 4"),
            ("2006 6 06 _6 __6 ___6", "2009 6 09 _6 __6 ___6"),
            ("Jan January 1 01 _1", "Feb February 2 02 _2"),
            ("2 02 _2 __2", "4 04  4  35"),
            ("Mon Monday", "Wed Wednesday"),
            ("15 3 03 _3", "21 9 09 _9"),
            ("4 04 _4", "0 00 _0"),
            ("5 05 _5", "57 57 _57"),
        ];
        for (layout, want) in cases {
            assert_eq!(t.format(layout), want, "{layout}");
        }
        // TestFormatShortYear's negative and five-digit years, and the zero Time's String.
        assert_eq!(GoTime::zero().string(), "0001-01-01 00:00:00 +0000 UTC");
        assert_eq!(GoTime::unix(-62_198_755_200).format("2006 06"), "-0001 01");
        assert_eq!(GoTime::unix(253_402_300_800).format("2006"), "10000");
    }

    fn parse_err(layout: &str, value: &str) -> String {
        parse_in_local(layout, value).map_or_else(|e| e, |t| format!("OK {}", t.string()))
    }

    // Go time/format_test.go TestParseErrors' parseErrorTests (Go's test checks that the
    // message contains the text given).
    #[test]
    fn refuses_as_go_s_parse_error_tests() {
        let ansic = "Mon Jan _2 15:04:05 2006";
        let rfc3339 = "2006-01-02T15:04:05Z07:00";
        let stamp_nano = "Jan _2 15:04:05.000000000";
        let cases = [
            (
                ansic,
                "Feb  4 21:00:60 2010",
                r#"cannot parse "Feb  4 21:00:60 2010" as "Mon""#,
            ),
            (
                ansic,
                "Thu Feb  4 21:00:57 @2010",
                r#"cannot parse "@2010" as "2006""#,
            ),
            (ansic, "Thu Feb  4 21:00:60 2010", "second out of range"),
            (ansic, "Thu Feb  4 21:61:57 2010", "minute out of range"),
            (ansic, "Thu Feb  4 24:00:60 2010", "hour out of range"),
            (
                "Mon Jan _2 15:04:05.000 2006",
                "Thu Feb  4 23:00:59x01 2010",
                r#"cannot parse "x01 2010" as ".000""#,
            ),
            (
                "Mon Jan _2 15:04:05.000 2006",
                "Thu Feb  4 23:00:59.xxx 2010",
                r#"cannot parse ".xxx 2010" as ".000""#,
            ),
            (
                "Mon Jan _2 15:04:05.000 2006",
                "Thu Feb  4 23:00:59.-123 2010",
                "fractional second out of range",
            ),
            (
                stamp_nano,
                "Dec  7 11:22:01.000000",
                r#"cannot parse ".000000" as ".000000000""#,
            ),
            (
                stamp_nano,
                "Dec  7 11:22:01.0000000000",
                r#"extra text: "0""#,
            ),
            (
                rfc3339,
                "2006-01-02T15:04:05Z07:00",
                r#"parsing time "2006-01-02T15:04:05Z07:00": extra text: "07:00""#,
            ),
            (
                rfc3339,
                "2006-01-02T15:04_abc",
                r#"parsing time "2006-01-02T15:04_abc" as "2006-01-02T15:04:05Z07:00": cannot parse "_abc" as ":""#,
            ),
            (
                rfc3339,
                "2006-01-02T15:04:05_abc",
                r#"parsing time "2006-01-02T15:04:05_abc" as "2006-01-02T15:04:05Z07:00": cannot parse "_abc" as "Z07:00""#,
            ),
            (
                rfc3339,
                "2006-01-02T15:04:05Z_abc",
                r#"parsing time "2006-01-02T15:04:05Z_abc": extra text: "_abc""#,
            ),
            (
                rfc3339,
                "2010-02-04T21:00:67.012345678-08:00",
                "second out of range",
            ),
            (
                rfc3339,
                "0000-01-01T00:00:.0+00:00",
                r#"parsing time "0000-01-01T00:00:.0+00:00" as "2006-01-02T15:04:05Z07:00": cannot parse ".0+00:00" as "05""#,
            ),
            (
                "_2 Jan 06 15:04 MST",
                "4 --- 00 00:00 GMT",
                r#"cannot parse "--- 00 00:00 GMT" as "Jan""#,
            ),
            (
                "_2 January 06 15:04 MST",
                "4 --- 00 00:00 GMT",
                r#"cannot parse "--- 00 00:00 GMT" as "January""#,
            ),
            (
                "Jan _2 002 2006",
                "Feb  4 034 2006",
                "day-of-year does not match day",
            ),
            (
                "Jan _2 002 2006",
                "Feb  4 004 2006",
                "day-of-year does not match month",
            ),
            (
                r#""2006-01-02T15:04:05Z07:00""#,
                "0",
                r#"parsing time "0" as "\"2006-01-02T15:04:05Z07:00\"": cannot parse "0" as "\"""#,
            ),
            (
                rfc3339,
                "\"",
                r#"parsing time "\"" as "2006-01-02T15:04:05Z07:00": cannot parse "\"" as "2006""#,
            ),
            (
                rfc3339,
                "0000-01-01T00:00:00+00:+0",
                r#"cannot parse "+00:+0" as "Z07:00""#,
            ),
            (
                rfc3339,
                "0000-01-01T00:00:00+-0:00",
                r#"cannot parse "+-0:00" as "Z07:00""#,
            ),
            (
                "2006-01-02",
                "22-10-25",
                r#"parsing time "22-10-25" as "2006-01-02": cannot parse "22-10-25" as "2006""#,
            ),
            (
                "06-01-02",
                "a2-10-25",
                r#"parsing time "a2-10-25" as "06-01-02": cannot parse "a2-10-25" as "06""#,
            ),
            (
                "03:04PM",
                "12:03pM",
                r#"parsing time "12:03pM" as "03:04PM": cannot parse "pM" as "PM""#,
            ),
            (
                "03:04pm",
                "12:03pM",
                r#"parsing time "12:03pM" as "03:04pm": cannot parse "pM" as "pm""#,
            ),
            ("-07", "-25", "time zone offset hour out of range"),
            ("-07:00", "+25:00", "time zone offset hour out of range"),
            ("-07:00", "-23:61", "time zone offset minute out of range"),
            (
                "-07:00:00",
                "+23:59:61",
                "time zone offset second out of range",
            ),
            ("Z07", "-25", "time zone offset hour out of range"),
            ("Z07:00", "+25:00", "time zone offset hour out of range"),
            ("Z07:00", "-23:61", "time zone offset minute out of range"),
            (
                "Z07:00:00",
                "+23:59:61",
                "time zone offset second out of range",
            ),
        ];
        for (layout, value, want) in cases {
            let got = parse_err(layout, value);
            assert!(got.contains(want), "{layout:?} {value:?}: {got}");
        }
    }

    // Go time/format_test.go parseTests (a few rows) and sprig's TestUnixEpoch's time.
    #[test]
    fn parses_as_go_s_parse_tests() {
        let cases = [
            (
                "Mon Jan _2 15:04:05 2006",
                "Thu Feb  4 21:00:57 2010",
                "2010-02-04 21:00:57 +0000 UTC",
            ),
            (
                "Mon Jan _2 15:04:05 MST 2006",
                "Thu Feb  4 21:00:57 PST 2010",
                "2010-02-04 21:00:57 +0000 PST",
            ),
            (
                "Mon Jan 02 15:04:05 -0700 2006",
                "Thu Feb 04 21:00:57 -0800 2010",
                "2010-02-04 21:00:57 -0800 -0800",
            ),
            (
                "2006-01-02T15:04:05Z07:00",
                "2010-02-04T21:00:57.012345678+08:00",
                "2010-02-04 21:00:57.012345678 +0800 +0800",
            ),
            (
                "2006-01-02 15:04:05,999",
                "2010-02-04 21:00:57,01234",
                "2010-02-04 21:00:57.01234 +0000 UTC",
            ),
            (
                "Jan _2 15:04:05.000",
                "Feb  4 21:00:57.012",
                "0000-02-04 21:00:57.012 +0000 UTC",
            ),
            ("3:04PM", "9:00PM", "0000-01-01 21:00:00 +0000 UTC"),
            (
                "2006-01-02 MST",
                "2010-02-04 GMT-5",
                "2010-02-03 19:00:00 -0500 GMT-5",
            ),
            (
                "02 Jan 06 15:04:05 MST",
                "13 Jun 19 20:39:39 GMT",
                "2019-06-13 20:39:39 +0000 GMT",
            ),
        ];
        for (layout, value, want) in cases {
            assert_eq!(
                parse_err(layout, value),
                format!("OK {want}"),
                "{layout:?} {value:?}"
            );
        }
        let t = parse_in_local("02 Jan 06 15:04:05 MST", "13 Jun 19 20:39:39 GMT").unwrap();
        assert_eq!(t.unix_sec(), 1_560_458_379);
    }

    // Go time/time_test.go TestDurationString's durationTests, negated too.
    #[test]
    fn duration_prints_as_go_s_duration_tests() {
        let cases = [
            ("0s", 0),
            ("1ns", 1),
            ("1.1µs", 1_100),
            ("2.2ms", 2_200_000),
            ("3.3s", 3_300_000_000),
            ("4m5s", 245_000_000_000),
            ("4m5.001s", 245_001_000_000),
            ("5h6m7.001s", 18_367_001_000_000),
            ("8m0.000000001s", 480_000_000_001),
            ("2562047h47m16.854775807s", i64::MAX),
            ("-2562047h47m16.854775808s", i64::MIN),
        ];
        for (text, d) in cases {
            assert_eq!(duration_string(d), text);
            if d > 0 {
                assert_eq!(duration_string(-d), format!("-{text}"));
            }
        }
    }

    // Go time/time_test.go TestParseDuration's parseDurationTests and TestParseDurationErrors.
    #[test]
    fn parses_durations_as_go_s_tests() {
        const S: i64 = 1_000_000_000;
        let cases = [
            ("0", 0),
            ("5s", 5 * S),
            ("-5s", -5 * S),
            ("+5s", 5 * S),
            ("-0", 0),
            ("5.6s", 5 * S + 600_000_000),
            ("5.s", 5 * S),
            (".5s", S / 2),
            ("100.00100s", 100 * S + 1_000_000),
            ("11us", 11_000),
            ("12µs", 12_000),
            ("12μs", 12_000),
            ("16h", 16 * 3600 * S),
            ("10.5s4m", 250 * S + S / 2),
            ("-2m3.4s", -(123 * S + 400_000_000)),
            ("1h2m3s4ms5us6ns", 3723 * S + 4_005_006),
            ("0.3333333333333333333h", 1200 * S),
            ("9007199254740993ns", (1 << 53) + 1),
            ("9223372036854775807ns", i64::MAX),
            ("9223372036854775.807us", i64::MAX),
            ("9223372036s854ms775us807ns", i64::MAX),
            ("-9223372036854775808ns", i64::MIN),
            ("-2562047h47m16.854775808s", i64::MIN),
            ("0.100000000000000000000h", 360 * S),
            ("0.830103483285477580700h", 2988 * S + 372_539_827),
        ];
        for (text, want) in cases {
            assert_eq!(parse_duration(text), Ok(want), "{text}");
        }
        let errors = [
            ("", r#""""#),
            ("3", r#""3""#),
            ("-", r#""-""#),
            (".", r#"".""#),
            ("+.s", r#""+.s""#),
            ("1d", r#""1d""#),
            ("\u{FFFD}", r#""\xef\xbf\xbd""#),
            ("9223372036854775808ns", r#""9223372036854775808ns""#),
            ("-9223372036854775809ns", r#""-9223372036854775809ns""#),
            ("3000000h", r#""3000000h""#),
            ("9223372036854775.808us", r#""9223372036854775.808us""#),
            (
                "9223372036854ms775us808ns",
                r#""9223372036854ms775us808ns""#,
            ),
        ];
        for (text, want) in errors {
            let error = parse_duration(text).expect_err(text);
            assert!(error.contains(want), "{text}: {error}");
        }
        assert_eq!(
            parse_duration("1d"),
            Err(r#"time: unknown unit "d" in duration "1d""#.to_string())
        );
    }

    // Go's LoadLocation: file names are matched exactly, `..` and a leading slash refused.
    #[test]
    fn loads_zones_as_go_does() {
        assert!(Zone::load("america/new_york").is_none());
        assert!(Zone::load("../etc/passwd").is_none());
        assert!(Zone::load("/UTC").is_none());
        assert!(matches!(Zone::load(""), Some(Zone::Utc)));
        assert!(matches!(Zone::load("Local"), Some(Zone::Local)));
        let kolkata = Zone::load("Asia/Kolkata").expect("Asia/Kolkata");
        assert_eq!(
            GoTime::unix(0).in_zone(kolkata).string(),
            "1970-01-01 05:30:00 +0530 IST"
        );
    }
}
