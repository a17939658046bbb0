// Shared page-side helpers of browserops. scripts.py concatenates this file in front of each entry script and
// wraps both in one function, so every evaluate is self-contained: nothing of ours lives on the page between
// calls except the per-document state object below and the data-blind-id attributes.
const ID_ATTR = "data-blind-id";
const OVERLAY_TAG = "browserops-overlay";
// On <html> for an instant: the icon candidates a listing's walk hands to the page world's listener check
// (list.js args.iconMark; keylisteners.js markedClickListeners takes it off, and spells the name out itself).
const ICONS_ATTR = "data-blind-icons";
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
    case "a": case "area": {
      const href = el.getAttribute("href");
      // Select2 3's choice box is a script-only link beside the hidden input it fills: a combobox to a person.
      if (tag === "a" && (href === null || /^\s*javascript:/i.test(href)) && replacedNative(el)) { return "combobox"; }
      return href !== null ? "link" : "generic";
    }
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
    case "tr": return "row";  // HTML-AAM: a table row is a row (a row a person clicks to open a record, too)
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

// The <label>s of a control, as el.labels gives them. el.labels is computed by scanning the whole document on
// each call (quadratic over a form-heavy page: 7 s for 500 fields on a 5,000-field page), so one call of ours
// maps every label to its control once (label.control is an id lookup) and answers from that map.
let labelMap = null;  // per evaluate: lib.js is part of each script's own function scope
function labelsOf(el) {
  if (!("labels" in el)) { return []; }
  if (!labelMap) {
    labelMap = new Map();
    const add = (root) => {
      for (const l of root.querySelectorAll("label")) {
        const c = l.control;
        if (!c) { continue; }
        const have = labelMap.get(c);
        if (have) { have.push(l); } else { labelMap.set(c, [l]); }
      }
    };
    add(document);
    for (const r of boState().roots) { if (r.host && r.host.isConnected) { add(r); } }
  }
  return labelMap.get(el) || [];
}

function labelText(el) {
  const labels = labelsOf(el);
  if (!labels.length) { return ""; }
  const parts = [];
  for (const l of labels) { parts.push((l.contains(el) ? textExcluding(l, el) : visibleText(l)) || pictureName(l)); }
  return norm(parts.join(" "));
}

// The name of the picture an element shows instead of words (a magnifier icon with alt="Search" in a search box's
// <label>, an icon button): innerText leaves out an image's alt, the accessible name takes it in.
function pictureName(el) {
  const inner = el.querySelector("img[alt], [aria-label], svg title");
  return inner ? norm(inner.getAttribute("alt") || inner.getAttribute("aria-label") || inner.textContent) : "";
}

function contentName(el) {
  let t = visibleText(el);
  if (!t && el.getRootNode() instanceof ShadowRoot) { t = slottedText(el); }
  return t || pictureName(el);
}

// The label a person reads for a native control: its <label>s, or (a hidden <input>, which the HTML spec does
// not let a label name) the <label for> that points at its id.
function nativeLabel(el) {
  const n = labelText(el);
  if (n || !el.id) { return n; }
  const doc = el.ownerDocument;
  const l = Array.from(doc.querySelectorAll("label[for]")).find((x) => x.getAttribute("for") === el.id);
  return l ? visibleText(l) : "";
}

// A native control a widget library hid to put its own widget in its place (Select2 hides the <select> with
// aria-hidden and a 1px clip; Select2 3 keeps a hidden <input> for its AJAX choices): hidden from people, and
// labelled, which the page's other hidden inputs (tokens, ids) are not.
function hiddenForWidget(el) {
  return hiddenControl(el) && !!nativeLabel(el);
}

// A <select> or a text-like <input> hidden from people (type hidden, aria-hidden, a 1px box, a clip).
function hiddenControl(el) {
  if (el.localName !== "select" && el.localName !== "input") { return false; }
  const t = (el.getAttribute("type") || "").toLowerCase();
  if (el.localName === "input" && ["checkbox", "radio", "file", "button", "submit", "reset", "image"].includes(t)) {
    return false;
  }
  let hidden = t === "hidden" || el.getAttribute("aria-hidden") === "true";
  if (!hidden) {
    const r = el.getBoundingClientRect();
    const cs = getComputedStyle(el);
    hidden = (r.width <= 1 && r.height <= 1) || cs.display === "none" || cs.clip === "rect(0px, 0px, 0px, 0px)"
      || cs.clipPath === "inset(50%)";
  }
  return hidden;
}

