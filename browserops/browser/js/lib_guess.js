// Names for controls the page gave none: icon words, class words, a label beside it (guessName). Part of the
// shared helpers (lib_base.js).

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
// "ql-background"): when no other element of its kind shares its parent, and the parents of its kind are not all
// of one class (every post's "controls" bar tells its "reply" icon from no other), the parent's words come first.
function classWords(el) {
  const words = rareClassWords(el);
  const cls = el.getAttribute("class");
  const up = el.parentElement;
  if (words.length && cls && up && up.getAttribute("class")) {
    const kind = Array.from(el.getRootNode().querySelectorAll('[class="' + CSS.escape(cls) + '"]'));
    const upClass = up.getAttribute("class");
    if (kind.length > 1 && !kind.some((o) => o !== el && o.parentElement === up) &&
        kind.some((o) => o.parentElement && o.parentElement.getAttribute("class") !== upClass)) {
      words.unshift(...rareClassWords(up).filter((w) => !words.includes(w)));
    }
  }
  return words.slice(0, 4).join(" ");
}
