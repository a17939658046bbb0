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

// Counts the document's changes from the first listing on: relevant mutations (lib_changes.js's rule; the document
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
  // The element last clicked (by the person or an action): a bare menu floating beside it is what it opened.
  window.addEventListener("click", (e) => { st.clicked = e.composedPath()[0]; }, { capture: true, passive: true });
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
  cands = withoutWidgetParts(cands);
  cands = withoutReplacedNatives(cands);
  if (!found.wantScope) {
    cands = withSuggestions(cands, found.viewport, args.off || [0, 0], args.fclip, !!(args.scope && args.scope.viewport),
      st.clicked);
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
    let r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) {
      // A control of no size its widget draws (seenThrough): listed where the widget's box is.
      const box = (flags & F_OWN_CLEAR) && seenThrough(el) ? seenBox(el) : null;
      if (!box) { return extra; }
      r = box.getBoundingClientRect();
    }
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
    cands.push({ el, r, clip, vp, g: 0, y: r.top + off[1], ty: r.top + off[1], x: r.left + off[0], kind, cov: null,
      seen: (flags & F_OWN_CLEAR) !== 0 });
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
