// Enumerate what a person could act on in this frame: one walk per document state, visible only, sorted
// viewport first, kept (st.walk) so that further pages and finds are described from it while nothing changed.
// args: {prefix, seq, off: [x, y], fclip: [x0, y0, x1, y1] | null, start, end, reuse, keys, known, scope,
//        match, containers, track, icons, iconVerdicts, iconMark, closed, again}
//  - off/fclip place this frame's viewport inside the top-level viewport (null for the main frame);
//  - start/end: the window of this frame's order to describe (the rest is only counted);
//  - reuse: answer from the kept walk when the document has not changed since it (changeCount, geometry);
//  - first: the first page of a new listing (with reuse and track, "new" is then relative to the listing
//    before, as a walk's is);
//  - keys: also answer every item's sort key (flat [g, y, x, ...]) unless `known` names the walk they are of;
//  - scope: {viewport: true} | {id} | {text}: restrict to the viewport, a container by blind id, or a
//    container (dialog, form, region, landmark...) by role or accessible name; never kept;
//  - match: {text, roles, within} for browser_find: every item is tested, the matches described;
//  - containers: name every described item's container, not only those whose role and name repeat;
//  - track: remember this listing's elements so the next one can flag new ones;
//  - icons: collect undecided icon-like candidates (out.iconCheck: their blind ids) for a listener check;
//  - iconVerdicts: the ids of the last iconCheck that have click listeners (the others have none);
//  - iconMark: also put the iconCheck ids on <html> (ICONS_ATTR), where the listener check Python sends right
//    behind this walk, in the page's own world, takes them (keylisteners.js markedClickListeners): no round trip
//    in between;
//  - closed: report custom elements whose shadow root is unknown (out.closedCheck: how many);
//  - again: this is a second walk for the same listing (new items are new relative to the listing before).
const MAX_ICON_CHECKS = 150;
const SAMPLE_NAMESAKES = 8;
// Events that change what a listing shows without a DOM mutation: scrolling and resizing (positions),
// focus (the focused state, an autocomplete's suggestions), typing and toggling (values), loads (layout),
// hover (menus shown by :hover), the end of animations and transitions, popovers.
const CHANGE_EVENTS = ["scroll", "resize", "focusin", "focusout", "input", "change", "load", "error",
  "transitionend", "animationend", "mouseover", "toggle", "hashchange", "popstate"];

function main(args) {
  const began = performance.now();
  const st = boState();
  if (args.prefix) { st.prefix = args.prefix; }
  if (args.seq > st.seq) { st.seq = args.seq; }
  if (args.iconVerdicts) { applyIconVerdicts(st, args.iconVerdicts); }
  const scoped = !!args.scope;
  let w = !scoped && args.reuse ? keptWalk(st, args) : null;
  const reused = !!w;
  if (reused && args.first && args.track) { retrack(st, w); }
  if (!w) {
    w = walkFrame(st, args);
    if (!scoped) { st.walk = w; }
  }
  const walked = performance.now();
  const out = { walk: w.id, reused, total: w.cands.length, had: w.had, scopeFound: w.scopeFound, items: [] };
  // The language the page writes its values in (values.py reads "13 250" as a number on a Russian page).
  const lang = document.documentElement.lang;
  if (lang) { out.lang = lang; }
  if (w.containers) { out.containers = w.containers; }
  if (args.keys && w.id !== args.known) { out.keys = flatKeys(w.cands); }
  if (args.match) {
    out.items = findIn(w, args.match);
  } else {
    const end = Math.min(args.end, w.cands.length);
    for (let i = args.start || 0; i < end; i++) { out.items.push(describe(w, i, !!args.containers)); }
  }
  // Stamp after all reads, so attribute writes do not force style recalculation mid-walk.
  for (const item of out.items) { item.id = ensureUniqueId(w, w.cands[item.i].el); }
  if (!reused) {
    if (w.pendingIcons.length) {
      st.pendingIcons = w.pendingIcons.map((el) => [stamp(el), el]);
      out.iconCheck = st.pendingIcons.map((p) => p[0]);
      if (args.iconMark) { document.documentElement.setAttribute(ICONS_ATTR, out.iconCheck.join(" ")); }
    }
    // Custom elements that may hide a closed shadow root: with args.closed, Python asks DevTools (which
    // pierces closed roots) about each (takeUnseenHosts), hands the roots it finds to this world and lists
    // again.
    if (args.closed && st.unseenHosts.length) { out.closedCheck = st.unseenHosts.length; }
  }
  out.seq = st.seq;
  // Where the time went in this world (DEBUG log of a slow listing): the walk, then describing the window.
  out.ms = [Math.round(walked - began), Math.round(performance.now() - walked)];
  return out;
}

