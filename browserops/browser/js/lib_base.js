// Shared page-side helpers of browserops, split by concern: this file (constants, the per-document state, text
// folding), then lib_names.js, lib_states.js, lib_guess.js, lib_walk.js, lib_containers.js and lib_changes.js
// (scripts.py LIB_PARTS, in that order). scripts.py concatenates them in front of each entry script and wraps all in
// one function, so every evaluate is self-contained: nothing of ours lives on the page between calls except the
// per-document state object below and the data-blind-id attributes. tsc --checkJs checks them together
// (tests/js/tsconfig.json, scripts/test.sh).
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

/** @param {unknown} s @returns {string} */
function norm(s) { return String(s == null ? "" : s).replace(/\s+/g, " ").trim(); }
// A space between two CJK characters is layout, not a word break ("确 定" is the button 确定): browserops/text.py.
const CJK = "\\u2e80-\\u2fdf\\u3040-\\u30ff\\u3100-\\u312f\\u31a0-\\u31ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff";
const CJK_GAP = new RegExp(`(?<=[${CJK}]) (?=[${CJK}])`, "g");
/** @param {unknown} s @returns {string} */
function fold(s) { return norm(norm(s).normalize("NFKC").toLowerCase()).replace(CJK_GAP, ""); }
/** @param {unknown} text @param {number} n @returns {string} */
function cut(text, n) { const s = norm(text); return s.length > n ? s.slice(0, n - 1) + "…" : s; }
