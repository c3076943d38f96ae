"""Bad input refused in words (issue 23, item 6), one case per door found open: names with control
characters in the night forms (a 500), "²" in forms and addresses (a 500, one on the player page
any member opens), NaN place points (a 500), a NUL byte in a link's address (a 500 on
PostgreSQL), direction overrides and look-alike names accepted, digits other than 0-9 read as
numbers. ``tests/test_hostile_forms.py`` sends the same to every form of the site."""

import csv
import io
import json
from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.timezone import localdate

import night_builders
from club_fixtures import *  # noqa: F403
from night_builders import NAMES
from pages import Page, every_error
from scorebook.clubs.models import Club, Player, Season
from scorebook.core import cleaning, spreadsheet
from scorebook.evenings.models import Deal, Evening
from scorebook.ledger import services as ledger
from scorebook.ledger.models import Expense
from scorebook.nights import services as nights
from scorebook.nights.models import Night

# what reaches the database (control characters, look-alike names compared there): both databases
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

RTL = "\u202e"


@pytest.fixture
def marie_client(client, scorer):
    client.force_login(scorer)
    return client


@pytest.fixture
def night(club, scorer):
    return night_builders.night(club, scorer, 8, ranking_link=False)


def refused(response, *words):
    assert response.status_code == 422, response.status_code
    text = every_error(response.content.decode())
    for word in words:
        assert word in text, text
    return text


# names in the night forms: each was a 500 (the engine's FileError)


@pytest.mark.parametrize("name", ["Anne\x07Bert", f"{RTL}ennA", "An\u200bne", "\ufeffAnne"])
@pytest.mark.parametrize("form", ["night_substitute", "night_late"])
def test_it_refuses_a_name_with_control_or_direction_characters_in_the_night_forms(marie_client, night, form, name):
    data = {"name": name} | ({"leaving": "1"} if form == "night_substitute" else {})
    response = marie_client.post(reverse(form, args=[night.pk]), data)
    refused(response, "A name cannot hold")
    assert night.participants.count() == 8


def test_it_refuses_a_guest_with_a_direction_override_naming_the_line(marie_client, club):
    data = {
        "name": "Kaartavond",
        "date": "2026-03-14",
        "ruleset": "kleurenwiezen",
        "sessions": "2",
        "deals_per_session": "8",
        "ranking": "total",
        "currency": "EUR",
        "guests": "\n".join(["Anne", "Bert", "Carl", f"{RTL}aniD"]),
    }
    text = refused(marie_client.post(reverse("night_new", args=[club.slug]), data), "invisible characters")
    assert RTL not in text and "\ufffdaniD" in text  # the line is named, its override made harmless


@pytest.mark.parametrize("points", ["NaN", "4, NaN, 2", "Infinity", "4²", "１, 0", "1e3"])
def test_it_refuses_place_points_that_are_no_numbers(marie_client, club, points):
    data = {
        "name": "Kaartavond",
        "date": "2026-03-14",
        "ruleset": "kleurenwiezen",
        "sessions": "2",
        "ranking": "places",
        "place_points": points,
        "currency": "EUR",
        "guests": "\n".join(NAMES[:8]),
    }
    refused(marie_client.post(reverse("night_new", args=[club.slug]), data), "Numbers separated by commas")


def test_it_refuses_a_guest_who_looks_like_a_roster_player_ticked(marie_client, club):
    Player.objects.create(club=club, name="Anne")
    data = {
        "name": "Kaartavond",
        "date": "2026-03-14",
        "ruleset": "kleurenwiezen",
        "sessions": "2",
        "ranking": "total",
        "currency": "EUR",
        "roster": ["Anne"],
        "guests": "\n".join(["Ａｎｎｅ", "Bert", "Carl", "Dina"]),
    }
    refused(marie_client.post(reverse("night_new", args=[club.slug]), data), "listed twice")


# "²" where a number is read by hand: each was a 500


