// element.js's second part (scripts.py SCRIPT_PARTS: concatenated after element.js): choosing — the options of a
// native <select>, a combobox's popup (its role=option elements, else what is shown), a two-list chooser.

// Best option for a wanted text: exact label, exact value, label prefix, label contains, title contains.
function bestOption(options, wanted, labelOf, valueOf, titleOf) {
  const q = fold(wanted);
  const scores = [(o) => fold(labelOf(o)) === q, (o) => fold(valueOf(o)) === q, (o) => fold(labelOf(o)).startsWith(q),
    (o) => fold(labelOf(o)).includes(q), (o) => fold(titleOf(o)).includes(q)];
  for (const test of scores) {
    const hit = options.find(test);
    if (hit) { return hit; }
  }
  return null;
}

function popupOptions(el) {
  // The listbox a combobox controls (aria-controls / aria-owns), the element itself, or any open listbox.
  const lists = [];
  const root = el.getRootNode();
  for (const attr of ["aria-controls", "aria-owns"]) {
    for (const id of (el.getAttribute(attr) || "").split(/\s+/).filter(Boolean)) {
      const t = (root.getElementById ? root.getElementById(id) : null) || document.getElementById(id);
      if (t) { lists.push(t); }
    }
  }
  if (roleOf(el) === "listbox") { lists.push(el); }
  if (!lists.some(visibleEl)) { lists.push(...deepAll('[role="listbox"]').filter(visibleEl)); }
  const options = [];
  for (const l of lists) {
    const own = l.getAttribute("role") === "option" ? [l] : Array.from(l.querySelectorAll('[role="option"]'));
    // A listbox in a shadow root whose options are slotted in from the light DOM (Shoelace's sl-select).
    for (const slot of l.querySelectorAll("slot")) {
      for (const a of slot.assignedElements({ flatten: true })) {
        own.push(...(a.getAttribute("role") === "option" ? [a] : a.querySelectorAll('[role="option"]')));
      }
    }
    for (const o of own) { if (visibleEl(o) && !options.includes(o)) { options.push(o); } }
  }
  if (!options.length) { options.push(...shownOptions(el)); }
  if (!options.length && (el.localName === "input" || el.localName === "textarea")) {
    options.push(...suggestionItems(el));
  }
  return options;
}

// The options of an opened popup as a person sees them, where its role=option elements are not what is shown (antd
// keeps them in a zero-size list of two or three for screen readers and draws the real list beside it): shown
// elements outside the control that mark a choice (aria-selected) or name one (title), in a popup layer (an
// ancestor placed absolute or fixed that does not hold the control).
function shownOptions(el) {
  const found = deepAll("[aria-selected], [title]").filter((o) => !composedContains(o, el) && !composedContains(el, o)
    && visibleEl(o) && !o.querySelector("[aria-selected], [title]") && inPopupLayer(o, el));
  const marked = found.filter((o) => o.hasAttribute("aria-selected"));
  return marked.length ? marked : found;
}

function inPopupLayer(o, el) {
  let n = o.parentElement;
  for (let hops = 0; hops < 8 && n && n !== document.body; hops += 1, n = n.parentElement) {
    const pos = getComputedStyle(n).position;
    if (pos === "absolute" || pos === "fixed") { return !composedContains(n, el); }
  }
  return false;
}

