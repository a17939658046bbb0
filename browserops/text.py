"""The one folding rule for comparing what people and pages write: :func:`fold`, and :func:`name_key` for names.

Each matcher builds on it rather than writing its own: the policy gate's word lists also strip Latin accents
(:func:`browserops.words.fold_for_words`), plan targets compare names by :func:`name_key` (a label's trailing ``*``
and ``:`` and icon words dropped), the done-word parser also turns punctuation into spaces. The page side folds the
same way (``js/lib_base.js`` fold), so ``browser_find`` and ``within`` match as the plan does.
"""

from __future__ import annotations

import re
import unicodedata

# Scripts written without spaces between words: a space between two of their characters is layout, not a word
# break (antd puts one between the two characters of a button: "确 定" is the button 确定).
_CJK = "\u2e80-\u2fdf\u3040-\u30ff\u3100-\u312f\u31a0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_GAP = re.compile(f"(?<=[{_CJK}]) (?=[{_CJK}])")
# A required field's mark and a label's colon, before or after the label ("* 名称", "Name *", "Имя:").
_MARKS = re.compile(r"^[\s*]+|[\s*:：]+$")
# An icon's word in a name (an icon font's ligature "save", antd's aria-label "exclamation-circle"): lowercase ASCII,
# an identifier's shape.
_ICON_WORD = re.compile(r"^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$")
_CJK_ANY = re.compile(f"[{_CJK}]")


def fold(text: str) -> str:
    """NFKC (full-width letters, ligatures), case-folded, typographic apostrophes straight, whitespace collapsed,
    and no space between two CJK characters."""
    folded = unicodedata.normalize("NFKC", text).casefold().replace("’", "'")
    return _CJK_GAP.sub("", " ".join(folded.split()))


def name_key(text: str) -> str:
    """How a name is compared, as people read it: :func:`fold`, then a required field's ``*`` and a label's ``:``
    dropped. Exact otherwise: nothing else is dropped, so no other control's name becomes this one."""
    return _MARKS.sub("", fold(text))


def without_icon_words(key: str) -> str:
    """A :func:`name_key` without the words of icons written beside CJK words (``save 保存`` is the button 保存,
    ``exclamation-circle 确定要删除吗?`` the question): lowercase ASCII words of an identifier's shape, which in a name
    otherwise written in CJK are an icon's ligature or label, not the name's own words. A matcher compares these
    only after the whole keys found nothing (a page could have both "Email 地址" and "地址")."""
    words = key.split(" ")
    if len(words) < 2 or not _CJK_ANY.search(key):
        return key
    kept = [w for w in words if not _ICON_WORD.match(w)]
    return _CJK_GAP.sub("", " ".join(kept)) if kept and _CJK_ANY.search(" ".join(kept)) else key
