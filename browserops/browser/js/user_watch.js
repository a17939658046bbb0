// The listener of `browserops record` (browser/page/user_watch.py), installed as an init script in every frame.
// It never acts on the page: it reports the person's clicks and field changes. __BINDING__ (the console marker)
// and __CDP_BINDING__ (the DevTools binding's name) are replaced per recording.
(() => {
  if (window["__BINDING__"]) { return; }
  window["__BINDING__"] = true;
  // The policy's vocabulary of sensitive fields (policy_words.js_vocabulary), put in by user_watch.py.
  const VOCAB = __VOCABULARY__;
  const SENSITIVE = new RegExp(VOCAB.sensitive, "u"), CODE = new RegExp(VOCAB.code, "u");
  const fold = (t) => (t || "").toLowerCase().normalize("NFD").replace(/([a-z])[\u0300-\u036f]+/g, "$1")
    .normalize("NFC").replace(/ё/g, "е").replace(/ß/g, "ss").replace(/\s+/g, " ").trim();
  const sensitive = (el, texts) => {
    if ((el.getAttribute("type") || "").toLowerCase() === "password") { return true; }
    const tokens = (el.getAttribute("autocomplete") || "").toLowerCase().split(/\s+/);
    if (tokens.some((t) => VOCAB.autocomplete.includes(t))) { return true; }
    const name = fold(texts.join(" "));
    if (SENSITIVE.test(name) || VOCAB.sensitiveCjk.some((w) => name.includes(w))) { return true; }
    return VOCAB.codeInputmodes.includes((el.getAttribute("inputmode") || "").toLowerCase()) && CODE.test(name);
  };
  const debug = console.debug.bind(console);
  const send = (event) => {
    const text = "__BINDING__" + JSON.stringify(event);
    try {
      if (typeof window.__CDP_BINDING__ === "function") { window.__CDP_BINDING__(text); } else { debug(text); }
    } catch (e) { /* the page is closing */ }
  };
  const blindOf = (path) => {
    for (const node of path) {
      if (node && node.getAttribute && node.getAttribute("data-blind-id")) { return node; }
    }
    return null;
  };
  const labelsOf = (el) => [...Array.from(el.labels || []).map((l) => l.textContent), el.getAttribute("placeholder"),
    el.getAttribute("title"), el.getAttribute("aria-label")]
    .map((t) => (t || "").replace(/\s+/g, " ").trim()).filter((t) => t && t.length <= 80).slice(0, 4);
  const held = (list) => Array.from(list.options).map((o) => o.text.trim()).filter((t) => t);
  // A two-list chooser (available -> chosen): the two list boxes of the nearest container holding exactly two.
  const chooserOf = (el) => {
    let n = el.parentElement;
    for (let hops = 0; hops < 4 && n; hops += 1, n = n.parentElement) {
      const lists = Array.from(n.querySelectorAll("select[multiple]")).filter((x) => x.getClientRects().length);
      if (lists.length === 2) { return lists; }
      if (lists.length > 2) { return null; }
    }
    return null;
  };
  document.addEventListener("click", (ev) => {
    // Only the person's own clicks: a page script's el.click() (e.g. the link a button clicks to start a
    // download) is the page acting, not a step to record.
    if (!ev.isTrusted) { return; }
    const path = ev.composedPath();
    const el = blindOf(path) || path[0];
    if (!el || !el.getAttribute) { return; }
    const tag = el.localName || "";
    const type = (el.getAttribute("type") || "").toLowerCase();
    const form = el.form || (el.closest && el.closest("form"));
    const submits = !!form && ((tag === "button" && (type === "" || type === "submit")) ||
                               (tag === "input" && (type === "submit" || type === "image")));
    const label = (el.getAttribute("aria-label") || el.innerText || el.value || "").trim().slice(0, 80);
    const click = {type: "click", blindId: el.getAttribute("data-blind-id"), tag, inputType: type, submits,
          label: ["input", "textarea"].includes(tag) && !["submit", "button", "image"].includes(type) ? "" : label,
          href: tag === "a" ? el.href : null};
    const lists = !submits && tag !== "select" && tag !== "option" ? chooserOf(el) : null;
    if (!lists) { send(click); return; }
    // A button between the two lists of a chooser moves options across: once the page's own handler ran, the
    // list that gained options holds the person's choice (its whole held list is the field's value), and the
    // click is how, not what. A click that moved nothing is reported as a click.
    const before = lists.map(held);
    setTimeout(() => {
      const grew = lists.findIndex((l, i) => held(l).some((t) => !before[i].includes(t)));
      if (grew < 0) { send(click); return; }
      const to = lists[grew];
      send({type: "change", blindId: to.getAttribute("data-blind-id"), files: null, moved: true,
            value: held(to).join(", "), values: held(to).slice(0, 100), labels: labelsOf(to),
            options: [...held(lists[0]), ...held(lists[1])].slice(0, 100)});
    }, 0);
  }, true);
  // A pick in a custom list box (a combobox's popup) may be taken on mouseup, the popup removed before any click
  // fires: the pick is reported once the page's own handler ran, so the recorder reads the widget's new value.
  document.addEventListener("mouseup", (ev) => {
    if (!ev.isTrusted) { return; }
    const option = /** @type {HTMLElement | undefined} */ (ev.composedPath().find(
      (/** @type {any} */ n) => n && n.getAttribute && n.getAttribute("role") === "option"));
    if (!option || option.localName === "option") { return; }
    const label = (option.innerText || "").trim().slice(0, 80);
    setTimeout(() => send({type: "click", blindId: option.getAttribute("data-blind-id"), tag: option.localName,
                           inputType: "", submits: false, label, href: null}), 0);
  }, true);
  // The listed combobox standing for a control nobody sees (not listed, so without an id): the one holding it
  // (Choices.js keeps its <select> inside), else the one right beside it (Tom Select puts its box right after the
  // original and takes its label). The recorder records the pick on that widget (recorder.py _picked_in_widget).
  const widgetOf = (el) => {
    const LISTED = "[role=combobox][data-blind-id]";
    const around = el.closest && el.closest(LISTED);
    if (around) { return around.getAttribute("data-blind-id"); }
    for (const sib of [el.nextElementSibling, el.previousElementSibling]) {
      const box = sib && (sib.matches(LISTED) ? sib : sib.querySelector(LISTED));
      if (box) { return box.getAttribute("data-blind-id"); }
    }
    return null;
  };
  const changed = (ev) => {
    const el = ev.composedPath()[0];
    if (!el || !el.getAttribute) { return; }
    const t = (el.getAttribute("type") || "").toLowerCase();
    const info = {type: "change", blindId: el.getAttribute("data-blind-id"), files: null, value: null};
    if (!info.blindId && (el.localName === "select" || el.localName === "input")) { info.widget = widgetOf(el); }
    // Its other names (label elements, placeholder, title): candidates a replay tries when the name changed.
    const texts = [...Array.from(el.labels || []).map((l) => l.textContent), el.getAttribute("placeholder"),
                   el.getAttribute("title"), el.getAttribute("aria-label")];
    info.labels = texts.map((t) => (t || "").replace(/\s+/g, " ").trim()).filter((t) => t && t.length <= 80)
      .slice(0, 4);
    if (el.files) { info.files = Array.from(el.files).map((f) => f.name); }
    else if (el.localName === "select") {
      info.value = Array.from(el.selectedOptions).map((o) => o.text.trim()).join(", ");
      // A multiple select (a list box, or the native select under a tag picker) chooses a list.
      if (el.multiple) { info.values = Array.from(el.selectedOptions).map((o) => o.text.trim()).slice(0, 100); }
      // The choices it offered: a pack written from the recording makes them the field's enum.
      info.options = Array.from(el.options).filter((o) => !o.disabled && o.value !== "")
        .map((o) => o.text.trim()).filter((t) => t).slice(0, 100);
    }
    else if (sensitive(el, [...texts, el.getAttribute("aria-label"), el.getAttribute("name"), el.id])) {
      info.filled = !!el.value;  // its value never leaves the page
    }
    else if (t === "checkbox" || t === "radio") {
      info.checked = el.checked;
      const group = t === "radio" && el.form && el.name ? el.form.elements.namedItem(el.name) : null;
      if (group && group.length) {
        info.group = Array.from(group).map((r) => r.getAttribute("data-blind-id")).filter((id) => id);
      }
      // What the group is called (its fieldset's legend, or a radiogroup's label): the choice's input key.
      const legend = el.closest("fieldset") && el.closest("fieldset").querySelector("legend");
      const radiogroup = el.closest("[role=radiogroup]");
      info.groupLabel = ((legend && legend.textContent) || (radiogroup && radiogroup.getAttribute("aria-label"))
                         || "").replace(/\s+/g, " ").trim().slice(0, 80);
    }
    else if (typeof el.value === "string") { info.value = el.value; }
    send(info);
  };
  document.addEventListener("input", changed, true);
  document.addEventListener("change", changed, true);
  // Escape that closes something open (a listbox, a menu, a dialog), and Enter in a form with no submit button
  // (it sends the form by itself): keys a replay has to press too. Other keys are typing, seen as values.
  document.addEventListener("keydown", (ev) => {
    if (!ev.isTrusted || (ev.key !== "Escape" && ev.key !== "Enter")) { return; }
    const el = blindOf(ev.composedPath()) || ev.composedPath()[0];
    if (!el || !el.getAttribute) { return; }
    const open = !!document.querySelector('[aria-expanded="true"], dialog[open], [role="dialog"], [role="listbox"]');
    const form = el.form || (el.closest && el.closest("form"));
    const lone = !!form && ["input"].includes(el.localName) &&
      !form.querySelector('button:not([type]), button[type="submit"], input[type="submit"], input[type="image"]');
    if ((ev.key === "Escape" && !open) || (ev.key === "Enter" && !lone)) { return; }
    send({type: "key", key: ev.key, blindId: el.getAttribute("data-blind-id"), submits: ev.key === "Enter"});
  }, true);
})();
