//! The cron schedules of CronFederatedHPA rules, read twice as Karmada reads them: once by the
//! CronFederatedHPA webhook, which admits a schedule gronx takes (karmada
//! pkg/webhook/cronfederatedhpa/validating.go `validateCronFederatedHPARules`, vendor
//! github.com/adhocore/gronx `IsValid`), and once by the controller, which runs it through
//! gocron's `Cron`, that is robfig/cron's `ParseStandard` (karmada
//! pkg/controllers/cronfederatedhpa/cronfederatedhpa_handler.go `CreateCronJobForExecutor`,
//! vendor github.com/go-co-op/gocron scheduler.go `cron`). The two grammars differ: a schedule
//! the webhook admits and robfig refuses (six fields, `L`, `W`, `#`, a weekday 7, `@always`)
//! is stored and never fires. The time a rule last fired follows robfig's `SpecSchedule.Next`:
//! a wall-clock time a daylight-saving gap skips never fires, one a fold repeats fires twice.

use jiff::civil::{Date, DateTime};
use jiff::tz::{AmbiguousOffset, TimeZone};
use jiff::{Timestamp, tz::TimeZoneDatabase};

/// How the webhook and the controller take a schedule the webhook admits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Admitted {
    /// robfig parses it: it fires.
    Fires(Schedule),
    /// robfig refuses it (its words): the rule is stored and never fires.
    NeverFires(String),
}

/// A five-field schedule as robfig's bits: minute, hour, day of month, month, day of week, and
/// whether the day fields were `*` or `?` (robfig's star bit), which decides how they combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Schedule {
    minute: u64,
    hour: u64,
    day_of_month: u64,
    month: u64,
    day_of_week: u64,
    day_of_month_star: bool,
    day_of_week_star: bool,
}

/// What the webhook says of `expression`: `Err` where it refuses it ("invalid cron format").
pub(crate) fn admit(expression: &str) -> Result<Admitted, String> {
    gronx_valid(expression)?;
    Ok(match parse_standard(expression) {
        Ok(schedule) => Admitted::Fires(schedule),
        Err(problem) => Admitted::NeverFires(problem),
    })
}

/// gronx's descriptors, by lower-case name (gronx.go `expressions`).
const GRONX_DESCRIPTORS: &[(&str, &str)] = &[
    ("@yearly", "0 0 1 1 *"),
    ("@annually", "0 0 1 1 *"),
    ("@monthly", "0 0 1 * *"),
    ("@weekly", "0 0 * * 0"),
    ("@daily", "0 0 * * *"),
    ("@hourly", "0 * * * *"),
    ("@always", "* * * * *"),
    ("@5minutes", "*/5 * * * *"),
    ("@10minutes", "*/10 * * * *"),
    ("@15minutes", "*/15 * * * *"),
    ("@30minutes", "0,30 * * * *"),
    ("@everysecond", "* * * * * *"),
];

const GRONX_LITERALS: &[(&str, &str)] = &[
    ("SUN", "0"),
    ("MON", "1"),
    ("TUE", "2"),
    ("WED", "3"),
    ("THU", "4"),
    ("FRI", "5"),
    ("SAT", "6"),
    ("JAN", "1"),
    ("FEB", "2"),
    ("MAR", "3"),
    ("APR", "4"),
    ("MAY", "5"),
    ("JUN", "6"),
    ("JUL", "7"),
    ("AUG", "8"),
    ("SEP", "9"),
    ("OCT", "10"),
    ("NOV", "11"),
    ("DEC", "12"),
];

/// Go's `strconv.Atoi`: an optional sign, then ASCII digits.
fn atoi(text: &str) -> Result<i64, String> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("invalid syntax: {text:?}"));
    }
    text.parse::<i64>()
        .map_err(|_| format!("out of range: {text:?}"))
}

