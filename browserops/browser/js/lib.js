// Shared page-side helpers of browserops. scripts.py concatenates this file in front of each entry script and
// wraps both in one function, so every evaluate is self-contained: nothing of ours lives on the page between
// calls except the per-document state object below and the data-blind-id attributes.
const ID_ATTR = "data-blind-id";
const OVERLAY_TAG = "browserops-overlay";
const STATE_KEY = Symbol.for("browserops.state");

function boState() {
  let s = window[STATE_KEY];
  if (!s) {
    s = { seq: 0, prefix: null, seen: null, roots: [], overlay: null };
    Object.defineProperty(window, STATE_KEY, { value: s, enumerable: false, configurable: true });
  }
  return s;
}

// Subtrees that never hold anything a person can act on (or that we render ourselves).
const SKIP_TAGS = new Set(["script", "style", "head", "template", "noscript", "meta", "link", "title", OVERLAY_TAG]);
// Elements whose children are not separate controls (options of a native select, svg shapes, media).
const LEAF_TAGS = new Set(["select", "svg", "iframe", "frame", "video", "audio", "canvas", "object", "embed",
  "textarea", "input", "img", "math"]);
const WIDGET_ROLES = new Set(["button", "link", "checkbox", "radio", "switch", "tab", "menuitem", "menuitemcheckbox",
  "menuitemradio", "option", "combobox", "textbox", "searchbox", "slider", "spinbutton", "treeitem", "scrollbar"]);
const NAME_FROM_CONTENT = new Set(["button", "link", "tab", "option", "menuitem", "menuitemcheckbox", "menuitemradio",
  "checkbox", "radio", "switch", "heading", "treeitem", "cell", "gridcell", "columnheader", "rowheader", "tooltip",
  "clickable", "row", "listitem", "legend", "caption", "status", "alert"]);
const CONTAINER_ROLES = new Set(["dialog", "alertdialog", "region", "form", "navigation", "main", "complementary",
  "search", "banner", "contentinfo", "group", "tabpanel", "listbox", "menu", "grid", "table", "tree", "list",
  "toolbar", "radiogroup", "article", "section", "fieldset"]);
const INPUT_ROLES = { button: "button", submit: "button", reset: "button", image: "button", file: "button",
  checkbox: "checkbox", radio: "radio", range: "slider", number: "spinbutton", search: "searchbox" };
const PLAIN_INPUT_TYPES = new Set(["text", "submit", "button", "reset", "checkbox", "radio", "search", "image"]);
const TEXT_INPUT_TYPES = new Set(["text", "search", "email", "tel", "url", "password", "number", "date", "time",
  "datetime-local", "month", "week"]);

function norm(s) { return String(s == null ? "" : s).replace(/\s+/g, " ").trim(); }
function fold(s) { return norm(s).normalize("NFKC").toLowerCase(); }
function cut(s, n) { s = norm(s); return s.length > n ? s.slice(0, n - 1) + "…" : s; }

function roleOf(el) {
  const explicit = (el.getAttribute("role") || "").trim().split(/\s+/)[0].toLowerCase();
  if (explicit && explicit !== "none" && explicit !== "presentation" && explicit !== "generic") { return explicit; }
  const tag = el.localName;
  switch (tag) {
    case "a": case "area": return el.hasAttribute("href") ? "link" : "generic";
    case "button": case "summary": return "button";
    case "input": {
      const t = (el.getAttribute("type") || "text").toLowerCase();
      if (INPUT_ROLES[t]) { return INPUT_ROLES[t]; }
      return el.hasAttribute("list") ? "combobox" : "textbox";
    }
    case "select": return (el.multiple || el.size > 1) ? "listbox" : "combobox";
    case "textarea": return "textbox";
    case "h1": case "h2": case "h3": case "h4": case "h5": case "h6": return "heading";
    case "img": return el.getAttribute("alt") === "" ? "presentation" : "img";
    case "nav": return "navigation";
    case "main": return "main";
    case "aside": return "complementary";
    case "header": return "banner";
    case "footer": return "contentinfo";
    case "form": return "form";
    case "section": return (el.hasAttribute("aria-label") || el.hasAttribute("aria-labelledby")) ? "region" : "section";
    case "dialog": return "dialog";
    case "ul": case "ol": return "list";
    case "li": return "listitem";
    case "table": return "table";
    case "fieldset": return "group";
    case "option": return "option";
    case "article": return "article";
    case "p": return "paragraph";
    case "video": return "video";
    case "audio": return "audio";
  }
  if (el.isContentEditable) { return "textbox"; }
  return "generic";
}

