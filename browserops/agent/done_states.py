"""Outcome states a done reason claims ("INV-4242 was paid"), and whether the page shows that state.

A page that shows the identifiers of a claim proves nothing about its outcome: "Invoice INV-4242 / Amount due:
120.00" names the invoice and its amount and says it is *not* paid. So a reason that claims a state (paid, sent,
submitted, deleted, booked…, in any of the languages below), or a goal whose verb asks for one ("pay invoice
INV-4242"), is verified only when the page shows that state word, in the page's own language, not negated
("not paid", "unbezahlt", "не оплачен"), and — when the claim names identifiers the page shows — as the state
word nearest to such an identifier (a list "INV-4241 Paid · INV-4242 Unpaid" does not show INV-4242 paid).

Words are matched whole on :func:`~browserops.words.fold_for_words` text (case and Latin accents folded);
Chinese as substrings. Each state lists its own words, its goal verbs and its contrary words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from browserops.words import fold_for_words


class Words:
    """Whole-word patterns (and CJK substrings) on folded text, found with their positions."""

    def __init__(self, words: list[str], cjk: list[str]) -> None:
        self._pattern = re.compile(r"(?<!\w)(?:" + "|".join(f"(?:{w})" for w in words) + r")(?!\w)")
        self._cjk = tuple(cjk)

    def spans(self, text: str) -> list[tuple[int, int]]:
        found = [m.span() for m in self._pattern.finditer(text)]
        found += [m.span() for w in self._cjk for m in re.finditer(re.escape(w), text)]
        return found


@dataclass(frozen=True)
class Outcome:
    name: str
    shown: Words  # the page says it is in this state
    asked: Words  # a goal's verb asking for it
    contrary: Words  # the page says it is not (or failed)


def _outcome(name: str, shown: list[str], asked: list[str], contrary: list[str], cjk: tuple[list[str], list[str],
             list[str]] = ([], [], [])) -> Outcome:
    return Outcome(name, Words(shown, cjk[0]), Words(asked, cjk[1]), Words(contrary, cjk[2]))


_FAILED = [r"failed", r"declined", r"rejected", r"fehlgeschlagen", r"abgelehnt", r"echoue\w*",
           r"refuse\w*", r"fallid[oa]s?", r"rechazad[oa]s?", r"ошибка", r"отклонен\w*", r"не удалось"]
_FAILED_CJK = ["失败", "错误", "拒绝"]

OUTCOMES: tuple[Outcome, ...] = (
    _outcome("paid", [r"paid", r"payment (received|successful|complete[d]?|confirmed|sent|made|done)", r"settled",
                      r"bezahlt", r"beglichen", r"payee?s?", r"regle\w*", r"pagad[oa]s?", r"abonad[oa]s?",
                      r"оплачен\w*"],
             [r"pay", r"settle", r"bezahlen", r"zahlen", r"begleichen", r"payer", r"regler", r"pagar", r"abonar",
              r"оплат\w+", r"заплат\w+"],
             [r"unpaid", r"overdue", r"outstanding", r"pending", r"unbezahlt", r"ausstehend", r"uberfallig",
              r"impayee?s?", r"en attente", r"pendiente", r"impagad[oa]s?", r"неоплачен\w*", r"просрочен\w*",
              *_FAILED],
             (["已支付", "已付款", "支付成功", "付款成功"], ["支付", "付款"],
              ["未支付", "未付款", "待支付", "待付款", *_FAILED_CJK])),
    _outcome("sent", [r"sent", r"submitted", r"received", r"delivered", r"gesendet", r"versendet", r"verschickt",
                      r"eingereicht", r"ubermittelt", r"erhalten", r"envoyee?s?", r"soumise?s?", r"recue?s?",
                      r"enviad[oa]s?", r"recibid[oa]s?", r"отправлен\w*", r"получен\w*", r"подан\w*"],
             [r"send", r"submit", r"senden", r"absenden", r"einreichen", r"envoyer", r"soumettre", r"enviar",
              r"отправ\w+", r"подать"],
             [r"not (yet )?(been )?(sent|submitted|received)", r"unsent", r"draft", r"nicht (gesendet|versendet)",
              r"entwurf", r"brouillon", r"borrador", r"не отправлен\w*", r"черновик", *_FAILED],
             (["已发送", "已提交", "已收到", "提交成功", "发送成功"], ["发送", "提交"],
              ["未发送", "未提交", "草稿", *_FAILED_CJK])),
    _outcome("deleted", [r"deleted", r"removed", r"geloscht", r"entfernt", r"supprimee?s?", r"eliminad[oa]s?",
                         r"borrad[oa]s?", r"удален\w*"],
             [r"delete", r"remove", r"loschen", r"entfernen", r"supprimer", r"eliminar", r"borrar", r"удал\w+"],
             [r"not (been )?(deleted|removed)", r"nicht geloscht", r"pas supprimee?", r"no (se )?(ha )?eliminad[oa]",
              r"не удален\w*", *_FAILED],
             (["已删除", "删除成功"], ["删除"], ["未删除", *_FAILED_CJK])),
    _outcome("saved", [r"saved", r"stored", r"created", r"added", r"recorded", r"gespeichert", r"erstellt",
                       r"hinzugefugt", r"enregistree?s?", r"creee?s?", r"ajoutee?s?", r"guardad[oa]s?",
                       r"cread[oa]s?", r"anadid[oa]s?", r"сохранен\w*", r"создан\w*", r"добавлен\w*"],
             [r"save", r"create", r"add", r"speichern", r"erstellen", r"hinzufugen", r"enregistrer", r"creer",
              r"ajouter", r"guardar", r"crear", r"anadir", r"сохран\w+", r"созда\w+", r"добав\w+"],
             [r"not (been )?(saved|created|added)", r"unsaved", r"nicht gespeichert", r"non enregistree?",
              r"no guardad[oa]", r"не сохранен\w*", *_FAILED],
             (["已保存", "已创建", "已添加", "保存成功"], ["保存", "创建", "添加"], ["未保存", *_FAILED_CJK])),
    _outcome("booked", [r"booked", r"reserved", r"confirmed", r"gebucht", r"reserviert", r"bestatigt",
                        r"reservee?s?", r"confirmee?s?", r"reservad[oa]s?", r"confirmad[oa]s?",
                        r"забронирован\w*", r"подтвержден\w*"],
             [r"book", r"reserve", r"buchen", r"reservieren", r"reserver", r"reservar", r"заброниров\w+"],
             [r"not (yet )?(been )?(booked|reserved|confirmed)", r"unconfirmed", r"pending", r"waitlist\w*",
              r"nicht bestatigt", r"en attente", r"pendiente", r"не подтвержден\w*", *_FAILED],
             (["已预订", "已确认", "预订成功"], ["预订", "预定"], ["待确认", "未确认", *_FAILED_CJK])),
    _outcome("ordered", [r"order (placed|confirmed|received)", r"ordered", r"purchased", r"bestellt",
                         r"bestellung (bestatigt|eingegangen)", r"commandee?s?", r"commande (confirmee|validee)",
                         r"pedido (realizado|confirmado)", r"заказ (оформлен|принят|подтвержден)"],
             [r"order", r"buy", r"purchase", r"bestellen", r"kaufen", r"commander", r"acheter", r"comprar",
              r"pedir", r"заказ\w*", r"куп\w+"],
             [r"not (yet )?(been )?ordered", r"in (your )?cart", r"im warenkorb", r"dans (votre|le) panier",
              r"en (el|tu) carrito", r"в корзине", *_FAILED],
             (["已下单", "订单已提交", "购买成功"], ["下单", "购买"], ["购物车", *_FAILED_CJK])),
    _outcome("cancelled", [r"cancell?ed", r"storniert", r"gekundigt", r"annulee?s?", r"resiliee?s?",
                           r"cancelad[oa]s?", r"отменен\w*"],
             [r"cancel", r"stornieren", r"kundigen", r"annuler", r"resilier", r"cancelar", r"отмен\w+"],
             [r"not (been )?cancell?ed", r"active", r"aktiv", r"actif", r"activ[oa]", r"активн\w*", *_FAILED],
             (["已取消"], ["取消"], ["未取消", *_FAILED_CJK])),
)

_NEGATION = re.compile(r"(?<!\w)(not|no|non|never|nothing|none|nicht|nichts|kein\w*|pas|rien|jamais|nunca|nada|не|ни|"
                       r"ничего)(\s+\w+){0,2}\s*$")
_ID = re.compile(r"(?<![\w.,])[\w-]*\d[\w-]*(?![\w]|[.,]\d)")
_CLAUSE = re.compile(r"[.;,!?:\n]+|\b(?:and|then|und|dann|et|puis|y|luego|и|затем)\b")
_POLITE = frozenset({"please", "bitte", "stp", "svp", "por", "favor", "пожалуйста", "请", "now", "jetzt"})
SEGMENT_CHARS = 200  # how far from an identifier its state may be written


def _goal_verbs(goal: str) -> str:
    """The first word of each clause of the goal (after "please"): where an imperative goal puts its verb, so
    "find a book" asks for nothing while "book a room" asks for a booking."""
    firsts: list[str] = []
    for clause in _CLAUSE.split(fold_for_words(goal)):
        words = [w for w in clause.split() if w not in _POLITE]
        if words:
            firsts.append(words[0])
    return " | ".join(firsts)


def claimed_outcomes(reason: str, goal: str) -> list[Outcome]:
    """The states the reason claims. A reason that names none but names what the goal is about (its identifiers:
    "INV-4242 done") claims what the goal's verbs ask for. A reason that says a state did not come about ("nothing
    was paid", "the payment failed") claims no outcome: the page need not show one."""
    said = fold_for_words(reason)
    states = {o.name: _states(o, said) for o in OUTCOMES}
    if any(not all(found) for found in states.values() if found):
        return []
    claimed = [o for o in OUTCOMES if states[o.name]]
    if claimed or not set(identifiers(goal)) & set(identifiers(reason)):
        return claimed
    verbs = _goal_verbs(goal)
    return [o for o in OUTCOMES if o.asked.spans(verbs)]