/// gronx `IsValid`: 5 to 7 fields (seconds put first when five, or six ending in a year), each
/// offset of each field checked. gronx checks a field's offsets against the current time and
/// stops at the first that is due, so a later bad offset passes at some moments; fedrender,
/// which reads no clock, checks every offset, as the webhook does at almost every moment.
fn gronx_valid(expression: &str) -> Result<(), String> {
    let trimmed = expression.trim_matches([' ', '\t']);
    let lower = trimmed.to_lowercase();
    let expanded = GRONX_DESCRIPTORS
        .iter()
        .find(|(name, _)| *name == lower)
        .map_or(trimmed, |(_, expansion)| expansion);
    let mut text = expanded
        .split(|c: char| c.is_whitespace())
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
        .to_uppercase();
    for (literal, number) in GRONX_LITERALS {
        text = text.replace(literal, number);
    }
    let mut segments: Vec<&str> = if text.is_empty() {
        vec![""]
    } else {
        text.split(' ').collect()
    };
    if !(5..=7).contains(&segments.len()) {
        return Err("expr should contain 5-7 segments separated by space".to_string());
    }
    let year_like = |segment: &str| {
        segment
            .as_bytes()
            .windows(4)
            .any(|w| w.iter().all(u8::is_ascii_digit))
    };
    if segments.len() == 5 || (segments.len() == 6 && year_like(segments[5])) {
        segments.insert(0, "0");
    }
    for (position, segment) in segments.iter().enumerate() {
        gronx_segment(segment, position)?;
    }
    Ok(())
}

/// gronx `boundsByPos`.
fn gronx_bounds(position: usize) -> (i64, i64) {
    match position {
        0 | 1 => (0, 59),
        2 => (0, 23),
        3 => (1, 31),
        4 => (1, 12),
        5 => (0, 7),
        6 => (1, 9999),
        _ => (0, 0),
    }
}

/// gronx `SegmentChecker.CheckDue`'s errors, for one field.
fn gronx_segment(segment: &str, position: usize) -> Result<(), String> {
    let (day_of_month, day_of_week) = (position == 3, position == 5);
    for offset in segment.split(',') {
        let special = (day_of_month || day_of_week) && offset.contains(['L', 'W', '#']);
        match gronx_offset(offset, position) {
            Ok(()) => continue,
            Err(problem) if !special => return Err(problem),
            Err(_) => {}
        }
        if day_of_month {
            if offset == "L" {
                continue;
            }
            let Some(at) = offset.find('W').filter(|&at| at >= 1) else {
                return Err(format!("invalid offset value: {offset}"));
            };
            atoi(&offset[..at])?;
        } else {
            let offset = offset.replace("7L", "0L");
            if let Some(at) = offset.find('L').filter(|&at| at > 0) {
                atoi(&offset[..at])?;
                continue;
            }
            let offset = offset.replace("7#", "0#");
            let parts: Vec<&str> = offset.split('#').collect();
            if offset.find('#').is_none_or(|at| at < 1) || parts.len() < 2 {
                return Err(format!("invalid offset value: {offset}"));
            }
            atoi(parts[0])?;
            atoi(parts[1])?;
        }
    }
    Ok(())
}

/// gronx `isOffsetDue`'s errors (`inStep`, `inRange`, the plain number's bounds).
fn gronx_offset(offset: &str, position: usize) -> Result<(), String> {
    if offset == "*" || offset == "?" {
        return Ok(());
    }
    let (low, high) = gronx_bounds(position);
    let day_of_week = position == 5;
    if offset.contains('/') {
        let parts: Vec<&str> = offset.split('/').collect();
        if atoi(parts[1])? == 0 {
            return Err("step can't be 0".to_string());
        }
        if offset.starts_with("*/") || offset.starts_with("0/") {
            return Ok(());
        }
        let bounds: Vec<&str> = parts[0].split('-').collect();
        let start = atoi(bounds[0])?;
        // Without an end gronx compares the current value, always within bounds.
        let end = match bounds.get(1) {
            Some(end) => Some(atoi(end)?),
            None => None,
        };
        if end.is_some_and(|end| end < start) || start < low || end.is_some_and(|end| end > high) {
            return Err(format!("step '{}' out of bounds({low}, {high})", parts[0]));
        }
        return Ok(());
    }
    if offset.contains('-') {
        let offset = if day_of_week {
            offset.replacen("7-", "0-", 1)
        } else {
            offset.to_string()
        };
        let parts: Vec<&str> = offset.split('-').collect();
        let (start, end) = (atoi(parts[0])?, atoi(parts[1])?);
        if end < start || start < low || end > high {
            return Err(format!("range '{offset}' out of bounds({low}, {high})"));
        }
        return Ok(());
    }
    // gronx takes a lone 0 outside the weekday field without a look at its bounds.
    if !day_of_week && offset == "0" {
        return Ok(());
    }
    let number = atoi(offset)?;
    if number < low || number > high {
        return Err(format!(
            "segment#{position}: '{offset}' out of bounds({low}, {high})"
        ));
    }
    Ok(())
}

