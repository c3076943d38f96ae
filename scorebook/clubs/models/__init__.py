"""Clubs: members with roles, invitations, the roster of players, house rules, seasons. One module per area."""

from .club import Club, Invitation, Membership, Role
from .player import Player
from .rules import HouseRules
from .season import Ranking, Season, TieBreak

__all__ = ["Club", "Membership", "Role", "Invitation", "HouseRules", "Player", "Season", "Ranking", "TieBreak"]
