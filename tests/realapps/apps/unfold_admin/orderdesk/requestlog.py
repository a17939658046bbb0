"""One line per request the desk answers, ``REQ <method> <path> <status>`` on its console: the request log the
corpus tests read (what prepare and the run sent), the same form the corpus' npm apps log in."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse


class RequestLog:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        print(f"REQ {request.method} {request.get_full_path()} {response.status_code}", flush=True)
        return response
