"""
`socketio_client(url)`: a socket.io connection to the Feathers server at `url`.

    app = App().configure(socketio_client("https://api.example.com"))                 # sync
    app = App().configure(socketio_client(url, socketio.AsyncClient()))              # async
    app = App().configure(socketio_client(url, options={"timeout": 5, "headers": {...}}))

It is Feathers' `socketio(socket)`: the services of the app call over the socket, and
`service.on()` receives their events. python-socketio is imported only here (the `socketio`
extra).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .services import BaseRestService
from .transports import BaseTransport, load

__all__ = ["socketio_client"]


def socketio_client(
    url: str,
    client: Any = None,
    *,
    options: Mapping[str, Any] | None = None,
    service_class: type[BaseRestService] | None = None,
) -> BaseTransport:
    """
    Return a socket.io connection to the server at `url` (its origin, e.g. `http://host:3030`).

    **Parameters:**

    * **client** - a `socketio.Client` (sync services, the default: a new one) or a
      `socketio.AsyncClient` (coroutine services). Its reconnection settings are used.
    * **options** - `headers` (sent with the handshake: an `Authorization` header logs the
      socket in), `timeout` (seconds or a `TimeoutConfig`: `connect` to connect, `read` to
      wait for each answer), `transports` (`["websocket"]` by default; `"polling"` too),
      `authentication_path` (`"authentication"`) and `auth` (a dict, the handshake's auth
      payload).
    * **service_class** - the class of the services (a `SocketService` or
      `AsyncSocketService` subclass).
    """
    if not isinstance(url, str) or not url:
        raise TypeError(f"url must be a URL string, not {url!r}.")
    name = "socketio"
    if client is not None:
        import socketio

        if isinstance(client, socketio.AsyncClient):
            name = "socketio-async"
        elif not isinstance(client, socketio.Client):
            raise TypeError(
                "socketio_client() takes a socketio.Client or socketio.AsyncClient, "
                f"not {type(client).__name__}."
            )
    cls = load(name, needed_by="socketio_client()")
    return cls(client, base=url, options=options, service_class=service_class)