// ---- The kept walk and what invalidates it ----

// Counts the document's changes from the first listing on: relevant mutations (lib.js's rule; the document
// and every shadow root a walk entered) and CHANGE_EVENTS. Lives in this world's state for the document.
// The first relevant mutation after a walk is all the kept walk needs to know: the observer then stops
// (live: false) until the next walk observes again, so a page that animates through the DOM does not make
// mutation records for us all along.
function changeTracker(st) {
  let t = st.tracker;
  if (t && t.doc === document) { return t; }
  t = { n: 0, doc: document, obs: null, roots: new WeakSet(), live: false };
  const bump = () => { t.n += 1; };
  t.obs = new MutationObserver((records) => { if (t.live && records.some(relevantMutation)) { changed(t); } });
  for (const type of CHANGE_EVENTS) { window.addEventListener(type, bump, { capture: true, passive: true }); }
  if (document.fonts) { document.fonts.addEventListener("loadingdone", bump); }
  st.tracker = t;
  return t;
}

function changed(t) {
  t.n += 1;
  t.obs.disconnect();
  t.live = false;
  t.roots = new WeakSet();
}

// Observe the document and the shadow roots walked (after a walk: from its version on).
function observeChanges(t, roots) {
  if (!t.live) { t.obs.observe(document, OBSERVED); t.live = true; }
  for (const r of roots) { if (!t.roots.has(r)) { t.roots.add(r); t.obs.observe(r, OBSERVED); } }
}

// The change count now (mutations not yet delivered to the observer included).
function changeCount(t) {
  if (t.live && t.obs.takeRecords().some(relevantMutation)) { changed(t); }
  return t.n;
}

// Where the frame sits and how it is scrolled: a kept walk's positions and viewport groups hold only as long
// as this does.
function geometryKey(args) {
  const d = document.documentElement;
  return JSON.stringify([args.off || null, args.fclip || null, window.scrollX, window.scrollY, window.innerWidth,
    window.innerHeight, d.scrollWidth, d.scrollHeight]);
}

function keptWalk(st, args) {
  const w = st.walk;
  if (!w || !st.tracker || w.doc !== document) { return null; }
  if (changeCount(st.tracker) !== w.version || geometryKey(args) !== w.geometry) { return null; }
  const end = Math.min(args.end || 0, w.cands.length);
  for (let i = args.start || 0; i < end; i++) { if (!w.cands[i].el.isConnected) { return null; } }
  return w;
}

// A new listing served from the kept walk: its "new" flags are relative to the tracked listing before it, as a
// walk's are (none when that listing was of this very walk).
function retrack(st, w) {
  if (st.seenWalk === w.id) {
    w.had = true;
    for (const c of w.cands) { c.nw = false; }
    st.seenBefore = st.seen;
    return;
  }
  const prev = st.seen;
  w.had = !!prev;
  for (const c of w.cands) { c.nw = !prev || !prev.has(c.el); }
  st.seenBefore = prev;
  st.seen = new WeakSet(w.cands.map((c) => c.el));
  st.seenWalk = w.id;
}

// Walk the frame once: candidates sorted (groups, reading order), covered ones and new ones marked.
// A walk's id: unique per document and world (a random epoch per state object, then a counter).
function walkId(st) {
  if (!st.walkEpoch) { st.walkEpoch = Math.random().toString(36).slice(2, 8); st.walks = 0; }
  st.walks += 1;
  return st.walkEpoch + "." + st.walks;
}

