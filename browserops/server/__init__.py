"""Front door over HTTP: SSE event stream, WebSocket chat and the accessible chat page."""
