"""Club-level operations: creating a club, roles, joining, the roster and linking accounts.

Views call these; each one runs in a transaction and refuses (``Refused``) what would
leave the club in a bad state: no admin left, two players for one account, one person
sitting twice at the same evening.
"""

from __future__ import annotations

import enum
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from scorebook.accounts import identity
from scorebook.accounts.models import display_name
from scorebook.core.cleaning import Names, clean_name, looks_like, shown, skeleton
from scorebook.core.http import Vanished
from scorebook.rules.scoring import BETE

from .models import Club, FormerSlug, HouseRules, Invitation, Membership, Player, PlayerClaim, Role, Season
from .models.club import new_invitation_token, token_digest
from .models.rules import rules_version

RANK = {Role.MEMBER: 0, Role.SCORER: 1, Role.ADMIN: 2}


class Refused(Exception):
    """The operation would break a rule of the club; the message says which."""

    def __init__(self, message: str):
        self.message = message
        super().__init__(message)


class Conflict(Refused):
    """What the request was about changed in the meantime (another request came first, and this one
    was decided after it, under the same lock): nothing was done; views answer 409."""


def lock_club(club_id: int) -> None:
    """One change of a club's roster, members or seasons at a time: the club's row, locked until the
    end of the transaction (SQLite's immediate transactions already take the whole database)."""
    Club.objects.select_for_update().filter(pk=club_id).first()


def _club_of(player: Player) -> int:
    """The club of a player of a club's roster (a private table book's players have none: no club
    write is given one)."""
    if player.club_id is None:
        raise ValueError(f"{player.name} is in no club's roster")
    return player.club_id


def _player_locked(player: Player) -> tuple[Player, int]:
    """The player's row read again under the club's lock (one roster change at a time), and its
    club; ``_gone_player`` when it was merged in the meantime."""
    club_id = _club_of(player)
    lock_club(club_id)
    found = Player.objects.select_for_update().filter(pk=player.pk).first()
    if found is None:
        raise _gone_player(player.name)
    return found, club_id


def _gone_player(name: str) -> Conflict:
    return Conflict(
        _("%(name)s is no longer in the roster (merged in the meantime): nothing was changed.") % {"name": name}
    )


def _gone_member() -> Conflict:
    return Conflict(_("This person is no longer a member of the club (removed in the meantime): nothing was changed."))


# --- clubs and members ------------------------------------------------------------------------


def create_club(*, name: str, slug: str, user: User) -> Club:
    """A new club; whoever creates it is its first admin."""
    with transaction.atomic():
        club = Club.objects.create(name=name, slug=slug)
        Membership.objects.create(club=club, user=user, role=Role.ADMIN)
    return club


def slug_taken(slug: str, club: Club | None = None) -> bool:
    """Whether another club has this short name, now or as a former one (its old addresses redirect)."""
    others = Club.objects.filter(slug=slug)
    former = FormerSlug.objects.filter(slug=slug)
    if club is not None:
        others, former = others.exclude(pk=club.pk), former.exclude(club=club)
    return others.exists() or former.exists()


def rename_club(club: Club, *, name: str, slug: str) -> Club:
    """A new name and short name; the old short name is kept so that its addresses redirect."""
    with transaction.atomic():
        club = Club.objects.select_for_update().get(pk=club.pk)
        if slug != club.slug:
            if slug_taken(slug, club):
                raise Refused(_("The short name “%(slug)s” is taken: choose another.") % {"slug": slug})
            FormerSlug.objects.filter(club=club, slug=slug).delete()  # back to an earlier name
            FormerSlug.objects.create(club=club, slug=club.slug)
        club.name, club.slug = name, slug
        club.save(update_fields=["name", "slug"])
    return club


def _admins_locked(club: Club) -> list[int]:
    """The pks of the club's admin memberships, locked until the end of the transaction."""
    return list(Membership.objects.select_for_update().filter(club=club, role=Role.ADMIN).values_list("pk", flat=True))


