// Roles and accessible names, as the accessibility tree computes them (close enough for a listing): roleOf,
// nameOf and what they read (labels, content, pictures, hidden widget parts). Part of the shared helpers (lib_base.js).

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
let labelMap = null;  // per evaluate: the helpers are part of each script's own function scope
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

// The hidden control right before or after a combobox's box, up to three levels out, labelled or not: a widget
// that took over its field's label (Tom Select points the <label> at its own text box) leaves the field unlabelled.
function hiddenBeside(el) {
  let n = el;
  for (let hops = 0; hops < 3 && n && n.parentElement; hops += 1) {
    for (const sib of [n.previousElementSibling, n.nextElementSibling]) {
      // The box climbed must be this widget's alone (its open list is part of it; a second combobox is not).
      if (sib && hiddenControl(sib)) { return otherCombobox(n, el) ? null : sib; }
    }
    n = n.parentElement;
  }
  return null;
}

function otherCombobox(box, el) {
  for (const x of box.querySelectorAll("[role='combobox']")) {
    if (x !== el && x.checkVisibility()) { return true; }
  }
  return false;
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
  if (own) { return own; }
  if (role === "textbox" && el.localName !== "input" && el.localName !== "textarea") {
    const kept = editorNative(el);
    if (kept) { return nativeLabel(kept); }
  } else if ((role === "textbox" || role === "searchbox") && el.localName === "input") {
    // A tag input's nameless text box (tag-it) is named by the field it fills.
    const native = replacedNative(el);
    if (native) { return nativeLabel(native); }
  }
  if (role === "textbox" || role === "searchbox") {
    // The text box of a combobox (the ARIA 1.0 pattern: a search box or a read-only shown choice inside the
    // combobox, as Select2 draws them) types or shows what that combobox holds: its name is the combobox's, not
    // words from its class names nobody sees ("single rendered", "search").
    const box = el.parentElement && el.parentElement.closest("[role=combobox]");
    if (box) { return nameOf(box, "combobox"); }
  }
  // A field in a table cell with no label of its own: named by its column's header, as a screen reader announces
  // it (an inline formset's "Описание", an order line's "数量"), never by a guess from its markup.
  return CELL_FIELD_ROLES.has(role) ? columnHeader(el) : "";
}

// The fields a column header names when nothing else does (not buttons and links: their content names them).
const CELL_FIELD_ROLES = new Set(["textbox", "searchbox", "spinbutton", "combobox", "listbox", "checkbox", "radio",
  "switch", "slider"]);
const CELL_SELECTOR = "td, th, [role=cell], [role=gridcell]";
const TABLE_SELECTOR = "table, [role=table], [role=grid], [role=treegrid]";

// The header of the table column a field's cell is in ("" when none), as screen readers find it: the cell's
// `headers`, else the header cell covering its column (colspans counted) in the table's header row — its <thead>'s
// last row, else the last row of header cells only above it — or, where a widget draws its header as a table of its
// own just above the body's (a fixed-header grid), in that table's. The header is read even when a narrow layout
// hides it: it is still what the column means (such layouts repeat it beside each cell).
/** @param {Element} el @returns {string} */
function columnHeader(el) {
  const cell = el.closest(CELL_SELECTOR);
  const row = cell && cell.parentElement;
  if (!cell || !row) { return ""; }
  const byId = idrefText(cell, "headers");
  if (byId) { return cut(byId, 60); }
  let at = 0;
  for (const c of row.children) {
    if (c === cell) { break; }
    at += Number(c.getAttribute("colspan")) || 1;
  }
  const table = row.closest(TABLE_SELECTOR);
  if (!table) { return ""; }
  const tables = [table];
  let box = table.parentElement;
  // Element Plus 2 wraps its body table in five boxes (scroll view, wrap, scrollbar, body wrapper) below the one
  // holding its header table; an unrelated table further up is told apart by its columns (see below).
  for (let hops = 0; hops < 6 && box && tables.length < 2; hops += 1, box = box.parentElement) {
    const before = Array.from(box.querySelectorAll("table")).filter((t) => t !== table && !t.contains(table) &&
      !table.contains(t) && (t.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING));
    if (before.length) { tables.push(before[before.length - 1]); }
  }
  for (const t of tables) {
    const head = headerRow(t, row);
    if (!head || (t !== table && !sameColumns(head, row))) { continue; }
    let col = 0;
    for (const h of head.children) {
      const span = Number(h.getAttribute("colspan")) || 1;
      if (at >= col && at < col + span) { return cut(visibleText(h) || norm(h.textContent), 60); }
      col += span;
    }
  }
  return "";
}

// Whether a header row of a table of its own heads `row`'s columns: as many columns, or more by empty header cells
// at its end only (a scrollbar's gutter).
/** @param {Element} head @param {Element} row @returns {boolean} */
function sameColumns(head, row) {
  const span = (c) => Number(c.getAttribute("colspan")) || 1;
  const cols = (cells) => cells.reduce((n, c) => n + span(c), 0);
  const heads = Array.from(head.children);
  const cells = cols(Array.from(row.children));
  let shown = heads.length;
  while (shown > 0 && !norm(heads[shown - 1].textContent)) { shown -= 1; }
  return cols(heads.slice(0, shown)) <= cells && cells <= cols(heads);
}

// A table's header row for `row` (null when none): its <thead>'s last row, else the last row above `row` (or, in a
// header table of its own, its last) made of header cells only. A data row whose first cell is a <th scope=row>
// (Django's change list) is no header row.
/** @param {Element} t @param {Element} row @returns {Element | null} */
function headerRow(t, row) {
  const thead = t.localName === "table" ? /** @type {HTMLTableElement} */ (t).tHead : null;
  if (thead && thead.rows.length && !thead.contains(row)) { return thead.rows[thead.rows.length - 1]; }
  let found = null;
  for (const r of t.querySelectorAll("tr, [role=row]")) {
    if (r === row || (t.contains(row) && (r.compareDocumentPosition(row) & Node.DOCUMENT_POSITION_PRECEDING))) {
      break;
    }
    if (r.closest(TABLE_SELECTOR) !== t || !r.children.length) { continue; }
    const allHeaders = Array.from(r.children).every((c) => c.localName === "th" ||
      c.getAttribute("role") === "columnheader");
    if (allHeaders) { found = r; }
  }
  return found;
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
  // A <button> is labelable: its <label for> names it before its content does (HTML-AAM), as a switch drawn by a
  // button (antd's) is named by its form label.
  if (tag === "button") { n = labelText(el); if (n) { return n; } }
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
