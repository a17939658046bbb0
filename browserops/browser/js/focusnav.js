// Screen-reader style quick navigation, and "what has the focus".
// Called by name from browser/js/focusnav.py. args: {prefix, seq} (the frame's blind-id counter) and, for move,
// {roles?: [..], level?, dir: 1 | -1, cursor?, activeAtCursor?, fromStart?: bool}
//  - active: the deep focused element of this document, or {frame_focus: true} when an iframe holds it;
//  - move: the next/previous visible element matching roles (any interactive element when roles is empty)
//    after the reference point: the focused element, or the virtual cursor (a heading we moved to earlier)
//    while the focus has not moved since. Focusable targets get the real focus; others are scrolled to.
function info(el) {
  let role = roleOf(el);
  if (role === "generic") { role = "clickable"; }
  const out = { id: stamp(el), role, name: cut(nameOf(el, role), 80) };
  const st = stateOf(el, role);
  for (const k in st) { out.state = st; break; }
  return out;
}

function isFocusable(el) {
  if (el.disabled) { return false; }
  if (el.tabIndex >= 0) { return true; }
  return el.hasAttribute("tabindex") || el.isContentEditable;
}

function adoptIds(args) {
  const st = boState();
  if (args.prefix) { st.prefix = args.prefix; }
  if (args.seq > st.seq) { st.seq = args.seq; }
  return st;
}

function active(args) {
  const st = adoptIds(args);
  const el = deepActiveElement();
  if (!document.hasFocus() || !el || el === document.body || el === document.documentElement) { return null; }
  if (el.localName === "iframe" || el.localName === "frame") { return { frame_focus: true }; }
  return { element: info(el), seq: st.seq };
}

function move(args) {
  const st = adoptIds(args);
  const active = deepActiveElement();
  const roles = args.roles && args.roles.length ? new Set(args.roles) : null;
  let ref = null;
  if (!args.fromStart) {
    const cursor = args.cursor ? byBlindId(args.cursor) : null;
    const activeId = active && active.getAttribute ? active.getAttribute(ID_ATTR) : null;
    const activeIsBody = !active || active === document.body || active === document.documentElement;
    if (cursor && (activeIsBody || (activeId && activeId === args.activeAtCursor))) { ref = cursor; }
    else if (!activeIsBody && active.localName !== "iframe") { ref = active; }
    else if (cursor) { ref = cursor; }
  }
  const seq = [];
  let refIndex = -1;
  walkComposed((el, cs, flags, clip, kind) => {
    if (el === ref) { refIndex = seq.length; seq.push(null); }
    if (cs.visibility !== "visible") { return 0; }
    let ok;
    if (roles) {
      let role = roleOf(el);
      if (role === "generic" && kind) { role = "clickable"; }
      ok = roles.has(role) && (!args.level || role !== "heading" || headingLevel(el) === args.level);
      if (ok && (role === "region" || role === "form") && !nameOf(el, role)) { ok = false; }
    } else {
      ok = !!kind && shown(el);
    }
    if (!ok) { return 0; }
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) { return 0; }
    if (el !== ref) { seq.push(el); }
    return 0;
  }, true);
  let target = null;
  if (args.dir > 0) {
    for (let i = refIndex + 1; i < seq.length; i++) { if (seq[i]) { target = seq[i]; break; } }
  } else {
    for (let i = (refIndex >= 0 ? refIndex : seq.length) - 1; i >= 0; i--) { if (seq[i]) { target = seq[i]; break; } }
  }
  if (!target) { return { found: false, matches: seq.filter(Boolean).length, seq: st.seq }; }
  let focused = false;
  if (isFocusable(target)) {
    target.focus({ preventScroll: true });
    focused = deepActiveElement() === target;
  }
  target.scrollIntoView({ block: "center", inline: "nearest" });
  const out = info(target);
  if (out.role === "heading" && !out.state) { out.state = { level: headingLevel(target) }; }
  const now = deepActiveElement();
  const nowId = now && now.getAttribute ? now.getAttribute(ID_ATTR) : null;
  return { found: true, element: out, focused, active: nowId || (now && now !== document.body ? stamp(now) : null),
    seq: st.seq };
}
