"""
Serve the conformance fixture over real HTTP, on loopback, with Django's threaded WSGI server.

    DJANGO_SETTINGS_MODULE=tests.interop.conformance.settings \
        python -m tests.interop.conformance.serve 8000      # 0 (the default) picks a free port
    -> "django-services conformance server listening on http://127.0.0.1:<port>"

The tables are created first (the test models have no migrations), then the ready line is
printed and the server runs until it is terminated.
"""

from __future__ import annotations

import os
import signal
import sys
from typing import Any

READY = "django-services conformance server listening on"


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.interop.conformance.settings")
    import django

    django.setup()

    from django.core.management import call_command
    from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler
    from django.core.wsgi import get_wsgi_application

    class QuietHandler(WSGIRequestHandler):
        # Headers and body leave in separate writes: without this, Nagle's algorithm and the
        # client's delayed ACK stall every other keep-alive request by 40 ms.
        disable_nagle_algorithm = True

        def log_message(self, format: str, *args: Any) -> None:
            pass

    port = int(argv[0]) if argv else 0
    call_command("migrate", run_syncdb=True, verbosity=0, interactive=False)
    server = ThreadedWSGIServer(("127.0.0.1", port), QuietHandler, allow_reuse_address=False)
    server.set_app(get_wsgi_application())
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print(f"{READY} http://127.0.0.1:{server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()


if __name__ == "__main__":
    main(sys.argv[1:])
