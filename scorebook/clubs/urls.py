from django.urls import path

from .views import clubs, members, rules

urlpatterns = [
    path("clubs/", clubs.club_list, name="club_list"),
    path("clubs/new/", clubs.club_new, name="club_new"),
    path("c/<slug:slug>/settings/", clubs.club_settings, name="club_settings"),
    # members and invitations (admins)
    path("c/<slug:slug>/members/", members.member_list, name="club_members"),
    path("c/<slug:slug>/members/<id:membership>/role/", members.member_role, name="club_member_role"),
    path("c/<slug:slug>/members/<id:membership>/remove/", members.member_remove, name="club_member_remove"),
    path(
        "c/<slug:slug>/members/<id:membership>/password-link/",
        members.member_password_link,
        name="club_member_password_link",
    ),
    path("c/<slug:slug>/invitations/", members.invitation_new, name="club_invitation_new"),
    path("c/<slug:slug>/invitations/<id:invitation>/revoke/", members.invitation_revoke, name="club_invitation_revoke"),
    path("join/<token:token>/", members.join, name="club_join"),
    path("join/<token:token>/account/", members.join_signup, name="club_join_signup"),
    # house rules (admins)
    path("c/<slug:slug>/rules/", rules.rules_list, name="club_rules"),
    path("c/<slug:slug>/rules/<str:ruleset>/", rules.rules_edit, name="club_rules_edit"),
]
