#!/usr/bin/env python3
"""Checks OpenEventKit's iCalendar import and export against two Python implementations.

For each .ics fixture: `ekctl import` it into a fresh store, list the occurrences of a few
windows with `ekctl events --json`, and compare them with what the `recurring-ical-events`
package computes for the same file and windows. Then `ekctl export` the calendar and read the
export with the `icalendar` package: it must parse, hold the same items (by UID), and give
recurring-ical-events the same occurrences as the original.

With --corpus it also checks every .ics file recurring-ical-events ships for its own tests
(real-world files from Google, Outlook, Confluence, Thunderbird…), from the installed
package; KNOWN_DEPARTURES lists the few it reads differently on purpose, with the reason.

Floating times are read with TZ=UTC on both sides. Exit status 1 on any difference.
"""
import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile

import icalendar
import recurring_ical_events

UTC = datetime.timezone.utc

# Files of recurring-ical-events' own test corpus (--corpus) where OpenEventKit reads the
# file differently on purpose, each with the reason (docs/ICalendar.md).
KNOWN_DEPARTURES = {
    "bad_rrule_missing_until_event.ics":
        "an unknown rule part (UNTL) is an error naming the line; recurring-ical-events raises too",
    "issue_201_test_matrix.ics": "END:VTOOD does not close BEGIN:VTODO: an error naming the line",
    "issue_201_mixed_datetime_and_date.ics":
        "a DATE start with a DATE-TIME end is an all-day event, as EventKit has no other kind",
    "issue_75_range_parameter.ics":
        "UNTIL=20250920 (a DATE) on a DATE-TIME series lasts through that day (docs/Recurrence.md);"
        " dateutil ends it as the day begins, so the last instance differs",
    "multiple_rrule.ics":
        "DTSTART counts toward each rule's COUNT (RFC 5545 3.8.5.3); dateutil does not count it",
}


def text(value, all_day):
    """A start or end as `ekctl events --json` writes it."""
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            return value.strftime("%Y-%m-%dT%H:%M:%S")
        return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return value.strftime("%Y-%m-%d")


def expected(calendar, start, end):
    """(title, start, end) of each occurrence recurring-ical-events finds in [start, end)."""
    result = []
    for event in recurring_ical_events.of(calendar).between(start, end):
        begin = event["DTSTART"].dt
        finish = event["DTEND"].dt if "DTEND" in event else None
        all_day = not isinstance(begin, datetime.datetime)
        if finish is None:
            duration = event.get("DURATION")
            if duration is not None:
                finish = begin + duration.dt
            else:
                finish = begin + datetime.timedelta(days=1) if all_day else begin
        if all_day and finish <= begin:
            finish = begin + datetime.timedelta(days=1)  # the leniency OpenEventKit documents
        result.append((str(event.get("SUMMARY", "")), text(begin, all_day), text(finish, all_day)))
    return sorted(result)


def actual(ekctl, database, calendar_title, start, end):
    result = subprocess.run(
        [ekctl, "events", "--db", database, "--json", "--calendar", calendar_title,
         "--from", start.strftime("%Y-%m-%dT%H:%M:%SZ"), "--to", end.strftime("%Y-%m-%dT%H:%M:%SZ")],
        capture_output=True, text=True, env=dict(os.environ, TZ="UTC"))
    if result.returncode != 0 and "no calendar titled" in result.stderr:
        return []  # a file without events makes no event calendar
    result.check_returncode()
    output = result.stdout
    lines = [json.loads(line) for line in output.splitlines() if line.strip()]
    return sorted((line["title"] or "", line["start"], line["end"]) for line in lines)