def change_role(membership: Membership, role: Role) -> Membership:
    with transaction.atomic():
        lock_club(membership.club_id)
        admins = _admins_locked(membership.club)
        found = Membership.objects.select_for_update().filter(pk=membership.pk).first()
        if found is None:
            raise _gone_member()
        membership = found
        if membership.role == Role.ADMIN and role != Role.ADMIN and admins == [membership.pk]:
            raise Refused(_("The club needs an admin: make someone else admin first."))
        demoted = RANK[Role(role)] < RANK[Role(membership.role)]
        membership.role = role
        membership.save(update_fields=["role"])
        if demoted:
            _revoke_links_of(membership)
    return membership


def remove_member(membership: Membership) -> None:
    """The member leaves the club; a player linked to his account stays in the roster, unlinked, and
    his pending claim is withdrawn."""
    with transaction.atomic():
        lock_club(membership.club_id)
        admins = _admins_locked(membership.club)
        found = Membership.objects.select_for_update().filter(pk=membership.pk).first()
        if found is None:
            raise _gone_member()
        membership = found
        if admins == [membership.pk]:
            raise Refused(_("The club needs an admin: make someone else admin first."))
        Player.objects.filter(club_id=membership.club_id, user=membership.user_id).update(user=None)
        # his "this is me" waiting for an admin goes with him: no admin could answer it any more
        PlayerClaim.objects.filter(player__club_id=membership.club_id, user=membership.user_id).delete()
        _revoke_links_of(membership)
        membership.delete()


# --- invitations ------------------------------------------------------------------------------

INVITATION_DAYS = (1, 7, 30)  # how long a new link works, as the admin chooses
MAX_INVITATION_USES = 50


def create_invitation(club: Club, user: User, *, role: Role, days: int, uses: int) -> tuple[Invitation, str]:
    """A new link; returns it with its token, which is stored only as a digest (shown once).
    It never grants more than its creator's own role."""
    creator = _rank_of(club, user)
    if creator is None or RANK[Role(role)] > creator:
        raise Refused(_("An invitation cannot give a higher role than your own."))
    if days not in INVITATION_DAYS or not 1 <= uses <= MAX_INVITATION_USES:
        raise Refused(_("Choose how long the link works and how many people may use it."))
    token = new_invitation_token()
    invitation = Invitation.objects.create(
        club=club,
        token_hash=token_digest(token),
        role=role,
        created_by=user,
        expires_at=timezone.now() + timedelta(days=days),
        max_uses=uses,
    )
    return invitation, token


def invitation_for_token(token: str) -> Invitation | None:
    """The invitation this link opens, if it still lets someone join."""
    if not token or len(token) > 64:
        return None
    invitation = Invitation.usable().select_related("club").filter(token_hash=token_digest(token)).first()
    if invitation is None or not _creator_may_grant(invitation):
        return None
    return invitation


def invitation_existed(token: str) -> bool:
    """Whether this link was made by a club (it may no longer work)."""
    return bool(token) and len(token) <= 64 and Invitation.objects.filter(token_hash=token_digest(token)).exists()


def _rank_of(club: Club, user: User | None) -> int | None:
    if user is None:
        return None
    if user.is_staff:
        return RANK[Role.ADMIN]
    role = Membership.objects.filter(club=club, user=user).values_list("role", flat=True).first()
    return RANK[Role(role)] if role else None


def _creator_may_grant(invitation: Invitation) -> bool:
    """A link works only while its creator still holds at least the role it grants."""
    rank = _rank_of(invitation.club, invitation.created_by)
    return rank is not None and rank >= RANK[Role(invitation.role)]


def _revoke_links_of(membership: Membership) -> None:
    """A member removed or demoted: the links he made, and the one he came in with, stop working."""
    made_or_used = Q(created_by=membership.user_id)
    if membership.invitation_id:
        made_or_used |= Q(pk=membership.invitation_id)
    Invitation.objects.filter(made_or_used, club_id=membership.club_id, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )


def revoke(invitation: Invitation) -> None:
    """The link stops working; a join that took the link's lock first is kept (it came first)."""
    with transaction.atomic():
        Invitation.objects.select_for_update().filter(pk=invitation.pk).first()
        Invitation.objects.filter(pk=invitation.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())


def _member_named_like(club_id: int, user: User) -> str | None:
    """The name another member of the club is shown by that looks like ``user``'s, or None. Names
    are compared where they are typed (accounts.identity), but accounts made otherwise (the demo, a
    restored club's) may share one: two members of one club never do."""
    others = User.objects.filter(memberships__club_id=club_id).exclude(pk=user.pk)
    return looks_like(display_name(user), identity.shown_names(others))


