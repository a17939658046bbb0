"""Recognising "I'm done" after a manual hand-off (docs/design.md §10.3), in the languages users write in.

A message counts as done when, after normalisation (NFKC, case-folded, punctuation and emoji removed), it
is short and contains one of the phrases below — and is not negated ("not done", "не готово", "还没好").
Anything else while waiting is treated as new instructions, so a wrong guess costs one extra question,
never a skipped step.
"""

from __future__ import annotations

import re

from browserops.text import fold

# Phrases in space-separated scripts, matched as whole word sequences.
_WORD_PHRASES: tuple[str, ...] = (
    # English
    "done", "i'm done", "im done", "i am done", "all done", "finished", "i finished", "ready", "all set",
    "logged in", "i logged in", "i'm logged in", "signed in", "complete", "completed", "ok done",
    "go on", "continue", "proceed",
    # Russian / Ukrainian
    "готово", "готов", "готова", "сделал", "сделала", "сделано", "всё", "все готово", "вошёл", "вошел",
    "вошла", "залогинился", "залогинилась", "продолжай", "продолжайте", "дальше", "зроблено", "готово вже",
    # German
    "fertig", "erledigt", "bin fertig", "weiter",
    # French
    "terminé", "termine", "fini", "c'est fait", "c est fait", "fait", "j'ai fini", "continue",
    # Spanish / Portuguese / Italian
    "listo", "lista", "hecho", "terminado", "ya está", "ya esta", "pronto", "feito", "fatto", "finito",
    # Polish / Turkish / Dutch
    "gotowe", "zrobione", "tamam", "bitti", "klaar", "gedaan",
)
# Phrases in scripts written without spaces (Chinese, Japanese), matched as substrings of short messages.
_CJK_PHRASES: tuple[str, ...] = (
    "好了", "完成", "完成了", "做好了", "弄好了", "登录了", "已登录", "登录好了", "继续", "可以了",
    "できた", "終わった", "完了", "ログインした", "완료", "됐어", "다 했어",
)
_NEGATIONS = frozenset({"not", "n't", "never", "no", "не", "нет", "ещё", "еще", "nicht", "noch", "pas",
                        "todavía", "todavia", "aún", "aun", "nie", "non", "niet"})
_CJK_NEGATIONS = ("没", "未", "不", "まだ", "아직", "안 ")
# Longer messages are instructions that merely mention a done-word ("done with that, now open the cart").
_MAX_WORDS = 6
_MAX_CJK_CHARS = 12

_PUNCT = re.compile(r"[^\w\s']", re.UNICODE)


def _words(text: str) -> str:
    """:func:`browserops.text.fold` with punctuation and emoji turned into spaces."""
    return " ".join(_PUNCT.sub(" ", fold(text)).split())


def _tokens(phrase: str) -> list[str]:
    return _words(phrase).split()


_WORD_TOKENS = [_tokens(p) for p in _WORD_PHRASES]
_CJK_COMPACT = [_words(p).replace(" ", "") for p in _CJK_PHRASES]


def _contains(words: list[str], phrase: list[str]) -> int:
    """Index where ``phrase`` starts in ``words``, or -1."""
    n = len(phrase)
    for i in range(len(words) - n + 1):
        if words[i : i + n] == phrase:
            return i
    return -1


def is_done_message(text: str) -> bool:
    """True when a chat message says the user finished the manual part ("done", "готово", "好了", …)."""
    norm = _words(text)
    if not norm:
        return False
    compact = norm.replace(" ", "")
    if any(p in compact for p in _CJK_COMPACT):
        return len(compact) <= _MAX_CJK_CHARS and not any(n in norm for n in _CJK_NEGATIONS)
    words = norm.split()
    if len(words) > _MAX_WORDS:
        return False
    # In a message this short any negation anywhere ("done? not yet") means not done.
    if any(w in _NEGATIONS or w.endswith("n't") for w in words):
        return False
    return any(_contains(words, phrase) >= 0 for phrase in _WORD_TOKENS)
