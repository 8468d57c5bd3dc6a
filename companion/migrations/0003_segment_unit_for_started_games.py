"""Issue 18: a segment is a route. Games started before it keep the old reading.

The engine used to read the rules' "segment" as one unit of route length (a length-3
route took two turns and cost $5,000; mergers were priced per unit of length). Since
issue 18 a new game's options carry ``segment_unit='route'``. Every Wood and Steel game
that had already started (in progress or finished) gets ``segment_unit='length'`` in its
options, so it plays on under the rules it started with and ``games.replay`` rebuilds
exactly the state it has (replay sets the game up from these options). The saved state
is not touched: the engine reads a state whose options lack ``segment_unit`` as
``'length'``. Lobby games (not started) get the rules' reading when they start.
"""

from django.db import migrations

KIND = "wood-and-steel"


def mark_started_games(Game) -> int:
    """Write ``segment_unit='length'`` into the options of every started Wood and Steel
    game that has none; return how many were changed."""
    changed = 0
    for game in Game.objects.filter(kind=KIND, started_at__isnull=False).only("id", "options").iterator():
        options = dict(game.options or {})
        if "segment_unit" in options:
            continue
        options["segment_unit"] = "length"
        Game.objects.filter(pk=game.pk).update(options=options)
        changed += 1
    return changed


def forwards(apps, schema_editor):
    mark_started_games(apps.get_model("games", "Game"))


def backwards(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for game in Game.objects.filter(kind=KIND, started_at__isnull=False).only("id", "options").iterator():
        options = dict(game.options or {})
        if options.get("segment_unit") == "length":
            options.pop("segment_unit")
            Game.objects.filter(pk=game.pk).update(options=options)


class Migration(migrations.Migration):
    dependencies = [("companion", "0002_default_board"), ("games", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
