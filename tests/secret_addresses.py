"""The addresses of the site that carry a secret, read from its URL confs: every pattern with a
``token`` converter (``scorebook.core.converters.TokenConverter``) or a parameter named like a token
(Django's password reset, ``reset/<uidb64>/<token>/``). A new secret address is found here without
anyone listing it; tests/test_no_token_in_logs.py then requires a link of its kind and its mask."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.urls import URLPattern, URLResolver, get_resolver

from scorebook.core.converters import TokenConverter


@dataclass(frozen=True)
class SecretRoute:
    name: str
    route: str  # as the URL confs write it, e.g. "accounts/password/<token:token>/"
    secrets: tuple[str, ...]  # its parameters that hold a secret

    def path(self, **values: str) -> str:
        """The route filled in: a secret parameter by ``values[parameter]``, any other by
        ``values.get(parameter, "1")``."""
        return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(values.get(m.group(1), "1")), self.route)


def _walk(patterns, prefix: str = "", converters: dict | None = None):
    for pattern in patterns:
        found = dict(converters or {}) | dict(getattr(pattern.pattern, "converters", {}))
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from _walk(pattern.url_patterns, route, found)
        elif isinstance(pattern, URLPattern):
            yield pattern.name, route, found


def secret_routes() -> list[SecretRoute]:
    """Every address pattern of the site that carries a secret, once each."""
    routes: dict[str, SecretRoute] = {}
    for name, route, converters in _walk(get_resolver().url_patterns):
        secrets = tuple(
            parameter
            for parameter, converter in converters.items()
            if isinstance(converter, TokenConverter) or "token" in parameter
        )
        if secrets:
            routes.setdefault(route, SecretRoute(name, route, secrets))
    return list(routes.values())


def one_link_of_each_kind() -> dict[str, dict[str, str]]:
    """A live link of every kind the site gives out, made through its services in the current
    database (the tests' own, or a deployed site's): {route name: the values of its parameters}.
    Adèle runs a club, scores an evening of it and directs a night; Lotte, restored from a backup,
    awaits her password; Paul forgot his."""
    from datetime import date
    from decimal import Decimal

    from django.contrib.auth import get_user_model
    from django.contrib.auth.tokens import default_token_generator
    from django.utils.encoding import force_bytes
    from django.utils.http import urlsafe_base64_encode

    from scorebook.accounts import password_links
    from scorebook.clubs import services as clubs
    from scorebook.clubs.models import Role
    from scorebook.evenings import creation, links
    from scorebook.evenings import services as evenings
    from scorebook.nights import services as nights

    users = get_user_model().objects
    adele = users.create_user("adele_secretary", password="a-long-test-password")
    club = clubs.create_club(name="De Troef", slug="de-troef", user=adele)
    _invitation, invitation = clubs.create_invitation(club, adele, role=Role.MEMBER, days=7, uses=5)
    evening = creation.create_evening(
        ruleset="kleurenwiezen",
        players=["Anne", "Bert", "Carl", "Dina"],
        first_dealer=0,
        stake=Decimal("0.10"),
        currency="EUR",
        date=date(2026, 11, 20),
        user=adele,
        club=club,
    )
    night = nights.create_night(
        club=club,
        user=adele,
        name="Kaartavond",
        date=date(2026, 11, 21),
        ruleset="kleurenwiezen",
        sessions=2,
        deals_per_session=8,
        ranking="total",
        place_points=[],
        stake=None,
        currency="EUR",
        players=[f"P{n:02d}" for n in range(1, 9)],
        seed=1,
    )
    lotte = users.create(username="lotte_restored")
    lotte.set_unusable_password()
    lotte.save()
    paul = users.create_user("paul_forgetful", email="paul@example.org", password="a-long-test-password")
    share, ranking = evenings.new_share_link(evening), nights.new_ranking_link(night)
    kinds = {
        "scoring_link": {"token": links.issue(evening)},
        "evening_public": {"token": share},
        "club_join": {"token": invitation},
        "night_ranking": {"token": ranking},
        "password_link": {"token": password_links.make(lotte)},
        "password_reset_confirm": {
            "uidb64": urlsafe_base64_encode(force_bytes(paul.pk)),
            "token": default_token_generator.make_token(paul),
        },
    }
    # the other addresses under a link (its live region, its rules, its CSV...) hold the same token
    known = {r.route.split("<", 1)[0]: kinds[r.name] for r in secret_routes() if r.name in kinds}
    for route in secret_routes():
        same = [values for prefix, values in known.items() if route.route.startswith(prefix)]
        if route.name not in kinds and not same:
            raise AssertionError(f"{route.route} carries a secret: make a link of its kind here")
        kinds.setdefault(route.name, same[0] if same else {})
    return kinds
