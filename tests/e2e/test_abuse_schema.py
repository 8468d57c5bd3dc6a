"""Schemathesis over the OpenAPI schema at /api/schema/: 5,000 generated calls on each of ``make test``'s
two passes, so 10,000 a run, each pass with its own random cases (valid and deliberately invalid bodies, query strings, headers and path codes, against
real and random games and tokens), never a 5xx, errors always in the documented shape,
and the games' logs stay gapless."""

from __future__ import annotations

import os
from contextlib import contextmanager

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as hypothesis_settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from bench.common import UNLIMITED
from games.models import Game

from .conftest import ensure_wood_and_steel_board

pytestmark = pytest.mark.django_db(transaction=False)

# The issue asked for >= 10,000 calls: each pass of `make test` makes half, with cases of its own (hypothesis
# draws them at random); SCHEMA_FUZZ_CALLS=10000 makes all of them in one pass.
TOTAL_CALLS = int(os.environ.get("SCHEMA_FUZZ_CALLS", "5000"))
PER_RUN = 60  # examples per (operation, variant) run; runs go round until TOTAL_CALLS


def make_games(client) -> list[dict]:
    """A lobby game and a started game, with their tokens, for the realistic variants."""
    lobby = client.post("/api/games", {"kind": "toy", "name": "Ann"}, content_type="application/json").json()
    started = client.post("/api/games", {"kind": "toy", "name": "Bo", "options": {"target": 1000}}, content_type="application/json").json()
    joined = client.post(f"/api/games/{started['code']}/seats", {"name": "Cy"}, content_type="application/json").json()
    client.post(f"/api/games/{started['code']}/start", content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {started['host_token']}")
    return [
        {"code": lobby["code"], "tokens": [lobby["host_token"]]},
        {"code": started["code"], "tokens": [started["host_token"], joined["token"]]},
    ]


@contextmanager
def wsgi_keeps_test_connection():
    """The WSGI handler closes database connections after each request, which would end the
    test's transaction; Django's own test client detaches the same signal (and reattaches it
    after each of its requests, so enter this after using it)."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def test_ten_thousand_generated_calls_get_no_5xx(client, settings):
    for name, rate in UNLIMITED.items():  # exercise the endpoints, not the limiter
        setattr(settings, name, rate)
    ensure_wood_and_steel_board()  # its routes answer 503 without one (a missing deployment step)
    games = make_games(client)
    calls = {"n": 0, "by_status": {}}
    failures: list[str] = []

    def check(case, path_parameters, headers) -> None:
        saved = dict(case.path_parameters or {})
        if path_parameters:
            case.path_parameters = {**saved, **path_parameters}
        try:
            response = case.call(headers=headers)
        finally:
            case.path_parameters = saved
        calls["n"] += 1
        calls["by_status"][response.status_code] = calls["by_status"].get(response.status_code, 0) + 1
        where = f"{case.method} {case.path} {path_parameters or case.path_parameters} {case.query} {case.body!r:.200}"
        if response.status_code >= 500:
            failures.append(f"{where} -> {response.status_code}")
        elif 400 <= response.status_code < 500 and case.path.startswith("/api/") and response.status_code != 405:
            body = response.json()
            if not (body.get("status") == "error" and body["error"]["code"] and body["error"]["message"]):
                failures.append(f"{where} -> {response.status_code} without the error shape")

    # Contexts a generated request is replayed in: as generated, and against real games with
    # real, foreign and missing tokens (generation is the slow part; calls are cheap).
    lobby, started = games
    bearer = lambda token: {"Authorization": f"Bearer {token}"}  # noqa: E731
    contexts = [
        (None, {}),
        ({"code": started["code"]}, bearer(started["tokens"][1])),
        ({"code": started["code"]}, {}),
        ({"code": lobby["code"]}, bearer(lobby["tokens"][0])),
        ({"code": started["code"]}, bearer(started["tokens"][0])),
        ({"code": started["code"]}, bearer(lobby["tokens"][0])),
    ]

    with wsgi_keeps_test_connection():
        schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
        operations = [result.ok() for result in schema.get_all_operations()]
        assert len(operations) >= 10
        cases = []
        for op in operations:
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                try:
                    strategy = op.as_strategy(generation_mode=mode)
                except Exception:  # nothing to negate
                    continue

                @hypothesis_settings(
                    max_examples=PER_RUN, deadline=None, database=None, phases=[Phase.generate],
                    suppress_health_check=list(HealthCheck),
                )
                @given(case=strategy)
                def collect(case):
                    cases.append(case)

                try:
                    collect()
                except Unsatisfiable:
                    pass
        assert len(cases) >= 500
        rounds = 0
        while calls["n"] < TOTAL_CALLS and rounds < 50:
            for case in cases:
                if calls["n"] >= TOTAL_CALLS:
                    break
                path_parameters, headers = contexts[rounds % len(contexts)] if "{code}" in case.path else (None, contexts[rounds % 2][1])
                check(case, path_parameters, headers)
            rounds += 1
    assert not failures, "\n".join(failures[:20])
    assert calls["n"] >= TOTAL_CALLS, calls
    assert calls["by_status"].get(200, 0) + calls["by_status"].get(201, 0) > 100  # not only rejections
    for game in Game.objects.exclude(version=0):  # whatever was played, the log is gapless
        assert list(game.actions.order_by("sequence").values_list("sequence", flat=True)) == list(range(1, game.version + 1))


STATEFUL_EXAMPLES = int(os.environ.get("SCHEMA_FUZZ_SEQUENCES", "60"))


def test_stateful_sequences_get_no_5xx(client, settings):
    """Schemathesis' stateful mode: sequences of calls joined by the schema's links (a created
    game's `code` into the next call's path: games/api/schema.py); no answer is a 5xx, every
    /api error has the shape, every log is gapless."""
    for name, rate in UNLIMITED.items():  # exercise the endpoints, not the limiter
        setattr(settings, name, rate)
    ensure_wood_and_steel_board()
    seen = {"calls": 0, "statuses": {}, "failures": []}

    with wsgi_keeps_test_connection():
        schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
        machine = schema.as_state_machine()

        class Checked(machine):
            def validate_response(self, response, case, **kwargs):
                seen["calls"] += 1
                seen["statuses"][response.status_code] = seen["statuses"].get(response.status_code, 0) + 1
                where = f"{case.method} {case.path} {case.path_parameters} {case.body!r:.200}"
                if response.status_code >= 500:
                    seen["failures"].append(f"{where} -> {response.status_code}")
                elif response.status_code >= 400 and case.path.startswith("/api/") and response.status_code != 405:
                    body = response.json()
                    if not (body.get("status") == "error" and body["error"]["code"] and body["error"]["message"]):
                        seen["failures"].append(f"{where} -> {response.status_code} without the error shape")

        Checked.run(settings=hypothesis_settings(
            max_examples=STATEFUL_EXAMPLES, stateful_step_count=8, deadline=None, database=None,
            suppress_health_check=list(HealthCheck),
        ))
    assert not seen["failures"], "\n".join(seen["failures"][:20])
    assert seen["calls"] >= STATEFUL_EXAMPLES
    linked = sum(n for status, n in seen["statuses"].items() if status in (200, 201))
    assert linked > 0, seen["statuses"]  # sequences got past their first call
    print(f"\nstateful: {seen['calls']} calls in {STATEFUL_EXAMPLES} sequences, statuses {dict(sorted(seen['statuses'].items()))}")
    for game in Game.objects.exclude(version=0):
        assert list(game.actions.order_by("sequence").values_list("sequence", flat=True)) == list(range(1, game.version + 1))
