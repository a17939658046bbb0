// <consent-banner>: a cookie-consent overlay rendered inside an open shadow root.
(function () {
  if (customElements.get("consent-banner")) { return; }
  class ConsentBanner extends HTMLElement {
    connectedCallback() {
      if (this.shadowRoot) { return; }
      var root = this.attachShadow({ mode: "open" });
      root.innerHTML =
        '<style>' +
        ':host { position: fixed; inset: 0; z-index: 1000; display: flex; align-items: flex-end;' +
        '        justify-content: center; background: rgba(0,0,0,.55); font: 1rem/1.5 system-ui, sans-serif; }' +
        '.box { background: #fff; color: #000; border: 3px solid #000; padding: 1rem 1.5rem; width: 100%; max-width: 48rem; }' +
        'button { font: inherit; padding: .4rem .9rem; border: 2px solid #000; background: #000; color: #fff; cursor: pointer; }' +
        'button.secondary { background: #fff; color: #000; }' +
        'button:focus { outline: 3px solid #000; outline-offset: 2px; box-shadow: 0 0 0 6px #ffd400; }' +
        '</style>' +
        '<div class="box cookie-consent" role="dialog" aria-labelledby="t" aria-describedby="d">' +
        '<h2 id="t">We value your privacy</h2>' +
        '<p id="d">We use cookies to improve your experience. Choose whether to accept them.</p>' +
        '<button type="button" data-value="all">Accept all</button> ' +
        '<button type="button" class="secondary" data-value="necessary">Reject</button>' +
        '</div>';
      var host = this;
      root.querySelectorAll("button").forEach(function (b) {
        b.addEventListener("click", function () {
          document.cookie = "consent=" + b.getAttribute("data-value") + "; path=/; max-age=31536000; SameSite=Lax";
          host.remove();
        });
      });
    }
  }
  customElements.define("consent-banner", ConsentBanner);
})();
