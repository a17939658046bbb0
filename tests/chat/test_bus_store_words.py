"""EventBus ordering/replay/back-pressure, ChatStore atomicity and recovery, and the done-word parser."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from browserops.chat.api import ChatSession, Event
from browserops.chat.events import EventBus
from browserops.chat.store import ChatStore
from browserops.chat.words import _CJK_PHRASES, _WORD_PHRASES, is_done_message
from browserops.policy import PendingAction, TargetInfo
from browserops.policy import PendingAction as PolicyPending
from tests.traits import classify


async def test_replay_then_live_in_order_with_increasing_seq() -> None:
    bus = EventBus(replay=5)
    for i in range(8):
        await bus.publish(Event.make("tool_call", "s", step=i))
    assert [e.seq for e in bus.recent("s")] == [4, 5, 6, 7, 8]  # bounded replay keeps the newest
    sub = bus.subscribe("s", after_seq=6)
    await bus.publish(Event.make("final", "s"))
    got = [await asyncio.wait_for(sub.get(), 1) for _ in range(3)]
    assert [(e.seq if e else None) for e in got] == [7, 8, 9]
    assert bus.subscribe("other").session_id == "other"  # sessions are separate channels
    bus.close()
    assert await asyncio.wait_for(sub.get(), 1) is None
    assert await asyncio.wait_for(bus.subscribe("s").get(), 1) is None  # after close, subscriptions end at once


async def test_type_filter_and_slow_subscriber_is_dropped_not_blocking() -> None:
    bus = EventBus(replay=10, queue_size=3)
    slow = bus.subscribe("s")
    statuses = bus.subscribe("s", types={"status"})
    for i in range(bus.queue_size + 5):
        await bus.publish(Event.make("tool_call", "s", step=i))
    await bus.publish(Event.make("status", "s", status="idle"))
    assert slow.lagged and slow.closed
    event = await asyncio.wait_for(statuses.get(), 1)
    assert event is not None and event.type == "status"
    drained = [e async for e in slow]  # ends instead of hanging
    assert len(drained) < bus.queue_size + 6


async def test_bus_restores_numbering_and_replay_from_the_log(tmp_path: Path) -> None:
    store = ChatStore(tmp_path)
    bus = EventBus(store=store)
    for _ in range(3):
        await bus.publish(Event.make("observation", "s", url="http://x"))
    again = EventBus(store=ChatStore(tmp_path))
    assert again.last_seq("s") == 3 and [e.seq for e in again.recent("s", 1)] == [2, 3]
    assert (await again.publish(Event.make("final", "s"))).seq == 4


def test_store_round_trip_keeps_raw_args_only_in_the_file(tmp_path: Path) -> None:
    store = ChatStore(tmp_path)
    state = ChatSession(session_id="s1", mode="chat", pending_kind="confirm", status="waiting_user",
                        pending_action=PendingAction.create("browser_type", {"index": 3, "text": "secret words"},
                                                            reason="sends the form"))
    store.save(state)
    path = store.state_path("s1")
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    loaded = store.load("s1")
    assert loaded is not None and loaded.pending_action is not None
    assert loaded.pending_action.raw_args == {"index": 3, "text": "secret words"}
    assert "secret words" not in str(loaded.public_view()) and "secret words" not in loaded.model_dump_json()
    assert loaded.pending_action.args["text"]["textLength"] == len("secret words")
    assert [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")] == []


def test_unreadable_state_is_kept_aside_and_the_session_starts_afresh(tmp_path: Path) -> None:
    store = ChatStore(tmp_path)
    store.save(ChatSession(session_id="s2"))
    store.state_path("s2").write_text("{not json")
    assert store.load("s2") is None
    assert any(p.name.startswith("s2.json.corrupt-") for p in store.root.iterdir())


def test_session_ids_cannot_escape_the_chat_folder(tmp_path: Path) -> None:
    store = ChatStore(tmp_path)
    for bad in ("../x", "a/b", "", "x" * 65, "a b"):
        try:
            store.state_path(bad)
        except Exception as exc:
            assert "BROWSER_INVALID_ARGS" in str(exc)
        else:
            raise AssertionError(bad)
    assert not os.path.exists(tmp_path / "x")


_decor = st.sampled_from(["", "!", ".", " 👍", "!!", "...", " :)", "\n"])


@given(phrase=st.sampled_from(_WORD_PHRASES), upper=st.booleans(), suffix=_decor,
       prefix=st.sampled_from(["", " ", "ok "]))
def test_every_done_phrase_is_recognised_in_any_case_and_punctuation(
    phrase: str, upper: bool, suffix: str, prefix: str
) -> None:
    text = prefix + (phrase.upper() if upper else phrase) + suffix
    assert is_done_message(text), text


@given(phrase=st.sampled_from(_CJK_PHRASES), suffix=st.sampled_from(["", "！", "。", "啦", "~"]))
def test_cjk_done_phrases(phrase: str, suffix: str) -> None:
    assert is_done_message(phrase + suffix)


@given(phrase=st.sampled_from(["done", "ready", "finished", "fertig", "listo"]), neg=st.sampled_from(
    ["not", "not yet", "isn't", "no,"]))
def test_negated_done_is_not_done(phrase: str, neg: str) -> None:
    assert not is_done_message(f"{neg} {phrase}")
    assert not is_done_message(f"{phrase}? {neg}")


def test_done_words_in_the_issue_and_non_done_messages() -> None:
    for text in ("done", "готово", "сделал", "好了", "完成", "fertig", "terminé", "listo", "Done.", "Готово!"):
        assert is_done_message(text), text
    for text in ("не готово", "还没好", "没好", "", "   ", "what should I do?", "log in for me",
                 "when you are done open the cart and then pay with the saved card"):
        assert not is_done_message(text), text


def test_pending_action_from_the_policy_gate_keeps_raw_args_out_of_views() -> None:
    target = TargetInfo(role="button", name="Pay now")
    raw = {"index": 7, "action": "click"}
    decision = classify("browser_overlay_act", raw, target)
    assert not decision.allowed
    pending = PendingAction.from_policy(PolicyPending.of("browser_overlay_act", raw, decision, target), raw, number=7)
    assert pending.raw_args == raw and pending.target == {"n": 7, "role": "button", "name": "Pay now"}
    assert pending.describe().startswith("browser_overlay_act on 7 button Pay now — destructive")
    typed_args = {"index": 2, "text": "card 4111"}
    typed = PendingAction.from_policy(PolicyPending.of("browser_type", typed_args, decision), typed_args)
    assert "4111" not in typed.model_dump_json() and typed.raw_args["text"] == "card 4111"
