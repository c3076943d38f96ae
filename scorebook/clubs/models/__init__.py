"""Clubs: members with roles, invitations, the roster of players, house rules, seasons. One module per area."""

from .club import Club, FormerSlug, Invitation, Membership, Role
from .player import Player, PlayerClaim
from .rules import HouseRules
from .season import Ranking, Season, TieBreak

__all__ = [
    "Club",
    "FormerSlug",
    "HouseRules",
    "Invitation",
    "Membership",
    "Player",
    "PlayerClaim",
    "Ranking",
    "Role",
    "Season",
    "TieBreak",
]