function walkFrame(st, args) {
  const tracker = changeTracker(st);
  const version = changeCount(tracker);
  const found = collect(st, args);
  let cands = found.cands;
  cands = withoutWrappers(cands);
  cands = withoutReplacedNatives(cands);
  if (!found.wantScope) {
    cands = withSuggestions(cands, found.viewport, args.off || [0, 0], args.fclip, !!(args.scope && args.scope.viewport));
  }
  order(cands, args.off || [0, 0]);
  observeChanges(tracker, st.roots);  // the walk is synchronous: nothing changed since `version`
  // A second walk of the same listing (args.again: after DevTools' answers) compares with what the listing
  // before the first walk saw, not with the first walk.
  const prevSeen = args.again ? st.seenBefore : st.seen;
  const had = !!prevSeen;
  for (const c of cands) { c.nw = !had || !prevSeen.has(c.el); }
  const id = walkId(st);
  if (args.track) {
    if (!args.again) { st.seenBefore = st.seen; }
    st.seen = new WeakSet(cands.map((c) => c.el));
    st.seenWalk = id;
  }
  return {
    id,
    doc: document, version, geometry: geometryKey(args), cands, had, scopeFound: found.scopeFound,
    containers: found.wantScope && !found.scopeFound ? found.containers : null, pendingIcons: found.pendingIcons,
    groups: null, namesakes: new Map(), firstById: null,
  };
}

// The walk itself: every visible candidate (kind, box, clip, in-viewport part) in document order.
function collect(st, args) {
  const off = args.off || [0, 0];
  const scope = args.scope || null;
  const wantScope = !!(scope && (scope.id || scope.text));
  const scopeText = scope && scope.text ? fold(scope.text) : "";
  let scopeFound = !wantScope;
  const containers = [];
  const cands = [];
  const icons = st.icons || (st.icons = new WeakMap());
  const pendingIcons = [];
  const onElement = (el, cs, flags, clip, kind) => {
    let extra = 0;
    if (wantScope && !(flags & F_SCOPE)) {
      extra = scopeMatch(el, scope, scopeText, containers);
      if (extra) { scopeFound = true; flags |= extra; }
    }
    if (!kind || (wantScope && !(flags & F_SCOPE)) || !shownInWalk(el, flags)) { return extra; }
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
    const vp = inViewport(r, clip, off, args.fclip);
    if (scope && scope.viewport && !vp) { return extra; }
    cands.push({ el, r, clip, vp, g: 0, y: r.top + off[1], ty: r.top + off[1], x: r.left + off[0], kind, cov: null });
    return extra;
  };
  const { viewport } = walkComposed(onElement, wantScope);
  return { cands, viewport, wantScope, scopeFound, containers, pendingIcons };
}

function scopeMatch(el, scope, scopeText, containers) {
  if (scope.id) { return el.getAttribute(ID_ATTR) === scope.id ? F_SCOPE : 0; }
  const role = roleOf(el);
  if (!CONTAINER_ROLES.has(role) && el.localName !== "dialog") { return 0; }
  const name = nameOf(el, role);
  if (containers.length < 15 && (name || role === "dialog" || role === "main")) {
    containers.push(name ? role + ' "' + cut(name, 40) + '"' : role);
  }
  return role === scopeText || (name && fold(name).includes(scopeText)) ? F_SCOPE : 0;
}

function inViewport(r, clip, off, fclip) {
  const vis = intersect([r.left, r.top, r.right, r.bottom], clip);
  let vp = nonEmpty(vis);
  if (vp && fclip) {
    vp = nonEmpty(intersect([vis[0] + off[0], vis[1] + off[1], vis[2] + off[0], vis[3] + off[1]], fclip));
  }
  return vp;
}

// Groups: 0 in the viewport and reachable, 1 in the viewport but under a banner/modal, 2 below or right of
// the viewport (what paging forward reaches next), 3 scrolled past above. Hit-testing only the in-viewport
// items keeps this cheap on long pages. Then reading order: items whose middle falls within a row's first
// item's band share its row, left to right.
function order(cands, off) {
  for (const c of cands) {
    if (c.vp) {
      c.cov = coveredBy(c.el, c.clip);
      c.g = c.cov ? 1 : 0;
    } else {
      c.g = c.r.bottom + off[1] < 0 ? 3 : 2;
    }
  }
  cands.sort((a, b) => (a.g - b.g) || (a.y - b.y) || (a.x - b.x));
  let row = null;
  for (const c of cands) {
    const mid = c.y + c.r.height / 2;
    if (!row || row.g !== c.g || mid > row.bottom) {
      row = { g: c.g, top: c.y, bottom: c.y + Math.min(Math.max(c.r.height, 8), 50) };
    }
    c.y = row.top;
  }
  cands.sort((a, b) => (a.g - b.g) || (a.y - b.y) || (a.x - b.x));
}