// The hidden native control a combobox/listbox/textbox widget stands for: right before or after the widget's
// box, up to three levels out from the widget (Select2: select + span.select2 > span.selection > combobox).
// A native <select> replaces nothing. The wrapper test (several shown widgets) queries a whole box, so it runs
// only for the boxes below a hidden sibling actually found: on most elements none is, and a climb to <main>
// per <select> made naming a form-heavy page quadratic (1.8 s of a 5,000-item listing).
function replacedNative(el) {
  if (el.localName === "select") { return null; }
  const boxes = [];
  let n = el;
  for (let hops = 0; hops < 4 && n && n.parentElement; hops += 1) {
    for (const sib of [n.previousElementSibling, n.nextElementSibling]) {
      if (sib && hiddenForWidget(sib)) { return boxes.some(severalWidgets) ? null : sib; }
    }
    boxes.push(n.parentElement);
    n = n.parentElement;
  }
  return null;
}

// A box holding several shown widgets is a form part, not one widget's wrapper (its hidden list is its own).
function severalWidgets(box) {
  let shown = 0;
  for (const x of box.querySelectorAll("[role='combobox'], [role='listbox']")) {
    if (x.checkVisibility() && ++shown > 1) { return true; }
  }
  return false;
}

// A rich-text editor (a nameless contenteditable box) keeps its value in a hidden field beside it, which the
// page's <label> names (the label a person reads above the editor): the nearest container holding the editor and
// exactly one such labelled hidden field, and no other editor.
function editorNative(el) {
  if (!el.isContentEditable) { return null; }
  let n = el.parentElement;
  for (let hops = 0; hops < 8 && n && n.localName !== "form" && n !== el.ownerDocument.body; hops += 1) {
    const editors = Array.from(n.querySelectorAll("[contenteditable]"))
      .filter((x) => x.isContentEditable && !(x.parentElement && x.parentElement.isContentEditable));
    if (editors.length > 1) { return null; }
    const kept = Array.from(n.querySelectorAll("input")).filter(hiddenForWidget);
    if (kept.length > 1) { return null; }
    if (kept.length === 1) { return kept[0]; }
    n = n.parentElement;
  }
  return null;
}

// Accessible name, close enough to the spec for labels people see: labelledby, aria-label, <label>, alt,
// button values, content, then title and placeholder.
function nameOf(el, role) {
  if (role === "combobox" || role === "listbox") {
    // A widget standing for a hidden native control is named by that control's label (Select2 names its
    // combobox by the text of the current choice, which is its value, not its name).
    const native = replacedNative(el);
    if (native) { return nativeLabel(native); }
  }
  const own = nameOwn(el, role);
  if (!own && role === "textbox" && el.localName !== "input" && el.localName !== "textarea") {
    const kept = editorNative(el);
    return kept ? nativeLabel(kept) : own;
  }
  if (own || (role !== "textbox" && role !== "searchbox") || el.localName !== "input") { return own; }
  // A tag input's nameless text box (tag-it) is named by the field it fills.
  const native = replacedNative(el);
  return native ? nativeLabel(native) : own;
}

