// Walking the page as a person sees it: visibility, the composed-tree walk through shadow roots and frames' documents,
// id stamps, hit tests and what covers an element. Part of the shared helpers (lib_base.js).

// Flags carried down the composed-tree walk.
const F_INTER = 1;   // inside an interactive element (its parts are not separate items)
const F_POINTER = 2; // inside an element with cursor:pointer
const F_SCOPE = 16;  // inside the requested scope
const F_CLEAR = 32;  // inside (or is) an element with opacity 0, html and body excepted (see shownInWalk)
const F_IN_CONTROL = 128;  // inside an element interactive by markup or role (not only by a pointer cursor)
const F_OWN_CLEAR = 64;  // is itself, or its parent is, the first element with opacity 0 on its way up (seenThrough)
const FORM_TAGS = new Set(["button", "select", "textarea", "summary", "input"]);

function intersect(a, b) {
  return [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])];
}
function nonEmpty(r) { return r[2] - r[0] > 0.5 && r[3] - r[1] > 0.5; }

// Really visible: no hidden/collapsed visibility and no opacity:0 on the way up (checked natively).
// Checkboxes, radios and file inputs are often styled at opacity 0 under a custom look: they count.
function shown(el) {
  const toggle = el.localName === "input" && /^(checkbox|radio|file)$/.test(el.type);
  return el.checkVisibility({ visibilityProperty: true, opacityProperty: !toggle });
}

// shown() for an element met by walkComposed (flags say whether an ancestor is transparent): the same rule,
// except that opacity 0 on <html> or <body> does not hide. That is a page-hiding snippet's (A/B-testing
// "anti-flicker"): it hides the whole page until its script loads or a timeout of a few seconds shows it,
// and Chromium's accessibility tree ignores it too. Listing nothing during those seconds would be wrong.
function shownInWalk(el, flags) {
  const toggle = el.localName === "input" && /^(checkbox|radio|file)$/.test(el.type);
  // A seen-through control inside another control (a native <select> Choices.js keeps inside its combobox) is a
  // part of that one, not a control of its own.
  if ((flags & F_CLEAR) && !toggle && !((flags & F_OWN_CLEAR) && !(flags & F_IN_CONTROL) && seenThrough(el))) {
    return false;
  }
  return el.checkVisibility({ visibilityProperty: true });
}

// A control its widget draws instead of it: the control itself transparent (opacity 0), what a person sees of it
// (the shown value, a placeholder) drawn in the visible box around it — antd's and Element Plus's select inputs.
// Chromium's accessibility tree exposes it as the control it is (combobox "客户等级"), so a listing does too; acting,
// a person clicks what lies over it (widgetOnTop).
const SEEN_THROUGH_ROLES = new Set(["combobox", "textbox", "searchbox", "spinbutton", "switch", "checkbox", "radio",
  "slider", "listbox"]);
/** @param {Element} el */
function seenThrough(el) {
  const tag = el.localName;
  const role = el.getAttribute("role");
  const field = (tag === "input" && /** @type {HTMLInputElement} */ (el).type !== "hidden") || tag === "textarea" ||
    tag === "select" || (!!role && SEEN_THROUGH_ROLES.has(role));
  if (!field) { return false; }
  const box = seenBox(el);
  return !!box && box.checkVisibility({ visibilityProperty: true, opacityProperty: true });
}

// The widget's box a seen-through control is drawn in: the nearest ancestor above its transparent part that has a
// size (a layout box may have none of its own: Element Plus's selection row), or null.
/** @param {Element} el @returns {Element | null} */
function seenBox(el) {
  const holder = clearHolder(el);
  let box = holder && holder.parentElement;
  for (let hops = 0; hops < 3 && box && box !== document.body; hops += 1, box = box.parentElement) {
    const r = box.getBoundingClientRect();
    if (r.width >= 1 && r.height >= 1) { return box; }
  }
  return null;
}

