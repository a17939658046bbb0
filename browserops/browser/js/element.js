// Operations on one element, each a function called by name from browser/js/element.py (the typed Python
// side: keep the two in step). Element functions take (el, args); the element is found by its blind id in
// the same call (see scripts.run_on). Results are plain JSON.
//   describe       -> role, name, state, type, and what kind of control it is (for type/select decisions)
//   inspect        -> describe + what the element belongs to (autocomplete, described-by text, container text)
//   inspectFocused -> (page function) inspect of the focused element, or {focused: false}
//   isFocused      -> is it the focused element (through shadow roots)?
//   selectContent  -> select its whole content so the next keystrokes replace it
//   currentValue   -> what it holds now
//   heldValue      -> what it holds now and the language it is written in: {value, lang}
//   prepare        -> everything an action needs before acting, in one round trip
//   afterAction    -> what the element holds and how it reads now: {value, desc, lang}
//   fileInfo       -> a file input itself, a <label> whose control is one (often a hidden input behind a styled
//                     label), or something else that may open a file chooser when clicked
//   fileCount      -> how many files the file input (or the label's input) holds
//   popupOption    -> for a combobox/listbox: stamp and return the visible option best matching text
//   linkAddress    -> the address a link would open (the element or its enclosing <a>/<area>), or null
//   visibility     -> whether it is visible as Playwright's isVisible() reads it
//   activate       -> focus it and run its default action (el.click()), as a screen reader activates it
//   nativePick     -> the native <select>'s <option> best matching args.text: {index, label} or {options}
//   popupOpen      -> is the list a combobox opened still showing, is the focus on it or in that list, its value
//   isMultiple     -> is it a <select multiple>?
//   chooserOption  -> a two-list chooser's other list: its option best matching args.text, stamped
//   optionLabels   -> every option a <select> holds
//   selectedLabels -> a native <select>'s selected options (labels), or null for anything else
function controlKind(el, role) {
  const tag = el.localName;
  if (tag === "select") { return "native-select"; }
  if (tag === "input") {
    const t = (el.getAttribute("type") || "text").toLowerCase();
    if (t === "checkbox" || t === "radio") { return "checkable"; }
    if (t === "file") { return "file"; }
    if (["button", "submit", "reset", "image"].includes(t)) { return "button"; }
    if (["date", "time", "datetime-local", "month", "week", "color", "range"].includes(t)) { return "fill"; }
    return role === "combobox" ? "combobox-input" : "text";
  }
  if (tag === "textarea") { return "text"; }
  if (el.isContentEditable) { return "editable"; }
  if (role === "combobox") { return "combobox"; }
  if (role === "listbox") { return "listbox"; }
  if (role === "option") { return "option"; }
  if (role === "checkbox" || role === "switch" || role === "radio" || role === "menuitemcheckbox") { return "checkable"; }
  if (role === "textbox" || role === "searchbox") { return "text"; }
  if (el.getAttribute("aria-haspopup") === "listbox") { return "combobox"; }
  return "other";
}

function describe(el) {
  let role = roleOf(el);
  if (role === "generic") { role = "clickable"; }
  const out = { role, name: cut(nameOf(el, role), 80), kind: controlKind(el, role) };
  const st = stateOf(el, role);
  for (const k in st) { out.state = st; break; }
  const t = typeOf(el);
  if (t) { out.type = t; }
  const link = el.closest ? el.closest("a[target], area[target], form[target]") : null;
  const target = link ? (link.getAttribute("target") || "").toLowerCase() : "";
  if (target && !["_self", "_parent", "_top"].includes(target)) { out.opens_tab = true; }
  const holds = standsFor(el);
  if (holds) { out.stands_for = holds; }
  // No hidden field says what it holds: what it shows as chosen (its chips) does, as a person reads it.
  const chips = holds || role !== "combobox" ? null : chipsShown(el);
  if (chips) { out.chips = chips; }
  return out;
}

// What a widget standing for a hidden field (a tag input over a text field, a custom select over a <select>) holds
// there — what the form sends: a <select>'s chosen labels, a text field's value (and whether its items are the
// tags the widget shows, not ids the server gave them: asShown) — and the words describing either
// (a help text "A comma-separated list of tags"). The read-back of a step compares it with the plan
// (plan/interpret/read_back.py): the text box of a tag input shows the typing, not the tags it made.
function standsFor(el) {
  if (el.localName === "select") { return null; }
  const native = replacedNative(el) || (roleOf(el) === "combobox" ? hiddenBeside(el) : null);
  if (!native) { return null; }
  const described = cut([idrefText(el, "aria-describedby"), idrefText(native, "aria-describedby"),
    el.getAttribute("title") || "", native.getAttribute("title") || ""].filter(Boolean).join(" "), 200);
  const out = native.localName === "select"
    ? { values: Array.from(native.selectedOptions || []).filter((o) => o.value !== "")
      .slice(0, 50).map((o) => cut(norm(o.label || o.textContent), 100)) }
    : { text: cut(native.value || "", 1000), asShown: tagsKeptAsText(el, native) };
  if (described) { out.described = described; }
  return out;
}

