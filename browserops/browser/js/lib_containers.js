// ---- Containers: what a person names to tell one of several same-named controls apart ----
// containerOf(el, namesakes) -> {role, name} | null: the container a person would say a control is "in" (the
// row of "Printer toner", the post by @cierra, the "Widget Pro" card). Looked for among el's ancestors that
// hold none of its namesakes (the other controls of the same role and name; none given: every ancestor up to
// CONTAINER_HOPS), nearest first: a table row (its row header, else its first cells but the control's own), a
// list item / article / form group / dialog / region / landmark by its name or heading, else a card (a box
// holding exactly one heading), else the nearest box with text of its own beside the control. The name is
// the text a person reads there, cut to CONTAINER_CHARS; null when no ancestor tells el apart. `lines` (default 1):
// how many lines of a box's text its name may take (2 when every twin's box starts with the same line: one author's
// posts, told apart by what each says).
const CONTAINER_HOPS = 10;
const CARD_HOPS = 5;  // a card's heading is a few levels above its buttons; no scan of whole page sections
const TEXT_HOPS = 3;  // a box's own words (a chip's label) sit right around the control
const CONTAINER_CHARS = 60;
const CONTEXT_ROLES = new Set(["row", "listitem", "article", "group", "dialog", "alertdialog", "region", "form",
  "tabpanel", "navigation", "complementary", "search", "treeitem", "banner", "contentinfo", "tooltip"]);
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

function containerOf(el, counts, lines = 1) {
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
      const name = contextName(a, role, el, lines);
      if (name) { return { role, name }; }
      continue;
    }
    if (!card && hop < CARD_HOPS) {
      const heading = soleHeading(a, el);
      if (heading) { card = { role, name: heading }; continue; }
    }
    if (!texty && !card && hop < TEXT_HOPS) {
      const text = leadText(a, el, CONTAINER_CHARS, true, lines);
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
// article, dialog or popup bubble its first heading, else (list items, articles, a popup bubble: a confirm popover
// with role tooltip, whose name from content would run on into its buttons) the text it starts with.
function contextName(a, role, el, lines) {
  let name = nameOf(a, role === "listitem" || role === "row" || role === "tooltip" ? "generic" : role);
  if (name) { return cut(name, CONTAINER_CHARS); }
  if (role === "listitem" || role === "article" || role === "dialog" || role === "alertdialog" ||
      role === "tabpanel" || role === "treeitem" || role === "tooltip") {
    const h = boxHeadings(a)[0];
    if (h && !composedContains(h, el)) { name = leadText(h, el, CONTAINER_CHARS); }
    if (!name && (role === "listitem" || role === "article" || role === "treeitem" || role === "tooltip")) {
      name = leadText(a, el, CONTAINER_CHARS, false, lines);
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
// boundary once there is text: a list item's label, not its submenu; `lines` > 1: as many), leaving out `skip`'s own subtree (the
// control itself), form fields, what is not rendered, and with `own` every control's text and all but the top
// two levels (the box's own words, not its neighbours' labels), looking at LEAD_NODES nodes at most (OWN_NODES
// with `own`): never a whole-subtree innerText of a long article, nor a walk through a menu of hundreds of
// links for words of its own it does not have.
const LEAD_NODES = 200;
const OWN_NODES = 24;
const BLOCK_TAGS = new Set(["div", "p", "li", "ul", "ol", "dl", "dd", "dt", "td", "th", "tr", "table", "br", "hr",
  "section", "article", "header", "footer", "nav", "aside", "form", "fieldset", "h1", "h2", "h3", "h4", "h5", "h6",
  "blockquote", "pre", "figure", "details"]);
function leadText(box, skip, max, own, lines = 1) {
  let out = "";
  let done = false;
  let crossed = 0;
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
      if (block && out.trim() && ++crossed >= lines) { done = true; return; }
      if (block) { out += " "; }
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