// args: {text, prefix, seq} (prefix/seq: the frame's blind-id counter, for the option we stamp)
function popupOption(el, args) {
  const st = boState();
  if (args.prefix && !st.prefix) { st.prefix = args.prefix; }
  if (args.seq > st.seq) { st.seq = args.seq; }
  // A combobox that says it is collapsed has no list open: options still seen are a closing list's (its fade-out
  // after an Escape), which a click would miss; the caller opens it again first.
  const collapsed = roleOf(el) === "combobox" && el.getAttribute("aria-expanded") === "false";
  const opts = collapsed ? [] : popupOptions(el);
  // No options yet: a widget whose options come only after typing (Select2 over AJAX) has opened nothing to
  // show but a search box it focused; the caller types there instead of waiting for a list to show.
  if (!opts.length) { return { open: false, typing: searchBoxFocused(el), focus: focusMark() }; }
  const usable = opts.filter((o) => o.getAttribute("aria-disabled") !== "true");
  const labelOf = (o) => nameOf(o, "option");
  const best = bestOption(usable, args.text, labelOf,
    (o) => o.getAttribute("data-value") || o.getAttribute("value") || "", (o) => o.getAttribute("title") || "");
  const options = opts.slice(0, 25).map((o) => cut(labelOf(o), 40));
  if (best) {
    const q = fold(args.text);
    const exact = fold(labelOf(best)) === q || fold(best.getAttribute("data-value") || best.getAttribute("value") || "") === q;
    // Not the text itself: only a part of several options' names. Picking one of them would be a guess.
    const alike = exact ? [] : usable.filter((o) => fold(labelOf(o)).includes(q));
    if (alike.length > 1) { return { open: true, ambiguous: alike.slice(0, 10).map((o) => cut(labelOf(o), 60)), options }; }
    const on = heldOption(el, best, labelOf(best));
    // Whether what the list shows is all about the text (a searching list has applied it; one still showing the
    // options from before the typing has not): the caller waits for that before clicking.
    const about = usable.every((o) => fold(labelOf(o)).includes(q));
    return { open: true, id: stamp(best), label: cut(labelOf(best), 80), seq: st.seq, ...(on ? { selected: true } : {}),
      ...(exact ? { exact: true } : {}), ...(about ? { about: true } : {}), shown: opts.length };
  }
  return { open: true, options };
}

// Whether the page shows the option as chosen already, so that a click would take it away (a multiple select
// toggles): checked (aria-checked, or a checked box inside it), or aria-selected where that means chosen — in a list
// that takes several, or where the widget shows the option among its chips or its shown value. In a single-choice
// list aria-selected alone is the highlight that follows typing (Tom Select marks the first match so).
function heldOption(el, option, label) {
  if (option.getAttribute("aria-checked") === "true") { return true; }
  const box = option.querySelector('input[type="checkbox"]');
  if (box && /** @type {HTMLInputElement} */ (box).checked) { return true; }
  if (option.getAttribute("aria-selected") !== "true") { return false; }
  const list = option.closest('[role="listbox"]');
  if (list && list.getAttribute("aria-multiselectable") === "true") { return true; }
  return shownAsChosen(el, label);
}

// Whether the widget around a combobox shows this label as one of its chips or as its value: a shown element of
// the widget's box (the box a seen-through control is drawn in, else the nearest ancestors holding no other field)
// whose whole text is the label. The text typed into the control to filter is its value, not a chip: not counted;
// nor is the open list or what holds it (a dropdown showing one option has that option's text as its own).
function shownAsChosen(el, label) {
  const q = fold(label);
  if (!q) { return false; }
  const box = widgetBox(el);
  return Array.from(box.querySelectorAll("*")).some((n) => n !== el && !composedContains(el, n) &&
    !n.closest('[role="listbox"], [role="option"]') && !n.querySelector('[role="listbox"], [role="option"]') &&
    fold(n.textContent || "") === q &&
    /** @type {HTMLElement} */ (n).checkVisibility({ visibilityProperty: true }));
}

// The box a combobox's widget draws itself in: the box a seen-through control is drawn in, else the control, widened
// to its nearest ancestors (up to three) that hold no other field.
function widgetBox(el) {
  let box = seenBox(el) || el;
  for (let hops = 0; hops < 3 && box.parentElement && box.parentElement !== document.body; hops += 1) {
    const up = box.parentElement;
    const fields = up.querySelectorAll('input:not([type="hidden"]), select, textarea, [role="combobox"], label');
    if (Array.from(fields).some((f) => f !== el && !composedContains(el, f))) { break; }
    box = up;
  }
  return box;
}