function tenth(v) { return Math.round(v * 10) / 10; }

function flatKeys(cands) {
  const out = new Array(cands.length * 3);
  for (let i = 0; i < cands.length; i++) {
    const c = cands[i];
    out[3 * i] = c.g;
    out[3 * i + 1] = Math.round(c.y * 10) / 10;
    out[3 * i + 2] = Math.round(c.x * 10) / 10;
  }
  return out;
}

// ---- Describing items ----

// Role and name of candidate i (computed once per walk: names are what repeat-detection and find compare).
function ident(w, i) {
  const c = w.cands[i];
  if (c.role !== undefined) { return c; }
  const el = c.el;
  let role = roleOf(el);
  if (role === "generic" || role === "paragraph" || role === "listitem" || role === "img" || role === "section") {
    role = c.kind >= 2 || el.hasAttribute("onclick") ? "clickable" : (role === "generic" ? "focusable" : role);
  }
  if (c.kind === 3) { role = "clickable"; }
  if (c.kind === 5) { role = "option"; }
  c.role = role;
  c.name = cut(nameOf(el, role === "clickable" || role === "focusable" ? "clickable" : role), 80);
  c.gn = undefined;  // a nameless item's guessed name: only when described (guessName reads styles)
  return c;
}

// Namesakes share a role and an accessible name (a guessed name does not make a nameless item unique).
function identKey(c) { return c.role + "\u0000" + c.name.toLowerCase(); }

// The name shown: the accessible one, else a guess from title, alt, icon file or class words.
function shownName(c) {
  if (c.name || c.gn === false) { return c.name; }
  if (c.gn === undefined) {
    c.guess = cut(guessName(c.el), 80);
    c.gn = !!c.guess;
  }
  return c.gn ? c.guess : c.name;
}

// Candidates grouped by role and name (every candidate named once per walk).
function namesakeGroups(w) {
  if (w.groups) { return w.groups; }
  const groups = new Map();
  for (let i = 0; i < w.cands.length; i++) {
    const key = identKey(ident(w, i));
    const have = groups.get(key);
    if (have) { have.push(w.cands[i].el); } else { groups.set(key, [w.cands[i].el]); }
  }
  w.groups = groups;
  return groups;
}

// The container naming of candidate c: for a repeated role and name, among the ancestors holding no
// namesake, and only when it tells the namesakes apart (a menu repeated for small screens names every copy
// the same); else (all: asked for every item) among all ancestors. Cached per walk.
function containerFor(w, c, all) {
  const key = identKey(c);
  const members = namesakeGroups(w).get(key) || [c.el];
  if (members.length < 2) {
    if (!all) { return null; }
    if (c.cont === undefined) { c.cont = containerOf(c.el, null); }
    return c.cont;
  }
  let group = w.namesakes.get(key);
  if (!group) {
    group = { counts: ancestorCounts(members), named: new Map(), apart: null };
    w.namesakes.set(key, group);
  }
  const named = (el) => {
    if (!group.named.has(el)) { group.named.set(el, containerOf(el, group.counts)); }
    return group.named.get(el);
  };
  if (group.apart === null) {
    // Whether the namings tell the namesakes apart, judged on the first few (a page's second copy of its menu
    // names every item as the first does; hundreds of "Edit" rows differ in their first rows already).
    const first = members.slice(0, SAMPLE_NAMESAKES);
    const seen = new Set(first.map((el) => (named(el) || { name: "" }).name.toLowerCase()));
    group.apart = seen.size > 1;
  }
  return group.apart || all ? named(c.el) : null;
}

