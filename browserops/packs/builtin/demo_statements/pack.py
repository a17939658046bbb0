"""Export statements from the demo site's /statements page as CSV files into the evidence bundle.

Read-only plus exports: it runs without --confirm. With no months it uses the page's "Export CSV" link (the
current statement); with months it uses each row's "<month> CSV" link.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from browserops.packs import PackContext
from browserops.plan.steps import Expectation, SemanticTarget, Step

NAME = "demo_statements"
DESCRIPTION = """Export statements from the demo site as CSV (read-only + export, no confirmation needed).

Opens /statements, checks the page is the statements list, and downloads each requested month's CSV
(or the current statement via "Export CSV") into the bundle's exports/ folder."""
START_URL = "/statements"
EXPORTS = ["statements_{month}.csv", "statements_latest.csv"]

Month = Annotated[str, StringConstraints(pattern=r"^\d{4}-(0[1-9]|1[0-2])$")]
PAGE_TEXTS = ["Statements", "Выписки", "对账单"]
EXPORT_LATEST = ["Export CSV", "Экспорт CSV", "Выгрузить CSV", "导出 CSV", "导出CSV"]


class Input(BaseModel):
    """Which statements to export."""

    model_config = ConfigDict(extra="forbid")

    months: list[Month] = Field(
        default_factory=list, max_length=12,
        description="Months as YYYY-MM; empty = the current statement via the 'Export CSV' link.",
    )


EXAMPLE = {"months": ["2026-01", "2026-02"]}


def validate(inp: Input, ctx: PackContext) -> list[str]:
    problems = []
    if len(set(inp.months)) != len(inp.months):
        problems.append("months: each month only once")
    this_month = f"{ctx.today:%Y-%m}"
    problems += [f"months: {m} is in the future" for m in inp.months if m > this_month]
    return problems


def _month_names(month: str) -> list[str]:
    year, mm = month.split("-")
    return [f"{month} CSV", f"CSV {month}", f"{month} CSV-файл", f"{year}年{int(mm)}月 CSV"]


def build_steps(inp: Input, ctx: PackContext) -> list[Step]:
    steps = [
        Step(kind="navigate", url=START_URL, title="Open the statements page"),
        Step(kind="read", action="wait_text", title="Check this is the statements list",
             expect=Expectation(text=PAGE_TEXTS)),
    ]
    if not inp.months:
        steps.append(Step(kind="export", target=SemanticTarget(role="link", names=EXPORT_LATEST),
                          save_as="statements_latest.csv", title="Export the current statement"))
    for month in inp.months:
        assert re.match(r"^\d{4}-\d{2}$", month)
        steps.append(Step(kind="export", target=SemanticTarget(role="link", names=_month_names(month)),
                          save_as=f"statements_{month}.csv", title=f"Export the {month} statement"))
    return steps
