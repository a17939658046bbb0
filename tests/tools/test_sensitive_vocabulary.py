"""One vocabulary of sensitive fields (policy_words.SENSITIVE + autocomplete and inputmode hints): the gate's
secrets, `record`'s sensitive fields and the evidence redaction read the same list, in Python and — through
policy_words.js_vocabulary — in the page scripts, which must agree name for name in real Chromium."""

from __future__ import annotations

import json

import pytest

from browserops.plan.record.recorder import is_sensitive
from browserops.tools.context import ToolContext
from browserops.words import js_vocabulary, sensitive_field_hints

SENSITIVE = ["Password", "Mot de passe", "Passwort", "Contraseña", "Пароль", "密码", "Card no.", "Card number",
             "Kartennummer", "Numéro de carte", "Número de tarjeta", "Номер карты", "卡号", "IBAN", "SSN",
             "Social security number", "CVV", "One-time code", "SMS code", "Код подтверждения"]
PLAIN = ["Name", "Cardholder name", "Discard changes", "Merchant", "Notes", "Company", "Passenger", "Pinned"]


@pytest.mark.parametrize("name", SENSITIVE)
def test_a_sensitive_name_in_any_language_is_sensitive_for_record(name: str) -> None:
    assert sensitive_field_hints(name), name
    assert is_sensitive({"role": "textbox", "name": name})


@pytest.mark.parametrize("name", PLAIN)
def test_plain_names_are_not(name: str) -> None:
    assert not sensitive_field_hints(name) and not is_sensitive({"role": "textbox", "name": name})


def test_autocomplete_and_inputmode_hints() -> None:
    assert is_sensitive({"role": "textbox", "name": "Number", "state": {"autocomplete": "cc-number"}})
    assert is_sensitive({"role": "textbox", "name": "Enter the code", "state": {"inputmode": "numeric"}})
    assert not is_sensitive({"role": "textbox", "name": "Enter the code"})
    assert not is_sensitive({"role": "textbox", "name": "Quantity", "state": {"inputmode": "numeric"}})


async def test_the_page_scripts_read_the_same_vocabulary(tool_ctx: ToolContext) -> None:
    page = tool_ctx.session.page
    await page.goto("about:blank")
    names = [*SENSITIVE, *PLAIN]
    verdicts = await page.evaluate("""([vocab, names]) => {
      const re = new RegExp(vocab.sensitive, "u");
      const fold = (t) => t.toLowerCase().normalize("NFD").replace(/([a-z])[\\u0300-\\u036f]+/g, "$1")
        .normalize("NFC").replace(/ё/g, "е").replace(/ß/g, "ss").replace(/\\s+/g, " ").trim();
      return names.map((n) => re.test(fold(n)) || vocab.sensitiveCjk.some((w) => fold(n).includes(w)));
    }""", [json.loads(json.dumps(js_vocabulary())), names])
    assert dict(zip(names, verdicts, strict=True)) == {n: n in SENSITIVE for n in names}
