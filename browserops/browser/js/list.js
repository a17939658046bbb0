// Enumerate what a person could act on in this frame: one walk, visible only, sorted viewport first.
// args: {prefix, seq, off: [x, y], fclip: [x0, y0, x1, y1] | null, keep, scope, match, track, icons,
//        iconVerdicts, closed}
//  - off/fclip place this frame's viewport inside the top-level viewport (null for the main frame);
//  - keep: how many items (in sorted order) to describe; the rest are only counted;
//  - skip: how many of those first ones not to describe (the frame alone makes the listing: they are before
//    the window asked for);
//  - scope: {viewport: true} | {id} | {text}: restrict to the viewport, a container by blind id, or a
//    container (dialog, form, region, landmark...) by role or accessible name;
//  - match: {text, roles} for browser_find: every candidate is described and tested;
//  - track: remember this listing's elements so the next one can flag new ones;
//  - icons: collect undecided icon-like candidates (out.iconCheck: their blind ids) for a listener check;
//  - iconVerdicts: the ids of the last iconCheck that have click listeners (the others have none);
//  - closed: report custom elements whose shadow root is unknown (out.closedCheck: how many);
//  - again: this is a second walk for the same listing (new items are new relative to the listing before).
const MAX_ICON_CHECKS = 150;

function main(args) {
  const st = boState();
  if (args.prefix) { st.prefix = args.prefix; }
  if (args.seq > st.seq) { st.seq = args.seq; }
  const off = args.off || [0, 0];
  const scope = args.scope || null;
  const wantScope = !!(scope && (scope.id || scope.text));
  const scopeText = scope && scope.text ? fold(scope.text) : "";
  let scopeFound = !wantScope;
  const containers = [];
  let cands = [];
  if (args.iconVerdicts) { applyIconVerdicts(st, args.iconVerdicts); }
  const icons = st.icons || (st.icons = new WeakMap());
  const pendingIcons = [];
  const onElement = (el, cs, flags, clip, kind) => {
    let extra = 0;
    if (wantScope && !(flags & F_SCOPE)) {
      if (scope.id) {
        if (el.getAttribute(ID_ATTR) === scope.id) { extra = F_SCOPE; }
      } else {
        const role = roleOf(el);
        if (CONTAINER_ROLES.has(role) || el.localName === "dialog") {
          const name = nameOf(el, role);
          if (containers.length < 15 && (name || role === "dialog" || role === "main")) {
            containers.push(name ? role + ' "' + cut(name, 40) + '"' : role);
          }
          if (role === scopeText || (name && fold(name).includes(scopeText))) { extra = F_SCOPE; }
        }
      }
      if (extra) { scopeFound = true; flags |= extra; }
    }
    if (!kind || (flags & F_INERT)) { return extra; }
    if (wantScope && !(flags & F_SCOPE)) { return extra; }
    if (!shownInWalk(el, flags)) { return extra; }
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) { return extra; }
    // Kind 3 (an icon-like leaf): listed only when icon-sized, without text, and DevTools has seen a click
    // listener on it. Page JavaScript (this world included) cannot see listeners: undecided candidates are
    // handed to Python (out.iconCheck), which asks DevTools in the page's world and lists again.
    if (kind === 3) {
      if (r.width > 96 || r.height > 96 || r.width < 6 || r.height < 6 || norm(el.textContent)) { return extra; }
      const verdict = icons.get(el);
      if (verdict === undefined && args.icons && pendingIcons.length < MAX_ICON_CHECKS) { pendingIcons.push(el); }
      if (verdict !== true) { return extra; }
    }
    const vis = intersect([r.left, r.top, r.right, r.bottom], clip);
    let vp = nonEmpty(vis);
    if (vp && args.fclip) {
      vp = nonEmpty(intersect([vis[0] + off[0], vis[1] + off[1], vis[2] + off[0], vis[3] + off[1]], args.fclip));
    }
    const y = r.top + off[1];
    const x = r.left + off[0];
    if (scope && scope.viewport && !vp) { return extra; }
    cands.push({ el, r, clip, vp, g: 0, y, x, kind, cov: null });
    return extra;
  };
  const { viewport } = walkComposed(onElement, wantScope);
  cands = withoutWrappers(cands);
  if (!wantScope) { cands = withSuggestions(cands, viewport, off, args.fclip, !!(scope && scope.viewport)); }
  // Groups: 0 in the viewport and reachable, 1 in the viewport but under a banner/modal, 2 below or right
  // of the viewport (what paging forward reaches next), 3 scrolled past above. Hit-testing only the
  // in-viewport items keeps this cheap on long pages.
  for (const c of cands) {
    if (c.vp) {
      c.cov = coveredBy(c.el, c.clip);
      c.g = c.cov ? 1 : 0;
    } else {
      c.g = c.r.bottom + off[1] < 0 ? 3 : 2;
    }
  }
  cands.sort((a, b) => (a.g - b.g) || (a.y - b.y) || (a.x - b.x));
  // Reading order: items whose middle falls within a row's first item's band share its row, left to right.
  let row = null;
  for (const c of cands) {
    const mid = c.y + c.r.height / 2;
    if (!row || row.g !== c.g || mid > row.bottom) {
      row = { g: c.g, top: c.y, bottom: c.y + Math.min(Math.max(c.r.height, 8), 50) };
    }
    c.y = row.top;
  }
  cands.sort((a, b) => (a.g - b.g) || (a.y - b.y) || (a.x - b.x));

  // A second walk of the same listing (args.again: after DevTools' answers) compares with what the listing
  // before the first walk saw, not with the first walk.
  const prevSeen = args.again ? st.seenBefore : st.seen;
  const had = !!prevSeen;
  const describe = (c, i) => {
    const el = c.el;
    let role = roleOf(el);
    if (role === "generic" || role === "paragraph" || role === "listitem" || role === "img" || role === "section") {
      role = c.kind >= 2 || el.hasAttribute("onclick") ? "clickable" : (role === "generic" ? "focusable" : role);
    }
    if (c.kind === 3) { role = "clickable"; }
    if (c.kind === 5) { role = "option"; }
    const item = { i, role, name: cut(nameOf(el, role === "clickable" || role === "focusable" ? "clickable" : role), 80),
      g: c.g, y: c.y, x: c.x, ty: c.r.top + off[1], w: c.r.width, h: c.r.height };
    if (!item.name) {
      const guess = cut(guessName(el), 80);
      if (guess) { item.name = guess; item.gn = 1; }
    }
    const state = stateOf(el, role);
    for (const k in state) { item.st = state; break; }
    const t = typeOf(el);
    if (t) { item.t = t; }
    if (c.cov) { item.cov = c.cov; }
    if (!had || !prevSeen.has(el)) { item.nw = 1; }
    return item;
  };

  const out = { total: cands.length, had, scopeFound, items: [] };
  if (wantScope && !scopeFound) { out.containers = containers; }
  if (args.match) {
    const roles = args.match.roles && args.match.roles.length ? new Set(args.match.roles) : null;
    const q = args.match.text ? fold(args.match.text) : "";
    out.keys = cands.map((c) => [c.g, c.y, c.x]);
    for (let i = 0; i < cands.length; i++) {
      const c = cands[i];
      const item = describe(c, i);
      if (roles && !roles.has(item.role)) { continue; }
      if (q) {
        const rank = matchRank(c.el, item, q);
        if (rank < 0) { continue; }
        item.rank = rank;
      } else {
        item.rank = 0;
      }
      out.items.push(item);
    }
  } else {
    const keep = Math.min(args.keep, cands.length);
    for (let i = args.skip || 0; i < keep; i++) { out.items.push(describe(cands[i], i)); }
  }
  // Stamp after all reads, so attribute writes do not force style recalculation mid-walk.
  for (const item of out.items) { item.id = ensureUniqueId(cands[item.i].el); }
  if (args.track) {
    if (!args.again) { st.seenBefore = st.seen; }
    st.seen = new WeakSet(cands.map((c) => c.el));
  }
  if (pendingIcons.length) {
    st.pendingIcons = pendingIcons.map((el) => [stamp(el), el]);
    out.iconCheck = st.pendingIcons.map((p) => p[0]);
  }
  // Custom elements that may hide a closed shadow root: with args.closed, Python asks DevTools (which
  // pierces closed roots) about each (takeUnseenHosts), hands the roots it finds to this world and lists
  // again.
  if (args.closed && st.unseenHosts.length) { out.closedCheck = st.unseenHosts.length; }
  out.seq = st.seq;
  return out;
}

