#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (scripts/fuzz) from the project's tests.

    scripts/fuzz-seeds.py FOLDER

makes FOLDER/fuzz-rrule, FOLDER/fuzz-ics, FOLDER/fuzz-import and FOLDER/fuzz-words, one
file per seed, named by a hash of its content:

- fuzz-rrule: the recurrence sets of RFC 5545's examples (Tests/ICalendarTests/
  RFC5545Examples.swift), every RRULE written in a test or a script, the recurring
  components of the .ics fixtures (DTSTART, RRULE, RDATE and EXDATE lines), and, when
  python-dateutil is installed, rules from scripts/crosscheck-dateutil.py's generator;
- fuzz-ics and fuzz-import: the .ics fixtures (Tests/Fixtures/ics), each whole and each of
  their events and to-dos alone in a calendar with the file's time zones, and, when
  recurring-ical-events is installed (scripts/test installs it), the real-world files it
  ships for its own tests, those up to 64 KiB;
- fuzz-words: the lines typed in the samples' and REPLKit's tests.

Seeds are generated, never committed: the tests they come from are the source.
"""

import hashlib
import importlib.util
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as handle:
        return handle.read()


def swift_files(folder):
    for directory, _, names in os.walk(os.path.join(ROOT, folder)):
        for name in sorted(names):
            if name.endswith(".swift"):
                yield os.path.join(directory, name)


def swift_literals(text):
    """The single-line string literals of Swift source, "…" and #"…"#, escapes undone."""
    for match in re.finditer(r'#"(.*?)"#|"((?:[^"\\\n]|\\.)*)"', text):
        if match.group(1) is not None:
            yield match.group(1)
        else:
            yield (match.group(2).replace(r"\n", "\n").replace(r"\t", "\t")
                   .replace(r"\"", '"').replace("\\\\", "\\"))


def unfolded_lines(ics):
    return re.sub(r"\r?\n[ \t]", "", ics).replace("\r\n", "\n").split("\n")


def components(ics):
    """The VTIMEZONEs of a file and its VEVENTs and VTODOs, each as its lines."""
    zones, items, current, depth = [], [], None, 0
    for line in ics.replace("\r\n", "\n").split("\n"):
        upper = line.upper()
        if current is None and upper in ("BEGIN:VTIMEZONE", "BEGIN:VEVENT", "BEGIN:VTODO"):
            current, depth = [], 0
        if current is not None:
            current.append(line)
            if upper.startswith("BEGIN:"):
                depth += 1
            elif upper.startswith("END:"):
                depth -= 1
                if depth == 0:
                    (zones if current[0].upper() == "BEGIN:VTIMEZONE" else items).append(current)
                    current = None
    return zones, items


def rrule_seeds():
    seeds = []
    examples = read("Tests/ICalendarTests/RFC5545Examples.swift")
    for match in re.finditer(
            r'dtstart: "(\w+)", tzid: (nil|"[^"]+"),\s*rules: \[([^\]]*)\]', examples):
        start, tzid, rules = match.groups()
        head = "DTSTART" if tzid == "nil" else "DTSTART;TZID=" + tzid.strip('"')
        lines = [f"{head}:{start}"] + re.findall(r'"([^"]+)"', rules)
        seeds.append("\n".join(lines) + "\n")
    written = set()
    for folder in ("Tests", "scripts"):
        for directory, _, names in os.walk(os.path.join(ROOT, folder)):
            for name in names:
                if name.endswith((".swift", ".py")):
                    with open(os.path.join(directory, name), encoding="utf-8") as handle:
                        written.update(re.findall(r"(?:RRULE:)?FREQ=[A-Za-z0-9=;,+:-]+", handle.read()))
    seeds += sorted(rule + "\n" for rule in written)
    for name in sorted(os.listdir(os.path.join(ROOT, "Tests/Fixtures/ics"))):
        _, items = components(read(os.path.join("Tests/Fixtures/ics", name)))
        for item in items:
            lines = [line for line in unfolded_lines("\n".join(item))
                     if line.upper().startswith(("DTSTART", "RRULE", "RDATE", "EXDATE"))]
            if any(line.upper().startswith(("RRULE", "RDATE")) for line in lines):
                seeds.append("\n".join(lines) + "\n")
    seeds += dateutil_cases(150)
    return seeds


def dateutil_cases(count):
    """Rules from the dateutil cross-check's generator, when dateutil is installed."""
    try:
        spec = importlib.util.spec_from_file_location(
            "crosscheck_dateutil", os.path.join(ROOT, "scripts/crosscheck-dateutil.py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # its dataclasses look themselves up there
        spec.loader.exec_module(module)
        generator = module.Generator(1, 0.05)
        seeds = []
        for index in range(count):
            case = generator.make_case(index)
            head = "DTSTART" if case.tzid is None else "DTSTART;TZID=" + case.tzid
            seeds.append(f"{head}:{case.dtstart}\n{case.rule}\n")
        return seeds
    except Exception as error:  # noqa: BLE001 - seeds are a help, not a requirement
        print(f"fuzz-seeds: no generated rules ({error.__class__.__name__}: {error})",
              file=sys.stderr)
        return []


def ics_seeds():
    seeds = []
    folder = os.path.join(ROOT, "Tests/Fixtures/ics")
    for name in sorted(os.listdir(folder)):
        text = read(os.path.join("Tests/Fixtures/ics", name))
        seeds.append(text.encode())
        zones, items = components(text)
        for item in items:
            lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//OpenEventKit//Fuzz//EN"]
            for zone in zones:
                lines += zone
            lines += item + ["END:VCALENDAR", ""]
            seeds.append("\r\n".join(lines).encode())
    try:
        import recurring_ical_events

        corpus = os.path.join(os.path.dirname(recurring_ical_events.__file__), "test", "calendars")
        for name in sorted(os.listdir(corpus)):
            path = os.path.join(corpus, name)
            if name.endswith(".ics") and os.path.getsize(path) <= 64 * 1024:
                with open(path, "rb") as handle:
                    seeds.append(handle.read())
    except ImportError:
        print("fuzz-seeds: recurring-ical-events is not installed; the fixtures only",
              file=sys.stderr)
    return seeds


def words_seeds():
    lines = set()
    for path in list(swift_files("Tests/SampleTests")) + list(swift_files("Tests/REPLKitTests")):
        with open(path, encoding="utf-8") as handle:
            for literal in swift_literals(handle.read()):
                for line in literal.split("\n"):
                    if line.strip() and "\\(" not in line and len(line) < 200:
                        lines.add(line)
    return sorted(lines)


def write(folder, seeds):
    os.makedirs(folder, exist_ok=True)
    for seed in seeds:
        data = seed if isinstance(seed, bytes) else seed.encode()
        name = hashlib.sha1(data).hexdigest()
        with open(os.path.join(folder, name), "wb") as handle:
            handle.write(data)
    return len(os.listdir(folder))


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    target = sys.argv[1]
    ics = ics_seeds()
    counts = {
        "fuzz-rrule": write(os.path.join(target, "fuzz-rrule"), rrule_seeds()),
        "fuzz-ics": write(os.path.join(target, "fuzz-ics"), ics),
        "fuzz-import": write(os.path.join(target, "fuzz-import"), ics),
        "fuzz-words": write(os.path.join(target, "fuzz-words"), words_seeds()),
    }
    print("seeds: " + ", ".join(f"{name} {count}" for name, count in counts.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