function describe(w, i, allContainers) {
  const c = ident(w, i);
  const el = c.el;
  // Positions to a tenth of a pixel (what evidence boxes and the merge keys use): a page of 500 items crosses
  // to Python a few KB shorter than with every float's 15 digits.
  const item = { i, role: c.role, name: shownName(c), g: c.g, y: tenth(c.y), x: tenth(c.x), ty: tenth(c.ty),
    w: tenth(c.r.width), h: tenth(c.r.height) };
  if (c.gn) { item.gn = 1; }
  const state = stateOf(el, c.role);
  for (const k in state) { item.st = state; break; }
  const t = typeOf(el);
  if (t) { item.t = t; }
  if (c.cov) { item.cov = c.cov; }
  if (c.nw) { item.nw = 1; }
  const cont = containerFor(w, c, allContainers);
  if (cont) { item.in = cont.name; item.inr = cont.role; }
  return item;
}

// browser_find over the walk: every candidate tested by role, words and container; matches described, each
// with its rank (0 exact name, 1 name starts with, 2 name contains, 3 another label source contains).
function findIn(w, match) {
  const roles = match.roles && match.roles.length ? new Set(match.roles) : null;
  const q = match.text ? fold(match.text) : "";
  const within = match.within ? fold(match.within) : "";
  const out = [];
  for (let i = 0; i < w.cands.length; i++) {
    const c = ident(w, i);
    if (roles && !roles.has(c.role)) { continue; }
    const rank = q ? matchRank(c.el, shownName(c), q) : 0;
    if (rank < 0) { continue; }
    if (within) {
      const cont = containerFor(w, c, true);
      if (!cont || !fold(cont.name).includes(within)) { continue; }
    }
    const item = describe(w, i, !!within);
    item.rank = rank;
    out.push(item);
  }
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

// A page can clone an element together with our attribute; the clone must not answer to the same id. The
// first element of each id (document order, then shadow roots: byBlindId's order) is mapped once per walk:
// asking byBlindId per item scanned the whole document per item.
function ensureUniqueId(w, el) {
  const have = el.getAttribute(ID_ATTR);
  if (!have) { return rememberId(w, el, stamp(el)); }
  if (!w.firstById) {
    w.firstById = new Map();
    const add = (root) => {
      for (const n of root.querySelectorAll("[" + ID_ATTR + "]")) {
        const id = n.getAttribute(ID_ATTR);
        if (!w.firstById.has(id)) { w.firstById.set(id, n); }
      }
    };
    add(document);
    for (const r of boState().roots) { if (r.host && r.host.isConnected) { add(r); } }
  }
  const first = w.firstById.get(have);
  if (!first || first === el || !first.isConnected) { return rememberId(w, el, have); }
  el.removeAttribute(ID_ATTR);
  return rememberId(w, el, stamp(el));
}

function rememberId(w, el, id) {
  if (w.firstById && !w.firstById.has(id)) { w.firstById.set(id, el); }
  return id;
}

// Rank of a find match: 0 exact name, 1 name starts with, 2 name contains, 3 another label source contains.
function matchRank(el, itemName, q) {
  const name = fold(itemName);
  if (name === q) { return 0; }
  if (name.startsWith(q)) { return 1; }
  if (name.includes(q)) { return 2; }
  const sources = [el.getAttribute("aria-label"), el.getAttribute("placeholder"), el.getAttribute("title"),
    el.getAttribute("alt"), el.getAttribute("value") && /^(button|submit|reset)$/.test(el.type) ? el.value : ""];
  for (const l of labelsOf(el)) { sources.push(l.textContent); }
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

// A native control a widget hid and replaced (Select2's <select>) is listed once: as the widget a person
// operates, which nameOf names by the native control's label. The native one, acted on, opens nothing.
function withoutReplacedNatives(cands) {
  let drop = null;
  for (const c of cands) {
    const role = c.el.getAttribute("role");
    if (role !== "combobox" && role !== "listbox") { continue; }
    const native = replacedNative(c.el);
    if (native) { (drop || (drop = new Set())).add(native); }
  }
  return drop ? cands.filter((c) => !drop.has(c.el)) : cands;
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
    const vp = inViewport(r, viewport, off, fclip);
    if (viewportOnly && !vp) { continue; }
    out.push({ el, r, clip: viewport, vp, g: 0, y: r.top + off[1], ty: r.top + off[1], x: r.left + off[0], kind: 5,
      cov: null });
  }
  return out;
}
