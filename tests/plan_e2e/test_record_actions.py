"""`browserops record` writes the business action, not the keystrokes (issues #18.5, #19.3, #24.4): a repeated
control by the container it is in (``within``), an Escape that closed a menu as a ``press`` step, a pick in a
widget over a hidden select (Tom Select, from npm) as one ``select`` on the widget a person sees, several picks as a
list, a switch without a change event (Shoelace) as a step — then the recording replayed through the real CLI.
A scripted person drives the page (Playwright) while the recorder watches, as tests/plan_e2e/test_record.py does."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Page, expect

from browserops.browser.launch.session import BrowserSession
from browserops.browser.page.user_watch import UserWatch
from browserops.cli.record_cmd import write_recording
from browserops.demo_site import DemoSite
from browserops.demo_site.zoo_site import ZooSite
from browserops.plan.interpret.guard import PREPARE_CLASSES, GuardedTools
from browserops.plan.record.recorder import Recorder
from browserops.plan.record.values import field_key, listed_value, same_values, unlisted_control
from browserops.tools.context import ToolContext
from tests.plan_e2e.helpers import post, server_state
from tests.plan_e2e.test_record import cli, record_while, until


async def test_what_the_person_did_before_the_next_page_loaded_is_still_a_step_of_the_form(
        session: BrowserSession, tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    """A person ticks and submits faster than the recorder takes their clicks in (Django's change form: the tick,
    then Save at once). Here the recorder takes in every event only once the next page shows, the worst case: the
    clicks still resolve in the form's listing, the submit is a step, and the next page's fields are no changes."""
    demo_site.reset()
    watch = UserWatch(session)
    await watch.start()
    tools = GuardedTools(tool_ctx, PREPARE_CLASSES, who="record")
    url = demo_site.base_url + "/expense"
    await tools.need("browser_navigate", {"url": url})
    recorder = Recorder(tools, watch, url)
    events: list[dict[str, object]] = []

    def took_the_submit() -> bool:
        while not watch.events.empty():
            events.append(watch.events.get_nowait())
        return any(e.get("type") == "click" and e.get("submits") for e in events)

    try:
        await recorder.begin()
        page = session.page
        await page.get_by_label("Merchant").fill("Acme Cabs")
        await page.get_by_label("Amount").fill("12.50")
        await page.get_by_label("Date").fill("2026-01-05")
        await page.get_by_label("Category").select_option("Meals")
        await page.get_by_role("heading", name="New expense").click()  # on no control: the recorder lists again
        await page.get_by_label("Billable to client").check()
        await page.get_by_role("button", name="Submit expense").click()
        await expect(page.get_by_text("Expense submitted")).to_be_visible()
        await until(took_the_submit, "the submit's click")
        for event in events:
            await recorder.handle(event)
        recording = recorder.finish()
    finally:
        watch.stop()
    assert [s.get("field") for s in recording.steps] == ["merchant", "amount", "date", "category",
                                                         "billable_to_client", None], recording.steps
    assert recording.inputs == {"merchant": "Acme Cabs", "amount": "12.50", "date": "2026-01-05",
                                "category": "Meals", "billable_to_client": True}
    submit = recording.steps[-1]
    assert submit["kind"] == "submit" and submit["target"] == {"role": "button", "names": ["Submit expense"]}
    assert submit["expect"] == {"text": ["Expense submitted"]}


async def test_record_writes_within_for_a_repeated_control_and_escape_as_a_press(
        session: BrowserSession, tool_ctx: ToolContext, demo_site: DemoSite, workspace: Path) -> None:
    demo_site.reset()

    async def user(page: Page, recorder: Recorder, lines: list[str]) -> None:
        await page.locator("tr", has_text="Stapler").get_by_role("button", name="Delete").click()
        await until(lambda: any(line.startswith("click:") for line in lines), "the delete")
        await page.locator("article", has_text="@bob").locator(".more").click()
        await until(lambda: sum(line.startswith("click:") for line in lines) == 2, "the menu opened")
        await page.keyboard.press("Escape")
        await until(lambda: any(line.startswith("press:") for line in lines), "the Escape")

    recording = await record_while(session, tool_ctx, demo_site.base_url + "/repeated", user)
    delete, more, escape = recording.steps
    assert delete == {"kind": "act", "target": {"role": "button", "names": ["Delete"],
                                                "within": {"role": "row", "names": ["Stapler 2"]}}}
    assert more["target"]["within"] == {"role": "article", "names": ["@bob 3h"]} and "nth" not in more["target"]
    assert escape == {"kind": "press", "key": "Escape", "target": more["target"]}

    demo_site.reset()
    out = workspace / "repeated.yaml"
    write_recording(recording, out, workspace / "repeated.input.yaml")
    code, prepared = await cli(workspace, "prepare", "--steps", str(out))
    assert code == 2, prepared
    # Stapler moves from the second row to the last before the replay: the replay still deletes the stapler.
    post(demo_site.base_url, "/__variant", {"name": "repeated_orders", "value": "A4 paper,Desk lamp,Printer toner,"
                                                                                 "Stapler"})
    code, ran = await cli(workspace, "run", str(prepared["requestId"]), "--confirm", str(prepared["confirmPhrase"]))
    assert code == 0, ran
    assert server_state(demo_site.base_url)["repeated"] == [{"what": "delete", "owner": "Stapler"},
                                                            {"what": "close", "owner": "the post by @bob"}]


async def test_record_a_delete_and_how_its_confirm_dialog_was_answered(
        session: BrowserSession, tool_ctx: ToolContext, demo_site: DemoSite, workspace: Path) -> None:
    demo_site.reset()

    async def user(page: Page, recorder: Recorder, lines: list[str]) -> None:
        page.once("dialog", lambda dialog: dialog.accept())
        await page.locator("tr", has_text="EXP-1001").get_by_role("button", name="Delete").click()
        await until(lambda: any(line.startswith("dialog:") for line in lines), "the answer")
        await until(lambda: bool(recorder.recording.steps[-1].get("expect")), "the page after it")

    recording = await record_while(session, tool_ctx, demo_site.base_url + "/expenses", user)
    delete, = recording.steps
    assert delete["kind"] == "submit" and delete["target"]["within"] == {"role": "row", "names": ["EXP-1001"]}
    assert delete["dialog"] == {"answer": "accept", "text": ["Delete this expense?"]}
    assert delete["expect"] == {"text": ["Expenses"]} or "Expense" in delete["expect"]["text"][0], delete
    demo_site.reset()
    out = workspace / "delete.yaml"
    write_recording(recording, out, workspace / "delete.input.yaml")
    code, prepared = await cli(workspace, "prepare", "--steps", str(out))
    assert code == 2, prepared
    assert "then OK to its dialog if it says 'Delete this expense?'" in str(prepared["diffText"])
    code, ran = await cli(workspace, "run", str(prepared["requestId"]), "--confirm", str(prepared["confirmPhrase"]))
    assert code == 0, ran
    assert [d["reference"] for d in server_state(demo_site.base_url)["deletions"]] == ["EXP-1001"]


async def test_record_a_widget_pick_not_the_search_typed_for_it(
        session: BrowserSession, tool_ctx: ToolContext, workspace: Path) -> None:
    async def user(page: Page, recorder: Recorder, lines: list[str]) -> None:
        await page.locator("#country").locator("..").locator(".ts-control").click()
        # The search arrives as one input (as a paste or an input method does). Typed key by key on a loaded
        # machine, Tom Select 2.6's refreshThrottle (300 ms) filtered once before the last key and once after it:
        # the list showed France alone while a refresh was still due, and when it fired it reopened the country's
        # list and took the focus back (TomSelect.open calls focus) — over the toppings, mid-pick (CI, once).
        await page.keyboard.insert_text("Fra")
        # A person picks from the list the search gives: a pick from the unfiltered list leaves that timer pending.
        await expect(page.locator("#country-ts-dropdown .option")).to_have_text(["France"])
        await page.locator(".ts-dropdown .option", has_text="France").click()
        # A person moves on once the pick shows (and the focus is back in the country's input).
        await expect(page.locator("#country").locator("..").locator(".ts-control .item")).to_have_text("France")
        await expect(page.locator("#country-ts-control")).to_be_focused()
        await page.keyboard.press("Tab")  # on to the next field: the list closes (a Tab is not a step)
        await expect(page.locator("#toppings-ts-control")).to_be_focused()
        await expect(page.locator("#country-ts-dropdown")).to_be_hidden()
        if not await page.locator("#toppings-ts-dropdown").is_visible():  # the Tab may have opened it already
            await page.locator("#toppings").locator("..").locator(".ts-control").click()
        for topping in ("Cheese", "Olives"):  # a multiple picker's list stays open between picks
            await page.locator(".ts-dropdown .option", has_text=topping).click()
        await page.keyboard.press("Tab")
        await until(lambda: len(recorder.pending_fields) == 2, "both pickers seen")

    with ZooSite() as zoo:
        recording = await record_while(session, tool_ctx, zoo.url("tomselect"), user)
        country, toppings = recording.steps
        assert country["action"] == "select" and country["target"]["role"] == "combobox"
        # One select on the widget as it is listed: Tom Select moves the label to its own input and keeps the
        # original select hidden beside it (not listed: nobody sees or reaches it), so the pick on that select is
        # the widget's, named by the label a person reads; no step types "Fra".
        assert country["target"] == {"role": "combobox", "names": ["Country"], "labels": ["Pick a country"]}
        assert recording.inputs == {"pick_a_country": "France", "pick_toppings": ["Cheese", "Olives"]}
        assert "France" in country["options"] and "Japan" in country["options"]
        assert toppings["action"] == "select" and toppings["target"]["names"] == ["Toppings"]
        # The country replayed through prepare -> run (the list of toppings waits for multi-value plans).
        recording.steps = [country]
        out = workspace / "country.yaml"
        write_recording(recording, out, workspace / "country.input.yaml")
        code, prepared = await cli(workspace, "prepare", "--steps", str(out), "--input",
                                   str(workspace / "country.input.yaml"))
        assert code == 2, prepared
        assert f'{country["field"]} = ' in str(prepared["diffText"]) and '"France"' in str(prepared["diffText"])
        code, ran = await cli(workspace, "run", str(prepared["requestId"]), "--confirm",
                              str(prepared["confirmPhrase"]))
        assert code == 0, ran


async def test_record_a_switch_that_sends_no_change_event(
        session: BrowserSession, tool_ctx: ToolContext, workspace: Path) -> None:
    async def user(page: Page, recorder: Recorder, lines: list[str]) -> None:
        await page.locator("sl-switch#notify").click()
        await until(lambda: len(recorder.pending_fields) == 1, "the switch seen")

    with ZooSite() as zoo:
        recording = await record_while(session, tool_ctx, zoo.url("shoelace"), user)
    step, = recording.steps
    assert step["action"] == "check" and step["target"]["role"] == "switch"
    assert recording.inputs[step["field"]] is True


def test_field_keys_are_short_and_come_from_the_label() -> None:
    taken: set[str] = set()
    name = "Tags Hold down Control, or Command on a Mac, to select more than one."
    assert field_key(name, taken, ["Tags", "Pick tags"]) == "tags"
    assert field_key("Available tags Choose tags by selecting them", taken) == "available_tags_choose"
    assert field_key("Name on card", taken, ["As printed"]) == "name_on_card"
    assert field_key("Billable to client", taken) == "billable_to_client"
    assert field_key("Имя", taken) == "field_5"


def test_a_listed_field_that_takes_several_keeps_its_picks_as_a_list() -> None:
    # The listing gives a multiple select's picks as ``values`` beside their joined text: the recorder keeps the
    # list (a relisting after the change event must not turn ['Cheese', 'Olives'] into 'Cheese, Olives').
    listed = {"role": "listbox", "state": {"value": "Cheese, Olives", "values": ["Cheese", "Olives"]}}
    assert listed_value(listed) == ["Cheese", "Olives"]
    assert listed_value({"role": "listbox", "state": {"value": ""}}) == ""
    assert same_values([], "") and same_values("", []) and same_values(["Cheese"], ["Cheese"])
    assert not same_values(["Cheese", "Olives"], "Cheese") and not same_values("", ["Cheese"])


def test_a_click_on_a_page_never_listed_is_a_step_by_the_clicked_control_itself() -> None:
    # The person went on before the recorder listed the page: a link or button is still a step by its text.
    link = {"type": "click", "blindId": "b80", "tag": "a", "href": "http://x.test/export/", "label": " Export\n"}
    assert unlisted_control(link) == {"id": "b80", "role": "link", "name": "Export"}
    assert unlisted_control({"tag": "input", "inputType": "submit", "label": "Save"})["role"] == "button"
    assert unlisted_control({"tag": "div", "label": "France"}) is None  # an option of a widget: not a step
    assert unlisted_control({"tag": "button", "label": ""}) is None  # nothing to find it by
