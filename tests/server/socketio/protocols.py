"""
uvicorn's websocket protocols the socket.io server's direct frame writes know, each a
`ws` of `LiveSocketServer`: those of the installed uvicorn (and websockets), lowest and newest.

    @pytest.mark.parametrize("ws", PROTOCOLS)
    async def test_...(services_settings, transactional_db, ws):
        with LiveSocketServer(ws=ws) as live:
            ...
"""

from __future__ import annotations

import asyncio
import importlib.util
from typing import Any

import pytest
from uvicorn.config import WS_PROTOCOLS

__all__ = ["LEGACY", "PROTOCOLS", "SANSIO", "UNPAUSED"]

#: uvicorn's `websockets` protocol runs on websockets' legacy API, deprecated in 14.0, and is
#: deprecated by uvicorn itself (0.36).
LEGACY = pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore:.*deprecated")

SANSIO = bool("websockets-sansio" in WS_PROTOCOLS and importlib.util.find_spec("websockets"))

PROTOCOLS: list[Any] = [
    "wsproto",
    pytest.param("websockets", marks=LEGACY, id="websockets"),
]
#: The protocols above, and uvicorn 0.35's sans-I/O one, which never pauses its writes.
UNPAUSED: list[Any] = list(PROTOCOLS)

if SANSIO:
    from django_services.server.socketio.uvicorn_ws import WebSocketProtocol

    class UnpausedProtocol(WebSocketProtocol):
        """The sans-I/O protocol as uvicorn 0.35 has it: its `send` never waits for a drain."""

        pause_writing = asyncio.BaseProtocol.pause_writing
        resume_writing = asyncio.BaseProtocol.resume_writing

    PROTOCOLS += ["websockets-sansio", pytest.param(WebSocketProtocol, id="uvicorn_ws")]
    UNPAUSED = [*PROTOCOLS, pytest.param(UnpausedProtocol, id="unpaused")]
