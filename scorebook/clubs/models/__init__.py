"""Clubs: members with roles, invitations, house rules, seasons. One module per area."""

from .club import Club, Invitation, Membership, Role
from .rules import HouseRules
from .season import Ranking, Season, TieBreak

__all__ = ["Club", "Membership", "Role", "Invitation", "HouseRules", "Season", "Ranking", "TieBreak"]
