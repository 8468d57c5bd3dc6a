"""``jsontext.dumps`` (orjson) parses back to what the standard library's compact JSON does:
for every state and every seat's view along whole bot-played games of each title, and for
any JSON-like value (non-string keys, non-ASCII text, integers past 64 bits)."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games import jsontext
from games.engines.base import RulesError
from games.engines.registry import all_engines


def same_as_stdlib(value) -> bool:
    """Written by jsontext and read back by it, as the write path does, or by the standard library."""
    expected = json.loads(json.dumps(value, separators=(",", ":")))
    text, ours = jsontext.encode(value)
    return json.loads(text) == expected and jsontext.loads(text, ours=ours) == expected


def test_every_state_and_view_of_bot_played_games_reads_back_the_same():
    checked = 0
    for engine in all_engines():
        state = engine.setup(players=["a", "b", "c"], options=engine.normalize_options({}), seed=7)
        rng = random.Random(7)
        for _ in range(60):
            assert same_as_stdlib(state)
            for seat in (0, 1, 2, None):
                assert same_as_stdlib(engine.view(state, seat=seat))
            checked += 1
            active = engine.active_seats(state)
            if not active or engine.is_finished(state):
                break
            try:
                engine.apply(state, seat=active[0], command=engine.bot_command(state, seat=active[0], bot=engine.bots[0], rng=rng))
            except RulesError:
                break
    assert checked >= 60 * 2  # both built-in titles played on


keys = st.one_of(st.text(max_size=8), st.integers(-10, 10), st.booleans(), st.none())
json_like = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70), st.text(),
              st.floats(allow_nan=False, allow_infinity=False)),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=4)),
    max_leaves=20,
)


@settings(deadline=None, max_examples=400)
@given(json_like)
def test_any_json_like_value_reads_back_the_same(value):
    assert same_as_stdlib(value)


def test_integers_past_64_bits_are_written_and_read_by_the_standard_library():
    value = {"rng": 2**64, "low": -(2**63) - 1, "ok": 2**64 - 1}
    text, ours = jsontext.encode(value)
    assert not ours and jsontext.loads(text, ours=ours) == value
    assert jsontext.encode({"ok": 2**64 - 1, "low": -(2**63)}) == ('{"ok":18446744073709551615,"low":-9223372036854775808}', True)
