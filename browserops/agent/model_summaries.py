"""What the model is told about a tool result and about the page: short, generic and cut.

- :func:`llm_summary` builds the summary signals of docs/design.md §8.4 from any tool result
  (``{"status", "code"?, "error"?, "data"?}``): title, URL, snippet, counts, the top items with their
  numbers, focus, find matches, banners, transfers, error class. It reads well-known keys generically, so
  ``browser_observe``, ``browser_list_interactives``, ``browser_find`` and ``browser_extract`` (and tools
  added later) all summarise without special cases.
- :func:`observation_from_result` renders the latest observation in full (numbered elements, page text)
  and its one-line summary, which replaces it once a newer one arrives.

Everything in either that came from the page is inside the run's :class:`~browserops.agent.fence.Fence`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from browserops.agent.fence import PROCESS_FENCE, Fence
from browserops.listing_rows import listing_items

TEXT_LIMIT = 10_000  # docs/design.md §8.5: long texts are cut
SNIPPET_CHARS = 200  # docs/design.md §8.4: a snippet of about the first 200 characters
NAME_CHARS = 80
PAGE_TEXT_CHARS = 3_000
ELEMENTS_CHARS = 6_000
ITEM_KEYS = ("items", "elements", "interactives", "matches", "results")
TEXT_KEYS = ("snippet", "summary", "text", "page_text", "content")
# Summary fields whose values come from the page (the rest is browserops' own words and numbers).
PAGE_FIELDS = ("title", "url", "snippet", "find_top", "enumerate_top", "focus", "notices", "transfer", "data")


def cut(text: str, limit: int = TEXT_LIMIT) -> str:
    """``text`` shortened to ``limit`` characters, saying how much was dropped."""
    if len(text) <= limit:
        return text
    marker = f" …[cut {len(text) - limit} chars]"
    return text[: max(0, limit - len(marker))] + marker


def one_line(text: Any, limit: int = NAME_CHARS) -> str:
    return cut(" ".join(str(text).split()), limit)


def items_of(data: Mapping[str, Any]) -> tuple[str, list[Mapping[str, Any]]]:
    """The result's items as objects, whether they came as rows or objects (:func:`listing_items`); a
    listing's ``off_screen_from`` is carried onto each item it covers, so every item reads the same whether
    its result flags items one by one or once."""
    for key in ITEM_KEYS:
        if isinstance(data.get(key), list):
            return key, list(listing_items(data, key))
    return "", []


def item_number(item: Mapping[str, Any]) -> Any:
    for key in ("n", "number", "index"):
        if key in item:
            return item[key]
    return None


def describe_item(item: Mapping[str, Any]) -> str:
    """``[3] button "Edit" value="12.50" in="Printer toner" (new)`` — one numbered element, names cut and
    flattened; ``in`` names the container that tells it from same-named elements."""
    number = item_number(item)
    head = f"[{number}] " if number is not None else ""
    text = f'{head}{one_line(item.get("role", "?"), 24)} "{one_line(item.get("name", ""))}"'
    state = item.get("state")
    if isinstance(state, Mapping):
        for key, value in state.items():
            text += f" {key}" if value is True else f" {key}={json.dumps(one_line(value, 40), ensure_ascii=False)}"
    if item.get("frame"):
        text += f" frame={item['frame']}"
    if item.get("in"):
        text += f" in={json.dumps(one_line(item['in'], 60), ensure_ascii=False)}"
    if item.get("new"):
        text += " (new)"
    if item.get("in_viewport") is False:
        text += " (off-screen)"
    return text


def _first_text(data: Mapping[str, Any]) -> str:
    for key in TEXT_KEYS:
        value = data.get(key)
        if isinstance(value, str) and value.strip():
            return value
    return ""


def _scalar_extras(data: Mapping[str, Any], known: set[str], limit: int = 8) -> dict[str, Any]:
    """Short scalar fields of tools this module has not heard of, so new tools still say something."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key in known or len(out) >= limit:
            continue
        short_text = isinstance(value, str) and len(value) <= NAME_CHARS
        if short_text or value is None or isinstance(value, bool | int | float):
            out[key] = value
    return out


_KNOWN = {
    "title", "url", "items", "elements", "interactives", "matches", "results", "total", "count", "limit",
    "offset", "snippet", "summary", "text", "page_text", "content", "focused", "focus", "overlay",
    "overlay_active", "banners_closed", "closed", "spent_ms", "playing", "media_playing", "path", "saved_to",
    "filename", "download", "upload", "uploaded", "notices", "tabs",
}


