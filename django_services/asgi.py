"""
Django's ASGI application, serving static files where `runserver` would.

    # mysite/asgi.py
    from django_services.asgi import get_asgi_application

    application = get_asgi_application()

`runserver` serves `STATIC_URL` itself while `DEBUG` is on and `django.contrib.staticfiles` is
installed; an ASGI server (uvicorn, Daphne, Hypercorn) does not, so Swagger UI, Redoc and the
admin render without their scripts and styles. This application does what `runserver` does in
that case, and nothing more: with `DEBUG` off, serve static files with your web server or a
library such as WhiteNoise, as Django's deployment checklist says.
`django_services.server.socketio.get_asgi_application()` builds on it.

Django's own ASGI handler runs each request's synchronous code (signals, sync middleware, sync
views: every service) in a thread created for that request alone, so a database connection
never outlives its request, whatever `CONN_MAX_AGE` says. This application lends each request
one of a fixed set of threads instead (`DJANGO_SERVICES["ASGI_REQUEST_THREADS"]`, see
`django_services.request_threads`): connections persist in their threads as `CONN_MAX_AGE`
allows, and no thread is started per request.

Django's handler also goes to that thread and back several times a request: for
`request_started`, for the synchronous middleware, for the view (from the middleware's
thread back to the event loop and out again) and for the response's `close()`. When every
middleware can run synchronously and the URLconf routes the request to a synchronous view,
this application goes once instead and runs the request there as Django's WSGI handler
would: `request_started`, the middleware chain loaded in synchronous mode, the view, and
(unless the response streams) `close()` with `request_finished`, before the response is sent.
A request for an asynchronous view, or any request when a middleware is async-only, takes
Django's own way.

ASGI servers run no system checks, as `runserver` does: a service that cannot be served
(`django_services.E010`) or a `SOCKETIO_PUBLISHER` that does not import (`E011`) would fail
every request or handshake. The application refuses to start instead, naming them.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import weakref
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any

from asgiref.sync import SyncToAsync, iscoroutinefunction, sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.base import BaseHandler
from django.http import FileResponse, HttpResponseBase
from django.urls import URLPattern, URLResolver, get_resolver, set_script_prefix

from .request_threads import RequestThreads

__all__ = [
    "PooledThreadsASGIHandler",
    "check_serving",
    "get_asgi_application",
    "request_threads_of",
    "serves_static_files",
]


def serves_static_files() -> bool:
    """Whether `runserver` would serve static files: `DEBUG` on, staticfiles installed."""
    from django.apps import apps
    from django.conf import settings

    return bool(
        settings.DEBUG
        and apps.is_installed("django.contrib.staticfiles")
        and getattr(settings, "STATIC_URL", None)
    )


def get_asgi_application() -> Any:
    """
    Set Django up and return its ASGI application (`django_asgi_handler()`), wrapped in
    Django's `ASGIStaticFilesHandler` when `serves_static_files()`.
    """
    import django

    django.setup(set_prefix=False)
    application = django_asgi_handler()
    check_serving()
    if serves_static_files():
        from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

        return ASGIStaticFilesHandler(application)
    return application


def check_serving() -> None:
    """Raise ImproperlyConfigured naming every error that would fail each request or socket."""
    from django.core.exceptions import ImproperlyConfigured

    from .checks import check_publisher, check_services

    errors = [
        message for message in [*check_services(), *check_publisher()] if message.is_serious()
    ]
    if errors:
        raise ImproperlyConfigured("\n".join(f"{message.id}: {message.msg}" for message in errors))


def django_asgi_handler() -> Any:
    """
    Django's ASGI handler, on the fixed threads of `ASGI_REQUEST_THREADS` (a number; None: four
    a core and four more, at most 32), or Django's own (a thread per request) when it is 0.
    """
    from .conf import services_settings

    threads = services_settings.ASGI_REQUEST_THREADS
    if threads == 0:
        return ASGIHandler()
    return PooledThreadsASGIHandler(RequestThreads(threads))


class _Borrowed:
    """The thread a request borrowed, and the context its sync calls run in there."""

    executor: Any = None
    context: Any = None
    #: Whether the request is served in one trip, which needs no thread-sensitive context.
    one_trip = False


#: The `_Borrowed` of the request the current task serves.
_borrowed: contextvars.ContextVar[_Borrowed] = contextvars.ContextVar("borrowed_thread")


class PooledThreadsASGIHandler(ASGIHandler):
    """
    Django's ASGI handler, running each HTTP request's sync code in one of `threads`.

    A request borrows its thread once its body has arrived, as Django's handler starts its
    thread then: a slow upload holds no thread.
    """

    def __init__(self, threads: RequestThreads) -> None:
        from ._drf_compat import thread_context

        super().__init__()
        self.threads = threads
        self._thread_context = thread_context
        self._sync_handler = _sync_handler()
        #: Per request thread, the call that runs `_respond` there (built once, not per request).
        self._trips: dict[Executor, SyncToAsync[[Any, Any], HttpResponseBase]] = {}

    async def handle(self, scope: Any, receive: Any, send: Any) -> None:
        """Serve one HTTP request in one trip to its thread, or Django's way (see the module)."""
        if self._sync_handler is None or _routes_to_async_view(scope):
            await super().handle(scope, receive, send)
            return
        borrowed = _borrowed.get()
        borrowed.one_trip = True
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        try:
            response = await self._trip(borrowed.executor)(scope, body_file)
            if response.streaming:
                # Its iterator and close() run in the request's thread, as Django runs them.
                await self._enter_thread_context(borrowed)
                await self._stream(response, receive, send)
            else:
                await self.send_response(response, send)
        finally:
            body_file.close()

    def _trip(self, executor: Executor) -> SyncToAsync[[Any, Any], HttpResponseBase]:
        # Straight to the borrowed thread: no thread-sensitive context to look the thread up
        # in. Sync code in there that calls async code, which calls thread-sensitive sync
        # code, still comes back to this thread (asgiref's rule for nested calls).
        trip = self._trips.get(executor)
        if trip is None:
            assert isinstance(executor, ThreadPoolExecutor)
            trip = self._trips[executor] = SyncToAsync(
                self._respond, thread_sensitive=False, executor=executor
            )
        return trip

    def _respond(self, scope: Any, body_file: Any) -> HttpResponseBase:
        # In the request's thread, what Django's WSGI handler does with a request.
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, error_response = self.create_request(scope, body_file)
        response: HttpResponseBase
        if request is None:
            assert error_response is not None
            response = error_response
        else:
            assert self._sync_handler is not None
            response = self._sync_handler.get_response(request)
        response._handler_class = self.__class__  # type: ignore[attr-defined]
        if isinstance(response, FileResponse):
            response.block_size = self.chunk_size
        if not response.streaming:
            # The content is in memory: its resources and `request_finished` need not wait
            # for the bytes to reach the client, and closing here saves a trip back.
            response.close()
        return response

    async def _stream(self, response: HttpResponseBase, receive: Any, send: Any) -> None:
        # As Django does: stop streaming when the client goes away, then close in the thread.
        sending = asyncio.ensure_future(self.send_response(response, send))
        listening = asyncio.ensure_future(self.listen_for_disconnect(receive))
        try:
            await asyncio.wait([sending, listening], return_when=asyncio.FIRST_COMPLETED)
        finally:
            try:
                for task in (listening, sending):
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError, RequestAborted):
                        await task
            finally:
                await sync_to_async(response.close, thread_sensitive=True)()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        borrowed = _Borrowed()
        token = _borrowed.set(borrowed)
        try:
            await self.handle(scope, receive, send)
        finally:
            if borrowed.context is not None:
                await borrowed.context.__aexit__(None, None, None)
            if borrowed.executor is not None:
                self.threads.release(borrowed.executor)
            _borrowed.reset(token)

    async def read_body(self, receive: Any) -> Any:
        """Django's `read_body`, then a thread borrowed for the rest of the request."""
        body_file = await super().read_body(receive)
        borrowed = _borrowed.get()
        try:
            borrowed.executor = await self.threads.acquire()
        except BaseException:
            body_file.close()
            raise
        if not borrowed.one_trip:
            await self._enter_thread_context(borrowed)
        return body_file

    async def _enter_thread_context(self, borrowed: _Borrowed) -> None:
        # Thread-sensitive calls of this request go to its thread from now on. Entered in
        # this task's context, which the rest of `handle` runs in (read_body is awaited, not
        # run as a task of its own); left in `__call__`.
        borrowed.context = self._thread_context(borrowed.executor)
        await borrowed.context.__aenter__()

    async def _lifespan(self, receive: Any, send: Any) -> None:
        # At shutdown, the threads close their database connections and end.
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await asyncio.to_thread(self.threads.close)
                await send({"type": "lifespan.shutdown.complete"})
                return


