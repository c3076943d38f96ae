"""The ledger's tests: the club fixtures (club_fixtures)."""

from club_fixtures import *  # noqa: F403