// Whether what lies on el's centre (hit) is its own widget's drawing: a transparent control (seenThrough) and the
// hit inside the same small box (one of its three nearest ancestors holds both). Clicking there is clicking it.
// The transparent element a seen-through control is drawn under: itself, or its wrapper (Element Plus hides the
// wrapper of its select's input), null when neither is transparent.
/** @param {Element} el @returns {Element | null} */
function clearHolder(el) {
  if (getComputedStyle(el).opacity === "0") { return el; }
  const up = el.parentElement;
  return up && getComputedStyle(up).opacity === "0" ? up : null;
}

/** @param {Element} el @param {Element} hit */
function widgetOnTop(el, hit) {
  const holder = clearHolder(el);
  if (!holder) { return false; }
  let a = holder.parentElement;
  for (let hops = 0; hops < 3 && a && a !== document.body && a !== document.documentElement; hops += 1) {
    if (composedContains(a, hit)) { return seenThrough(el); }
    a = a.parentElement;
  }
  return false;
}

// The shadow root of a host: its open one, or a closed one DevTools handed to this (isolated) world
// (registerClosedRoot; see browser/numbering/isolated.py). Page JavaScript cannot see closed roots.
function shadowOf(el) {
  const open = el.shadowRoot;
  if (open) { return open; }
  const closed = boState().closed;
  return closed ? closed.get(el) || null : null;
}

// A custom element (a name with a dash) whose shadow root, if any, we cannot see and DevTools has not been
// asked about yet: it may hold a closed shadow root (walkComposed collects these in st.unseenHosts). Only a
// registered component (":defined" reads the element's own state, so it holds in any world) or an empty
// element a script may have given a root by hand: an unregistered element with content of its own (MathJax's
// mjx-*, thousands on a page of formulas) shows that content, so it has no root hiding it, and asking
// DevTools about each such element made a page of 13 controls cost hundreds of milliseconds.
function unseenHost(el, st) {
  return el.localName.includes("-") && !shadowOf(el) && !(st.hostsChecked && st.hostsChecked.has(el)) &&
    (!el.firstChild || el.matches(":defined"));
}

// Subtrees that hold text, code or formulas only: a highlighted code block or a typeset formula has hundreds
// of elements and, unless one is a control by markup, nothing a person acts on. Not walked element by element.
const QUIET_TAGS = new Set(["pre", "code", "mjx-container", "mjx-math", "figcaption", "address"]);
const QUIET_CLASS = /(?:^|\s)(?:MathJax(?:_\w+)?|MJX-TEX|mjx-chtml|katex(?:-display|-html)?)(?:\s|$)/;
const MARKUP_CONTROLS = "a[href], area[href], button, input, select, textarea, summary, video[controls], " +
  "audio[controls], iframe, frame, object, embed, [role], [tabindex], [contenteditable], [onclick]";
// el.matches(MARKUP_CONTROLS) without matching a selector list (leadText asks it of every node it reads).
const MARKUP_CONTROL_TAGS = new Set(["button", "input", "select", "textarea", "summary", "iframe", "frame", "object",
  "embed"]);
function isMarkupControl(el) {
  const tag = el.localName;
  if (MARKUP_CONTROL_TAGS.has(tag)) { return true; }
  if (!el.hasAttributes()) { return false; }
  if (tag === "a" || tag === "area") { if (el.hasAttribute("href")) { return true; } }
  else if ((tag === "video" || tag === "audio") && el.hasAttribute("controls")) { return true; }
  return el.hasAttribute("role") || el.hasAttribute("tabindex") || el.hasAttribute("contenteditable") ||
    el.hasAttribute("onclick");
}
// An element focusable only for keyboard users' sake — a scrolling region (a custom scrollbar's tabindex=0 wrapper
// around a whole table), a tab panel, a landmark — is a container, not a control: the controls it holds are items
// of their own, the ones only a pointer cursor or a click listener marks too (a row's action menu opener).
const HOLDER_ROLES = new Set(["region", "main", "navigation", "complementary", "banner", "contentinfo", "search",
  "form", "group", "tabpanel", "document", "article", "feed", "log", "dialog", "alertdialog", "section"]);
