"""A player's record (players/record.py): the GameRecord table, filled for the games the rules finished
before it existed, from their stored final states (the same places players/record.py writes)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def backfill(apps, schema_editor):
    from games.engines.base import RulesError
    from games.engines.registry import get_engine, load_builtin_engines

    load_builtin_engines()
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    GameRecord = apps.get_model("players", "GameRecord")
    games = Game.objects.filter(status="finished", seats__user__isnull=False).distinct().order_by("pk")
    for game in games.iterator(chunk_size=200):
        try:
            engine = get_engine(game.kind)
            if game.state is None or not engine.is_finished(game.state):
                continue
            places = list(engine.standings(game.state))
        except (RulesError, NotImplementedError, KeyError, TypeError, ValueError):
            continue  # a kind no longer installed or without standings, or a state its engine no longer reads
        held = Seat.objects.filter(game_id=game.pk, user__isnull=False).values_list("index", "user_id")
        GameRecord.objects.bulk_create(
            [GameRecord(user_id=user_id, game_id=game.pk, kind=game.kind, seat=index, place=places[index],
                        players=len(places), finished_at=game.finished_at)
             for index, user_id in held if index < len(places)], ignore_conflicts=True)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0007_seat_last_seen_game_unrated'),
        ('players', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='GameRecord',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(max_length=40)),
                ('seat', models.PositiveSmallIntegerField()),
                ('place', models.PositiveSmallIntegerField(help_text='1 = first; equal places are a tie.')),
                ('players', models.PositiveSmallIntegerField(help_text='Seats at the table, bots included.')),
                ('finished_at', models.DateTimeField(blank=True, null=True)),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='records', to='games.game')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='game_records', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['-finished_at', '-game_id'],
                'indexes': [models.Index(fields=['user', 'kind'], name='gamerecord_user_kind')],
                'constraints': [models.UniqueConstraint(fields=('game', 'seat'), name='gamerecord_one_per_game_and_seat')],
            },
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
