"""File an expense on the demo site's /expense form, with a receipt, and submit it.

Side effects: fills nine fields and clicks "Submit expense" (browser-act: runs only with --confirm).
Each field is named by its ARIA role and candidate accessible names in English, Russian and Chinese, so the
same pack works on a translated form; no selectors.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from browserops.packs import PackContext
from browserops.plan.steps import Expectation, SemanticTarget, Step

NAME = "demo_expense"
DESCRIPTION = """File an expense (with receipt) on the demo site and submit it.

Fills Merchant, Amount, Date, Category, Currency, Billable, Payment method, Notes and Receipt on /expense,
then clicks "Submit expense" and expects the "Expense submitted" page with a reference."""
START_URL = "/expense"
EXPORTS: list[str] = []

MAX_RECEIPT_BYTES = 10 * 1024 * 1024
RECEIPT_TYPES = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".pdf")

# Candidate accessible names per field: English (the demo site), Russian, Chinese.
NAMES: dict[str, list[str]] = {
    "merchant": ["Merchant", "Vendor", "Продавец", "Поставщик", "Магазин", "商家", "商户"],
    "amount": ["Amount", "Total", "Сумма", "Итого", "金额", "总额"],
    "date": ["Date", "Expense date", "Дата", "Дата расхода", "日期", "消费日期"],
    "category": ["Category", "Категория", "类别", "分类"],
    "currency": ["Currency", "Валюта", "货币", "币种"],
    "billable": [
        "Billable to client", "Billable", "Выставить клиенту", "Оплачивает клиент", "可向客户收费", "向客户计费",
    ],
    "notes": ["Notes", "Comment", "Примечания", "Комментарий", "备注", "说明"],
    "receipt": ["Receipt", "Attach receipt", "Чек", "Квитанция", "收据", "发票"],
    "submit": ["Submit expense", "Submit", "Отправить расход", "Отправить", "提交报销", "提交"],
}
PAYMENT_NAMES: dict[str, list[str]] = {
    "card": ["Card", "Credit card", "Карта", "Банковская карта", "银行卡", "信用卡"],
    "cash": ["Cash", "Наличные", "现金"],
    "bank": ["Bank transfer", "Банковский перевод", "银行转账"],
}
DONE_TEXTS = ["Expense submitted", "Расход отправлен", "报销已提交"]


class Input(BaseModel):
    """One expense."""

    model_config = ConfigDict(extra="forbid")

    merchant: str = Field(min_length=1, max_length=100, description="Who was paid, e.g. 'Northwind Taxi'.")
    amount: Decimal = Field(gt=0, le=Decimal("1000000"), decimal_places=2, description="Amount, e.g. \"23.40\".")
    date: dt.date | None = Field(None, description="Date of the expense (YYYY-MM-DD); not in the future.")
    category: Literal["Travel", "Meals", "Office", "Software"] | None = None
    currency: Literal["USD", "EUR", "GBP", "RUB", "CNY"] | None = None
    billable: bool = Field(False, description="Billable to a client.")
    payment_method: Literal["card", "cash", "bank"] | None = None
    notes: str = Field("", max_length=1000)
    receipt: str | None = Field(
        None, description="Receipt file (image or PDF, up to 10 MB); a relative path resolves next to the input file."
    )


EXAMPLE = {
    "merchant": "Northwind Taxi",
    "amount": "23.40",
    "date": "2026-01-05",
    "category": "Travel",
    "currency": "EUR",
    "billable": True,
    "payment_method": "card",
    "notes": "Airport transfer",
    "receipt": "example_receipt.png",
}


def validate(inp: Input, ctx: PackContext) -> list[str]:
    problems = []
    if inp.date is not None and inp.date > ctx.today:
        problems.append(f"date: {inp.date} is in the future")
    if inp.receipt is not None:
        path = ctx.resolve(inp.receipt)
        if not path.is_file():
            problems.append(f"receipt: no file at {path}")
        elif path.stat().st_size > MAX_RECEIPT_BYTES:
            problems.append("receipt: larger than 10 MB")
        elif path.suffix.lower() not in RECEIPT_TYPES:
            problems.append(f"receipt: {path.suffix or 'no extension'} is not an image or PDF")
    return problems


def _target(role: str, key: str, labels: list[str] | None = None) -> SemanticTarget:
    return SemanticTarget(role=role, names=NAMES[key], labels=labels or [])


def build_steps(inp: Input, ctx: PackContext) -> list[Step]:
    steps = [
        Step(kind="navigate", url=START_URL, title="Open the expense form"),
        Step(kind="fill", action="type", field="merchant", target=_target("textbox", "merchant"), value=inp.merchant),
        Step(kind="fill", action="type", field="amount", target=_target("spinbutton", "amount"),
             value=f"{inp.amount:.2f}"),
    ]
    if inp.date is not None:
        steps.append(Step(kind="fill", action="type", field="date", target=_target("textbox", "date"),
                          value=inp.date.isoformat()))
    if inp.category is not None:
        steps.append(Step(kind="fill", action="select", field="category", target=_target("combobox", "category"),
                          value=inp.category))
    if inp.currency is not None:
        steps.append(Step(kind="fill", action="select", field="currency",
                          target=_target("combobox", "currency", ["Choose a currency", "Выберите валюту", "选择货币"]),
                          value=inp.currency))
    steps.append(Step(kind="fill", action="check", field="billable", target=_target("checkbox", "billable"),
                      value=inp.billable))
    if inp.payment_method is not None:
        steps.append(Step(kind="fill", action="check", field="payment_method",
                          target=SemanticTarget(role="radio", names=PAYMENT_NAMES[inp.payment_method]), value=True,
                          display=PAYMENT_NAMES[inp.payment_method][0]))
    if inp.notes:
        steps.append(Step(kind="fill", action="type", field="notes", target=_target("textbox", "notes"),
                          value=inp.notes))
    if inp.receipt is not None:
        # A file input is exposed as a button named by its label.
        steps.append(Step(kind="fill", action="upload", field="receipt", target=_target("button", "receipt"),
                          value=str(ctx.resolve(inp.receipt)), display=ctx.resolve(inp.receipt).name))
    steps.append(Step(
        kind="submit", target=_target("button", "submit"), title="Submit the expense",
        expect=Expectation(text=DONE_TEXTS, url_contains="/expense/confirmation/"),
    ))
    return steps
