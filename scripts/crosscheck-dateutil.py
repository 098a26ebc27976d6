#!/usr/bin/env python3
"""Cross-check OpenEventKit's recurrence engine against python-dateutil.

Generates random but valid RFC 5545 RRULEs (deterministic for a given --seed),
runs them all through ONE `ekctl rrule --batch` process, expands the same
rules with dateutil, and reports the cases where the two disagree.

    scripts/crosscheck-dateutil.py --ekctl .build/debug/ekctl [--cases 3000] [--seed N]

The seed is new each run (so that run after run covers new rules) unless --seed
or CROSSCHECK_SEED gives one; it is printed first and last, and replaying a
failure is running again with it.

Protocol of `ekctl rrule --batch` (JSON Lines, one answer line per input line):
    in:  {"dtstart": "19970902T090000", "tzid": "America/New_York", "rule": "FREQ=...", "limit": 50}
    out: {"occurrences": ["19970902T090000", ...]}   or   {"error": "..."}
dtstart is local wall time in tzid, floating when tzid is null, or YYYYMMDD for
a DATE. Occurrences are local starts in dtstart's zone.

Where RFC 5545 and dateutil differ (by design or by a dateutil bug), the RFC
wins and the difference is not counted as a failure:
  (a) RFC 5545 section 3.8.5.3: DTSTART is always the first instance and counts
      toward COUNT, even when the rule does not produce it; dateutil drops it.
      Most generated cases have a DTSTART the rule produces itself; a small
      share (--unsynced-share) deliberately does not, to exercise this.
  (b) DST: instances are compared as local wall times. A wall time that falls
      in a DST gap is moved forward by the gap's length in our engine; the
      expected list is shifted the same way, and a case touching a gap that
      still differs after the shift is skipped (not failed), since what an
      engine does with the resulting collisions is not what this checks. Each
      skipped case is printed, and more than --max-skipped (0.5%) of the cases
      skipped is a failure: a change that broke DST handling must not hide
      among the skips.
  (c) BYWEEKNO at year boundaries (section 3.3.10: weeks start on WKST, week 1
      is the first with at least four days in the year, so early January may
      be in the previous year's last week and late December in next year's
      week 1). dateutil miscounts the previous year's weeks (1982-01-01 with
      WKST=SU is in week 52 of 1981, not 53; it misses 2039-01-02 in ISO week
      52 of 2038) and never matches a negative BYWEEKNO against next year's
      week 1. For a BYWEEKNO rule whose lists differ, each instance on one side
      only is judged by an independent RFC week-numbering check (WeeknoCheck;
      the period is the calendar year, as in both engines), and must be in a
      week across New Year (or, with BYSETPOS, in a year whose candidates reach
      one); anything else is a failure. See weekno_problems().
Both lists are cut at 50 instances and at 2200-01-01 (wall time).

One more dateutil departure is avoided by the generator instead: in a WEEKLY
rule the RFC's period is the whole week from WKST, and BYSETPOS picks from that
week's candidates before instances before DTSTART are dropped; dateutil starts
the first week at DTSTART's own day, so BYSETPOS picks differently in that week
when DTSTART is not on the WKST weekday. WEEKLY rules with BYSETPOS and BYDAY
therefore always get a DTSTART on the WKST weekday (at a random time of day);
often the rule does not produce that day, which exercises (a) (--unsynced-share
does not apply to them).

Notes on the generator: BYWEEKNO always comes with a BYDAY (without one the
weekday is left to interpretation: dateutil takes all seven days); ordinal
BYDAY is used only in MONTHLY/YEARLY and never together with BYWEEKNO,
BYMONTHDAY or BYYEARDAY (where an ordinal's meaning is not well defined).

Exit status: 0 when no unexplained mismatch and few enough skipped, 1
otherwise (2 on usage errors). The last line printed is
"seed S: N passed, M failed, K skipped".
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import itertools
import json
import os
import random
import secrets
import shlex
import signal
import subprocess
import sys
import warnings
from dataclasses import dataclass
from typing import Optional
from zoneinfo import ZoneInfo

try:
    from dateutil.rrule import rrulestr
except ImportError:  # pragma: no cover - environment problem
    sys.exit("python-dateutil is required: pip install python-dateutil")

LIMIT = 50
CAP = dt.datetime(2200, 1, 1)  # compare only instances before this wall time
ZONES = [
    "America/New_York",
    "Europe/Berlin",
    "Australia/Sydney",
    "America/Sao_Paulo",  # DST changes at midnight until 2019
    "Asia/Kolkata",  # no DST
]
FREQS = [("YEARLY", 20), ("MONTHLY", 25), ("WEEKLY", 18), ("DAILY", 15), ("HOURLY", 11), ("MINUTELY", 11)]
DAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
UTC = dt.timezone.utc


# --------------------------------------------------------------------------
# Formatting helpers


def fmt_local(t: dt.datetime) -> str:
    return t.strftime("%Y%m%dT%H%M%S")


def fmt_date(t: dt.datetime) -> str:
    return t.strftime("%Y%m%d")


def normalize(s: str) -> str:
    """Both DATE ("YYYYMMDD") and DATE-TIME answers compare as YYYYMMDDTHHMMSS."""
    return s + "T000000" if len(s) == 8 else s


def parse_local(s: str) -> dt.datetime:
    s = normalize(s)
    return dt.datetime.strptime(s, "%Y%m%dT%H%M%S")


# --------------------------------------------------------------------------
# Time zone helpers (wall times are naive datetimes)


def in_gap(wall: dt.datetime, tz: ZoneInfo) -> bool:
    """True when the wall time does not exist in tz (it falls in a DST gap)."""
    return shift_gap(wall, tz) != wall


def shift_gap(wall: dt.datetime, tz: ZoneInfo) -> dt.datetime:
    """Move a wall time in a DST gap forward by the gap's length.

    With fold=0 a nonexistent wall time is read with the offset in force
    before the transition; converting that instant back to wall time lands
    exactly gap-length later. Existing wall times come back unchanged
    (ambiguous ones with fold=0 keep the earlier offset)."""
    aware = wall.replace(tzinfo=tz, fold=0)
    return aware.astimezone(UTC).astimezone(tz).replace(tzinfo=None)


def to_utc(wall: dt.datetime, tz: ZoneInfo) -> dt.datetime:
    return wall.replace(tzinfo=tz, fold=0).astimezone(UTC)


class TimeLimit(BaseException):
    """Not an Exception, so that no `except Exception` on the way swallows it."""


@contextlib.contextmanager
def time_limit(seconds: float):
    """Abandon the block after `seconds` of wall time (Unix only; no-op elsewhere)."""
    if not hasattr(signal, "setitimer"):
        yield
        return

    def on_alarm(_signum, _frame):
        raise TimeLimit()

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


# --------------------------------------------------------------------------
# Cases


@dataclass
class Case:
    index: int
    dtstart: str  # YYYYMMDD or YYYYMMDDTHHMMSS
    tzid: Optional[str]
    rule: str
    limit: int = LIMIT
    synced: bool = True
    expected: Optional[tuple] = None  # cached result of expected_for()

    @property
    def is_date(self) -> bool:
        return len(self.dtstart) == 8

    def request(self) -> dict:
        return {"dtstart": self.dtstart, "tzid": self.tzid, "rule": self.rule, "limit": self.limit}


def rule_parts(rule: str) -> dict:
    out = {}
    for part in rule.split(";"):
        k, _, v = part.partition("=")
        out[k.upper()] = v
    return out


def dateutil_walls(rule: str, dtstart_wall: dt.datetime, tzid: Optional[str], limit: int,
                   cap_wall: dt.datetime = CAP) -> list:
    """Expand with dateutil; returns naive wall times, at most `limit`, before cap.

    For a zoned rule dateutil is given an aware DTSTART, so that UNTIL (UTC) is
    compared as an instant; instances are then read back as wall times."""
    tz = ZoneInfo(tzid) if tzid else None
    start = dtstart_wall.replace(tzinfo=tz) if tz else dtstart_wall
    parts = rule_parts(rule)
    text = rule
    if "UNTIL" not in parts:
        # Keep dateutil from searching forever for a sparse or empty rule.
        if tz:
            text += ";UNTIL=" + fmt_local(to_utc(cap_wall + dt.timedelta(days=2), tz)) + "Z"
        else:
            text += ";UNTIL=" + fmt_local(cap_wall + dt.timedelta(days=2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # COUNT together with UNTIL is deprecated in dateutil
        rr = rrulestr(text, dtstart=start)
        out = []
        for inst in itertools.islice(rr, limit):
            wall = inst.replace(tzinfo=None) if tz else inst
            if wall >= cap_wall:
                break
            out.append(wall)
    return out


def expected_for(case: Case) -> tuple:
    """The RFC 5545 answer derived from dateutil's.

    Returns (expected walls, raw dateutil walls, dtstart_added)."""
    start = parse_local(case.dtstart)
    raw = dateutil_walls(case.rule, start, case.tzid, case.limit)
    count = rule_parts(case.rule).get("COUNT")
    added = False
    exp = list(raw)
    if not exp or exp[0] != start:
        # (a) DTSTART is always the first instance and counts toward COUNT.
        added = True
        exp = [start] + exp
        if count is not None:
            exp = exp[: int(count)]
    exp = [w for w in exp if w < CAP][: case.limit]
    return exp, raw, added


# --------------------------------------------------------------------------
# RFC 5545 week numbering (for (c) in the module docstring)


def week_start(t, wkst: int):
    """The WKST day on or before t (a date or datetime; a datetime keeps its time)."""
    return t - dt.timedelta(days=(t.weekday() - wkst) % 7)


def rfc_week(day: dt.date, wkst: int) -> tuple:
    """(week-numbering year, week number, negative week number) of a day, RFC 5545
    section 3.3.10: weeks start on WKST and week 1 is the first week with at least
    four days in the year, so a week belongs to the year holding its fourth day
    (early January may be in the previous year's last week, late December in the
    next year's week 1). The negative number counts from that year's last week."""
    ws = week_start(day, wkst)
    wyear = (ws + dt.timedelta(days=3)).year
    week1 = week_start(dt.date(wyear, 1, 4), wkst)  # January 4 is always in week 1
    weeks = (week_start(dt.date(wyear + 1, 1, 4), wkst) - week1).days // 7
    n = (ws - week1).days // 7 + 1
    return wyear, n, n - weeks - 1


def straddles_new_year(day: dt.date, wkst: int) -> bool:
    """True when the week (from WKST) holding the day has days in two calendar years."""
    ws = week_start(day, wkst)
    return ws.year != (ws + dt.timedelta(days=6)).year


class WeeknoCheck:
    """Independent RFC 5545 membership test for the generator's BYWEEKNO rules:
    FREQ=YEARLY with BYWEEKNO, a plain BYDAY, optionally INTERVAL, BYHOUR,
    BYMINUTE, BYSECOND, BYSETPOS, WKST, COUNT, UNTIL. The period is the calendar
    year (as in both engines): a day of the year is a candidate when its weekday
    is in BYDAY and its week, numbered per rfc_week(), is in BYWEEKNO (by its
    positive or its negative number); times come from BYHOUR/BYMINUTE/BYSECOND
    or DTSTART; BYSETPOS selects from the year's sorted candidates."""

    SUPPORTED = {"FREQ", "INTERVAL", "BYWEEKNO", "BYDAY", "BYHOUR", "BYMINUTE", "BYSECOND",
                 "BYSETPOS", "WKST", "COUNT", "UNTIL"}

    def __init__(self, case: "Case"):
        p = rule_parts(case.rule)
        self.start = parse_local(case.dtstart)
        self.tz = ZoneInfo(case.tzid) if case.tzid else None
        self.interval = int(p.get("INTERVAL", "1"))
        self.weeknos = {int(v) for v in p["BYWEEKNO"].split(",")}
        self.wkst = DAYS.index(p.get("WKST", "MO"))
        self.weekdays = {DAYS.index(d) for d in p["BYDAY"].split(",")}
        self.setpos = [int(v) for v in p["BYSETPOS"].split(",")] if "BYSETPOS" in p else None
        if case.is_date:
            self.times = [dt.time(0, 0, 0)]
        else:
            def field(key, default):
                return sorted({int(v) for v in p[key].split(",")}) if key in p else [default]
            self.times = [dt.time(h, m, s) for h in field("BYHOUR", self.start.hour)
                          for m in field("BYMINUTE", self.start.minute)
                          for s in field("BYSECOND", self.start.second)]
        self.until = None  # (naive datetime, is UTC)
        if "UNTIL" in p:
            u = p["UNTIL"]
            self.until = (parse_local(u.rstrip("Z")), u.endswith("Z"))
        self._years = {}

    @classmethod
    def applies(cls, case: "Case") -> bool:
        p = rule_parts(case.rule)
        return (p.get("FREQ") == "YEARLY" and "BYWEEKNO" in p and "BYDAY" in p
                and set(p) <= cls.SUPPORTED
                and all(d in DAYS for d in p["BYDAY"].split(",")))  # plain weekdays only

    def matches(self, day: dt.date) -> bool:
        _, n, neg = rfc_week(day, self.wkst)
        return day.weekday() in self.weekdays and (n in self.weeknos or neg in self.weeknos)

    def year(self, y: int) -> tuple:
        """(candidates of calendar year y before BYSETPOS, selected instances), sorted."""
        if y not in self._years:
            cands = []
            day = dt.date(y, 1, 1)
            while day.year == y:
                if self.matches(day):
                    cands.extend(dt.datetime.combine(day, t) for t in self.times)
                day += dt.timedelta(days=1)
            sel = cands
            if self.setpos is not None:
                sel = sorted({cands[k - 1 if k > 0 else k] for k in self.setpos if 0 < abs(k) <= len(cands)})
            self._years[y] = (cands, sel)
        return self._years[y]

    def is_instance(self, wall: dt.datetime) -> bool:
        """Whether the rule has this (wall time) instance per RFC 5545, COUNT aside."""
        if wall == self.start:
            return True  # section 3.8.5.3
        if wall < self.start or wall >= CAP or (wall.year - self.start.year) % self.interval:
            return False
        if self.until is not None:
            u, is_utc = self.until
            if (to_utc(wall, self.tz).replace(tzinfo=None) if is_utc and self.tz else wall) > u:
                return False
        sel = self.year(wall.year)[1]
        if self.tz is not None:  # (b): our engine moves a wall time in a gap forward
            return wall in {shift_gap(w, self.tz) for w in sel}
        return wall in sel

    def instances(self, y: int) -> set:
        """All instances (wall times) of the rule in calendar year y per RFC 5545, COUNT aside."""
        sel = self.year(y)[1]
        if self.tz is not None:
            sel = [shift_gap(w, self.tz) for w in sel]
        out = {w for w in sel if self.is_instance(w)}
        if self.start.year == y:
            out.add(self.start)
        return out

    def near_new_year(self, wall: dt.datetime) -> bool:
        """True when the instance's week straddles New Year or, with BYSETPOS, when its
        year's candidate set reaches such a week (the positions then shift)."""
        if straddles_new_year(wall.date(), self.wkst):
            return True
        return self.setpos is not None and any(straddles_new_year(c.date(), self.wkst)
                                               for c in self.year(wall.year)[0])

    def describe(self, wall: dt.datetime) -> str:
        wyear, n, neg = rfc_week(wall.date(), self.wkst)
        return f"{DAYS[wall.weekday()]}, week {n} (= {neg}) of {wyear} with WKST={DAYS[self.wkst]}"


# --------------------------------------------------------------------------
# Generator


class Generator:
    def __init__(self, seed: int, unsynced_share: float):
        self.rng = random.Random(seed)
        self.unsynced_share = unsynced_share

    # -- small random helpers
    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def some(self, population, lo: int, hi: int) -> list:
        n = self.rng.randint(lo, hi)
        return self.rng.sample(list(population), min(n, len(population)))

    def signed(self, lo: int, hi: int, neg: float = 0.3) -> int:
        v = self.rng.randint(lo, hi)
        return -v if self.chance(neg) else v

    def values(self, lo: int, hi: int, k_hi: int, neg: float = 0.3) -> list:
        vals = set()
        for _ in range(self.rng.randint(1, k_hi)):
            vals.add(self.signed(lo, hi, neg))
        return sorted(vals, key=lambda v: (v < 0, abs(v)))

    # -- rule
    def make_rule(self, freq: str, is_date: bool) -> tuple:
        """Returns (list of 'KEY=VALUE' parts without FREQ/COUNT/UNTIL, info dict)."""
        r = self.rng
        parts = []
        info = {}
        interval = 1 if self.chance(0.5) else r.randint(2, 5)
        if interval > 1 or self.chance(0.1):
            parts.append(f"INTERVAL={interval}")
        info["interval"] = interval

        # BYWEEKNO (YEARLY only), always with a plain BYDAY
        byweekno = None
        if freq == "YEARLY" and self.chance(0.12):
            byweekno = self.values(1, 53, 3, neg=0.25)
            parts.append("BYWEEKNO=" + ",".join(map(str, byweekno)))

        # BYYEARDAY (YEARLY/HOURLY/MINUTELY)
        byyearday = None
        p_yd = {"YEARLY": 0.15, "HOURLY": 0.05, "MINUTELY": 0.05}.get(freq, 0)
        if byweekno is None and self.chance(p_yd):
            byyearday = self.values(1, 366, 4, neg=0.3)
            parts.append("BYYEARDAY=" + ",".join(map(str, byyearday)))

        # BYMONTH
        p_m = 0.3 if freq == "YEARLY" else 0.15
        bymonth = None
        if byweekno is None and byyearday is None and self.chance(p_m):
            bymonth = sorted(self.some(range(1, 13), 1, 3))
            parts.append("BYMONTH=" + ",".join(map(str, bymonth)))

        # BYMONTHDAY (never WEEKLY)
        p_md = {"YEARLY": 0.3, "MONTHLY": 0.4, "DAILY": 0.12, "HOURLY": 0.1, "MINUTELY": 0.1}.get(freq, 0)
        bymonthday = None
        if byweekno is None and byyearday is None and self.chance(p_md):
            bymonthday = self.values(1, 31, 3, neg=0.3)
            if bymonth == [2]:
                bymonthday = [d if abs(d) <= 28 else (d % 28) + 1 for d in bymonthday]
                bymonthday = sorted(set(bymonthday), key=lambda v: (v < 0, abs(v)))
            parts.append("BYMONTHDAY=" + ",".join(map(str, bymonthday)))

        # BYDAY
        p_d = {"YEARLY": 0.35, "MONTHLY": 0.5, "WEEKLY": 0.65, "DAILY": 0.25, "HOURLY": 0.2, "MINUTELY": 0.2}[freq]
        byday = None
        # Sub-daily rules with several day filters are sparse, and dateutil then
        # walks minute by minute through centuries: keep it to one day filter
        # besides BYMONTH for them (BYYEARDAY already stands alone).
        sparse = freq in ("HOURLY", "MINUTELY") and (byyearday is not None or bymonthday is not None)
        if byweekno is not None or (not sparse and self.chance(p_d)):
            ordinal_ok = (freq in ("MONTHLY", "YEARLY") and byweekno is None
                          and bymonthday is None and byyearday is None)
            days = self.some(DAYS, 1, 5 if freq != "YEARLY" else 3)
            days.sort(key=DAYS.index)
            if ordinal_ok and self.chance(0.55):
                span = 5 if (freq == "MONTHLY" or bymonth) else 53
                items = []
                for d in days[:3]:
                    n = self.rng.randint(1, min(span, 4) if self.chance(0.8) else span)
                    sign = "-" if self.chance(0.3) else ("+" if self.chance(0.05) else "")
                    items.append(f"{sign}{n}{d}")
                byday = items
            else:
                byday = days
            parts.append("BYDAY=" + ",".join(byday))

        # Time parts (never for a DATE DTSTART)
        byhour = byminute = bysecond = None
        if not is_date:
            p_h = {"HOURLY": 0.3, "MINUTELY": 0.25}.get(freq, 0.18)
            if self.chance(p_h):
                byhour = sorted(self.some(range(24), 1, 3))
                parts.append("BYHOUR=" + ",".join(map(str, byhour)))
            if self.chance(0.4 if freq == "MINUTELY" else 0.15):
                byminute = sorted(self.some(range(60), 1, 3))
                parts.append("BYMINUTE=" + ",".join(map(str, byminute)))
            if self.chance(0.08):
                bysecond = sorted(self.some(range(60), 1, 2))
                parts.append("BYSECOND=" + ",".join(map(str, bysecond)))
        info.update(byhour=byhour, byminute=byminute, bysecond=bysecond)

        # BYSETPOS only alongside another BY part, and one that can put more
        # than one instance into a period (else most positions select nothing)
        expanding = {
            "YEARLY": ("BYMONTH", "BYWEEKNO", "BYYEARDAY", "BYMONTHDAY", "BYDAY", "BYHOUR", "BYMINUTE", "BYSECOND"),
            "MONTHLY": ("BYMONTHDAY", "BYDAY", "BYHOUR", "BYMINUTE", "BYSECOND"),
            "WEEKLY": ("BYDAY", "BYHOUR", "BYMINUTE", "BYSECOND"),
            "DAILY": ("BYHOUR", "BYMINUTE", "BYSECOND"),
            "HOURLY": ("BYMINUTE", "BYSECOND"),
            "MINUTELY": ("BYSECOND",),
        }[freq]
        set_size = 1
        for p in parts:
            key, _, val = p.partition("=")
            if key in expanding:
                items = val.split(",")
                if key == "BYDAY" and freq in ("MONTHLY", "YEARLY"):
                    set_size *= sum(1 if item[:-2] else 4 for item in items)
                else:
                    set_size *= len(items)
        if set_size > 1 and self.chance(0.15):
            pos = self.values(1, min(set_size, 2 if self.chance(0.8) else 4), 2, neg=0.5)
            parts.append("BYSETPOS=" + ",".join(map(str, pos)))

        if self.chance(0.2):
            parts.append("WKST=" + self.rng.choice(DAYS))

        self.rng.shuffle(parts)
        return parts, info

    def base_start(self, is_date: bool, info: dict, tz: Optional[ZoneInfo]) -> dt.datetime:
        r = self.rng
        if tz is not None and self.chance(0.2):
            near = self.near_transition(tz, r.randint(1975, 2035))
            if near is not None:
                return near
        day = dt.date(1970, 1, 1) + dt.timedelta(days=r.randint(0, 66 * 365))  # 1970..2035
        if is_date:
            return dt.datetime(day.year, day.month, day.day)
        hour = r.choice(info["byhour"]) if info.get("byhour") else r.randint(0, 23)
        minute = (r.choice(info["byminute"]) if info.get("byminute")
                  else (0 if self.chance(0.5) else r.randint(0, 59)))
        second = (r.choice(info["bysecond"]) if info.get("bysecond")
                  else (0 if self.chance(0.8) else r.randint(0, 59)))
        return dt.datetime(day.year, day.month, day.day, hour, minute, second)

    def near_transition(self, tz: ZoneInfo, year: int) -> Optional[dt.datetime]:
        """A wall time shortly before one of the zone's offset changes in `year`:
        either some hours before it, or a few days before it at the clock time
        of the change itself (so daily-ish rules walk into the gap or overlap)."""
        t = dt.datetime(year, 1, 1, tzinfo=UTC)
        prev = t.astimezone(tz).utcoffset()
        changes = []
        for _ in range(0, 366 * 4):  # six-hour steps through the year
            t += dt.timedelta(hours=6)
            off = t.astimezone(tz).utcoffset()
            if off != prev:
                lo, hi = t - dt.timedelta(hours=6), t  # offset changes in (lo, hi]
                while hi - lo > dt.timedelta(seconds=1):
                    mid = lo + (hi - lo) / 2
                    if mid.astimezone(tz).utcoffset() == prev:
                        lo = mid
                    else:
                        hi = mid
                changes.append(hi.replace(microsecond=0))
                prev = off
        if not changes:
            return None
        change = self.rng.choice(changes)
        if self.chance(0.5):
            when = change - dt.timedelta(hours=self.rng.randint(2, 30))
            wall = when.astimezone(tz).replace(tzinfo=None)
            return wall.replace(minute=self.rng.choice([0, 0, 30, 45]), second=0)
        # wall clock reading at the change, read with the old offset, plus a bit
        wall = (change - dt.timedelta(seconds=1)).astimezone(tz).replace(tzinfo=None)
        wall += dt.timedelta(seconds=1 + 60 * self.rng.choice([0, 15, 30, 30, 45]))
        return wall - dt.timedelta(days=self.rng.randint(1, 7))

    def make_case(self, index: int) -> Case:
        r = self.rng
        for _attempt in range(200):
            freq = r.choices([f for f, _ in FREQS], weights=[w for _, w in FREQS])[0]
            kind = r.random()
            if kind < 0.1 and freq not in ("HOURLY", "MINUTELY"):
                tzid, is_date = None, True
            elif kind < 0.45:
                tzid, is_date = None, False
            else:
                tzid, is_date = r.choice(ZONES), False
            tz = ZoneInfo(tzid) if tzid else None
            parts, info = self.make_rule(freq, is_date)
            core = ";".join([f"FREQ={freq}"] + parts)

            try:
                # A safety net only: the generator avoids rules that keep dateutil
                # busy for long, so the limit does not fire and runs stay reproducible.
                with time_limit(20.0):
                    start, synced = self.pick_start(core, is_date, info, tz)
                    if start is None:
                        continue  # rule produced nothing soon, or dateutil rejected it
                    if tz is not None and in_gap(start, tz):
                        continue
                    rule = core + self.pick_end(core, start, tzid, is_date)
                    dtstart = fmt_date(start) if is_date else fmt_local(start)
                    case = Case(index, dtstart, tzid, rule, synced=synced)
                    case.expected = expected_for(case)
            except TimeLimit:
                print(f"warning: case {index}: dateutil took over 20s on {core}; dropped it "
                      "(the generated set may differ from another run with this seed)", file=sys.stderr)
                continue
            except Exception:  # noqa: BLE001 - a combination dateutil cannot expand
                continue
            return case
        raise RuntimeError("generator could not produce a valid case")

    def pick_start(self, core: str, is_date: bool, info: dict, tz: Optional[ZoneInfo]):
        """Find a DTSTART that the rule produces itself (dateutil's first instance
        from a random base, checked to reproduce itself). With a small chance the
        result is then deliberately moved off the rule to exercise (a)."""
        tzid = tz.key if tz else None
        parts = rule_parts(core)
        # WEEKLY+BYSETPOS+BYDAY: DTSTART goes on the WKST weekday (time of day
        # kept), where dateutil's first week is the RFC's whole week; see the
        # module docstring. Such a DTSTART is often not one the rule produces.
        on_wkst = parts.get("FREQ") == "WEEKLY" and "BYSETPOS" in parts and "BYDAY" in parts
        wkst = DAYS.index(parts.get("WKST", "MO"))
        found = unsynced = None
        for _ in range(6):
            base = self.base_start(is_date, info, tz)
            horizon = min(CAP, base.replace(month=1, day=1) + dt.timedelta(days=41 * 366))
            try:
                first = dateutil_walls(core, base, tzid, 1, horizon)
                if not first:
                    return None, False  # (nearly) empty rule: not worth more tries
                cand = first[0]
                if on_wkst:
                    cand = week_start(cand, wkst)
                    if unsynced is None:
                        unsynced = cand
                again = dateutil_walls(core, cand, tzid, 1, horizon)
            except Exception:  # noqa: BLE001
                continue
            if again and again[0] == cand:
                found = cand
                break
        if found is None:
            if unsynced is not None and unsynced < CAP:
                return unsynced, False  # the rule does not produce its WKST day: exercises (a)
            return None, False
        if on_wkst:
            return found, True  # (a deliberate shift would take it off the WKST day)
        if self.chance(self.unsynced_share):
            step = dt.timedelta(days=self.rng.randint(1, 40)) if is_date else \
                dt.timedelta(minutes=self.rng.randint(1, 3000))
            off = found + step
            try:
                first = dateutil_walls(core, off, tzid, 1)
            except Exception:  # noqa: BLE001
                first = None
            if first and first[0] != off and off < CAP:
                return off, False
        return found, True

    def pick_end(self, core: str, start: dt.datetime, tzid: Optional[str], is_date: bool) -> str:
        r = self.rng
        roll = r.random()
        if roll < 0.3:
            return f";COUNT={r.randint(1, 30)}"
        if roll < 0.55:
            walls = dateutil_walls(core, start, tzid, 31)
            if not walls:
                return ""
            k = r.randint(0, len(walls) - 1)
            until = walls[k]
            if k + 1 < len(walls) and self.chance(0.5):
                # somewhere strictly between two instances
                gap = (walls[k + 1] - until).total_seconds()
                until += dt.timedelta(seconds=int(r.random() * max(gap - 1, 0)))
            if is_date:
                return ";UNTIL=" + fmt_date(until)
            if tzid:
                return ";UNTIL=" + fmt_local(to_utc(until, ZoneInfo(tzid))) + "Z"
            return ";UNTIL=" + fmt_local(until)
        return ""


# --------------------------------------------------------------------------
# Running ekctl


def run_ekctl(ekctl: str, cases: list, timeout: float) -> list:
    cmd = [ekctl] if os.path.exists(ekctl) else shlex.split(ekctl)
    payload = "".join(json.dumps(c.request()) + "\n" for c in cases)
    try:
        proc = subprocess.run(cmd + ["rrule", "--batch"], input=payload, capture_output=True,
                              text=True, timeout=timeout)
    except FileNotFoundError:
        sys.exit(f"error: cannot run {ekctl!r}")
    except subprocess.TimeoutExpired:
        sys.exit(f"error: ekctl did not finish within {timeout:.0f}s")
    if proc.returncode != 0:
        print(f"warning: ekctl exited with status {proc.returncode}", file=sys.stderr)
        if proc.stderr.strip():
            print(proc.stderr.strip()[-2000:], file=sys.stderr)
    lines = proc.stdout.splitlines()
    if len(lines) != len(cases):
        print(f"warning: ekctl wrote {len(lines)} lines for {len(cases)} cases", file=sys.stderr)
    return lines


def compare(case: Case, line: Optional[str]):
    """Returns (status, detail) with status one of pass, pass-a, pass-gap, pass-weekno,
    skip-gap, fail."""
    exp, raw, added = case.expected or expected_for(case)
    if line is None:
        return "fail", "no answer line"
    try:
        ans = json.loads(line)
    except json.JSONDecodeError:
        return "fail", f"answer is not JSON: {line[:200]!r}"
    if not isinstance(ans, dict):
        return "fail", f"answer is not an object: {line[:200]!r}"
    if "error" in ans:
        return "fail", f"ekctl error: {ans['error']}"
    occ = ans.get("occurrences")
    if not isinstance(occ, list) or not all(isinstance(s, str) for s in occ):
        return "fail", f"answer has no occurrences list: {line[:200]!r}"
    if len(occ) > case.limit:
        return "fail", f"{len(occ)} occurrences returned for limit {case.limit}"
    try:
        got = [parse_local(s) for s in occ]
    except ValueError as e:
        return "fail", f"bad occurrence: {e}"
    got = [w for w in got if w < CAP]

    tz = ZoneInfo(case.tzid) if case.tzid else None
    if tz is not None and (in_gap(parse_local(case.dtstart), tz) or any(in_gap(w, tz) for w in exp)):
        # (b) a wall time in a DST gap moves forward by the gap's length.
        if got == [shift_gap(w, tz) for w in exp]:
            return "pass-gap", None
        return "skip-gap", None
    if got == exp:
        return ("pass-a" if added else "pass"), None
    if WeeknoCheck.applies(case):
        # (c) dateutil's BYWEEKNO weeks at year boundaries: judge the instances
        # on one side only by RFC week numbering.
        problems = weekno_problems(case, got)
        if not problems:
            return "pass-weekno", None
        more = [f"... and {len(problems) - 10} more"] if len(problems) > 10 else []
        return "fail", "\n".join([describe(exp, got, raw, added),
                                  "  BYWEEKNO check per RFC 5545 week numbering:"]
                                 + ["    " + p for p in problems[:10] + more])
    return "fail", describe(exp, got, raw, added)


def weekno_problems(case: Case, got: list) -> list:
    """(c): returns why ekctl's answer to a BYWEEKNO rule is not explained by
    dateutil's year-boundary weeks; an empty list when it is.

    dateutil's instances are taken without COUNT and well past the limit, so that
    they cover all of ekctl's range; DTSTART comes first per (a). Compared is the
    range up to ekctl's last instance when ekctl stopped at the limit or COUNT,
    else everything. Each instance on one side only must be one that WeeknoCheck
    says the rule has (ekctl's) or has not (dateutil's), and must lie in a week
    across New Year (or, with BYSETPOS, in a year whose candidates reach one);
    instances on both sides must be ones WeeknoCheck says the rule has, and in a
    year where the engines differ, ekctl must have all that WeeknoCheck has."""
    check = WeeknoCheck(case)
    if any(b <= a for a, b in zip(got, got[1:])):
        return ["ekctl's instances are not strictly increasing"]
    count = rule_parts(case.rule).get("COUNT")
    full = min(case.limit, int(count)) if count is not None else case.limit
    if len(got) > full:
        return [f"ekctl returned {len(got)} instances for COUNT={count}"]
    rule = ";".join(x for x in case.rule.split(";") if x.partition("=")[0].upper() != "COUNT")
    ref = dateutil_walls(rule, check.start, case.tzid, 4 * case.limit)
    if not ref or ref[0] != check.start:
        ref = [check.start] + ref
    end = got[-1] if got and len(got) == full else CAP
    ours, theirs = set(got), {w for w in ref if w <= end}
    problems = []  # (instance, reason)

    def problem(w, what):
        problems.append((w, f"{fmt_local(w)} {what} ({check.describe(w)})"))

    # With BYSETPOS, a day dateutil wrongly counts in a week across New Year shifts the
    # positions of its whole year, so ekctl's instances of that year differ too.
    shifted_years = {w.year for w in theirs - ours
                     if check.setpos is not None and not check.is_instance(w)
                     and check.near_new_year(w)}
    for w in sorted(ours - theirs):
        if not check.is_instance(w):
            problem(w, "only from ekctl, not an instance per RFC")
        elif not check.near_new_year(w) and w.year not in shifted_years:
            problem(w, "only from ekctl, an instance per RFC but not near New Year")
    for w in sorted(theirs - ours):
        if check.is_instance(w):
            problem(w, "only from dateutil, an instance per RFC")
        elif not check.near_new_year(w):
            problem(w, "only from dateutil, not an instance per RFC but not near New Year")
    for w in sorted(ours & theirs):
        if not check.is_instance(w):
            problem(w, "from both, but not an instance per RFC (checker bug?)")
    for y in sorted({w.year for w in ours ^ theirs}):  # years where the engines differ: all of it
        for w in sorted({w for w in check.instances(y) if w <= end} - ours - theirs):
            problem(w, "from neither, but an instance per RFC")
    if not problems and ours == theirs:
        return ["no instance on one side only, yet the lists differ"]
    return [reason for _w, reason in sorted(problems)]


def describe(exp: list, got: list, raw: list, added: bool) -> str:
    i = 0
    while i < min(len(exp), len(got)) and exp[i] == got[i]:
        i += 1
    lo = max(0, i - 2)
    e = [fmt_local(w) for w in exp[lo:i + 4]]
    g = [fmt_local(w) for w in got[lo:i + 4]]
    lines = [f"first difference at instance {i} (expected {len(exp)}, got {len(got)} instances)",
             f"  expected[{lo}:]: {' '.join(e) or '-'}",
             f"  ekctl   [{lo}:]: {' '.join(g) or '-'}"]
    if added:
        lines.append("  (expected includes DTSTART per RFC 5545 3.8.5.3; dateutil did not produce it)")
    return "\n".join(lines)


# --------------------------------------------------------------------------


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Cross-check `ekctl rrule --batch` against python-dateutil.")
    ap.add_argument("--ekctl", required=True,
                    help="path of the ekctl executable (or a command line, e.g. 'swift run ekctl')")
    ap.add_argument("--cases", type=int, default=3000, help="number of random rules (default 3000)")
    ap.add_argument("--seed", type=int, default=None,
                    help="generator seed (default: CROSSCHECK_SEED, else a new one each run)")
    ap.add_argument("--max-skipped", type=float, default=0.005,
                    help="largest share of cases that may be skipped at a DST gap (default 0.005)")
    ap.add_argument("--unsynced-share", type=float, default=0.05,
                    help="share of cases whose DTSTART the rule does not produce (default 0.05)")
    ap.add_argument("--timeout", type=float, default=900, help="seconds allowed for ekctl (default 900)")
    ap.add_argument("--dump", metavar="FILE", help="also write the generated cases (JSON Lines) to FILE")
    args = ap.parse_args(argv)
    if args.cases < 1:
        ap.error("--cases must be positive")
    if args.seed is None:
        named = os.environ.get("CROSSCHECK_SEED", "")
        try:
            args.seed = int(named) if named else secrets.randbelow(2**31)
        except ValueError:
            ap.error(f"CROSSCHECK_SEED must be a number, not {named!r}")
    # First, so that a run that never ends still says how to replay it.
    print(f"seed {args.seed} (replay with --seed {args.seed} or CROSSCHECK_SEED={args.seed})",
          flush=True)

    gen = Generator(args.seed, args.unsynced_share)
    cases = [gen.make_case(i) for i in range(args.cases)]
    if args.dump:
        with open(args.dump, "w") as f:
            for c in cases:
                f.write(json.dumps(c.request()) + "\n")

    lines = run_ekctl(args.ekctl, cases, args.timeout)

    tally = {"pass": 0, "pass-a": 0, "pass-gap": 0, "pass-weekno": 0, "skip-gap": 0, "fail": 0}
    shown = 0
    skipped = []
    for i, case in enumerate(cases):
        line = lines[i] if i < len(lines) else None
        try:
            status, detail = compare(case, line)
        except Exception as e:  # noqa: BLE001 - never let one case hide the others
            status, detail = "fail", f"checker error: {e!r}"
        tally[status] += 1
        if status == "skip-gap":
            skipped.append(case)
        if status == "fail":
            shown += 1
            if shown <= 20:
                print(f"MISMATCH #{shown} (case {case.index}): {json.dumps(case.request())}")
                print(detail)
                print()
    if tally["fail"] > 20:
        print(f"... and {tally['fail'] - 20} more mismatches not shown")

    # Each skipped case, so that what the skips hide can be looked at.
    for case in skipped[:50]:
        print(f"SKIPPED (a DST gap, differing there) case {case.index}: {json.dumps(case.request())}")
    if len(skipped) > 50:
        print(f"... and {len(skipped) - 50} more skipped cases not shown")
    too_many = len(skipped) > args.max_skipped * len(cases)
    if too_many:
        print(f"FAILED: {len(skipped)} of {len(cases)} cases skipped at a DST gap, more than "
              f"{args.max_skipped:.1%}: the engine's DST handling may have changed")

    passed = tally["pass"] + tally["pass-a"] + tally["pass-gap"] + tally["pass-weekno"]
    print(f"seed {args.seed}: {len(cases)} cases; "
          f"{tally['pass-a']} passed with DTSTART added per RFC 5545 3.8.5.3, "
          f"{tally['pass-gap']} passed with DST-gap times moved forward, "
          f"{tally['pass-weekno']} passed with BYWEEKNO year-boundary weeks computed per RFC, "
          f"{tally['skip-gap']} skipped (touch a DST gap and differ there)")
    print(f"seed {args.seed}: {passed} passed, {tally['fail']} failed, {tally['skip-gap']} skipped")
    return 0 if tally["fail"] == 0 and not too_many else 1


if __name__ == "__main__":
    sys.exit(main())
