"""A tiny engine for platform tests: players take turns adding 1–3 to a shared
counter; whoever reaches the target wins. Each seat has a secret number only it
may see, and every move rolls a die from the seeded RNG (so replays are checked)."""

from __future__ import annotations

from games.engines.base import Engine, Option, places_from_winners, require
from games.engines.rng import Rng, seed_state
from games.engines.specs import Arg, CommandSpec, Field, Int, ListOf, Text

SEAT = Int(min=0)


class ToyEngine(Engine):
    kind = "toy"
    title = "Toy race"
    min_players = 2
    max_players = 4
    options = (Option("target", "int", 10, "Counter value that ends the game.", min=3, max=1000),)
    bots = ("random",)
    commands = (CommandSpec("add", "Add 1, 2 or 3 to the counter.", (Arg("n", Int(min=1, max=3), "How much to add."),)),)
    view_fields = (
        Field("players", ListOf(Text(min_length=0)), "Player names by seat."),
        Field("counter", Int(min=0), "The shared counter."),
        Field("target", Int(min=1), "Whoever brings the counter to this wins."),
        Field("turn", SEAT, "The seat to move."),
        Field("rolls", ListOf(Int(min=1, max=6)), "The last five die rolls."),
        Field("winner", SEAT, "The winner (null while the race is on).", nullable=True),
        Field("my_secret", Int(), "Your secret number (null for a spectator).", nullable=True),
    )

    def setup(self, *, players, options, seed):
        rng = Rng(seed_state(seed))
        secrets = [rng.randint(1, 100) for _ in players]
        return {
            "players": list(players),
            "secrets": secrets,
            "counter": 0,
            "target": options["target"],
            "turn": 0,
            "rolls": [],
            "winner": None,
            "rng": rng.state,
        }

    def apply_rules(self, state, *, seat, command):  # the shape fits `commands`: Engine.apply checked it
        require(state["winner"] is None, "game-over", "The game is over.")
        require(seat == state["turn"], "not-your-turn", "It is not your turn.")
        n = command["n"]
        rng = Rng(state["rng"])
        roll = rng.randint(1, 6)
        state["rng"] = rng.state
        state["counter"] += n
        state["rolls"] = [*state["rolls"], roll][-5:]  # the last five, as the boardgame.io race in bench/bgio keeps
        events = [{"type": "added", "seat": seat, "n": n, "roll": roll, "counter": state["counter"]}]
        if state["counter"] >= state["target"]:
            state["winner"] = seat
            events.append({"type": "won", "seat": seat})
        else:
            state["turn"] = (seat + 1) % len(state["players"])
        return events

    def view(self, state, *, seat):
        return {
            "players": state["players"],
            "counter": state["counter"],
            "target": state["target"],
            "turn": state["turn"],
            "rolls": state["rolls"],
            "winner": state["winner"],
            "my_secret": state["secrets"][seat] if seat is not None else None,
        }

    def legal_commands(self, state, *, seat):
        if state["winner"] is not None or seat != state["turn"]:
            return []
        return [{"cmd": "add", "n": n} for n in (1, 2, 3)]

    def active_seats(self, state):
        return [] if state["winner"] is not None else [state["turn"]]

    def is_finished(self, state):
        return state["winner"] is not None

    def standings(self, state):  # the winner 1st, the others share 2nd
        return places_from_winners([state["winner"]], len(state["players"]))


ENGINE = ToyEngine()
