// What a form says is wrong with it, read just before its submit button would be pressed (prepare's rehearsal).
// Called by name from browser/js/formcheck.py; reads only (validity.valid and validationMessage fire no
// "invalid" event, unlike checkValidity()).
//   problems -> for the form of the element (its form owner, the enclosing <form>, else the whole document):
//               [{field, message, how}] with how = "constraint" (the browser's constraint validation),
//               "aria-invalid" (the page marked the field invalid) or "error-text" (a visible alert in the form);
//               none for a link, which navigates and sends no form (an admin change list's row action "Approve" is
//               a link inside the bulk-action form, whose action choice is required and still empty)
function sendsNoForm(el) {
  return !el.form && !!el.closest("a[href]");
}

function formOf(el) {
  if (el.form) { return el.form; }
  return el.closest("form") || document;
}

function fieldsOf(form) {
  if (form !== document && form.elements) { return Array.from(form.elements); }
  return Array.from(document.querySelectorAll("input, select, textarea, [aria-invalid]"));
}

function describedText(el) {
  return idrefText(el, "aria-errormessage") || idrefText(el, "aria-describedby");
}

function problems(el, args) {
  if (sendsNoForm(el)) { return []; }
  const form = formOf(el);
  const limit = args.limit || 20;
  const out = [];
  const seen = new Set();
  for (const f of fieldsOf(form)) {
    if (out.length >= limit) { break; }
    const name = cut(nameOf(f, roleOf(f)) || f.getAttribute("name") || f.localName, 80);
    if (f.willValidate && f.validity && !f.validity.valid) {
      out.push({ field: name, message: cut(f.validationMessage || "not valid", 200), how: "constraint" });
      seen.add(f);
    } else if (f.getAttribute && f.getAttribute("aria-invalid") === "true" && visibleEl(f)) {
      out.push({ field: name, message: cut(describedText(f) || "marked invalid by the page", 200), how: "aria-invalid" });
      seen.add(f);
    }
  }
  const scope = form === document ? document.body : form;
  for (const alert of scope.querySelectorAll('[role="alert"], [aria-live="assertive"]')) {
    if (out.length >= limit) { break; }
    const text = cut(visibleText(alert), 200);
    if (text && visibleEl(alert)) { out.push({ field: "", message: text, how: "error-text" }); }
  }
  return out;
}

// pageProblems -> the fields of the whole document the page marks aria-invalid, with their error text: what a page a
//                 submit led to says is wrong (the form the button was in may be gone, re-rendered with the server's
//                 errors). Only fields: an alert is no evidence, a success toast is one too.
function pageProblems(args) {
  const limit = args.limit || 20;
  const out = [];
  for (const f of document.querySelectorAll('[aria-invalid="true"]')) {
    if (out.length >= limit) { break; }
    if (!visibleEl(f)) { continue; }
    const name = cut(nameOf(f, roleOf(f)) || f.getAttribute("name") || f.localName, 80);
    out.push({ field: name, message: cut(describedText(f) || "marked invalid by the page", 200), how: "aria-invalid" });
  }
  return out;
}
