"""Evidence bundles: ``<workspace>/artifacts/browser/YYYY-MM-DD/<requestId>/``.

``BundleWriter`` writes them (atomic files, fsynced events, manifest last), ``verify_bundle`` re-hashes them,
``list_bundles``/``find_bundle`` find them inside one workspace only. ``StepEvent`` is one line of
``events.jsonl``; signing, the offline report and the trace live here too. What a run does (the plan engine, the
agent) is not here: they hand this package masked records, and it stores and checks them.
"""

from browserops.evidence.bundle import BundleWriter, read_events, read_info, read_plan
from browserops.evidence.events import PageInfo, StepEvent, StepTarget
from browserops.evidence.layout import bundle_dir, check_request_id, new_request_id
from browserops.evidence.manifest import VerifyReport, verify_bundle
from browserops.evidence.models import Approval, Attempt, BundleInfo, BundleStatus, FinalStatus, confirmed_run
from browserops.evidence.store import BundleSummary, find_bundle, list_bundles

__all__ = [
    "Approval",
    "Attempt",
    "BundleInfo",
    "BundleStatus",
    "BundleSummary",
    "BundleWriter",
    "FinalStatus",
    "PageInfo",
    "StepEvent",
    "StepTarget",
    "VerifyReport",
    "bundle_dir",
    "check_request_id",
    "confirmed_run",
    "find_bundle",
    "list_bundles",
    "new_request_id",
    "read_events",
    "read_info",
    "read_plan",
    "verify_bundle",
]