function focusableHolder(el, tag, cs) {
  if (MARKUP_CONTROL_TAGS.has(tag) || tag === "a" || tag === "area" || el.hasAttribute("onclick") ||
      el.isContentEditable) {
    return false;
  }
  const role = roleOf(el);
  if (role !== "generic") { return HOLDER_ROLES.has(role); }
  return /^(auto|scroll)$/.test(cs.overflowY) || /^(auto|scroll)$/.test(cs.overflowX);
}
function quietSubtree(el, tag, attrs) {
  if (!QUIET_TAGS.has(tag) && !(attrs && QUIET_CLASS.test(el.getAttribute("class") || ""))) { return false; }
  return !el.querySelector(MARKUP_CONTROLS);
}

// aria-hidden on something a sighted person does not see either (invisible, transparent, or placed where no
// scrolling reaches): hidden from every user, so its subtree is not walked.
function hiddenFromEveryone(el, cs, flags) {
  if (el.getAttribute("aria-hidden") !== "true") { return false; }
  if (cs.visibility !== "visible" || (flags & F_CLEAR)) { return true; }
  const r = el.getBoundingClientRect();
  return r.right + window.scrollX <= 0 || r.bottom + window.scrollY <= 0;
}

// One depth-first walk over the composed tree (open shadow roots, closed ones DevTools handed us, and
// slots included), in document order. It calls onElement(el, cs, flags, clip, kind) for every interactive
// element (kind 1: by markup, 2: cursor:pointer heuristic, 3: icon-like leaf maybe with a click listener;
// list.js adds kind 5, a suggestion), or for every rendered element when `every` is true (kind 0 for the
// rest); clip is the local viewport clipped by scrolling/overflow ancestors. onElement may return extra flags
// for the subtree. Skipped whole, before any measuring: subtrees that are not rendered (display:none,
// content-visibility:hidden, a closed <details>' content), inert ones, aria-hidden ones nobody sees, and
// quiet text/code/formula subtrees (quietSubtree).
function walkComposed(onElement, every) {
  const st = boState();
  const roots = [];
  const unseen = [];
  const vw = document.documentElement.clientWidth || window.innerWidth;
  const vh = window.innerHeight;
  const viewport = [0, 0, vw, vh];
  const docEl = document.documentElement;
  const body = document.body;
  // Hot loop (tens of thousands of elements on big pages): read only the style properties that can matter.
  const visit = (el, flags, clip) => {
    const tag = el.localName;
    if (SKIP_TAGS.has(tag)) { return; }
    const attrs = el.hasAttributes();
    if (attrs && el.hasAttribute("inert")) { return; }  // nothing in it can be focused, clicked or read out
    const cs = getComputedStyle(el);
    const display = cs.display;
    if (display === "none") { return; }
    let kind = attrs || FORM_TAGS.has(tag) ? markupInteractive(el, tag) : 0;
    let pointer = false;
    if (!(flags & (F_INTER | F_POINTER))) {
      pointer = cs.cursor === "pointer";
      if (!kind && pointer && tag !== "label" && el !== docEl && el !== body && display !== "contents") { kind = 2; }
      // An icon-like leaf that may have a click listener attached by script (kind 3: onElement asks DevTools).
      if (!kind && ICON_TAGS.has(tag) && iconLeaf(el)) { kind = 3; }
    }
    // F_OWN_CLEAR reaches the transparent element and its children only (a widget may hide its input's wrapper).
    let f = (flags & F_OWN_CLEAR) && getComputedStyle(el.parentElement || el).opacity === "0" ? flags
      : flags & ~F_OWN_CLEAR;
    if (cs.opacity === "0" && el !== docEl && el !== body) { f |= (f & F_CLEAR) ? F_CLEAR : F_CLEAR | F_OWN_CLEAR; }
    if (attrs && hiddenFromEveryone(el, cs, f)) { return; }
    if (kind || every) {
      const extra = onElement(el, cs, f, clip, kind);
      if (extra) { f |= extra; }
    }
    if (kind && !(kind === 1 && focusableHolder(el, tag, cs))) {
      f |= F_INTER;
      if (kind === 1) { f |= F_IN_CONTROL; }
    }
    if (pointer) { f |= F_POINTER; }
    if (tag === "select" && kind && (el.multiple || el.size > 1)) {
      // A list box (multiple, or several rows shown): its options are on screen, each a control of its own
      // (as Chromium's accessibility tree has them); a drop-down's options are not shown until opened.
      const r = el.getBoundingClientRect();
      const box = intersect(clip, [r.left, r.top, r.right, r.bottom]);
      for (const opt of el.options) { onElement(opt, cs, f | F_INTER, box, 1); }
    }
    const shadow = shadowOf(el);
    if (!shadow && unseen.length < 500 && unseenHost(el, st)) { unseen.push(el); }
    if (LEAF_TAGS.has(tag) || !(el.firstElementChild || shadow || tag === "slot")) { return; }
    if (cs.contentVisibility === "hidden" || (!shadow && quietSubtree(el, tag, attrs))) { return; }
    let childClip = clip;
    if (clip !== viewport && cs.position === "fixed") { childClip = viewport; }
    if (el !== docEl && el !== body && (cs.overflowX !== "visible" || cs.overflowY !== "visible")) {
      const r = el.getBoundingClientRect();
      childClip = intersect(childClip, [r.left, r.top, r.right, r.bottom]);
    }
    if (shadow) {
      roots.push(shadow);
      for (let c = shadow.firstElementChild; c; c = c.nextElementSibling) { visit(c, f, childClip); }
      return;
    }
    if (tag === "slot" && el.assignedElements) {
      const assigned = el.assignedElements({ flatten: true });
      if (assigned.length) {
        for (const c of assigned) { visit(c, f, childClip); }
        return;
      }
    }
    const closedDetails = tag === "details" && !el.open;  // only its <summary> is rendered
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
      if (!closedDetails || c.localName === "summary") { visit(c, f, childClip); }
    }
  };
  visit(docEl, 0, viewport);
  st.roots = roots;
  st.unseenHosts = unseen;
  return { viewport };
}

