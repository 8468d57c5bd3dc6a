"""Junction settings, all from the environment (twelve-factor).

Embedded default (no environment): SQLite file ``db.sqlite3`` + in-memory channel
layer + local-memory cache — runs on a bare machine with ``make run``.

Production: ``DJANGO_ENV=production`` plus ``DATABASE_URL`` (PostgreSQL) and
``REDIS_URL`` (channel layer and cache). See README "Configuration".
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name, "")
    return [v.strip() for v in value.split(",") if v.strip()] or default


DJANGO_ENV = os.environ.get("DJANGO_ENV", "development").strip().lower()
PRODUCTION = DJANGO_ENV == "production"
# Hosting a table (`make host`): this machine serves the phones of one table on a trusted local
# network. DEBUG off, compressed and cached static files, the hosts it answers to are this machine's
# LAN address and localhost, and join links carry the LAN address (games/links.py). Not production:
# plain HTTP, and a secret key of its own kept in var/ unless DJANGO_SECRET_KEY is set.
JUNCTION_HOST = env_bool("JUNCTION_HOST", False)
if JUNCTION_HOST and PRODUCTION:
    raise ImproperlyConfigured("JUNCTION_HOST hosts a table on a trusted local network; it is not for DJANGO_ENV=production.")
# The address phones reach this server at, when it is not this machine's own (a reverse proxy, a
# tunnel): join links and QR codes carry it, whatever address the page was opened at.
JUNCTION_PUBLIC_URL = os.environ.get("JUNCTION_PUBLIC_URL", "").strip().rstrip("/")
if JUNCTION_PUBLIC_URL and not JUNCTION_PUBLIC_URL.startswith(("http://", "https://")):
    raise ImproperlyConfigured("JUNCTION_PUBLIC_URL must start with http:// or https:// (e.g. https://table.example.org).")
DEBUG = env_bool("DJANGO_DEBUG", default=not PRODUCTION and not JUNCTION_HOST)

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if PRODUCTION:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_ENV=production.")
    if JUNCTION_HOST:  # on a network: never the public development key; one of its own, kept
        import secrets

        key_file = BASE_DIR / "var" / "host-secret-key"
        if not key_file.exists():
            key_file.parent.mkdir(exist_ok=True)
            key_file.touch(mode=0o600)
            key_file.write_text(secrets.token_urlsafe(50))
        SECRET_KEY = key_file.read_text().strip()
    else:
        SECRET_KEY = "insecure-development-key-do-not-use-in-production"

if JUNCTION_HOST:
    from urllib.parse import urlsplit

    from config.lan import lan_address

    _host_names = ["localhost", "127.0.0.1", "[::1]", lan_address() or "", urlsplit(JUNCTION_PUBLIC_URL).hostname or ""]
    ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", [h for h in _host_names if h])
else:
    ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["*"] if not PRODUCTION else ["localhost", "127.0.0.1"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [JUNCTION_PUBLIC_URL] if JUNCTION_PUBLIC_URL else [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "games",
    "companion",
    "players",
    # accounts: django-allauth, local accounts only (no social logins); see "accounts and e-mail" below
    "allauth",
    "allauth.account",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "games.middleware.ErrorMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- database -----------------------------------------------------------------
DATABASE_URL = os.environ.get("DATABASE_URL", "")
VAR_DIR = BASE_DIR / "var"  # local runtime files (test database, logs, screenshots); git-ignored
VAR_DIR.mkdir(exist_ok=True)
# Connections per process on PostgreSQL: a pool of at most JUNCTION_DB_POOL_SIZE, each lent to
# a request (or a command in channels' database thread, or a bot) for its duration; a request
# that gets none within JUNCTION_DB_POOL_TIMEOUT seconds is answered 503 database-busy.
DB_POOL_SIZE = max(1, int(os.environ.get("JUNCTION_DB_POOL_SIZE", "10") or "10"))
DB_POOL_MIN = min(DB_POOL_SIZE, max(0, int(os.environ.get("JUNCTION_DB_POOL_MIN", "2") or "2")))
DB_POOL_TIMEOUT = float(os.environ.get("JUNCTION_DB_POOL_TIMEOUT", "5") or "5")
# HTTP requests of one process running at once (games/admission.py): the rest wait on the event
# loop, not each in a thread of its own, for up to JUNCTION_HTTP_QUEUE_SECONDS, then get 503. The
# default leaves two pooled connections for the WebSocket's database thread and the bots.
JUNCTION_HTTP_CONCURRENCY = int(os.environ.get("JUNCTION_HTTP_CONCURRENCY", "") or max(2, DB_POOL_SIZE - 2))
JUNCTION_HTTP_QUEUE_SECONDS = float(os.environ.get("JUNCTION_HTTP_QUEUE_SECONDS", "") or DB_POOL_TIMEOUT)
# Of those, one client (its seat token, else its address) runs at most this many at once, one address at
# most half; a waiting request of a client with fewer running goes first, and an API 429 is answered again
# before Django while surely still due (games/admission.py). 0: neither.
JUNCTION_HTTP_CLIENT_SHARE = max(0, int(os.environ.get("JUNCTION_HTTP_CLIENT_SHARE", "2") or "0"))
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # Django's backend, pooled, with a cheaper health check (config/postgresql/base.py).
        DATABASES["default"]["ENGINE"] = "config.postgresql"
        options = DATABASES["default"].setdefault("OPTIONS", {})
        options["pool"] = {
            "min_size": DB_POOL_MIN,
            "max_size": DB_POOL_SIZE,
            "timeout": DB_POOL_TIMEOUT,
            "name": "junction",
        }
        # Django turns psycopg's prepared statements off (its cursors bind client-side and
        # could not use them anyway); the write path's own statements are prepared once per
        # pooled connection (games/store.py), so allow them.
        options.setdefault("prepare_threshold", 5)
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            "OPTIONS": {
                # Writers take the lock up front: no deadlocked lock upgrades between threads.
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
            # Tests use a file too, so threads and processes share one database
            # (SQLITE_TEST_PATH: another file, so two test runs in one tree do not collide).
            "TEST": {"NAME": os.environ.get("SQLITE_TEST_PATH") or str(VAR_DIR / "test.sqlite3")},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- channel layer and cache --------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
# The cache holds the rate limits' counters: a dead or stalled Redis must cost a request at most
# a fraction of a second (games/api/throttling.py then counts in the process for a few seconds).
REDIS_CACHE_OPTIONS = {"socket_connect_timeout": 0.25, "socket_timeout": 0.5}
if REDIS_URL:
    # Redis pub/sub: each group message is pushed to the subscribed processes. The list-based
    # channels_redis.core layer pops one message per round trip through one receive loop per
    # process, which queued broadcasts (p50 425 ms vs 64 ms at 100 sockets; docs/PERFORMANCE.md).
    # Clients resync by version, so at-most-once delivery to connected sockets is what we need.
    CHANNEL_LAYER_BACKEND = os.environ.get("JUNCTION_CHANNEL_LAYER", "channels_redis.pubsub.RedisPubSubChannelLayer")
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": CHANNEL_LAYER_BACKEND,
            "CONFIG": {"hosts": [REDIS_URL]}
            if CHANNEL_LAYER_BACKEND.endswith("RedisPubSubChannelLayer")
            else {"hosts": [REDIS_URL], "capacity": 1500, "expiry": 30},
        }
    }
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL, "OPTIONS": REDIS_CACHE_OPTIONS}}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# How many server processes share this configuration (a process manager sets it).
WEB_CONCURRENCY = int(os.environ.get("WEB_CONCURRENCY", "1") or "1")
if PRODUCTION and not REDIS_URL:
    if WEB_CONCURRENCY > 1:
        raise ImproperlyConfigured(
            "WEB_CONCURRENCY > 1 needs REDIS_URL: the in-memory channel layer cannot reach "
            "clients connected to another process."
        )
    warnings.warn(
        "Production without REDIS_URL: the in-memory channel layer only works with ONE server process.",
        RuntimeWarning,
        stacklevel=1,
    )

# --- security in production -------------------------------------------------------
if PRODUCTION:
    SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_CONTENT_TYPE_NOSNIFF = True
    # HTTPS only. Plain HTTP is redirected (JUNCTION_SSL_REDIRECT=0 when a proxy in front
    # already does it); the health probes are exempt: load balancers call them over plain HTTP.
    SECURE_SSL_REDIRECT = env_bool("JUNCTION_SSL_REDIRECT", True)
    SECURE_REDIRECT_EXEMPT = [r"^(healthz|livez|readyz)$"]
    # HSTS: a first deploy starts small (an hour) and raises JUNCTION_HSTS_SECONDS once HTTPS
    # is known good. "preload" only consents: nothing is preloaded until the domain is
    # submitted to hstspreload.org, which also wants a max-age of a year.
    SECURE_HSTS_SECONDS = int(os.environ.get("JUNCTION_HSTS_SECONDS", "3600") or "3600")
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("JUNCTION_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("JUNCTION_HSTS_PRELOAD", True)

# Every response: no framing (CSP frame-ancestors below too), the referrer only to this
# site, and no powerful browser features (the pages use none).
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"
PERMISSIONS_POLICY = "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()"
MIDDLEWARE.insert(MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1, "config.middleware.PermissionsPolicyMiddleware")

# Content-Security-Policy (django-csp 4): production, or JUNCTION_CSP=1 elsewhere (the browser
# test runs the pages under it). No inline script or style: the pages load their scripts
# and styles from /static and read data from json_script blocks. connect-src 'self' covers
# the page's own WebSocket (CSP 3: 'self' matches ws:/wss: of the same host). /api/docs/
# (Swagger UI) relaxes style-src and img-src for itself (config/urls.py).
CSP_ENABLED = env_bool("JUNCTION_CSP", PRODUCTION)
if CSP_ENABLED:
    from csp.constants import NONE, SELF

    INSTALLED_APPS.append("csp")
    MIDDLEWARE.insert(MIDDLEWARE.index("config.middleware.PermissionsPolicyMiddleware") + 1, "csp.middleware.CSPMiddleware")
    CONTENT_SECURITY_POLICY = {
        "DIRECTIVES": {
            "default-src": [SELF],
            "script-src": [SELF],
            "style-src": [SELF],
            "img-src": [SELF],
            "font-src": [SELF],
            "connect-src": [SELF],
            "worker-src": [SELF],  # the installable companion's service worker (/sw.js)
            "manifest-src": [SELF],  # and its web app manifest (/manifest.webmanifest)
            "object-src": [NONE],
            "base-uri": [NONE],
            "form-action": [SELF],
            "frame-ancestors": [NONE],
        }
    }

# --- i18n / static ---------------------------------------------------------------
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = Path(os.environ.get("JUNCTION_STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION or JUNCTION_HOST  # collectstatic first (make host does)
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = not (PRODUCTION or JUNCTION_HOST)

# Request bodies: commands are small; refuse anything large early.
DATA_UPLOAD_MAX_MEMORY_SIZE = 64 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 200

# --- DRF / OpenAPI ---------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": [],
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["games.api.parsers.BoundedJSONParser"],  # size and nesting bounded
    "EXCEPTION_HANDLER": "games.api.errors.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Junction API",
    "DESCRIPTION": (
        "Create and join games, send commands and read state. Every change is also pushed over the "
        "WebSocket `/ws/games/{code}/?token=…`. Errors are `{\"status\": \"error\", \"error\": "
        "{\"code\", \"message\"}}`."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # The kinds a game may be created as, each kind's options, commands and state, every error
    # status, and links from POST /api/games to the calls that use the created game's code
    # (games/api/schema.py).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums", "games.api.schema.add_kinds",
        "games.api.schema.add_kind_schemas", "games.api.schema.add_errors", "games.api.schema.add_links",
    ],
}

# --- Junction --------------------------------------------------------------------
# Extra engine modules (each exposes ENGINE), comma separated; tests use it for a toy engine.
JUNCTION_EXTRA_ENGINES = env_list("JUNCTION_EXTRA_ENGINES", [])
# Bots move in a background thread after each commit; tests may run them inline.
JUNCTION_BOTS_INLINE = env_bool("JUNCTION_BOTS_INLINE", False)
# Client addresses: 0 = the socket's peer (no proxy in front; X-Forwarded-For is ignored); N = the
# N-th address from the right of X-Forwarded-For, written by the first of N reverse proxies we run.
JUNCTION_TRUSTED_PROXIES = max(0, int(os.environ.get("JUNCTION_TRUSTED_PROXIES", "0") or "0"))
# Rate limits ("n/s|min|hour|day"; "off": none), per client address and, where a seat token is
# presented, per seat (games/api/throttling.py). Generous enough for a table of phones behind one
# NAT address polling every second; they stop floods, not play.
JUNCTION_CREATE_RATE = os.environ.get("JUNCTION_CREATE_RATE", "30/min")
JUNCTION_JOIN_RATE = os.environ.get("JUNCTION_JOIN_RATE", "30/min")
JUNCTION_COMMAND_RATE = os.environ.get("JUNCTION_COMMAND_RATE", "1200/min")
JUNCTION_COMMAND_SEAT_RATE = os.environ.get("JUNCTION_COMMAND_SEAT_RATE", "600/min")
JUNCTION_READ_RATE = os.environ.get("JUNCTION_READ_RATE", "1200/min")
JUNCTION_READ_SEAT_RATE = os.environ.get("JUNCTION_READ_SEAT_RATE", "600/min")
# Chat messages (games/chat.py): a table's phones behind one address, and each writer on their own.
JUNCTION_CHAT_RATE = os.environ.get("JUNCTION_CHAT_RATE", "60/min")
JUNCTION_CHAT_SEAT_RATE = os.environ.get("JUNCTION_CHAT_SEAT_RATE", "12/min")
# A big read (a state, get-state, the log, a replay step, a kind's content) costs one read token per
# started JUNCTION_READ_PRICE_BYTES of JSON (0: one token whatever its size); a 304 costs one.
JUNCTION_READ_PRICE_BYTES = int(os.environ.get("JUNCTION_READ_PRICE_BYTES", "65536") or "0")
# Those reads' serialised bytes are kept per game version and viewer in each process (games/readcache.py),
# at most this many bytes in all (0: nothing kept).
JUNCTION_READ_CACHE_BYTES = int(os.environ.get("JUNCTION_READ_CACHE_BYTES", str(32 * 1024 * 1024)) or "0")
# Lobby games nobody started, joined or changed for this many seconds become abandoned
# (manage.py expire_lobby_games; the Procfile's scheduler runs it hourly).
JUNCTION_LOBBY_TTL = int(os.environ.get("JUNCTION_LOBBY_TTL", "86400") or "86400")
# Seconds a rejoin code (a seat handed to a new device, games/services.py) may wait to be used.
JUNCTION_REJOIN_TTL = int(os.environ.get("JUNCTION_REJOIN_TTL", "600") or "600")
# Seconds a person's seat must have had no socket open (Seat.last_seen, games/presence.py) before
# the host may make a rejoin code for it (games/rejoin.py; a game master may at any time).
JUNCTION_REJOIN_AWAY = float(os.environ.get("JUNCTION_REJOIN_AWAY", "60") or "60")
JUNCTION_BOT_DELAY = float(os.environ.get("JUNCTION_BOT_DELAY", "0.3"))
# Every socket behind its game's log (a change the channel layer lost: Redis down or
# restarting) is sent the game afresh within about twice this many seconds (0: never).
JUNCTION_RESYNC_SECONDS = float(os.environ.get("JUNCTION_RESYNC_SECONDS", "2") or "0")
# -- clocks (games/clocks.py) --
# The clock runner (manage.py run_clocks, the Procfile's clock: process) looks for turns whose
# time ran out every this many seconds.
JUNCTION_CLOCK_TICK = float(os.environ.get("JUNCTION_CLOCK_TICK", "2") or "2")
# When a person's time runs out the title's bot plays that turn only; after this many such turns in
# a row it keeps the seat until its player takes it back.
JUNCTION_CLOCK_EXPIRIES_KEEP = int(os.environ.get("JUNCTION_CLOCK_EXPIRIES_KEEP", "3") or "3")
# Away periods in slow games (games/away.py): whole days at a time, and days in any 30.
JUNCTION_AWAY_MAX_DAYS = int(os.environ.get("JUNCTION_AWAY_MAX_DAYS", "7") or "7")
JUNCTION_AWAY_DAYS_PER_30 = int(os.environ.get("JUNCTION_AWAY_DAYS_PER_30", "10") or "10")

# -- turn notices (players/notices.py) --
# Web Push's VAPID keys (manage.py vapid_keys prints a pair): the private key as the raw 32 bytes
# base64url; the public key is derived from it when not given. No private key: no push (e-mail only).
JUNCTION_VAPID_PRIVATE_KEY = os.environ.get("JUNCTION_VAPID_PRIVATE_KEY", "").strip()
JUNCTION_VAPID_PUBLIC_KEY = os.environ.get("JUNCTION_VAPID_PUBLIC_KEY", "").strip()
JUNCTION_VAPID_SUBJECT = os.environ.get("JUNCTION_VAPID_SUBJECT", "").strip() or "mailto:admin@localhost"
# A signed-in player's open socket (games.SeatSocket) not seen for this many seconds counts as
# closed (its process died): the turn notice goes out.
# The push services a device's subscription may point at (a host, or a domain and its subdomains):
# Chrome's (FCM), Firefox's, Edge's (WNS) and Safari's. The server posts only there.
JUNCTION_PUSH_HOSTS = [h.lower() for h in env_list("JUNCTION_PUSH_HOSTS", [
    "fcm.googleapis.com", "push.services.mozilla.com", "notify.windows.com", "push.apple.com"])]
# Development and tests only: a device may also point at this machine (http or https, localhost or a
# loopback address, any port: the tests' fake push service), and a push host may resolve to loopback.
# Never in production, nor on a table hosted on a LAN (its players could reach this machine's own ports).
JUNCTION_PUSH_LOOPBACK = not PRODUCTION and not JUNCTION_HOST and env_bool("JUNCTION_PUSH_LOOPBACK", True)
JUNCTION_SOCKET_STALE = float(os.environ.get("JUNCTION_SOCKET_STALE", "90") or "90")

# --- accounts and e-mail (players/: django-allauth, My games) ----------------------
# Playing needs no account (a seat is a token in the browser); a signed-in player's seats are
# linked to the account (games.Seat.user) and listed under My games on any device.
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",  # the admin's game masters
    "allauth.account.auth_backends.AuthenticationBackend",
]
ACCOUNT_LOGIN_METHODS = {"username", "email"}  # sign in with either
ACCOUNT_FORMS = {"login": "players.forms.SignInForm"}  # the sign-in field says "Your name or e-mail", not "Login"
ACCOUNT_SIGNUP_FIELDS = ["username*", "email", "password1*", "password2*"]  # e-mail asked, not required
# "optional": a confirmation link is sent, signing in does not wait for it; "mandatory" or "none".
ACCOUNT_EMAIL_VERIFICATION = os.environ.get("JUNCTION_EMAIL_VERIFICATION", "optional").strip() or "optional"
ACCOUNT_LOGOUT_ON_GET = False  # signing out is a POST (a link cannot sign anyone out)
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Junction] "
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "my-games"
# Right after sign-up My games offers (and makes) the seats this browser holds part of the account.
ACCOUNT_SIGNUP_REDIRECT_URL = "/me/games?welcome=1"
# ACCOUNT_RATE_LIMITS: allauth's defaults (sign-in failures, password resets, sign-ups per address), the
# address as the platform's limits see it (JUNCTION_TRUSTED_PROXIES; players/adapter.py).
ACCOUNT_ADAPTER = "players.adapter.AccountAdapter"
# Sign-in failures: 5 per account in 5 minutes, 10 a minute per address; past them the right password is
# refused too until the window passes. The Django admin signs in through allauth (config/urls.py):
# game masters have the same limits, and /admin/login/ checks no password of its own.
# E-mail (password resets, address confirmations, turn notices): printed to the console unless an
# SMTP server is given.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "").strip()
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587") or "587")
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
    EMAIL_TIMEOUT = 10
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "") or "Junction <junction@localhost>"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.request": {"level": "ERROR"},
        "daphne": {"level": "WARNING"},
    },
}
