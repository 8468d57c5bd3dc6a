"""A player's record (players/record.py): every game the rules finished with a signed-in player
seated, rated or not, with the place the rules gave them; once per game; not a game the game master
ended; ``recompute_records`` writes the same again; the profile page and ``GET /api/players/NAME``
show it per title, with the last games and the rating's history as a chart."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from games import services
from games.models import Game
from players.models import GameRecord
from players.record import game_record, player_record, rating_history

from .tables import commit, play, table, user  # noqa: F401  (commit: a fixture, used by every test)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("commit")]


def rows(owner) -> list[tuple[str, int, int, int]]:
    return sorted(GameRecord.objects.filter(user=owner).values_list("game__code", "seat", "place", "players"))


def test_a_finished_game_records_each_signed_in_seat_with_its_place_bots_and_guests_at_the_table_too():
    ann, bob = user("ann"), user("bob")
    code, tokens = table({0: ann, 2: bob}, players=3, bots=1)  # seat 1 a guest, seat 3 a bot: unrated, still played
    play(code, tokens, [(0, 1), (1, 2)])  # the guest brings the counter to 3 and wins
    assert rows(ann) == [(code, 0, 2, 4)] and rows(bob) == [(code, 2, 2, 4)]
    assert GameRecord.objects.count() == 2  # the guest and the bot keep no record
    assert player_record(user=ann) == [{"kind": "toy", "title": "Toy race", "played": 1, "won": 0,
                                        "average_place": 2.0, "average_players": 4.0}]


def test_played_won_and_the_average_place_per_title_and_a_game_recorded_once():
    ann, bob = user("ann"), user("bob")
    first, tokens = table({0: ann, 1: bob})
    game = play(first, tokens, [(0, 3)])  # ann wins
    second, tokens = table({0: bob, 1: ann})
    play(second, tokens, [(0, 3)])  # bob wins
    third, tokens = table({0: ann, 1: bob})
    play(third, tokens, [(0, 1), (1, 1), (0, 1)])  # ann wins
    assert player_record(user=ann)[0] | {} == {"kind": "toy", "title": "Toy race", "played": 3, "won": 2,
                                                "average_place": round(4 / 3, 2), "average_players": 2.0}
    assert player_record(user=bob)[0]["won"] == 1
    again = game_record(game_id=game.pk)
    assert [(r.user_id, r.place) for r in again] == [(ann.pk, 1), (bob.pk, 2)]
    assert GameRecord.objects.filter(game=game).count() == 2


def test_a_game_the_game_master_ended_or_one_still_playing_is_no_ones_record():
    ann, bob = user("ann"), user("bob")
    code, _tokens = table({0: ann, 1: bob}, target=20)
    game = Game.objects.get(code=code)
    assert game_record(game_id=game.pk) == []
    services.game_end(game_id=game.pk, by="gm", reason="test")
    assert game_record(game_id=game.pk) == [] and not GameRecord.objects.exists()


def test_recompute_writes_the_same_records_again():
    ann, bob, cy = user("ann"), user("bob"), user("cy")
    for users, players, moves in [({0: ann, 1: bob}, 2, [(0, 3)]), ({0: bob, 1: cy, 2: ann}, 3, [(0, 1), (1, 2)]),
                                  ({0: cy, 1: ann}, 2, [(0, 1), (1, 2)])]:
        code, tokens = table(users, players=players)
        play(code, tokens, moves)
    before = sorted(GameRecord.objects.values_list("user__username", "game__code", "seat", "place", "players"))
    assert len(before) == 7
    GameRecord.objects.filter(user=ann).delete()
    out = io.StringIO()
    call_command("recompute_records", stdout=out)
    assert "7 record(s) written." in out.getvalue()
    assert sorted(GameRecord.objects.values_list("user__username", "game__code", "seat", "place", "players")) == before


def test_the_rating_history_starts_before_the_first_rated_game_and_draws_one_point_per_game():
    ann, bob = user("ann"), user("bob")
    for moves in ([(0, 3)], [(0, 1), (1, 2)], [(0, 3)]):
        code, tokens = table({0: ann, 1: bob})
        play(code, tokens, moves)
    (history,) = rating_history(user=ann)
    assert history["kind"] == "toy" and len(history["ratings"]) == 4
    assert history["ratings"][0] == 0.0  # a newcomer's displayed rating
    assert history["ratings"][1] > history["ratings"][0]  # she won the first
    points = [tuple(map(float, p.split(","))) for p in history["points"].split()]
    assert len(points) == 4 and points == sorted(points)  # left to right
    assert all(0 <= x <= history["width"] and 0 <= y <= history["height"] for x, y in points)
    highest = history["ratings"].index(history["high"])
    assert points[highest][1] == min(y for _x, y in points)  # the highest rating is drawn highest


def test_the_profile_page_and_the_api_show_the_record(client):
    ann, bob = user("ann"), user("bob")
    code, tokens = table({0: ann, 1: bob})
    play(code, tokens, [(0, 3)])  # ann wins, rated
    page = client.get("/players/ann/").content.decode()
    assert 'id="profile-record"' in page and "<td>Toy race</td>" in page
    assert f'href="/games/{code}/replay"' in page and "won of 2" in page
    assert '<polyline points="' in page and 'aria-label="Toy race rating after each rated game' in page
    assert "place 2 of 2" in client.get("/players/bob/").content.decode()
    answer = client.get("/api/players/ann")
    assert answer.status_code == 200
    body = answer.json()
    assert body["player"] == "ann"
    assert body["record"] == [{"kind": "toy", "title": "Toy race", "played": 1, "won": 1, "average_place": 1.0, "average_players": 2.0}]
    assert body["recent_games"][0] | {"finished_at": None} == {"kind": "toy", "title": "Toy race", "code": code, "place": 1,
                                                               "players": 2, "won": True, "finished_at": None}
    assert body["ratings"][0]["games"] == 1 and len(body["rating_history"][0]["ratings"]) == 2
    missing = client.get("/api/players/nobody")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "player-not-found"


def test_a_player_without_games_has_an_empty_record(client):
    user("dee")
    page = client.get("/players/dee/").content.decode()
    assert "No finished games yet." in page and 'id="profile-history"' not in page
    assert client.get("/api/players/dee").json() == {"player": "dee", "record": [], "recent_games": [], "ratings": [],
                                                     "rating_history": []}
