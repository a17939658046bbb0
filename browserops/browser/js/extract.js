// A short, structured summary of the document: headings outline, main text snippet, counts, live messages.
// Called by name from browser/js/text.py. args: {snippet: max chars of the main text, headings: max headings}
function extract(args) {
  const headings = [];
  const counts = { links: 0, buttons: 0, fields: 0, forms: 0, images: 0, frames: 0, tables: 0 };
  const messages = [];
  const dialogs = [];
  walkComposed((el, cs, flags) => {
    if (cs.visibility !== "visible") { return 0; }
    const tag = el.localName;
    const role = roleOf(el);
    if (role === "heading" && headings.length < args.headings) {
      const text = cut(visibleText(el) || nameOf(el, role), 100);
      if (text) { headings.push([headingLevel(el), text]); }
    } else if (role === "link") { counts.links += 1; }
    else if (role === "button") { counts.buttons += 1; }
    else if (["textbox", "searchbox", "combobox", "listbox", "checkbox", "radio", "spinbutton", "slider", "switch"].includes(role)) {
      counts.fields += 1;
    }
    if (tag === "form") { counts.forms += 1; }
    else if (tag === "img" && el.getAttribute("alt") !== "") { counts.images += 1; }
    else if (tag === "iframe" || tag === "frame") { counts.frames += 1; }
    else if (tag === "table") { counts.tables += 1; }
    if ((role === "alert" || role === "status") && messages.length < 5) {
      const t = cut(visibleText(el), 160);
      if (t) { messages.push(t); }
    }
    if ((role === "dialog" || role === "alertdialog") && dialogs.length < 3) {
      dialogs.push(cut(nameOf(el, role) || visibleText(el), 80));
    }
    return 0;
  }, true);
  for (const k of Object.keys(counts)) { if (!counts[k]) { delete counts[k]; } }
  const main = document.querySelector("main, [role=main]") || document.body;
  let text = main ? norm(/** @type {HTMLElement} */ (main).innerText || "") : "";
  const full = text.length;
  if (text.length > args.snippet) { text = text.slice(0, args.snippet - 1) + "…"; }
  const out = { lang: document.documentElement.lang || undefined, headings, text, text_chars: full, counts };
  if (messages.length) { out.messages = messages; }
  if (dialogs.length) { out.dialogs = dialogs; }
  return out;
}
