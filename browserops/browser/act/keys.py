"""Key names and chords as Playwright understands them, with the spellings people use accepted.

``normalise_key("ctrl+a") == "Control+a"``; an unknown name raises ``ValueError`` with the valid forms, so
an args model can report it against the ``key`` field.
"""

from __future__ import annotations

MODIFIERS = {
    "control": "Control",
    "ctrl": "Control",
    "shift": "Shift",
    "alt": "Alt",
    "option": "Alt",
    "meta": "Meta",
    "cmd": "Meta",
    "command": "Meta",
    "win": "Meta",
    "controlormeta": "ControlOrMeta",
}

_NAMED = [
    "Enter", "Tab", "Escape", "Backspace", "Delete", "Insert", "Home", "End", "PageUp", "PageDown",
    "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Space", "CapsLock", "ContextMenu", "NumLock",
    "ScrollLock", "Pause", "PrintScreen", "MediaPlayPause", "MediaTrackNext", "MediaTrackPrevious",
    "AudioVolumeUp", "AudioVolumeDown", "AudioVolumeMute", "Backquote", "Minus", "Equal", "Backslash",
    "BracketLeft", "BracketRight", "Semicolon", "Quote", "Comma", "Period", "Slash", "NumpadEnter",
    "NumpadAdd", "NumpadSubtract", "NumpadMultiply", "NumpadDivide", "NumpadDecimal",
    *[f"F{i}" for i in range(1, 13)],
    *[f"Key{c}" for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"],
    *[f"Digit{i}" for i in range(10)],
    *[f"Numpad{i}" for i in range(10)],
]
NAMED_KEYS = {name.lower(): name for name in _NAMED}
ALIASES = {
    "esc": "Escape",
    "return": "Enter",
    "del": "Delete",
    "up": "ArrowUp",
    "down": "ArrowDown",
    "left": "ArrowLeft",
    "right": "ArrowRight",
    "pgup": "PageUp",
    "pgdn": "PageDown",
    "pagedown": "PageDown",
    "pageup": "PageUp",
    "spacebar": "Space",
    "plus": "+",
}

MAX_CHORD = 4
# Characters Playwright presses as a named key (its keyboard layout's aliases): a line break is Enter. Named here so
# that every check of what a press does (the policy gate, a press's navigation grace) sees the key it will be.
CHARACTER_KEYS = {"\n": "Enter", "\r": "Enter"}


def _one(part: str) -> str:
    if len(part) == 1:
        return part
    low = part.lower()
    if low in NAMED_KEYS:
        return NAMED_KEYS[low]
    if low in ALIASES:
        return ALIASES[low]
    raise ValueError(
        f"unknown key {part!r}: use a single character (k, a, 1, ?) or a key name such as Enter, Tab, Escape, "
        "Space, Backspace, Delete, ArrowDown, PageDown, Home, End, F5, optionally with Control/Shift/Alt/Meta+"
    )


def normalise_key(key: str) -> str:
    raw = key.strip() if key.strip() else key
    if not raw:
        raise ValueError("key is empty: give a key name such as Enter or a chord such as Control+a")
    if len(raw) == 1:  # any single character, "+" and " " included
        return CHARACTER_KEYS.get(raw, raw)
    parts = raw.split("+")
    if raw.endswith("++"):  # "Control++" means Control and the + key
        parts = [*parts[:-2], "+"]
    if any(p.strip() == "" for p in parts) or len(parts) > MAX_CHORD:
        raise ValueError(f"{key!r} is not a key or chord; write chords as Control+a or Shift+Tab")
    *mods, last = (p.strip() for p in parts)
    out = []
    for mod in mods:
        name = MODIFIERS.get(mod.lower())
        if name is None:
            raise ValueError(f"{mod!r} is not a modifier: use Control, Shift, Alt or Meta before '+'")
        out.append(name)
    modifier_alone = MODIFIERS.get(last.lower())
    out.append(modifier_alone if modifier_alone else _one(last))
    return "+".join(out)


# Keys that activate what has the focus (a default button, a link, a form's submit on Enter): a press of one is
# treated like a click — what follows may be another page (prepare stops reading there, the run's page check ends
# there, and the press waits its whole grace for a navigation: a form's submission starts a moment after the key).
ACTIVATING_KEYS = frozenset({"Enter", "NumpadEnter", "Space", " "})


def activating(key: str | None) -> bool:
    """Whether pressing ``key`` (a key or chord) may activate something: Enter or Space, alone or in a chord."""
    return bool(key) and key is not None and key.split("+")[-1] in ACTIVATING_KEYS
