"""Typed calls of ``js/formcheck.js``: what a form says is wrong with it."""

from __future__ import annotations

from typing import Literal, TypedDict

from browserops.browser.scripts import ElementCall, PageCall


class FormProblem(TypedDict):
    field: str  # the field's accessible name ('' for an error text of the whole form)
    message: str  # the browser's validation message, the field's error text, or the form's alert (cut)
    how: Literal["constraint", "aria-invalid", "error-text"]


def problems(limit: int = 20) -> ElementCall[list[FormProblem]]:
    """The problems of the form the element (a submit button, a field) belongs to."""
    return ElementCall("formcheck", "problems", {"limit": limit})


def page_problems(limit: int = 20) -> PageCall[list[FormProblem]]:
    """The fields of the whole document marked aria-invalid (a page a submit led to)."""
    return PageCall("formcheck", "pageProblems", {"limit": limit})
