"""Locomotive Werks' option ``retired_types`` (issue 13). Games started before it keep the
reading they began with.

Before, generation N-2 of a colour stayed developable after someone developed generation N
(until the market phase marked it obsolete); now a new game refuses it (the rules remove
that type's cards). A started game (in progress or finished) gets
``retired_types='developable'`` in its options and in its saved state's options, so it plays
on as it began and ``games.replay`` rebuilds exactly the state it has. Lobby games get the
rules' reading when they start.
"""

from django.db import migrations

KIND = "locomotive-werks"
KEY, BEFORE = "retired_types", "developable"


def mark_started_games(Game) -> int:
    changed = 0
    for game in Game.objects.filter(kind=KIND, started_at__isnull=False).only("id", "options", "state").iterator():
        options = dict(game.options or {})
        if KEY in options:
            continue
        options[KEY] = BEFORE
        state = game.state
        if isinstance(state, dict) and isinstance(state.get("options"), dict):
            state = {**state, "options": {**state["options"], KEY: BEFORE}}
        Game.objects.filter(pk=game.pk).update(options=options, state=state)
        changed += 1
    return changed


def forwards(apps, schema_editor):
    mark_started_games(apps.get_model("games", "Game"))


class Migration(migrations.Migration):
    dependencies = [("games", "0003_rejoin_code")]
    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
