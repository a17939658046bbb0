"""Containers for plain markup (issue 34 item 4), on MiniWoB++'s own social-media tasks: the `miniwob` package from
PyPI (a test dependency, pinned), its HTML served unchanged. Each task is a feed of plain ``div`` posts — no role,
no heading, no label — each with its own icon bar (reply, retweet, like, and a "more" menu or a share icon: CSS
``content`` images on empty spans, jQuery click handlers) under the author's name and @handle.

An episode starts as MiniWoB's own environment starts one (``Math.seedrandom(seed)`` then
``core.startEpisodeReal()``, miniwob/selenium_instance.py ``begin_task``), the instruction is read as MiniWoB gives
it to agents (``core.getUtterance()``), and the page itself judges the outcome (``WOB_RAW_REWARD_GLOBAL``: 1 for the
named author's action, -1 for any other). A scripted agent reads only browserops' listing — each row's name and its
``in`` — and clicks through browserops; the page's own scripts are called by this test only to seed and start an
episode and to read its instruction and reward, never by the product. Plans' ``within`` (the resolver prepare and
run share) and ``browser_find(within=…)`` are checked to match the same naming.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest

from browserops.contract import BrowserOpsError
from browserops.demo_site.zoo_site import ZooSite
from browserops.plan.interpret.guard import CONFIRMED_CLASSES, GuardedTools
from browserops.plan.interpret.resolve import resolve_target
from browserops.plan.model.step_parts import SemanticTarget, Within
from browserops.tools.context import ToolContext
from tests.tools.helpers import ok, open_page


def _miniwob_html() -> Path:
    spec = find_spec("miniwob")  # located, not imported: importing it registers gymnasium environments
    assert spec is not None and spec.submodule_search_locations, "the miniwob test dependency is not installed"
    return Path(next(iter(spec.submodule_search_locations))) / "html"


EPISODES = 10
LIMIT = 100
# MiniWoB ends an episode unanswered after 10-15 s, which a loaded test machine can exceed between listing and
# click; the outcome, not the speed, is what is checked here (bench/ measures speed). Set before the episode starts.
START = """(seed) => { Math.seedrandom(seed); core.EPISODE_MAX_TIME = 600000; core.startEpisodeReal();
  return core.getUtterance(); }"""
REWARD = "() => ({done: WOB_DONE_GLOBAL, raw: WOB_RAW_REWARD_GLOBAL})"


@pytest.fixture(scope="module")
def miniwob() -> Iterator[ZooSite]:
    with ZooSite(_miniwob_html()) as site:
        yield site


async def _episode(ctx: ToolContext, seed: str) -> str:
    # The page shows its START cover from its load handler on (core.startEpisode): it is ready for an episode.
    await ctx.session.page.wait_for_function("() => !!(window.core && core.cover_div)")
    utterance: str = await ctx.session.page.evaluate(START, seed)
    # The agent's first look at a new page: once its pictures are in (each icon is one, without a box until then).
    await ok(ctx, "browser_wait", network_idle=True)
    return utterance


async def _reward(ctx: ToolContext) -> float | None:
    """The page's own verdict on the episode: its raw reward once it ended, else None."""
    got: dict[str, Any] = await ctx.session.page.evaluate(REWARD)
    return float(got["raw"]) if got["done"] else None


# ---- The scripted agent: it reads rows (name, in) and nothing else of the page ----

def _in_post(item: dict[str, Any], user: str) -> bool:
    return user in str(item.get("in") or "").split()


def _named(item: dict[str, Any], action: str) -> bool:
    """Whether the row's name says the action: one of its words ("like"), or how it starts
    ("Mute @kenda" for Mute, "Share via DM")."""
    name = str(item.get("name") or "").casefold()
    want = action.casefold()
    return want in name.split() or name.startswith(want)


async def _rows(ctx: ToolContext) -> list[dict[str, Any]]:
    """The whole listing in one window (the feed's 6-12 posts have up to 50 controls; the default window is 40)."""
    data = await ok(ctx, "browser_list_interactives", limit=LIMIT)
    assert not data.get("more"), data
    items: list[dict[str, Any]] = data["items"]
    return items


async def _click(ctx: ToolContext, item: dict[str, Any]) -> None:
    await ok(ctx, "browser_overlay_act", index=item["n"], action="click")


async def _act_on_post(ctx: ToolContext, user: str, action: str) -> None:
    """The action's control in the user's post; a post's menu ("more") opened first when the action is not shown."""
    items = await _rows(ctx)
    shown = [i for i in items if _in_post(i, user) and _named(i, action)]
    if shown:
        await _click(ctx, shown[0])
        return
    more = [i for i in items if _in_post(i, user) and _named(i, "more")]
    assert more, (user, action, items)
    await _click(ctx, more[0])
    entries = [i for i in await _rows(ctx) if _named(i, action)]
    assert len(entries) == 1, (user, action, entries)  # only the opened menu shows its entries
    await _click(ctx, entries[0])


