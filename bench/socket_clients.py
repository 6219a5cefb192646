"""
One client process of the socket benchmark (`bench.sockets` starts a few): many socket.io
clients in one event loop, recording when each `people created` event arrives.

    python -m bench.socket_clients http://127.0.0.1:8000 250

Speaks JSON lines: prints `{"connected": n, "failed": k, ...}` once its sockets are connected,
then reads `{"expect": writes, "timeout": seconds}` from stdin, waits until every socket has
received that many events (or the timeout), prints the latencies and counts, and disconnects.

A write names itself `"<sequence> <send time>"` (the writer's `time.monotonic()`, the same
clock in every process of one machine), so each delivery's latency is its arrival time minus
that send time.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections import Counter
from typing import Any

import socketio

EVENT = "people created"
#: Sockets connecting at once: a handshake storm would time out on a loaded 2-core machine.
CONNECT_CONCURRENCY = 20


class Receiver:
    """One socket: what it received, and when."""

    def __init__(self, url: str, latencies: list[float]) -> None:
        self.url = url
        self.latencies = latencies
        self.seen: set[int] = set()
        self.received = 0
        self.disconnect_reason: str | None = None
        self.connected_at = self.disconnected_after = 0.0
        self.sio = socketio.AsyncClient(reconnection=False)
        self.sio.on(EVENT, self.on_created)
        self.sio.on("disconnect", self.on_disconnect)

    async def on_disconnect(self, reason: Any = None) -> None:
        self.disconnect_reason = str(reason)
        self.disconnected_after = time.monotonic() - self.connected_at

    async def on_created(self, person: dict[str, Any], offset: str | None = None) -> None:
        # `offset`: a server with connection state recovery on appends one to every event.
        arrived = time.monotonic()
        sequence, sent = person["name"].split()
        self.latencies.append((arrived - float(sent)) * 1000)
        self.seen.add(int(sequence))
        self.received += 1

    async def connect(self) -> bool:
        try:
            await self.sio.connect(self.url, transports=["websocket"], wait_timeout=60)
        except socketio.exceptions.ConnectionError:
            return False
        self.connected_at = time.monotonic()
        return True


async def _wait_for(receivers: list[Receiver], expected: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(len(receiver.seen) >= expected for receiver in receivers):
            return
        await asyncio.sleep(0.05)


def _rss_kb() -> int:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


def _say(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


async def run(url: str, count: int) -> None:
    latencies: list[float] = []
    receivers = [Receiver(url, latencies) for _ in range(count)]
    gate = asyncio.Semaphore(CONNECT_CONCURRENCY)

    async def connect(receiver: Receiver) -> bool:
        async with gate:
            return await receiver.connect()

    started = time.monotonic()
    outcomes = await asyncio.gather(*(connect(receiver) for receiver in receivers))
    connected = [receiver for receiver, ok in zip(receivers, outcomes, strict=True) if ok]
    _say(
        {
            "connected": len(connected),
            "failed": count - len(connected),
            "connect_seconds": time.monotonic() - started,
            "rss_kb": _rss_kb(),
        }
    )
    cpu_connected = time.process_time()
    loop = asyncio.get_running_loop()
    try:
        order = json.loads(await loop.run_in_executor(None, sys.stdin.readline))
        await _wait_for(connected, order["expect"], order["timeout"])
        _say(
            {
                "latencies_ms": [round(value, 3) for value in latencies],
                "received": sum(receiver.received for receiver in connected),
                "unique": sum(len(receiver.seen) for receiver in connected),
                "short_sockets": sum(
                    1 for receiver in connected if len(receiver.seen) < order["expect"]
                ),
                "disconnected": dict(
                    Counter(
                        receiver.disconnect_reason
                        for receiver in connected
                        if receiver.disconnect_reason is not None
                    )
                ),
                "disconnected_after": sorted(
                    round(receiver.disconnected_after, 1)
                    for receiver in connected
                    if receiver.disconnect_reason is not None
                ),
                "cpu_seconds": time.process_time() - cpu_connected,
                "rss_kb": _rss_kb(),
            }
        )
    finally:
        await asyncio.gather(
            *(receiver.sio.disconnect() for receiver in connected), return_exceptions=True
        )


def main(argv: list[str] | None = None) -> int:
    url, count = (argv if argv is not None else sys.argv[1:])[:2]
    asyncio.run(run(url, int(count)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
