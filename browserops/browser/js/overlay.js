// Numbered badges over listed elements, drawn in this frame's own document (so iframes clip them).
// Called by name from browser/js/overlay.py: show({items: [[blindId, number], ...], scheme}), hide(),
// present() (is a host of ours in this document?).
// One fixed, click-through host per frame holds an open shadow root, so page CSS cannot restyle the
// badges; a scroll/resize listener keeps them on their elements. hide() removes host and listeners.
const SCHEMES = {
  dark: { bg: "#000000", fg: "#ffd400", ring: "#ffd400" },   // yellow on black, 14.7:1
  blue: { bg: "#00227a", fg: "#ffffff", ring: "#ffffff" },   // white on dark blue, 13:1
  light: { bg: "#ffffff", fg: "#000000", ring: "#000000" },  // black on white, 21:1
};

function stopFollowing(o) {
  if (o) {
    window.removeEventListener("scroll", o.onMove, true);
    window.removeEventListener("resize", o.onMove, true);
    if (o.raf) { cancelAnimationFrame(o.raf); }
  }
}

function removeOverlay(st) {
  stopFollowing(st.overlay);
  st.overlay = null;
  let removed = 0;
  for (const host of document.querySelectorAll(OVERLAY_TAG)) { host.remove(); removed += 1; }
  return removed;
}

// The part of the element not clipped by scrolling ancestors, or null when fully clipped.
function visibleBox(el) {
  const r = el.getBoundingClientRect();
  if (r.width < 1 || r.height < 1) { return null; }
  let box = [r.left, r.top, r.right, r.bottom];
  for (let n = el.parentElement || (el.getRootNode() && el.getRootNode().host); n && n !== document.documentElement;
       n = n.parentElement || (n.getRootNode() && n.getRootNode().host)) {
    if (n === document.body) { break; }
    const cs = getComputedStyle(n);
    if (cs.overflowX !== "visible" || cs.overflowY !== "visible") {
      const c = n.getBoundingClientRect();
      box = intersect(box, [c.left, c.top, c.right, c.bottom]);
      if (!nonEmpty(box)) { return null; }
    }
    if (cs.position === "fixed") { break; }
  }
  return box;
}

function hide(args) { return { removed: removeOverlay(boState()) }; }

function present(args) { return !!document.querySelector(OVERLAY_TAG); }

function show(args) {
  const st = boState();
  const scheme = SCHEMES[args.scheme] || SCHEMES.dark;
  // Redraw inside the existing host when there is one: replacing the host itself would make the browser
  // lay out the whole page again, while the host's own content is laid out on its own (contain: strict).
  const previous = st.overlay;
  stopFollowing(previous);
  let host = previous && previous.host && previous.host.isConnected ? previous.host : null;
  for (const other of document.querySelectorAll(OVERLAY_TAG)) { if (other !== host) { other.remove(); } }
  let root;
  if (host) {
    root = host.shadowRoot;
    root.replaceChildren();
  } else {
    host = document.createElement(OVERLAY_TAG);
    host.setAttribute("aria-hidden", "true");
    host.style.cssText = "all: initial; position: fixed; inset: 0; pointer-events: none; z-index: 2147483647; " +
      "contain: strict; display: block;";
    root = host.attachShadow({ mode: "open" });
  }
  const style = document.createElement("style");
  style.textContent =
    ".b{position:fixed;box-sizing:border-box;min-width:20px;height:20px;padding:0 4px;border-radius:4px;" +
    "font:700 13px/16px system-ui,Arial,sans-serif;letter-spacing:0;text-align:center;white-space:nowrap;" +
    "pointer-events:none;border:2px solid " + scheme.ring + ";background:" + scheme.bg + ";color:" + scheme.fg + ";" +
    "box-shadow:0 0 0 1px " + scheme.bg + ";}" +
    ".b[hidden]{display:none}";
  root.appendChild(style);
  const badges = [];
  const missing = [];
  for (const [id, number] of args.items) {
    const el = byBlindId(id);
    if (!el) { missing.push(number); continue; }
    const b = document.createElement("span");
    b.className = "b";
    b.textContent = String(number);
    b.dataset.n = String(number);
    root.appendChild(b);
    badges.push([el, b]);
  }
  if (!host.isConnected) { (document.body || document.documentElement).appendChild(host); }
  const vw = () => document.documentElement.clientWidth || window.innerWidth;
  let widths = null;
  // Reads first, then writes: interleaving them would force a layout per badge.
  const place = () => {
    const boxes = badges.map(([el]) => (el.isConnected ? visibleBox(el) : null));
    if (!widths) { widths = badges.map(([, b]) => b.offsetWidth || 22); }
    const w = vw();
    const h = window.innerHeight;
    badges.forEach(([, b], i) => {
      const box = boxes[i];
      if (!box) { b.hidden = true; return; }
      b.hidden = false;
      // Top-left corner, nudged outward so the badge does not hide the start of the label; kept on screen.
      b.style.left = Math.min(Math.max(box[0] - 8, 0), w - widths[i]) + "px";
      b.style.top = Math.min(Math.max(box[1] - 10, 0), h - 20) + "px";
    });
  };
  place();
  const o = { onMove: null, raf: 0, host };
  o.onMove = () => {
    if (o.raf) { return; }
    o.raf = requestAnimationFrame(() => { o.raf = 0; place(); });
  };
  window.addEventListener("scroll", o.onMove, true);
  window.addEventListener("resize", o.onMove, true);
  st.overlay = o;
  return { shown: badges.length, missing, colors: scheme };
}
