#!/usr/bin/env python3
"""Another CalDAV client for the sync tests: the python `caldav` library.

  interop.py put URL USER PASSWORD CALENDAR FILE.ics   saves the file's VCALENDAR in the
                                                        calendar of that display name
  interop.py occurrences URL USER PASSWORD CALENDAR START END
                                                        prints "SUMMARY@START" for each
                                                        occurrence in [START, END) (UTC,
                                                        ISO 8601), expanded by
                                                        recurring-ical-events, sorted
"""
import sys
from datetime import datetime, timezone

import caldav
import icalendar
import recurring_ical_events


def calendar(url, user, password, name):
    client = caldav.DAVClient(url=url, username=user, password=password)
    for found in client.principal().calendars():
        if found.get_display_name() == name:
            return found
    sys.exit(f"no calendar named {name}")


def main(argv):
    command, url, user, password, name = argv[1:6]
    target = calendar(url, user, password, name)
    if command == "put":
        with open(argv[6], encoding="utf-8") as file:
            target.save_event(file.read())
        return
    start = datetime.fromisoformat(argv[6].replace("Z", "+00:00"))
    end = datetime.fromisoformat(argv[7].replace("Z", "+00:00"))
    lines = []
    for event in target.events():
        parsed = icalendar.Calendar.from_ical(event.data)
        for occurrence in recurring_ical_events.of(parsed).between(start, end):
            begin = occurrence["DTSTART"].dt
            if isinstance(begin, datetime):
                begin = begin.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
            else:
                begin = begin.isoformat()
            lines.append(f"{occurrence.get('SUMMARY', '')}@{begin}")
    print("\n".join(sorted(lines)))


if __name__ == "__main__":
    main(sys.argv)
