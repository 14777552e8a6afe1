#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The time a revision was made, as its events carry it: ISO 8601 in UTC with milliseconds
/// (`2026-12-05T05:09:07.123Z`), read from the wall clock when the revision is journaled and
/// stored with its events, so a history read or a restart gives the same text.
enum EventTime {
    /// The wall clock now, in milliseconds since 1970-01-01T00:00:00Z.
    static func nowMilliseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }

    /// `milliseconds` since the epoch as `YYYY-MM-DDTHH:MM:SS.mmmZ` (proleptic Gregorian
    /// calendar; years 0…9999). O(1): the civil date from the day count, by Howard Hinnant's
    /// `civil_from_days` arithmetic, with no table and no time zone database.
    static func text(milliseconds: Int64) -> String {
        let days = milliseconds >= 0 ? milliseconds / 86_400_000 : (milliseconds - 86_399_999) / 86_400_000
        let inDay = milliseconds - days * 86_400_000
        // Days since 0000-03-01, split into 400-year eras.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func digits(_ value: Int64, _ count: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, count - text.count)) + text
        }
        return digits(year, 4) + "-" + digits(month, 2) + "-" + digits(day, 2) + "T" + digits(inDay / 3_600_000, 2) + ":"
            + digits(inDay / 60_000 % 60, 2) + ":" + digits(inDay / 1000 % 60, 2) + "." + digits(inDay % 1000, 3) + "Z"
    }
}
