#!/usr/bin/env python3
"""Checks OpenEventKit's iCalendar import and export against two Python implementations.

For each .ics fixture: `ekctl import` it into a fresh store, list the occurrences of a few
windows with `ekctl events --json`, and compare them with what the `recurring-ical-events`
package computes for the same file and windows. Then `ekctl export` the calendar and read the
export with the `icalendar` package: it must parse, hold the same items (by UID), and give
recurring-ical-events the same occurrences as the original.

With --corpus it also checks every .ics file recurring-ical-events ships for its own tests
(real-world files from Google, Outlook, Confluence, Thunderbird…), from the installed
package: at least MINIMUM_CORPUS of them, among them every file named below, or the check
fails rather than checking less (a package that moved or dropped its test files).
MUST_REFUSE lists the files whose import must fail, with the error it must give;
KNOWN_DEPARTURES the few read differently on purpose, with the reason and exactly the
occurrences that differ: every check runs on them too, and any other difference fails.

Floating times are read with TZ=UTC on both sides. Exit status 1 on any difference.
"""
import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile
from typing import NamedTuple

import icalendar
import recurring_ical_events

UTC = datetime.timezone.utc

# recurring-ical-events 3.8.2 (scripts/requirements.txt) ships 96 .ics files for its tests.
MINIMUM_CORPUS = 90

# Files of recurring-ical-events' own test corpus (--corpus) that OpenEventKit refuses: the
# import must fail, and its error must say this.
MUST_REFUSE = {
    # An unknown rule part is an error naming the line; recurring-ical-events raises too.
    "bad_rrule_missing_until_event.ics": "line 9: RRULE: unknown rule part 'UNTL'",
    "issue_201_test_matrix.ics": "line 11: END:VTOOD closes BEGIN:VTODO of line 7",
}


class Departure(NamedTuple):
    """How OpenEventKit reads a file differently on purpose (OpenEventKit.docc/ICalendarFiles.md)."""
    reason: str
    # The occurrences, as (title, start, end), that only recurring-ical-events finds in the
    # original, and those only `ekctl events` lists: over all windows, exactly these.
    only_theirs: frozenset
    only_ours: frozenset
    # What the export must give recurring-ical-events: "ours", the occurrences ekctl lists
    # (the export writes OpenEventKit's reading); "theirs", the original's (the export writes
    # the same rules, which recurring-ical-events reads as it reads the original).
    export: str


