"""Starting and holding the browser: finding Chromium, the ``BrowserSession`` in its four modes, DevTools sessions,
origin rules enforced inside the browser, tracing.

It never opens a document or touches page content (the doctor's probe that does lives in ``page/``); everything
above builds on the session made here.
"""
