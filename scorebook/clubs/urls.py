from django.urls import path

from .views import clubs, ledger, members, players, rules, seasons

urlpatterns = [
    path("clubs/", clubs.club_list, name="club_list"),
    path("clubs/new/", clubs.club_new, name="club_new"),
    path("c/<slug:slug>/", clubs.club, name="club"),
    path("c/<slug:slug>/evenings/", seasons.club_evenings, name="club_evenings"),
    # members and invitations (admins)
    path("c/<slug:slug>/members/", members.member_list, name="club_members"),
    path("c/<slug:slug>/members/<int:membership>/role/", members.member_role, name="club_member_role"),
    path("c/<slug:slug>/members/<int:membership>/remove/", members.member_remove, name="club_member_remove"),
    path("c/<slug:slug>/invitations/", members.invitation_new, name="club_invitation_new"),
    path("c/<slug:slug>/invitations/<int:invitation>/revoke/", members.invitation_revoke, name="club_invitation_revoke"),
    path("join/<str:token>/", members.join, name="club_join"),
    # the roster
    path("c/<slug:slug>/players/", players.player_list, name="club_players"),
    path("c/<slug:slug>/players/<int:player>/", seasons.player_page, name="club_player"),
    path("c/<slug:slug>/players/<int:player>/link/", players.player_link, name="club_player_link"),
    path("c/<slug:slug>/players/<int:player>/merge/", players.player_merge, name="club_player_merge"),
    # house rules (admins)
    path("c/<slug:slug>/rules/", rules.rules_list, name="club_rules"),
    path("c/<slug:slug>/rules/<str:ruleset>/", rules.rules_edit, name="club_rules_edit"),
    # seasons and standings
    path("c/<slug:slug>/seasons/new/", seasons.season_new, name="season_new"),
    path("c/<slug:slug>/seasons/<int:pk>/", seasons.season, name="season"),
    path("c/<slug:slug>/seasons/<int:pk>/edit/", seasons.season_edit, name="season_edit"),
    path("c/<slug:slug>/seasons/<int:pk>/standings.csv", seasons.season_csv, name="season_csv"),
    # money left unpaid
    path("c/<slug:slug>/ledger/", ledger.ledger, name="club_ledger"),
    path("c/<slug:slug>/ledger/paid/", ledger.ledger_paid, name="club_ledger_paid"),
]