def _sync_handler() -> BaseHandler | None:
    """
    Django's handler with the middleware chain loaded in synchronous mode, as its WSGI handler
    loads it; None when a middleware cannot run synchronously (`sync_capable = False`).
    """
    from django.conf import settings
    from django.utils.module_loading import import_string

    for path in settings.MIDDLEWARE:
        if not getattr(import_string(path), "sync_capable", True):
            return None
    handler = BaseHandler()
    handler.load_middleware(is_async=False)
    return handler


#: Per URL resolver, whether any of its views is a coroutine function.
_async_views: weakref.WeakKeyDictionary[URLResolver, bool] = weakref.WeakKeyDictionary()


def _routes_to_async_view(scope: Any) -> bool:
    """
    Whether the root URLconf routes this request's path to an async view; True as well when
    the URLconf does not load, so that Django's handler answers with its error page.
    """
    try:
        resolver = get_resolver()
        has_async_views = _async_views.get(resolver)
        if has_async_views is None:
            has_async_views = _async_views[resolver] = _has_async_views(resolver)
    except Exception:
        return True
    if not has_async_views:
        return False
    # A middleware may set `request.urlconf`: the root URLconf's answer then only chooses
    # which of two correct ways serves the request.
    script_name = get_script_prefix(scope)
    path_info = scope["path"].removeprefix(script_name) if script_name else scope["path"]
    match = _resolve(resolver, path_info)
    return match is not None and iscoroutinefunction(match.func)


def _resolve(resolver: URLResolver, path_info: str) -> Any:
    from django.urls import Resolver404

    try:
        return resolver.resolve(path_info)
    except Resolver404:
        return None


def _has_async_views(resolver: URLResolver) -> bool:
    for pattern in resolver.url_patterns:
        if isinstance(pattern, URLResolver):
            if _has_async_views(pattern):
                return True
        elif isinstance(pattern, URLPattern) and iscoroutinefunction(pattern.callback):
            return True
    return False


def request_threads_of(application: Any) -> RequestThreads | None:
    """The `RequestThreads` of an application of `get_asgi_application()`, if it has any."""
    while application is not None:
        if isinstance(application, PooledThreadsASGIHandler):
            return application.threads
        # ASGIStaticFilesHandler keeps the application it wraps as `application`.
        application = getattr(application, "application", None)
    return None
