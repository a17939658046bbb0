// Run through the DevTools protocol with the command-line API (getEventListeners), not through Playwright: see
// browser/page/pending_save.py. Reads, changes nothing. args: {undo} (lower-case words of an "Undo" control in
// the languages we know). -> {guards: how many beforeunload listeners the window holds (an attribute handler
// counts), undo: the names of visible Undo controls inside an alert, a status or a live region, doc: which
// document this is (its time origin: a new document after a navigation has another)}.
function pendingSave(args) {
  let guards = 0;
  try {
    const listeners = getEventListeners(window).beforeunload || [];
    guards = listeners.length;
    if (typeof window.onbeforeunload === "function" && !listeners.some((l) => l.listener === window.onbeforeunload)) {
      guards += 1;
    }
  } catch (e) { guards = 0; }
  const words = args.undo || [];
  const regions = document.querySelectorAll(
    "[role=alert],[role=status],[role=log],[aria-live=polite],[aria-live=assertive],output");
  const undo = [];
  const visible = (el) => {
    const box = el.getBoundingClientRect();
    if (box.width < 1 || box.height < 1) { return false; }
    const style = getComputedStyle(el);
    return style.visibility !== "hidden" && style.display !== "none" && Number(style.opacity) > 0.01;
  };
  for (const region of regions) {
    for (const control of region.querySelectorAll("button,[role=button],a[href],[role=link]")) {
      const name = ((control.getAttribute("aria-label") || control.textContent || "") + "").trim().toLowerCase();
      if (!name || name.length > 40) { continue; }
      if (words.some((w) => name === w || name.startsWith(w + " ") || name.endsWith(" " + w)) && visible(control)) {
        undo.push(name);
      }
    }
  }
  return { guards, undo, doc: performance.timeOrigin };
}
