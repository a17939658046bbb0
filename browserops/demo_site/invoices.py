"""One invoice, INV-4242, shown in a given state and language (``/invoice/<case>``): what a done check must read
before it believes "INV-4242 was paid". Some cases show the identifiers in the wrong state (an amount still due,
unpaid, a failed payment, another invoice paid beside it), some in the right one, in English, German, French,
Russian and Chinese."""

from __future__ import annotations

import html

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from browserops.demo_site.web import render

CASES: dict[str, tuple[str, str, list[str]]] = {
    # case: (language, heading, lines)
    "due": ("en", "Invoice INV-4242", ["Amount due: 120.00"]),
    "unpaid": ("en", "Invoice INV-4242", ["Amount: 120.00", "Status: Unpaid"]),
    "not-paid": ("en", "Invoice INV-4242", ["This invoice has not been paid yet.", "Amount: 120.00"]),
    "failed": ("en", "Invoices", ["INV-4241 · 80.00 · Paid", "INV-4242 · 120.00 · Payment failed"]),
    "offen": ("de", "Rechnung INV-4242", ["Betrag: 120,00", "Status: offen"]),
    "ne-oplachen": ("ru", "Счёт INV-4242", ["Сумма: 120,00", "Счёт не оплачен."]),
    "paid": ("en", "Invoice INV-4242", ["Amount: 120.00", "Amount due: 0.00", "Status: Paid"]),
    "bezahlt": ("de", "Rechnung INV-4242", ["Betrag: 120,00", "Status: bezahlt"]),
    "payee": ("fr", "Facture INV-4242", ["Montant : 120,00", "Statut : payée"]),
    "yizhifu": ("zh", "发票 INV-4242", ["金额：120.00", "状态：已支付"]),
}


async def invoice(request: Request) -> Response:
    case = CASES.get(str(request.path_params["case"]))
    if case is None:
        return render(request, "not_found.html", "Page not found", status_code=404)
    lang, heading, lines = case
    body = f"<h1>{html.escape(heading)}</h1>" + "".join(f"<p>{html.escape(line)}</p>" for line in lines)
    return render(request, "attack.html", heading, {"body": body, "script": ""}, lang=lang)


ROUTES: list[Route] = [Route("/invoice/{case}", invoice, name="invoice")]
