// Watching the DOM for changes; called by name from browser/js/watch.py. Our own badges and id stamps
// never count as a change.
//   arm / read  -> did a document change since the agent last looked? A MutationObserver armed after each
//                  observation counts relevant mutations, so the loop re-lists only when something changed.
//                  A new document has no watch, which also reads as "changed".
//   waitQuiet   -> resolve once the document (and its open shadow roots) has gone `quiet` ms without a
//                  mutation, or after `timeout` ms at the latest: {quiet, waited, mutations}.
//   startClock  -> (an init script, at document start) a quiet clock: when the document last changed, so
//                  waitQuiet can count the quiet window from the last change instead of from its own start.
// relevantMutation and OBSERVED live in lib.js (the listing's kept walk counts changes by the same rule).

// Observe the document and every open shadow root in it.
// How many open shadow roots it found.
function observeAll(obs) {
  obs.observe(document, OBSERVED);
  const stack = [document.documentElement];
  let roots = 0;
  while (stack.length) {
    const n = stack.pop();
    if (!n) { continue; }
    if (n.shadowRoot) { obs.observe(n.shadowRoot, OBSERVED); stack.push(...n.shadowRoot.children); roots += 1; }
    stack.push(...n.children);
  }
  return roots;
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

// Run at document start in every frame (waiting.py start_quiet_clock): from then on the document's last relevant
// mutation time. It sees the document's light DOM only (a shadow root attached later is not observed), so
// waitQuiet trusts it only in a document without open shadow roots.
function startClock(args) {
  const st = boState();
  if (st.clock) { return { started: false }; }
  const clock = { last: performance.now() };
  new MutationObserver((records) => {
    for (const m of records) { if (relevantMutation(m)) { clock.last = performance.now(); return; } }
  }).observe(document, OBSERVED);
  st.clock = clock;
  return { started: true };
}

// args: {quiet, timeout, actedAgo}. actedAgo (ms, or null): how long ago the session's latest acting call began.
// With the document's quiet clock, the quiet window counts from its last change, but never from before that act
// (what the act set off may still be on its way) — a page quiet since the act needs no further wait.
function waitQuiet(args) {
  return new Promise((resolve) => {
    const started = performance.now();
    let last = started;
    let count = 0;
    const obs = new MutationObserver((records) => {
      for (const m of records) { if (relevantMutation(m)) { last = performance.now(); count += 1; return; } }
    });
    const roots = observeAll(obs);
    const clock = boState().clock;
    if (clock && roots === 0 && typeof args.actedAgo === "number") {
      last = Math.min(started, Math.max(clock.last, started - args.actedAgo));
    }
    const tick = () => {
      const now = performance.now();
      if (now - last >= args.quiet || now - started >= args.timeout) {
        obs.disconnect();
        resolve({ quiet: now - last >= args.quiet, waited: Math.round(now - started), mutations: count });
        return;
      }
      setTimeout(tick, Math.max(10, Math.min(args.quiet - (now - last), args.timeout - (now - started))));
    };
    setTimeout(tick, Math.max(0, Math.min(args.quiet - (started - last), args.timeout)));
  });
}
