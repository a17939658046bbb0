"""Chat sessions behind both chat front doors (the REPL and the HTTP server): the session engine (modes, slash
commands, the one pending confirmation, ``/stop``), the turn supervisor, the event bus and the session store, and
the Brain that runs an agent per session. The agent loop itself lives in ``agent/run/``; HTTP, SSE and WebSocket
in ``server/``; terminal input and output in ``cli/repl.py``.
"""
