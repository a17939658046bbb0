// Redaction of sensitive values in screenshots (browser/page/redaction.py): opaque boxes over every sensitive
// field of this frame (a password, one-time code, card, IBAN… field: its type, autocomplete, inputmode and name in
// the policy's vocabulary, args.vocab) and over every element whose text shows a value typed into such a field
// (args.secrets: a show-password toggle, a card preview), drawn in a layer on top and removed after the shot.
// drawRedactions(args) -> {boxes}; clearRedactions(args) -> {removed}. args.id names the layer.
function redactFold(t) {
  return (t || "").toLowerCase().normalize("NFD").replace(/([a-z])[\u0300-\u036f]+/g, "$1").normalize("NFC")
    .replace(/ё/g, "е").replace(/ß/g, "ss").replace(/\s+/g, " ").trim();
}

function redactAlnum(t) { return (t || "").toLowerCase().replace(/[^\p{L}\p{N}]/gu, ""); }

function fieldNames(el) {
  const byIds = (el.getAttribute("aria-labelledby") || "").split(/\s+/).filter((id) => id)
    .map((id) => { const n = el.ownerDocument.getElementById(id); return n ? n.textContent : ""; });
  return [...Array.from(el.labels || []).map((l) => l.textContent), ...byIds, el.getAttribute("aria-label"),
          el.getAttribute("placeholder"), el.getAttribute("title"), el.getAttribute("name")].join(" ");
}

function isSensitiveField(el, vocab, re) {
  if ((el.getAttribute("type") || "").toLowerCase() === "password") { return true; }
  const tokens = (el.getAttribute("autocomplete") || "").toLowerCase().split(/\s+/);
  if (tokens.some((t) => vocab.autocomplete.includes(t))) { return true; }
  const name = redactFold(fieldNames(el));
  if (re.sensitive.test(name) || vocab.sensitiveCjk.some((w) => name.includes(w))) { return true; }
  return vocab.codeInputmodes.includes((el.getAttribute("inputmode") || "").toLowerCase()) && re.code.test(name);
}

function redactRoots(root, out) {
  out.push(root);
  for (const el of root.querySelectorAll("*")) { if (el.shadowRoot) { redactRoots(el.shadowRoot, out); } }
  return out;
}

function shows(text, secrets) {
  const plain = redactAlnum(text);
  return plain.length > 0 && secrets.some((s) => s.length >= 4 && plain.includes(s));
}

function visibleRect(r) { return r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0; }

function drawRedactions(args) {
  const re = { sensitive: new RegExp(args.vocab.sensitive, "u"), code: new RegExp(args.vocab.code, "u") };
  const secrets = (args.secrets || []).map(redactAlnum).filter((s) => s.length >= 4);
  const rects = [];
  for (const root of redactRoots(document, [])) {
    for (const el of root.querySelectorAll("input, textarea, [contenteditable=''], [contenteditable=true]")) {
      const value = el.value !== undefined ? el.value : el.textContent;
      if (isSensitiveField(el, args.vocab, re) || shows(value, secrets)) { rects.push(el.getBoundingClientRect()); }
    }
    if (!secrets.length) { continue; }
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement && shows(node.textContent, secrets)) {
        const range = document.createRange();
        range.selectNodeContents(node);
        rects.push(range.getBoundingClientRect());
      }
    }
  }
  const layer = document.createElement("div");
  layer.setAttribute(args.id, "");
  // Positioned in the document (not the viewport), so a full-page screenshot finds each box over its element.
  layer.style.cssText = "position:absolute;left:0;top:0;width:0;height:0;overflow:visible;pointer-events:none;" +
    "z-index:2147483647;margin:0;padding:0";
  let boxes = 0;
  for (const r of rects.filter(visibleRect)) {
    const box = document.createElement("div");
    const x = r.left + window.scrollX, y = r.top + window.scrollY;
    box.style.cssText = `position:absolute;left:${x - 2}px;top:${y - 2}px;width:${r.width + 4}px;` +
      `height:${r.height + 4}px;background:#3a3a3a;margin:0;padding:0;border:0`;
    layer.appendChild(box);
    boxes += 1;
  }
  if (boxes) { document.documentElement.appendChild(layer); }
  return { boxes };
}

function clearRedactions(args) {
  const layers = document.querySelectorAll(`[${args.id}]`);
  layers.forEach((l) => l.remove());
  return { removed: layers.length };
}