// What a combobox's widget shows as chosen when no hidden field says it (a multiple select drawing chips): the
// chips in its box as a person sees them — a short text with a remove control of its own inside (a button, or a
// textless mark named by aria-label or drawn as something to click) — else the tokens marked aria-selected there.
// The innermost such box is the chip (the box holding all chips holds other chips). null: it shows none, or hides
// some behind a count ("+ 2"), so what it holds cannot be read.
function chipsShown(el) {
  const box = widgetBox(el);
  const shown = (n) => n !== el && !composedContains(n, el) && !composedContains(el, n) &&
    !n.closest('[role="listbox"], [role="option"]') && !n.querySelector('[role="listbox"], [role="option"]') &&
    /** @type {HTMLElement} */ (n).checkVisibility({ opacityProperty: true, visibilityProperty: true });
  const all = Array.from(box.querySelectorAll("*")).filter(shown);
  if (all.some((n) => !n.children.length && /^\+\s*\d+/.test(norm(n.textContent)))) { return null; }
  const removes = all.filter(removeControl);
  const chips = [];
  for (const n of all) {
    const own = removes.filter((r) => n.contains(r));
    if (own.length !== 1 && !(n.getAttribute("aria-selected") === "true" && !own.length)) { continue; }
    const text = norm(Array.from(n.childNodes).filter((c) => !own.some((r) => c === r || c.contains(r)))
      .map(textOfNode).join(" "));
    if (text && text.length <= 100) { chips.push({ n, text }); }
  }
  const inner = chips.filter((c) => !chips.some((d) => d !== c && c.n.contains(d.n)));
  return inner.length ? inner.slice(0, 50).map((c) => cut(c.text, 100)) : null;
}

function textOfNode(node) {
  if (node.nodeType === Node.TEXT_NODE) { return node.textContent || ""; }
  return node.nodeType === Node.ELEMENT_NODE ? /** @type {HTMLElement} */ (node).innerText || "" : "";
}

// A chip's remove control: shown, small, with no text but a symbol (×), something to press — a button, an element
// named by aria-label (an icon "close", "关闭此标签") or one drawn with a pointer cursor — and the outermost such
// (the icon inside a remove button is part of it).
function removeControl(n) {
  const pressable = (x) => {
    const text = norm(x.textContent);
    if (text && !/^[^\p{L}\p{N}]$/u.test(text)) { return false; }
    const r = x.getBoundingClientRect();
    return r.width >= 1 && r.height >= 1 && r.width <= 40 && r.height <= 40 && (x.localName === "button" ||
      x.getAttribute("role") === "button" || x.hasAttribute("aria-label") || getComputedStyle(x).cursor === "pointer");
  };
  return pressable(n) && !(n.parentElement && pressable(n.parentElement));
}

// A number for the focused element, the same while the focus stays on it (a search box that took the focus on a
// click tells itself from the field focused before).
function focusMark() {
  const st = boState();
  if (!st.focusMarks) { st.focusMarks = new WeakMap(); st.focusSeq = 0; }
  const a = deepActiveElement();
  if (!a) { return 0; }
  if (!st.focusMarks.has(a)) { st.focusSeq += 1; st.focusMarks.set(a, st.focusSeq); }
  return st.focusMarks.get(a);
}

// A search box the widget focused when it opened (Select2's): typing goes there, not into the widget.
function searchBoxFocused(el) {
  const a = deepActiveElement();
  return !!a && a !== el && ((a.localName === "input" && !["checkbox", "radio", "button", "submit", "file"]
    .includes((a.type || "").toLowerCase())) || a.localName === "textarea");
}