def test_it_answers_a_superscript_season_on_the_player_page_any_member_opens(client, cast, club):
    player = Player.objects.create(club=club, name="Anne")
    Season.objects.create(
        club=club, name="2026", start=date(2026, 1, 1), end=date(2026, 12, 31), ruleset="kleurenwiezen"
    )
    client.force_login(cast["member"])
    response = client.get(reverse("club_player", args=[club.slug, player.pk]), {"season": "²"})
    assert response.status_code == 200


def test_it_answers_a_superscript_session_when_printing_the_cards(marie_client, night):
    response = marie_client.post(reverse("night_cards", args=[night.pk]), {"session": "²"})
    assert response.status_code == 200


@pytest.mark.parametrize("view", ["deal_delete", "deal_edit"])
def test_it_answers_a_superscript_deal_id(marie_client, make_evening, view):
    evening = make_evening(deals=[{"contract": "pass"}])
    response = marie_client.post(reverse(view, args=[evening.pk, 1]), {"deal": "²", "contract": "pass"})
    assert response.status_code in (200, 302, 422)


# digits other than 0-9 in number fields: read as numbers today


@pytest.mark.parametrize("digits", ["١٢", "１２", "1²", "３"])
def test_it_refuses_other_digits_in_a_deal(marie_client, make_evening, digits):
    evening = make_evening(deals=[{"contract": "samen-8", "declarers": ["Anne", "Carl"], "tricks": 9}])
    response = marie_client.post(
        reverse("deal_edit", args=[evening.pk, 1]),
        {"contract": "samen-8", "declarers": ["Anne", "Carl"], "tricks": digits},
    )
    refused(response, "whole number")


@pytest.mark.parametrize("digits", ["١٢", "１２"])
def test_it_refuses_other_digits_in_an_adjustment(marie_client, make_evening, digits):
    evening = make_evening()
    response = marie_client.post(reverse("adjustment", args=[evening.pk]), {"adj-points_0": digits})
    refused(response, "whole number")
    assert not evening.deals.exists()


@pytest.mark.parametrize("field", ["min_evenings", "league_points"])
def test_it_refuses_other_digits_in_a_season(client, admin, club, field):
    season = Season.objects.create(
        club=club, name="2026", start=date(2026, 1, 1), end=date(2026, 12, 31), ruleset="kleurenwiezen"
    )
    client.force_login(admin)
    data = {
        "name": "2026",
        "start": "2026-01-01",
        "end": "2026-12-31",
        "ruleset": "kleurenwiezen",
        "ranking": "total",
        "min_evenings": "0",
        "drop_worst": "0",
        "tie_break": "evenings-won",
        "league_points": "",
    }
    assert client.post(reverse("season_edit", args=[club.slug, season.pk]), data).status_code == 302  # as it is
    data |= {field: "١٠"} | ({"ranking": "league"} if field == "league_points" else {})
    refused(client.post(reverse("season_edit", args=[club.slug, season.pk]), data))
    season.refresh_from_db()
    assert season.min_evenings == 0 and season.league_points == []


def test_it_refuses_other_digits_in_an_invitation(client, admin, club):
    client.force_login(admin)
    response = client.post(
        reverse("club_invitation_new", args=[club.slug]), {"role": "member", "days": "7", "uses": "５"}
    )
    refused(response, "whole number")
    assert not club.invitations.exists()


# names: direction marks and look-alikes, accepted today


@pytest.mark.parametrize("name", [f"{RTL}ennA", "An\u200bne", "\u0410nne"])  # override, zero width, Cyrillic А
def test_it_refuses_a_roster_name_that_hides_or_fakes_its_letters(marie_client, club, name):
    refused(marie_client.post(reverse("club_players", args=[club.slug]), {"name": name}))
    assert not club.players.exists()


@pytest.mark.parametrize("lookalike", ["Ａｎｎｅ", "ANNE", "Ａnne"])
def test_it_refuses_a_full_width_look_alike_of_a_roster_name(marie_client, club, lookalike):
    Player.objects.create(club=club, name="Anne")
    refused(marie_client.post(reverse("club_players", args=[club.slug]), {"name": lookalike}), "already in the roster")
    assert list(club.players.values_list("name", flat=True)) == ["Anne"]