const STAR: u64 = 1 << 63;

/// robfig's field bounds, with the names each takes.
struct Bounds {
    low: u32,
    high: u32,
    names: &'static [(&'static str, u32)],
}

const MINUTES: Bounds = Bounds {
    low: 0,
    high: 59,
    names: &[],
};
const HOURS: Bounds = Bounds {
    low: 0,
    high: 23,
    names: &[],
};
const DAYS_OF_MONTH: Bounds = Bounds {
    low: 1,
    high: 31,
    names: &[],
};
const MONTHS: Bounds = Bounds {
    low: 1,
    high: 12,
    names: &[
        ("jan", 1),
        ("feb", 2),
        ("mar", 3),
        ("apr", 4),
        ("may", 5),
        ("jun", 6),
        ("jul", 7),
        ("aug", 8),
        ("sep", 9),
        ("oct", 10),
        ("nov", 11),
        ("dec", 12),
    ],
};
const DAYS_OF_WEEK: Bounds = Bounds {
    low: 0,
    high: 6,
    names: &[
        ("sun", 0),
        ("mon", 1),
        ("tue", 2),
        ("wed", 3),
        ("thu", 4),
        ("fri", 5),
        ("sat", 6),
    ],
};

fn bits(low: u32, high: u32, step: u32) -> u64 {
    (low..=high)
        .step_by(step as usize)
        .fold(0, |bits, at| bits | 1 << at)
}

fn all(bounds: &Bounds) -> u64 {
    bits(bounds.low, bounds.high, 1) | STAR
}

/// robfig/cron v3 `ParseStandard` (parser.go): five fields or a descriptor; the controller's
/// own time zone prefix is gocron's, and a schedule of its own with `TZ=` never gets here (the
/// webhook refuses it).
fn parse_standard(expression: &str) -> Result<Schedule, String> {
    if expression.is_empty() {
        return Err("empty spec string".to_string());
    }
    if expression.starts_with('@') {
        let (minute, hour) = (1 << MINUTES.low, 1 << HOURS.low);
        let schedule = |day_of_month, month, day_of_week, hour| Schedule {
            minute,
            hour,
            day_of_month,
            month,
            day_of_week,
            day_of_month_star: day_of_month & STAR != 0,
            day_of_week_star: day_of_week & STAR != 0,
        };
        let first_day = 1 << DAYS_OF_MONTH.low;
        return match expression {
            "@yearly" | "@annually" => Ok(schedule(
                first_day,
                1 << MONTHS.low,
                all(&DAYS_OF_WEEK),
                hour,
            )),
            "@monthly" => Ok(schedule(first_day, all(&MONTHS), all(&DAYS_OF_WEEK), hour)),
            "@weekly" => Ok(schedule(
                all(&DAYS_OF_MONTH),
                all(&MONTHS),
                1 << DAYS_OF_WEEK.low,
                hour,
            )),
            "@daily" | "@midnight" => Ok(schedule(
                all(&DAYS_OF_MONTH),
                all(&MONTHS),
                all(&DAYS_OF_WEEK),
                hour,
            )),
            "@hourly" => Ok(schedule(
                all(&DAYS_OF_MONTH),
                all(&MONTHS),
                all(&DAYS_OF_WEEK),
                all(&HOURS),
            )),
            other if other.starts_with("@every ") => Err(format!(
                "@every runs at a fixed delay from the controller's start, which fedrender cannot know: {other}"
            )),
            other => Err(format!("unrecognized descriptor: {other}")),
        };
    }
    let fields: Vec<&str> = expression.split_whitespace().collect();
    if fields.len() != 5 {
        return Err(format!(
            "expected exactly 5 fields, found {}: [{}]",
            fields.len(),
            fields.join(" ")
        ));
    }
    let minute = field(fields[0], &MINUTES)?;
    let hour = field(fields[1], &HOURS)?;
    let day_of_month = field(fields[2], &DAYS_OF_MONTH)?;
    let month = field(fields[3], &MONTHS)?;
    let day_of_week = field(fields[4], &DAYS_OF_WEEK)?;
    Ok(Schedule {
        minute,
        hour,
        day_of_month,
        month,
        day_of_week,
        day_of_month_star: day_of_month & STAR != 0,
        day_of_week_star: day_of_week & STAR != 0,
    })
}

