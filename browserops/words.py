"""The policy gate's vocabulary: destructive, secret-field, captcha, search, generic and injection words (and the
words by which a field says it takes a comma-separated list).

Alphabetic languages (EN, RU, DE, FR, ES) are matched as whole words on text that is case-folded,
whitespace-collapsed and stripped of Latin accents (so "löschen"/"loschen", "contraseña"/"contrasena"
both match); Chinese is matched as substrings. Each list says *why* an entry is there or is missing.
"""

from __future__ import annotations

import re
import unicodedata

from browserops.text import fold

# -- destructive: money, deletion, irreversible commitments ---------------------------------------------
# Strong words confirm wherever they name the target. Nouns that mostly label navigation ("payment
# methods", "my orders") are left out on purpose; the verbs and the committing phrases are in.
STRONG_WORDS = [
    # EN
    r"pay", r"pay now", r"(make|submit|confirm|complete|authori[sz]e|send) (a |the )?payment", r"buy",
    r"buy now", r"purchase", r"(place|submit|confirm|complete) (my |your |the )?order", r"order now",
    r"check ?out", r"proceed to check ?out", r"delete", r"remove", r"erase", r"destroy", r"wipe", r"purge",
    r"discard", r"empty (the )?(trash|bin|cart|basket)", r"transfer", r"send money", r"wire", r"withdraw",
    r"donate", r"cancel (my |your |the )?(subscription|order|booking|reservation|membership|plan|account|payment)",
    r"close (my |your |the )?account", r"deactivate", r"terminate", r"revoke", r"publish", r"post",
    r"sign(?![ -]*(in|up|out|on|off)\b)", r"confirm", r"approve", r"authori[sz]e", r"book now", r"reserve",
    r"factory reset", r"reset all",
    # RU
    r"оплат\w*", r"заплат(ить|ите)", r"куп(ить|ите|лю)", r"покупк\w*", r"приобрести", r"оформить (заказ|покупку)",
    r"заказать", r"закажите", r"удал(ить|ите|ение|ения|яю)", r"стереть", r"сотрите", r"уничтожить",
    r"очистить корзину", r"перев(ести|едите)", r"перевод (денег|средств)", r"подтверд(ить|ите)", r"подтверждаю",
    r"подписать", r"подпишите", r"опубликовать", r"опубликуйте",
    r"отмен(ить|ите) (подписку|заказ|бронирование|платеж)", r"закрыть сч[её]т", r"списать",
    r"вывести (деньги|средства)",
    # DE
    r"bezahlen", r"zahlen", r"jetzt (kaufen|bezahlen|bestellen)", r"kaufen", r"bestellen", r"zur kasse",
    r"loschen", r"entfernen", r"uberweisen", r"uberweisung", r"bestatigen", r"unterschreiben", r"unterzeichnen",
    r"veroffentlichen", r"kundigen", r"stornieren",
    # FR
    r"payer", r"(effectuer|proceder au|valider le|confirmer le) paiement", r"acheter", r"commander",
    r"(passer|valider|confirmer) (la |ma |votre )?commande", r"supprimer", r"effacer", r"retirer", r"virement",
    r"transferer", r"confirmer", r"valider", r"signer", r"publier", r"resilier",
    r"annuler (l'|mon |ma |votre )?(abonnement|commande|reservation)",
    # ES
    r"pagar", r"realizar (el )?pago", r"comprar", r"compra ahora", r"finalizar (la )?compra",
    r"(realizar|hacer|tramitar|confirmar) (el )?pedido", r"eliminar", r"borrar", r"quitar", r"transferir",
    r"hacer (una )?transferencia", r"confirmar", r"firmar", r"publicar",
    r"cancelar (la |mi |tu )?(suscripcion|pedido|reserva)", r"dar(se)? de baja",
]
STRONG_CJK = [
    "支付", "付款", "购买", "买入", "下单", "提交订单", "结算", "结账", "删除", "移除", "清空", "转账", "汇款",
    "确认", "签署", "签字", "发布", "取消订阅", "取消订单", "注销",
]

# Weak words commit too (a form is sent), but are also the usual label of a search box's button, so a
# search-like target (see SEARCH_*) or a selection control (see SELECTION_ROLES) is exempt from them.
WEAK_WORDS = [
    r"submit", r"send", r"отправ(ить|ьте|ка)", r"подать", r"absenden", r"senden", r"abschicken", r"einreichen",
    r"ubermitteln", r"envoyer", r"soumettre", r"enviar",
]
WEAK_CJK = ["提交", "发送"]

SEARCH_WORDS = [
    r"search", r"find", r"look ?up", r"filter", r"поиск", r"найти", r"найди", r"искать", r"фильтр", r"suche",
    r"suchen", r"finden", r"filtern", r"rechercher", r"recherche", r"chercher", r"filtrer", r"buscar",
    r"busqueda", r"filtrar",
]
SEARCH_CJK = ["搜索", "查找", "查询", "筛选", "检索"]
SEARCH_ROLES = frozenset({"searchbox", "search"})
# Clicking these selects or toggles something on the page; it does not send it anywhere by itself.
SELECTION_ROLES = frozenset({"checkbox", "radio", "tab", "switch", "textbox", "searchbox", "combobox",
                             "listbox", "slider", "spinbutton"})

