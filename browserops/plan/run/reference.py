"""Finding a confirmation reference ("Reference: EXP-0001", "Номер заявки: 123-45", "订单编号：SO-77") in the
status messages of the page a submit led to, so the run result and the bundle can name it."""

from __future__ import annotations

import re

_REFERENCE_WORDS = r"(?:reference|ref\.?|confirmation|order|booking|ticket|invoice|номер|код|编号|单号|参考号)"
# The word, at most two more words ("number", "заявки"), a ':' '#' '№' or a space, then the token.
_REFERENCE = re.compile(
    rf"(?<![A-Za-zА-Яа-я]){_REFERENCE_WORDS}(?:[^\S\n]+[^\s:#№：]+){{0,2}}?\s*(?:[:#№：]|\s)\s*"
    r"([A-Z0-9][A-Z0-9._/-]{2,40})",
    re.IGNORECASE,
)


def find_reference(texts: list[str]) -> str | None:
    """A confirmation reference ("Reference: EXP-0001", "Номер: 123-45") in the page's status messages."""
    for text in texts:
        match = _REFERENCE.search(text)
        if match and any(ch.isdigit() for ch in match.group(1)):
            return match.group(1).rstrip(".")
    return None
