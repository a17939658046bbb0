// Handing elements between worlds (browser/numbering/isolated.py, through browser/scripts.py).
//   elementById  -> the element with blind id args.id in this world (open shadow roots and the closed ones this
//                   world was handed included), by reference for DevTools; null when there is none.
//   keepElement  -> on an element DevTools resolved into the page's main world: keep it under the one-off name
//                   args.key on window, for takeElement (Playwright makes handles only from its own evaluations).
//   takeElement  -> the element kept under args.key (the name deleted in the same call), for a Playwright handle.
function elementById(args) {
  return byBlindId(args.id);
}

function keepElement(el, args) {
  window[args.key] = el;
  return true;
}

function takeElement(args) {
  const el = window[args.key];
  delete window[args.key];
  return el || null;
}
