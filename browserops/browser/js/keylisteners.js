// Run through the DevTools protocol with the command-line API (getEventListeners), not through Playwright:
// see browser/act/keylisteners.py. args: {id} (a blind id). -> true when the element or a node above it
// (shadow hosts included, the document excluded) has a keydown/keypress/keyup listener; null when not found.
function listensToKeys(args) {
  const sel = "[data-blind-id=\"" + CSS.escape(args.id) + "\"]";
  let el = document.querySelector(sel);
  /** @type {Element[]} */
  const stack = [document.documentElement];
  while (!el && stack.length) {
    const n = stack.pop();
    if (n.shadowRoot) { el = n.shadowRoot.querySelector(sel); stack.push(...n.shadowRoot.children); }
    stack.push(...n.children);
  }
  if (!el) { return null; }
  for (let n = /** @type {any} */ (el); n && n.nodeType !== 9; n = n.parentNode || n.host) {
    const l = getEventListeners(n);
    const root = reactRoot(n);
    for (const type of ["keydown", "keypress", "keyup"]) {
      // React (17+) listens to every event on its root, once capturing and once bubbling, and hands it to the
      // components' own handlers: those (onKeyDown... in the props it keeps on each node) are what listen.
      if (l[type] && l[type].length > (root ? 2 : 0)) { return true; }
    }
    if (reactKeyHandler(n)) { return true; }
  }
  return false;
}

function reactRoot(n) {
  return Object.keys(n).some((k) => k.startsWith("__reactContainer$"));
}

// A React component's key handler on this node (React keeps a node's props under "__reactProps$<random>").
function reactKeyHandler(n) {
  for (const k of Object.keys(n)) {
    if (!k.startsWith("__reactProps$")) { continue; }
    const props = n[k] || {};
    return ["onKeyDown", "onKeyPress", "onKeyUp", "onKeyDownCapture", "onKeyPressCapture", "onKeyUpCapture"]
      .some((h) => typeof props[h] === "function");
  }
  return false;
}

// args: {ids} (blind ids of icon-like elements, in the top document). -> the ids among them whose element has a
// click-like listener (click, mouse/pointer down/up, touchstart): an icon-only control wired up by script.
function clickListeners(args) {
  const out = [];
  for (const id of args.ids) {
    const el = document.querySelector("[data-blind-id=\"" + CSS.escape(id) + "\"]");
    if (!el) { continue; }
    const l = getEventListeners(el);
    if (l.click || l.mousedown || l.mouseup || l.pointerdown || l.pointerup || l.touchstart) { out.push(id); }
  }
  return out;
}

// args: {} -> the verdicts on the icon candidates a listing's walk just put on <html> (list.js args.iconMark;
// lib_base.js ICONS_ATTR, spelt out here: this runs without the shared helpers), taken off again: {ids, yes} with yes the ids that
// have a click-like listener; null when the walk put none there (it found none, or reused a walk).
function markedClickListeners(args) {
  const root = document.documentElement;
  const marked = root ? root.getAttribute("data-blind-icons") : null;
  if (marked === null) { return null; }
  root.removeAttribute("data-blind-icons");
  const ids = marked.split(" ").filter((id) => id);
  return { ids, yes: clickListeners({ ids }) };
}
