// Resolve once the document (and its open shadow roots) has gone `quiet` ms without a mutation, or after
// `timeout` ms at the latest: {quiet, waited, mutations}. Our own badges and id stamps do not count.
// args: {quiet, timeout}
function main(args) {
  return new Promise((resolve) => {
    const started = performance.now();
    let last = started;
    let count = 0;
    const relevant = (m) => {
      if (m.type === "attributes" && m.attributeName === ID_ATTR) { return false; }
      for (let n = m.target; n; n = n.parentNode || n.host) {
        if (n.localName === OVERLAY_TAG) { return false; }
      }
      return true;
    };
    const obs = new MutationObserver((records) => {
      for (const m of records) { if (relevant(m)) { last = performance.now(); count += 1; return; } }
    });
    const opts = { subtree: true, childList: true, attributes: true, characterData: true };
    obs.observe(document, opts);
    const roots = [];
    const stack = [document.documentElement];
    while (stack.length) {
      const n = stack.pop();
      if (n.shadowRoot) { roots.push(n.shadowRoot); stack.push(...n.shadowRoot.children); }
      stack.push(...n.children);
    }
    for (const r of roots) { obs.observe(r, opts); }
    const tick = () => {
      const now = performance.now();
      if (now - last >= args.quiet || now - started >= args.timeout) {
        obs.disconnect();
        resolve({ quiet: now - last >= args.quiet, waited: Math.round(now - started), mutations: count });
        return;
      }
      setTimeout(tick, Math.max(10, Math.min(args.quiet - (now - last), args.timeout - (now - started))));
    };
    setTimeout(tick, Math.min(args.quiet, args.timeout));
  });
}
