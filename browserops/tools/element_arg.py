"""The ``id`` argument of element tools: a number from the latest listing, or an element's blind id."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BeforeValidator, Field


def _digits_to_number(value: Any) -> Any:
    # Models often send numbers as strings ("7"); blind ids always contain a letter, so this is unambiguous.
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return value


ElementId = Annotated[
    int | str,
    BeforeValidator(_digits_to_number),
    Field(
        description="The element: its number in the latest browser_list_interactives listing (e.g. 7), "
        "or its stable id from that listing (e.g. 'b12').",
    ),
]
