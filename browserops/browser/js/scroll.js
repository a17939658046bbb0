// Scroll the page, a scrollable container or the document of a frame, and report where it is now.
// Called by name from browser/js/scroll.py: scrollDocument(args) (this frame's document) and
// scrollAround(el, args) (the element's scrolling container, or the document when nothing around it scrolls).
// args: {to?: "top"|"bottom"|"left"|"right", dx?, dy?, behavior, intoView?: bool}
function isScrollable(el) {
  if (!el || el.nodeType !== 1) { return false; }
  const cs = getComputedStyle(el);
  const y = /(auto|scroll|overlay)/.test(cs.overflowY) && el.scrollHeight > el.clientHeight + 1;
  const x = /(auto|scroll|overlay)/.test(cs.overflowX) && el.scrollWidth > el.clientWidth + 1;
  return x || y;
}

function scrollParent(el) {
  for (let n = el.parentElement || (el.getRootNode() && el.getRootNode().host); n;
       n = n.parentElement || (n.getRootNode() && n.getRootNode().host)) {
    if (n === document.body || n === document.documentElement) { return null; }
    if (isScrollable(n)) { return n; }
  }
  return null;
}

function position(box, isDoc) {
  const vh = isDoc ? window.innerHeight : box.clientHeight;
  const vw = isDoc ? (document.documentElement.clientWidth || window.innerWidth) : box.clientWidth;
  const y = Math.round(isDoc ? window.scrollY : box.scrollTop);
  const x = Math.round(isDoc ? window.scrollX : box.scrollLeft);
  const maxY = Math.max(0, Math.round(box.scrollHeight - vh));
  const maxX = Math.max(0, Math.round(box.scrollWidth - vw));
  const out = { y, above: y, below: Math.max(0, maxY - y), height: vh };
  if (maxX > 0) { out.x = x; out.left = x; out.right = Math.max(0, maxX - x); }
  return out;
}

function settle(read, before, scroller) {
  // Smooth scrolling animates: done at the scroller's "scrollend". Only when the position never leaves where
  // it was (nothing to scroll: no scrollend comes) does stillness decide, after a few frames. A busy renderer
  // may start or run the animation late, so a few still frames mid-way prove nothing; 5 s caps it all.
  // A scrollend can be the previous scroll's, dispatched a frame after that call returned: it counts only once
  // the position has left where it was and holds still over two frames (this scroll's end, not a stale one).
  return new Promise((resolve) => {
    let done = false;
    const finish = () => { if (!done) { done = true; resolve(); } };
    const ended = () => {
      const at = read();
      requestAnimationFrame(() => requestAnimationFrame(() => {
        if (at !== before && read() === at) { finish(); } else if (!done) { listen(); }
      }));
    };
    const listen = () => scroller.addEventListener("scrollend", ended, { once: true });
    listen();
    let frames = 0;
    const step = () => {
      if (done) { return; }
      frames += 1;
      if (frames >= 10 && read() === before) { finish(); } else if (frames < 10) { requestAnimationFrame(step); }
    };
    requestAnimationFrame(step);
    setTimeout(finish, 5000);  // rAF does not run in background tabs; a scrollend may never come
  });
}

function scrollDocument(args) { return scrollAround(null, args); }

async function scrollAround(el, args) {
  const behavior = args.behavior === "smooth" ? "smooth" : "instant";
  let box = null;
  let kind = "page";
  if (el) {
    if (args.intoView) {
      el.scrollIntoView({ block: "center", inline: "nearest", behavior });
      box = scrollParent(el);
      kind = box ? "container" : "page";
    } else if (isScrollable(el)) {
      box = el; kind = "container";
    } else {
      box = scrollParent(el);
      kind = box ? "container" : "page";
    }
  }
  const isDoc = !box;
  const target = isDoc ? (document.scrollingElement || document.documentElement) : box;
  const read = () => (isDoc ? window.scrollY + "," + window.scrollX : box.scrollTop + "," + box.scrollLeft);
  const before = read();
  if (!args.intoView) {
    const vh = isDoc ? window.innerHeight : box.clientHeight;
    let top = null, left = null;
    if (args.to === "top") { top = 0; }
    if (args.to === "bottom") { top = target.scrollHeight; }
    if (args.to === "left") { left = 0; }
    if (args.to === "right") { left = target.scrollWidth; }
    const dx = args.dx || 0;
    const dy = args.dy == null && args.to == null && !args.dx ? Math.round(vh * 0.8) : (args.dy || 0);
    if (top !== null || left !== null) {
      const opt = { behavior };
      if (top !== null) { opt.top = top; }
      if (left !== null) { opt.left = left; }
      (isDoc ? window : box).scrollTo(opt);
    }
    if (dx || dy) { (isDoc ? window : box).scrollBy({ left: dx, top: dy, behavior }); }
  }
  if (behavior === "smooth") { await settle(read, before, isDoc ? document : box); }
  const out = position(target, isDoc);
  out.kind = kind;
  out.moved = read() !== before;
  if (box) {
    const role = roleOf(box);
    const name = nameOf(box, role);
    out.container = name ? role + ' "' + cut(name, 40) + '"' : role;
  }
  return out;
}
