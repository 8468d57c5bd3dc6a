"""Broadcast ordering: on the event loop, and of the summaries racing changes send."""

from __future__ import annotations

import asyncio
import json
import socket
import threading

import pytest
from django.db import connection

from games import broadcast, services
from games.selectors import game_get, game_summary

from .factories import actor as services_actor
from .factories import make_game


def test_the_layer_publish_resumes_after_the_writes_the_loop_has_due():
    """Daphne buffers a frame and writes it when the loop sees the socket writable; the
    channel layer's publishes must not run before that (they would delay every local frame)."""
    order = []

    async def scenario():
        loop = asyncio.get_running_loop()
        a, b = socket.socketpair()
        b.setblocking(False)
        try:
            def writable():
                loop.remove_writer(a.fileno())
                a.send(b"frame")
                order.append("written")

            loop.add_writer(a.fileno(), writable)  # as a buffered transport.write does
            await broadcast._after_pending_writes()
            order.append("publish")
            assert b.recv(16) == b"frame"  # already there
        finally:
            a.close()
            b.close()

    asyncio.run(scenario())
    assert order == ["written", "publish"]


def test_send_called_on_an_event_loop_sends_from_that_loop():
    """Outside ``collecting()`` a caller on a loop cannot block on async_to_sync: the
    messages go out from its loop instead."""
    from channels.layers import get_channel_layer

    async def scenario():
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add("game.test-send", channel)
        broadcast.send([("game.test-send", {"type": "relay", "text": "hello"})])
        received = await asyncio.wait_for(layer.receive(channel), 5)
        await layer.group_discard("game.test-send", channel)
        return received

    assert asyncio.run(scenario())["text"] == "hello"


@pytest.mark.django_db(transaction=True)
def test_phones_joining_at_once_the_newest_summary_holds_every_seat(monkeypatch):
    """Each join broadcasts the summary it reads after its commit, and those reads race the other
    joins, so they are sent in any order. Pages keep the one with the highest revision
    (static/js/junction.js): each with the highest must hold every seat."""
    sent: list = []
    lock = threading.Lock()

    def capture(messages):
        with lock:
            sent.extend(messages)

    monkeypatch.setattr(broadcast, "send", capture)
    code, _ = make_game(players=1, start=False)
    read_before = game_summary(game_get(code=code))
    barrier = threading.Barrier(3)

    def join(i: int) -> None:
        try:
            barrier.wait()
            services.seat_join(code=code, name=f"Phone {i}")
        finally:
            connection.close()

    threads = [threading.Thread(target=join, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    summaries = [json.loads(m["summary"])["game"] for _, m in sent if m.get("summary")]
    assert len(summaries) == 3
    assert min(s["revision"] for s in summaries) > read_before["revision"]
    newest = max(s["revision"] for s in summaries)
    # Every summary a page may end on (those with the highest revision: all read after the last bump).
    for summary in summaries:
        if summary["revision"] == newest:
            assert sorted(s["name"] for s in summary["seats"]) == ["Host", "Phone 0", "Phone 1", "Phone 2"]
    # A later read (an HTTP answer, a reconnecting socket's snapshot) is as new as the newest broadcast.
    assert game_summary(game_get(code=code))["revision"] == newest


@pytest.mark.django_db
def test_a_move_orders_its_summary_by_version_without_a_write_of_its_own(monkeypatch, django_capture_on_commit_callbacks):
    """A clocked game sends its summary with every move (the countdown): the move's version orders
    it, so the move path writes no revision; a change of seats (here logged, so a version too) bumps it."""
    from games.engines.registry import get_engine

    sent: list = []
    monkeypatch.setattr(broadcast, "send", sent.extend)
    code, tokens = make_game(players=2, options={"target": 100}, turn_seconds=3600)
    revision = game_get(code=code).revision
    engine = get_engine("toy")
    for _ in range(2):
        game = game_get(code=code)
        seat = engine.active_seats(game.state)[0]
        with django_capture_on_commit_callbacks(execute=True):
            services.game_command(code=code, actor=services_actor(code, tokens[seat]), command={"cmd": "add", "n": 1})
    summaries = [json.loads(m["summary"])["game"] for _, m in sent if m.get("summary")]
    assert [(s["version"], s["revision"]) for s in summaries] == [(2, revision), (3, revision)]
    with django_capture_on_commit_callbacks(execute=True):
        services.seat_rename(game_id=game_get(code=code).pk, seat=1, name="Bea", by="host")
    renamed = json.loads([m for _, m in sent if m.get("summary")][-1]["summary"])["game"]
    assert (renamed["version"], renamed["revision"]) == (4, revision + 1) and renamed["seats"][1]["name"] == "Bea"