/// robfig `getField`: comma-separated ranges, empty ones dropped.
fn field(text: &str, bounds: &Bounds) -> Result<u64, String> {
    let mut set = 0;
    for range in text.split(',').filter(|range| !range.is_empty()) {
        set |= range_bits(range, bounds)?;
    }
    Ok(set)
}

/// robfig `parseIntOrName` and `mustParseInt`.
fn number_or_name(text: &str, bounds: &Bounds) -> Result<u32, String> {
    let lower = text.to_lowercase();
    if let Some((_, number)) = bounds.names.iter().find(|(name, _)| *name == lower) {
        return Ok(*number);
    }
    let number =
        atoi(text).map_err(|_| format!("failed to parse int from {text}: invalid syntax"))?;
    if number < 0 {
        return Err(format!("negative number ({number}) not allowed: {text}"));
    }
    u32::try_from(number).map_err(|_| format!("failed to parse int from {text}: out of range"))
}

/// robfig `getRange`: `*`, `?`, a number or name, `a-b`, each with an optional `/step`.
fn range_bits(expression: &str, bounds: &Bounds) -> Result<u64, String> {
    let range_and_step: Vec<&str> = expression.split('/').collect();
    let low_and_high: Vec<&str> = range_and_step[0].split('-').collect();
    let single = low_and_high.len() == 1;
    let (start, mut end, mut extra);
    if low_and_high[0] == "*" || low_and_high[0] == "?" {
        (start, end, extra) = (bounds.low, bounds.high, STAR);
    } else {
        start = number_or_name(low_and_high[0], bounds)?;
        end = match low_and_high.len() {
            1 => start,
            2 => number_or_name(low_and_high[1], bounds)?,
            _ => return Err(format!("too many hyphens: {expression}")),
        };
        extra = 0;
    }
    let step = match range_and_step.len() {
        1 => 1,
        2 => {
            let step = number_or_name(range_and_step[1], &MINUTES_NO_NAMES)?;
            if single {
                end = bounds.high;
            }
            if step > 1 {
                extra = 0;
            }
            step
        }
        _ => return Err(format!("too many slashes: {expression}")),
    };
    if start < bounds.low {
        return Err(format!(
            "beginning of range ({start}) below minimum ({}): {expression}",
            bounds.low
        ));
    }
    if end > bounds.high {
        return Err(format!(
            "end of range ({end}) above maximum ({}): {expression}",
            bounds.high
        ));
    }
    if start > end {
        return Err(format!(
            "beginning of range ({start}) beyond end of range ({end}): {expression}"
        ));
    }
    if step == 0 {
        return Err(format!(
            "step of range should be a positive number: {expression}"
        ));
    }
    Ok(bits(start, end, step) | extra)
}

/// A step is a plain number (robfig `mustParseInt`): no names.
const MINUTES_NO_NAMES: Bounds = Bounds {
    low: 0,
    high: u32::MAX,
    names: &[],
};

impl Schedule {
    /// robfig `dayMatches`: with either day field a star both must match, else either.
    fn day_matches(&self, date: Date) -> bool {
        let day_of_month = self.day_of_month & 1 << date.day() != 0;
        let day_of_week = self.day_of_week & 1 << date.weekday().to_sunday_zero_offset() != 0;
        if self.day_of_month_star || self.day_of_week_star {
            day_of_month && day_of_week
        } else {
            day_of_month || day_of_week
        }
    }

