"""Issue 18's later corrections. Games started before them keep the readings they began with.

Three corrections change what a logged command does, so a game already started must keep
its old reading to play on as it began and for ``games.replay`` to rebuild exactly its
saved state (replay sets the game up from its options):

- ``auction_lots='whole-route'``: the bankruptcy auction gave the winner the whole route
  (the correction: exactly the lot sold);
- ``avoid_cities_rule='ignore'``: the board's ``avoid_cities`` did not keep independents
  out at setup (the correction: it does);
- ``market_tableau='grows'``: every market delivery dealt one more market contract (the
  correction's default: the market keeps ``market_size`` contracts).

Each key is written only where absent. The saved states are not touched: the engine reads
a state whose options lack a key as the old reading. Lobby games (not started) get the
corrections when they start.
"""

from django.db import migrations

KIND = "wood-and-steel"
BEFORE = {"auction_lots": "whole-route", "avoid_cities_rule": "ignore", "market_tableau": "grows"}


def mark_started_games(Game) -> int:
    """Write the old readings into the options of every started Wood and Steel game that
    lacks them; return how many games were changed."""
    changed = 0
    for game in Game.objects.filter(kind=KIND, started_at__isnull=False).only("id", "options").iterator():
        options = dict(game.options or {})
        missing = {k: v for k, v in BEFORE.items() if k not in options}
        if not missing:
            continue
        Game.objects.filter(pk=game.pk).update(options={**options, **missing})
        changed += 1
    return changed


def forwards(apps, schema_editor):
    mark_started_games(apps.get_model("games", "Game"))


def backwards(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for game in Game.objects.filter(kind=KIND, started_at__isnull=False).only("id", "options").iterator():
        options = dict(game.options or {})
        kept = {k: v for k, v in options.items() if not (k in BEFORE and v == BEFORE[k])}
        if kept != options:
            Game.objects.filter(pk=game.pk).update(options=kept)


class Migration(migrations.Migration):
    dependencies = [("companion", "0003_segment_unit_for_started_games")]
    operations = [migrations.RunPython(forwards, backwards)]