// A closed shadow root DevTools resolved into this world (el: the ShadowRoot): walk it from now on.
function registerClosedRoot(el) {
  const st = boState();
  if (!st.closed) { st.closed = new WeakMap(); }
  st.closed.set(el.host, el);
  return true;
}

// The custom elements the last walk met whose shadow root is unknown (out.closedCheck), by reference for
// DevTools to describe (browser/numbering/isolated.py); from now on they count as asked about. null when
// there are none, so DevTools holds no object to release.
function takeUnseenHosts(args) {
  const st = boState();
  const hosts = st.unseenHosts || [];
  if (!st.hostsChecked) { st.hostsChecked = new WeakSet(); }
  for (const el of hosts) { st.hostsChecked.add(el); }
  st.unseenHosts = [];
  return hosts.length ? hosts : null;
}

// Remember which of the last iconCheck's elements have click listeners (args.iconVerdicts: their ids).
function applyIconVerdicts(st, verdicts) {
  const icons = st.icons || (st.icons = new WeakMap());
  if (!st.pendingIcons) { return; }
  const yes = new Set(verdicts);
  for (const [id, el] of st.pendingIcons) { icons.set(el, yes.has(id)); }
  st.pendingIcons = null;
}

// A page can clone an element together with our attribute; the clone must not answer to the same id.
function ensureUniqueId(el) {
  const have = el.getAttribute(ID_ATTR);
  if (have) {
    const first = byBlindId(have);
    if (first === el || !first) { return have; }
    el.removeAttribute(ID_ATTR);
  }
  return stamp(el);
}