def join(invitation: Invitation, user: User) -> tuple[Membership, bool]:
    """Join with an invitation (one use of it); an existing member keeps the higher of his role
    and the invitation's. Returns (membership, changed); Invitation.DoesNotExist when the link
    stopped working in the meantime; Refused when another member goes by a name like the user's."""
    with transaction.atomic():
        lock_club(invitation.club_id)
        found = Invitation.objects.select_for_update().filter(pk=invitation.pk).first()
        if found is None or not found.active or not _creator_may_grant(found):
            raise Invitation.DoesNotExist
        invitation = found
        membership = Membership.objects.select_for_update().filter(club_id=invitation.club_id, user=user).first()
        if membership is not None and RANK[Role(invitation.role)] <= RANK[Role(membership.role)]:
            return membership, False  # nothing to take: the link is not used up
        if membership is None and (like := _member_named_like(invitation.club_id, user)) is not None:
            raise Refused(
                _(
                    "A member of this club goes by “%(name)s”, which looks like yours: change your display "
                    "name on your profile, then open the link again."
                )
                % {"name": shown(like)}
            )
        invitation.uses += 1
        invitation.save(update_fields=["uses"])
        if membership is None:
            membership = Membership.objects.create(
                club_id=invitation.club_id, user=user, role=invitation.role, invitation=invitation
            )
        else:
            membership.role, membership.invitation = invitation.role, invitation
            membership.save(update_fields=["role", "invitation"])
    return membership, True


# --- the roster -------------------------------------------------------------------------------


def sign_up_and_join(invitation: Invitation, make_account: Callable[[], User]) -> Membership:
    """A new account (``make_account``: the sign-up form's save) joins the club with the invitation, in
    one transaction: when the link stopped working meanwhile (Invitation.DoesNotExist) or a member goes
    by a name like the account's (Refused), no account is left either."""
    with transaction.atomic():
        membership, _changed = join(invitation, make_account())
    return membership


def add_player(club: Club, name: str, user: User) -> Player:
    """One new player, checked against the roster as it is under the club's lock (a pasted list, an
    evening's new names or the same name typed on another phone may have come first)."""
    with transaction.atomic():
        lock_club(club.pk)
        same = looks_like(name, Player.objects.filter(club=club).values_list("name", flat=True).iterator())
        if same is not None:
            raise Refused(_("%(name)s is already in the roster.") % {"name": same})
        return Player.objects.create(club=club, name=name, created_by=user if user.is_authenticated else None)


MAX_PASTED = 300  # names in one pasted list or file


@dataclass
class PastedName:
    """One entry of a pasted list, checked against the roster and the entries before it."""

    typed: str
    name: str = ""  # as it would be kept (cleaned)
    status: str = "new"  # new | similar (added only when confirmed) | known | twice | invalid
    reason: str = ""
    like: str = ""  # the roster name or earlier entry it is, or looks like

    @property
    def shown(self) -> str:
        return shown(self.typed)

    @property
    def addable(self) -> bool:
        return self.status in ("new", "similar")


def _loose(name: str) -> str:
    """A name without accents nor capitals: Éric and Eric, Zoe and Zoë."""
    decomposed = unicodedata.normalize("NFKD", skeleton(name))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def check_names(club: Club, typed: list[str]) -> list[PastedName]:
    """What adding ``typed`` to the roster would do, name by name; nothing is written. A name
    already in the roster (or a look-alike of one) or listed twice is not added again; one that
    differs only by accents or capitals from another is added only when confirmed."""
    roster = list(Player.objects.filter(club=club).values_list("name", flat=True))
    exact = Names(roster)
    loose = {_loose(n): n for n in roster}
    seen = Names()
    seen_loose: dict[str, str] = {}
    out = []
    for raw in typed:
        line = PastedName(typed=raw)
        out.append(line)
        try:
            line.name = clean_name(raw)
        except ValidationError as error:
            line.status, line.reason = "invalid", " ".join(error.messages)
            continue
        if line.name == BETE:
            line.status, line.reason = "invalid", _("%(name)s is the name of the pot.") % {"name": BETE}
            continue
        loose_key = _loose(line.name)
        if known := exact.like(line.name):
            line.status, line.like = "known", known
        elif earlier := seen.like(line.name):
            line.status, line.like = "twice", earlier
        elif loose_key in loose or loose_key in seen_loose:
            line.status, line.like = "similar", loose.get(loose_key) or seen_loose[loose_key]
        seen.add(line.name)
        seen_loose.setdefault(loose_key, line.name)
    return out


