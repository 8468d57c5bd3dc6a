"""How a finished game ended, for everyone who asks (the ending screen, ratings, players' records): the
rules' places and result (``Engine.standings``, ``Engine.result``) with the table's resignations
(games/resign.py) laid over them. A player who resigned finishes last, after everyone who did not (and
after anyone who resigned later); a game that ended because all but one seat resigned is won by that
seat (the rules never finished it)."""

from __future__ import annotations

from typing import Any

from .engines.base import RulesError
from .engines.registry import get_engine
from .models import Game, Seat


def resigned_order(game: Game) -> list[int]:
    """The seats whose players resigned, the first to resign first."""
    return list(Seat.objects.filter(game_id=game.pk, resigned_at__isnull=False)
                .order_by("resigned_at", "index").values_list("index", flat=True))


def ended_by_resignation(game: Game, state: dict[str, Any] | None = None) -> bool:
    """Whether ``game`` is over because its players resigned, not by its rules."""
    state = game.state if state is None else state
    if game.status != Game.Status.FINISHED or state is None:
        return False
    try:
        return not get_engine(game.kind).is_finished(state) and bool(resigned_order(game))
    except RulesError:
        return False


def places_with_resignations(places: list[int], resigned: list[int]) -> list[int]:
    """``places`` (1 = first, ties shared) with the ``resigned`` seats (first to resign first) moved last:
    the others keep their order among themselves, the last to resign ranks best of those who did."""
    staying = [seat for seat in range(len(places)) if seat not in resigned]
    out = [0] * len(places)
    for seat in staying:
        out[seat] = 1 + sum(1 for other in staying if places[other] < places[seat])
    for k, seat in enumerate(reversed([s for s in resigned if s < len(places)])):
        out[seat] = len(staying) + 1 + k
    return out


def game_places(*, game: Game, state: dict[str, Any] | None = None) -> list[int] | None:
    """Each seat's final place in the finished ``game`` (its ``state``, default the stored one); None when
    neither its rules nor resignations finished it, or its kind ranks nobody."""
    state = game.state if state is None else state
    if game.status != Game.Status.FINISHED or state is None:
        return None
    try:
        engine = get_engine(game.kind)
        resigned = resigned_order(game)
        if engine.is_finished(state):
            return places_with_resignations(list(engine.standings(state)), resigned)
        if resigned:
            seats = Seat.objects.filter(game_id=game.pk).count()
            return places_with_resignations([1] * seats, resigned)
    except (RulesError, NotImplementedError):
        return None
    return None


def game_result(*, game: Game, state: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """The ending screen's result (``Engine.result``'s shape: how, columns, ranking) of the finished
    ``game``, with resignations laid over it; None while it is not over."""
    state = game.state if state is None else state
    if game.status != Game.Status.FINISHED or state is None:
        return None
    engine = get_engine(game.kind)
    resigned = resigned_order(game)
    finished = engine.is_finished(state)
    if not finished and not resigned:
        return None
    result = engine.result(state) if finished else {"how": "", "columns": [], "ranking": []}
    if not resigned:
        return result
    names = dict(Seat.objects.filter(game_id=game.pk).values_list("index", "name"))
    rows = {row["seat"]: row for row in result.get("ranking", [])}
    # The places game_places gives, from what is read above (not the seats, the log and the rules again).
    base = list(engine.standings(state)) if finished else [1] * len(names)
    places = places_with_resignations(base, resigned)
    ranking = sorted(({**rows.get(seat, {"seat": seat, "score": None, "parts": []}), "place": place}
                      for seat, place in enumerate(places)), key=lambda row: (row["place"], row["seat"]))
    who = _names([names.get(seat, f"Seat {seat + 1}") for seat in resigned])
    if finished:
        how = f"{who} resigned and {'finish' if len(resigned) > 1 else 'finishes'} last. " + (result.get("how") or "")
    else:
        winners = _names([names.get(row["seat"], "") for row in ranking if row["place"] == 1])
        how = f"{who} resigned, so {winners} won."
    return {**result, "how": how.strip(), "ranking": ranking}


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