KNOWN_DEPARTURES = {
    "issue_201_mixed_datetime_and_date.ics": Departure(
        "a DATE start with a DATE-TIME end is an all-day event, as EventKit has no other kind",
        frozenset({("Congés", "2023-07-24T00:00:00Z", "2023-08-17T00:00:00Z")}),
        frozenset({("Congés", "2023-07-24", "2023-08-17")}), "ours"),
    "issue_75_range_parameter.ics": Departure(
        "UNTIL=20250920 (a DATE) on a DATE-TIME series lasts through that day (ICalendar.docc/RecurrenceEngine.md);"
        " dateutil ends it as the day begins, so the last instance (moved by the file's second"
        " RANGE=THISANDFUTURE override) differs",
        frozenset(), frozenset({("EDITED EVENT", "2025-09-21T14:22:00Z", "2025-09-21T16:13:00Z")}),
        "ours"),
    "multiple_rrule.ics": Departure(
        "DTSTART counts toward each rule's COUNT (RFC 5545 3.8.5.3); dateutil does not count it",
        frozenset({("My repeating event", "2023-03-13T10:00:00Z", "2023-03-13T12:00:00Z")}),
        frozenset(), "theirs"),
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


def version():
    try:
        from importlib.metadata import version as installed
        return installed("recurring-ical-events")
    except Exception:  # noqa: BLE001 - only for a message
        return "(version unknown)"


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
        corpus = sorted(name for name in os.listdir(folder) if name.endswith(".ics")) \
            if os.path.isdir(folder) else []
        missing = sorted((set(MUST_REFUSE) | set(KNOWN_DEPARTURES)) - set(corpus))
        if len(corpus) < MINIMUM_CORPUS or missing:
            print(f"iCalendar cross-check: FAILED: recurring-ical-events {version()} has "
                  f"{len(corpus)} test calendars in {folder}, not the {MINIMUM_CORPUS} or more "
                  f"expected" + (f", and lacks {', '.join(missing)}" if missing else "") +
                  "; run it with the Python of scripts/requirements.txt (.build/python)")
            sys.exit(1)
        arguments.fixtures += [os.path.join(folder, name) for name in corpus]
    refusals = 0
    departures = 0
    failures = 0
    checked = 0
    for path in arguments.fixtures:
        name = os.path.basename(path)
        from_corpus = "/test/calendars/" in path
        departure = KNOWN_DEPARTURES.get(name) if from_corpus else None
        with tempfile.TemporaryDirectory() as folder:
            database = os.path.join(folder, "Calendar.sqlite")
            title = "Cross-check " + name
            imported = subprocess.run(
                [arguments.ekctl, "import", path, "--db", database, "--calendar", title],
                capture_output=True, text=True, env=dict(os.environ, TZ="UTC"))
            checked += 1
            if from_corpus and name in MUST_REFUSE:
                refusals += 1
                if imported.returncode == 0 or MUST_REFUSE[name] not in imported.stderr:
                    failures += 1
                    print(f"NOT REFUSED as expected {name}: status {imported.returncode}, "
                          f"{imported.stderr.strip()[:200]!r}")
                continue
            if imported.returncode != 0:
                failures += 1
                print(f"NOT IMPORTED {name}: {imported.stderr.strip()}")
                continue
            with open(path, "rb") as handle:
                original = icalendar.Calendar.from_ical(handle.read())
            windows = windows_for(original)
            departures += 1 if departure else 0
            listed = {}  # window → what ekctl lists, for the export of a departing file
            only_theirs = set()
            only_ours = set()
            for start, end in windows:
                want = expected(original, start, end)
                got = actual(arguments.ekctl, database, title, start, end)
                listed[start] = got
                checked += 1
                if departure:
                    only_theirs |= set(want) - set(got)
                    only_ours |= set(got) - set(want)
                elif want != got:
                    failures += 1
                    print(f"DIFFERENT {name} {start.date()}..{end.date()}")
                    for line in sorted(set(want) - set(got)):
                        print("  only recurring-ical-events:", line)
                    for line in sorted(set(got) - set(want)):
                        print("  only ekctl:               ", line)
            if departure and (only_theirs, only_ours) != (departure.only_theirs, departure.only_ours):
                failures += 1
                print(f"DEPARTS OTHERWISE {name} than listed ({departure.reason})")
                for line in sorted(only_theirs ^ departure.only_theirs):
                    print("  only recurring-ical-events, listed or found:", line)
                for line in sorted(only_ours ^ departure.only_ours):
                    print("  only ekctl, listed or found:               ", line)
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
                print(f"UNREADABLE export of {name}: {error}")
                continue

            def uids(calendar):
                # Items without a UID get one on import: only those with one are compared.
                return sorted({
                    (str(component.get("UID")), component.name)
                    for component in calendar.walk()
                    if component.name in ("VEVENT", "VTODO") and "UID" in component})

            if not set(uids(original)) <= set(uids(readback)):
                failures += 1
                print(f"EXPORT of {name} has other items: "
                      f"{uids(original)} != {uids(readback)}")
            # What another tool computes from the export is what it computes from the original;
            # for a file read differently on purpose, what its departure says.
            for start, end in windows:
                checked += 1
                if departure and departure.export == "ours":
                    want, source = listed[start], "ekctl"
                else:
                    want, source = expected(original, start, end), "the original"
                got = expected(readback, start, end)
                if want != got:
                    failures += 1
                    print(f"EXPORT of {name} differs from {source} {start.date()}..{end.date()}")
                    for line in sorted(set(want) - set(got)):
                        print(f"  only {source}:", line)
                    for line in sorted(set(got) - set(want)):
                        print("  only the export:", line)
    print(f"iCalendar cross-check: {checked - failures} passed, {failures} failed "
          f"({refusals} files refused as they must be, {departures} files of known departures "
          f"checked to depart exactly as listed)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
