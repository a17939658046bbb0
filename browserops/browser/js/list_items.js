// The listing's second part (scripts.py SCRIPT_PARTS: concatenated after list.js): describing the items a walk
// found, browser_find's matching, id stamps, and the filters that drop a control's wrappers and replaced natives.

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
  if (c.kind === 6) { role = "menuitem"; }
  c.role = role;
  c.name = cut(nameOf(el, role === "clickable" || role === "focusable" ? "clickable" : role), 80);
  c.gn = undefined;  // a nameless item's guessed name: only when described (guessName reads styles)
  return c;
}

// Namesakes share a role and an accessible name. Nameless items are told apart by the name guessed for them (a feed's
// reply, like and more icons are three controls, repeated per post, not twelve namesakes: each post is then the
// container that tells its like from the others').
function identKey(c) { return c.role + "\u0000" + (c.name ? c.name : shownName(c)).toLowerCase(); }

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
    group = { counts: ancestorCounts(members), named: new Map(), apart: null, lines: 1 };
    w.namesakes.set(key, group);
  }
  const named = (el) => {
    if (!group.named.has(el)) { group.named.set(el, containerOf(el, group.counts, group.lines)); }
    return group.named.get(el);
  };
  if (group.apart === null) {
    // Whether the namings tell the namesakes apart, judged on the first few (a page's second copy of its menu
    // names every item as the first does; hundreds of "Edit" rows differ in their first rows already). Boxes
    // that all start with the same line (every post of one author) are named by their first two lines instead,
    // when those tell them apart.
    group.apart = namingsDiffer(members, named);
    if (!group.apart && namedAlike(members, named)) {
      group.lines = 2;
      group.named = new Map();
      group.apart = namingsDiffer(members, named);
      if (!group.apart) { group.lines = 1; group.named = new Map(); }
    }
  }
  return group.apart || all ? named(c.el) : null;
}

// Whether the first few namesakes' containers are named differently (all unnamed or all alike: not).
function namingsDiffer(members, named) {
  const first = members.slice(0, SAMPLE_NAMESAKES);
  const seen = new Set(first.map((el) => (named(el) || { name: "" }).name.toLowerCase()));
  return seen.size > 1;
}

// Whether the first two namesakes' containers are named, and alike (the case a second line may tell apart).
function namedAlike(members, named) {
  const a = named(members[0]);
  return !!a && members.length > 1 && !!named(members[1]) && named(members[1]).name === a.name;
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
    // A transparent control its widget draws (seenThrough) stands for the whole widget, whatever its own size.
    if (inner[0].seen || r.width * r.height >= 0.5 * c.r.width * c.r.height || r.width >= 0.85 * c.r.width) {
      drop.add(c);
    }
  }
  return drop.size ? cands.filter((c) => !drop.has(c)) : cands;
}

// Roles of a control whose whole drawn box acts as one: a click anywhere on a switch toggles it, on a select opens it.
const WHOLE_BOX_ROLES = new Set(["switch", "checkbox", "radio", "combobox", "listbox"]);

// A nameless part of such a control's drawing — a switch's track (Element Plus's "el-switch__core"), a select's
// caret, a date field's calendar icon — is clickable only by its pointer cursor or a listener, has no role and no
// name, and sits in the control's own box (within three boxes out, one holding that control and no other): the
// accessibility tree has only the control, a person sees one widget, and the control is listed. Listing the part
// beside it gave it a name guessed from class words nobody sees ("core", "suffix caret"). A text field's icons (a
// password's eye, a search's magnifier) do something else than the field, and stay.
function withoutWidgetParts(cands) {
  const fields = new Set();
  for (const c of cands) { if (c.kind === 1 && WHOLE_BOX_ROLES.has(roleOf(c.el))) { fields.add(c.el); } }
  if (!fields.size) { return cands; }
  const controls = cands.filter((c) => c.kind === 1).map((c) => c.el);
  const drop = new Set();
  for (const c of cands) {
    if ((c.kind !== 2 && c.kind !== 3) || c.el.hasAttribute("role") || nameOf(c.el, roleOf(c.el))) { continue; }
    let n = c.el.parentElement;
    for (let hops = 0; hops < 3 && n; hops += 1, n = n.parentElement) {
      const inside = controls.filter((x) => n.contains(x));
      if (!inside.length) { continue; }
      if (inside.length === 1 && fields.has(inside[0])) { drop.add(c); }
      break;
    }
  }
  return drop.size ? cands.filter((c) => !drop.has(c)) : cands;
}

// A native control a widget hid and replaced (Select2's <select>) is listed once: as the widget a person
// operates, which nameOf names by the native control's label. The native one, acted on, opens nothing. So is one a
// widget took the label from (Tom Select points the <label> at its own text box and keeps the original, clipped to
// nothing and out of the tab order, for the form): a control nobody can see or reach by Tab, right beside a
// combobox that stands for it, is that combobox's, not an item named by its `name` or its placeholder.
function withoutReplacedNatives(cands) {
  let drop = null;
  for (const c of cands) {
    const role = c.el.getAttribute("role");
    if (role !== "combobox" && role !== "listbox") { continue; }
    let native = replacedNative(c.el);
    if (!native && role === "combobox") {
      const beside = hiddenBeside(c.el);
      native = beside && (beside.tabIndex < 0 || beside.getAttribute("aria-hidden") === "true") ? beside : null;
    }
    if (native) { (drop || (drop = new Set())).add(native); }
  }
  // A hidden list box's options go with it (a multiple <select> lists its options as items of their own).
  const gone = (el) => drop.has(el) || (el.localName === "option" && drop.has(el.closest("select")));
  return drop ? cands.filter((c) => !gone(c.el)) : cands;
}

// The suggestions an autocomplete shows beside the focused field as a bare floating list (jQuery UI's: a
// focusable <ul> of <li>, no ARIA) are its options: each is an item (kind 5, role option, its text as
// name), in place of one nameless list, so one can be picked by number. So are the entries of a bare menu the
// last click opened beside the element clicked (kind 6, role menuitem: a post's "more" menu of plain <li>).
function withSuggestions(cands, viewport, off, fclip, viewportOnly, clicked) {
  const field = deepActiveElement();
  const found = (field ? suggestionItems(field) : []).map((el) => [el, 5]);
  for (const el of openedMenuItems(clicked)) { found.push([el, 6]); }
  if (!found.length) { return cands; }
  const lists = new Set(found.map(([i]) => i.closest('ul, ol, [role="menu"]')));
  const have = new Set(cands.map((c) => c.el));
  // Not the list as one item, nor a box clickable only by its pointer cursor around it (the menu's trigger and
  // its entries in one hovered wrapper): its entries are the items.
  const around = (c) => c.kind === 2 && Array.from(lists).some((l) => composedContains(c.el, l));
  const out = cands.filter((c) => !lists.has(c.el) && !around(c));
  for (const [el, kind] of found) {
    if (have.has(el)) { continue; }
    have.add(el);
    const r = el.getBoundingClientRect();
    const vp = inViewport(r, viewport, off, fclip);
    if (viewportOnly && !vp) { continue; }
    out.push({ el, r, clip: viewport, vp, g: 0, y: r.top + off[1], ty: r.top + off[1], x: r.left + off[0], kind,
      cov: null });
  }
  return out;
}
