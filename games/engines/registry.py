"""Which game kinds exist. The platform looks engines up here by ``kind``."""

from __future__ import annotations

import warnings

from .base import Engine, RulesError

_ENGINES: dict[str, Engine] = {}


def register(engine: Engine) -> Engine:
    _ENGINES[engine.kind] = engine
    return engine


def unregister(kind: str) -> None:
    _ENGINES.pop(kind, None)


def get_engine(kind: str) -> Engine:
    try:
        return _ENGINES[kind]
    except KeyError:
        raise RulesError("unknown-kind", f"There is no game kind {kind!r}.") from None


def find_engine(kind: str) -> Engine | None:
    """The engine for ``kind``, or None when no engine serves it (a game of a kind retired since:
    its log can still be read, as names only: games/redaction.py)."""
    return _ENGINES.get(kind)


def all_engines() -> list[Engine]:
    return sorted(_ENGINES.values(), key=lambda e: e.title)


def load_builtin_engines() -> None:
    """Import and register the engines that ship with Junction."""
    import importlib

    for module in BUILTIN:
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:  # an engine package not written yet
            if exc.name != module:
                raise
            continue
        engine = getattr(mod, "ENGINE", None)
        if engine is None:
            warnings.warn(f"{module} exposes no ENGINE; skipped", RuntimeWarning, stacklevel=2)
            continue
        register(engine)


# Each module exposes ENGINE, an Engine instance.
BUILTIN = (
    "games.engines.locomotive_werks",
    "games.engines.wood_and_steel",
    "games.engines.resourceful_rails",
    "games.engines.runerail",
    "games.engines.slipway",
)
