// Notice whether a document changed since the agent last looked: a MutationObserver armed after each
// observation counts relevant mutations (our badges and id stamps do not count), so the loop re-lists only
// when something changed. A new document has no watch, which also reads as "changed".
// args: {op: "arm" | "read"}
function main(args) {
  const st = boState();
  if (args.op === "arm") {
    if (st.watch && st.watch.obs) { st.watch.obs.disconnect(); }
    const w = { count: 0, last: 0, obs: null };
    const relevant = (m) => {
      if (m.type === "attributes" && m.attributeName === ID_ATTR) { return false; }
      for (let n = m.target; n; n = n.parentNode || n.host) {
        if (n.localName === OVERLAY_TAG) { return false; }
      }
      return true;
    };
    w.obs = new MutationObserver((records) => {
      for (const m of records) { if (relevant(m)) { w.count += 1; w.last = performance.now(); return; } }
    });
    const opts = { subtree: true, childList: true, attributes: true, characterData: true };
    w.obs.observe(document, opts);
    const stack = [document.documentElement];
    while (stack.length) {
      const n = stack.pop();
      if (!n) { continue; }
      if (n.shadowRoot) { w.obs.observe(n.shadowRoot, opts); stack.push(...n.shadowRoot.children); }
      stack.push(...n.children);
    }
    st.watch = w;
    return { armed: true };
  }
  const w = st.watch;
  if (!w) { return { armed: false }; }
  return { armed: true, count: w.count, quiet_ms: w.count ? Math.round(performance.now() - w.last) : null };
}
