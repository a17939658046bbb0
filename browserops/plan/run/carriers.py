"""Which of the requests a step's page sent carried the step's change ("the save is the right request").

A page sends more than its save: an analytics beacon to another site, a CSP violation report, a socket's heartbeat.
Any of them could make a submit look "saved" (something was sent and answered), and an unrelated 4xx among them
could fail a save that worked and invite a duplicate re-run. So the save check (:mod:`.saved_check`) judges only the
requests that carry the change (:func:`carries`):

- sent by the page *after the step acted* (what left while the run checked the page is not the act's);
- a form's post, wherever its target is (a ``document`` request: the form names where its data goes), or the GET a
  submit navigated by (``navigation``: a link that approves and comes back, recorded only while a submit runs);
- otherwise to the page's own site (:func:`browserops.origins.same_site`: ``api.example.com`` for a page on
  ``www.example.com``), of a kind that carries data: fetch, XHR, a beacon, a WebSocket message — but not a message
  the same socket already sent, word for word, before the act (a heartbeat; its body digest says so).

Everything else (CSP reports, beacons to other sites, fonts and images posted by no one) is still written in the
ledger, and neither makes nor breaks the save.
"""

from __future__ import annotations

from collections.abc import Iterable

from browserops.origins import same_site
from browserops.tools.save_probe import SentRequest

ALWAYS_KINDS = frozenset({"document", "navigation"})  # the page's own navigation carries the form to its target
SITE_KINDS = frozenset({"fetch", "xhr", "ping", "websocket"})  # carry data, when sent to the page's own site


def heartbeats(before: Iterable[SentRequest]) -> frozenset[tuple[str, str]]:
    """(socket, body digest) of every WebSocket message sent before the act: the same message again is a beat."""
    return frozenset((e.address, e.body_digest) for e in before if e.method == "WS" and e.body_digest)


def carries(entry: SentRequest, page_url: str, beats: frozenset[tuple[str, str]]) -> bool:
    """Whether ``entry`` (sent after the step acted, on a page at ``page_url``) is one that carries a change."""
    if entry.kind in ALWAYS_KINDS:
        return True
    if entry.kind not in SITE_KINDS or not same_site(entry.address, page_url):
        return False
    return not (entry.method == "WS" and (entry.address, entry.body_digest) in beats)
