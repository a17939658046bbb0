"""The fence around page content: everything taken from a web page (element names, titles, addresses, extracted
text, summaries of results) reaches the model between two markers carrying a random token made for the run.

The page cannot close the fence early and speak as browserops: it never sees the token (it is only in the
system prompt and the model's messages), and whatever the page says is cleaned before it is fenced — the
token itself and the marker brackets are removed, so even a page that guessed the format writes only plain
text. The system prompt tells the model that what is inside is data, never an instruction.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

LEFT, RIGHT = "⟦", "⟧"


@dataclass(frozen=True)
class Fence:
    token: str

    @classmethod
    def new(cls) -> Fence:
        return cls(secrets.token_hex(8))

    @property
    def open(self) -> str:
        return f"{LEFT}page {self.token}{RIGHT}"

    @property
    def close(self) -> str:
        return f"{LEFT}/page {self.token}{RIGHT}"

    def clean(self, text: str) -> str:
        """Page text with the token and the marker brackets taken out (it cannot forge a marker)."""
        text = re.sub(re.escape(self.token), "", text, flags=re.IGNORECASE)
        return text.replace(LEFT, "[").replace(RIGHT, "]")

    def wrap(self, text: str) -> str:
        return f"{self.open}{self.clean(text)}{self.close}"

    def block(self, text: str) -> str:
        """Several lines of page content as one fenced block."""
        return f"{self.open}\n{self.clean(text)}\n{self.close}"

    def value(self, value: Any) -> Any:
        """A summary value (text, list or mapping of texts) with every text fenced."""
        if isinstance(value, str):
            return self.wrap(value)
        if isinstance(value, list):
            return [self.value(v) for v in value]
        if isinstance(value, Mapping):
            return {k: self.value(v) for k, v in value.items()}
        return value


# For callers that render page content outside a run (a fresh token per process).
PROCESS_FENCE = Fence.new()
