"""What a value means, so that what a field shows is compared with what was typed or planned as people read it.

A field may reformat what it is given: an amount typed as ``13250`` shows ``13,250`` on an English page and
``13 250`` on a Russian one, ``899.00`` shows ``899,00`` where the comma is the decimal sign, a price carries its
currency sign (``¥13,250``, ``899,00 ₽``), and a date typed ``2026-11-02`` shows ``02.11.2026`` or ``2026年11月2日``.
:func:`same_value` says whether two spellings mean the same value **in the page's language** (its ``lang``): the
run's check of a typed value, prepare's reading of a field's current value and the plan's diff all ask it, and so
does the read-back of a step. Locale data (separators, date order, currency signs) is CLDR's, through Babel.

The rule stays strict: two spellings are the same only when both read as the same number, or both as the same
calendar date, or they are the same text (Unicode NFKC, whitespace collapsed; case kept). A text that is not wholly
a number or a date (``12 apples``) is compared as text; a spelling the page's language would read otherwise
(``1.500`` is 1500 in German) is read that way. Nothing is rounded and nothing is guessed.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
import unicodedata
from decimal import Decimal, InvalidOperation

from babel import Locale, UnknownLocaleError
from babel.dates import parse_date as babel_parse_date
from babel.numbers import NumberFormatError, get_group_symbol, parse_decimal

__all__ = ["date_value", "number_value", "page_locale", "same_value"]

DEFAULT_LOCALE = "en"
# How a page writes a number: digits, signs, separators (every space, the apostrophe of Swiss grouping).
_NUMBER_SHAPE = re.compile(r"^[+-]?\d[\d\s.,'’]*$")
_MACHINE_NUMBER = re.compile(r"^[+-]?\d+(?:\.\d+)?$")
# A calendar date written with numbers: year first (ISO, 2026/11/02, the CJK 2026年11月2日, Korean 2026. 11. 2.) or
# day/month first with a four-digit year (02.11.2026, 11/02/2026).
_YEAR_FIRST = re.compile(r"^(\d{4})\s*(?:[-/.]|年)\s*(\d{1,2})\s*(?:[-/.]|月)\s*(\d{1,2})\s*[.日]?$")
_OTHER_FIRST = re.compile(r"^\d{1,2}\s*([-/.])\s*\d{1,2}\s*\1\s*\d{4}\.?$")
# Words that name a currency after or before an amount without being a currency sign (Unicode Sc): the yuan's and
# the yen's character, the ruble's abbreviations.
_CURRENCY_WORDS = ("元", "円", "руб.", "руб", "р.")


@functools.lru_cache(maxsize=64)
def page_locale(lang: str | None) -> Locale:
    """The locale a page's ``lang`` names (``zh-CN``, ``ru``, ``pt_BR``); English when it names none Babel knows."""
    tag = (lang or "").strip().replace("_", "-")
    if tag:
        try:
            return Locale.parse(tag, sep="-")
        except (UnknownLocaleError, ValueError):
            base = tag.split("-")[0]
            try:
                return Locale.parse(base)
            except (UnknownLocaleError, ValueError):
                pass
    return Locale.parse(DEFAULT_LOCALE)


def _plain(text: str) -> str:
    """NFKC (full-width digits and signs become ASCII), the minus sign as a hyphen, whitespace collapsed."""
    return " ".join(unicodedata.normalize("NFKC", text).replace("\u2212", "-").split())


@functools.lru_cache(maxsize=64)
def _currency_marks(locale: Locale) -> tuple[str, ...]:
    """Every currency sign and code the locale writes, longest first (so ``US$`` goes before ``$``)."""
    marks = {unicodedata.normalize("NFKC", s) for s in locale.currency_symbols.values()}
    marks |= set(locale.currency_symbols) | set(_CURRENCY_WORDS)
    return tuple(sorted(marks, key=len, reverse=True))


def _strip_currency(text: str, locale: Locale) -> str:
    """The amount without the currency sign or code written before or after it (and a sign before the sign)."""
    out = text
    sign = ""
    if out[:1] in "+-" and len(out) > 1 and not out[1].isdigit():  # -$5, -¥13,250
        sign, out = out[0], out[1:].lstrip()
    for _ in range(2):  # a sign on each side at most (US$ 5 USD is not an amount anyone writes)
        stripped = out.strip()
        if stripped[:1] and unicodedata.category(stripped[0]) == "Sc":
            stripped = stripped[1:]
        elif stripped[-1:] and unicodedata.category(stripped[-1]) == "Sc":
            stripped = stripped[:-1]
        else:
            for mark in _currency_marks(locale):
                if stripped.startswith(mark) and not mark[-1:].isdigit():
                    stripped = stripped[len(mark):]
                    break
                if stripped.endswith(mark):
                    stripped = stripped[: -len(mark)]
                    break
        if stripped.strip() == out.strip():
            break
        out = stripped
    return sign + out.strip()


def number_value(text: str, lang: str | None = None) -> Decimal | None:
    """The number ``text`` writes in the page's language, or None when it is not wholly a number: grouping
    (``13,250``, ``13 250``, ``1.234,5`` in German) and the decimal comma (``899,00``) read by the locale's CLDR
    rules, strictly (``899,00`` on an English page is no number: its grouping is wrong); the currency sign or code
    around it dropped. A plain ``899.00`` that the locale cannot read (a Russian page: the dot is neither of its
    separators) is read as written by a machine."""
    locale = page_locale(lang)
    plain = _strip_currency(_plain(text), locale)
    if not plain or not _NUMBER_SHAPE.match(plain):
        return None
    group = get_group_symbol(locale)
    if group.isspace() or group in ("\u00a0", "\u202f"):  # a page writes the locale's no-break space as any space
        plain = re.sub(r"(?<=\d)\s(?=\d)", group, plain)
    try:
        return parse_decimal(plain, locale=locale, strict=True)
    except (NumberFormatError, InvalidOperation, ValueError):
        pass
    if _MACHINE_NUMBER.match(plain):
        return Decimal(plain)
    return None


def date_value(text: str, lang: str | None = None) -> dt.date | None:
    """The calendar date ``text`` writes with numbers, or None: year first in any language (``2026-11-02``,
    ``2026/11/02``, ``2026年11月2日``); day and month first in the order the page's language writes them
    (``02.11.2026`` in Russian and German, ``11/02/2026`` in American English, ``02/11/2026`` in British)."""
    plain = _plain(text)
    if match := _YEAR_FIRST.match(plain):
        year, month, day = (int(g) for g in match.groups())
        try:
            return dt.date(year, month, day)
        except ValueError:
            return None
    if not _OTHER_FIRST.match(plain):
        return None
    try:
        return babel_parse_date(plain.rstrip("."), locale=page_locale(lang), format="short")
    except (ValueError, IndexError, TypeError):
        return None


def same_value(shown: str, wanted: str, lang: str | None = None) -> bool:
    """Whether what a field shows means what was typed or planned, in the page's language ``lang``: the same
    text, the same number, or the same date (see the module docstring). Never a near match."""
    if shown == wanted:
        return True
    plain_shown, plain_wanted = _plain(shown), _plain(wanted)
    if plain_shown == plain_wanted:
        return True
    number_shown = number_value(plain_shown, lang)
    if number_shown is not None:
        number_wanted = number_value(plain_wanted, lang)
        return number_wanted is not None and number_shown == number_wanted
    date_shown = date_value(plain_shown, lang)
    return date_shown is not None and date_shown == date_value(plain_wanted, lang)
