"""Acting on one element the way a person would: click, type (dates as people write them), choose options, press
keys, scroll, upload and download, and report what the action did to the page.

It finds its target through ``numbering/`` and reads the page through ``page/``. Deciding whether an action may
run (policy) and the tool arguments that ask for it (``browserops.tools``) do not live here.
"""
