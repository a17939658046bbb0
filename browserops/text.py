"""The one folding rule for comparing what people and pages write: :func:`fold`.

Each matcher builds on it rather than writing its own: the policy gate's word lists also strip Latin accents
(:func:`browserops.words.fold_for_words`), plan targets also drop a label's trailing ``*`` and ``:``
(:func:`browserops.plan.interpret.resolve.label_key`), the done-word parser also turns punctuation into spaces.
"""

from __future__ import annotations

import unicodedata


def fold(text: str) -> str:
    """NFKC (full-width letters, ligatures), case-folded, typographic apostrophes straight, whitespace collapsed."""
    folded = unicodedata.normalize("NFKC", text).casefold().replace("’", "'")
    return " ".join(folded.split())
