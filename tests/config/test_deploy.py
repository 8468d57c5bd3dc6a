"""Production settings pass ``manage.py check --deploy`` without a warning, and the pages
they serve carry HSTS, a Content-Security-Policy without inline script, Referrer-Policy,
Permissions-Policy and X-Frame-Options; plain HTTP is redirected (the probes excepted)."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRUB = {"DATABASE_URL", "REDIS_URL", "DJANGO_ENV", "WEB_CONCURRENCY", "DJANGO_SECRET_KEY", "DJANGO_DEBUG", "JUNCTION_CSP",
         "JUNCTION_SSL_REDIRECT", "JUNCTION_HSTS_SECONDS", "JUNCTION_HSTS_INCLUDE_SUBDOMAINS", "JUNCTION_HSTS_PRELOAD",
         "DJANGO_ALLOW_ASYNC_UNSAFE"}  # the e2e tests set it in this process; never in a deployment


def production_env(**extra: str) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if k not in SCRUB}
    return {
        **base, "DJANGO_SETTINGS_MODULE": "config.settings", "DJANGO_ENV": "production",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50), "REDIS_URL": "redis://127.0.0.1:6379/3", **extra,
    }


def check_deploy(**extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", "check", "--deploy"], cwd=ROOT, env=production_env(**extra),
                          capture_output=True, text=True, timeout=120)


def test_check_deploy_finds_no_issues_in_production():
    out = check_deploy()
    assert out.returncode == 0, out.stderr
    assert "System check identified no issues" in out.stdout, out.stdout + out.stderr
    assert "WARNINGS" not in out.stdout + out.stderr


def test_check_deploy_does_warn_when_a_protection_is_turned_off():
    out = check_deploy(JUNCTION_SSL_REDIRECT="0", JUNCTION_HSTS_PRELOAD="0")
    assert "security.W008" in out.stdout + out.stderr and "security.W021" in out.stdout + out.stderr


# A production process answering through Django's test client (static files from the finders:
# the manifest exists only after collectstatic, which is not what is tested here).
CLIENT = """
import json, sys
import django
django.setup()
from django.test import Client
from django.test.utils import override_settings, setup_test_environment
setup_test_environment()
storages = {"default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
out = {}
with override_settings(STORAGES=storages):
    client = Client()
    for name, path, secure in json.loads(sys.argv[1]):
        r = client.get(path, secure=secure)
        out[name] = {"status": r.status_code, "headers": dict(r.headers), "location": r.get("Location")}
print(json.dumps(out))
"""
REQUESTS = [
    ("home", "/", True), ("join-404", "/join/AB%00CD", True), ("api", "/api/kinds", True), ("docs", "/api/docs/", True),
    ("plain-home", "/", False), ("plain-probe", "/livez", False),
]


def serve(**extra: str) -> dict:
    from tests.e2e.conftest import database_env

    out = subprocess.run([sys.executable, "-c", CLIENT, json.dumps(REQUESTS)], cwd=ROOT,
                         env=production_env(**database_env(), REDIS_URL="", **extra), capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def directives(header: str) -> dict[str, list[str]]:
    parts = [p.strip().split() for p in header.split(";") if p.strip()]
    return {p[0]: p[1:] for p in parts}


@pytest.mark.django_db(transaction=True)
def test_production_pages_carry_the_security_headers():
    answers = serve()
    home = answers["home"]
    assert home["status"] == 200
    for name in ("home", "join-404", "api", "docs"):
        headers = answers[name]["headers"]
        assert headers["Strict-Transport-Security"] == "max-age=3600; includeSubDomains; preload", name
        assert headers["Referrer-Policy"] == "same-origin"
        assert headers["X-Frame-Options"] == "DENY"
        assert "camera=()" in headers["Permissions-Policy"] and "geolocation=()" in headers["Permissions-Policy"]
        assert headers["X-Content-Type-Options"] == "nosniff"
        csp = directives(headers["Content-Security-Policy"])
        assert csp["default-src"] == ["'self'"] and csp["script-src"] == ["'self'"], name
        assert csp["frame-ancestors"] == ["'none'"] and csp["object-src"] == ["'none'"]
        assert csp["connect-src"] == ["'self'"]
    assert answers["join-404"]["status"] == 404
    # the pages: no inline script or style at all
    strict = directives(home["headers"]["Content-Security-Policy"])
    assert strict["style-src"] == ["'self'"] and "'unsafe-inline'" not in home["headers"]["Content-Security-Policy"]
    # Swagger UI relaxes styles and images for itself only; its script stays 'self'
    docs = directives(answers["docs"]["headers"]["Content-Security-Policy"])
    assert answers["docs"]["status"] == 200
    assert "'unsafe-inline'" in docs["style-src"] and "data:" in docs["img-src"] and docs["script-src"] == ["'self'"]
    # plain HTTP goes to HTTPS; the probes answer as they are
    assert answers["plain-home"]["status"] == 301 and answers["plain-home"]["location"].startswith("https://")
    assert answers["plain-probe"]["status"] == 200


@pytest.mark.django_db(transaction=True)
def test_the_hsts_and_redirect_settings_come_from_the_environment():
    answers = serve(JUNCTION_HSTS_SECONDS="60", JUNCTION_HSTS_PRELOAD="0", JUNCTION_HSTS_INCLUDE_SUBDOMAINS="0",
                    JUNCTION_SSL_REDIRECT="0")
    assert answers["home"]["headers"]["Strict-Transport-Security"] == "max-age=60"
    assert answers["plain-home"]["status"] == 200
    assert "Strict-Transport-Security" not in answers["plain-home"]["headers"]  # only ever sent over HTTPS


def test_outside_production_the_csp_is_off_unless_asked_for(client):
    response = client.get("/api/kinds")
    assert "Content-Security-Policy" not in response.headers
    assert response["Referrer-Policy"] == "same-origin" and "camera=()" in response["Permissions-Policy"]
    code = "import django; django.setup(); from django.conf import settings; print('csp.middleware.CSPMiddleware' in settings.MIDDLEWARE)"
    base = {k: v for k, v in os.environ.items() if k not in SCRUB}
    for value, expected in (("", "False"), ("1", "True")):
        out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                             env={**base, "DJANGO_SETTINGS_MODULE": "config.settings", "JUNCTION_CSP": value})
        assert out.stdout.split() == [expected], out.stderr