function currentValue(el) {
  if (el.localName === "input" || el.localName === "textarea") { return el.value; }
  if (el.localName === "select") { return Array.from(el.selectedOptions).map((o) => norm(o.label || o.textContent)).join(", "); }
  if (el.isContentEditable) { return el.innerText.replace(/\n$/, ""); }
  return el.getAttribute("aria-valuetext") || el.getAttribute("aria-valuenow") || norm(el.textContent);
}

function selectContent(el) {
  if (el.localName === "input" || el.localName === "textarea") {
    try { el.select(); } catch (e) { el.setSelectionRange && el.setSelectionRange(0, el.value.length); }
  } else if (el.isContentEditable) {
    const sel = el.ownerDocument.getSelection();
    sel.removeAllRanges();
    const range = document.createRange();
    range.selectNodeContents(el);
    sel.addRange(range);
  }
  return { readonly: !!el.readOnly, disabled: !!el.disabled };
}

function isFocused(el) {
  const a = deepActiveElement();
  return a === el || !!(a && composedContains(el, a));
}

// As Playwright's locator.focus(): a contenteditable gets the focus only once the old focus is released.
function focusEl(el) {
  if (!isFocused(el) && el.isContentEditable) {
    const a = deepActiveElement();
    if (a && a.blur) { a.blur(); }
  }
  el.focus();
  return isFocused(el);
}

// Fully inside the viewport and every scrolling ancestor (composed tree)? Then scrolling would move nothing.
function fullyShown(el) {
  const r = el.getBoundingClientRect();
  const vw = document.documentElement.clientWidth || window.innerWidth;
  let box = [r.left, r.top, r.right, r.bottom];
  const inside = (b) => box[0] >= b[0] - 0.5 && box[1] >= b[1] - 0.5 && box[2] <= b[2] + 0.5 && box[3] <= b[3] + 0.5;
  if (!inside([0, 0, vw, window.innerHeight])) { return false; }
  for (let n = el.parentNode || el.host; n && n.nodeType !== 9; n = n.parentNode || n.host) {
    if (n.nodeType !== 1 || n === document.documentElement || n === document.body) { continue; }
    const cs = getComputedStyle(n);
    if (cs.overflowX === "visible" && cs.overflowY === "visible") { continue; }
    const c = n.getBoundingClientRect();
    if (!inside([c.left + n.clientLeft, c.top + n.clientTop, c.left + n.clientLeft + n.clientWidth,
      c.top + n.clientTop + n.clientHeight])) { return false; }
  }
  return true;
}

// A plain text field: an <input>/<textarea> that is no autocomplete widget and has no inline key handler on
// itself or an ancestor. Only such a field may get its text inserted at once (see actions.type_text); key
// listeners added with addEventListener are checked by the caller (they are invisible from here).
function plainField(el, desc) {
  if (desc.kind !== "text" || (el.localName !== "input" && el.localName !== "textarea")) { return false; }
  if (el.hasAttribute("list") || el.getAttribute("aria-autocomplete") || el.getAttribute("aria-haspopup")) {
    return false;
  }
  for (let n = el; n && n.nodeType === 1; n = n.parentElement || (n.getRootNode() && /** @type {ShadowRoot} */ (n.getRootNode()).host)) {
    if (n.onkeydown || n.onkeypress || n.onkeyup) { return false; }
  }
  return true;
}

const allows = (which, kind) => which === true || (Array.isArray(which) && which.includes(kind));

