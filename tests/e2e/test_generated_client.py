"""A client generated from /api/schema/ (openapi-python-client, as a third party would make one)
plays a Locomotive Werks game against two bots to the end over real HTTP, through its typed
models only: the game's options, the typed state, the legal commands parsed into one model per
command and sent back as they are, and the typed errors."""

from __future__ import annotations

import importlib
import random
import subprocess
import sys
import time
from pathlib import Path

import httpx

from games.models import Game

PACKAGE = "junction_generated_client"
GAME_SECONDS = 300  # the whole game: the bots' moves take their time on a busy machine (a deadline, not a count)
POLL_PAUSE = 0.05  # between two reads of the state while the bots move


def generate_client(url: str, where: Path):
    """The client package openapi-python-client makes from the served schema, imported."""
    schema = httpx.get(f"{url}/api/schema/", headers={"Accept": "application/vnd.oai.openapi+json"}, timeout=30)
    assert schema.status_code == 200
    (where / "schema.json").write_bytes(schema.content)
    (where / "config.yml").write_text(f"project_name_override: {PACKAGE}\npackage_name_override: {PACKAGE}\npost_hooks: []\n")
    tool = Path(sys.executable).with_name("openapi-python-client")
    done = subprocess.run(
        [str(tool), "generate", "--path", "schema.json", "--config", "config.yml", "--meta", "none"],
        cwd=where, capture_output=True, text=True, timeout=240,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Warning" not in done.stdout + done.stderr, done.stdout + done.stderr  # every schema was understood
    sys.path.insert(0, str(where))
    try:
        importlib.invalidate_caches()
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]
        return importlib.import_module(PACKAGE), where
    finally:
        sys.path.remove(str(where))


def test_a_generated_client_plays_locomotive_werks_against_bots_to_the_end(daphne, tmp_path):
    server = daphne()
    generated, _ = generate_client(server.url, tmp_path)
    sys.path.insert(0, str(tmp_path))
    try:
        api = importlib.import_module(f"{PACKAGE}.api.api")
        models = importlib.import_module(f"{PACKAGE}.models")
        for name in ("api_games_create", "api_games_seats_create", "api_games_start_create",
                     "api_games_state_retrieve", "api_games_commands_create", "api_kinds_list"):
            importlib.import_module(f"{PACKAGE}.api.api.{name}")
    finally:
        sys.path.remove(str(tmp_path))
    client = generated.Client(base_url=server.url, timeout=httpx.Timeout(30))

    kinds = {k.kind: k for k in api.api_kinds_list.sync(client=client)}
    lw = kinds["locomotive-werks"]
    assert {c.cmd for c in lw.commands} == {"develop", "buy-units", "shift-units", "pass"}
    assert all(c.help_ for c in lw.commands)  # "help" is a Python builtin: the generator names it help_

    body = models.LocomotiveWerksGameCreateRequest(
        kind=models.LocomotiveWerksGameCreateRequestKind("locomotive-werks"),
        name="Client",
        options=models.LocomotiveWerksOptions(end_threshold=120),
    )
    created = api.api_games_create.sync(client=client, body=body)
    assert isinstance(created, models.GameCreated), created
    code, token = created.code, f"Bearer {created.host_token}"
    for bot in ("greedy", "random"):
        seated = api.api_games_seats_create.sync(code, client=client, body=models.SeatJoinRequest(bot=bot), authorization=token)
        assert isinstance(seated, models.SeatJoined), seated
    started = api.api_games_start_create.sync(code, client=client, authorization=token)
    assert isinstance(started, models.CommandResult) and started.version == 1

    # a command its model can carry but the rules' shape refuses: a typed error, nothing done
    wrong = api.api_games_commands_create.sync(
        code, client=client, authorization=token,
        body=models.LocomotiveWerksDevelopCommand(cmd=models.LocomotiveWerksDevelopCommandCmd("develop"), space=99),
    )
    assert isinstance(wrong, models.Error) and wrong.error.code == "invalid-command" and "'space'" in wrong.error.message

    rng = random.Random(7)
    calls = moves = 0
    kinds_sent: set[str] = set()
    reused_checked = False
    deadline = time.monotonic() + GAME_SECONDS
    while time.monotonic() < deadline:
        calls += 1
        view = api.api_games_state_retrieve.sync(code, client=client, authorization=token)
        assert isinstance(view, models.State), view
        state = view.state
        assert isinstance(state, models.LocomotiveWerksState), type(state)
        if view.status != "active":
            break
        if not view.legal_commands:  # the bots are moving: wait a little for them
            time.sleep(POLL_PAUSE)
            continue
        assert all(type(c).__name__.startswith("LocomotiveWerks") for c in view.legal_commands), view.legal_commands
        # develop the dearest type it can, buy as many units as it can, else pass
        legal = view.legal_commands
        develops = [c for c in legal if isinstance(c, models.LocomotiveWerksDevelopCommand)]
        buys = [c for c in legal if isinstance(c, models.LocomotiveWerksBuyUnitsCommand)]
        passes = [c for c in legal if isinstance(c, models.LocomotiveWerksPassCommand)]
        if develops:
            command = max(develops, key=lambda c: c.space)
        elif buys and rng.random() < 0.8:
            command = max(buys, key=lambda c: c.count)
        else:
            command = passes[0]
        command.command_id = f"client-{moves}"
        command.expected_version = view.version
        answer = api.api_games_commands_create.sync(code, client=client, body=command, authorization=token)
        assert isinstance(answer, models.CommandResult), answer
        assert answer.version == view.version + 1 and answer.response == f"{command.cmd.value}-response"
        kinds_sent.add(command.cmd.value)
        if not reused_checked and not isinstance(command, models.LocomotiveWerksPassCommand):
            # the same id for another command: refused, naming the first
            other = models.LocomotiveWerksPassCommand(cmd=models.LocomotiveWerksPassCommandCmd("pass"), command_id=command.command_id)
            refused = api.api_games_commands_create.sync(code, client=client, body=other, authorization=token)
            assert isinstance(refused, models.Error) and refused.error.code == "command-id-reused", refused
            again = api.api_games_commands_create.sync(code, client=client, body=command, authorization=token)
            assert isinstance(again, models.CommandResult) and again.version == answer.version  # a retry: the first result
            reused_checked = True
        moves += 1
    else:
        raise AssertionError(f"the game did not end in {GAME_SECONDS} s ({calls} reads of the state)")

    assert view.status == "finished" and state.finished and state.winners and state.round_ > 1  # "round" is a builtin: round_
    assert reused_checked and {"develop", "pass"} <= kinds_sent and moves > 5
    game = Game.objects.get(code=code)
    assert game.status == Game.Status.FINISHED
    assert max(p["coins"] for p in game.state["players"]) >= 120
    # every move this client made is in the log as it sent it
    sent = [a for a in game.actions.filter(seat=0).order_by("sequence") if a.command_id and a.command_id.startswith("client-")]
    assert len(sent) == moves
    print(f"\ngenerated client: {moves} moves over {calls} state reads, {state.round_} rounds, winners {state.winners}")
