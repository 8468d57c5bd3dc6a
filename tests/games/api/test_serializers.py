"""``command_validate`` (one shared serializer instance) decides exactly as a fresh
``CommandSerializer`` does, for any body and from many threads at once."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.exceptions import ValidationError

from games.api.serializers import CommandSerializer, command_validate

values = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-5, max_value=10**12), st.text(max_size=80),
    st.from_regex(r"[a-z][a-z0-9-]{0,50}", fullmatch=True), st.lists(st.integers(), max_size=2),
)
bodies = st.dictionaries(st.sampled_from(["cmd", "command_id", "expected_version", "n", "city"]), values, max_size=5)


def outcome(body):
    try:
        return True, command_validate(body)
    except ValidationError as exc:
        return False, exc.detail


@settings(deadline=None, max_examples=300)
@given(bodies)
def test_command_validate_decides_as_a_fresh_serializer(body):
    serializer = CommandSerializer(data=body)
    ok = serializer.is_valid()
    assert outcome(body) == (ok, dict(serializer.validated_data) if ok else serializer.errors)


def test_command_validate_from_many_threads_keeps_each_answer_its_own():
    good = [{"cmd": f"move-{i}", "command_id": f"id-{i}", "expected_version": i} for i in range(200)]
    bad = [{"cmd": f"Bad {i}", "expected_version": -i - 1} for i in range(200)]
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(outcome, [b for pair in zip(good, bad, strict=True) for b in pair]))
    for i in range(200):
        assert results[2 * i] == (True, good[i])
        ok, detail = results[2 * i + 1]
        assert not ok and set(detail) == {"cmd", "expected_version"}