# Names that say nothing about what a button does: the text around it decides ("Delete 3 files?" [OK]).
GENERIC_NAMES = frozenset({
    "", "ok", "okay", "yes", "continue", "proceed", "next", "go", "done", "i agree", "agree", "apply",
    "да", "ок", "продолжить", "далее", "готово", "согласен", "確定", "确定", "好", "是", "继续", "下一步", "完成",
    "ja", "weiter", "fortfahren", "fertig", "oui", "continuer", "suivant", "d'accord", "si", "aceptar",
    "continuar", "siguiente", "listo",
})

# -- secrets the user types themselves, and captchas -----------------------------------------------------
SECRET_WORDS = [
    r"password", r"passwort", r"passcode", r"passphrase", r"pin( code)?", r"mot de passe", r"contrasena",
    r"пароль\w*", r"пин(-код)?", r"one[ -]?time (code|password|passcode|pin)", r"otp", r"2fa",
    r"two[ -]?factor", r"(verification|security|authentication|auth|sms|confirmation) code", r"cvv2?", r"cvc",
    r"код (подтверждения|из смс|безопасности)", r"одноразов\w+ (код|пароль)", r"(смс|sms)[ -]?код",
    r"проверочный код", r"bestatigungscode", r"sicherheitscode", r"einmalcode", r"code de (verification|securite)",
    r"code a usage unique", r"codigo de (verificacion|seguridad)",
]
SECRET_CJK = ["密码", "口令", "验证码", "动态码", "校验码", "短信码"]
SECRET_AUTOCOMPLETE = frozenset({"one-time-code", "current-password", "new-password", "cc-csc"})
# Fields whose value must stay out of screenshots, snapshots and recordings: the secrets above, plus numbers that
# identify a person's money or identity (the user may give them to the assistant, but evidence must not show
# them). `record`, the evidence redaction and the gate read this one list (:func:`sensitive_field_hints`).
SENSITIVE_EXTRA_WORDS = [
    r"card ?(no|nr|num|number|#)\.?", r"(credit|debit|bank|payment) card( number)?", r"cc ?(number|no)",
    r"iban", r"(account|routing|sort) (number|no|code)", r"ssn", r"social security( number)?", r"tax (id|number)",
    r"kartennummer", r"karten-?nr\.?", r"kreditkarte(nnummer)?", r"kontonummer", r"sozialversicherungsnummer",
    r"steuer-?id", r"numero de (la )?carte", r"n(o|°) de carte", r"carte (bancaire|de credit)",
    r"numero de securite sociale", r"numero de tarjeta", r"tarjeta de credito", r"numero de cuenta",
    r"номер (банковской )?карты", r"номер сч[её]та", r"снилс", r"инн",
]
SENSITIVE_EXTRA_CJK = ["卡号", "银行卡", "信用卡", "账号", "身份证"]
SENSITIVE_AUTOCOMPLETE = SECRET_AUTOCOMPLETE | {"cc-number", "cc-exp", "cc-exp-month", "cc-exp-year", "cc-csc"}
# A numeric keyboard (inputmode) on a field named like a code is a one-time code even without the word "one-time".
CODE_WORDS = [r"code", r"pin", r"код", r"codigo", r"tan", r"otp"]
CODE_INPUTMODES = frozenset({"numeric", "decimal", "tel"})

CAPTCHA_WORDS = [
    r"\w*captcha", r"i'?m not a robot", r"i am not a robot", r"я не робот", r"je ne suis pas un robot",
    r"no soy un robot", r"ich bin kein roboter",
]
CAPTCHA_CJK = ["人机验证", "我不是机器人"]

# -- page text that tries to instruct the assistant: it only ever raises the gate --------------------------
INJECTION_WORDS = [
    r"ignore (all |any )?(the )?(previous|prior|above|earlier) (instructions|rules|messages)",
    r"disregard (all |any )?(the )?(previous|prior|above) (instructions|rules)", r"pre-?approved",
    r"no confirmation (is )?(needed|required|necessary)", r"without (asking|confirmation)",
    r"(already|has) (authori[sz]ed|approved|agreed|consented)", r"(system|assistant|ai agent)\s*:",
    r"instructions? (to|for) (the )?(ai|assistant|agent|model)", r"you must (pay|delete|click|transfer|buy)",
    r"игнорируй\w* (все )?(предыдущие )?инструкции", r"без подтверждения", r"уже (разрешил|одобрил|согласил)\w*",
    r"ignoriere (alle )?(vorherigen )?anweisungen", r"ohne (nachfrage|bestatigung)",
    r"ignore[sz]? (toutes )?les instructions", r"sans confirmation", r"ignora (todas )?las instrucciones",
    r"sin confirmacion",
]
INJECTION_CJK = ["忽略之前的指令", "忽略以上", "无需确认", "已授权", "已经同意"]