def windows_for(calendar):
    """Three windows from the start of the year of the earliest DTSTART: the first half
    year, the second, and the two years after."""
    starts = []
    for component in calendar.walk():
        if component.name in ("VEVENT", "VTODO") and "DTSTART" in component:
            value = component["DTSTART"].dt
            starts.append(value.year)
    year = min(starts) if starts else 2025
    points = [datetime.datetime(year, 1, 1, tzinfo=UTC), datetime.datetime(year, 7, 1, tzinfo=UTC),
              datetime.datetime(year + 1, 1, 1, tzinfo=UTC), datetime.datetime(year + 3, 1, 1, tzinfo=UTC)]
    return list(zip(points, points[1:]))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ekctl", required=True)
    parser.add_argument(
        "--corpus", action="store_true",
        help="also check the real-world files recurring-ical-events ships for its own tests")
    parser.add_argument("fixtures", nargs="*")
    arguments = parser.parse_args()
    if arguments.corpus:
        folder = os.path.join(os.path.dirname(recurring_ical_events.__file__), "test", "calendars")
        if os.path.isdir(folder):
            arguments.fixtures += sorted(
                os.path.join(folder, name) for name in os.listdir(folder) if name.endswith(".ics"))
    departures = 0
    failures = 0
    checked = 0
    for path in arguments.fixtures:
        if os.path.basename(path) in KNOWN_DEPARTURES and "/test/calendars/" in path:
            departures += 1
            continue
        with open(path, "rb") as handle:
            original = icalendar.Calendar.from_ical(handle.read())
        windows = windows_for(original)
        with tempfile.TemporaryDirectory() as folder:
            database = os.path.join(folder, "Calendar.sqlite")
            title = "Cross-check " + os.path.basename(path)
            imported = subprocess.run(
                [arguments.ekctl, "import", path, "--db", database, "--calendar", title],
                capture_output=True, text=True, env=dict(os.environ, TZ="UTC"))
            checked += 1
            if imported.returncode != 0:
                failures += 1
                print(f"NOT IMPORTED {os.path.basename(path)}: {imported.stderr.strip()}")
                continue
            for start, end in windows:
                want = expected(original, start, end)
                got = actual(arguments.ekctl, database, title, start, end)
                checked += 1
                if want != got:
                    failures += 1
                    print(f"DIFFERENT {os.path.basename(path)} {start.date()}..{end.date()}")
                    for line in sorted(set(want) - set(got)):
                        print("  only recurring-ical-events:", line)
                    for line in sorted(set(got) - set(want)):
                        print("  only ekctl:               ", line)
            export = subprocess.run(
                [arguments.ekctl, "export", "--db", database, "--calendar", title],
                capture_output=True, env=dict(os.environ, TZ="UTC"))
            if export.returncode != 0 and b"no calendar titled" in export.stderr:
                continue  # nothing imported (a file of journals), nothing to export
            export.check_returncode()
            exported = export.stdout
            checked += 1
            try:
                readback = icalendar.Calendar.from_ical(exported)
            except Exception as error:  # noqa: BLE001 - any parse failure is the finding
                failures += 1
                print(f"UNREADABLE export of {os.path.basename(path)}: {error}")
                continue

            def uids(calendar):
                # Items without a UID get one on import: only those with one are compared.
                return sorted({
                    (str(component.get("UID")), component.name)
                    for component in calendar.walk()
                    if component.name in ("VEVENT", "VTODO") and "UID" in component})

            if not set(uids(original)) <= set(uids(readback)):
                failures += 1
                print(f"EXPORT of {os.path.basename(path)} has other items: "
                      f"{uids(original)} != {uids(readback)}")
            # What another tool computes from the export is what it computes from the original.
            for start, end in windows:
                checked += 1
                want = expected(original, start, end)
                got = expected(readback, start, end)
                if want != got:
                    failures += 1
                    print(f"EXPORT of {os.path.basename(path)} differs {start.date()}..{end.date()}")
                    for line in sorted(set(want) - set(got)):
                        print("  only the original:", line)
                    for line in sorted(set(got) - set(want)):
                        print("  only the export:  ", line)
    print(f"iCalendar cross-check: {checked - failures} passed, {failures} failed, "
          f"{departures} files of known departures skipped")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
