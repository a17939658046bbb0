"""The in-page half of the banner closer (kept apart from the Python driver in banners.py).

``SCAN_JS`` runs in one frame. It walks the document and every open shadow root, looks at controls whose
accessible name is a known close/reject/accept phrase (many languages), and keeps those that sit inside an
*overlay* (fixed/sticky, dialog role, aria-modal, or a consent-ish id/class; or the whole document of a
small consent iframe) whose text is about cookies, consent, newsletters, age or region. It picks one control
per overlay, by the overlay's kind, and clicks it on the next task (so a control that removes its own iframe
cannot break the report). Links that navigate are never clicked. ``CHECK_JS`` tells which of the overlays
clicked earlier are gone.

Word lists are generic phrases, never site names or vendor-specific ids.
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

SCAN_JS = r"""
(args) => {
  const KEY = Symbol.for("browserops.banners");
  const state = (window[KEY] = window[KEY] || { next: 1, tried: new Map() });
  const norm = (s) => (s || "").replace(/\s+/g, " ").trim().toLowerCase();
  const has = (text, words) => words.some((w) => text.includes(w));
  const nameIs = (name, words) => words.some((w) => name === w || name.startsWith(w + " ") || name.startsWith(w + ","));
  const visible = (el) => {
    if (!el.getClientRects || !el.getClientRects().length) return false;
    const cs = getComputedStyle(el);
    return cs.visibility !== "hidden" && cs.display !== "none" && parseFloat(cs.opacity || "1") > 0.05;
  };
  const parentOf = (el) => el.parentElement || (el.getRootNode && el.getRootNode().host) || null;
  const textOf = (el) => {
    let t = el.innerText || el.textContent || "";
    if (el.shadowRoot) t += " " + (el.shadowRoot.textContent || "");
    return norm(t).slice(0, 4000);
  };
  // textContent, not innerText: no layout per control, so a page with thousands of links stays cheap.
  const nameOf = (el) => {
    const label = el.getAttribute("aria-label") || el.getAttribute("title") || "";
    const text = label || el.textContent || el.value || "";
    return text.length > 200 ? "" : norm(text);
  };
  // A banner is short; a long text is page content that merely mentions "privacy" and is left alone.
  const kindOf = (text) => text.length > 2500 ? null : has(text, args.cookie) ? "cookie"
    : has(text, args.subscribe) ? "subscribe" : has(text, args.age) ? "age" : has(text, args.region) ? "region"
    : null;
  const consentish =
    /cookie|consent|gdpr|cmp|privacy|banner|modal|popup|overlay|newsletter|subscribe|age-?gate|region/i;
  const overlayLike = (el) => {
    const role = el.getAttribute && (el.getAttribute("role") || "");
    if (role === "dialog" || role === "alertdialog" || (el.getAttribute && el.getAttribute("aria-modal") === "true"))
      return true;
    if (el.tagName === "DIALOG" && el.open) return true;
    const cs = getComputedStyle(el);
    if (cs.position === "fixed" || cs.position === "sticky") return true;
    return consentish.test((el.id || "") + " " + (typeof el.className === "string" ? el.className : ""));
  };
  const inSubframe = window !== window.top;
  const docSmall = inSubframe && norm(document.body ? document.body.innerText : "").length < 3000;

  // Every candidate control, in the document and in every open shadow root.
  const controls = [];
  const sel = 'button, [role="button"], a, input[type="button"], input[type="submit"]';
  const walk = (root) => {
    root.querySelectorAll(sel).forEach((el) => controls.push(el));
    root.querySelectorAll("*").forEach((el) => { if (el.shadowRoot) walk(el.shadowRoot); });
  };
  walk(document);

  const found = new Map();  // container -> {kind, choices}
  for (const el of controls) {
    const name = nameOf(el);
    if (!name || name.length > 40 || has(name, args.avoid)) continue;
    const action = nameIs(name, args.reject) ? "reject" : nameIs(name, args.close) ? "close"
      : nameIs(name, args.accept) ? "accept" : null;
    if (!action || el.disabled || !visible(el)) continue;
    if (el.tagName === "A") {
      const href = el.getAttribute("href") || "";
      if (href && !href.startsWith("#") && !href.toLowerCase().startsWith("javascript:")) continue;  // navigates
    }
    let container = null, kind = null;
    for (let node = parentOf(el), depth = 0; node && depth < 15; node = parentOf(node), depth++) {
      if (node === document.body || node === document.documentElement) break;
      if (overlayLike(node)) {
        kind = kindOf(textOf(node));
        if (kind) { container = node; break; }
      }
    }
    if (!container && docSmall) {
      kind = kindOf(textOf(document.body));
      if (kind) container = document.body;
    }
    if (!container) continue;
    // An overlay nested in another one (dialog inside its backdrop) is the same banner: keep the outermost.
    let entry = found.get(container);
    if (!entry) { entry = { kind, choices: [] }; found.set(container, entry); }
    entry.choices.push({ el, name, action, label: (el.getAttribute("aria-label") || el.textContent || el.value || "")
      .replace(/\s+/g, " ").trim().slice(0, 60) });
  }

  const order = {
    cookie: ["reject", "close", "accept"],
    subscribe: ["close"],
    age: ["accept", "close"],
    region: ["close", "accept"],
  };
  const report = [];
  for (const [container, entry] of found) {
    if ([...found.keys()].some((other) => other !== container && other.contains && other.contains(container)))
      continue;
    const tried = [...state.tried.entries()].find(([, c]) => c === container);
    if (tried) {
      report.push({ token: tried[0], kind: entry.kind, action: null, control: null, retried: true });
      continue;
    }
    let pick = null;
    for (const action of order[entry.kind]) {
      pick = entry.choices.find((c) => c.action === action);
      if (pick) break;
    }
    const token = state.next++;
    state.tried.set(token, container);
    if (!pick) { report.push({ token, kind: entry.kind, action: null, control: null, retried: false }); continue; }
    report.push({ token, kind: entry.kind, action: pick.action, control: pick.label,
                  shadow: pick.el.getRootNode() !== document, retried: false });
    // Next task: a control that removes its own frame must not take this report with it.
    setTimeout(() => { try { pick.el.click(); } catch (e) { /* the page will say */ } }, 0);
  }
  return report;
}
"""

CHECK_JS = r"""
(tokens) => {
  const state = window[Symbol.for("browserops.banners")];
  const out = {};
  for (const t of tokens) {
    const c = state && state.tried.get(t);
    let open = false;
    if (c && c.isConnected) {
      const cs = getComputedStyle(c);
      open = !!c.getClientRects().length && cs.visibility !== "hidden" && cs.display !== "none";
      if (c === document.body) open = window.frameElement ? window.frameElement.isConnected : open;
    }
    out[t] = open;
  }
  return out;
}
"""