def test_it_refuses_two_seats_that_look_alike_in_a_new_evening(marie_client):
    data = {"ruleset": "kleurenwiezen", "first_dealer": "0", "currency": "EUR", "date": "2026-11-20"}
    data |= {"player_0": "Anne", "player_1": "Ａｎｎｅ", "player_2": "Carl", "player_3": "Dina"}
    refused(marie_client.post(reverse("evening_new"), data), "same name")


def test_it_keeps_a_full_width_club_name_in_plain_letters(marie_client):
    assert marie_client.post(reverse("club_new"), {"name": "Ｄｅ Ｔｒｏｅｆ", "slug": ""}).status_code == 302
    assert Club.objects.get().name == "De Troef"


@pytest.mark.parametrize("field", ["display_name"])
def test_it_refuses_a_direction_override_in_a_display_name(client, scorer, field):
    client.force_login(scorer)
    refused(client.post(reverse("profile"), {field: f"{RTL}eiraM", "email": ""}), "direction marks")


def test_it_refuses_a_direction_override_in_a_note(marie_client, make_evening):
    evening = make_evening()
    response = marie_client.post(reverse("adjustment", args=[evening.pk]), {"adj-points_0": "3", "adj-note": f"{RTL}x"})
    refused(response, "direction marks")


# tokens: a NUL byte reached PostgreSQL (DataError, a 500)


@pytest.mark.parametrize("prefix", ["s", "r", "t", "join"])
@pytest.mark.parametrize("token", ["%00", "abc%00def", "a%00b.secret", "%C2%B2", "%E2%80%AEabc"])
def test_it_answers_404_to_a_link_with_a_nul_or_foreign_character(marie_client, make_evening, prefix, token):
    make_evening()
    assert marie_client.get(f"/{prefix}/{token}/").status_code == 404


def test_it_still_opens_the_links_it_makes(client, make_evening, night):
    evening = make_evening()
    assert client.get(reverse("evening_public", args=[evening.share_token])).status_code == 200
    assert client.get(reverse("night_ranking", args=[nights.new_ranking_link(night)])).status_code == 200


# the helpers themselves


@pytest.mark.parametrize(
    ("typed", "kept"),
    [("  Anne   Claes ", "Anne Claes"), ("Ｚｏë", "Zoë"), ("Éric", "Éric"), ("Jean-Luc O'Brien", "Jean-Luc O'Brien")],
)
def test_it_keeps_a_name_folded_and_single_spaced(typed, kept):
    assert cleaning.clean_name(typed) == kept


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("Anne\x00", "control"),
        ("An\x85ne", "control"),
        ("Anne\x1b[0m", "control"),
        (f"{RTL}ennA", "invisible"),
        ("An\u2066ne", "invisible"),
        ("An\u00adne", "invisible"),  # soft hyphen
        ("\u0410nne", "mixed_script"),
        ("   ", "required"),
        ("x" * 41, "max_length"),
    ],
)
def test_it_refuses_a_name_saying_why(typed, code):
    with pytest.raises(ValidationError) as caught:
        cleaning.clean_name(typed)
    assert caught.value.code == code


@pytest.mark.parametrize("raw", ["²", "1²", "١٢", "１２", "NaN", "1e3", "0x10", " ", "", "9" * 25, None, 12])
def test_it_reads_no_whole_number_from_other_characters(raw):
    assert cleaning.whole_number(raw) is None


def test_it_reads_a_whole_number_and_its_bounds():
    assert cleaning.whole_number(" 42 ") == 42
    assert cleaning.whole_number("-3") == -3
    assert cleaning.whole_number("0", low=1) is None


def test_it_takes_look_alikes_for_one_name():
    assert cleaning.looks_like("Ａｎｎｅ", ["Bert", "anne"]) == "anne"
    assert cleaning.looks_like("\u0410nne", ["Anne"]) == "Anne"
    assert cleaning.looks_like("Annie", ["Anne"]) is None


# issue 32, item 5: a capital I passes for a small l; every bidi control refused in free text