function nameOwn(el, role) {
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

// The focused element, through open shadow roots and the closed ones this (isolated) world was handed.
function deepActiveElement(doc) {
  let a = (doc || document).activeElement;
  let sr;
  while (a && (sr = shadowOf(a)) && sr.activeElement) { a = sr.activeElement; }
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
  if (ariaBool(el, "aria-selected") === true || (tag === "option" && el.selected)) { st.selected = true; }
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
    // A field that takes several: each pick whole (the diff and the staleness check compare them as a set).
    if (el.multiple && picked.length) { st.values = picked.slice(0, 50).map((p) => cut(p, 100)); }
  } else if (el.isContentEditable) {
    const t = visibleText(el);
    if (t) { st.value = cut(t, 60); }
  } else if (role === "combobox" || role === "slider" || role === "spinbutton") {
    const v = el.getAttribute("aria-valuetext") || el.getAttribute("aria-valuenow");
    if (v) { st.value = cut(v, 60); }
    else if (role === "combobox") {
      // A custom select that shows its choice as its own text (Material UI's Select, Select2's selection):
      // that text is its value, so the diff can say what it was and the staleness check covers it. Standing
      // for an empty hidden control, what it shows is a placeholder ("Please select model").
      const native = replacedNative(el);
      const empty = native && (native.localName === "select"
        ? !Array.from(native.selectedOptions || []).some((o) => o.value) : !native.value);
      const t = empty ? "" : shownChoice(el);
      if (t) { st.value = cut(t, 60); }
    }
  }
  if (el.required || el.getAttribute("aria-required") === "true") { st.required = true; }
  if (el.getAttribute("aria-invalid") === "true") { st.invalid = true; }
  if ((tag === "input" || tag === "textarea") && el.readOnly) { st.readonly = true; }
  if (deepActiveElement() === el) { st.focused = true; }
  if (role === "heading") { st.level = headingLevel(el); }
  return st;
}

// What a non-input combobox shows as its current choice: its visible text, without a placeholder the page marks
// as one, without the text of a label it contains. "" when it shows nothing but a placeholder.
function shownChoice(el) {
  if (el.localName === "input" || el.localName === "textarea" || el.localName === "select") { return ""; }
  if (el.querySelector("input, textarea, select")) { return ""; }  // a wrapper: its field tells
  // MUI's empty Select shows a zero-width space; a clear or open control inside shows a bare symbol ("×", "▾"),
  // which is no part of the choice.
  const words = norm(visibleText(el).replace(/[\u200b\ufeff]/g, "")).split(" ");
  const bare = (w) => /^[\p{S}\p{P}]+$/u.test(w);
  while (words.length > 1 && bare(words[0])) { words.shift(); }
  while (words.length > 1 && bare(words[words.length - 1])) { words.pop(); }
  const t = words.join(" ");
  if (!t) { return ""; }
  const ph = el.querySelector("[class*='placeholder' i]");
  if (ph && norm(ph.textContent) === t) { return ""; }
  return t.length <= 200 ? t : "";
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

// Icon-only controls: an image or a CSS/SVG icon with a click listener and nothing else to go by.
const ICON_TAGS = new Set(["img", "svg", "i", "span", "div", "em", "b", "figure", "picture"]);
function iconLeaf(el) {
  const first = el.firstElementChild;
  if (first && (first !== el.lastElementChild || (first.localName !== "svg" && first.localName !== "img"))) {
    return false;
  }
  for (let c = el.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === 3 && c.nodeValue.trim()) { return false; }  // has text: not icon-only
  }
  return true;
}

// Words that say nothing of what a control is, in any library: icon-font and sprite prefixes, "button" and
// "icon" themselves, size steps, the variant names most libraries share (btn-primary, ui-state-default,
// el-button--default, ui-button-icon-only) and the states CSS and scripts toggle. A library's own namespace and
// styling words ("ui-corner-all", "ql-", "noUi-") are not listed: how many elements carry them tells them
// (see rareClassWords).
const GENERIC_CLASS_WORDS = new Set(["icon", "icons", "ico", "fa", "fas", "far", "fal", "fab", "fa-solid",
  "fa-regular", "btn", "button", "svg", "glyph", "glyphicon", "material", "symbols", "outlined", "round",
  "rounded", "sharp", "js", "is", "has", "sm", "md", "lg", "xl", "xs", "small", "large", "img", "image",
  "default", "primary", "secondary", "only", "active", "hover", "focus", "disabled", "clickable", "pointer",
  "wrapper", "container", "inner"]);

// Words out of an identifier or a file name: "icon-more_horiz" -> "more horiz", "ReplyArrow.svg" -> "reply arrow".
function identWords(s) {
  const words = String(s || "").replace(/\.(svg|png|gif|jpe?g|webp|ico)(\?.*)?$/i, "")
    .replace(/([a-z])([A-Z])/g, "$1 $2").split(/[^A-Za-z\u00C0-\uFFFF]+/);
  return words.map((w) => w.toLowerCase()).filter((w) => w.length > 1 && !GENERIC_CLASS_WORDS.has(w));
}

