"""Sample steps and plans shared by the plan/evidence tests."""

from __future__ import annotations

import datetime as dt
from typing import Any

from browserops.plan import (
    BrowserPlan,
    DiffEntry,
    Fingerprint,
    PageFingerprint,
    PlanDraft,
    PlanSource,
    Requirement,
    Step,
    build_plan,
)

CREATED = dt.datetime(2026, 1, 5, 10, 15, 0, tzinfo=dt.UTC)
REQUEST_ID = "req-20260105-101500-ab12"


def expense_steps() -> list[Step]:
    raw: list[dict[str, Any]] = [
        {"kind": "navigate", "url": "/expense"},
        {"kind": "fill", "field": "merchant", "target": {"role": "textbox", "names": ["Merchant", "Продавец", "商家"]},
         "value": "Northwind Taxi"},
        {"kind": "fill", "field": "amount", "target": {"role": "spinbutton", "names": ["Amount"]}, "value": "23.40"},
        {"kind": "fill", "field": "notes", "target": {"role": "textbox", "names": ["Notes"]}, "value": ""},
        {"kind": "fill", "action": "check", "field": "billable",
         "target": {"role": "checkbox", "names": ["Billable to client"]}, "value": True},
        {"kind": "fill", "field": "password", "target": {"role": "textbox", "names": ["Password"]},
         "valueRef": {"key": "password", "sensitive": True}},
        {"kind": "submit", "target": {"role": "button", "names": ["Submit expense", "Отправить"]},
         "expect": {"text": ["Expense submitted"], "urlContains": "/expense/confirmation/"}},
        {"kind": "export", "target": {"role": "link", "names": ["Export CSV"]}, "saveAs": "statements_2026-01.csv"},
    ]
    return [Step.model_validate(r) for r in raw]


def expense_plan(*, with_diff: bool = True, request_id: str = REQUEST_ID, workspace: str = "/ws") -> BrowserPlan:
    diff = None
    fingerprint = None
    if with_diff:
        before = {"merchant": "", "amount": "10.00", "notes": "old note", "billable": "false", "password": None}
        diff = [e for e in [
            DiffEntry.compute("merchant", 2, before["merchant"], "Northwind Taxi"),
            DiffEntry.compute("amount", 3, before["amount"], "23.40"),
            DiffEntry.compute("notes", 4, before["notes"], ""),
            DiffEntry.compute("billable", 5, before["billable"], "true"),
            DiffEntry.compute("password", 6, "", "secret", sensitive=True),
        ] if e is not None]
        fingerprint = Fingerprint(
            pages=[PageFingerprint(url="http://127.0.0.1:8765/expense", title="New expense",
                                   snapshot="snapshots/001_expense.aria.txt", sha256="0" * 64)],
            values={k: v for k, v in before.items() if k != "password"},
        )
    return build_plan(PlanDraft(
        title="File a taxi expense",
        start_url="http://127.0.0.1:8765/expense",
        steps=expense_steps(),
        workspace=workspace,
        source=PlanSource(kind="steps", name="taxi", path="taxi.yaml"),
        requirements=[Requirement(kind="logged-in", detail="Log in to the demo site first", step=2)],
        diff=diff,
        fingerprint=fingerprint,
        request_id=request_id,
        created=CREATED,
    ))


STEP_FILE_YAML = """\
format_version: 1
title: File a taxi expense
startUrl: /expense
steps:
  - kind: navigate
    url: /expense
  - kind: fill
    field: merchant
    target: {role: textbox, names: [Merchant, Продавец, 商家]}
    value: Northwind Taxi
  - kind: fill
    action: select
    field: currency
    target: {role: combobox, names: [Currency, Валюта, 货币], labels: [Choose a currency]}
    value: EUR
  - kind: submit
    target: {role: button, names: [Submit expense, Отправить, 提交]}
    expect: {text: [Expense submitted], urlContains: /expense/confirmation/}
"""