    /// The last time at or before `at` the schedule fires in `zone`, looking back as far as
    /// robfig looks ahead (five years); `None` when it did not fire in that time.
    pub(crate) fn last_at_or_before(&self, at: Timestamp, zone: &TimeZone) -> Option<Timestamp> {
        let local = zone.to_datetime(at);
        let mut day = local.date();
        let mut found: Option<Timestamp> = None;
        // A day's times may come after the next day's around an offset change: once a day has
        // one, the day before is looked at too.
        let mut days_after_found = 0;
        for _ in 0..(5 * 366 + 2) {
            if self.month & 1 << day.month() != 0 && self.day_matches(day) {
                for hour in (0..24i8).rev().filter(|&h| self.hour & 1 << h != 0) {
                    for minute in (0..60i8).rev().filter(|&m| self.minute & 1 << m != 0) {
                        let Ok(wall) =
                            DateTime::new(day.year(), day.month(), day.day(), hour, minute, 0, 0)
                        else {
                            continue;
                        };
                        for instant in instants(zone, wall) {
                            if instant <= at && found.is_none_or(|best| instant > best) {
                                found = Some(instant);
                            }
                        }
                    }
                }
            }
            if found.is_some() {
                days_after_found += 1;
                if days_after_found > 1 {
                    break;
                }
            }
            day = day.yesterday().ok()?;
        }
        found
    }
}

/// The instants a wall-clock time stands for in `zone`: none in a gap, two in a fold.
fn instants(zone: &TimeZone, wall: DateTime) -> Vec<Timestamp> {
    let offsets = match zone.to_ambiguous_timestamp(wall).offset() {
        AmbiguousOffset::Unambiguous { offset } => vec![offset],
        AmbiguousOffset::Gap { .. } => Vec::new(),
        AmbiguousOffset::Fold { before, after } => vec![before, after],
    };
    offsets
        .into_iter()
        .filter_map(|offset| offset.to_timestamp(wall).ok())
        .collect()
}

/// The IANA time zone database fedrender carries (the engine reads none from the machine).
fn database() -> &'static TimeZoneDatabase {
    static DATABASE: std::sync::OnceLock<TimeZoneDatabase> = std::sync::OnceLock::new();
    DATABASE.get_or_init(TimeZoneDatabase::bundled)
}

