"""The HTTP front door: a loopback Starlette app with an SSE event stream, WebSocket chat, token auth and the
accessible chat page, over one chat engine. Sessions, modes and confirmation are decided in ``chat/``, not here;
this package only carries them over HTTP.
"""
