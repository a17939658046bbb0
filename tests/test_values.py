"""Values compared by meaning in the page's language (browserops/values.py): what a field shows after it reformats
what was typed is the same value, and nothing else is."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from browserops.values import date_value, number_value, page_locale, same_value


@pytest.mark.parametrize(("shown", "wanted", "lang"), [
    ("13,250", "13250", "en"),             # an InputNumber's thousands separator (antd, en)
    ("13,250", "13250", "zh-CN"),
    ("13 250", "13250", "ru"),              # a plain space where the locale writes a no-break one
    ("13\u00a0250,00", "13250", "ru"),
    ("899,00", "899.00", "ru"),             # the decimal comma, the plan's machine spelling
    ("899,00", "899", "de"),
    ("1.234,5", "1234.5", "de"),
    ("¥13,250", "13250", "zh-CN"),          # currency signs and words either side
    ("¥ 13,250.00", "13250", "zh-CN"),
    ("13,250元", "13250", "zh-CN"),
    ("899,00 ₽", "899", "ru"),
    ("899,00 руб.", "899.00", "ru"),
    ("$1,299.99", "1299.99", "en-US"),
    ("-$5.00", "-5", "en"),
    ("−12", "-12", "en"),                   # the minus sign
    ("１３２５０", "13250", "ja"),          # full-width digits (NFKC)
    ("02.11.2026", "2026-11-02", "ru"),     # a date as the page's language writes it
    ("2026年11月2日", "2026-11-02", "zh-CN"),
    ("2026/11/02", "2026-11-02", "zh"),
    ("11/02/2026", "2026-11-02", "en-US"),
    ("02/11/2026", "2026-11-02", "en-GB"),
    ("2026. 11. 2.", "2026-11-02", "ko"),
    ("02.11.2026", "02.11.2026", "en"),     # the same text is always the same value
    ("Hello  world", "Hello world", "en"),
])
def test_the_same_value_in_another_spelling(shown: str, wanted: str, lang: str) -> None:
    assert same_value(shown, wanted, lang)


@pytest.mark.parametrize(("shown", "wanted", "lang"), [
    ("13,25", "13250", "en"),               # wrong grouping is no number: never 1325
    ("899,00", "899", "en"),                # a decimal comma on an English page is not read as one
    ("1.500", "1.5", "de"),                 # German grouping: 1500
    ("13,251", "13250", "en"),
    ("02.11.2026", "2026-02-11", "ru"),     # day first in Russian
    ("11/02/2026", "2026-02-11", "en-US"),  # month first in American English
    ("12 apples", "12", "en"),              # not wholly a number: compared as text
    ("hello", "Hello", "en"),               # case is kept
    ("2026-11-02", "2026-11-03", "en"),
    ("13250", "2026-11-02", "en"),
    ("5", "6", "en"),
])
def test_a_different_value_is_never_the_same(shown: str, wanted: str, lang: str) -> None:
    assert not same_value(shown, wanted, lang)


def test_numbers_and_dates_read_alone() -> None:
    assert number_value("13,250", "en") == Decimal("13250")
    assert number_value("13,250", "ru") == Decimal("13.250")  # a Russian decimal comma
    assert number_value("abc", "en") is None and number_value("", "en") is None
    assert date_value("02.11.2026", "de") == dt.date(2026, 11, 2)
    assert date_value("31.02.2026", "de") is None and date_value("2026-02-30", "en") is None
    assert date_value("13250", "en") is None


def test_the_pages_lang_names_a_locale_or_english() -> None:
    assert str(page_locale("zh-CN")) == "zh_Hans_CN" and str(page_locale("ru-RU")) == "ru_RU"
    assert str(page_locale("")) == "en" and str(page_locale(None)) == "en" and str(page_locale("xx-YY")) == "en"
    assert str(page_locale("en-ZZ")).startswith("en")


@settings(deadline=None)  # the first call loads the locale's CLDR data: slow on a busy machine, not wrong
@given(st.decimals(min_value=-10**9, max_value=10**9, places=2, allow_nan=False, allow_infinity=False),
       st.sampled_from(["en", "ru", "de", "zh-CN", "fr", "ja"]))
def test_a_number_formatted_by_the_locale_means_the_number(value: Decimal, lang: str) -> None:
    from babel.numbers import format_decimal

    shown = format_decimal(value, format="#,##0.00", locale=page_locale(lang))
    assert number_value(shown, lang) == value
    assert same_value(shown, str(value), lang)
