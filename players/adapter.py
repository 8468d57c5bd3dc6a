"""django-allauth's account adapter: its sign-in limits count a client by the platform's one rule for
client addresses (games/api/throttling.py: the peer, or the trusted proxy's X-Forwarded-For entry
when JUNCTION_TRUSTED_PROXIES says there is one), so behind the load balancer ten failed sign-ins a
minute lock out the address that made them, not everyone behind the proxy."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter

from games.api.throttling import client_address


class AccountAdapter(DefaultAccountAdapter):
    def get_client_ip(self, request) -> str:
        return client_address(request)
