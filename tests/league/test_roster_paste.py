"""The roster in one go (issue 23, item 1): the secretary pastes a list (one name a line, a column
copied from a spreadsheet, names separated by semicolons) or sends a CSV file; every name is shown
first (new, already in the roster, listed twice, a look-alike to confirm, refused and why), and
nothing is saved before she confirms; then all are added at once, under the club's lock."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from pages import Page
from scorebook.clubs import services
from scorebook.clubs.models import Player

pytestmark = pytest.mark.django_db

THIRTY = [f"{first} {last}" for first in ("Anne", "Bert", "Carl", "Dina", "Emma", "Fien") for last in "VWXYZ"]


@pytest.fixture
def adele_client(client, admin):
    client.force_login(admin)
    return client


def paste(client, club, text="", **extra):
    return client.post(reverse("club_players_paste", args=[club.slug]), {"names": text} | extra)


def check_page(response) -> dict[str, str]:
    """{name: status} as the check page shows them, and which boxes are ticked."""
    page = Page(response.content.decode())
    out = {}
    for card in page.all("ul.paste-check li"):
        status = next(c.removeprefix("paste-") for c in card.classes if c.startswith("paste-"))
        box = card.find("input[name=add]")
        out[card.find("strong").text] = status + (" ticked" if box is not None and box.has("checked") else "")
    return out


def confirm(client, club, response):
    page = Page(response.content.decode())
    ticked = [e.get("value") for e in page.all("input[name=add]") if e.has("checked")]
    return client.post(
        reverse("club_players_paste", args=[club.slug]),
        {"step": "add", "add": ticked, "names": page.one("input[name=names]").get("value")},
    )


@pytest.mark.both_databases
def test_it_shows_thirty_pasted_names_then_adds_them_at_once(adele_client, club):
    response = paste(adele_client, club, "\n".join(THIRTY) + "\n")
    assert response.status_code == 200
    assert check_page(response) == dict.fromkeys(THIRTY, "new ticked")
    assert not Player.objects.exists()  # nothing before the confirmation
    response = confirm(adele_client, club, response)
    assert response.status_code == 302
    assert sorted(Player.objects.values_list("name", flat=True)) == sorted(THIRTY)
    page = adele_client.get(response["Location"]).content.decode()
    assert "30 players added to the roster." in page


def test_it_reads_a_spreadsheet_column_tabs_and_semicolons(adele_client, club):
    response = paste(adele_client, club, "Anne\tClaes\r\nBert\tMaes\t\r\nCarl Janssens; Dina Peeters\n\n")
    assert list(check_page(response)) == ["Anne Claes", "Bert Maes", "Carl Janssens", "Dina Peeters"]


@pytest.mark.both_databases
def test_it_shows_duplicates_roster_names_look_alikes_and_refusals_before_saving(adele_client, club):
    Player.objects.create(club=club, name="Éric")
    Player.objects.create(club=club, name="Anne")
    response = paste(adele_client, club, "ANNE\nEric\nZoë\nzoë\nＢｅｒｔ\n\u202eennA\nAn\x07ne")
    assert check_page(response) == {
        "ANNE": "known",  # Anne is in the roster
        "Eric": "similar",  # Éric is: someone else? not ticked
        "Zoë": "new ticked",
        "zoë": "twice",
        "Bert": "new ticked",  # full-width letters made plain
        "\ufffdennA": "invalid",  # a direction override, shown harmless
        "An\ufffdne": "invalid",
    }
    html = response.content.decode()
    assert "Already in the roster as Anne" in html and "Looks like Éric" in html
    assert "direction marks" in html and "control characters" in html
    confirm(adele_client, club, response)
    assert set(Player.objects.values_list("name", flat=True)) == {"Anne", "Bert", "Éric", "Zoë"}


@pytest.mark.both_databases
def test_it_adds_a_look_alike_when_the_secretary_ticks_it(adele_client, club):
    Player.objects.create(club=club, name="Éric")
    response = paste(adele_client, club, "Eric")
    adele_client.post(
        reverse("club_players_paste", args=[club.slug]), {"step": "add", "add": ["Eric"], "names": "Eric"}
    )
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Eric", "Éric"]
    assert response.status_code == 200


@pytest.mark.parametrize(
    ("content", "names"),
    [
        ("Player;Member account;Evenings\r\nAnne;;3\r\nÉric;;0\r\n".encode("utf-8-sig"), ["Anne", "Éric"]),
        (b"Naam,E-mail\nJan Peeters,jan@example.org\nLien Maes,lien@example.org\n", ["Jan Peeters", "Lien Maes"]),
        ("Zoë\nÉmile\n".encode(), ["Zoë", "Émile"]),
    ],
)
def test_it_reads_the_first_column_of_a_csv_file(adele_client, club, content, names):
    upload = SimpleUploadedFile("players.csv", content, content_type="text/csv")
    response = adele_client.post(reverse("club_players_paste", args=[club.slug]), {"names": "", "file": upload})
    assert list(check_page(response)) == names


def test_it_refuses_an_empty_list_or_a_file_that_is_no_text_in_words(adele_client, club):
    response = paste(adele_client, club, "  \n\n")
    assert response.status_code == 422
    assert "Paste or type at least one name" in Page(response.content.decode()).one("#id_paste_error").text
    upload = SimpleUploadedFile(
        "players.xlsx", b"PK\x03\x04\xff\xfe\x00binary", content_type="application/octet-stream"
    )
    response = adele_client.post(reverse("club_players_paste", args=[club.slug]), {"names": "", "file": upload})
    assert response.status_code == 422 and "CSV UTF-8" in response.content.decode()


@pytest.mark.both_databases
def test_it_never_adds_a_name_twice_when_the_roster_changed_meanwhile(adele_client, club, admin):
    response = paste(adele_client, club, "Anne\nBert")
    services.add_player(club, "anne", admin)  # someone else added her in the meantime
    confirm(adele_client, club, response)
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Bert", "anne"]


def test_it_lets_no_member_paste(client, cast, club):
    client.force_login(cast["member"])
    assert paste(client, club, "Anne").status_code == 403
    assert not Player.objects.exists()


@pytest.mark.both_databases
def test_it_takes_a_spreadsheet_column_as_a_nights_guests(client, scorer, club):
    client.force_login(scorer)
    data = {
        "name": "Kaartavond",
        "date": "2026-03-14",
        "ruleset": "kleurenwiezen",
        "sessions": "2",
        "deals_per_session": "8",
        "ranking": "total",
        "currency": "EUR",
        "guests": "Anne\tClaes\nBert\tMaes\nCarl; Dina\nEmma\tPeeters\nFien\nGust\nHilde\n",
    }
    response = client.post(reverse("night_new", args=[club.slug]), data)
    assert response.status_code == 302
    assert "Anne Claes" in Player.objects.filter(club=club).values_list("name", flat=True)
