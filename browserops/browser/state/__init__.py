"""What a browser session remembers between calls: :class:`~browserops.browser.state.session_state.SessionState`,
one typed object with a named field per concern (the latest listing, the frames' labels and kept walks, the
isolated worlds, the request counters, the overlay drawn, …) and the one place that says what each event resets.

It sits below ``launch/`` (the session holds it) and above the page scripts, and holds only data and the types of
that data (a listing, a frame's view, a page's worlds, a request counter); the modules that act on it live in
``numbering/``, ``page/`` and ``act/``.
"""