function headingLevel(el) {
  const m = /^h([1-6])$/.exec(el.localName);
  if (m) { return Number(m[1]); }
  const a = Number(el.getAttribute("aria-level"));
  return a > 0 ? a : 2;
}

// Text of a subtree as a person sees it; falls back to textContent for hidden label sources (as the spec says).
function visibleText(el) {
  const t = el.innerText;
  return norm(t === undefined || (t === "" && !el.isConnected) ? el.textContent : t);
}

// The child nodes a subtree shows in the flattened tree: a <slot> shows what is assigned to it (a web
// component's label is light-DOM text slotted into its shadow root), else its own fallback content.
function flatChildren(node) {
  if (node.localName === "slot" && node.assignedNodes) {
    const assigned = node.assignedNodes({ flatten: true });
    if (assigned.length) { return assigned; }
  }
  return Array.from(node.childNodes);
}

// A wrapping label's text without the control inside it (a select's options would otherwise leak in).
function textExcluding(label, control) {
  let out = "";
  const walk = (node) => {
    for (const c of flatChildren(node)) {
      if (c === control) { continue; }
      if (c.nodeType === 3) { out += c.nodeValue + " "; }
      else if (c.nodeType === 1 && !["select", "input", "textarea", "button", "script", "style"].includes(c.localName)) {
        walk(c);
      }
    }
  };
  walk(label);
  return norm(out);
}

// Text of a subtree inside a shadow root, slotted content included (innerText does not follow slots);
// elements that are not rendered are left out.
function slottedText(el) {
  let out = "";
  const walk = (node) => {
    for (const c of flatChildren(node)) {
      if (c.nodeType === 3) { out += c.nodeValue + " "; }
      else if (c.nodeType === 1 && !SKIP_TAGS.has(c.localName) && (c.localName === "slot" || c.checkVisibility())) {
        walk(c.shadowRoot || c);
      }
    }
  };
  walk(el);
  return norm(out);
}

function idrefText(el, attr) {
  const ids = (el.getAttribute(attr) || "").trim();
  if (!ids) { return ""; }
  const root = el.getRootNode();
  const parts = [];
  for (const id of ids.split(/\s+/)) {
    const t = (root.getElementById ? root.getElementById(id) : null) || document.getElementById(id);
    if (t) { parts.push(visibleText(t) || norm(t.textContent)); }
  }
  return norm(parts.join(" "));
}

function labelText(el) {
  const labels = el.labels;
  if (!labels || !labels.length) { return ""; }
  const parts = [];
  for (const l of labels) { parts.push(l.contains(el) ? textExcluding(l, el) : visibleText(l)); }
  return norm(parts.join(" "));
}

function contentName(el) {
  let t = visibleText(el);
  if (!t && el.getRootNode() instanceof ShadowRoot) { t = slottedText(el); }
  if (!t) {
    const inner = el.querySelector("img[alt], [aria-label], svg title");
    if (inner) { t = norm(inner.getAttribute("alt") || inner.getAttribute("aria-label") || inner.textContent); }
  }
  return t;
}

// Accessible name, close enough to the spec for labels people see: labelledby, aria-label, <label>, alt,
// button values, content, then title and placeholder.
function nameOf(el, role) {
  let n = idrefText(el, "aria-labelledby");
  if (n) { return n; }
  n = norm(el.getAttribute("aria-label"));
  if (n) { return n; }
  const tag = el.localName;
  if (tag === "input" || tag === "select" || tag === "textarea" || tag === "meter" || tag === "progress") {
    const t = (el.getAttribute("type") || "").toLowerCase();
    if (tag === "input" && (t === "button" || t === "submit" || t === "reset")) {
      return norm(el.value) || (t === "submit" ? "Submit" : t === "reset" ? "Reset" : "");
    }
    if (tag === "input" && t === "image") { return norm(el.getAttribute("alt") || el.getAttribute("title")) || "Submit"; }
    n = labelText(el);
    if (n) { return n; }
    return norm(el.getAttribute("title") || el.getAttribute("placeholder") || el.getAttribute("aria-placeholder"));
  }
  if (tag === "img" || tag === "area") { n = norm(el.getAttribute("alt")); if (n) { return n; } }
  if (tag === "fieldset") { const lg = el.querySelector(":scope > legend"); if (lg) { return visibleText(lg); } }
  if (tag === "table") { const cap = el.querySelector(":scope > caption"); if (cap) { return visibleText(cap); } }
  if (NAME_FROM_CONTENT.has(role)) {
    n = contentName(el);
    if (n) { return n; }
  }
  if (role === "combobox" || role === "listbox") {
    // A custom select built around the page's own <select> (Choices.js, Select2): that select, hidden
    // inside it, is what the page's <label> names.
    const own = el.querySelector("select");
    if (own) { n = labelText(own); if (n) { return n; } }
  }
  return norm(el.getAttribute("title") || el.getAttribute("aria-placeholder") || el.getAttribute("placeholder"));
}

