"""``report.html``: one self-contained, offline page a reviewer can trust and read with a keyboard or screen reader.

It shows the plan and its diff, who ran each attempt and with which confirm phrase, then per step the before and
after screenshots side by side — the acted-on element's box and number drawn on the "before" from the box the run
recorded (``StepTarget.box``) — the element's role and name, the outcome and timings, and at the end what
``verify`` found. Images are embedded once each as ``data:`` URLs in CSS classes (a step's "before" is usually
the last step's "after"), and a Content-Security-Policy forbids scripts and any network access, so page-derived
text, which jinja escapes anyway, cannot do anything.

:func:`write_report` puts the file into a sealed, intact bundle and re-seals it (manifest and, with the signer's
key, the signature); a bundle that cannot be re-sealed as it is gets its report written elsewhere.
"""

from __future__ import annotations

import base64
import hashlib
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.evidence import layout
from browserops.evidence.attestation import seal
from browserops.evidence.bundle import read_events, read_info, read_plan
from browserops.evidence.events import StepEvent
from browserops.evidence.manifest import VerifyReport, render_manifest, verify_bundle, write_manifest
from browserops.evidence.models import BundleInfo
from browserops.evidence.signing import load_signer
from browserops.evidence.summary import _source_line, _target_text

_ENV = jinja2.Environment(
    loader=jinja2.PackageLoader("browserops.evidence", "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)
_PHASES = ("before", "after", "error")


@dataclass
class Shot:
    """One screenshot of a step as the report draws it."""

    phase: str
    name: str
    css_class: str
    width: int
    height: int
    box: dict[str, float] | None = None  # percentages of the image: left, top, width, height
    missing: bool = False


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    if len(data) >= 24 and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    return 0, 0


def _phase_of(name: str) -> str:
    stem = name.rsplit("/", 1)[-1]
    parts = stem.split("_")
    return parts[1] if len(parts) > 2 and parts[1] in _PHASES else "other"


def _box(event: StepEvent, width: int, height: int) -> dict[str, float] | None:
    """The target's box as percentages of the screenshot (the viewport it was measured in, else the image)."""
    target = event.target
    if target is None or target.box is None:
        return None
    vw, vh = (target.viewport or [width, height])[:2]
    if vw <= 0 or vh <= 0:
        return None
    x, y, w, h = target.box
    return {"left": round(100 * x / vw, 3), "top": round(100 * y / vh, 3), "width": round(100 * w / vw, 3),
            "height": round(100 * h / vh, 3)}


class _Images:
    """Each stored PNG once, as a CSS class with its data URL."""

    def __init__(self, bundle: Path, same_as: Mapping[str, str]) -> None:
        self.bundle = bundle
        self.same_as = same_as
        self.classes: dict[str, tuple[str, str]] = {}  # stored path -> (class, data URL)
        self.sizes: dict[str, tuple[int, int]] = {}

    def shot(self, name: str, event: StepEvent) -> Shot:
        stored = self.same_as.get(name, name)
        phase = _phase_of(name)
        if stored not in self.classes:
            try:
                data = (self.bundle / stored).read_bytes()
            except OSError:
                return Shot(phase, name, "", 0, 0, missing=True)
            css = "img-" + hashlib.sha256(stored.encode()).hexdigest()[:12]
            self.classes[stored] = (css, "data:image/png;base64," + base64.b64encode(data).decode("ascii"))
            self.sizes[stored] = png_size(data)
        width, height = self.sizes[stored]
        shot = Shot(phase, name, self.classes[stored][0], width, height)
        if phase == "before" and width and height:
            shot.box = _box(event, width, height)
        return shot


def _step_view(event: StepEvent, images: _Images) -> dict[str, Any]:
    shots = [images.shot(name, event) for name in event.screenshots]
    return {"event": event, "shots": shots}


def render_report(bundle: Path, info: BundleInfo, plan: Mapping[str, Any] | None, events: Sequence[StepEvent],
                  report: VerifyReport, problems: Sequence[str] = ()) -> str:
    images = _Images(bundle, info.same_as)
    actions: list[dict[str, Any]] = []
    if plan:
        for raw in plan.get("actions") or []:
            if isinstance(raw, Mapping):
                actions.append({"number": raw.get("number"), "kind": raw.get("kind"), "action": raw.get("action"),
                                "target": _target_text(raw), "side_effect": raw.get("sideEffect")})
    attempts = []
    for attempt in info.attempts:
        steps = [_step_view(e, images) for e in events if e.attempt == attempt.number]
        attempts.append({"attempt": attempt, "steps": steps})
    return _ENV.get_template("report.html.j2").render(
        info=info, plan=plan, actions=actions, source_line=_source_line(plan) if plan else "",
        diff=plan.get("diff") if plan else None, attempts=attempts, verify=report, problems=list(problems),
        images=sorted(images.classes.values()),
    )


@dataclass
class ReportWritten:
    path: Path
    sealed: bool  # inside the bundle and in its manifest
    verify: VerifyReport  # the bundle as it was before the report was added
    why_outside: str | None = None


def _can_seal(bundle: Path, report: VerifyReport) -> str | None:
    """Why the report cannot be sealed into the bundle (None: it can). Only a bundle whose files all match its
    manifest is re-sealed — re-sealing anything else would launder an edit. A failed or stopped run can be."""
    if not (bundle / layout.MANIFEST_FILE).is_file():
        return "the bundle has no manifest (its writer was interrupted, or is still running)"
    if report.signature in ("invalid", "untrusted"):
        return f"the bundle's signature is {report.signature}"
    stray = {*report.edited, *report.missing, *report.extra} - {layout.REPORT_FILE}
    other = [p for p in report.problems if not p.startswith(("the run did not complete", "the writer stopped"))]
    if stray or other:
        return "the bundle's files do not match its manifest"
    return None


def write_report(bundle: Path, *, out: Path | None = None) -> ReportWritten:
    """Render the report. Into the bundle (re-sealed) when the bundle is sealed and intact and ``out`` is not
    given; otherwise to ``out``, or ``<workspace>/artifacts/browser/reports/<id>.html``, never into the bundle."""
    info = read_info(bundle)
    if info is None:
        raise BrowserOpsError(ErrorCode.EVIDENCE_MISMATCH, f"{bundle / layout.INFO_FILE} is missing or unreadable, "
                              "so there is nothing to report on. See `browserops evidence verify`.")
    report = verify_bundle(bundle)
    events, problems = read_events(bundle)
    html = render_report(bundle, info, read_plan(bundle), events, report, problems).encode("utf-8")
    why = _can_seal(bundle, report)
    signer = None
    if why is None and info.signed_by:
        signer = load_signer()
        if signer is None or signer.fingerprint != info.signed_by:
            why = f"the bundle is signed by {info.signed_by} and only that key can re-seal it"
    if out is None and why is None:
        layout.atomic_write(bundle / layout.REPORT_FILE, html)
        data = render_manifest(bundle)
        if signer is not None:
            seal(bundle, signer, data, request_id=info.request_id, status=info.status)
        write_manifest(bundle, data)
        return ReportWritten(bundle / layout.REPORT_FILE, True, report)
    target = out or layout.artifacts_root(Path(info.workspace)) / "reports" / f"{info.request_id}.html"
    try:
        layout.atomic_write(target, html)
    except OSError as exc:
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"Cannot write the report to {target}: {exc.strerror}. "
                              "Pass --out with a writable path.") from exc
    return ReportWritten(target, False, report, why if out is None else "written where --out asked")
