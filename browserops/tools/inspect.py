"""browser_inspect: what one element is and what surrounds it, read live (the policy gate uses it too);
browser_form_check: what the form an element belongs to says is wrong with it."""

from __future__ import annotations

from typing import Any

from browserops.browser.page.element_info import inspect_element
from browserops.browser.page.form_check import form_problems, page_form_problems
from browserops.tools.context import ToolContext
from browserops.tools.definitions import elements as defs


async def inspect(ctx: ToolContext, args: defs.InspectArgs) -> dict[str, Any]:
    return await inspect_element(ctx.session, args.element, max_chars=args.max_chars)


async def form_check(ctx: ToolContext, args: defs.FormCheckArgs) -> dict[str, Any]:
    if args.element is None:
        problems = await page_form_problems(ctx.session.page)
    else:
        problems = await form_problems(ctx.session, args.element)
    return {"problems": problems, "valid": not problems}
