"""Dates and times as people write them, turned into the value a date/time ``<input>`` holds.

A ``<input type=date>`` takes only ``2016-11-21`` through its value (what Playwright's ``fill`` sets); a
person writes ``11/21/2016``, ``21.11.2016``, ``Nov 21 2016`` or ``1:23 PM``. :func:`input_value` converts
the common forms and refuses, with :data:`ErrorCode.INVALID_ARGS`, any text it cannot read without guessing:

- ``2016-11-21`` (ISO, also ``2016/11/21``) is year-month-day.
- Dots or a dash between day-first numbers (``21.11.2016``, ``21-11-2016``) are day.month.year: that is how the
  places that write dates with dots write them (Germany, Russia, most of Europe).
- Slashes (``11/21/2016``) are ambiguous between the US (month first) and most other countries (day first):
  read as month/day only when the day is above 12 in that reading, as day/month only when the first number is
  above 12; ``03/04/2016`` is refused as ambiguous, so the caller writes it unambiguously (``2016-04-03``).
- Month names (``Nov 21 2016``, ``21 November 2016``) are read by python-dateutil, which needs no guessing there.
- Times: ``13:23``, ``1:23 PM``, ``1:23:45 pm``, ``1 PM``; seconds are kept when given.
- Impossible dates (``02/30/2016``) and times (``25:00``) are refused, never rolled over.
"""

from __future__ import annotations

import datetime as dt
import re

from dateutil import parser as date_parser

from browserops.contract import BrowserOpsError, ErrorCode

DATE_TYPES = ("date", "time", "datetime-local", "month", "week")

_ISO = re.compile(r"^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$")
_DAY_FIRST = re.compile(r"^(\d{1,2})[.-](\d{1,2})[.-](\d{4})$")
_SLASHED = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$")
_TIME = re.compile(r"^(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*([ap]\.?m\.?)?$", re.I)
_MONTH = re.compile(r"^(\d{4})-(\d{1,2})$|^(\d{1,2})[/.-](\d{4})$")
_WEEK = re.compile(r"^(\d{4})-?W(\d{1,2})$", re.I)
_HINT = {
    "date": "write it as 2016-11-21 (year-month-day)",
    "time": "write it as 13:23 or 1:23 PM",
    "datetime-local": "write it as 2016-11-21 13:23",
    "month": "write it as 2016-11 or Nov 2016",
    "week": "write it as 2016-W47 or as a date in that week",
}


def _bad(kind: str, text: str, why: str) -> BrowserOpsError:
    return BrowserOpsError(ErrorCode.INVALID_ARGS, f"Cannot read {text!r} as a {kind}: {why}; {_HINT[kind]}.",
                           details={"input_type": kind})


def _make_date(kind: str, text: str, year: int, month: int, day: int) -> dt.date:
    try:
        return dt.date(year, month, day)
    except ValueError as exc:
        raise _bad(kind, text, f"there is no such date ({exc})") from None


def parse_date(text: str, kind: str = "date") -> dt.date:
    """The calendar date ``text`` names (see the module docstring for what is accepted)."""
    s = " ".join(text.split())
    if m := _ISO.match(s):
        return _make_date(kind, text, int(m[1]), int(m[2]), int(m[3]))
    if m := _DAY_FIRST.match(s):
        return _make_date(kind, text, int(m[3]), int(m[2]), int(m[1]))
    if m := _SLASHED.match(s):
        first, second, year = int(m[1]), int(m[2]), int(m[3])
        if first == second or (first <= 12 and second > 12):
            return _make_date(kind, text, year, first, second)
        if first > 12 and second <= 12:
            return _make_date(kind, text, year, second, first)
        if first > 12 and second > 12:
            raise _bad(kind, text, "neither number can be the month")
        raise _bad(kind, text, f"it could be month {first} day {second} or day {first} month {second}")
    if not re.search(r"[A-Za-z]{3,}", s) or not re.search(r"\d{4}", s):
        raise _bad(kind, text, "it is not a date in a form read without guessing (a four-digit year is needed)")
    try:
        parsed = date_parser.parse(s, default=dt.datetime(1, 1, 1))
    except (ValueError, OverflowError) as exc:
        raise _bad(kind, text, str(exc) or "not a date") from None
    if parsed.day == 1 and not re.search(r"\b0?1(st)?\b", s):
        raise _bad(kind, text, "no day of the month is given")
    return parsed.date()


