// The in-page half of the banner closer (browser/page/banners.py drives it); called by name from
// browser/js/banners.py.
//
// scanBanners runs in one frame. It walks the document and every open shadow root, looks at controls whose
// accessible name is a known close/reject/accept phrase (many languages), and keeps those that sit inside an
// *overlay*: a fixed/sticky box on screen, a top-layer element (modal dialog, open popover) or the root of a
// known consent platform (args.cmp); or the whole document of a small consent iframe. The overlay's text must be
// about cookies, consent, newsletters, age or region, and the control must be on top at its centre. It picks
// one control per overlay, by the overlay's kind, and clicks it on the next task (so a control that removes its
// own iframe cannot break the report). A link with an href is never picked; the click cancels a link's
// navigation and the submission of a form outside the overlay, and any navigation the document starts right
// after the click is cancelled where the browser allows it and recorded. stillOpen tells which of the overlays
// clicked earlier are gone, and hands over those recorded navigations. The word lists come from banner_js.py.
function scanBanners(args) {
  const KEY = Symbol.for("browserops.banners");
  const state = (window[KEY] = window[KEY] || { next: 1, tried: new Map(), navs: [], releases: [] });
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
  const matches = (el, selector) => { try { return el.matches(selector); } catch (e) { return false; } };
  const vw = innerWidth, vh = innerHeight;
  // An overlay is a box that floats over the page: fixed or sticky, in the top layer (a modal dialog, an open
  // popover), or the root of a known consent platform; and it must be on screen. A role="dialog" or a
  // "cookie" class alone is not enough: page content says those too.
  const overlayLike = (el) => {
    if (!el.getBoundingClientRect) return false;
    const floating = matches(el, ":modal") || matches(el, ":popover-open") || matches(el, args.cmp)
      || ["fixed", "sticky"].includes(getComputedStyle(el).position);
    if (!floating) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && r.right > 0 && r.bottom > 0 && r.left < vw && r.top < vh;
  };
  // The control is what a person would hit at its centre: nothing else lies on top of it.
  const onTop = (el) => {
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (!(r.width > 0 && r.height > 0 && x >= 0 && y >= 0 && x < vw && y < vh)) return false;
    const root = el.getRootNode();
    const hit = (root.elementFromPoint ? root : document).elementFromPoint(x, y);
    return !!hit && (hit === el || el.contains(hit));
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
      // A link to a document (this one included, "#" too) is never the way out of a banner; a link without
      // href is a button in disguise. Its default action is blocked all the same when it is clicked.
      const href = el.getAttribute("href");
      if (href !== null && !href.trim().toLowerCase().startsWith("javascript:")) continue;
    }
    let container = null, kind = null;
    for (let node = parentOf(el), depth = 0; node && depth < 20; node = parentOf(node), depth++) {
      if (node === document.body || node === document.documentElement) break;
      if (overlayLike(node)) {
        kind = kindOf(textOf(node));
        if (kind) { container = node; break; }
      }
    }
    if (!container && docSmall && el.tagName !== "A") {
      kind = kindOf(textOf(document.body));
      if (kind) container = document.body;
    }
    if (!container || !onTop(el)) continue;
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
  // The click may run the page's handlers but never leave the document: a link's navigation and the
  // submission of a form that is not part of the overlay are cancelled before the browser acts on them.
  const click = (el, container) => {
    const form = el.form || (el.closest && el.closest("form"));
    const submits = !!form && (el.type === "submit" || (el.tagName === "BUTTON" && !el.getAttribute("type")));
    const cancel = el.tagName === "A" || (submits && !container.contains(form));
    const guard = (ev) => { if (ev.composedPath().includes(el)) ev.preventDefault(); };
    // Whatever the page's own handler does next (location.href = ..., a form of its own), a navigation this
    // document starts until the driver is done checking (releaseBanners; a second at most) is cancelled where
    // the browser allows it, and recorded either way: the driver reports it as an error and stops closing
    // banners on this page. A change of the fragment alone stays in the document and is let through.
    const nav = window.navigation;
    const onNavigate = (ev) => {
      if (ev.hashChange) return;
      state.navs.push({ url: String((ev.destination && ev.destination.url) || ""), type: ev.navigationType,
                        cancelled: !!ev.cancelable });
      if (ev.cancelable) ev.preventDefault();
    };
    if (nav) {
      nav.addEventListener("navigate", onNavigate);
      const stop = () => nav.removeEventListener("navigate", onNavigate);
      state.releases.push(stop);
      setTimeout(stop, 1000);
    }
    if (cancel) window.addEventListener("click", guard, true);
    try { el.click(); } catch (e) { /* the page will say */ }
    if (cancel) window.removeEventListener("click", guard, true);
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
    const r = container.getBoundingClientRect();
    const overlay = { tag: (container.tagName || "").toLowerCase(), id: (container.id || "").slice(0, 60),
                      position: container === document.body ? "frame" : getComputedStyle(container).position,
                      rect: [Math.round(r.left), Math.round(r.top), Math.round(r.width), Math.round(r.height)] };
    if (!pick) {
      report.push({ token, kind: entry.kind, action: null, control: null, retried: false, overlay });
      continue;
    }
    report.push({ token, kind: entry.kind, action: pick.action, control: pick.label, overlay,
                  shadow: pick.el.getRootNode() !== document, retried: false });
    // Next task: a control that removes its own frame must not take this report with it.
    const chosen = pick.el;
    setTimeout(() => click(chosen, container), 0);
  }
  return report;
}

// args: {tokens: [...]} -> {open: {token: open?}, navs: [navigations started since the clicks]}
function stillOpen(args) {
  const tokens = args.tokens;
  const state = window[Symbol.for("browserops.banners")];
  const open = {};
  for (const t of tokens) {
    const c = state && state.tried.get(t);
    let shown = false;
    if (c && c.isConnected) {
      const cs = getComputedStyle(c);
      shown = !!c.getClientRects().length && cs.visibility !== "hidden" && cs.display !== "none";
      if (c === document.body) shown = window.frameElement ? window.frameElement.isConnected : shown;
    }
    open[t] = shown;
  }
  const navs = state && state.navs ? state.navs.splice(0) : [];
  return { open, navs };
}

// The driver is done with this frame: stop watching navigations (the caller's own next action may navigate)
// and hand over what was recorded meanwhile. -> {navs: [...]}
function releaseBanners(args) {
  const state = window[Symbol.for("browserops.banners")];
  if (!state) return { navs: [] };
  for (const stop of (state.releases || []).splice(0)) stop();
  return { navs: (state.navs || []).splice(0) };
}
