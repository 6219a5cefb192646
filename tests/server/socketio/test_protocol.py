"""What socket.io and Engine.IO themselves answer: other namespaces, other protocol versions."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_namespace_other_than_the_main_one_is_refused(live_socket_server):
    url = live_socket_server.url + "/socket.io/?EIO=4&transport=websocket"
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
        opened = await asyncio.wait_for(ws.receive_str(), 10)
        assert opened.startswith("0{")
        await ws.send_str("40/admin,")
        assert await asyncio.wait_for(ws.receive_str(), 10) == (
            '44/admin,{"message":"Invalid namespace"}'
        )
        # The main namespace of the same Engine.IO connection still connects.
        await ws.send_str("40")
        assert (await asyncio.wait_for(ws.receive_str(), 10)).startswith('40{"sid":')


@pytest.mark.parametrize("query", ["EIO=3&transport=polling", "transport=polling"])
async def test_an_engine_io_3_handshake_is_refused_as_engine_io_refuses_it(
    live_socket_server, query
):
    url = f"{live_socket_server.url}/socket.io/?{query}"
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        assert response.status == 400
        assert response.headers["Content-Type"] == "application/json"
        assert json.loads(await response.read()) == {
            "code": 5,
            "message": "Unsupported protocol version",
        }


async def test_an_engine_io_3_websocket_is_refused(live_socket_server):
    url = live_socket_server.url + "/socket.io/?EIO=3&transport=websocket"
    async with aiohttp.ClientSession() as session:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await session.ws_connect(url)
    assert refused.value.status == 400


@pytest.mark.parametrize(
    "frame",
    [
        '420["create","people",' + "[" * 100_000 + "]" * 100_000 + ",{}]",
        "42not json",
        "49",
        "421{}",
        "421[]",
        '421[["find"],"people"]',
        '421[{"find":1},"people"]',
    ],
    ids=[
        "nested-too-deep",
        "not-json",
        "unknown-packet-type",
        "event-not-a-list",
        "event-without-name",
        "event-name-a-list",
        "event-name-an-object",
    ],
)
async def test_a_packet_socket_io_cannot_decode_closes_that_socket_only(live_socket_server, frame):
    url = live_socket_server.url + "/socket.io/?EIO=4&transport=websocket"
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(url) as bystander,
        session.ws_connect(url) as ws,
    ):
        for socket in (bystander, ws):
            await asyncio.wait_for(socket.receive_str(), 10)
            await socket.send_str("40")
            assert (await asyncio.wait_for(socket.receive_str(), 10)).startswith("40{")
        await ws.send_str(frame)
        # socket.io closes a connection that breaks the protocol ("parse error"):
        # python-engineio sends Engine.IO's close packet, on which clients close.
        message = await asyncio.wait_for(ws.receive(), 10)
        assert (message.type, message.data) == (aiohttp.WSMsgType.TEXT, "1")
        await bystander.send_str('420["find","people",{}]')
        assert await asyncio.wait_for(bystander.receive_str(), 10) == "430[null,[]]"


async def test_a_polling_client_that_closes_gets_its_waiting_poll_answered_at_once(
    live_socket_server,
):
    base = live_socket_server.url + "/socket.io/?EIO=4&transport=polling"
    async with aiohttp.ClientSession() as session:
        async with session.get(base) as response:
            handshake = json.loads((await response.text())[1:])
        url = f"{base}&sid={handshake['sid']}"
        async with session.post(url, data="40") as response:
            assert response.status == 200
        async with session.get(url) as response:
            assert (await response.text()).startswith('40{"sid":')

        async def long_poll() -> str:
            async with session.get(url) as response:
                return await response.text()

        waiting = asyncio.ensure_future(long_poll())
        await asyncio.sleep(0.3)  # the poll is waiting on the server for something to send
        assert not waiting.done()
        async with session.post(url, data="1") as response:  # Engine.IO's close packet
            assert response.status == 200
        # Engine.IO answers the waiting poll when its client closes, rather than holding the
        # request (and its connection) until the ping timeout, 45 s later.
        answer = await asyncio.wait_for(waiting, 5)
        assert answer in ("", "1", "6")


async def test_a_session_keeps_its_handshakes_headers_but_not_its_body_reader(
    connect, live_socket_server
):
    client = await connect(headers={"X-Tenant": "north"})
    sio = live_socket_server.application.server.sio
    environ = sio.get_environ(client.sio.get_sid("/"))
    assert environ["HTTP_X_TENANT"] == "north"
    # python-engineio makes a class for every request's body reader; a handshake has no body.
    assert "wsgi.input" not in environ
    # The socket still calls and is answered, headers and all.
    assert await client.ack("find", "unknown-service") != []
