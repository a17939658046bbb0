// The in-page half of the banner closer (browser/page/banners.py drives it); called by name from
// browser/js/banners.py.
//
// scanBanners runs in one frame. It walks the document and every open shadow root, looks at controls whose
// accessible name is a known close/reject/accept phrase (many languages), and keeps those that sit inside an
// *overlay* (fixed/sticky, dialog role, aria-modal, or a consent-ish id/class; or the whole document of a
// small consent iframe) whose text is about cookies, consent, newsletters, age or region. It picks one control
// per overlay, by the overlay's kind, and clicks it on the next task (so a control that removes its own iframe
// cannot break the report). Links that navigate are never clicked. stillOpen tells which of the overlays
// clicked earlier are gone. The word lists come from banner_js.py as args.
function scanBanners(args) {
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

// args: {tokens: [...]} -> {token: open?}
function stillOpen(args) {
  const tokens = args.tokens;
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
