"""``browserops evidence``: list, show and verify the evidence bundles of this workspace."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from browserops.cli.context import CliState, pass_state
from browserops.cli.options import json_flag
from browserops.contract import BrowserOpsError, ErrorCode
from browserops.evidence import (
    VerifyReport,
    find_bundle,
    list_bundles,
    read_events,
    read_info,
    read_plan,
    signing,
    verify_bundle,
)
from browserops.evidence.manifest import bundle_files
from browserops.evidence.report import write_report
from browserops.evidence.store import summarize
from browserops.evidence.summary import render_summary
from browserops.lane import Lane


@click.group("evidence")
def evidence_group() -> None:
    """Evidence bundles: <workspace>/artifacts/browser/YYYY-MM-DD/<requestId>/.

    \b
    Examples:
      browserops evidence list
      browserops evidence show req-20260105-101500-ab12
      browserops evidence verify req-20260105-101500-ab12 --json
      browserops evidence keygen
    """


def _dump(model: Any) -> Any:
    return model.model_dump(mode="json", by_alias=True)


@evidence_group.command("list")
@json_flag
@pass_state
def evidence_list(state: CliState) -> None:
    """List this workspace's bundles, oldest first, with their status.

    \b
    Status: prepared (plan written, not run yet), complete, partial (a run without --confirm that skipped the
    steps needing it), incomplete (a run stopped on an error),
    interrupted (the writer died: no manifest). `evidence verify` re-hashes the files.

    \b
    Examples:
      browserops evidence list
      browserops --workspace ./ws evidence list --json
    """
    bundles = list_bundles(state.workspace)
    if state.json_output:
        state.emit_json({"workspace": str(state.workspace), "bundles": [_dump(b) for b in bundles]})
        return
    if not bundles:
        click.echo(f"No evidence bundles in {state.workspace}/artifacts/browser.")
        return
    click.echo(f"{'REQUEST ID':<26} {'STATUS':<12} {'STEPS':>5}  {'CREATED':<19}  TITLE")
    for b in bundles:
        created = b.created.strftime("%Y-%m-%d %H:%M:%S") if b.created else "?"
        steps = "" if b.steps is None else str(b.steps)
        status = "interrupted" if b.interrupted else b.status
        click.echo(f"{b.request_id:<26} {status:<12} {steps:>5}  {created:<19}  {b.title or ''}")


def _signature_words(report: VerifyReport) -> str:
    if report.signature == "valid":
        return f"signed by {report.signed_by}, checked against {report.trusted_key or 'a key you trust'}"
    if report.signature == "unsigned":
        if report.signature_required:
            return f"unsigned, but a signature is required: {report.signature_required}"
        return "unsigned (accepted: you trust no signing key; see `browserops evidence keygen` and --trust-key)"
    if report.signature == "invalid":
        return "its signature does NOT match"
    return f"signed by {report.signed_by}, a key you do not trust"


def _report_line(report: VerifyReport) -> str:
    if report.ok and report.partial:
        return (f"OK: {report.request_id} is intact; partial: {report.partial} ({report.files_checked} files "
                f"checked); {_signature_words(report)}.")
    if report.ok:
        return (f"OK: {report.request_id} is intact and {report.status} ({report.files_checked} files checked); "
                f"{_signature_words(report)}.")
    status = report.status + (" (interrupted)" if report.interrupted else "")
    return f"FAILED: {report.request_id or report.path}: status {status}, " + (
        "files match the manifest" if report.intact else "files do not match the manifest"
    ) + ("" if report.interrupted else f"; {_signature_words(report)}") + "."


def _mismatch(report: VerifyReport) -> BrowserOpsError:
    what = []
    if report.edited:
        what.append(f"{len(report.edited)} edited")
    if report.missing:
        what.append(f"{len(report.missing)} missing")
    if report.extra:
        what.append(f"{len(report.extra)} extra")
    if report.signature in ("invalid", "untrusted"):
        what.append(f"signature {report.signature}")
    elif report.signature == "unsigned" and report.signature_required:
        what.append("unsigned where a signature is required")
    elif report.signature == "valid" and report.intact and report.complete:
        what.append("attestation does not hold")
    if report.interrupted:
        what.append("run interrupted")
    elif not report.complete:
        what.append(f"run {report.status}")
    return BrowserOpsError(
        ErrorCode.EVIDENCE_MISMATCH,
        f"Bundle {report.request_id or report.path} does not verify ({', '.join(what) or 'unreadable manifest'}). "
        "Treat it as untrustworthy; see `browserops evidence show` for what happened.",
        details={"report": _dump(report)},
    )


@evidence_group.command("show")
@click.argument("request_id")
@json_flag
@pass_state
def evidence_show(state: CliState, request_id: str) -> None:
    """Show a bundle as a readable summary: what was asked, who confirmed it, each step and what failed.

    \b
    The summary is rendered from the bundle's files now (so it also works for a run that was killed), and
    ends with the result of re-hashing the files.

    \b
    Examples:
      browserops evidence show req-20260105-101500-ab12
      browserops evidence show req-20260105-101500-ab12 --json
    """
    path = find_bundle(state.workspace, request_id)
    info = read_info(path)
    report = verify_bundle(path)
    if info is None:
        raise _mismatch(report)
    plan = read_plan(path)
    events, problems = read_events(path)
    files, _ = bundle_files(path)
    if state.json_output:
        state.emit_json({
            "bundle": _dump(summarize(path)),
            "info": _dump(info),
            "plan": plan,
            "events": [e.model_dump(mode="json", by_alias=True, exclude_none=True) for e in events],
            "files": files,
            "verify": _dump(report),
        })
        return
    click.echo(render_summary(info, plan, events, files, problems).rstrip())
    click.echo("")
    click.echo(f"Verify: {_report_line(report)}")
    for line in report.lines():
        click.echo(f"  {line}")


@evidence_group.command("verify")
@click.argument("request_id")
@click.option("--trust-key", "trust_keys", multiple=True, type=click.Path(path_type=Path, dir_okay=False),
              help="Also trust this public key (a colleague's evidence-ed25519.pub). Repeatable.")
@click.option("--require-signed", is_flag=True,
              help="Fail on an unsigned bundle even when you trust no key (the default once you trust one).")
@click.option("--allow-unsigned", is_flag=True,
              help="Accept an unsigned bundle although you trust signing keys (one written before the key existed).")
@json_flag
@pass_state
def evidence_verify(state: CliState, request_id: str, trust_keys: tuple[Path, ...], require_signed: bool,
                    allow_unsigned: bool) -> None:
    """Re-hash a bundle against manifest-sha256.txt and check the manifest's signature and its in-toto
    attestation; exit 1 on any edited, missing or extra file, a signature or attestation that does not match or
    comes from a key you do not trust, or if the run is incomplete or was interrupted. Your policy decides whether
    a signature is required, never the bundle: once you trust a key (your own from `evidence keygen`, one in
    trusted-keys/ of your config directory, or --trust-key) an unsigned bundle fails — a stripped signature looks
    like that — unless --allow-unsigned; --require-signed fails it even when you trust none. A signed bundle says
    who signed it and against which of your trusted keys it checked.

    \b
    Examples:
      browserops evidence verify req-20260105-101500-ab12
      browserops evidence verify req-20260105-101500-ab12 --json
      browserops evidence verify req-20260105-101500-ab12 --trust-key alice.pub --require-signed
    """
    trusted = signing.trusted_keys()
    for path in trust_keys:
        trusted.add(signing.read_public_key(path), f"--trust-key {path}")
    if require_signed and allow_unsigned:
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, "--require-signed and --allow-unsigned contradict each "
                              "other: pass one of them.")
    report = verify_bundle(find_bundle(state.workspace, request_id), trusted=trusted,
                           require_signed=require_signed, allow_unsigned=allow_unsigned)
    if report.ok:
        if state.json_output:
            state.emit_json({"status": "ok", "report": _dump(report)})
        else:
            click.echo(_report_line(report))
        return
    if not state.json_output:
        click.echo(_report_line(report))
        for line in report.lines():
            click.echo(f"  {line}")
    raise _mismatch(report)


@evidence_group.command("keygen")
@click.option("--force", is_flag=True, help="Replace an existing key pair (its public key stays trusted).")
@json_flag
@pass_state
def evidence_keygen(state: CliState, force: bool) -> None:
    """Make an Ed25519 key pair that signs every evidence bundle written from now on.

    \b
    The pair lives in your config directory ($BROWSEROPS_CONFIG_DIR, else $XDG_CONFIG_HOME/browserops, else
    ~/.config/browserops) under keys/: the private key readable by you only (0600), the public key beside it.
    Give the public key (keys/evidence-ed25519.pub) to reviewers: `evidence verify --trust-key FILE`.

    \b
    Examples:
      browserops evidence keygen
      browserops evidence keygen --force --json
    """
    signer = signing.generate(force=force)
    public = signer.path.with_name(signing.PUBLIC_FILE)
    if state.json_output:
        state.emit_json({"status": "ok", "privateKey": str(signer.path), "publicKey": str(public),
                         "fingerprint": signer.fingerprint})
        return
    click.echo(f"Made an Ed25519 key pair: {signer.fingerprint}")
    click.echo(f"  private: {signer.path} (mode 600; never share it)")
    click.echo(f"  public:  {public} (give it to reviewers: evidence verify --trust-key FILE)")
    click.echo("Bundles finished from now on are signed; `evidence verify` checks the signature.")


@evidence_group.command("report")
@click.argument("request_id")
@click.option("--out", type=click.Path(path_type=Path, dir_okay=False),
              help="Write the report here instead (the bundle is then not touched).")
@click.option("--open", "open_it", is_flag=True, help="Open the report in the default browser afterwards.")
@json_flag
@pass_state
def evidence_report(state: CliState, request_id: str, out: Path | None, open_it: bool) -> None:
    """Write one self-contained, offline HTML report of a bundle: the plan and its diff, who confirmed with which
    phrase, each step's before/after screenshots with the acted-on element outlined and numbered, outcomes,
    timings, and the result of `evidence verify`.

    \b
    A bundle whose files match its manifest gets report.html inside it, sealed into the manifest (and re-signed
    when it was signed by your key). Any other bundle (interrupted, edited, signed by someone else) is never
    re-sealed: its report goes to <workspace>/artifacts/browser/reports/<id>.html, or to --out.

    \b
    Examples:
      browserops evidence report req-20260105-101500-ab12
      browserops evidence report req-20260105-101500-ab12 --open
      browserops evidence report req-20260105-101500-ab12 --out /tmp/review.html --json
    """
    path = find_bundle(state.workspace, request_id)
    # The lane keeps a run from re-opening the bundle while its manifest is rewritten.
    with Lane(state.workspace, no_wait=True, holder={"requestId": request_id, "command": "evidence report"}):
        written = write_report(path, out=out)
    if state.json_output:
        state.emit_json({"status": "ok", "report": str(written.path), "sealed": written.sealed,
                         "whyOutside": written.why_outside, "verify": _dump(written.verify)})
    else:
        where = "sealed into the bundle's manifest" if written.sealed else f"not in the bundle: {written.why_outside}"
        click.echo(f"Report: {written.path} ({where}).")
        click.echo(f"Verify: {_report_line(written.verify)}")
    if open_it:
        click.launch(written.path.as_uri())


COMMANDS = [evidence_group]
