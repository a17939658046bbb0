// Mailbox single-page app: pushState routing between role=tab views, delayed "Load more", and a
// background long poll of /api/ping, one request always in flight (so the network never goes idle).
(function () {
  var panel = document.getElementById("spa-panel");
  var tabs = Array.prototype.slice.call(document.querySelectorAll('[role="tab"]'));
  var inboxCount = 0;
  var senders = ["Alice", "Boris", "Chen", "Dana", "Emil", "Fatima", "Gao", "Hiro", "Irina", "Jon"];
  var subjects = ["Invoice", "Meeting notes", "Travel plan", "Receipt", "Budget", "Lunch", "Report", "Reminder"];
  var settings = { notifications: false, displayName: "Demo user" };

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  function messageItem(i) {
    return '<li data-message="' + i + '">' + esc(subjects[i % subjects.length] + " #" + (i + 1)) +
      " from " + esc(senders[i % senders.length]) + "</li>";
  }
  function renderInbox() {
    var items = [];
    for (var i = 0; i < inboxCount; i++) { items.push(messageItem(i)); }
    panel.innerHTML = '<h2 id="panel-title">Inbox</h2>' +
      '<ul id="inbox-list" aria-label="Messages">' + items.join("") + "</ul>" +
      '<button type="button" id="load-more">Load more</button> <span id="inbox-status" role="status">' +
      inboxCount + " messages</span>";
    document.getElementById("load-more").addEventListener("click", loadMore);
  }
  function loadMore() {
    var button = document.getElementById("load-more");
    var list = document.getElementById("inbox-list");
    list.setAttribute("aria-busy", "true");
    button.disabled = true;
    document.getElementById("inbox-status").textContent = "Loading…";
    setTimeout(function () {
      var html = "";
      for (var i = 0; i < 5; i++) { html += messageItem(inboxCount + i); }
      inboxCount += 5;
      if (!document.body.contains(list)) { return; }
      list.insertAdjacentHTML("beforeend", html);
      list.removeAttribute("aria-busy");
      button.disabled = false;
      document.getElementById("inbox-status").textContent = inboxCount + " messages";
    }, 600);
  }
  function renderArchive() {
    panel.innerHTML = '<h2 id="panel-title">Archive</h2>' +
      '<ul id="archive-list" aria-label="Archived messages">' +
      "<li>Quarterly report (archived)</li><li>Holiday schedule (archived)</li><li>Old invoice (archived)</li></ul>";
  }
  function renderSettings() {
    panel.innerHTML = '<h2 id="panel-title">Settings</h2>' +
      '<div class="field inline"><button type="button" role="switch" id="notifications-switch" aria-checked="' +
      settings.notifications + '" class="secondary">Email notifications</button></div>' +
      '<div class="field"><label for="display-name">Display name</label>' +
      '<input type="text" id="display-name" value="' + esc(settings.displayName) + '"></div>' +
      '<button type="button" id="save-settings">Save settings</button> <span id="settings-status" role="status"></span>';
    var sw = document.getElementById("notifications-switch");
    sw.addEventListener("click", function () {
      settings.notifications = !settings.notifications;
      sw.setAttribute("aria-checked", String(settings.notifications));
    });
    document.getElementById("save-settings").addEventListener("click", function () {
      settings.displayName = document.getElementById("display-name").value;
      document.getElementById("settings-status").textContent = "Settings saved";
    });
  }
  var views = { inbox: renderInbox, archive: renderArchive, settings: renderSettings };

  function show(key, push) {
    if (!views[key]) { key = "inbox"; }
    tabs.forEach(function (t) {
      var on = t.getAttribute("data-tab") === key;
      t.setAttribute("aria-selected", on ? "true" : "false");
      t.tabIndex = on ? 0 : -1;
    });
    panel.setAttribute("aria-labelledby", "tab-" + key);
    views[key]();
    document.title = "Mailbox – " + key.charAt(0).toUpperCase() + key.slice(1);
    if (push) { history.pushState({ tab: key }, "", "/spa/" + key); }
  }
  tabs.forEach(function (t, i) {
    t.addEventListener("click", function () { show(t.getAttribute("data-tab"), true); });
    t.addEventListener("keydown", function (ev) {
      var next = null;
      if (ev.key === "ArrowRight") { next = tabs[(i + 1) % tabs.length]; }
      if (ev.key === "ArrowLeft") { next = tabs[(i + tabs.length - 1) % tabs.length]; }
      if (next) { ev.preventDefault(); next.focus(); show(next.getAttribute("data-tab"), true); }
    });
  });
  window.addEventListener("popstate", function (ev) {
    show(ev.state && ev.state.tab ? ev.state.tab : panel.getAttribute("data-initial-tab"), false);
  });
  inboxCount = 5;
  var initial = panel.getAttribute("data-initial-tab");
  history.replaceState({ tab: initial }, "", location.href);
  show(initial, false);

  // A long poll that does not touch the DOM: the network is never idle, but the DOM does settle. The next
  // request leaves as the last one is answered, so one is always in flight, however late timers fire on a
  // busy machine (a setInterval poll left gaps long enough to count as idle).
  window.__demoPings = 0;
  function poll() {
    fetch("/api/ping?hold=300", { cache: "no-store" }).then(function () {
      window.__demoPings += 1;
      poll();
    }).catch(function () { setTimeout(poll, 400); });
  }
  poll();
})();
