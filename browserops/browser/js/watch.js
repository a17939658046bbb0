// Watching the DOM for changes; called by name from browser/js/watch.py. Our own badges and id stamps
// never count as a change.
//   arm / read  -> did a document change since the agent last looked? A MutationObserver armed after each
//                  observation counts relevant mutations, so the loop re-lists only when something changed.
//                  A new document has no watch, which also reads as "changed".
//   waitQuiet   -> resolve once the document (and its open shadow roots) has gone `quiet` ms without a
//                  mutation, or after `timeout` ms at the latest: {quiet, waited, mutations}.
// relevantMutation and OBSERVED live in lib.js (the listing's kept walk counts changes by the same rule).

// Observe the document and every open shadow root in it.
function observeAll(obs) {
  obs.observe(document, OBSERVED);
  const stack = [document.documentElement];
  while (stack.length) {
    const n = stack.pop();
    if (!n) { continue; }
    if (n.shadowRoot) { obs.observe(n.shadowRoot, OBSERVED); stack.push(...n.shadowRoot.children); }
    stack.push(...n.children);
  }
}

function arm(args) {
  const st = boState();
  if (st.watch && st.watch.obs) { st.watch.obs.disconnect(); }
  const w = { count: 0, last: 0, obs: null };
  w.obs = new MutationObserver((records) => {
    for (const m of records) { if (relevantMutation(m)) { w.count += 1; w.last = performance.now(); return; } }
  });
  observeAll(w.obs);
  st.watch = w;
  return { armed: true };
}

function read(args) {
  const w = boState().watch;
  if (!w) { return { armed: false }; }
  return { armed: true, count: w.count, quiet_ms: w.count ? Math.round(performance.now() - w.last) : null };
}

// args: {quiet, timeout}
function waitQuiet(args) {
  return new Promise((resolve) => {
    const started = performance.now();
    let last = started;
    let count = 0;
    const obs = new MutationObserver((records) => {
      for (const m of records) { if (relevantMutation(m)) { last = performance.now(); count += 1; return; } }
    });
    observeAll(obs);
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
