// Visible text of the document including open shadow roots (innerText alone skips them).
// args: {op: "has", text} -> bool   |   {op: "text"} -> string
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

function pageText() {
  const body = document.body;
  if (!body) { return ""; }
  const out = [body.innerText || ""];
  shadowText(body, out);
  return out.join("\n");
}

function main(args) {
  if (args.op === "has") { return fold(pageText()).includes(fold(args.text)); }
  return pageText();
}