// Whether the list a combobox opened still shows, whether the focus is on the widget or in that list (so an
// Escape goes to the widget, never to a dialog of the page), and what the widget holds now.
function popupOpen(el) {
  const expanded = el.getAttribute("aria-expanded");
  const opts = roleOf(el) === "listbox" ? [] : popupOptions(el);
  const open = expanded === null ? opts.length > 0 : expanded === "true";
  const a = deepActiveElement();
  let focusHere = !!a && (a === el || composedContains(el, a));
  if (!focusHere && a && a.closest) {
    const list = a.closest('[role="listbox"], [role="menu"]');
    focusHere = !!list && opts.some((o) => composedContains(list, o));
  }
  const typing = searchBoxFocused(el);
  const native = replacedNative(el);
  // A text box standing for a hidden text input (a tag input): a value no option offers becomes a new tag.
  const tagField = !!native && native.localName === "input" && (el.localName === "input" || el.localName === "textarea");
  return { open, focusHere, typing, tagField, textTags: tagField && tagsKeptAsText(el, native),
    nativeValue: native ? cut(currentValue(native), 300) : "", value: cut(currentValue(el), 300) };
}

// Whether a tag input keeps its tags as the text a person sees (tag-it, Tom Select creating tags) rather than as the
// server's values for them (ids, slugs): the hidden field holds some tags already, none of them a number, and the
// widget beside it shows each one exactly so. Then a typed tag ended with a comma is the same as picking the
// suggestion with that text. Unknown (no tag yet) is no.
function tagsKeptAsText(el, native) {
  const tags = String(native.value || "").split(",").map((t) => norm(t.replace(/^"|"$/g, ""))).filter(Boolean);
  if (!tags.length || tags.some((t) => /^[0-9a-f-]*[0-9][0-9a-f-]*$/i.test(t))) { return false; }
  let box = el;
  for (let hops = 0; hops < 4 && box && box.parentElement; hops += 1) {
    if (box.previousElementSibling === native || box.nextElementSibling === native) { break; }
    box = box.parentElement;
  }
  const shown = norm(box ? box.textContent : "");
  return tags.every((t) => shown.includes(t));
}

// A two-list chooser (Django's filter_horizontal, dual list boxes): the other multiple <select> beside this one,
// in the nearest container that holds exactly the two.
function chooserPartner(el) {
  let n = el.parentElement;
  for (let hops = 0; hops < 4 && n; hops += 1, n = n.parentElement) {
    const lists = Array.from(n.querySelectorAll("select[multiple], select[size]")).filter((x) => x !== el && visibleEl(x));
    if (lists.length === 1) { return lists[0]; }
    if (lists.length > 1) { return null; }
  }
  return null;
}

// args: {text, prefix, seq}: the option of the chooser's other list best matching text, stamped so it can be
// double-clicked across (as a person moves it): {id, label}, {options} when none matches, {} without a partner.
function chooserOption(el, args) {
  const st = boState();
  if (args.prefix && !st.prefix) { st.prefix = args.prefix; }
  if (args.seq > st.seq) { st.seq = args.seq; }
  const partner = chooserPartner(el);
  if (!partner) { return {}; }
  const hit = nativeOption(partner, args.text);
  if (hit.index === undefined) { return { options: hit.options }; }
  return { id: stamp(partner.options[hit.index]), label: hit.label, seq: st.seq };
}

// The labels of every option a list holds (a chooser's chosen list: held, not selected).
function optionLabels(el) {
  return el.localName === "select" ? Array.from(el.options).map((o) => norm(o.label || o.textContent)) : [];
}

function selectedLabels(el) {
  return el.localName === "select" ? Array.from(el.selectedOptions).map((o) => norm(o.label || o.textContent)) : null;
}

