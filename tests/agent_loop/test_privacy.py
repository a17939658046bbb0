"""No typed text, email or phone number reaches an evidence bundle or a log: the test types them (and answers a
question with them), then greps every text file of the bundle and every captured log record."""

from __future__ import annotations

from urllib.parse import quote, quote_plus

from browserops.agent.model_api import tool_turn
from browserops.demo_site import DemoSite
from browserops.evidence import read_events, verify_bundle
from browserops.tools.context import ToolContext
from tests.agent_loop.conftest import RunFactory, open_page
from tests.agent_loop.helpers import act, bundle_files
from tests.logcapture import BrowseropsLog

MERCHANT = "Zebracorn Stationers"
EMAIL = "alice.wonder@example.org"
PHONE = "+1 415 555 0199"
NOTES = f"Call {PHONE} or mail {EMAIL}"
ANSWER = "Amount 42.50, and my other phone is +44 20 7946 0958"
SECRETS = [MERCHANT, EMAIL, PHONE, "415 555 0199", "4155550199", "7946 0958", "Zebracorn", ANSWER, "42.50"]


def variants(text: str) -> set[str]:
    return {text, quote(text), quote_plus(text), quote(text, safe=""), text.casefold()}


async def test_typed_text_emails_and_phones_never_reach_events_or_logs(
    make_run: RunFactory, tool_ctx: ToolContext, demo_site: DemoSite, browserops_log: BrowseropsLog
) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/expense")
    run = make_run([
        act("textbox", "Merchant", "type", text=MERCHANT, progress=f"Typing '{MERCHANT}' as the merchant."),
        act("textbox", "Notes", "type", text=NOTES, progress=f'Adding the note "{NOTES}".'),
        tool_turn("assistant_ask", {"question": f"What amount should I enter for {MERCHANT}?"}, "Need the amount."),
        act("spinbutton", "Amount", "type", text="42.50", progress="Typing 42.50."),
        tool_turn("assistant_done", {"reason": f"The New expense page shows {MERCHANT}, {EMAIL} and {PHONE} "
                                               "as entered."}, "Done."),
    ], goal="fill in the expense form (do not submit it)")
    pause = await run.advance()
    # Typing an e-mail address the goal did not give is held for the user (the page may have asked for it);
    # the user approves, so the values are typed and the grep below has something to find.
    assert pause.kind == "confirm" and pause.held is not None, pause
    result = await run.resolve_pending(approved=True)
    assert result is not None and result["status"] == "ok", result
    pause = await run.advance()
    assert pause.kind == "ask", pause
    await run.answer(ANSWER)
    pause = await run.advance()
    assert pause.kind == "done", pause

    assert run.recorder is not None
    assert verify_bundle(run.recorder.path).ok
    files = bundle_files(run.recorder.path)
    texts = {name: data.decode("utf-8") for name, data in files.items() if not name.endswith(".png")}
    assert {"events.jsonl", "summary.md", "bundle.json", "manifest-sha256.txt"} <= set(texts)
    logs = browserops_log.text()
    # The grep below means something only if the run's modules did log at DEBUG (every tool call does).
    assert "browserops.tools.runner" in browserops_log.debug_names(), browserops_log.debug_names()
    for secret in SECRETS:
        for form in variants(secret):
            for name, text in texts.items():
                assert form not in text, f"{form!r} leaked into {name}"
            assert form not in logs, f"{form!r} leaked into the log"

    events, _ = read_events(run.recorder.path)
    typed = [e for e in events if e.tool == "browser_overlay_act"]
    # Three typed fields; the Notes call is recorded twice (held for confirmation, then run once approved).
    assert len(typed) == 4 and all(set(e.args["text"]) == {"textLength", "textDigest"} for e in typed)
    asks = [e.agent.ask for e in events if e.agent and e.agent.ask]
    assert asks[-1].user_reply is not None and asks[-1].user_reply.text_length == len(ANSWER)
    # The form really was filled: typing worked, it just was not recorded.
    assert demo_site.state.submissions == []
