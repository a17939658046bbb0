// Called by name from browser/js/frames.py, on an <iframe>/<frame> element of the parent document.
// frameBox -> [shown, content x offset, content y offset]: whether it renders, and where its document starts
// inside its box (border + padding).
function frameBox(el, args) {
  const cs = getComputedStyle(el);
  const shown = el.checkVisibility ? el.checkVisibility({ visibilityProperty: true }) : true;
  return [shown, el.clientLeft + parseFloat(cs.paddingLeft || "0"), el.clientTop + parseFloat(cs.paddingTop || "0")];
}