def test_it_refuses_a_roster_name_whose_capital_i_passes_for_an_l(marie_client, club):
    Player.objects.create(club=club, name="Alice")
    refused(marie_client.post(reverse("club_players", args=[club.slug]), {"name": "aIice"}), "already in the roster")
    assert list(club.players.values_list("name", flat=True)) == ["Alice"]


def test_it_refuses_two_seats_whose_names_pass_for_one_in_a_new_evening(marie_client):
    data = {"ruleset": "kleurenwiezen", "first_dealer": "0", "currency": "EUR", "date": "2026-11-20"}
    data |= {"player_0": "Alice", "player_1": "AIice", "player_2": "Carl", "player_3": "Dina"}
    refused(marie_client.post(reverse("evening_new"), data), "same name")


def test_it_keeps_names_apart_that_differ_by_more_than_a_look():
    def alike(name, other):
        return cleaning.looks_like(name, [other]) is not None

    assert alike("Ivan", "ivan") and alike("Ivan", "lvan")  # capitals; I and l
    assert not alike("Ivan", "Iwan") and not alike("Eli", "Ell")


@pytest.mark.parametrize("mark", ["\u200e", "\u200f", "\u061c", "\u202a", "\u2066"])  # LRM, RLM, ALM, LRE, LRI
def test_it_refuses_every_bidi_control_in_a_note(marie_client, make_evening, mark):
    evening = make_evening()
    note = {"adj-points_0": "3", "adj-note": f"x{mark}"}
    response = marie_client.post(reverse("adjustment", args=[evening.pk]), note)
    refused(response, "direction marks")


def test_it_keeps_an_emoji_written_with_a_joiner_in_a_note():
    assert cleaning.clean_text("Anne 👩\u200d👩\u200d👧 ") == "Anne 👩\u200d👩\u200d👧"


# Issue 39: notes took a zero-width space, U+2028 and a leading byte order mark, and a note "\ufeff=1"
# reached ledger.csv without its apostrophe (the guard looked at the first character, the mark)

INVISIBLE = {
    "zero width space": "\u200b",
    "line separator": "\u2028",
    "paragraph separator": "\u2029",
    "byte order mark": "\ufeff",
    "word joiner": "\u2060",
    "soft hyphen": "\u00ad",
}


@pytest.fixture
def adele_client(client, admin):
    client.force_login(admin)
    return client


def expense(note: str, day: str = "2026-11-20") -> dict[str, str]:
    return {"expense-amount": "12.50", "expense-day": day, "expense-note": note}


@pytest.mark.both_databases
@pytest.mark.parametrize("written", ["{c}=1", "New{c}cards", "cards{c}"], ids=["leading", "inside", "trailing"])
@pytest.mark.parametrize("char", INVISIBLE.values(), ids=INVISIBLE.keys())
def test_it_refuses_invisible_characters_and_line_separators_in_a_note(
    adele_client, club, admin, make_evening, char, written
):
    """Refused in words; a line or paragraph separator at either end is white space, which every
    field strips first: never kept."""
    note = written.format(c=char)
    evening = make_evening(user=admin)
    for response in (
        adele_client.post(reverse("club_kitty_expense", args=[club.slug]), expense(note)),
        adele_client.post(reverse("adjustment", args=[evening.pk]), {"adj-points_0": "3", "adj-note": note}),
    ):
        if not (char.isspace() and note.strip() != note):
            refused(response, "invisible")
    assert not Expense.objects.filter(note__contains=char).exists()
    assert not any(char in json.dumps(deal.data, ensure_ascii=False) for deal in Deal.objects.all())