def add_players(club: Club, names: list[str], user: User) -> tuple[list[Player], list[str]]:
    """Add ``names`` to the roster at once, under the club's lock: each is cleaned again and
    checked against the roster as it is now; one already there (or a look-alike) is skipped.
    Returns the players added and the names skipped."""
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=club.pk).first()  # one roster change at a time
        taken = Names(Player.objects.filter(club=club).values_list("name", flat=True))
        new, skipped = [], []
        for typed in names[:MAX_PASTED]:
            try:
                name = clean_name(typed)
            except ValidationError:
                skipped.append(typed)
                continue
            if name in taken or name == BETE:
                skipped.append(name)
                continue
            taken.add(name)
            new.append(Player(club=club, name=name, created_by=user if user.is_authenticated else None))
        added = Player.objects.bulk_create(new)
    return added, skipped


def link_player(player: Player, user: User | None) -> Player:
    """Link an account to a player of the club (``user`` None: unlink). One player per account in a club."""
    with transaction.atomic():
        player, club_id = _player_locked(player)
        if user is not None:
            if not Membership.objects.filter(club_id=club_id, user=user).exists():
                raise Refused(_("Only a member's account can be linked."))
            other = Player.objects.filter(club_id=club_id, user=user).exclude(pk=player.pk).first()
            if other is not None:
                raise Refused(_("This account is already linked to %(name)s.") % {"name": other.name})
        player.user = user
        player.save(update_fields=["user"])
    return player


def rename_player(player: Player, name: str) -> Player:
    """The roster entry takes a new name; past evenings keep the name each seat was given that evening."""
    with transaction.atomic():
        player, club_id = _player_locked(player)
        other = Player.objects.filter(club_id=club_id, name__iexact=name).exclude(pk=player.pk).first()
        if other is not None:
            raise Refused(_("%(name)s is already in the roster.") % {"name": other.name})
        player.name = name
        player.save(update_fields=["name"])
    return player


# --- claims: "this is me", approved by an admin -----------------------------------------------


def claim_player(player: Player, user: User) -> PlayerClaim:
    """A member asks to be linked to a roster entry; an admin of the club approves or refuses."""
    with transaction.atomic():
        player, club_id = _player_locked(player)
        if not Membership.objects.filter(club_id=club_id, user=user).exists():
            raise Refused(_("Only a member's account can be linked."))
        if player.user_id is not None:
            raise Refused(_("%(name)s is already linked to another account.") % {"name": player.name})
        mine = Player.objects.filter(club_id=club_id, user=user).first()
        if mine is not None:
            raise Refused(_("This account is already linked to %(name)s.") % {"name": mine.name})
        PlayerClaim.objects.filter(player__club_id=club_id, user=user).exclude(player=player).delete()
        claim, _created = PlayerClaim.objects.get_or_create(player=player, user=user)
    return claim


def withdraw_claim(player: Player, user: User) -> None:
    PlayerClaim.objects.filter(player=player, user=user).delete()


def decide_claim(claim: PlayerClaim, approve: bool) -> Player | None:
    """An admin approves (the account is linked) or refuses (the claim is dropped) a claim."""
    with transaction.atomic():
        club_id = _club_of(claim.player)
        lock_club(club_id)  # before the claim: an approval deletes the other claims of its player
        found = PlayerClaim.objects.select_for_update().select_related("player", "user").filter(pk=claim.pk).first()
        if found is None:
            raise Conflict(_("This claim was already answered."))
        claim = found
        player, user = claim.player, claim.user
        claim.delete()
        if not approve:
            return None
        player = link_player(player, user)
        PlayerClaim.objects.filter(player__club_id=club_id, user=user).delete()
        PlayerClaim.objects.filter(player=player).delete()  # the others who claimed it are answered too
    return player


