// ARIA 1.2 combobox (list autocomplete): [data-combobox] holds an input[role=combobox], a hidden input that
// carries the submitted value, and a [role=listbox] of [role=option] items.
(function () {
  function init(box) {
    var input = box.querySelector('[role="combobox"]');
    var hidden = box.querySelector('input[type="hidden"]');
    var list = box.querySelector('[role="listbox"]');
    var options = Array.prototype.slice.call(list.querySelectorAll('[role="option"]'));
    var active = -1;
    function visible() { return options.filter(function (o) { return !o.hidden; }); }
    function setActive(i) {
      var vis = visible();
      options.forEach(function (o) { o.classList.remove("active"); });
      active = i;
      if (i >= 0 && vis[i]) {
        vis[i].classList.add("active");
        input.setAttribute("aria-activedescendant", vis[i].id);
        vis[i].scrollIntoView({ block: "nearest" });
      } else {
        input.removeAttribute("aria-activedescendant");
      }
    }
    function open() {
      list.hidden = false;
      input.setAttribute("aria-expanded", "true");
    }
    function close() {
      list.hidden = true;
      input.setAttribute("aria-expanded", "false");
      setActive(-1);
    }
    function showAll() { options.forEach(function (o) { o.hidden = false; }); }
    function selectedIndex() {
      var vis = visible();
      for (var i = 0; i < vis.length; i++) { if (vis[i].getAttribute("aria-selected") === "true") { return i; } }
      return 0;
    }
    function choose(opt) {
      var v = opt.getAttribute("data-value");
      input.value = v;
      hidden.value = v;
      options.forEach(function (o) { o.setAttribute("aria-selected", o === opt ? "true" : "false"); });
      close();
      input.dispatchEvent(new Event("change", { bubbles: true }));
    }
    function filter() {
      var q = input.value.trim().toUpperCase();
      options.forEach(function (o) {
        var text = (o.textContent + " " + (o.title || "")).toUpperCase();
        o.hidden = q !== "" && text.indexOf(q) === -1;
      });
    }
    input.addEventListener("click", function () {
      if (list.hidden) { showAll(); open(); } else { close(); }
    });
    input.addEventListener("input", function () {
      filter();
      open();
      setActive(visible().length ? 0 : -1);
      var typed = input.value.trim().toUpperCase();
      var exact = options.filter(function (o) { return o.getAttribute("data-value") === typed; })[0];
      hidden.value = exact ? exact.getAttribute("data-value") : "";
    });
    input.addEventListener("keydown", function (ev) {
      var vis = visible();
      if (ev.key === "ArrowDown" || ev.key === "Down") {
        ev.preventDefault();
        if (list.hidden) { showAll(); open(); setActive(selectedIndex()); return; }
        setActive(Math.min(active + 1, visible().length - 1));
      } else if (ev.key === "ArrowUp" || ev.key === "Up") {
        ev.preventDefault();
        if (list.hidden) { showAll(); open(); setActive(selectedIndex()); return; }
        setActive(Math.max(active - 1, 0));
      } else if (ev.key === "Enter") {
        if (!list.hidden && active >= 0 && vis[active]) { ev.preventDefault(); choose(vis[active]); }
      } else if (ev.key === "Escape") {
        if (!list.hidden) { ev.preventDefault(); close(); }
      }
    });
    options.forEach(function (o) {
      o.addEventListener("mousedown", function (ev) { ev.preventDefault(); });
      o.addEventListener("click", function () { choose(o); });
    });
    box.addEventListener("focusout", function (ev) {
      if (ev.relatedTarget && !box.contains(ev.relatedTarget)) { close(); }
    });
    document.addEventListener("click", function (ev) {
      if (!box.contains(ev.target)) { close(); }
    });
  }
  document.querySelectorAll("[data-combobox]").forEach(init);
})();