// Rank of a find match: 0 exact name, 1 name starts with, 2 name contains, 3 another label source contains.
function matchRank(el, item, q) {
  const name = fold(item.name);
  if (name === q) { return 0; }
  if (name.startsWith(q)) { return 1; }
  if (name.includes(q)) { return 2; }
  const sources = [el.getAttribute("aria-label"), el.getAttribute("placeholder"), el.getAttribute("title"),
    el.getAttribute("alt"), el.getAttribute("value") && /^(button|submit|reset)$/.test(el.type) ? el.value : ""];
  if (el.labels) { for (const l of el.labels) { sources.push(l.textContent); } }
  if (el.localName !== "select" && el.localName !== "textarea" && !(el.localName === "input")) { sources.push(el.textContent); }
  const lb = idrefText(el, "aria-labelledby");
  if (lb) { sources.push(lb); }
  const db = idrefText(el, "aria-describedby");
  if (db) { sources.push(db); }
  for (const s of sources) { if (s && fold(s).includes(q)) { return 3; } }
  return -1;
}

// A wrapper that is clickable only by its pointer cursor around one real control of about its size (a web
// component's host around the <button> in its shadow root, a styled box around a combobox) is that control
// once, not two items of which the outer one has no name. A card holding several controls stays.
function withoutWrappers(cands) {
  const wrappers = new Map();
  for (const c of cands) { if (c.kind === 2) { wrappers.set(c.el, { c, inner: [] }); } }
  if (!wrappers.size) { return cands; }
  for (const c of cands) {
    if (c.kind !== 1) { continue; }
    let n = c.el;
    for (let hops = 0; hops < 6 && n; hops += 1) {
      n = n.parentElement || (n.parentNode && n.parentNode.host) || null;
      const w = n ? wrappers.get(n) : null;
      if (w) { w.inner.push(c); break; }
    }
  }
  const drop = new Set();
  for (const { c, inner } of wrappers.values()) {
    if (inner.length !== 1) { continue; }
    const r = inner[0].r;
    if (r.width * r.height >= 0.5 * c.r.width * c.r.height || r.width >= 0.85 * c.r.width) { drop.add(c); }
  }
  return drop.size ? cands.filter((c) => !drop.has(c)) : cands;
}

// The suggestions an autocomplete shows beside the focused field as a bare floating list (jQuery UI's: a
// focusable <ul> of <li>, no ARIA) are its options: each is an item (kind 5, role option, its text as
// name), in place of one nameless list, so one can be picked by number.
function withSuggestions(cands, viewport, off, fclip, viewportOnly) {
  const field = deepActiveElement();
  const items = field ? suggestionItems(field) : [];
  if (!items.length) { return cands; }
  const lists = new Set(items.map((i) => i.closest('ul, ol, [role="menu"]')));
  const have = new Set(cands.map((c) => c.el));
  const out = cands.filter((c) => !lists.has(c.el));
  for (const el of items) {
    if (have.has(el)) { continue; }
    const r = el.getBoundingClientRect();
    const vis = intersect([r.left, r.top, r.right, r.bottom], viewport);
    let vp = nonEmpty(vis);
    if (vp && fclip) {
      vp = nonEmpty(intersect([vis[0] + off[0], vis[1] + off[1], vis[2] + off[0], vis[3] + off[1]], fclip));
    }
    if (viewportOnly && !vp) { continue; }
    out.push({ el, r, clip: viewport, vp, g: 0, y: r.top + off[1], x: r.left + off[0], kind: 5, cov: null });
  }
  return out;
}
