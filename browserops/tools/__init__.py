"""The tool catalogue: every verb browserops can perform on a page, and the one pipeline that runs them.

``definitions/`` holds each tool as data (args model, description, traits, the action words) and loads no
browser; the modules here bind those definitions to handlers that drive ``browser/`` (``registry.py``), run a
call (``runner.py``: guards, crash policy, hooks, a profile per front door; ``invoke.py``) and close banners
afterwards (``hooks.py``). Deciding whether a call may run (``policy/``) and what to call (agent, plan) does not
live here.
"""
