"""Shared fixtures. The toy engine is registered for every test; Daphne processes
started by end-to-end tests get it through JUNCTION_EXTRA_ENGINES."""

from __future__ import annotations

import pytest

TOY_ENGINE_MODULE = "tests.support.toy_engine"


@pytest.fixture(autouse=True, scope="session")
def _toy_engine():
    from games.engines.registry import register
    from tests.support.toy_engine import ENGINE

    register(ENGINE)


@pytest.fixture(autouse=True)
def _bots_inline(settings):
    settings.JUNCTION_BOTS_INLINE = True


@pytest.fixture
def api_client():
    from rest_framework.test import APIClient

    return APIClient()
