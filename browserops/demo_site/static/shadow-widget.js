// <shadow-widget> (open shadow root) containing <deep-widget> (a second, nested open shadow root).
(function () {
  var STYLE =
    "<style>" +
    ":host { display: block; border: 3px solid #000; padding: .8rem; margin: .8rem 0; max-width: 32rem; }" +
    "label { font-weight: 600; display: block; }" +
    "input { font: inherit; border: 2px solid #000; padding: .3rem; }" +
    "button { font: inherit; padding: .4rem .9rem; border: 2px solid #000; background: #000; color: #fff; cursor: pointer; }" +
    "button:focus, input:focus { outline: 3px solid #000; outline-offset: 2px; box-shadow: 0 0 0 6px #ffd400; }" +
    "</style>";
  class DeepWidget extends HTMLElement {
    connectedCallback() {
      if (this.shadowRoot) { return; }
      var root = this.attachShadow({ mode: "open" });
      root.innerHTML = STYLE +
        '<p>Nested shadow root</p>' +
        '<button type="button" id="deep-button">Deep shadow button</button>' +
        '<p id="deep-status" role="status">Deep clicked 0</p>';
      var n = 0;
      root.getElementById("deep-button").addEventListener("click", function () {
        n += 1;
        root.getElementById("deep-status").textContent = "Deep clicked " + n;
      });
    }
  }
  class ShadowWidget extends HTMLElement {
    connectedCallback() {
      if (this.shadowRoot) { return; }
      var root = this.attachShadow({ mode: "open" });
      root.innerHTML = STYLE +
        '<h2>Shadow widget</h2>' +
        '<label for="shadow-input">Shadow input</label>' +
        '<input type="text" id="shadow-input" name="shadow_input">' +
        '<p><button type="button" id="shadow-button">Shadow button</button></p>' +
        '<p id="shadow-status" role="status">Shadow clicked 0</p>' +
        '<p id="shadow-echo"></p>' +
        '<deep-widget id="deep-host"></deep-widget>';
      var n = 0;
      root.getElementById("shadow-button").addEventListener("click", function () {
        n += 1;
        var text = root.getElementById("shadow-input").value;
        root.getElementById("shadow-status").textContent = "Shadow clicked " + n;
        root.getElementById("shadow-echo").textContent = text ? "Shadow input value: " + text : "";
      });
    }
  }
  if (!customElements.get("deep-widget")) { customElements.define("deep-widget", DeepWidget); }
  if (!customElements.get("shadow-widget")) { customElements.define("shadow-widget", ShadowWidget); }
})();
