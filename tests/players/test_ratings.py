"""Ratings (players/ratings.py): a finished game of signed-in players moves their OpenSkill ratings
(the winner up), once; guests play along unrated and their places do not count; a bot at the table,
a seat ever handed to a bot or fewer than two signed-in players rate nobody; ``recompute_ratings``
rebuilds the same numbers from the games' logs; the leaderboard, the kinds and the profile pages."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from games import services
from games.models import Action, Game, Seat
from players.models import Rating, RatingChange
from players.ratings import MU, SIGMA, game_rate, game_rated_places, rating_displayed
from tests.games.factories import actor

from .tables import commit, play, table, user  # noqa: F401  (commit: a fixture, used by every test)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("commit")]


def rating(owner, kind: str = "toy") -> Rating:
    return Rating.objects.get(user=owner, kind=kind)


def test_a_finished_game_of_two_signed_in_players_moves_their_ratings_winner_up():
    ann, bob = user("ann"), user("bob")
    code, tokens = table({0: ann, 1: bob})
    game = play(code, tokens, [(0, 1), (1, 2)])  # bob brings the counter to 3: he wins
    won, lost = rating(bob), rating(ann)
    assert won.mu > MU > lost.mu
    assert won.sigma < SIGMA and lost.sigma < SIGMA
    assert won.games == lost.games == 1
    assert rating_displayed(won.mu, won.sigma) > rating_displayed(lost.mu, lost.sigma)
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=game)}
    assert set(changes) == {ann.pk, bob.pk}
    assert (changes[bob.pk].rank, changes[ann.pk].rank) == (1, 2)
    assert (changes[bob.pk].mu_before, changes[bob.pk].mu_after) == (MU, won.mu)
    assert changes[ann.pk].kind == "toy"


def test_rating_twice_changes_nothing():
    ann, bob = user("ann"), user("bob")
    code, tokens = table({0: ann, 1: bob})
    game = play(code, tokens, [(0, 3)])
    before = [(r.user_id, r.mu, r.sigma, r.games) for r in Rating.objects.order_by("user_id")]
    again = game_rate(game_id=game.pk)
    assert sorted(c.user_id for c in again) == [ann.pk, bob.pk]
    assert RatingChange.objects.filter(game=game).count() == 2
    assert [(r.user_id, r.mu, r.sigma, r.games) for r in Rating.objects.order_by("user_id")] == before


def test_guests_are_not_rated_and_players_behind_the_same_guest_tie():
    ann, bob = user("ann"), user("bob")
    code, tokens = table({0: ann, 2: bob}, players=3)
    game = play(code, tokens, [(0, 1), (1, 2)])  # seat 1, a guest, wins: ann and bob share 2nd
    assert get_engine_standings(game) == [2, 1, 2]
    changes = RatingChange.objects.filter(game=game)
    assert sorted(c.user_id for c in changes) == [ann.pk, bob.pk]
    assert {c.rank for c in changes} == {1}  # tied among the rated
    a, b = rating(ann), rating(bob)
    assert a.mu == pytest.approx(b.mu) and a.sigma == pytest.approx(b.sigma)
    assert a.mu == pytest.approx(MU) and a.sigma < SIGMA


def get_engine_standings(game: Game) -> list[int]:
    from games.engines.registry import get_engine

    return get_engine(game.kind).standings(game.state)


def test_a_game_with_a_bot_rates_nobody():
    ann, bob = user("ann"), user("bob")
    code, tokens = table({0: ann, 1: bob}, bots=1)
    play(code, tokens, [(0, 3)])
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_fewer_than_two_signed_in_players_rate_nobody():
    ann = user("ann")
    code, tokens = table({0: ann})
    play(code, tokens, [(0, 3)])
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_one_player_in_two_seats_rates_nobody():
    ann = user("ann")
    code, tokens = table({0: ann, 1: ann})
    play(code, tokens, [(0, 3)])
    assert not RatingChange.objects.exists()


def test_a_seat_a_bot_played_for_a_while_rates_nobody():
    ann, bob = user("ann"), user("bob")
    code, tokens = table({0: ann, 1: bob}, target=20)
    services.seat_bot_hand(code=code, actor=actor(code, tokens[0]), seat=1)  # the host hands bob's seat to a bot
    services.seat_return(code=code, actor=actor(code, tokens[1]))  # and bob takes it back
    assert not Seat.objects.filter(game__code=code, is_bot=True).exists()
    game = Game.objects.get(code=code)
    moves = []
    counter, seat = game.state["counter"], game.state["turn"]
    while counter < 20:
        moves.append((seat, 3))
        counter, seat = counter + 3, 1 - seat
    play(code, tokens, moves)
    assert not RatingChange.objects.exists()


def test_a_seat_handed_to_another_device_rates_nobody_and_the_recompute_agrees():
    """A seat taken with a rejoin code by anyone but its own account (here the host's account takes
    bob's seat, and could read his hand): the game is finished as usual, and rates nobody, at its end
    or in a recompute. Bob taking his own seat back on a new phone keeps a game rated."""
    ann, bob = user("ann"), user("bob")
    handed, tokens = table({0: ann, 1: bob})
    issued = services.rejoin_code_create(game_id=Game.objects.get(code=handed).pk, seat=1, by="gm")  # a game master: no actor, never held back
    tokens[1] = services.rejoin_code_redeem(code=handed, rejoin_code=issued.code, user=ann).token
    Seat.objects.filter(game__code=handed, index=1).update(user=bob)  # a seat ann also held would rate nobody anyway
    handed_game = play(handed, tokens, [(0, 3)])
    assert handed_game.unrated_reason == "P1's seat was handed to another device"
    assert game_rate(game_id=handed_game.pk) == [] and not RatingChange.objects.exists()

    kept, tokens = table({0: ann, 1: bob})
    issued = services.rejoin_code_create(game_id=Game.objects.get(code=kept).pk, seat=1, by="gm")  # a game master: no actor, never held back
    tokens[1] = services.rejoin_code_redeem(code=kept, rejoin_code=issued.code, user=bob).token
    kept_game = play(kept, tokens, [(0, 3)])
    assert kept_game.unrated_reason == "" and RatingChange.objects.filter(game=kept_game).count() == 2

    out = io.StringIO()
    call_command("recompute_ratings", stdout=out)
    assert "1 game(s) rated" in out.getvalue()
    assert set(RatingChange.objects.values_list("game_id", flat=True)) == {kept_game.pk}


def test_an_unfinished_or_abandoned_game_rates_nobody():
    ann, bob = user("ann"), user("bob")
    code, tokens = table({0: ann, 1: bob}, target=20)
    game = Game.objects.get(code=code)
    assert game_rated_places(game=game, state=game.state) == []
    services.game_end(game_id=game.pk, by="gm", reason="test")
    assert game_rate(game_id=game.pk) == []
    assert not RatingChange.objects.exists()


def test_recompute_rebuilds_the_same_ratings_from_the_logs():
    ann, bob, cy = user("ann"), user("bob"), user("cy")
    played = [
        ({0: ann, 1: bob}, 2, [(0, 3)]),
        ({0: bob, 1: cy, 2: ann}, 3, [(0, 1), (1, 1), (2, 1)]),
        ({0: cy, 1: ann}, 2, [(0, 1), (1, 2)]),
        ({0: ann, 2: cy}, 3, [(0, 2), (1, 1)]),  # a guest wins: ann and cy tie
        ({0: bob, 1: ann}, 2, [(0, 2), (1, 1)]),
    ]
    games = []
    for users, players, moves in played:
        code, tokens = table(users, players=players)
        games.append(play(code, tokens, moves))
    incremental = _numbers()
    assert len(incremental[1]) == 11 and [r[:3] for r in incremental[0]] == [("ann", "toy", 5), ("bob", "toy", 3), ("cy", "toy", 3)]
    # The recompute reads the log, not the stored state: a stored state that says otherwise is ignored.
    first = games[0]
    first.state = {**first.state, "winner": 1}
    first.save(update_fields=["state"])
    out = io.StringIO()
    call_command("recompute_ratings", stdout=out)
    assert "5 game(s) rated; 3 rating(s)." in out.getvalue()
    assert _numbers() == incremental


def _numbers():
    """Every rating and rating change, its floats rounded to 1e-9."""
    ratings = sorted((r.user.username, r.kind, r.games, round(r.mu, 9), round(r.sigma, 9))
                     for r in Rating.objects.select_related("user"))
    changes = sorted((c.game.code, c.user.username, c.rank, round(c.mu_before, 9), round(c.sigma_before, 9),
                      round(c.mu_after, 9), round(c.sigma_after, 9)) for c in RatingChange.objects.select_related("game", "user"))
    return ratings, changes


def test_pages_list_kinds_leaderboard_and_profile(client):
    ann, bob = user("ann"), user("bob")
    code, tokens = table({0: ann, 2: bob}, players=3)
    play(code, tokens, [(0, 3)])  # ann wins; seat 1 is a guest ("P1")
    page = client.get("/ratings/").content.decode()
    assert 'href="/ratings/toy/"' in page and "Toy race" in page and "2 rated players" in page
    board = client.get("/ratings/toy/").content.decode()
    assert board.index(">ann<") < board.index(">bob<")
    assert "P1" not in board and "Host" not in board
    shown = rating_displayed(rating(ann).mu, rating(ann).sigma)
    assert f"{shown:.1f}" in board
    profile = client.get("/players/ann/").content.decode()
    assert "Toy race" in profile and f'href="/games/{code}/replay"' in profile and "place 1 of 2" in profile
    assert client.get("/players/nobody/").status_code == 404
    assert client.get("/ratings/no-such-kind/").status_code == 404


def test_admin_shows_ratings_read_only(client):
    ann, bob = user("ann"), user("bob")
    code, tokens = table({0: ann, 1: bob})
    play(code, tokens, [(0, 3)])
    gm = get_user_model().objects.create_superuser("gm", "gm@example.com")
    client.force_login(gm)
    ratings = client.get("/admin/players/rating/")
    assert ratings.status_code == 200 and b"ann" in ratings.content
    change = RatingChange.objects.get(user=ann)
    page = client.get(f"/admin/players/ratingchange/{change.pk}/change/")
    assert page.status_code == 200 and code.encode() in page.content and b'name="mu_after"' not in page.content
    assert client.get("/admin/players/rating/add/").status_code == 403
    assert client.post(f"/admin/players/ratingchange/{change.pk}/delete/", {"post": "yes"}).status_code == 403
    assert b"ratings" in client.get(f"/admin/auth/user/{ann.pk}/change/").content


def test_recompute_leaves_out_a_game_whose_log_no_longer_replays_and_says_so():
    ann, bob = user("ann"), user("bob")
    code, tokens = table({0: ann, 1: bob})
    game = play(code, tokens, [(0, 3)])
    Action.objects.filter(game=game, command__cmd="add").update(command={"cmd": "add", "n": 9})  # the rules refuse it
    out, err = io.StringIO(), io.StringIO()
    call_command("recompute_ratings", stdout=out, stderr=err)
    assert f"Skipped toy {code}" in err.getvalue()
    assert "0 game(s) rated; 0 rating(s)." in out.getvalue()
    assert not RatingChange.objects.exists()
