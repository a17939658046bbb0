"""What the widget zoo asks of an element layer: per widget, a task as a person would put it ("move the Volume
slider to 70", "report the post by @cierra"), the control it is done through as the person sees it, and a
check of the widget's own state on the page.

Shared by the zoo's tests (``tests/realweb/test_zoo.py``) and ``bench/widgets.py``, so both sides of the
benchmark get the same pages and tasks. Nothing in a task is one tool's own vocabulary: a step names its control
by what the page shows (its label, its visible text, or for an icon the word the page puts beside or on it) and,
where the page gives it one, its role in the accessibility tree (``role=None``: the page gives it none, as for
jQuery UI's slider handle). Each side finds the control in its own listing or snapshot and acts with its own
tools (``tests/realweb/zoo_driver.py``, ``bench/widgets.py``). Dates go in as ISO text where a native field
would otherwise need one tool's conversion (``2016-11-21``), and in the field's own format where the field is a
text field that expects it (jQuery UI's ``11/21/2016``). ``check`` is a JavaScript expression over the page (the
library's API or DOM state), true once the task is done; the harness runs it, never the tool under test.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Step:
    action: str  # click, type, choose (options of a select-like control), set (a slider's value), press (a key)
    label: str  # the control as the page shows it: its label, its text, the word on or beside an icon
    role: str | None = None  # its role in the accessibility tree; None when the page gives it none
    text: str | None = None  # type: the text
    options: tuple[str, ...] = ()  # choose: the options, as shown
    value: int | None = None  # set: the value wanted
    key: str | None = None  # press: the key
    within: str | None = None  # repeated controls: visible text of the container it belongs to ("@cierra")


@dataclass(frozen=True)
class Task:
    page: str  # the zoo page (one per library)
    widget: str
    goal: str  # the task as a person would say it
    steps: tuple[Step, ...]
    check: str
    state: dict[str, Any] = field(default_factory=dict)  # announced state before acting (browserops' tests)

    @property
    def id(self) -> str:
        return f"{self.page}:{self.widget}"

    @property
    def target(self) -> Step:
        """The control the task is about (its first step's): "listed" means a tool shows it."""
        return self.steps[0]


def _t(page: str, widget: str, goal: str, check: str, *steps: Step, **state: Any) -> Task:
    return Task(page, widget, goal, steps, check, state)


def click(label: str, role: str | None, within: str | None = None) -> Step:
    return Step("click", label, role, within=within)


def type_(label: str, role: str | None, text: str) -> Step:
    return Step("type", label, role, text=text)


def choose(label: str, role: str | None, *options: str) -> Step:
    return Step("choose", label, role, options=options)


def set_(label: str, role: str | None, value: int) -> Step:
    return Step("set", label, role, value=value)


def press(label: str, role: str | None, key: str) -> Step:
    return Step("press", label, role, key=key)


WIDGET_TASKS: tuple[Task, ...] = (
    # jQuery UI
    _t("jqueryui", "autocomplete", "pick JavaScript as the programming language", "$('#tags').val() === 'JavaScript'",
       choose("Programming language", "textbox", "JavaScript")),
    _t("jqueryui", "datepicker", "set the arrival date to 11/21/2016", "$('#when').val() === '11/21/2016'",
       type_("Arrival date", "textbox", "11/21/2016")),
    # The handle is a bare <span tabindex=0>: no role, no name; the page shows "Volume" above the slider.
    _t("jqueryui", "slider", "move the Volume slider to 70", "$('#slider').slider('value') === 70",
       set_("Volume", None, 70)),
    _t("jqueryui", "spinner", "set Guests to 3", "$('#spinner').spinner('value') === 3",
       type_("Guests", "spinbutton", "3"), value="2"),
    _t("jqueryui", "tabs", "open the Details tab", "$('#tabs').tabs('option', 'active') === 1",
       click("Details", "tab"), expanded=False),
    _t("jqueryui", "accordion", "open the Returns section", "$('#accordion').accordion('option', 'active') === 1",
       click("Returns", "tab"), expanded=False),
    _t("jqueryui", "menu", "choose Print in the menu", "$('#menu-out').text() === 'Print'", click("Print", "menuitem")),
    _t("jqueryui", "dialog", "start deleting the account, then cancel", "$('#dialog-out').text() === 'cancelled'",
       click("Delete account", "button"), click("Cancel", "button")),
    # An icon with no role and no name beside the text "Trash:" (its picture is a trash can).
    _t("jqueryui", "icon-only", "delete an item with the trash icon", "$('#trash-out').text() === '1'",
       click("Trash", None)),
    # Tom Select
    _t("tomselect", "single", "choose Japan as the country", "tsCountry.getValue() === 'jp'",
       choose("Country", "combobox", "Japan"), expanded=False),
    _t("tomselect", "multi", "choose Olives and Cheese as toppings",
       "JSON.stringify(tsToppings.getValue()) === JSON.stringify(['ol', 'ch'])",
       choose("Toppings", "combobox", "Olives", "Cheese"), expanded=False),
    # flatpickr (its own format is ISO)
    _t("flatpickr", "date", "set the check-in date to 2016-11-21", "fpDate.input.value === '2016-11-21'",
       type_("Check-in date", "textbox", "2016-11-21")),
    _t("flatpickr", "time", "set the alarm to 13:23", "fpTime.input.value === '13:23'",
       type_("Alarm time", "textbox", "13:23")),
    # Choices.js
    _t("choices", "single", "choose Tokyo as the city", "chCity.getValue(true) === 'tok'",
       choose("City", "combobox", "Tokyo")),
    _t("choices", "multi", "choose German and Chinese as languages",
       "JSON.stringify(chLangs.getValue(true)) === JSON.stringify(['de', 'zh'])",
       choose("Languages", "combobox", "German", "Chinese")),
    # Bootstrap 5
    _t("bootstrap", "dropdown", "archive it from the Actions menu",
       "document.getElementById('dd-out').textContent === 'Archive'",
       click("Actions", "button"), click("Archive", "link"), expanded=False),
    _t("bootstrap", "tabs", "open the Profile tab",
       "document.getElementById('profile-tab').classList.contains('active')", click("Profile", "tab")),
    _t("bootstrap", "accordion", "read how long delivery is (open it)",
       "document.getElementById('faq-2').classList.contains('show')",
       click("How long is delivery?", "button"), expanded=False),
    _t("bootstrap", "modal", "turn on dark mode in the settings and save",
       "document.getElementById('modal-out').textContent === 'dark'",
       click("Open settings", "button"), click("Dark mode", "switch"), click("Save changes", "button")),
    _t("bootstrap", "toast", "ask for a reminder, then dismiss it",
       "!document.getElementById('toast').classList.contains('show') && window.toastSeen === true",
       click("Notify me", "button"), click("Dismiss reminder", "button")),
    # Shoelace (web components, open shadow DOM)
    _t("shoelace", "button", "say hello", "document.getElementById('greet-out').textContent === 'hello'",
       click("Say hello", "button")),
    _t("shoelace", "icon-button", "add it to favourites", "document.getElementById('fav-out').textContent === '1'",
       click("Add to favourites", "button")),
    _t("shoelace", "input", "set the nickname to Ada", "document.getElementById('nick').value === 'Ada'",
       type_("Nickname", "textbox", "Ada")),
    _t("shoelace", "switch", "turn on email notifications", "document.getElementById('notify').checked === true",
       click("Email notifications", "switch"), checked=False),
    _t("shoelace", "checkbox", "accept the terms", "document.getElementById('terms').checked === true",
       click("I accept the terms", "checkbox"), checked=False),
    _t("shoelace", "select", "choose the Large size", "document.getElementById('size').value === 'l'",
       choose("Size", "combobox", "Large"), expanded=False),
    _t("shoelace", "details", "show the shipping details", "document.getElementById('more').open === true",
       click("Shipping details", "button"), expanded=False),
    _t("shoelace", "tabs", "open the Advanced tab", "document.querySelector('sl-tab[panel=advanced]').active === true",
       click("Advanced", "tab")),
    _t("shoelace", "range", "set Brightness to 8", "document.getElementById('brightness').value === 8",
       set_("Brightness", "slider", 8), value="5"),
    # React (framework-rendered)
    _t("react", "todo", "add the todo Buy milk", "JSON.stringify(appState.todos) === JSON.stringify(['Buy milk'])",
       type_("New todo", "textbox", "Buy milk"), click("Add", "button")),
    _t("react", "counter", "press the counter once", "appState.count === 1", click("Clicked 0 times", "button")),
    _t("react", "checkbox", "subscribe", "appState.agree === true", click("Subscribe", "checkbox"), checked=False),
    _t("react", "select", "choose the Team plan", "appState.plan === 'team'", choose("Plan", "combobox", "Team"),
       value="Basic"),
    # A heart icon (a span with a click listener and the title "Like") beside "0 likes".
    _t("react", "icon-only", "like it", "appState.likes === 1", click("Like", None)),
    # jsTree
    _t("jstree", "expand", "open the Documents folder", "$('#tree').jstree('is_open', 'n-docs') === true",
       press("Documents", "treeitem", "ArrowRight"), expanded=False),
    _t("jstree", "select", "select Pictures", "$('#tree-out').text() === 'n-pics'", click("Pictures", "treeitem"),
       expanded=False),
    # Native HTML controls (dates in ISO: what Playwright's fill needs, given to both sides)
    _t("native", "date", "set the birthday to 2016-11-21", "document.getElementById('d').value === '2016-11-21'",
       type_("Birthday", "textbox", "2016-11-21")),
    _t("native", "time", "set the meeting time to 13:23", "document.getElementById('t').value === '13:23'",
       type_("Meeting time", "textbox", "13:23")),
    _t("native", "datetime", "set the departure to 2016-11-21 13:23",
       "document.getElementById('dt').value === '2016-11-21T13:23'",
       type_("Departure", "textbox", "2016-11-21T13:23")),
    _t("native", "month", "set the billing month to 2016-11", "document.getElementById('m').value === '2016-11'",
       type_("Billing month", "textbox", "2016-11")),
    _t("native", "week", "set the vacation week to week 47 of 2016",
       "document.getElementById('w').value === '2016-W47'", type_("Vacation week", "textbox", "2016-W47")),
    _t("native", "multi-select", "choose Banana and Date as fruits",
       "JSON.stringify([...document.getElementById('fruits').selectedOptions].map(o => o.text)) === "
       "JSON.stringify(['Banana', 'Date'])", choose("Fruits", "listbox", "Banana", "Date")),
    _t("native", "range", "turn Loudness up to 7", "document.getElementById('vol').value === '7'",
       set_("Loudness", "slider", 7), value="3"),
    _t("native", "covered-button", "send the report", "document.getElementById('send-out').textContent === 'yes'",
       click("Send report", "button")),
    # Ant Design 5 in Simplified Chinese (issue 34): its selects' inputs are transparent under the shown value, its
    # options have no role (role=option is a zero-size mirror), its buttons space two CJK characters ("确 定").
    _t("antd", "select", "choose B级客户 as the customer level", "appState.level === 'B'",
       choose("客户等级", "combobox", "B级客户")),
    _t("antd", "multi-select", "tag the customer 重点 and 海外",
       "JSON.stringify(appState.tags) === JSON.stringify(['重点', '海外'])",
       choose("客户标签", "combobox", "重点", "海外")),
    _t("antd", "search-select", "choose 厦门 as the city", "appState.city === '厦门'",
       choose("所在城市", "combobox", "厦门")),
    _t("antd", "date-picker", "set the signing date to 2026-11-02", "appState.day === '2026-11-02'",
       type_("签约日期", "textbox", "2026-11-02"), press("签约日期", "textbox", "Enter")),
    _t("antd", "number", "set the budget to 13250 (shown 13,250)", "appState.amount === 13250",
       type_("年度预算", "spinbutton", "13250")),
    _t("antd", "switch", "turn 启用 on", "appState.active === true", click("启用", "switch"), checked=False),
    _t("antd", "popconfirm", "delete the customer and confirm", "appState.deleted === 1",
       click("删除客户", "button"), click("确定", "button")),
    # Element Plus 2 (Vue 3) in Simplified Chinese: its selects' inputs sit in a transparent wrapper under the
    # placeholder, its switch's input is a zero-size box beside the drawn switch.
    _t("element_plus", "select", "choose 包装 as the supplier type", "appState.kind === 'pack'",
       choose("供应商类别", "combobox", "包装")),
    _t("element_plus", "multi-select", "certify CE and FSC",
       "JSON.stringify(appState.certs) === JSON.stringify(['CE', 'FSC'])", choose("资质认证", "combobox", "CE", "FSC")),
    _t("element_plus", "search-select", "choose 宁波 as the city", "appState.city === '宁波'",
       choose("所在城市", "combobox", "宁波")),
    _t("element_plus", "date-picker", "set the start date to 2026-11-02", "appState.day === '2026-11-02'",
       type_("合作日期", "combobox", "2026-11-02"), press("合作日期", "combobox", "Enter")),
    _t("element_plus", "number", "order 1250", "appState.amount === 1250", type_("采购数量", "spinbutton", "1250")),
    _t("element_plus", "switch", "turn 启用 on", "appState.active === true", click("启用", "switch"), checked=False),
    _t("element_plus", "popconfirm", "delete the supplier and confirm", "appState.deleted === 1",
       click("删除供应商", "button"), click("确定", "button")),
)

# The same control many times over (issue 19): which one is meant is said by what it belongs to.
REPEATED_TASKS: tuple[Task, ...] = (
    _t("repeated", "feed-more-menu", "report the post by @cierra", "JSON.stringify(shop.reported) === '[\"cierra\"]'",
       click("More", "button", within="@cierra"), click("Report post", "button")),
    _t("repeated", "feed-icon-button", "like the post by @dmitri", "JSON.stringify(shop.liked) === '[\"dmitri\"]'",
       click("Like", "button", within="@dmitri")),
    _t("repeated", "table-row-button", "delete the row Printer toner",
       "JSON.stringify(shop.rows) === JSON.stringify(['Stapler', 'Paper (A4)', 'Envelopes', 'Ink cartridge'])",
       click("Delete", "button", within="Printer toner")),
    _t("repeated", "table-row-link", "edit the row Envelopes", "location.hash === '#edit/envelopes'",
       click("Edit", "link", within="Envelopes")),
    _t("repeated", "product-card", "add the Blue mug to the cart", "JSON.stringify(shop.cart) === '[\"Blue mug\"]'",
       click("Add to cart", "button", within="Blue mug")),
)

TASKS: tuple[Task, ...] = WIDGET_TASKS + REPEATED_TASKS


def pages() -> list[str]:
    return sorted({t.page for t in TASKS})
