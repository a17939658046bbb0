// Run through the DevTools protocol with the command-line API (getEventListeners), not through Playwright:
// see browser/act/keylisteners.py. args: {id} (a blind id). -> true when the element or a node above it
// (shadow hosts included, the document excluded) has a keydown/keypress/keyup listener; null when not found.
function listensToKeys(args) {
  const sel = "[data-blind-id=\"" + CSS.escape(args.id) + "\"]";
  let el = document.querySelector(sel);
  const stack = [document.documentElement];
  while (!el && stack.length) {
    const n = stack.pop();
    if (n.shadowRoot) { el = n.shadowRoot.querySelector(sel); stack.push(...n.shadowRoot.children); }
    stack.push(...n.children);
  }
  if (!el) { return null; }
  for (let n = el; n && n.nodeType !== 9; n = n.parentNode || n.host) {
    const l = getEventListeners(n);
    if (l.keydown || l.keypress || l.keyup) { return true; }
  }
  return false;
}
