// Watching the DOM for changes; called by name from browser/js/watch.py. Our own badges and id stamps
// never count as a change.
//   arm / read  -> did a document change since the agent last looked? A MutationObserver armed after each
//                  observation counts relevant mutations, so the loop re-lists only when something changed.
//                  A new document has no watch, which also reads as "changed".
//   waitQuiet   -> resolve once the document (and its open shadow roots) has gone `quiet` ms without a
//                  mutation, or after `timeout` ms at the latest: {quiet, waited, mutations}.
//   startClock  -> (an init script, at document start) a quiet clock: when the document last changed, so
//                  waitQuiet can count the quiet window from the last change instead of from its own start.
// relevantMutation and OBSERVED live in lib_changes.js (the listing's kept walk counts changes by the same rule).

// Observe the document and every open shadow root in it.
// How many open shadow roots it found.
function observeAll(obs) {
  obs.observe(document, OBSERVED);
  /** @type {Element[]} */
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
// waitQuiet trusts it only in a document without open shadow roots. It also keeps what the page's own scripts have
// scheduled (trackScheduled), so waitQuiet can tell a page with nothing left to do from one about to change.
function startClock(args) {
  const st = boState();
  if (st.clock) { return { started: false }; }
  const clock = { last: performance.now(), ran: 0, navigated: -Infinity, later: window.setTimeout.bind(window),
    timers: new Map(), frames: new Set(), requests: new Map() };
  new MutationObserver((records) => {
    for (const m of records) { if (relevantMutation(m)) { clock.last = performance.now(); return; } }
  }).observe(document, OBSERVED);
  trackScheduled(clock);
  trackRequests(clock);
  // A navigation this document started (a link, a script setting location) ends in another document or in a
  // download the browser reports a moment later: nothing the page scheduled, so no early end for a while.
  if (window.navigation && typeof window.navigation.addEventListener === "function") {
    window.navigation.addEventListener("navigate", () => { clock.navigated = performance.now(); });
  }
  st.clock = clock;
  return { started: true };
}

// The timers (each with when it is next due) and the animation frames the page's scripts asked for and that have not
// run: work that may change the page without any request or input; and when such work last ran (`ran`: what it set
// off, a request or a navigation, shows a moment later). An interval also keeps when it was started (`armed`) and
// when it last ticked: a clock the page started before an act is nothing the act set off (lastRan, workDue).
// Counted through proxies of the native functions (what a page sees of them stays native: their name, their text,
// what they return). A timer given code as text is not counted.
function trackScheduled(clock) {
  const timers = clock.timers;
  const frames = clock.frames;
  const wrap = (name, apply) => {
    const native = window[name];
    if (typeof native !== "function") { return; }
    window[name] = new Proxy(native, { apply: (target, self, list) => apply(target, self, list) });
  };
  const timer = (repeats) => (target, self, list) => {
    const [handler, delay] = list;
    if (typeof handler !== "function") { return Reflect.apply(target, self, list); }
    const ms = Math.max(0, Number(delay) || 0);
    const entry = { due: 0, armed: performance.now(), repeats, ran: -Infinity };
    let id = 0;
    /** @this {any} */
    const run = function (...given) {
      const now = performance.now();
      if (repeats) { entry.due = now + ms; entry.ran = now; } else { timers.delete(id); clock.ran = now; }
      return handler.apply(this, given);
    };
    id = Reflect.apply(target, self, [run, ...list.slice(1)]);
    entry.due = entry.armed + ms;
    timers.set(id, entry);
    return id;
  };
  wrap("setTimeout", timer(false));
  wrap("setInterval", timer(true));  // a page's clock: due again after each tick
  const cleared = (target, self, list) => { timers.delete(list[0]); return Reflect.apply(target, self, list); };
  wrap("clearTimeout", cleared);
  wrap("clearInterval", cleared);  // clears a timeout too: timeouts and intervals share one pool of ids
  wrap("requestAnimationFrame", (target, self, list) => {
    const cb = list[0];
    if (typeof cb !== "function") { return Reflect.apply(target, self, list); }
    let id = 0;
    id = Reflect.apply(target, self, [/** @this {any} */ function (t) {
      frames.delete(id);
      clock.ran = performance.now();
      return cb.call(this, t);
    }]);
    frames.add(id);
    return id;
  });
  wrap("cancelAnimationFrame", (target, self, list) => {
    frames.delete(list[0]);
    return Reflect.apply(target, self, list);
  });
}

// The fetches and XMLHttpRequests the page's scripts have sent and that have not ended, each with when it was sent:
// an answer still on its way may set off more (a search that navigates once it is answered). The page's DevTools
// events say the same, but a moment later: under load a key press's grace had ended before the request was heard of.
// Counted through proxies, as the timers are; what the page gets back is the native promise and request.
function trackRequests(clock) {
  const requests = clock.requests;
  let next = 0;
  const sent = () => { next += 1; requests.set(next, performance.now()); return next; };
  const fetch = window.fetch;
  if (typeof fetch === "function") {
    window.fetch = new Proxy(fetch, { apply: (target, self, list) => {
      const promise = Reflect.apply(target, self, list);
      const id = sent();
      const ended = () => { requests.delete(id); };
      Promise.resolve(promise).then(ended, ended);  // a derived promise: the page's own rejection stays its own
      return promise;
    } });
  }
  const proto = window.XMLHttpRequest && window.XMLHttpRequest.prototype;
  if (proto && typeof proto.send === "function") {
    proto.send = new Proxy(proto.send, { apply: (target, self, list) => {
      if (!self || typeof self.addEventListener !== "function") { return Reflect.apply(target, self, list); }
      const id = sent();
      self.addEventListener("loadend", () => { requests.delete(id); }, { once: true });
      try {
        return Reflect.apply(target, self, list);
      } catch (e) {
        requests.delete(id);
        throw e;
      }
    } });
  }
}

// Whether a request the page sent since the act at `since` has not ended (`since` reads late by the call's transit,
// as for clockBefore: a request sent up to OWN_CLOCK_MS before it counts too — at worst a short grace runs out).
function requestPending(clock, since) {
  for (const sentAt of clock.requests.values()) {
    if (sentAt >= since - OWN_CLOCK_MS) { return true; }
  }
  return false;
}

// Whether an interval was started a while before `since` (performance.now() time of an act): the page's own clock,
// which ticks whatever was done. Its ticks count as changes when they change the document, like any other change.
// `since` is reckoned from how long ago the act began as the call set out, so it reads late by the time the call
// took to arrive (more under load): a clock started just after the act must not pass for one started before it.
const OWN_CLOCK_MS = 250;
function clockBefore(entry, since) {
  return entry.repeats && entry.armed < since - OWN_CLOCK_MS;
}

// The act's time in this document's clock, from how long ago it began (`actAgo`, ms, or null: every clock counts).
function actTime(actAgo, now) {
  return typeof actAgo === "number" ? now - actAgo : -Infinity;
}

// When scheduled work last ran, leaving out the ticks of the clocks started before `since`.
function lastRan(clock, since) {
  let ran = clock.ran;
  for (const entry of clock.timers.values()) {
    if (entry.repeats && !clockBefore(entry, since) && entry.ran > ran) { ran = entry.ran; }
  }
  return ran;
}

// Whether the page's scripts have work due before `until` (performance.now() time) that may send a request or change
// the page: a timer due (not a clock started before `since`), an animation frame asked for, or a navigation
// started in the last `quiet` ms.
function workDue(clock, until, quiet, since) {
  if (clock.frames.size || performance.now() - clock.navigated < quiet) { return true; }
  for (const entry of clock.timers.values()) {
    if (entry.due <= until && !clockBefore(entry, since)) { return true; }
  }
  return false;
}

// Whether a page timer should have run by `now` and has not: a starved renderer runs it as soon as it is free.
const OVERDUE_MS = 40;  // two of waitQuiet's polls
function overdue(clock, now) {
  for (const entry of clock.timers.values()) {
    if (entry.due < now - OVERDUE_MS) { return true; }
  }
  return false;
}

// Whether the page's scripts have nothing scheduled that may change it before `until`: no work due (workDue) and
// no animation or transition ending (a menu fading in; not a spinner that runs for ever or a badge that pulses for
// half a minute: neither changes the document).
function nothingScheduled(clock, until, quiet, since) {
  return !!clock && !workDue(clock, until, quiet, since) && !animationEnding(until - performance.now());
}

function animationEnding(within) {
  const all = typeof document.getAnimations === "function" ? document.getAnimations() : [];
  return all.some((a) => {
    if (!(a.playState === "running" || /** @type {string} */ (a.playState) === "pending") || !a.effect) { return false; }
    const t = a.effect.getComputedTiming();
    return /** @type {number} */ (t.endTime) - /** @type {number} */ (t.localTime || 0) <= within;
  });
}

// args: {within, idle, actAgo}. Whether the page's scripts have nothing due within `within` ms that could send a
// request (workDue: a clock started before the act, whose poll is no request of the act's, left out; an animation
// ending changes how the page looks, and is left to waitQuiet), `idle` ms after the document last changed and after
// scheduled work last ran: {known: false} without a quiet clock.
function nothingDue(args) {
  const clock = boState().clock;
  if (!clock) { return { known: false, none: false }; }
  const now = performance.now();
  const since = actTime(args.actAgo, now);
  const calm = now - Math.max(clock.last, lastRan(clock, since)) >= args.idle;
  const waiting = !!args.requests && requestPending(clock, since);
  return { known: true, none: calm && !waiting && !workDue(clock, now + args.within, args.within, since) };
}

// How often a page past its idle window with work still scheduled is looked at again.
const POLL_IDLE_MS = 20;

// args: {quiet, timeout, actedAgo, idle, actAgo}. actedAgo (ms, or null): how long ago the session's latest acting
// call began (or an answer came since it; actAgo: the act alone). With the document's quiet clock, the quiet window
// counts from its last change, but never from before that act (what the act set off may still be on its way) — a
// page quiet since the act needs no further wait. `idle` (ms, shorter than `quiet`): enough when the clock sees
// nothing scheduled before the window would end (nothingScheduled): the window is there for what a timer, a frame
// or an animation may still do, and none will. A clock the page started before that act (Wagtail's editor checks
// its form every 500 ms) is not waited for: its next tick is nothing the act set off, and a tick that changes the
// document restarts the window all the same.
function waitQuiet(args) {
  const clock = boState().clock;
  const later = clock ? clock.later : setTimeout;  // our own ticks are no work of the page's
  return new Promise((resolve) => {
    const started = performance.now();
    let last = started;
    let count = 0;
    /** @type {number | null} */
    let late = null;
    const obs = new MutationObserver((records) => {
      for (const m of records) { if (relevantMutation(m)) { last = performance.now(); count += 1; return; } }
    });
    const roots = observeAll(obs);
    if (clock && roots === 0 && typeof args.actedAgo === "number") {
      last = Math.min(started, Math.max(clock.last, started - args.actedAgo));
    }
    const idle = typeof args.idle === "number" && args.idle < args.quiet ? args.idle : args.quiet;
    const since = actTime(args.actAgo, started);
    const tick = () => {
      const now = performance.now();
      const ran = clock ? lastRan(clock, since) : 0;
      // `nothing` is reported as it is (not only when it ended the wait early): a tick that comes late (a busy
      // renderer) may find the whole window gone by, and the page still had nothing scheduled.
      const nothing = now - Math.max(last, ran) >= idle
        && nothingScheduled(clock, last + args.quiet, args.quiet, since);
      // A window that passed only because the renderer was starved is no quiet: a page timer overdue by more than
      // a poll (the /mutating page's 200 ms clock, held back with our own tick at load 6 on 2 cores) runs as soon as
      // the thread is free, before our next tick. It gets one quiet window's time to run, so a timer the browser
      // throttles on purpose (a background tab) cannot hold the wait to its timeout.
      if (!nothing && now - last >= args.quiet && clock && overdue(clock, now)) {
        if (late === null) { late = now; }
      } else {
        late = null;
      }
      const held = late !== null && now - late < args.quiet;
      const calm = (now - last >= args.quiet && !held) || nothing;
      if (calm || now - started >= args.timeout) {
        obs.disconnect();
        resolve({ quiet: calm, waited: Math.round(now - started), mutations: count, idle: nothing });
        return;
      }
      const next = held ? 10 : now - last >= idle ? POLL_IDLE_MS : idle - (now - last);
      later(tick, Math.max(10, Math.min(next, args.quiet - (now - last), args.timeout - (now - started))));
    };
    later(tick, Math.max(0, Math.min(idle - (started - last), args.timeout)));
  });
}
