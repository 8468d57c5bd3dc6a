"""Pure-Python rules engines, one package per game title.

Nothing under this package may import Django: engines are plain functions over
JSON-serialisable state, so they can be replayed, simulated and benchmarked
without a database. See ``base.py`` for the contract every engine follows and
``registry.py`` for how the platform finds them.
"""