def parse_time(text: str, kind: str = "time") -> str:
    """``HH:MM`` or ``HH:MM:SS`` (24-hour) for the time ``text`` names."""
    m = _TIME.match(" ".join(text.split()))
    if not m:
        raise _bad(kind, text, "it is not a time")
    hour, minute, second = int(m[1]), int(m[2] or 0), m[3]
    meridiem = (m[4] or "").replace(".", "").lower()
    if meridiem:
        if not 1 <= hour <= 12:
            raise _bad(kind, text, f"{hour} is no hour on a 12-hour clock")
        hour = hour % 12 + (12 if meridiem == "pm" else 0)
    elif m[2] is None:
        raise _bad(kind, text, "a bare number is no time (write 13:00 or 1 PM)")
    if hour > 23 or minute > 59 or (second is not None and int(second) > 59):
        raise _bad(kind, text, "there is no such time of day")
    return f"{hour:02d}:{minute:02d}" + (f":{int(second):02d}" if second is not None else "")


def _split_date_time(text: str) -> tuple[str, str]:
    s = re.sub(r"^(\d{4}-\d{1,2}-\d{1,2})T", r"\1 ", " ".join(text.split()))
    m = re.search(r"(?:,?\s+|\s*,\s*)(?:at\s+)?(\d{1,2}(?::\d{2}){0,2}\s*(?:[ap]\.?m\.?)?)$", s, re.I)
    if not m or (":" not in m[1] and not re.search(r"[ap]\.?m", m[1], re.I)):
        raise _bad("datetime-local", text, "a date and a time are both needed")
    return s[: m.start()].rstrip(", "), m[1]


def input_value(input_type: str, text: str) -> str:
    """The value an ``<input type=input_type>`` must hold for ``text``; other input types get ``text`` as is.

    Raises :class:`BrowserOpsError` (``INVALID_ARGS``) for text that is ambiguous or names no real date/time.
    """
    kind = input_type.lower()
    s = text.strip()
    if kind not in DATE_TYPES or not s:
        return text
    if kind == "date":
        return parse_date(s, kind).isoformat()
    if kind == "time":
        return parse_time(s, kind)
    if kind == "datetime-local":
        day_text, clock = _split_date_time(s)
        return f"{parse_date(day_text, kind).isoformat()}T{parse_time(clock, kind)}"
    if kind == "month":
        if m := _MONTH.match(s):
            year, month = (int(m[1]), int(m[2])) if m[1] else (int(m[4]), int(m[3]))
            _make_date(kind, text, year, month, 1)
            return f"{year:04d}-{month:02d}"
        if re.fullmatch(r"[A-Za-z]{3,}\.?\s+\d{4}|\d{4}\s+[A-Za-z]{3,}", s):
            try:
                parsed = date_parser.parse(s, default=dt.datetime(1, 1, 1))
            except (ValueError, OverflowError):
                raise _bad(kind, text, "it is not a month") from None
            return f"{parsed.year:04d}-{parsed.month:02d}"
        in_month = parse_date(s, kind)
        return f"{in_month.year:04d}-{in_month.month:02d}"
    if m := _WEEK.match(s):  # week
        year, week = int(m[1]), int(m[2])
        try:
            dt.date.fromisocalendar(year, week, 1)
        except ValueError:
            raise _bad(kind, text, f"{year} has no week {week}") from None
        return f"{year:04d}-W{week:02d}"
    iso = parse_date(s, kind).isocalendar()
    return f"{iso.year:04d}-W{iso.week:02d}"