def identifiers(*texts: str) -> list[str]:
    """What names the thing a claim is about: tokens with a digit, four characters or more (INV-4242, 4242),
    not amounts (120.00)."""
    found = [m.group().strip("-_") for t in texts for m in _ID.finditer(fold_for_words(t))]
    return list(dict.fromkeys(f for f in found if len(f) >= 4))


def _states(outcome: Outcome, text: str) -> list[bool]:
    """Each statement of ``outcome`` in ``text``: True when it says the state, False when it says the contrary
    (or negates the state: "not paid")."""
    out: list[bool] = []
    for start, _end in outcome.shown.spans(text):
        out.append(_NEGATION.search(text[max(0, start - 30):start]) is None)
    out += [False for _span in outcome.contrary.spans(text)]
    return out


def _segments(page: str, start: int, end: int) -> tuple[str, str]:
    """The text after an identifier up to the next identifier-like token, and before it back to the previous
    one (each at most SEGMENT_CHARS): the record the identifier heads or ends."""
    after = page[end:end + SEGMENT_CHARS]
    stop = _ID.search(after)
    before = page[max(0, start - SEGMENT_CHARS):start]
    starts = [m.end() for m in _ID.finditer(before)]
    return after[:stop.start()] if stop else after, before[starts[-1]:] if starts else before


def shows(outcome: Outcome, page: str, ids: list[str]) -> bool:
    """Does ``page`` (folded) show ``outcome`` — for the identifiers it shows, when there are any?"""
    verdicts: list[bool] = []
    for ident in ids:
        for match in re.finditer(rf"(?<![\w-]){re.escape(ident)}(?![\w-])", page):
            after, before = _segments(page, *match.span())
            states = _states(outcome, after) or _states(outcome, before)
            if states:
                verdicts.append(all(states))
    if verdicts:
        return all(verdicts)
    if any(ident in page for ident in ids):
        return False  # the identifier is there, its state is not
    states = _states(outcome, page)
    return any(states) and all(states)


def outcome_shown(reason: str, goal: str, page_text: str) -> tuple[list[str], bool]:
    """The states claimed (by name), and whether the page shows every one of them."""
    claimed = claimed_outcomes(reason, goal)
    if not claimed:
        return [], True
    page = fold_for_words(page_text)
    ids = identifiers(reason, goal)
    return [o.name for o in claimed], all(shows(o, page, ids) for o in claimed)
