"""In-memory, thread-safe state of the demo site.

One :class:`DemoState` is shared by the main and the alt origin server of a
:class:`~browserops.demo_site.server.DemoSite`. Route handlers mutate it only
through the ``record_*``/``set_*`` methods (which hold the lock); tests may read
the public attributes directly or take a JSON-ready copy with :meth:`snapshot`.
"""

from __future__ import annotations

import copy
import threading
from dataclasses import dataclass, field
from typing import Any

from browserops.demo_site.catalogue import SEEDED_EXPENSES


@dataclass
class DemoState:
    """Everything the demo site remembers between requests (per server process)."""

    submissions: list[dict[str, Any]] = field(default_factory=list)
    payments: list[dict[str, Any]] = field(default_factory=list)
    deletions: list[dict[str, Any]] = field(default_factory=list)
    searches: list[str] = field(default_factory=list)
    downloads: list[str] = field(default_factory=list)
    logins: list[str] = field(default_factory=list)
    variants: dict[str, str] = field(default_factory=dict)
    draft: dict[str, str] = field(default_factory=dict)
    uploads: list[dict[str, Any]] = field(default_factory=list)
    multilang: list[dict[str, str]] = field(default_factory=list)
    cross_clicks: int = 0
    # What the /repeated page's controls did: {"what": "delete", "owner": "Stapler"} (plans with ``within``).
    repeated: list[dict[str, str]] = field(default_factory=list)
    # Every request that reached /collect (the "attacker's" endpoint of the origin and injection pages):
    # {"host", "path", "query", "via"}. Empty = nothing was sent, navigated to or typed there.
    collected: list[dict[str, str]] = field(default_factory=list)
    approvals: list[int] = field(default_factory=list)  # rows /save/rows approved by their GET link

    def __post_init__(self) -> None:
        # Not a dataclass field, so dataclasses.asdict()/replace() keep working.
        self._lock = threading.RLock()

    # ------------------------------------------------------------------ general

    def reset(self) -> None:
        """Back to the initial state (the same list/dict objects are cleared in place)."""
        with self._lock:
            for lst in (
                self.submissions,
                self.payments,
                self.deletions,
                self.searches,
                self.downloads,
                self.logins,
                self.uploads,
                self.multilang,
                self.collected,
                self.repeated,
                self.approvals,
            ):
                lst.clear()
            self.variants.clear()
            self.draft.clear()
            self.cross_clicks = 0

    def snapshot(self) -> dict[str, Any]:
        """A deep, JSON-serialisable copy of the state (what ``GET /__state`` returns)."""
        with self._lock:
            return copy.deepcopy(
                {
                    "submissions": self.submissions,
                    "payments": self.payments,
                    "deletions": self.deletions,
                    "searches": self.searches,
                    "downloads": self.downloads,
                    "logins": self.logins,
                    "variants": self.variants,
                    "draft": self.draft,
                    "uploads": self.uploads,
                    "multilang": self.multilang,
                    "cross_clicks": self.cross_clicks,
                    "collected": self.collected,
                    "repeated": self.repeated,
                }
            )

    # ------------------------------------------------------------------ writers

    def record_submission(self, fields: dict[str, Any]) -> str:
        """Store an expense submission; return its new reference (``EXP-0001``…)."""
        with self._lock:
            reference = f"EXP-{len(self.submissions) + 1:04d}"
            self.submissions.append({"reference": reference, **copy.deepcopy(fields)})
            return reference

    def find_submission(self, reference: str) -> dict[str, Any] | None:
        with self._lock:
            for item in self.submissions:
                if item["reference"] == reference:
                    return copy.deepcopy(item)
            return None

    def record_approval(self, row: int) -> None:
        with self._lock:
            self.approvals.append(row)

    def record_payment(self, payment: dict[str, Any]) -> str:
        """Store a payment; return its id (``PAY-0001``…)."""
        with self._lock:
            payment_id = f"PAY-{len(self.payments) + 1:04d}"
            self.payments.append({"id": payment_id, **copy.deepcopy(payment)})
            return payment_id

    def record_deletion(self, deletion: dict[str, Any]) -> None:
        with self._lock:
            self.deletions.append(copy.deepcopy(deletion))

    def record_search(self, query: str) -> None:
        with self._lock:
            self.searches.append(query)

    def record_download(self, filename: str) -> None:
        with self._lock:
            self.downloads.append(filename)

    def record_login(self, username: str) -> None:
        with self._lock:
            self.logins.append(username)

    def record_upload(self, upload: dict[str, Any]) -> None:
        with self._lock:
            self.uploads.append(copy.deepcopy(upload))

    def record_multilang(self, entry: dict[str, str]) -> None:
        with self._lock:
            self.multilang.append(dict(entry))

    def record_collected(self, entry: dict[str, str]) -> None:
        with self._lock:
            self.collected.append(entry)

    def record_repeated(self, entry: dict[str, str]) -> None:
        with self._lock:
            self.repeated.append(dict(entry))

    def record_cross_click(self) -> int:
        with self._lock:
            self.cross_clicks += 1
            return self.cross_clicks

    def set_variant(self, name: str, value: str | None) -> None:
        """Set a test variant; ``None`` removes it."""
        with self._lock:
            if value is None:
                self.variants.pop(name, None)
            else:
                self.variants[name] = value

    def variant(self, name: str, default: str | None = None) -> str | None:
        with self._lock:
            return self.variants.get(name, default)

    def update_draft(self, values: dict[str, str | None]) -> None:
        """Merge values into the saved draft; a ``None`` value removes that field."""
        with self._lock:
            for key, value in values.items():
                if value is None:
                    self.draft.pop(key, None)
                else:
                    self.draft[key] = value

    def draft_copy(self) -> dict[str, str]:
        with self._lock:
            return dict(self.draft)

    # ------------------------------------------------------------------ readers

    def expenses(self) -> list[dict[str, Any]]:
        """Seeded expenses plus submissions, minus the deleted ones, oldest first."""
        with self._lock:
            deleted = {d.get("reference") for d in self.deletions}
            if "ALL" in deleted:  # the injection page's "Delete all expenses"
                return []
            rows = [dict(e) for e in SEEDED_EXPENSES] + [
                {
                    "reference": s["reference"],
                    "merchant": s["merchant"],
                    "amount": s["amount"],
                    "currency": s["currency"],
                    "category": s["category"],
                    "date": s["date"],
                }
                for s in self.submissions
            ]
            return [r for r in rows if r["reference"] not in deleted]