def llm_summary(
    tool: str,
    result: Mapping[str, Any],
    *,
    top: int = 2,
    retries: int = 0,
    budget: Mapping[str, Any] | None = None,
    note: str | None = None,
    fence: Fence = PROCESS_FENCE,
) -> dict[str, Any]:
    """The signals of docs/design.md §8.4 for one tool result, as a small dict (page-derived values fenced)."""
    out: dict[str, Any] = {"tool": tool, "last_action": "ok" if result.get("status") == "ok" else "error"}
    if result.get("status") != "ok":
        out["error_class"] = result.get("code", "BROWSER_INTERNAL")
        out["error"] = cut(str(result.get("error", "")), 400)
    data = result.get("data")
    data = data if isinstance(data, Mapping) else {}
    if data.get("title"):
        out["title"] = one_line(data["title"])
    if data.get("url"):
        out["url"] = cut(str(data["url"]), 300)
    snippet = _first_text(data)
    if snippet:
        out["snippet"] = one_line(snippet, SNIPPET_CHARS)
    key, items = items_of(data)
    if key:
        count = data.get("total", data.get("count", len(items)))
        label = "find" if key in ("matches", "results") else "enumerate"
        out[f"{label}_count"] = count
        out[f"{label}_top"] = [describe_item(i) for i in items[:top]]
    for src, dst in (("overlay_active", "overlay_active"), ("overlay", "overlay_active")):
        if isinstance(data.get(src), bool):
            out[dst] = data[src]
    focus = data.get("focused", data.get("focus"))
    if isinstance(focus, Mapping):
        out["focus"] = f'{one_line(focus.get("role", "?"), 24)} "{one_line(focus.get("name", ""))}"'
    for src in ("banners_closed", "closed"):
        if isinstance(data.get(src), int | list):
            value = data[src]
            out["banners_closed"] = len(value) if isinstance(value, list) else value
    if isinstance(data.get("spent_ms"), int | float):
        out["spent_ms"] = data["spent_ms"]
    for src in ("media_playing", "playing"):
        if isinstance(data.get(src), bool):
            out["media_playing"] = data[src]
    for src in ("saved_to", "path", "filename", "download"):
        if data.get(src):
            out["transfer"] = one_line(data[src], 200)
            break
    if data.get("uploaded") or data.get("upload"):
        out["upload"] = one_line(data.get("uploaded") or data.get("upload"), 200)
    if isinstance(data.get("notices"), list) and data["notices"]:
        out["notices"] = [one_line(n.get("message", n.get("kind", n)) if isinstance(n, Mapping) else n, 120)
                          for n in data["notices"][:3]]
    extras = _scalar_extras(data, _KNOWN)
    if extras:
        out["data"] = extras
    for key in PAGE_FIELDS:
        if key in out:
            out[key] = fence.value(out[key])
    if retries:
        out["retries"] = retries
    if budget:
        out["remaining_budget"] = dict(budget)
    if note:
        out["note"] = note
    return out


def format_summary(summary: Mapping[str, Any]) -> str:
    return cut(json.dumps(summary, ensure_ascii=False, separators=(", ", ": "), default=str))


_FENCED = re.compile(r"^(⟦page (\w+)⟧)(.*)(⟦/page \2⟧)$", re.DOTALL)


def _short(value: Any, limit: int) -> str:
    """A value on one line and cut, a fenced one cut inside its fence (the closing marker always stays)."""
    text = str(value)
    match = _FENCED.match(text)
    if match:
        return match.group(1) + one_line(match.group(3), limit) + match.group(4)
    return one_line(text, limit)


def result_line(summary: Mapping[str, Any]) -> str:
    """One line for an old result: tool, outcome, and the most telling signal."""
    head = f"{summary.get('tool', '?')} -> {summary.get('last_action', '?')}"
    if summary.get("error_class"):
        return one_line(f"{head} {summary['error_class']}: {summary.get('error', '')}", 200)
    for key in ("title", "enumerate_count", "find_count", "transfer", "url"):
        if key in summary:
            return f"{head} {key}={_short(summary[key], 140)}"
    return head


@dataclass(frozen=True)
class Observation:
    """The page as the model sees it now: full text (+ screenshot), and the line it shrinks to later."""

    text: str
    summary: str
    image_png: bytes | None = None


def observation_from_result(
    result: Mapping[str, Any], image_png: bytes | None = None, *, max_items: int = 200, fence: Fence = PROCESS_FENCE,
) -> Observation:
    """Render the data of ``browser_observe``/``browser_list_interactives``/``browser_extract`` (or any
    result with ``url``/``title``/items/text) as the latest observation."""
    data = result.get("data")
    data = data if isinstance(data, Mapping) else {}
    lines: list[str] = []
    title, url = one_line(data.get("title", ""), 200), cut(str(data.get("url", "")), 500)
    if title or url:
        lines.append("Page: " + fence.wrap(f"{title!r} {url}".strip()))
    if result.get("status") != "ok":
        lines.append(f"Observation failed: {result.get('code', '')} {one_line(result.get('error', ''), 400)}")
    if isinstance(data.get("tabs"), list):
        lines.append(f"Tabs open: {len(data['tabs'])}")
    if isinstance(data.get("notices"), list):
        lines.extend(f"Notice: {fence.wrap(one_line(n.get('message', n) if isinstance(n, Mapping) else n, 200))}"
                     for n in data["notices"][:5])
    key, items = items_of(data)
    if key:
        total = data.get("total", len(items))
        offset = data.get("offset")
        window = f" (offset {offset})" if offset else ""
        lines.append(f"Elements ({len(items)} of {total}{window}; numbers valid until the next listing):")
        # Cut inside the fence, so the closing marker always survives the overall cut.
        lines.append(fence.block(cut("\n".join(describe_item(i) for i in items[:max_items]), ELEMENTS_CHARS)))
        if len(items) > max_items:
            lines.append(f"… {len(items) - max_items} more not shown")
    text = _first_text(data)
    if text:
        lines += ["Page text:", fence.block(cut(text, PAGE_TEXT_CHARS))]
    top = ", ".join(describe_item(i) for i in items[:2])
    summary = fence.wrap(one_line(f"{title!r} {url}" + (f" · top: {top}" if top else ""), 280)) + (
        f" · {data.get('total', len(items))} elements" if key else "")
    return Observation(text=cut("\n".join(lines)), summary=summary, image_png=image_png)