/// Go's `time.LoadLocation`, as the webhook and the controller call it: `""` and `UTC` are
/// UTC, `Local` the controller's own zone (`None`), any other name must be in the IANA
/// database exactly as written.
pub(crate) fn load_location(name: &str) -> Result<Option<TimeZone>, String> {
    match name {
        "" | "UTC" => return Ok(Some(TimeZone::UTC)),
        "Local" => return Ok(None),
        _ => {}
    }
    let unknown = || format!("unknown time zone {name}");
    let zone = database().get(name).map_err(|_| unknown())?;
    // Go's embedded database is case-sensitive; jiff's lookup is not.
    if zone.iana_name() != Some(name) {
        return Err(unknown());
    }
    Ok(Some(zone))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fires(expression: &str) -> Schedule {
        match admit(expression) {
            Ok(Admitted::Fires(schedule)) => schedule,
            other => panic!("{expression}: {other:?}"),
        }
    }

    fn at(text: &str) -> Timestamp {
        text.parse().unwrap()
    }

    /// karmada pkg/webhook/cronfederatedhpa/validating_test.go: "0 0 * * *" and descriptors
    /// pass; gronx `IsValid` refuses a wrong field count, bounds and bad steps.
    #[test]
    fn the_webhook_refuses_what_gronx_refuses() {
        for good in [
            "0 0 * * *",
            "*/5 9-17 * * MON-FRI",
            "@daily",
            "@HOURLY",
            "0 9 1,15 * *",
            "30 6 * JAN,JUL sun",
        ] {
            assert!(admit(good).is_ok(), "{good}");
        }
        for bad in [
            "",
            "* * * *",
            "60 * * * *",
            "0 24 * * *",
            "*/0 * * * *",
            "0 0 32 * *",
            "0 0 * 13 *",
            "0 0 * * 8",
            "a b c d e",
            "@every 1h",
            "@midnight",
            "CRON_TZ=UTC 0 9 * * *",
            "5-1 * * * *",
        ] {
            assert!(admit(bad).is_err(), "{bad:?}: {:?}", admit(bad));
        }
    }

    /// What gronx admits and robfig/cron `ParseStandard` refuses is stored and never fires
    /// (gocron's `Cron` then fails the job, cronfederatedhpa_handler.go).
    #[test]
    fn a_schedule_robfig_refuses_is_admitted_but_never_fires() {
        for never in [
            "0 0 9 * * *",
            "0 0 L * *",
            "0 0 * * 5L",
            "0 0 * * 7",
            "@always",
            "@YEARLY",
            "0 0 0 * *",
        ] {
            assert!(
                matches!(admit(never), Ok(Admitted::NeverFires(_))),
                "{never}: {:?}",
                admit(never)
            );
        }
    }

    /// robfig/cron spec_test.go `TestNext`-like cases, run backwards: the last firing at or
    /// before a moment.
    #[test]
    fn the_last_firing_is_found_in_the_rules_zone() {
        let utc = TimeZone::UTC;
        let weekdays = fires("0 9 * * 1-5");
        // Wednesday 2026-12-02 10:00 UTC: today 09:00.
        assert_eq!(
            weekdays.last_at_or_before(at("2026-12-02T10:00:00Z"), &utc),
            Some(at("2026-12-02T09:00:00Z"))
        );
        // At the minute itself: it has fired.
        assert_eq!(
            weekdays.last_at_or_before(at("2026-12-02T09:00:00Z"), &utc),
            Some(at("2026-12-02T09:00:00Z"))
        );
        // Sunday 2026-12-06: Friday's.
        assert_eq!(
            weekdays.last_at_or_before(at("2026-12-06T12:00:00Z"), &utc),
            Some(at("2026-12-04T09:00:00Z"))
        );
        // 09:00 in Berlin (UTC+1 in December) is 08:00 UTC.
        let berlin = load_location("Europe/Berlin").unwrap().unwrap();
        assert_eq!(
            weekdays.last_at_or_before(at("2026-12-02T08:30:00Z"), &berlin),
            Some(at("2026-12-02T08:00:00Z"))
        );
        // Either day field restricted: either matches (robfig `dayMatches`).
        let first_or_monday = fires("0 0 1 * 1");
        assert_eq!(
            first_or_monday.last_at_or_before(at("2026-12-02T00:00:00Z"), &utc),
            Some(at("2026-12-01T00:00:00Z"))
        );
        assert_eq!(
            first_or_monday.last_at_or_before(at("2026-11-30T12:00:00Z"), &utc),
            Some(at("2026-11-30T00:00:00Z"))
        );
        // February 30th never comes.
        assert_eq!(
            fires("0 0 30 2 *").last_at_or_before(at("2026-12-02T00:00:00Z"), &utc),
            None
        );
    }

    /// robfig spec.go `Next`: a wall-clock time in a spring-forward gap never fires; one in a
    /// fall-back fold fires at both instants.
    #[test]
    fn daylight_saving_gaps_skip_and_folds_repeat() {
        let new_york = load_location("America/New_York").unwrap().unwrap();
        // 2026-03-08 02:30 does not exist in New York: the day before's.
        assert_eq!(
            fires("30 2 * * *").last_at_or_before(at("2026-03-08T12:00:00Z"), &new_york),
            Some(at("2026-03-07T07:30:00Z"))
        );
        // 2026-11-01 01:30 comes twice: EDT (05:30Z), then EST (06:30Z).
        let fold = fires("30 1 * * *");
        assert_eq!(
            fold.last_at_or_before(at("2026-11-01T06:00:00Z"), &new_york),
            Some(at("2026-11-01T05:30:00Z"))
        );
        assert_eq!(
            fold.last_at_or_before(at("2026-11-01T07:00:00Z"), &new_york),
            Some(at("2026-11-01T06:30:00Z"))
        );
    }

    /// Go `time.LoadLocation`: exact IANA names, `""` and `UTC`, `Local`.
    #[test]
    fn time_zones_load_as_go_loads_them() {
        assert!(load_location("Asia/Shanghai").unwrap().is_some());
        assert!(load_location("").unwrap().is_some());
        assert!(load_location("Local").unwrap().is_none());
        assert!(load_location("asia/shanghai").is_err());
        assert!(load_location("Mars/Olympus").is_err());
    }
}