const CONTROL_SELECTOR = "a[href], button, input, select, textarea, [tabindex], [role], [contenteditable]";

// The words of a <label> that labels nothing, read beside a nameless field: a row a page clones from a template
// renames its fields' ids but keeps the template labels' `for`, which then names no element, so the field has no
// accessible name while a person reads its label right above it. Taken only when the label and the field are alone
// together in their group (the nearest ancestor holding a label): no other field there the words could be for.
function orphanLabelText(el) {
  const tag = el.localName;
  if (tag !== "input" && tag !== "select" && tag !== "textarea") { return ""; }
  let up = el.parentElement;
  for (let depth = 0; up && depth < 3; depth++, up = up.parentElement) {
    const labels = up.querySelectorAll("label");
    if (!labels.length) { continue; }
    const fields = up.querySelectorAll("input:not([type=hidden]), select, textarea");
    if (labels.length !== 1 || fields.length !== 1 || labels[0].control) { return ""; }
    return visibleText(labels[0]);
  }
  return "";
}

// A name for a nameless control, guessed from what the page author left: title, alt, aria-*, data-* hints,
// an icon's file name (img src, svg <use href>), its labelled parent, a CSS background image, then class
// words. "" if nothing.
function guessName(el) {
  const beside = orphanLabelText(el);
  if (beside) { return beside; }
  const attrs = ["title", "alt", "aria-label", "aria-description", "data-tooltip", "data-title",
    "data-original-title", "data-label", "data-action", "data-testid", "name"];
  const nodes = [el];
  for (const c of el.querySelectorAll("img, svg, use, i, span")) { nodes.push(c); if (nodes.length > 4) { break; } }
  for (const n of nodes) {
    for (const a of attrs) {
      const v = norm(n.getAttribute(a));
      if (v) { return a.startsWith("data-") || a === "name" ? identWords(v).join(" ") || v : v; }
    }
  }
  for (const n of nodes) {
    const ref = n.localName === "img" ? n.getAttribute("src") : n.localName === "use" ?
      (n.getAttribute("href") || n.getAttribute("xlink:href")) : "";
    const file = ref ? ref.split(/[#/]/).pop() : "";
    const words = identWords(file);
    if (words.length) { return words.join(" "); }
  }
  // Its parent labelled by the page (aria-labelledby / aria-label on a widget's container, e.g. a slider
  // whose handle is a bare focusable span) and holding no other control: the label is the control's, with
  // what its class words say it is ("Volume (slider handle)").
  const up = el.parentElement;
  const upRole = up ? up.getAttribute("role") : null;
  if (up && (!upRole || upRole === "group") && (up.hasAttribute("aria-labelledby") || up.hasAttribute("aria-label"))) {
    const label = idrefText(up, "aria-labelledby") || norm(up.getAttribute("aria-label"));
    if (label && up.querySelectorAll(CONTROL_SELECTOR).length === 1) {
      const what = classWords(el);
      return what ? label + " (" + what + ")" : label;
    }
  }
  // Class words before a background image: a sprite sheet is shared by every icon of a library
  // (jQuery UI's "ui-icons_444444_256x240.png"), the class picks the picture ("ui-icon-trash").
  for (const n of nodes) {
    const words = classWords(n);
    if (words) { return words; }
  }
  const bg = getComputedStyle(el).backgroundImage;
  const m = bg && /url\(["']?([^"')]+)/.exec(bg);
  if (m) {
    const words = identWords(m[1].split(/[#/]/).pop());
    if (words.length) { return words.join(" "); }
  }
  return "";
}

// How many elements of `root` (a document or shadow root) carry `word` in a class name: a case-insensitive
// substring match, which can only over-count (a word then looks more common and is dropped). Counted once per
// word per listing: the counts are forgotten when the current script run ends.
let classWordCounts = null;
function classWordCount(root, word) {
  if (classWordCounts === null) {
    classWordCounts = new Map();
    queueMicrotask(() => { classWordCounts = null; });
  }
  let counts = classWordCounts.get(root);
  if (!counts) { counts = new Map(); classWordCounts.set(root, counts); }
  let n = counts.get(word);
  if (n === undefined) {  // identWords gives letters only: nothing to escape
    n = root.querySelectorAll('[class*="' + word + '" i]').length;
    counts.set(word, n);
  }
  return n;
}

// The words of an element's class names that tell it apart. A library's namespace ("ui-", "ql-", "noUi-",
// "glide__") and its styling words ("ui-corner-all", "ui-state-default") mark many elements of a page; the word
// naming what this element is marks few ("ui-slider-handle", "ui-icon-trash", "noUi-handle-lower"). Kept: the
// words carried by at most twice as many elements as the element's rarest word. Two-letter words ("ui", "tl",
// "br", "sm") are abbreviations a person would not read as a name.
function rareClassWords(el) {
  const cls = typeof el.className === "string" ? el.className : el.getAttribute("class");
  const words = Array.from(new Set(identWords(cls))).filter((w) => w.length > 2);
  if (!words.length) { return []; }
  const root = el.getRootNode();
  const counts = words.map((w) => classWordCount(root, w));
  const least = Math.min(...counts);
  return words.filter((w, i) => counts[i] <= 2 * least);
}

// Up to four class words that tell the element apart ("" if none). Controls of one kind carry the same class
// ("ql-picker-label" on each of Quill's pickers) and are told apart by their parents' ("ql-color",
// "ql-background"): when no other element of its kind shares its parent, the parent's words come first.
function classWords(el) {
  const words = rareClassWords(el);
  const cls = el.getAttribute("class");
  const up = el.parentElement;
  if (words.length && cls && up && up.getAttribute("class")) {
    const kind = Array.from(el.getRootNode().querySelectorAll('[class="' + CSS.escape(cls) + '"]'));
    if (kind.length > 1 && !kind.some((o) => o !== el && o.parentElement === up)) {
      words.unshift(...rareClassWords(up).filter((w) => !words.includes(w)));
    }
  }
  return words.slice(0, 4).join(" ");
}

// Flags carried down the composed-tree walk.
const F_INTER = 1;   // inside an interactive element (its parts are not separate items)
const F_POINTER = 2; // inside an element with cursor:pointer
const F_SCOPE = 16;  // inside the requested scope
const F_CLEAR = 32;  // inside (or is) an element with opacity 0, html and body excepted (see shownInWalk)
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
  if ((flags & F_CLEAR) && !toggle) { return false; }
  return el.checkVisibility({ visibilityProperty: true });
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
    let f = flags;
    if (cs.opacity === "0" && el !== docEl && el !== body) { f |= F_CLEAR; }
    if (attrs && hiddenFromEveryone(el, cs, f)) { return; }
    if (kind || every) {
      const extra = onElement(el, cs, f, clip, kind);
      if (extra) { f |= extra; }
    }
    if (kind) { f |= F_INTER; }
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

// ---- Containers: what a person names to tell one of several same-named controls apart ----
// containerOf(el, namesakes) -> {role, name} | null: the container a person would say a control is "in" (the
// row of "Printer toner", the post by @cierra, the "Widget Pro" card). Looked for among el's ancestors that
// hold none of its namesakes (the other controls of the same role and name; none given: every ancestor up to
// CONTAINER_HOPS), nearest first: a table row (its row header, else its first cells but the control's own), a
// list item / article / form group / dialog / region / landmark by its name or heading, else a card (a box
// holding exactly one heading), else the nearest box with text of its own beside the control. The name is
// the text a person reads there, cut to CONTAINER_CHARS; null when no ancestor tells el apart.
const CONTAINER_HOPS = 10;
const CARD_HOPS = 5;  // a card's heading is a few levels above its buttons; no scan of whole page sections
const TEXT_HOPS = 3;  // a box's own words (a chip's label) sit right around the control
const CONTAINER_CHARS = 60;
const CONTEXT_ROLES = new Set(["row", "listitem", "article", "group", "dialog", "alertdialog", "region", "form",
  "tabpanel", "navigation", "complementary", "search", "treeitem", "banner", "contentinfo"]);
const HEADINGS = 'h1, h2, h3, h4, h5, h6, [role="heading"]';
const CELLS = 'th, td, [role="cell"], [role="gridcell"], [role="rowheader"], [role="columnheader"]';

function composedParent(n) {
  return n.parentElement || (n.parentNode && n.parentNode.host) || null;
}

// Ancestors of el, nearest first, up to CONTAINER_HOPS and never <body>/<html>.
function ancestorsOf(el) {
  const out = [];
  for (let n = composedParent(el); n && out.length < CONTAINER_HOPS; n = composedParent(n)) {
    if (n === document.body || n === document.documentElement) { break; }
    out.push(n);
  }
  return out;
}

// How many of `members` (the elements of one group of namesakes) each ancestor holds.
function ancestorCounts(members) {
  const counts = new Map();
  for (const el of members) {
    for (const a of ancestorsOf(el)) { counts.set(a, (counts.get(a) || 0) + 1); }
  }
  return counts;
}

function containerOf(el, counts) {
  const chain = [];
  for (const a of ancestorsOf(el)) {
    if (counts && (counts.get(a) || 0) > 1) { break; }  // holds a namesake too: it tells nothing apart
    chain.push(a);
  }
  let card = null;
  let texty = null;
  for (let hop = 0; hop < chain.length; hop++) {
    const a = chain[hop];
    const role = roleOf(a);
    if (role === "row" || a.localName === "tr") {
      const name = rowName(a, el);
      if (name) { return { role: "row", name }; }
      continue;
    }
    if (CONTEXT_ROLES.has(role) || a.localName === "fieldset") {
      const name = contextName(a, role, el);
      if (name) { return { role, name }; }
      continue;
    }
    if (!card && hop < CARD_HOPS) {
      const heading = soleHeading(a, el);
      if (heading) { card = { role, name: heading }; continue; }
    }
    if (!texty && !card && hop < TEXT_HOPS) {
      const text = leadText(a, el, CONTAINER_CHARS, true);
      if (text) { texty = { role, name: text }; }
    }
  }
  return card || texty;
}

// A row: its row header, else its first cells (not the control's own) until the name says something.
function rowName(row, el) {
  const cells = Array.from(row.querySelectorAll(CELLS)).filter((c) => c.closest('tr, [role="row"]') === row);
  const header = cells.find((c) => (c.localName === "th" && c.getAttribute("scope") === "row") ||
    c.getAttribute("role") === "rowheader");
  if (header && !composedContains(header, el)) { return leadText(header, el, CONTAINER_CHARS); }
  let name = "";
  for (const c of cells) {
    if (composedContains(c, el)) { continue; }
    const t = leadText(c, el, CONTAINER_CHARS);
    if (!t) { continue; }
    name = name ? name + " " + t : t;
    if (name.length >= 12) { break; }
  }
  return cut(name, CONTAINER_CHARS);
}

// A semantic container's name: its own (aria-labelledby, aria-label, legend, caption), else for a list item,
// article or dialog its first heading, else (list items and articles) the text it starts with.
function contextName(a, role, el) {
  let name = nameOf(a, role === "listitem" || role === "row" ? "generic" : role);
  if (name) { return cut(name, CONTAINER_CHARS); }
  if (role === "listitem" || role === "article" || role === "dialog" || role === "alertdialog" ||
      role === "tabpanel" || role === "treeitem") {
    const h = boxHeadings(a)[0];
    if (h && !composedContains(h, el)) { name = leadText(h, el, CONTAINER_CHARS); }
    if (!name && (role === "listitem" || role === "article" || role === "treeitem")) {
      name = leadText(a, el, CONTAINER_CHARS);
    }
  }
  return name;
}

// The text of a box's one heading (a product card, a post), or "" when it has none or several.
function soleHeading(a, el) {
  const hs = boxHeadings(a);
  if (hs.length !== 1 || composedContains(hs[0], el)) { return ""; }
  return leadText(hs[0], el, CONTAINER_CHARS);
}

// A box's first two headings, looked up once per call: every described item asks its nearest ancestors, which
// the items of one section share (a whole listing queried a page section per item and hop).
let headingsByBox = null;  // per evaluate, as labelMap
function boxHeadings(a) {
  if (!headingsByBox) { headingsByBox = new Map(); }
  let hs = headingsByBox.get(a);
  if (!hs) {
    hs = a.querySelector(HEADINGS) ? Array.from(a.querySelectorAll(HEADINGS)).slice(0, 2) : [];
    headingsByBox.set(a, hs);
  }
  return hs;
}

// The first line of text a person sees in `box` (up to `max` characters, and no further than the first block
// boundary once there is text: a list item's label, not its submenu), leaving out `skip`'s own subtree (the
// control itself), form fields, what is not rendered, and with `own` every control's text and all but the top
// two levels (the box's own words, not its neighbours' labels), looking at LEAD_NODES nodes at most (OWN_NODES
// with `own`): never a whole-subtree innerText of a long article, nor a walk through a menu of hundreds of
// links for words of its own it does not have.
const LEAD_NODES = 200;
const OWN_NODES = 24;
const BLOCK_TAGS = new Set(["div", "p", "li", "ul", "ol", "dl", "dd", "dt", "td", "th", "tr", "table", "br", "hr",
  "section", "article", "header", "footer", "nav", "aside", "form", "fieldset", "h1", "h2", "h3", "h4", "h5", "h6",
  "blockquote", "pre", "figure", "details"]);
function leadText(box, skip, max, own) {
  let out = "";
  let done = false;
  let budget = own ? OWN_NODES : LEAD_NODES;
  const walk = (node, depth) => {
    // Sibling by sibling (a slot: what is assigned to it): copying a big box's child list costs more than the
    // few nodes read.
    const assigned = node.localName === "slot" && node.assignedNodes ? node.assignedNodes({ flatten: true }) : [];
    let k = 0;
    for (let c = assigned.length ? assigned[0] : node.firstChild; c;
      c = assigned.length ? assigned[++k] : c.nextSibling) {
      if (done || out.length > max || --budget < 0) { done = true; return; }
      if (c === skip) { continue; }
      if (c.nodeType === 3) { out += c.nodeValue; continue; }
      if (c.nodeType !== 1 || SKIP_TAGS.has(c.localName) || FORM_TAGS.has(c.localName)) { continue; }
      const block = BLOCK_TAGS.has(c.localName);
      if (block && out.trim()) { done = true; return; }
      if (own && isMarkupControl(c)) { continue; }
      if (c.localName !== "slot" && !c.checkVisibility()) { continue; }
      if (c.localName === "img") { const alt = c.getAttribute("alt"); if (alt) { out += " " + alt + " "; } continue; }
      if (own && depth >= 2) { continue; }
      walk(c.shadowRoot || c, depth + 1);
      if (block) { out += " "; }
    }
  };
  walk(box, 0);
  return cut(out, max);
}

// ---- Changes: what counts as the page changing (browser/js/watch.js and the kept walk of list.js) ----
// With the old values: a page that writes an attribute or a text again with the value it already holds (Wagtail's
// editor re-sets a data attribute "false" on every input event and on a timer, a ticker re-writes the same time)
// has not changed, and must not keep a settle waiting or throw away a kept walk.
const OBSERVED = { subtree: true, childList: true, attributes: true, characterData: true, attributeOldValue: true,
  characterDataOldValue: true };

// A mutation of the page's own that changed something; our id stamps and badges never count.
function relevantMutation(m) {
  if (m.type === "attributes") {
    if (m.attributeName === ID_ATTR || m.attributeName === ICONS_ATTR) { return false; }
    // Compared with the value now: A -> B -> A in one batch still has the record whose old value is B.
    if (m.oldValue === m.target.getAttributeNS(m.attributeNamespace, m.attributeName)) { return false; }
  } else if (m.type === "characterData" && m.oldValue === m.target.data) {
    return false;
  }
  for (let n = m.target; n; n = n.parentNode || n.host) {
    if (n.localName === OVERLAY_TAG) { return false; }
  }
  if (m.type === "childList") {
    const ours = (n) => n.nodeType === 1 && n.localName === OVERLAY_TAG;
    if ((m.addedNodes.length || m.removedNodes.length) && Array.from(m.addedNodes).every(ours) &&
        Array.from(m.removedNodes).every(ours)) { return false; }
  }
  return true;
}