# -- a field that takes a list: its help text says the items are separated by commas ("A comma-separated list of
# tags", Wagtail's; "через запятую"; "用逗号分隔"). Its typed value is then that list (the read-back of a step).
LIST_WORDS = [r"comma\w*", r"запят\w*", r"komma\w*", r"virgules?", r"comas?", r"virgolas?", r"virgulas?",
              r"przecink\w*"]
LIST_CJK = ["逗号", "逗號", "カンマ", "読点", "쉼표"]


def _fold(ch: str) -> str:
    """Drop the accents of Latin letters only (Cyrillic й must stay й)."""
    decomposed = unicodedata.normalize("NFD", ch)
    if decomposed[0].isascii():
        return "".join(c for c in decomposed if not unicodedata.combining(c))
    return ch


def fold_for_words(text: str) -> str:
    """What the word lists are matched on: :func:`browserops.text.fold`, then ё→е, ß→ss and Latin accents
    dropped (so "löschen" and "loschen" are one word)."""
    text = fold(text).replace("ё", "е").replace("ß", "ss")
    return " ".join("".join(_fold(c) for c in text).split())


class WordSet:
    """Whole-word patterns + CJK substrings, matched on :func:`fold_for_words` text."""

    def __init__(self, words: list[str], cjk: list[str] | None = None) -> None:
        self._pattern = re.compile(r"(?<!\w)(" + "|".join(f"(?:{w})" for w in words) + r")(?!\w)")
        self._cjk = tuple(cjk or ())

    def find(self, text: str) -> list[str]:
        """Every match in ``text`` (already normalised), in order, as written."""
        hits = [m.group(1) for m in self._pattern.finditer(text)]
        hits += [w for w in self._cjk if w in text]
        return hits


STRONG = WordSet(STRONG_WORDS, STRONG_CJK)
WEAK = WordSet(WEAK_WORDS, WEAK_CJK)
SEARCH = WordSet(SEARCH_WORDS, SEARCH_CJK)
SECRET = WordSet(SECRET_WORDS, SECRET_CJK)
CAPTCHA = WordSet(CAPTCHA_WORDS, CAPTCHA_CJK)
INJECTION = WordSet(INJECTION_WORDS, INJECTION_CJK)
SENSITIVE = WordSet([*SECRET_WORDS, *SENSITIVE_EXTRA_WORDS], [*SECRET_CJK, *SENSITIVE_EXTRA_CJK])
CODE = WordSet(CODE_WORDS)
LIST = WordSet(LIST_WORDS, LIST_CJK)


def takes_comma_list(described: str) -> bool:
    """Whether the words describing a field say it takes a comma-separated list (:data:`LIST`)."""
    return bool(described) and bool(LIST.find(fold_for_words(described)))


def sensitive_field_hints(name: str, input_type: str = "", autocomplete: str = "", inputmode: str = "") -> list[str]:
    """Why a field's value is sensitive (empty: it is not): a password input, an ``autocomplete`` token of a
    secret or a card, a name in :data:`SENSITIVE` (any of its languages), or a numeric ``inputmode`` on a field
    named like a code."""
    if input_type.strip().lower() == "password":
        return ["type=password"]
    tokens = set(autocomplete.strip().lower().split())
    if tokens & SENSITIVE_AUTOCOMPLETE:
        return [f"autocomplete={sorted(tokens & SENSITIVE_AUTOCOMPLETE)[0]}"]
    folded = fold_for_words(name)
    found = SENSITIVE.find(folded)
    if found:
        return found
    if inputmode.strip().lower() in CODE_INPUTMODES and CODE.find(folded):
        return [f"inputmode={inputmode.strip().lower()}", *CODE.find(folded)]
    return []


def js_vocabulary() -> dict[str, object]:
    """:data:`SENSITIVE`, the autocomplete tokens and the code words for page scripts (``record``'s listener, the
    screenshot redaction): the same lists, as JavaScript regular expression sources (``u`` flag) over text folded
    as :func:`fold_for_words` folds it."""
    word = "[\\p{L}\\p{N}_]"

    def source(words: list[str]) -> str:
        body = "|".join(f"(?:{w})" for w in words).replace("\\w", word)
        return f"(?<!{word})(?:{body})(?!{word})"

    return {"sensitive": source([*SECRET_WORDS, *SENSITIVE_EXTRA_WORDS]),
            "sensitiveCjk": [*SECRET_CJK, *SENSITIVE_EXTRA_CJK], "code": source(CODE_WORDS),
            "codeInputmodes": sorted(CODE_INPUTMODES), "autocomplete": sorted(SENSITIVE_AUTOCOMPLETE)}


def split_list(text: str) -> list[str]:
    """A comma-separated list's items, each without its quotes (``"a, b", c`` is how tag fields quote a comma)."""
    items, quoted, part = [], False, ""
    for ch in text:
        if ch == '"':
            quoted = not quoted
        elif ch == "," and not quoted:
            items.append(part)
            part = ""
        else:
            part += ch
    items.append(part)
    return [" ".join(item.split()) for item in items if item.strip()]