// One round trip before an action. args (each a bool or a list of the control kinds it applies to):
//  - kinds: act at all only on these kinds (else only the description comes back: nothing is touched);
//  - reach: scroll it into view unless fully shown (instantly: smooth scrolling would move it under the
//    hit test) and report what covers its centre (`cover`); a covered element is not focused;
//  - focus: focus it (`focused` says whether it took the focus); clear: then select its content
//    (`flags`: readonly/disabled as they are once focused) and tell whether it is a `plain` field;
//  - native: for a native <select>, the option best matching this text (`native`).
function prepare(el, args) {
  const desc = describe(el);
  const out = { desc };
  const kind = desc.kind;
  if (args.kinds && !args.kinds.includes(kind)) { return out; }
  if (typeof args.native === "string" && kind === "native-select") { out.native = nativeOption(el, args.native); }
  if (allows(args.reach, kind)) {
    out.visible = visibleEl(el);
    if (!out.visible) { return out; }
    let scrolled = false;
    if (args.scroll !== false && !fullyShown(el)) {
      el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
      scrolled = true;
    }
    const vw = document.documentElement.clientWidth || window.innerWidth;
    out.cover = coveredBy(el, [0, 0, vw, window.innerHeight]);
    if (out.cover && args.scroll !== false && !scrolled) {
      // Shown, but under a sticky footer or header (Wagtail's action bar): a person scrolls it to the middle.
      el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
      out.cover = coveredBy(el, [0, 0, vw, window.innerHeight]);
    }
    if (out.cover) { out.cover_layer = coverLayer(el); out.cover_still = coverStill(el); return out; }
    if (labelOnTop(el)) { out.label_on_top = true; } else { out.lands = landingPoint(el); }
    // A control of no size its widget draws (Element Plus's switch input): no point of it can be clicked, so it is
    // activated as a screen reader does (focus + its default action), which its widget follows.
    const r = el.getBoundingClientRect();
    if ((r.width < 1 || r.height < 1) && seenThrough(el)) { out.drawn_by_widget = true; }
  }
  if (allows(args.focus, kind)) {
    out.focused = focusEl(el);
    if (out.focused && allows(args.clear, kind)) {
      out.flags = selectContent(el);
      out.plain = plainField(el, desc);
    }
  }
  return out;
}

// Where a press at el's centre lands on el (or inside it: nothing else, not even a box around it, is hit there):
// that point, else null.
function landingPoint(el) {
  const r = el.getBoundingClientRect();
  if (r.width < 1 || r.height < 1) { return null; }
  const x = (r.left + r.right) / 2;
  const y = (r.top + r.bottom) / 2;
  const hit = deepElementFromPoint(x, y);
  return hit && (hit === el || composedContains(el, hit)) ? [x, y] : null;
}

// Whether the element's centre shows its own label's decoration (a styled switch or checkbox drawn over an
// invisible input): a click there is a person's click on it, though Playwright sees another element on top.
function labelOnTop(el) {
  const r = el.getBoundingClientRect();
  const hit = deepElementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  if (!hit || hit === el || composedContains(el, hit)) { return false; }
  const label = hit.closest("label");
  // Or a transparent control under its own widget's shown value (an antd select): the same, a person clicks that.
  return (!!label && (label.control === el || composedContains(label, el))) || widgetOnTop(el, hit);
}

// What lies on top of el: "dialog" (a dialog, or a backdrop holding one or spread over the page), "banner"
// (fixed or sticky: a cookie bar, a toast, a header) or "element" (an ordinary part of the page that overlaps
// it, e.g. a badge or a transparent layer). Only the last is activated under the cover (see activate).
function coverLayer(el) {
  const r = el.getBoundingClientRect();
  const hit = deepElementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  if (!hit) { return "element"; }
  const vw = document.documentElement.clientWidth || window.innerWidth;
  for (let n = hit; n && n.nodeType === 1; n = n.parentElement || (n.getRootNode() && /** @type {ShadowRoot} */ (n.getRootNode()).host)) {
    if (n.localName === "dialog" || ["dialog", "alertdialog"].includes(n.getAttribute("role")) ||
      n.getAttribute("aria-modal") === "true") { return "dialog"; }
    const cs = getComputedStyle(n);
    if (cs.position === "fixed" || cs.position === "sticky") {
      const b = n.getBoundingClientRect();
      return b.width >= vw * 0.9 && b.height >= window.innerHeight * 0.9 ? "dialog" : "banner";
    }
  }
  return "element";
}

// Where the thing on el's centre is and how opaque, while nothing on the page animates (CSS animations and
// transitions): the same string twice in a row means it is not moving away. null while something animates.
function coverStill(el) {
  if (document.getAnimations().some((a) => a.playState === "running")) { return null; }
  const r = el.getBoundingClientRect();
  const hit = deepElementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  if (!hit) { return null; }
  const b = hit.getBoundingClientRect();
  return [b.left, b.top, b.width, b.height, getComputedStyle(hit).opacity].map(String).join(",");
}

