// Visible text of the document including open shadow roots (innerText alone skips them).
// Called by name from browser/js/text.py: pageText(args) -> string, hasText({text}) -> bool.
function shadowText(root, out) {
  const stack = [root];
  while (stack.length) {
    const n = stack.pop();
    if (n.localName === OVERLAY_TAG) { continue; }
    for (let c = n.lastElementChild; c; c = c.previousElementSibling) { stack.push(c); }
    if (n.shadowRoot) {
      const parts = [];
      for (let c = n.shadowRoot.firstElementChild; c; c = c.nextElementSibling) {
        if (c.localName !== "style" && c.localName !== "script") {
          const t = c.innerText;
          if (t) { parts.push(t); }
          shadowText(c, out);
        }
      }
      if (parts.length) { out.push(parts.join("\n")); }
    }
  }
}

function pageText(args) {
  const body = document.body;
  if (!body) { return ""; }
  const out = [body.innerText || ""];
  shadowText(body, out);
  return out.join("\n");
}

function hasText(args) { return fold(pageText(args)).includes(fold(args.text)); }
