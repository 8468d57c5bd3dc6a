"""games/readcache.py on its own: bounded in bytes (least recently used out first), one copy per read
(a newer version replaces the older at once, an older one never replaces a newer), concurrent misses
of one key build it once, keys and ETags per game, version, status, viewer and ask."""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace

import pytest

from games import readcache
from games.readcache import ReadCache, etag_matches, read_key


def game(pk=1, code="ABCDE", version=3, status="active"):
    return SimpleNamespace(pk=pk, code=code, version=version, status=status)


def builder(value, calls=None):
    def build():
        if calls is not None:
            calls.append(value)
        return value
    return build


@pytest.fixture
def small(settings):
    settings.JUNCTION_READ_CACHE_BYTES = 4000
    return ReadCache()


def test_keys_name_the_game_version_status_viewer_and_ask():
    base = read_key(game=game(), seat=0, ask=("state",))
    assert base == read_key(game=game(), seat=0, ask=("state",))
    assert base.etag == read_key(game=game(), seat=0, ask=("state",)).etag
    assert base.etag.startswith('W/"ABCDE-3-seat0-') and base.etag.endswith('"')
    others = [
        read_key(game=game(version=4), seat=0, ask=("state",)),
        read_key(game=game(status="paused"), seat=0, ask=("state",)),
        read_key(game=game(), seat=1, ask=("state",)),
        read_key(game=game(), seat=None, ask=("state",)),
        read_key(game=game(), seat=0, ask=("actions", 0)),
        read_key(game=game(pk=2, code="FGHIJ"), seat=0, ask=("state",)),
    ]
    assert all(k != base for k in others)
    assert len({base.etag, *(k.etag for k in others)}) == 7
    assert read_key(game=game(), seat=None, ask=("state",)).etag.startswith('W/"ABCDE-3-spectator-')


def test_if_none_match_compares_weakly_and_takes_lists_and_star():
    etag = 'W/"ABCDE-3-seat0-00ff"'
    assert etag_matches(if_none_match=etag, etag=etag)
    assert etag_matches(if_none_match='"ABCDE-3-seat0-00ff"', etag=etag)
    assert etag_matches(if_none_match='"x", W/"ABCDE-3-seat0-00ff"', etag=etag)
    assert etag_matches(if_none_match="*", etag=etag)
    assert not etag_matches(if_none_match=None, etag=etag)
    assert not etag_matches(if_none_match="", etag=etag)
    assert not etag_matches(if_none_match='W/"ABCDE-3-seat1-00ff"', etag=etag)


def test_kept_bytes_are_served_and_built_once(small):
    calls = []
    key = read_key(game=game(), seat=0, ask=("state",))
    first = small.get(key, builder({"a": 1}, calls))
    again = small.get(key, builder({"a": 2}, calls))
    assert first == again == b'{"a":1}' and calls == [{"a": 1}]
    assert small.size == len(first) and len(small) == 1


def test_a_newer_version_replaces_the_older_and_an_older_never_replaces_a_newer(small):
    v3, v4 = (read_key(game=game(version=v), seat=0, ask=("state",)) for v in (3, 4))
    small.get(v3, builder("three"))
    small.get(v4, builder("four"))
    assert len(small) == 1 and small.size == len(b'"four"')  # the old version's bytes are gone at once
    calls = []
    assert small.get(v3, builder("three again", calls)) == b'"three again"'  # a request that read the row before the move
    assert calls and len(small) == 1
    assert small.get(v4, builder("never built", calls)) == b'"four"'  # the newer copy stayed


def test_the_cache_is_bounded_in_bytes_least_recently_used_out_first(small):
    keys = [read_key(game=game(pk=i, code=f"G{i:04d}"), seat=None, ask=("state",)) for i in range(10)]
    body = "x" * 998  # 1,000 bytes rendered
    for key in keys[:4]:
        small.get(key, builder(body))
    assert small.size == 4000 and len(small) == 4
    small.get(keys[0], builder("never built"))  # keys[0] used again: keys[1] is now the oldest
    small.get(keys[4], builder(body))
    assert small.size <= 4000 and len(small) == 4
    calls = []
    small.get(keys[0], builder(body, calls))
    assert calls == []
    small.get(keys[1], builder(body, calls))
    assert calls == [body]  # evicted, built again
    for key in keys:
        small.get(key, builder(body))
    assert small.size <= 4000


def test_a_read_bigger_than_a_quarter_of_the_bound_is_served_not_kept(small):
    key = read_key(game=game(), seat=0, ask=("state",))
    assert small.get(key, builder("y" * 1500)) == b'"' + b"y" * 1500 + b'"'
    assert len(small) == 0 and small.size == 0


def test_nothing_is_kept_when_the_bound_is_zero(settings):
    settings.JUNCTION_READ_CACHE_BYTES = 0
    cache = ReadCache()
    calls = []
    key = read_key(game=game(), seat=0, ask=("state",))
    cache.get(key, builder(1, calls))
    cache.get(key, builder(1, calls))
    assert len(calls) == 2 and len(cache) == 0


def test_concurrent_misses_of_one_key_build_it_once(settings):
    settings.JUNCTION_READ_CACHE_BYTES = 1 << 20
    cache = ReadCache()
    key = read_key(game=game(), seat=None, ask=("get-state", True, True))
    release = threading.Event()
    calls = []

    def build():
        calls.append(1)
        release.wait(10)
        return {"big": "z" * 1000}

    results = []
    threads = [threading.Thread(target=lambda: results.append(cache.get(key, build))) for _ in range(16)]
    for t in threads:
        t.start()
    while not calls:
        time.sleep(0.01)
    time.sleep(0.2)  # the others reach the key being built and wait for it
    release.set()
    for t in threads:
        t.join(10)
    assert len(results) == 16 and len(set(results)) == 1
    assert len(calls) == 1 and cache.builds == 1


def test_an_error_while_building_keeps_nothing_and_reaches_every_asker(small):
    key = read_key(game=game(), seat=0, ask=("replay", 99))

    def build():
        raise LookupError("no such step")

    for _ in range(2):
        with pytest.raises(LookupError):
            small.get(key, build)
    assert len(small) == 0 and small.get(key, builder("ok")) == b'"ok"'


def test_reads_forget_empties_the_process_cache(settings):
    settings.JUNCTION_READ_CACHE_BYTES = 1 << 20
    readcache.read_bytes(key=read_key(game=game(), seat=0, ask=("state",)), build=builder(1))
    assert len(readcache.READS) >= 1
    readcache.reads_forget()
    assert len(readcache.READS) == 0 and readcache.READS.size == 0
