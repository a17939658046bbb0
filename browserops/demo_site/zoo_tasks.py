"""What the widget zoo asks of an element layer: per widget, the element a screen reader announces (role,
name, state) and a task done through it, checked by reading the widget's own state on the page.

Shared by the zoo's tests (``tests/realweb/test_zoo.py``) and ``bench/widgets.py`` so both sides of the
benchmark get the same pages and tasks. A step names its target as a person would (role + accessible name);
each side finds it in its own listing/snapshot and acts with its own tools. ``check`` is a JavaScript
expression over the page (the library's API or DOM state) that is true once the task is done; it is run by the
test harness, never by the tool under test.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Step:
    action: str  # click, type, select, press
    role: str
    name: str
    text: str | None = None
    options: tuple[str, ...] | None = None
    key: str | None = None  # press: the key pressed on the target


@dataclass(frozen=True)
class Task:
    page: str  # the zoo page (one per library)
    widget: str
    role: str  # the element as listed
    name: str
    steps: tuple[Step, ...]
    check: str
    state: dict[str, Any] = field(default_factory=dict)  # listed state that must hold before acting

    @property
    def id(self) -> str:
        return f"{self.page}:{self.widget}"


def _t(page: str, widget: str, role: str, name: str, check: str, *steps: Step, **state: Any) -> Task:
    return Task(page, widget, role, name, steps, check, state)


TASKS: tuple[Task, ...] = (
    # jQuery UI
    _t("jqueryui", "autocomplete", "textbox", "Programming language", "$('#tags').val() === 'JavaScript'",
       Step("select", "textbox", "Programming language", text="JavaScript")),
    _t("jqueryui", "datepicker", "textbox", "Arrival date", "$('#when').val() === '11/21/2016'",
       Step("type", "textbox", "Arrival date", text="11/21/2016")),
    # jQuery UI's slider handle is a bare <span tabindex=0> (no role, no name): no screen reader announces a
    # slider; browserops lists it focusable, its name guessed from the container the page labelled + class words.
    _t("jqueryui", "slider", "focusable", "Volume (slider handle)", "$('#slider').slider('value') === 21",
       Step("press", "focusable", "Volume (slider handle)", key="ArrowRight")),
    _t("jqueryui", "spinner", "spinbutton", "Guests", "$('#spinner').spinner('value') === 3",
       Step("press", "spinbutton", "Guests", key="ArrowUp"), value="2"),
    _t("jqueryui", "tabs", "tab", "Details", "$('#tabs').tabs('option', 'active') === 1",
       Step("click", "tab", "Details"), expanded=False),
    _t("jqueryui", "accordion", "tab", "Returns", "$('#accordion').accordion('option', 'active') === 1",
       Step("click", "tab", "Returns"), expanded=False),
    _t("jqueryui", "menu", "menuitem", "Print", "$('#menu-out').text() === 'Print'",
       Step("click", "menuitem", "Print")),
    _t("jqueryui", "dialog", "button", "Delete account", "$('#dialog-out').text() === 'cancelled'",
       Step("click", "button", "Delete account"), Step("click", "button", "Cancel")),
    _t("jqueryui", "icon-only", "clickable", "trash", "$('#trash-out').text() === '1'",
       Step("click", "clickable", "trash")),
    # Tom Select
    _t("tomselect", "single", "combobox", "Country", "tsCountry.getValue() === 'jp'",
       Step("select", "combobox", "Country", text="Japan"), expanded=False),
    _t("tomselect", "multi", "combobox", "Toppings",
       "JSON.stringify(tsToppings.getValue()) === JSON.stringify(['ol', 'ch'])",
       Step("select", "combobox", "Toppings", options=("Olives", "Cheese")), expanded=False),
    # flatpickr
    _t("flatpickr", "date", "textbox", "Check-in date", "fpDate.input.value === '2016-11-21'",
       Step("type", "textbox", "Check-in date", text="2016-11-21")),
    _t("flatpickr", "time", "textbox", "Alarm time", "fpTime.input.value === '13:23'",
       Step("type", "textbox", "Alarm time", text="13:23")),
    # Choices.js
    _t("choices", "single", "combobox", "City", "chCity.getValue(true) === 'tok'",
       Step("select", "combobox", "City", text="Tokyo")),
    _t("choices", "multi", "combobox", "Languages",
       "JSON.stringify(chLangs.getValue(true)) === JSON.stringify(['de', 'zh'])",
       Step("select", "combobox", "Languages", options=("German", "Chinese"))),
    # Bootstrap 5
    _t("bootstrap", "dropdown", "button", "Actions", "document.getElementById('dd-out').textContent === 'Archive'",
       Step("click", "button", "Actions"), Step("click", "link", "Archive"), expanded=False),
    _t("bootstrap", "tabs", "tab", "Profile",
       "document.getElementById('profile-tab').classList.contains('active')", Step("click", "tab", "Profile")),
    _t("bootstrap", "accordion", "button", "How long is delivery?",
       "document.getElementById('faq-2').classList.contains('show')",
       Step("click", "button", "How long is delivery?"), expanded=False),
    _t("bootstrap", "modal", "button", "Open settings", "document.getElementById('modal-out').textContent === 'dark'",
       Step("click", "button", "Open settings"), Step("click", "switch", "Dark mode"),
       Step("click", "button", "Save changes")),
    _t("bootstrap", "toast", "button", "Notify me",
       "!document.getElementById('toast').classList.contains('show') && window.toastSeen === true",
       Step("click", "button", "Notify me"), Step("click", "button", "Dismiss reminder")),
    # Shoelace (web components, open shadow DOM)
    _t("shoelace", "button", "button", "Say hello", "document.getElementById('greet-out').textContent === 'hello'",
       Step("click", "button", "Say hello")),
    _t("shoelace", "icon-button", "button", "Add to favourites",
       "document.getElementById('fav-out').textContent === '1'", Step("click", "button", "Add to favourites")),
    _t("shoelace", "input", "textbox", "Nickname", "document.getElementById('nick').value === 'Ada'",
       Step("type", "textbox", "Nickname", text="Ada")),
    _t("shoelace", "switch", "switch", "Email notifications", "document.getElementById('notify').checked === true",
       Step("click", "switch", "Email notifications"), checked=False),
    _t("shoelace", "checkbox", "checkbox", "I accept the terms", "document.getElementById('terms').checked === true",
       Step("click", "checkbox", "I accept the terms"), checked=False),
    _t("shoelace", "select", "combobox", "Size", "document.getElementById('size').value === 'l'",
       Step("select", "combobox", "Size", text="Large"), expanded=False),
    _t("shoelace", "details", "button", "Shipping details", "document.getElementById('more').open === true",
       Step("click", "button", "Shipping details"), expanded=False),
    _t("shoelace", "tabs", "tab", "Advanced",
       "document.querySelector('sl-tab[panel=advanced]').active === true", Step("click", "tab", "Advanced")),
    _t("shoelace", "range", "slider", "Brightness", "document.getElementById('brightness').value === 6",
       Step("press", "slider", "Brightness", key="ArrowRight"), value="5"),
    # React (framework-rendered)
    _t("react", "todo", "textbox", "New todo", "JSON.stringify(appState.todos) === JSON.stringify(['Buy milk'])",
       Step("type", "textbox", "New todo", text="Buy milk"), Step("click", "button", "Add")),
    _t("react", "counter", "button", "Clicked 0 times", "appState.count === 1",
       Step("click", "button", "Clicked 0 times")),
    _t("react", "checkbox", "checkbox", "Subscribe", "appState.agree === true",
       Step("click", "checkbox", "Subscribe"), checked=False),
    _t("react", "select", "combobox", "Plan", "appState.plan === 'team'",
       Step("select", "combobox", "Plan", text="Team"), value="Basic"),
    _t("react", "icon-only", "clickable", "Like", "appState.likes === 1", Step("click", "clickable", "Like")),
    # jsTree
    _t("jstree", "expand", "treeitem", "Documents", "$('#tree').jstree('is_open', 'n-docs') === true",
       Step("press", "treeitem", "Documents", key="ArrowRight"), expanded=False),
    _t("jstree", "select", "treeitem", "Pictures", "$('#tree-out').text() === 'n-pics'",
       Step("click", "treeitem", "Pictures"), expanded=False),
    # Native HTML controls
    _t("native", "date", "textbox", "Birthday", "document.getElementById('d').value === '2016-11-21'",
       Step("type", "textbox", "Birthday", text="11/21/2016")),
    _t("native", "time", "textbox", "Meeting time", "document.getElementById('t').value === '13:23'",
       Step("type", "textbox", "Meeting time", text="1:23 PM")),
    _t("native", "datetime", "textbox", "Departure", "document.getElementById('dt').value === '2016-11-21T13:23'",
       Step("type", "textbox", "Departure", text="Nov 21 2016 1:23 PM")),
    _t("native", "month", "textbox", "Billing month", "document.getElementById('m').value === '2016-11'",
       Step("type", "textbox", "Billing month", text="Nov 2016")),
    _t("native", "week", "textbox", "Vacation week", "document.getElementById('w').value === '2016-W47'",
       Step("type", "textbox", "Vacation week", text="21.11.2016")),
    _t("native", "multi-select", "listbox", "Fruits",
       "JSON.stringify([...document.getElementById('fruits').selectedOptions].map(o => o.text)) === "
       "JSON.stringify(['Banana', 'Date'])", Step("select", "listbox", "Fruits", options=("Banana", "Date"))),
    _t("native", "range", "slider", "Loudness", "document.getElementById('vol').value === '4'",
       Step("press", "slider", "Loudness", key="ArrowRight"), value="3"),
    _t("native", "covered-button", "button", "Send report", "document.getElementById('send-out').textContent === 'yes'",
       Step("click", "button", "Send report")),
)


def pages() -> list[str]:
    return sorted({t.page for t in TASKS})
