"""Whole pages: navigating, reading (summary, text, ARIA snapshot, screenshot), waiting without fixed sleeps,
tabs, JavaScript dialogs, the banner closer and watching a person use the page.

It may look elements up through ``numbering/`` but never acts on one on a caller's behalf (that is ``act/``);
starting the browser is ``launch/``.
"""