@pytest.mark.both_databases
@pytest.mark.parametrize(
    "note",
    ["\ufeff=1+1", "\u200b=HYPERLINK(1)", " =1+1", "\u2028+1+1", "＝1+1", "\u00a0@SUM(1)", "\u2060-1+1"],
    ids=["bom", "zero width space", "space", "line separator", "full width", "no-break space", "word joiner"],
)
def test_every_csv_cell_is_guarded_after_normalisation(adele_client, club, admin, note):
    """A note kept before the forms refused these (or restored from a file): the spreadsheet reads
    past an invisible character or a space to the formula, so the guard does too."""
    ledger.record_expense(club, Decimal("5.00"), "EUR", date(2026, 11, 20), note, admin)
    content = adele_client.get(reverse("club_ledger_csv", args=[club.slug])).content.decode("utf-8-sig")
    cells = [cell for row in csv.reader(io.StringIO(content)) for cell in row if cell.endswith(note[1:])]
    assert cells and all(cell.startswith("'") for cell in cells), cells
    assert spreadsheet.safe_cell("-1,50") == "-1,50" and spreadsheet.safe_cell("=") == "="  # numbers, no movement


def test_it_keeps_a_note_with_french_spaces_and_an_emoji():
    assert cleaning.clean_text("Cartes\u202f: 12\u00a0€ 👍🏽") == "Cartes\u202f: 12\u00a0€ 👍🏽"


# Issue 39: an expense could be dated 1900 or 2099. A date a person types to record it is from 1 January
# 2000 to the end of the year after next (core.cleaning.DateField), refused in words naming both ends.

LAST = date(localdate().year + 2, 12, 31)


def typed_dates(marie_client, adele_client, club, day: str) -> dict[str, object]:
    """Every form where a date is typed, posted with ``day``: its answer."""
    evening = {"ruleset": "kleurenwiezen", "first_dealer": "0", "currency": "EUR", "date": day}
    evening |= {f"player_{n}": name for n, name in enumerate(["Anne", "Bert", "Carl", "Dina"])}
    night = {"name": "Kaartavond", "date": day, "ruleset": "kleurenwiezen", "sessions": "2", "deals_per_session": "8"}
    night |= {"ranking": "total", "currency": "EUR", "guests": "\n".join(NAMES[:8])}
    season = {"name": "Lente", "start": day, "end": day, "ruleset": "kleurenwiezen", "ranking": "total"}
    season |= {"tie_break": "total-points", "min_evenings": "0", "drop_worst": "0"}
    return {
        "expense": adele_client.post(reverse("club_kitty_expense", args=[club.slug]), expense("Cards", day)),
        "evening": marie_client.post(reverse("evening_new"), evening),
        "night": marie_client.post(reverse("night_new", args=[club.slug]), night),
        "season": adele_client.post(reverse("season_new", args=[club.slug]), season),
    }


@pytest.mark.both_databases
@pytest.mark.parametrize("day", ["1900-01-01", "1999-12-31", "2099-01-01", "9999-12-31", "{after}"])
def test_it_refuses_a_date_before_2000_or_after_the_year_after_next_in_words(marie_client, club, admin, day):
    adele_client = Client()
    adele_client.force_login(admin)
    low, high = (date_format(d, "DATE_FORMAT") for d in (date(2000, 1, 1), LAST))
    day = day.format(after=(LAST + timedelta(days=1)).isoformat())
    for form, answer in typed_dates(marie_client, adele_client, club, day).items():
        assert f"Choose a date from {low} to {high}." in every_error(answer.content.decode()), form
        assert answer.status_code == 422, form
    assert not Expense.objects.exists() and not Evening.objects.exists() and not Season.objects.exists()
    assert not Night.objects.exists()


@pytest.mark.both_databases
def test_it_takes_the_dates_at_either_end(marie_client, club, admin):
    adele_client = Client()
    adele_client.force_login(admin)
    for day in ("2000-01-01", LAST.isoformat()):
        answers = typed_dates(marie_client, adele_client, club, day)
        assert {form: a.status_code for form, a in answers.items()} == dict.fromkeys(answers, 302)
        Season.objects.all().delete()  # the next one would overlap


def test_the_date_picker_offers_only_those_dates(marie_client, club):
    page = Page(marie_client.get(reverse("night_new", args=[club.slug])).content.decode())
    picker = page.find("input[name=date]")
    assert picker.get("type") == "date" and picker.get("min") == "2000-01-01"
    assert picker.get("max") == LAST.isoformat()
