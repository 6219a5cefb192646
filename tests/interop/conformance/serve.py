"""
Serve the conformance fixture over real HTTP, on loopback.

    DJANGO_SETTINGS_MODULE=tests.interop.conformance.settings \
        python -m tests.interop.conformance.serve 8000      # 0 (the default) picks a free port
    python -m tests.interop.conformance.serve --asgi 0      # REST and socket.io, under uvicorn
    -> "django-services conformance server listening on http://127.0.0.1:<port>"

Without `--asgi`, REST runs on Django's threaded WSGI server. With it, uvicorn serves the ASGI
application of `django_services.server.socketio.get_asgi_application()`: REST and socket.io
(`/socket.io/`, websocket and polling) on the one port, with the websockets protocol the
deployment guide recommends (`server.socketio.uvicorn_ws`) where the installed uvicorn and
websockets run it, so that the Feathers JS clients meet it. The tables are created first (the test
models have no migrations), then the ready line is printed once the port accepts connections,
and the server runs until it is terminated.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
from typing import Any

READY = "django-services conformance server listening on"


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.interop.conformance.settings")
    import django

    django.setup()

    from django.core.management import call_command

    asgi = "--asgi" in argv
    arguments = [argument for argument in argv if argument != "--asgi"]
    port = int(arguments[0]) if arguments else 0
    call_command("migrate", run_syncdb=True, verbosity=0, interactive=False)
    if asgi:
        serve_asgi(port)
    else:
        serve_wsgi(port)


def serve_wsgi(port: int) -> None:
    from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler
    from django.core.wsgi import get_wsgi_application

    class QuietHandler(WSGIRequestHandler):
        # Headers and body leave in separate writes: without this, Nagle's algorithm and the
        # client's delayed ACK stall every other keep-alive request by 40 ms.
        disable_nagle_algorithm = True

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadedWSGIServer(("127.0.0.1", port), QuietHandler, allow_reuse_address=False)
    server.set_app(get_wsgi_application())
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print(f"{READY} http://127.0.0.1:{server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()


def _websocket_protocol() -> Any:
    try:
        from django_services.server.socketio.uvicorn_ws import WebSocketProtocol
    except ImportError:  # uvicorn before 0.35, or without websockets
        return "auto"
    return WebSocketProtocol


def serve_asgi(port: int) -> None:
    import uvicorn

    from django_services.server.socketio import get_asgi_application

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    # A server started again on the port of one killed binds it while its connections linger.
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    config = uvicorn.Config(
        get_asgi_application(), log_level="warning", lifespan="on", ws=_websocket_protocol()
    )
    server = uvicorn.Server(config)

    async def announce() -> None:
        while not server.started:
            await asyncio.sleep(0.01)
        print(f"{READY} http://127.0.0.1:{listener.getsockname()[1]}", flush=True)

    async def run() -> None:
        ready = asyncio.ensure_future(announce())
        await server.serve(sockets=[listener])
        ready.cancel()

    asyncio.run(run())


if __name__ == "__main__":
    main(sys.argv[1:])
