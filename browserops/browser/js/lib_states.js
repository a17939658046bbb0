// What an element holds and is: the focus, ARIA states and values (stateOf), the input type worth telling, and
// whether markup alone makes it interactive. Part of the shared helpers (lib_base.js).

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
