"""Fixed, deterministic data of the demo site: catalogue, seeded expenses, statements, generated files."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

CATALOGUE: Final[list[dict[str, str]]] = [
    {"id": "stapler", "title": "Red stapler", "category": "Office", "price": "12.99"},
    {"id": "stapler-mini", "title": "Mini stapler", "category": "Office", "price": "4.50"},
    {"id": "staples", "title": "Staples, box of 5000", "category": "Office", "price": "3.20"},
    {"id": "paper-a4", "title": "Printer paper A4, 500 sheets", "category": "Paper", "price": "6.75"},
    {"id": "paper-letter", "title": "Printer paper Letter, 500 sheets", "category": "Paper", "price": "6.95"},
    {"id": "notebook", "title": "Spiral notebook", "category": "Paper", "price": "2.40"},
    {"id": "sticky-notes", "title": "Sticky notes, yellow", "category": "Paper", "price": "1.99"},
    {"id": "pen-blue", "title": "Ballpoint pen, blue", "category": "Writing", "price": "0.89"},
    {"id": "pen-black", "title": "Ballpoint pen, black", "category": "Writing", "price": "0.89"},
    {"id": "marker", "title": "Whiteboard marker set", "category": "Writing", "price": "8.40"},
    {"id": "highlighter", "title": "Highlighter, 4 colours", "category": "Writing", "price": "3.60"},
    {"id": "pencil", "title": "Graphite pencil HB", "category": "Writing", "price": "0.45"},
    {"id": "binder", "title": "Ring binder A4", "category": "Filing", "price": "2.95"},
    {"id": "folders", "title": "Hanging folders, pack of 25", "category": "Filing", "price": "11.30"},
    {"id": "labels", "title": "Address labels, 400", "category": "Filing", "price": "7.10"},
    {"id": "desk-lamp", "title": "LED desk lamp", "category": "Furniture", "price": "29.00"},
    {"id": "chair-mat", "title": "Chair mat", "category": "Furniture", "price": "45.50"},
    {"id": "monitor-stand", "title": "Monitor stand", "category": "Furniture", "price": "24.90"},
    {"id": "usb-hub", "title": "USB hub, 4 ports", "category": "Electronics", "price": "15.99"},
    {"id": "headset", "title": "Headset with microphone", "category": "Electronics", "price": "39.00"},
    {"id": "calculator", "title": "Desk calculator", "category": "Electronics", "price": "9.80"},
]

SEEDED_EXPENSES: Final[list[dict[str, str]]] = [
    {
        "reference": "EXP-1001",
        "merchant": "Northwind Taxi",
        "amount": "23.40",
        "currency": "USD",
        "category": "Travel",
        "date": "2026-01-05",
    },
    {
        "reference": "EXP-1002",
        "merchant": "Café Lumière",
        "amount": "18.00",
        "currency": "EUR",
        "category": "Meals",
        "date": "2026-01-09",
    },
    {
        "reference": "EXP-1003",
        "merchant": "Paper & Co",
        "amount": "61.15",
        "currency": "GBP",
        "category": "Office",
        "date": "2026-01-14",
    },
]

CATEGORIES: Final[list[str]] = ["Travel", "Meals", "Office", "Software"]
CURRENCIES: Final[list[tuple[str, str]]] = [
    ("USD", "US dollar"),
    ("EUR", "Euro"),
    ("GBP", "Pound sterling"),
    ("RUB", "Russian rouble"),
    ("CNY", "Chinese yuan"),
]
PAYMENT_METHODS: Final[list[tuple[str, str]]] = [("card", "Card"), ("cash", "Cash"), ("bank", "Bank transfer")]

STATEMENT_MONTHS: Final[list[str]] = ["2025-10", "2025-11", "2025-12", "2026-01", "2026-02", "2026-03"]
MONTH_RE: Final = re.compile(r"^\d{4}-(0[1-9]|1[0-2])$")


def search_catalogue(query: str) -> list[dict[str, str]]:
    """Case-insensitive, whitespace-normalised substring match on title or category."""
    needle = " ".join(query.split()).casefold()
    if not needle:
        return list(CATALOGUE)
    return [i for i in CATALOGUE if needle in i["title"].casefold() or needle in i["category"].casefold()]


def statement_rows() -> list[dict[str, str]]:
    rows: list[dict[str, str]] = []
    balance = 1000_00
    for n, month in enumerate(STATEMENT_MONTHS):
        change = (n * 3719 % 900_00) - 300_00
        rows.append(
            {
                "month": month,
                "opening": f"{balance / 100:.2f}",
                "closing": f"{(balance + change) / 100:.2f}",
                "transactions": str(5 + n * 2),
            }
        )
        balance += change
    return rows


def statement_csv(month: str) -> str:
    lines = ["date,description,amount,currency"]
    year, mon = month.split("-")
    seed = int(year) * 12 + int(mon)
    descriptions = ["Office supplies", "Taxi", "Team lunch", "Software licence", "Train ticket"]
    for day in range(1, 6):
        amount = (seed * 37 + day * 1301) % 20000 / 100
        lines.append(f"{month}-{day * 5:02d},{descriptions[day - 1]},{amount:.2f},USD")
    return "\n".join(lines) + "\n"


def statement_pdf(month: str) -> bytes:
    """A tiny, valid one-page PDF (hand-built, correct xref offsets)."""
    text = f"Statement {month}".encode("ascii")
    stream = b"BT /F1 24 Tf 72 720 Td (" + text + b") Tj ET"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets: list[int] = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref_at = len(out)
    out += f"xref\n0 {len(objects) + 1}\n".encode()
    out += b"0000000000 65535 f \n"
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref_at}\n%%EOF\n".encode()
    return bytes(out)


@dataclass(frozen=True, slots=True)
class LargeItem:
    kind: str  # link | button | input | select | checkbox
    index: int
    label: str


@dataclass(frozen=True, slots=True)
class LargeSection:
    number: int
    scrollable: bool
    items: list[LargeItem]


LARGE_KINDS: Final[tuple[str, ...]] = ("link", "button", "input", "select", "checkbox")
LARGE_SECTION_SIZE: Final = 50
LARGE_MAX: Final = 20_000


def large_sections(n: int) -> list[LargeSection]:
    """Exactly ``n`` interactive items in sections of 50; every fifth section is a scrollable box."""
    sections: list[LargeSection] = []
    for start in range(0, n, LARGE_SECTION_SIZE):
        number = start // LARGE_SECTION_SIZE + 1
        items = []
        for i in range(start, min(n, start + LARGE_SECTION_SIZE)):
            kind = LARGE_KINDS[i % len(LARGE_KINDS)]
            items.append(LargeItem(kind=kind, index=i + 1, label=f"{kind.capitalize()} {i + 1}"))
        sections.append(LargeSection(number=number, scrollable=number % 5 == 0, items=items))
    return sections