// A screen reader's "activate": focus the element, then run its default action (a click event dispatched
// on the element itself, not at a point of the screen, so whatever lies on top is not what gets it).
function activate(el) {
  if (el.focus) { el.focus({ preventScroll: true }); }
  el.click();
  return { focused: isFocused(el) };
}

function nativeOption(el, text) {
  const opts = Array.from(el.options);
  const best = bestOption(opts.filter((o) => !o.disabled), text, (o) => o.label || o.textContent,
    (o) => o.value, (o) => o.title || "");
  if (best) { return { index: best.index, label: norm(best.label || best.textContent), value: best.value }; }
  return { options: opts.slice(0, 25).map((o) => norm(o.label || o.textContent)) };
}

// The nearest container (crossing shadow roots upwards) that says what a control belongs to.
const CONTEXT_SELECTOR = "form, [role=form], dialog, [role=dialog], [role=alertdialog], fieldset, section, article, " +
  "[role=region], main, [role=main]";

function closestComposed(el, selector) {
  for (let n = el; n; n = n.parentElement || (n.getRootNode() && n.getRootNode().host)) {
    if (n.nodeType === 1 && n.matches(selector)) { return n; }
  }
  return null;
}

// For the policy gate: text around the element, capped. A form holding only the control itself says little
// ("Pay now"), so then the next container up (the article or section around it) is used as well.
function contextOf(el, max) {
  const out = {};
  const ac = el.getAttribute("autocomplete");
  if (ac) { out.autocomplete = cut(ac, 40); }
  const described = idrefText(el, "aria-describedby");
  if (described) { out.described_by = cut(described, 200); }
  const parts = [];
  let container = closestComposed(el, CONTEXT_SELECTOR);
  const own = norm(nameOf(el, roleOf(el)));
  for (let hops = 0; container && hops < 3; hops += 1) {
    const text = visibleText(container);
    parts.push(text);
    if (text.length - own.length >= 40) { break; }
    const up = container.parentElement || (container.getRootNode() && container.getRootNode().host);
    container = up ? closestComposed(up, CONTEXT_SELECTOR) : null;
  }
  if (!parts.length) {
    const up = el.parentElement;
    if (up) { parts.push(visibleText(up.parentElement || up)); }
  }
  const text = norm(parts.sort((a, b) => b.length - a.length)[0] || "");
  if (text) { out.text = text.length > max ? text.slice(0, max - 1) + "…" : text; }
  return out;
}

function inspect(el, args) {
  const out = describe(el);
  const ctx = contextOf(el, args.max || 600);
  for (const k in ctx) { out[k === "text" ? "context" : k] = ctx[k]; }
  return out;
}

function inspectFocused(args) {
  const a = deepActiveElement();
  if (!a || a === document.body || a === document.documentElement) { return { focused: false }; }
  return { ...inspect(a, args), focused: true };
}

// The language the element's text is written in (its nearest lang attribute, else the document's): a value it
// shows is read in it ("13,250" is a number in English, "899,00" in Russian).
function langOf(el) {
  const holder = el.closest ? el.closest("[lang]") : null;
  return (holder && holder.getAttribute("lang")) || document.documentElement.lang || "";
}

function heldValue(el) { return { value: currentValue(el), lang: langOf(el) }; }

function afterAction(el) { return { value: currentValue(el), desc: describe(el), lang: langOf(el) }; }

function fileInfo(el) {
  const info = (input) => ({ multiple: !!input.multiple, disabled: !!input.disabled, accept: input.accept || "" });
  if (el instanceof HTMLInputElement && el.type === "file") { return { kind: "input", ...info(el) }; }
  if (el instanceof HTMLLabelElement && el.control instanceof HTMLInputElement && el.control.type === "file") {
    return { kind: "label", ...info(el.control) };
  }
  return { kind: "other" };
}

function fileCount(el) {
  const input = el instanceof HTMLLabelElement ? el.control : el;
  return input && input.files ? input.files.length : null;
}

function linkAddress(el) {
  const link = el.closest ? el.closest("a[href], area[href]") : null;
  return link ? link.href : null;
}

// As Playwright's isVisible(): rendered (checkVisibility), visibility: visible, and a non-empty box.
function visibility(el) {
  if (!el.isConnected || !el.checkVisibility()) { return { visible: false }; }
  if (getComputedStyle(el).visibility !== "visible") { return { visible: false }; }
  const r = el.getBoundingClientRect();
  return { visible: r.width > 0 && r.height > 0 };
}

function nativePick(el, args) { return nativeOption(el, args.text); }

function isMultiple(el) { return !!el.multiple; }
