//! INK's timestamp grammar: an RFC 3339 date-time, strictly — `T` and `Z` in uppercase, a
//! zone always given, no leap second, at most 64 characters — read as whole milliseconds
//! since the epoch (further fraction digits are cut, so instants before the epoch floor).

use super::InkError;

/// The longest timestamp accepted, in characters.
pub const MAX_LEN: usize = 64;

fn bad(why: &str) -> InkError {
    InkError::new("timestamp", format!("not an INK timestamp: {why}"))
}

struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn digits(&mut self, n: usize, what: &str) -> Result<i64, InkError> {
        let mut value = 0i64;
        for _ in 0..n {
            match self.bytes.get(self.at) {
                Some(b) if b.is_ascii_digit() => value = value * 10 + i64::from(b - b'0'),
                _ => return Err(bad(&format!("{what} needs {n} digits"))),
            }
            self.at += 1;
        }
        Ok(value)
    }

    /// Steps over `c`, or says that `what` was expected here.
    fn require(&mut self, c: u8, what: &str) -> Result<(), InkError> {
        if self.bytes.get(self.at) == Some(&c) {
            self.at += 1;
            Ok(())
        } else {
            Err(bad(&format!("expected {what}")))
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }
}

fn leap(year: i64) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days from 1970-01-01 to the given civil date (proleptic Gregorian).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Parses an INK timestamp into milliseconds since the epoch.
pub fn parse(text: &str) -> Result<i64, InkError> {
    if text.is_empty() {
        return Err(bad("it is empty"));
    }
    if text.chars().count() > MAX_LEN {
        return Err(bad(&format!("longer than {MAX_LEN} characters")));
    }
    let mut c = Cursor {
        bytes: text.as_bytes(),
        at: 0,
    };
    let year = c.digits(4, "the year")?;
    c.require(b'-', "'-' after the year")?;
    let month = c.digits(2, "the month")?;
    c.require(b'-', "'-' after the month")?;
    let day = c.digits(2, "the day")?;
    c.require(b'T', "an uppercase 'T' between date and time")?;
    let hour = c.digits(2, "the hour")?;
    c.require(b':', "':' after the hour")?;
    let minute = c.digits(2, "the minute")?;
    c.require(b':', "':' after the minute")?;
    let second = c.digits(2, "the second")?;
    if !(1..=12).contains(&month) {
        return Err(bad("the month is not 01-12"));
    }
    if day < 1 || day > days_in_month(year, month) {
        return Err(bad("the day does not exist in that month"));
    }
    if hour > 23 || minute > 59 || second > 59 {
        return Err(bad(
            "the time of day is out of range (no hour 24, no leap second)",
        ));
    }
    let mut millis = 0i64;
    if c.peek() == Some(b'.') {
        c.at += 1;
        let start = c.at;
        while c.peek().is_some_and(|b| b.is_ascii_digit()) {
            if c.at - start < 3 {
                millis = millis * 10 + i64::from(c.peek().unwrap_or(b'0') - b'0');
            }
            c.at += 1;
        }
        let digits = c.at - start;
        if digits == 0 {
            return Err(bad("a '.' needs fraction digits"));
        }
        for _ in digits..3 {
            millis *= 10;
        }
    }
    let offset_minutes = match c.peek() {
        Some(b'Z') => {
            c.at += 1;
            0
        }
        Some(sign @ (b'+' | b'-')) => {
            c.at += 1;
            let h = c.digits(2, "the offset hour")?;
            c.require(b':', "':' in the offset")?;
            let m = c.digits(2, "the offset minute")?;
            if h > 23 || m > 59 {
                return Err(bad("the offset is out of range"));
            }
            let total = h * 60 + m;
            if sign == b'-' {
                -total
            } else {
                total
            }
        }
        _ => return Err(bad("a zone ('Z' or ±HH:MM) is required")),
    };
    if c.at != text.len() {
        return Err(bad("unexpected characters after the zone"));
    }
    let days = days_from_civil(year, month, day);
    let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offset_minutes * 60;
    Ok(seconds * 1_000 + millis)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_epoch_and_a_leap_day() {
        assert_eq!(parse("1970-01-01T00:00:00Z"), Ok(0));
        // 2024-02-29 is day 19782 after the epoch (Python: date(2024,2,29) - date(1970,1,1)).
        assert_eq!(parse("2024-02-29T00:00:00Z"), Ok(19_782 * 86_400_000));
        assert_eq!(
            parse("2026-06-11T00:00:00.5-00:30"),
            parse("2026-06-11T00:30:00.500Z")
        );
        assert!(parse("2026-06-11T00:00:00.Z").is_err());
    }
}