function deepActiveElement(doc) {
  let a = (doc || document).activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) { a = a.shadowRoot.activeElement; }
  return a;
}

function ariaBool(el, attr) {
  const v = el.getAttribute(attr);
  if (v === "true") { return true; }
  if (v === "false") { return false; }
  if (v === "mixed") { return "mixed"; }
  return undefined;
}

// Value and states worth telling a person: only set keys, so the listing stays small.
function stateOf(el, role) {
  const st = {};
  const tag = el.localName;
  if (el.disabled || el.getAttribute("aria-disabled") === "true") { st.disabled = true; }
  if (tag === "input" && (el.type === "checkbox" || el.type === "radio")) {
    st.checked = el.indeterminate ? "mixed" : el.checked;
  } else {
    const c = ariaBool(el, "aria-checked");
    if (c !== undefined) { st.checked = c; }
    else if (role === "checkbox" || role === "switch" || role === "radio" || role === "menuitemcheckbox") { st.checked = false; }
  }
  if (ariaBool(el, "aria-selected") === true) { st.selected = true; }
  const ex = ariaBool(el, "aria-expanded");
  if (ex !== undefined) { st.expanded = ex; }
  else if (tag === "summary" && el.parentElement && el.parentElement.localName === "details") { st.expanded = el.parentElement.open; }
  const pr = ariaBool(el, "aria-pressed");
  if (pr !== undefined) { st.pressed = pr; }
  if (tag === "input") {
    const t = (el.type || "text").toLowerCase();
    if (t === "password") { if (el.value) { st.filled = true; } }
    else if (t === "file") { if (el.files && el.files.length) { st.files = el.files.length; } }
    else if (!["checkbox", "radio", "button", "submit", "reset", "image"].includes(t) && el.value) { st.value = cut(el.value, 60); }
  } else if (tag === "textarea") {
    if (el.value) { st.value = cut(el.value, 60); }
  } else if (tag === "select") {
    const picked = Array.from(el.selectedOptions || []).map((o) => norm(o.label || o.textContent));
    if (picked.length) { st.value = cut(picked.join(", "), 60); }
  } else if (el.isContentEditable) {
    const t = visibleText(el);
    if (t) { st.value = cut(t, 60); }
  } else if (role === "combobox" || role === "slider" || role === "spinbutton") {
    const v = el.getAttribute("aria-valuetext") || el.getAttribute("aria-valuenow");
    if (v) { st.value = cut(v, 60); }
  }
  if (el.required || el.getAttribute("aria-required") === "true") { st.required = true; }
  if (el.getAttribute("aria-invalid") === "true") { st.invalid = true; }
  if ((tag === "input" || tag === "textarea") && el.readOnly) { st.readonly = true; }
  if (deepActiveElement() === el) { st.focused = true; }
  if (role === "heading") { st.level = headingLevel(el); }
  return st;
}

// The input type when it tells the caller more than the role does (date, email, password, file, ...).
function typeOf(el) {
  if (el.localName !== "input") { return el.localName === "select" ? "select" : undefined; }
  const t = (el.getAttribute("type") || "text").toLowerCase();
  return PLAIN_INPUT_TYPES.has(t) ? undefined : t;
}

// 0: not interactive; 1: interactive by markup (tag, role, tabindex, contenteditable, onclick).
function markupInteractive(el, tag) {
  switch (tag) {
    case "a": case "area": if (el.hasAttribute("href")) { return 1; } break;
    case "button": case "select": case "textarea": return 1;
    case "input": return (el.getAttribute("type") || "").toLowerCase() === "hidden" ? 0 : 1;
    case "summary": return 1;
    case "video": case "audio": if (el.hasAttribute("controls")) { return 1; } break;
  }
  const role = el.getAttribute("role");
  if (role && WIDGET_ROLES.has(role.trim().split(/\s+/)[0].toLowerCase())) { return 1; }
  const ce = el.getAttribute("contenteditable");
  if (ce !== null && ce !== "false" && !(el.parentElement && el.parentElement.isContentEditable)) { return 1; }
  const ti = el.getAttribute("tabindex");
  if (ti !== null && Number(ti) >= 0) { return 1; }
  if (el.hasAttribute("onclick")) { return 1; }
  return 0;
}