SINGLE = re.compile(r'For the user (@\S+), click on the "(.+)" button\.')
MANY = re.compile(r'Click the "(.+)" button on (all|\d+) posts? by (@\S+) and then click Submit\.')


async def test_the_agent_does_the_social_media_task_from_the_listing(tool_ctx: ToolContext, miniwob: ZooSite) -> None:
    """social-media: "For the user @kenda, click on the "Retweet" button" — an icon of the post or an entry of its
    more menu (Mute @kenda, Report…), 5-10 posts in a 150 px scrolled box. 0 of 6 when nothing said whose post an
    icon was in."""
    await open_page(tool_ctx, miniwob.url("miniwob/social-media"))
    rewards = []
    for episode in range(EPISODES):
        utterance = await _episode(tool_ctx, f"feed-{episode}")
        match = SINGLE.fullmatch(utterance)
        assert match, utterance
        user, action = match.groups()
        if episode == 0:
            # Every post's icons are listed once per post, each saying whose post it is, shortly.
            likes = [i for i in await _rows(tool_ctx) if _named(i, "like")]
            assert len(likes) >= 5 and all(i.get("in") and len(i["in"]) <= 60 for i in likes), likes
            assert all(any(w.startswith("@") for w in i["in"].split()) for i in likes), likes
        await _act_on_post(tool_ctx, user, action)
        rewards.append((utterance, await _reward(tool_ctx)))
    assert [r for _, r in rewards] == [1.0] * EPISODES, rewards


@pytest.mark.parametrize("task", ["social-media-all", "social-media-some"])
async def test_the_agent_acts_on_several_posts_of_one_author(tool_ctx: ToolContext, miniwob: ZooSite,
                                                             task: str) -> None:
    """social-media-all / -some: "Click the "Like" button on all posts (on 2 posts) by @lacus and then click
    Submit" — one author's posts among 6-12, often next to each other (their `in` then reads the same)."""
    await open_page(tool_ctx, miniwob.url(f"miniwob/{task}"))
    rewards = []
    for episode in range(EPISODES // 2):
        utterance = await _episode(tool_ctx, f"{task}-{episode}")
        match = MANY.fullmatch(utterance)
        assert match, utterance
        action, how_many, user = match.groups()
        items = await _rows(tool_ctx)
        mine = [i for i in items if _in_post(i, user) and _named(i, action)]
        for item in mine if how_many == "all" else mine[:int(how_many)]:
            await _click(tool_ctx, item)
        submit = [i for i in await _rows(tool_ctx) if i["role"] == "button" and i["name"] == "Submit"]
        assert len(submit) == 1, submit
        await _click(tool_ctx, submit[0])
        rewards.append((utterance, await _reward(tool_ctx)))
    assert [r for _, r in rewards] == [1.0] * (EPISODES // 2), rewards


ICONS = ("Reply", "Retweet", "Like")  # social-media's actions shown on a post; the others are in its "more" menu


async def _resolve_and_click(tools: GuardedTools, target: SemanticTarget) -> str | None:
    """Resolve a plan target as prepare and run do, click it as they do; the container it was found in."""
    el = await resolve_target(tools, target)
    clicked = await tools.call("browser_overlay_act", {"index": el.number, "action": "click", **el.act_args()})
    assert clicked.status == "ok", clicked
    return el.within


async def test_find_and_plans_within_match_the_listings_naming(tool_ctx: ToolContext, miniwob: ZooSite) -> None:
    """browser_find(within="@user") keeps that post's controls only; a plan naming the post (``within`` a group
    "@user", resolved as prepare and run resolve targets) clicks the user's icon, or opens the user's menu and
    picks the entry, which the page rewards."""
    await open_page(tool_ctx, miniwob.url("miniwob/social-media"))
    tools = GuardedTools(tool_ctx, CONFIRMED_CLASSES, who="test")
    rewards = []
    for episode in range(EPISODES):
        match = SINGLE.fullmatch(await _episode(tool_ctx, f"within-{episode}"))
        assert match
        user, action = match.groups()
        icon = action if action in ICONS else "more"
        found = (await ok(tool_ctx, "browser_find", text=icon, within=user))["matches"]
        assert found and all(_in_post(m, user) and _named(m, icon) for m in found), (user, icon, found)
        if len({m["in"] for m in found}) > 1:
            # Two posts of the author: naming the author is ambiguous and refused, never a guess; the post's
            # full name as the listing reads it picks one, as the refusal says to.
            with pytest.raises(BrowserOpsError, match="ambiguous"):
                await resolve_target(tools, SemanticTarget(role="clickable", names=[icon],
                                                           within=Within(role="group", names=[user])))
        post = Within(role="group", names=[found[0]["in"] if len({m["in"] for m in found}) > 1 else user])
        within = await _resolve_and_click(tools, SemanticTarget(role="clickable", names=[icon], within=post))
        assert within is not None and user in within.split(), (user, within)
        if icon == "more":
            await _resolve_and_click(tools, SemanticTarget(role="menuitem", names=[action]))
        rewards.append((user, action, await _reward(tool_ctx)))
    assert [r for *_, r in rewards] == [1.0] * EPISODES, rewards
