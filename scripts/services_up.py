"""Exit 0 when the PostgreSQL and Redis URLs given both answer; else say which does not."""

from __future__ import annotations

import sys


def postgres_up(url: str) -> str | None:
    try:
        import psycopg

        with psycopg.connect(url, connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except Exception as exc:  # report any failure, whatever it is
        return f"PostgreSQL at {url}: {exc}"
    return None


def redis_up(url: str) -> str | None:
    try:
        import redis

        redis.Redis.from_url(url, socket_connect_timeout=3).ping()
    except Exception as exc:
        return f"Redis at {url}: {exc}"
    return None


if __name__ == "__main__":
    problems = [p for p in (postgres_up(sys.argv[1]), redis_up(sys.argv[2])) if p]
    for problem in problems:
        print("not reachable:", problem)
    sys.exit(1 if problems else 0)