// Flags carried down the composed-tree walk.
const F_INTER = 1;   // inside an interactive element (its parts are not separate items)
const F_POINTER = 2; // inside an element with cursor:pointer
const F_INERT = 8;   // inside [inert]
const F_SCOPE = 16;  // inside the requested scope
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

// One depth-first walk over the composed tree (open shadow roots and slots included), in document order,
// skipping display:none subtrees. It calls onElement(el, cs, flags, clip, kind) for every interactive
// element (kind 1: by markup, 2: cursor:pointer heuristic), or for every rendered element when `every`
// is true (kind 0 for the rest); clip is the local viewport clipped by scrolling/overflow ancestors.
// onElement may return extra flags for the subtree.
function walkComposed(onElement, every) {
  const st = boState();
  const roots = [];
  const vw = document.documentElement.clientWidth || window.innerWidth;
  const vh = window.innerHeight;
  const viewport = [0, 0, vw, vh];
  const docEl = document.documentElement;
  const body = document.body;
  // Hot loop (tens of thousands of elements on big pages): read only the style properties that can matter.
  const visit = (el, flags, clip) => {
    const tag = el.localName;
    if (SKIP_TAGS.has(tag)) { return; }
    const cs = getComputedStyle(el);
    const display = cs.display;
    if (display === "none") { return; }
    const attrs = el.hasAttributes();
    let kind = attrs || FORM_TAGS.has(tag) ? markupInteractive(el, tag) : 0;
    let pointer = false;
    if (!(flags & (F_INTER | F_POINTER))) {
      pointer = cs.cursor === "pointer";
      if (!kind && pointer && tag !== "label" && el !== docEl && el !== body && display !== "contents") { kind = 2; }
    }
    let f = flags;
    if (attrs && el.hasAttribute("inert")) { f |= F_INERT; }
    if (kind || every) {
      const extra = onElement(el, cs, f, clip, kind);
      if (extra) { f |= extra; }
    }
    if (kind) { f |= F_INTER; }
    if (pointer) { f |= F_POINTER; }
    if (LEAF_TAGS.has(tag) || !(el.firstElementChild || el.shadowRoot || tag === "slot")) { return; }
    if (cs.contentVisibility === "hidden") { return; }
    let childClip = clip;
    if (clip !== viewport && cs.position === "fixed") { childClip = viewport; }
    if (el !== docEl && el !== body && (cs.overflowX !== "visible" || cs.overflowY !== "visible")) {
      const r = el.getBoundingClientRect();
      childClip = intersect(childClip, [r.left, r.top, r.right, r.bottom]);
    }
    if (el.shadowRoot) {
      roots.push(el.shadowRoot);
      for (let c = el.shadowRoot.firstElementChild; c; c = c.nextElementSibling) { visit(c, f, childClip); }
      return;
    }
    if (tag === "slot" && el.assignedElements) {
      const assigned = el.assignedElements({ flatten: true });
      if (assigned.length) {
        for (const c of assigned) { visit(c, f, childClip); }
        return;
      }
    }
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) { visit(c, f, childClip); }
  };
  visit(docEl, 0, viewport);
  st.roots = roots;
  return { viewport };
}

// Find an element by blind id in the document and the open shadow roots we have seen (walk again if needed).
function byBlindId(id) {
  const sel = "[" + ID_ATTR + '="' + CSS.escape(id) + '"]';
  let el = document.querySelector(sel);
  if (el) { return el; }
  const st = boState();
  for (const r of st.roots) { if (r.host && r.host.isConnected) { el = r.querySelector(sel); if (el) { return el; } } }
  const stack = [document.documentElement];
  while (stack.length) {
    const n = stack.pop();
    if (n.shadowRoot) {
      el = n.shadowRoot.querySelector(sel);
      if (el) { return el; }
      stack.push(...n.shadowRoot.children);
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
  while (hit && hit.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
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
  if (el.labels && Array.from(el.labels).includes(hit)) { return null; }
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
  return r.width >= 1 && r.height >= 1;
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
  if (!isSuggestingField(el)) { return []; }
  const floating = (n) => ["absolute", "fixed"].includes(getComputedStyle(n).position);
  const f = el.getBoundingClientRect();
  // Right against the field (below it, or above when there is no room below) and overlapping it sideways.
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
