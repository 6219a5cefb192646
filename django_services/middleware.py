"""
`request.remotes`: the remote services, with the caller's credentials bridged.

    MIDDLEWARE = [..., "django_services.middleware.RemotesMiddleware"]

    def invoices(request):
        return JsonResponse(request.remotes["billing"].service("invoices").find())

`request.remotes["billing"]` is `remotes["billing"].for_request(request)`: remotes whose `AUTH`
forwards credentials (`forward-bearer`, `forward-session`) send the caller's; the others
send their own, or none. Nothing is done until a remote is used, so the middleware may go
anywhere in the list.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction

from .client.remotes import RequestRemotes

__all__ = ["RemotesMiddleware"]


class RemotesMiddleware:
    """Set `request.remotes` (a `RequestRemotes`) on every request; sync and async."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[Any], Any]) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: Any) -> Any:
        if self.is_async:
            return self.__acall__(request)
        request.remotes = RequestRemotes(request)
        return self.get_response(request)

    async def __acall__(self, request: Any) -> Any:
        request.remotes = RequestRemotes(request)
        response: Awaitable[Any] = self.get_response(request)
        return await response