// Find an element by blind id in the document and the open shadow roots we have seen (walk again if needed).
function byBlindId(id) {
  const sel = "[" + ID_ATTR + '="' + CSS.escape(id) + '"]';
  let el = document.querySelector(sel);
  if (el) { return el; }
  const st = boState();
  for (const r of st.roots) { if (r.host && r.host.isConnected) { el = r.querySelector(sel); if (el) { return el; } } }
  /** @type {Element[]} */
  const stack = [document.documentElement];
  while (stack.length) {
    const n = stack.pop();
    const sr = shadowOf(n);
    if (sr) {
      el = sr.querySelector(sel);
      if (el) { return el; }
      stack.push(...sr.children);
    }
    stack.push(...n.children);
  }
  return null;
}

// Give an element its stable id (once); the counter never goes back, even if Python forgot it.
function stamp(el, prefix) {
  const st = boState();
  const have = el.getAttribute(ID_ATTR);
  if (have) { return have; }
  st.seq += 1;
  const id = (prefix || st.prefix || "x") + st.seq;
  el.setAttribute(ID_ATTR, id);
  return id;
}

// Composed-tree containment (crosses shadow boundaries upwards from `inner`).
function composedContains(outer, inner) {
  for (let n = inner; n; n = n.parentNode || n.host) {
    if (n === outer) { return true; }
  }
  return false;
}

function deepElementFromPoint(x, y) {
  let hit = document.elementFromPoint(x, y);
  let sr;
  while (hit && (sr = shadowOf(hit))) {
    const inner = sr.elementFromPoint(x, y);
    if (!inner || inner === hit) { break; }
    hit = inner;
  }
  return hit;
}

// Is the element hidden under something else at its visible centre (a banner, a modal backdrop)?
// Returns null when it is reachable, else a short description of what covers it.
function coveredBy(el, clip) {
  const r = el.getBoundingClientRect();
  const box = intersect([r.left, r.top, r.right, r.bottom], clip);
  if (!nonEmpty(box)) { return null; }
  const x = (box[0] + box[2]) / 2;
  const y = (box[1] + box[3]) / 2;
  const hit = deepElementFromPoint(x, y);
  if (!hit || hit === el || composedContains(el, hit) || composedContains(hit, el)) { return null; }
  // Under its own label's decoration (a styled switch or checkbox draws its look over the real input).
  const label = hit.closest("label");
  if (label && (label.control === el || composedContains(label, el))) { return null; }
  if (labelsOf(el).includes(hit)) { return null; }
  if (widgetOnTop(el, hit)) { return null; }  // its own widget's shown value over a transparent control
  return describeLayer(hit);
}

