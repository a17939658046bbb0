"""The word lists of the banner closer; its in-page half is ``js/banners.js`` (which they are passed to).

``scanBanners`` runs in one frame. It walks the document and every open shadow root, looks at controls whose
accessible name is a known close/reject/accept phrase (many languages), and keeps those that sit inside an
*overlay* -- a fixed/sticky box on screen, a top-layer element (modal dialog, open popover), or the root of a
known consent platform (``CMP_ROOTS``); or the whole document of a small consent iframe -- whose text is about
cookies, consent, newsletters, age or region, and that are on top at their centre (nothing covers them). It
picks one control per overlay, by the overlay's kind, and clicks it on the next task (so a control that removes
its own iframe cannot break the report). Links with an ``href`` are never picked, and the click cancels any
link navigation and the submission of a form outside the overlay; the Python side still checks that the
document did not navigate. ``stillOpen`` tells which of the overlays clicked earlier are gone, and which
navigations the frame started since.

Word lists are generic phrases, never site names; the only vendor-specific ids are the consent platforms' roots.
"""

from __future__ import annotations

# Topic of an overlay (its text). Several languages: en, ru, zh, de, fr, es, it, pt, nl, pl, uk, ja, ko, tr.
COOKIE_WORDS = [
    "cookie", "consent", "gdpr", "privacy", "personal data", "tracking", "файл", "куки", "конфиденциальн",
    "персональн", "согласи", "隐私", "同意", "个人信息", "datenschutz", "einwilligung", "confidentialité",
    "consentement", "privacidad", "consentimiento", "riservatezza", "consenso", "privacidade", "privacy",
    "prywatno", "zgod", "конфіденційн", "クッキー", "プライバシー", "쿠키", "개인정보", "çerez", "gizlilik",
]
SUBSCRIBE_WORDS = [
    "newsletter", "subscribe", "sign up for", "mailing list", "рассылк", "подпис", "订阅", "邮件", "newsletter",
    "abonnieren", "inscrivez", "suscríbete", "iscriviti", "assine",
]
AGE_WORDS = [
    "your age", "are you 18", "over 18", "18 or older", "21 or older", "of legal age", "date of birth",
    "age verification", "вам есть 18", "старше 18", "возраст", "已满18", "年满18", "年龄", "volljährig",
    "mayor de edad", "maggiorenne", "majeur",
]
REGION_WORDS = [
    "choose your region", "select your region", "select your country", "choose your country", "your location",
    "you are visiting", "regional site", "выберите регион", "выберите страну", "ваш регион", "选择地区",
    "选择国家", "region wählen", "land wählen", "choisissez votre pays", "elige tu país",
]

# Control names, matched against the whole normalised name ("^(...)" prefix match, names are short).
REJECT_NAMES = [
    "reject", "reject all", "decline", "decline all", "deny", "refuse", "disagree", "only necessary",
    "necessary only", "essential only", "only essential", "use necessary cookies only", "continue without accepting",
    "отклонить", "отказаться", "не принимать", "только необходимые", "拒绝", "全部拒绝", "仅必要", "仅限必要",
    "ablehnen", "alle ablehnen", "nur notwendige", "refuser", "tout refuser", "continuer sans accepter",
    "rechazar", "rechazar todo", "rifiuta", "rifiuta tutto", "recusar", "rejeitar", "weigeren", "odrzuć",
    "відхилити", "拒否", "거부", "reddet",
]
CLOSE_NAMES = [
    "close", "dismiss", "no thanks", "no, thanks", "not now", "maybe later", "later", "skip", "continue", "stay",
    "stay here", "×", "✕", "✖", "x", "закрыть", "нет, спасибо", "не сейчас", "позже", "продолжить", "остаться",
    "关闭", "不用了", "以后再说", "稍后", "继续", "schließen", "nein danke", "fermer", "non merci", "cerrar",
    "no gracias", "chiudi", "no grazie", "fechar", "sluiten", "zamknij", "закрити", "閉じる", "닫기", "kapat",
]
ACCEPT_NAMES = [
    "accept", "accept all", "accept cookies", "allow", "allow all", "agree", "i agree", "ok", "okay", "got it",
    "i understand", "understood", "yes", "enter", "i am over 18", "i'm over 18", "i am 18", "принять", "принять все",
    "согласен", "согласна", "хорошо", "понятно", "да", "мне есть 18", "接受", "全部接受", "同意", "好的", "我知道了",
    "是", "akzeptieren", "alle akzeptieren", "zustimmen", "einverstanden", "accepter", "tout accepter", "j'accepte",
    "aceptar", "aceptar todo", "accetta", "accetto", "aceitar", "accepteren", "akceptuję", "прийняти", "同意する",
    "동의", "kabul et",
]
# Never clicked, whatever else the name says: these sign the user up, buy, or open more choices.
AVOID_NAMES = [
    "subscribe", "sign up", "sign in", "log in", "register", "buy", "pay", "order", "delete", "settings",
    "customi", "manage", "preferences", "options", "more info", "learn more", "подписаться", "настро", "войти",
    "купить", "оплат", "удалить", "订阅", "设置", "登录", "购买", "支付", "删除", "abonnieren", "einstellungen",
    "s'abonner", "paramètres", "suscribir", "configur",
]

# Roots of well-known consent platforms (CMPs): their banner is an overlay even when it is not fixed itself.
CMP_ROOTS = (
    "#onetrust-banner-sdk, #onetrust-consent-sdk, #CybotCookiebotDialog, #usercentrics-root, #didomi-host, "
    ".qc-cmp2-container, .fc-consent-root, [id^='sp_message_container'], #truste-consent-track, .cc-window, "
    "#cookie-law-info-bar, #cmplz-cookiebanner-container, #BorlabsCookieBox, .osano-cm-window, #iubenda-cs-banner, "
    "#termly-code-snippet-support, #cookiescript_injected, #moove_gdpr_cookie_info_bar, .cky-consent-container, "
    "#cookie-notice, .klaro, #axeptio_overlay"
)
