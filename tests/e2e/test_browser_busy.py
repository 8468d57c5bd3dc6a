"""In Chromium against Daphne: a server that answers "database busy" (503 with Retry-After
over HTTP, a database-busy error frame over the socket) is asked again by the page scripts
after the time it gave, with the same command id, and the person's action goes through."""

from __future__ import annotations

import json

import pytest

from .conftest import create_game

pytestmark = pytest.mark.browser


def test_a_seat_request_answered_503_is_asked_again(live_server_url, new_page):
    host = new_page(width=1024, height=800)
    code = create_game(host, live_server_url, kind="toy", name="Ann")
    phone = new_page(width=360, height=740)
    calls = []

    def busy_once(route):
        calls.append(route.request.method)
        if len(calls) == 1:
            route.fulfill(status=503, headers={"Retry-After": "1", "Content-Type": "application/json"},
                          body=json.dumps({"status": "error", "error": {"code": "database-busy", "message": "busy"}}))
        else:
            route.continue_()

    phone.route(f"**/api/games/{code}/seats", busy_once)
    phone.goto(f"{live_server_url}/join/{code}")
    phone.fill("#join-name", "Bo")
    phone.click("text=Take a seat")
    phone.wait_for_url(f"**/games/{code}/")
    assert calls == ["POST", "POST"]
    host.wait_for_selector("#seat-list li[data-seat='1']")
    assert phone.is_hidden("#join-error")


def test_a_socket_command_answered_database_busy_is_sent_again_with_its_id(live_server_url, new_page):
    host = new_page(width=1024, height=800)
    create_game(host, live_server_url, kind="toy", name="Ann")
    sent: list[dict] = []

    def relay(ws):
        server = ws.connect_to_server()

        def from_page(message):
            body = json.loads(message)
            sent.append(body)
            if len(sent) == 1:  # the first command: the server is "busy" and does nothing
                ws.send(json.dumps({"type": "error", "error": {"code": "database-busy", "message": "busy"},
                                    "retry_after": 1, "command_id": body.get("command_id")}))
            else:
                server.send(message)

        ws.on_message(from_page)
        server.on_message(lambda message: ws.send(message))

    host.route_web_socket("**/ws/games/**", relay)
    host.reload()
    host.wait_for_selector("#conn[data-state=open]")
    host.click("#add-bot")
    host.wait_for_selector("#seat-list li[data-seat='1']")
    host.click("#start-game")
    host.wait_for_selector("body[data-status=active][data-version='1']")
    host.click("#legal button >> nth=0")
    host.wait_for_function("Number(document.body.dataset.version) >= 2", timeout=15_000)
    commands = [b for b in sent if b.get("cmd") not in (None, "get-state")]
    assert len(commands) == 2 and commands[0]["command_id"] == commands[1]["command_id"]
    assert host.is_hidden("#play-error")
