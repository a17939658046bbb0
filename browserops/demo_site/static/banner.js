// Dismissable overlays: buttons with [data-dismiss] remove the closest [data-banner-root]
// (or, inside the consent iframe, the iframe itself) after setting [data-set-cookie].
(function () {
  if (window.__demoBannerInstalled) { return; }
  window.__demoBannerInstalled = true;
  document.addEventListener("click", function (ev) {
    var target = ev.target;
    var btn = target && target.closest ? target.closest("[data-dismiss]") : null;
    if (!btn) { return; }
    var cookie = btn.getAttribute("data-set-cookie");
    if (cookie) { document.cookie = cookie + "; path=/; max-age=31536000; SameSite=Lax"; }
    var root = btn.closest("[data-banner-root]");
    if (root) { root.remove(); }
    if (document.body.hasAttribute("data-consent-frame")) {
      // Same origin: remove the iframe; another origin cannot reach it, so ask the page to.
      if (window.frameElement) { window.frameElement.remove(); } else { window.parent.postMessage("consent-closed", "*"); }
    }
  });
})();
