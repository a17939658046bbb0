"""How browser_overlay_act types: plain fields get the text inserted at once (and their listeners see it), fields
whose page listens to keys get it key by key, and a field out of sight is scrolled to first — in real Chromium."""

from __future__ import annotations

from browserops.demo_site import DemoSite
from browserops.tools.context import ToolContext
from tests.tools.helpers import by_name, listed, ok, open_page


async def _type(ctx: ToolContext, name: str, text: str) -> dict:  # type: ignore[type-arg]
    items = await listed(ctx)
    return await ok(ctx, "browser_overlay_act", index=by_name(items, name)["n"], action="type", text=text)


async def test_plain_fields_get_the_text_at_once_and_the_page_sees_it(tool_ctx: ToolContext,
                                                                      demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/expense")
    page = tool_ctx.session.page
    await page.evaluate(
        """() => {
          document.querySelector('main').insertAdjacentHTML('afterbegin',
            '<label>Mirror <input id="mirror" value="old"></label><p id="mirror-out"></p>' +
            '<label>Controlled <input id="controlled"></label><p id="controlled-out"></p>' +
            '<label>Remarks <textarea id="remarks"></textarea></label>');
          const mirror = document.getElementById('mirror');
          mirror.addEventListener('input', () => {
            document.getElementById('mirror-out').textContent = 'input saw ' + mirror.value; });
          // A React-style controlled input: React's value tracker wraps the node's value setter and calls
          // onChange only when an input event brings a value the tracker has not seen through that setter
          // (so assigning .value and firing a synthetic event goes unnoticed); the component then writes its
          // state back into the field.
          const c = document.getElementById('controlled');
          const native = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value');
          let tracked = c.value;
          Object.defineProperty(c, 'value', { configurable: true, get() { return native.get.call(this); },
            set(v) { tracked = String(v); native.set.call(this, v); } });
          let state = '';
          c.addEventListener('input', () => {
            if (c.value === tracked) { return; }
            tracked = c.value;
            state = c.value;
            c.value = state;
            document.getElementById('controlled-out').textContent = 'state ' + state;
          });
        }"""
    )
    typed = await _type(tool_ctx, "Mirror", "Ada Lovelace")
    assert typed["typed_as"] == "insert" and typed["value"] == "Ada Lovelace" and typed["matches"] is True
    assert typed["element"]["state"]["focused"] is True  # focused first, as the seed asks
    assert await page.inner_text("#mirror-out") == "input saw Ada Lovelace"  # replaced, not appended
    typed = await _type(tool_ctx, "Controlled", "Grace Hopper")
    assert typed["typed_as"] == "insert" and typed["value"] == "Grace Hopper"
    assert await page.inner_text("#controlled-out") == "state Grace Hopper"
    typed = await _type(tool_ctx, "Remarks", "Первая строка 第一")
    assert typed["typed_as"] == "insert" and typed["value"] == "Первая строка 第一"
    assert await page.input_value("#remarks") == "Первая строка 第一"


async def test_fields_the_page_listens_to_keys_on_are_typed_key_by_key(tool_ctx: ToolContext,
                                                                      demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/expense")
    page = tool_ctx.session.page
    await page.evaluate(
        """() => {
          document.querySelector('main').insertAdjacentHTML('afterbegin',
            '<label>Counted <input id="counted"></label>' +
            '<label>Inline <input id="inline" onkeyup="this.dataset.ups = Number(this.dataset.ups || 0) + 1"></label>' +
            '<div id="keybox"><label>Delegated <input id="delegated"></label></div>' +
            '<label>Anywhere <input id="anywhere"></label>');
          const counted = document.getElementById('counted');
          counted.addEventListener('keyup', () => { counted.dataset.ups = Number(counted.dataset.ups || 0) + 1; });
          const box = document.getElementById('keybox');
          box.addEventListener('keydown', () => { box.dataset.downs = Number(box.dataset.downs || 0) + 1; });
          // A page-wide shortcut listener: it does not make every field a key-by-key one.
          document.addEventListener('keydown', () => {});
        }"""
    )
    typed = await _type(tool_ctx, "Counted", "abc12")
    assert typed["typed_as"] == "keys" and typed["value"] == "abc12"
    assert await page.get_attribute("#counted", "data-ups") == "5"
    typed = await _type(tool_ctx, "Inline", "xyz")
    assert typed["typed_as"] == "keys" and await page.get_attribute("#inline", "data-ups") == "3"
    typed = await _type(tool_ctx, "Delegated", "four")
    assert typed["typed_as"] == "keys" and await page.get_attribute("#keybox", "data-downs") == "4"
    typed = await _type(tool_ctx, "Anywhere", "plain")
    assert typed["typed_as"] == "insert" and typed["value"] == "plain"


async def test_widgets_editors_and_frames_are_typed_key_by_key(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/expense")
    page = tool_ctx.session.page
    # The ARIA combobox filters its options as it is typed into.
    typed = await _type(tool_ctx, "Currency", "EU")
    assert typed["typed_as"] == "keys" and typed["value"] == "EU"
    assert await page.get_attribute("#currency-input", "aria-expanded") == "true"
    await page.evaluate(
        """() => document.querySelector('main').insertAdjacentHTML('afterbegin',
             '<div contenteditable="true" aria-label="Editor" style="min-height:2em"></div>')"""
    )
    typed = await _type(tool_ctx, "Editor", "rich text")
    assert typed["typed_as"] == "keys" and typed["value"] == "rich text"
    await open_page(tool_ctx, demo_site.base_url + "/frames")
    typed = await _type(tool_ctx, "Inner name", "Ada")  # in a child frame its listeners cannot be asked about
    assert typed["typed_as"] == "keys" and typed["value"] == "Ada"


async def test_fields_out_of_sight_are_scrolled_to_even_with_smooth_scrolling(tool_ctx: ToolContext,
                                                                             demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/expense")
    page = tool_ctx.session.page
    await page.evaluate(
        """() => {
          document.documentElement.style.scrollBehavior = 'smooth';
          document.querySelector('main').insertAdjacentHTML('beforeend',
            '<div style="height:3000px"></div><label>Far field <input id="far"></label>' +
            '<button type="button" id="far-button" onclick="this.textContent = \\'Far clicked\\'">Far button</button>' +
            '<div id="panel" style="height:80px;overflow:auto"><div style="height:600px"></div>' +
            '<label>Panel field <input id="in-panel"></label></div>');
        }"""
    )
    data = await ok(tool_ctx, "browser_list_interactives", limit=100)
    items = data["items"]
    assert by_name(items, "Far field")["n"] >= data["off_screen_from"]  # off-screen
    typed = await ok(tool_ctx, "browser_overlay_act", index=by_name(items, "Far field")["n"], action="type",
                     text="far away")
    assert typed["value"] == "far away"
    in_view = """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
                   return r.top >= 0 && r.bottom <= window.innerHeight; }"""
    assert await page.evaluate(in_view, "#far")
    await ok(tool_ctx, "browser_overlay_act", index=by_name(items, "Far button")["n"])
    assert await page.inner_text("#far-button") == "Far clicked"
    typed = await ok(tool_ctx, "browser_overlay_act", index=by_name(items, "Panel field")["n"], action="type",
                     text="inside")
    assert typed["value"] == "inside"
    assert await page.evaluate(
        """() => { const p = document.getElementById('panel').getBoundingClientRect();
                   const r = document.getElementById('in-panel').getBoundingClientRect();
                   return r.top >= p.top && r.bottom <= p.bottom; }"""
    )


async def test_a_field_that_shows_the_typed_value_in_the_pages_format_holds_what_was_typed(
        tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    """A field that formats what is typed (an amount with grouping, a decimal comma, a date as the language writes
    it) holds the typed value in the page's language; one that cut it does not."""
    await open_page(tool_ctx, demo_site.base_url + "/expense")
    await tool_ctx.session.page.evaluate(
        """() => {
          // Each field reformats itself on every input, as number and date widgets do (the formatter in the lang
          // of the section around it).
          document.querySelector('main').insertAdjacentHTML('afterbegin',
            '<section lang="en-US"><label>Total <input id="total"></label></section>' +
            '<section lang="ru"><label>Цена <input id="price"></label>' +
            '<label>Дата <input id="day"></label><label>Код <input id="code" maxlength="3"></label></section>');
          const number = (el, lang) => el.addEventListener('input', () => {
            const n = Number(el.value.replace(/[^0-9.]/g, ''));
            if (el.value && !Number.isNaN(n)) {
              el.value = new Intl.NumberFormat(lang, {minimumFractionDigits: el.id === 'price' ? 2 : 0}).format(n);
            }
          });
          number(document.getElementById('total'), 'en-US');
          number(document.getElementById('price'), 'ru');
          const day = document.getElementById('day');
          day.addEventListener('input', () => {
            const m = /^(\\d{4})-(\\d{2})-(\\d{2})$/.exec(day.value);
            if (m) { day.value = `${m[3]}.${m[2]}.${m[1]}`; }
          });
        }"""
    )
    total = await _type(tool_ctx, "Total", "13250")
    assert total["value"] == "13,250" and total["matches"] is True
    price = await _type(tool_ctx, "Цена", "899.00")
    assert price["value"].replace("\u00a0", " ") == "899,00" and price["matches"] is True
    day = await _type(tool_ctx, "Дата", "2026-11-02")
    assert day["value"] == "02.11.2026" and day["matches"] is True
    code = await _type(tool_ctx, "Код", "13250")
    assert code["value"] == "132" and code["matches"] is False and "something other" in code["note"]
