"""The only layer that imports Playwright: the browser session and everything done on a page through it.

Inside, higher packages use lower ones only (checked by import-linter): ``act/`` (acting on one element) >
``page/`` (whole pages: reading, waiting, tabs, dialogs, banners) > ``numbering/`` (listing and finding elements)
> ``launch/`` (starting Chromium, the session) > ``errors`` and ``js/`` > ``scripts`` (page JavaScript). No tool
definitions, results or policy live here: callers reach the browser through ``browserops.tools``.
"""