# --- seasons ----------------------------------------------------------------------------------


def _gone_season(name: str) -> Conflict:
    return Conflict(_("The season “%(name)s” was deleted in the meantime: nothing was saved.") % {"name": name})


def save_season(season: Season, *, overlap_confirmed: bool) -> Season:
    """Saves a new or edited season (its form checked it); checked again under the club's lock: a
    season deleted in the meantime is not brought back, and a season of the same name, or of the same
    variant on the same days (unless confirmed), saved in the meantime refuses it (``Conflict``; the
    form, checked again, says why)."""
    with transaction.atomic():
        lock_club(season.club_id)
        if season.pk is not None and not Season.objects.select_for_update().filter(pk=season.pk).exists():
            raise _gone_season(season.name)
        if season.same_name().exists():
            raise Conflict(season_name_taken(season.name))
        if not overlap_confirmed and season.overlapping().filter(archived=False).exists():
            raise Conflict(_("A season of the same variant on the same days was saved in the meantime."))
        season.save()
    return season


def season_name_taken(name: str) -> str:
    return _("The club already has a season named “%(name)s”: choose another name.") % {"name": name}


class SeasonGone(Vanished):
    """The season was deleted meanwhile: the 410 page says so (the club's pages are the league's)."""

    def __init__(self) -> None:
        super().__init__(_("This season has been deleted."))


def delete_season(season: Season) -> bool:
    """A season holds no data of its own: its evenings stay (they belong to the club). False: it was
    already deleted (by another request)."""
    with transaction.atomic():
        lock_club(season.club_id)
        deleted, _rows = Season.objects.filter(pk=season.pk).delete()
    return bool(deleted)


def archive_season(season: Season, archived: bool) -> Season:
    with transaction.atomic():
        lock_club(season.club_id)
        found = Season.objects.select_for_update().filter(pk=season.pk).first()
        if found is None:
            raise _gone_season(season.name)
        season = found
        season.archived = archived
        season.save(update_fields=["archived"])
    return season


# --- house rules ---------------------------------------------------------------------------------


class RulesChanged(Conflict):
    """The club's rules of the variant changed since the form was shown: nothing was saved."""

    def __init__(self) -> None:
        super().__init__(
            _(
                "Someone changed these rules while you were editing them. Your figures are below, not saved: "
                "save again to replace the other change."
            )
        )


class RulesSaved(enum.Enum):
    """What saving a variant's house rules did."""

    PRESET = "preset"  # no figure differs from the preset: the club's row is gone (or was never there)
    UNCHANGED = "unchanged"  # the same changes as stored: nothing written
    CHANGED = "changed"  # the club's changes stored


def save_house_rules(
    club: Club, key: str, overrides: dict[str, Any], user: User, *, seen: tuple[str, ...]
) -> tuple[RulesSaved, HouseRules | None]:
    """Store ``overrides`` (what differs from preset ``key``; none: the preset's own figures) as the
    club's house rules, one admin at a time (the club's lock). ``seen``: the versions of the stored
    rules the save was made against (the one the page showed, the one the form was checked against;
    ``rules_version``); ``RulesChanged`` when the rules read under the lock are no longer those. What
    it did, and the club's row after it."""
    with transaction.atomic():
        lock_club(club.pk)
        house = HouseRules.objects.filter(club=club, ruleset=key).first()
        now = rules_version(house.overrides if house is not None else None)
        if any(version != now for version in seen):
            raise RulesChanged()
        if not overrides:
            if house is not None:
                house.delete()
            return RulesSaved.PRESET, None
        if house is not None and house.overrides == overrides:
            return RulesSaved.UNCHANGED, house
        house, _created = HouseRules.objects.update_or_create(
            club=club, ruleset=key, defaults={"overrides": overrides, "updated_by": user}
        )
        return RulesSaved.CHANGED, house


def reset_house_rules(club: Club, key: str) -> bool:
    """Back to preset ``key``: the club's changes of it deleted, under the club's lock (so that a save
    made at the same moment comes wholly before or after it). Whether there were any."""
    with transaction.atomic():
        lock_club(club.pk)
        deleted, _rows = HouseRules.objects.filter(club=club, ruleset=key).delete()
    return bool(deleted)