// What a person would call the thing on top: the dialog it belongs to (or that a backdrop holds), else itself.
function describeLayer(hit) {
  const isDialog = (n) => n.localName === "dialog" || ["dialog", "alertdialog"].includes(n.getAttribute("role"));
  let layer = null;
  for (let n = hit; n && n.nodeType === 1; n = n.parentElement || (n.getRootNode() && n.getRootNode().host)) {
    if (isDialog(n)) { layer = n; break; }
  }
  if (!layer) { layer = hit.querySelector('dialog, [role="dialog"], [role="alertdialog"]') || hit; }
  const role = roleOf(layer);
  const name = nameOf(layer, role);
  return cut((role === "generic" ? layer.localName : role) + (name ? ' "' + cut(name, 40) + '"' : ""), 60);
}

function visibleEl(el) {
  if (!el.isConnected || !el.checkVisibility({ visibilityProperty: true })) { return false; }
  const r = el.getBoundingClientRect();
  // A control its widget draws beside a box of no size of its own (Element Plus's switch input) is seen there.
  return (r.width >= 1 && r.height >= 1) || seenThrough(el);
}

function deepAll(selector) {
  const out = Array.from(document.querySelectorAll(selector));
  for (const r of boState().roots) { if (r.host && r.host.isConnected) { out.push(...r.querySelectorAll(selector)); } }
  return out;
}

// A text field that turned the browser's own suggestions off or says it autocompletes: a script suggests.
function isSuggestingField(el) {
  if (el.localName !== "input" && el.localName !== "textarea") { return false; }
  return el.getAttribute("autocomplete") === "off" || el.hasAttribute("aria-autocomplete") ||
    el.getAttribute("role") === "combobox";
}

// Suggestions of an autocomplete field that marks up neither the field nor its list with ARIA (jQuery UI's
// autocomplete renders a bare <ul> of <li>): the items of a visible list that floats (absolute or fixed
// position, as every suggestion popup does) and is not part of the field's own surroundings.
function suggestionItems(el) {
  return isSuggestingField(el) ? floatingItemsBeside(el) : [];
}

// The entries of a bare menu the last click opened (a post's "more" icon showing a floating <ul> of <li> whose
// clicks a script handles, no ARIA): the items with text, and nothing else to click inside (a menu of links or
// buttons is listed by them), of a floating list right against the element clicked.
function openedMenuItems(clicked) {
  if (!clicked || !clicked.isConnected || clicked.nodeType !== 1 || !visibleEl(clicked)) { return []; }
  return floatingItemsBeside(clicked).filter((i) => !i.querySelector(CONTROL_SELECTOR));
}

// The items (text shown) of the visible lists floating (absolute or fixed position, as every popup does) right
// against `el`, below it or above when there is no room below, and overlapping it sideways; not its own list.
function floatingItemsBeside(el) {
  const floating = (n) => ["absolute", "fixed"].includes(getComputedStyle(n).position);
  const f = el.getBoundingClientRect();
  const near = (b) => b.left < f.right && b.right > f.left &&
    (Math.abs(b.top - f.bottom) <= 40 || Math.abs(f.top - b.bottom) <= 40);
  const lists = deepAll('ul, ol, [role="menu"]').filter((l) => visibleEl(l) && !composedContains(l, el) &&
    (floating(l) || (l.parentElement && floating(l.parentElement))) && near(l.getBoundingClientRect()));
  const items = [];
  for (const l of lists) {
    for (const li of Array.from(l.children)) {
      const item = li.querySelector('[role="menuitem"], [role="option"]') || li;
      if (visibleEl(item) && norm(item.textContent)) { items.push(item); }
    }
  }
  return items;
}