// args: {prefix, seq}. The popup a field opened and still holds open lying where el is hit: a date panel left open
// after a date was typed, a suggestion list. A person moves on from that field before acting elsewhere (see
// browser/act/moving_on.py). The field is the one with the focus, a field one types into, and the popup is its own:
// named by its aria-controls / aria-owns while it says aria-expanded, or — a kit that links nothing (antd's date
// panel) — a floating layer anchored at the field (placed right below or above it, overlapping it sideways), of its
// own (not the field's container), not spread over the page. Never a modal, never el inside it, never while an option
// is highlighted (aria-activedescendant), which moving on could accept. The field, stamped, with what it holds:
// {id, seq, role, name, value, lang}; {} when the cover is anything else.
function fieldPopupOver(el, args) {
  const st = boState();
  if (args.prefix && !st.prefix) { st.prefix = args.prefix; }
  if (args.seq > st.seq) { st.seq = args.seq; }
  const vw = document.documentElement.clientWidth || window.innerWidth;
  const r = el.getBoundingClientRect();
  const box = intersect([r.left, r.top, r.right, r.bottom], [0, 0, vw, window.innerHeight]);
  const hit = nonEmpty(box) ? deepElementFromPoint((box[0] + box[2]) / 2, (box[1] + box[3]) / 2) : null;
  const field = deepActiveElement();
  if (!hit || !field || field === el || composedContains(field, el) || composedContains(el, field) ||
    !field.matches(TYPED_FIELD)) { return {}; }
  const root = /** @type {Document | ShadowRoot} */ (field.getRootNode());
  const byId = (id) => (root.getElementById ? root.getElementById(id) : null) || document.getElementById(id);
  const active = field.getAttribute("aria-activedescendant");
  if (active && byId(active)) { return {}; }
  const popup = linkedPopup(field, hit, byId) || anchoredLayer(field, hit);
  if (!popup || composedContains(popup, el) || popup.getAttribute("aria-modal") === "true" ||
    popup.querySelector("[aria-modal='true']")) { return {}; }
  const desc = describe(field);
  return { id: stamp(field), seq: st.seq, role: desc.role, name: cut(desc.name, 80), value: currentValue(field),
    lang: langOf(field) };
}

const TYPED_FIELD = "input, textarea, [contenteditable=''], [contenteditable='true'], [role=combobox], [role=textbox], " +
  "[role=searchbox]";

// The popup the field names (aria-controls / aria-owns) while it says it is expanded, holding hit; or null.
function linkedPopup(field, hit, byId) {
  if (field.getAttribute("aria-expanded") !== "true") { return null; }
  for (const attr of ["aria-controls", "aria-owns"]) {
    for (const id of (field.getAttribute(attr) || "").split(/\s+/).filter(Boolean)) {
      const popup = byId(id);
      if (popup && composedContains(popup, hit)) { return popup; }
    }
  }
  return null;
}

const ANCHOR_GAP = 24;  // px between a field's box and a popup placed at it (its wrapper's padding, the popup's margin)

// The floating layer holding hit that is placed at the field (null when none): the outermost absolutely or fixed
// positioned box above hit that does not hold the field, right below or above the field and overlapping it sideways
// (where a kit's popup positioner puts it), smaller than the page (a backdrop is no popup).
function anchoredLayer(field, hit) {
  let layer = null;
  for (let n = hit; n && n.nodeType === 1 && n !== document.body && n !== document.documentElement;
    n = n.parentElement || (n.getRootNode() && /** @type {ShadowRoot} */ (n.getRootNode()).host)) {
    if (composedContains(n, field)) { break; }
    const pos = getComputedStyle(n).position;
    if (pos === "absolute" || pos === "fixed") { layer = n; }
  }
  if (!layer) { return null; }
  const l = layer.getBoundingClientRect();
  const f = field.getBoundingClientRect();
  const vw = document.documentElement.clientWidth || window.innerWidth;
  if (l.width >= vw * 0.9 && l.height >= window.innerHeight * 0.9) { return null; }
  const sideways = l.left < f.right && l.right > f.left;
  const placed = Math.abs(l.top - f.bottom) <= ANCHOR_GAP || Math.abs(l.bottom - f.top) <= ANCHOR_GAP;
  return sideways && placed ? layer : null;
}
