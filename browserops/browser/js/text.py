"""Typed calls of ``js/text.js`` and ``js/extract.js``: reading what a document says."""

from __future__ import annotations

from typing import Any, TypedDict

from browserops.browser.scripts import PageCall


class Extract(TypedDict, total=False):
    lang: str
    headings: list[dict[str, Any]]  # {level, text}
    text: str  # a snippet of the main text
    text_chars: int  # the main text's full length
    counts: dict[str, int]  # links, buttons, fields... (zero counts left out)
    messages: list[str]  # live regions (role=alert/status)
    dialogs: list[str]


def page_text() -> PageCall[str]:
    """The visible text of the document, open shadow roots included."""
    return PageCall("text", "pageText")


def has_text(text: str) -> PageCall[bool]:
    """Does the document's visible text contain ``text`` (case-folded, whitespace-normalised)?"""
    return PageCall("text", "hasText", {"text": text})


def extract(snippet_chars: int, max_headings: int) -> PageCall[Extract]:
    """A short structured summary of the document."""
    return PageCall("extract", "extract", {"snippet": snippet_chars, "headings": max_headings})
