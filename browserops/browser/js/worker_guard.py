"""Typed calls of ``js/worker_guard.js``: what a worker, or a frame whose workers cannot be held, may open."""

from __future__ import annotations

from typing import Any

from browserops.browser.scripts import PageCall

BINDING = "__browseropsRefused"  # how a guard tells browserops what it refused (Runtime.addBinding)
# The same for every page world of a context (Playwright's expose_binding, which outlives navigations and process
# swaps: a page-world guard installed by an init script tells through it).
PAGE_BINDING = "__browseropsRefusedHere"


def guard_worker(rules: dict[str, Any], *, fence: bool) -> PageCall[list[str]]:
    """In a worker held before its script runs: WebSockets the rules refuse (all, in a fence) throw; so do nested
    workers. Returns the constructors it guarded."""
    return PageCall("worker_guard", "guardWorker", {"rules": rules, "fence": fence, "binding": BINDING})


def refuse_workers(names: list[str], rule: str, *, binding: str = BINDING) -> PageCall[list[str]]:
    """In a page world: the named worker constructors throw (their start cannot be held), told through
    ``binding``."""
    return PageCall("worker_guard", "refuseWorkers", {"names": names, "rule": rule, "binding": binding})


def origin_refusal(rules: dict[str, Any], url: str, base: str) -> PageCall[str | None]:
    """The JavaScript twin of ``OriginRules.refusal`` (tests hold the two to the same answers)."""
    return PageCall("worker_guard", "refusalOf", {"rules": rules, "url": url, "base": base})
