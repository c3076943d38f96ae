"""Every kind of bad input is rejected with a message naming the problem and the deal.

docs/evening-file.md: "A file that breaks the rules (an unknown contract, 14 tricks, a
declarer who is sitting out, tricks that do not add up to 13) exits with status 2
and a message naming the deal number and the problem". Deal numbers are 1-based;
0 stands for the file itself.
"""

from __future__ import annotations

import io
import json
import signal
from decimal import Decimal

import pytest
from django.core.management import call_command

from scorebook.rules import registry
from scorebook.rules.deals import Adjustment, ClassicDeal, ContractDeal, Evening, Pass
from scorebook.rules.evening_file import FORMAT, FileError, loads, score_file
from scorebook.rules.scoring import DealError, score

P4 = ["Anne", "Bert", "Carl", "Dina"]
P5 = [*P4, "Eric"]
SOLO = {"contract": "solo", "declarers": ["Bert"], "tricks": 6}  # a valid gand deal


def evening_text(ruleset: str = "gand", players=None, deals=(), **extra) -> str:
    data = {
        "format": FORMAT,
        "ruleset": ruleset,
        "players": P4 if players is None else players,
        "deals": list(deals) if isinstance(deals, list | tuple) else deals,
    }
    data.update(extra)
    return json.dumps(data)


def rejected(text: str | bytes, number: int, *fragments: str) -> FileError | DealError:
    """Score ``text``; it must fail at deal ``number`` with every fragment in the message."""
    with pytest.raises((FileError, DealError)) as excinfo:
        score_file(text)
    exc = excinfo.value
    assert exc.number == number, f"expected deal {number}, got {exc.number}: {exc}"
    for fragment in fragments:
        assert fragment in exc.message, f"{fragment!r} not in {exc.message!r}"
    if number:
        assert str(exc).startswith(f"deal {number}: "), str(exc)
    else:
        assert not str(exc).startswith("deal "), str(exc)
    return exc


# --- contracts ----------------------------------------------------------------------------


def test_it_rejects_an_unknown_contract() -> None:
    exc = rejected(
        evening_text(deals=[SOLO, {"contract": "slam", "declarers": ["Anne"], "tricks": 5}]),
        2,
        "unknown contract 'slam'",
        "gand",
    )
    assert isinstance(exc, DealError)


def test_it_rejects_a_contract_of_another_ruleset() -> None:
    rejected(
        evening_text("liege", deals=[{"contract": "alleen-5", "declarers": ["Anne"], "tricks": 5}]),
        1,
        "unknown contract 'alleen-5'",
        "liege",
    )


def test_it_rejects_a_contract_key_that_is_not_text() -> None:
    rejected(
        evening_text(deals=[{"contract": 5, "declarers": ["Anne"], "tricks": 5}]), 1, "contract must be a contract key"
    )


def test_it_rejects_14_tricks() -> None:
    rejected(
        evening_text(deals=[SOLO, SOLO, {"contract": "solo", "declarers": ["Anne"], "tricks": 14}]),
        3,
        "14 tricks",
        "only 13",
    )


def test_it_rejects_14_tricks_for_one_misere_declarer() -> None:
    rejected(
        evening_text(deals=[{"contract": "misere", "declarers": ["Anne"], "tricks": {"Anne": 14}}]),
        1,
        "14 tricks",
        "only 13",
    )


def test_it_rejects_negative_tricks() -> None:
    rejected(
        evening_text(deals=[SOLO, {"contract": "emballage", "declarers": ["Anne", "Carl"], "tricks": -1}]),
        2,
        "-1 tricks",
        "cannot be negative",
    )


def test_it_rejects_negative_tricks_for_a_misere_declarer() -> None:
    deal = {"contract": "misere", "declarers": ["Anne", "Bert"], "tricks": {"Anne": 0, "Bert": -2}}
    rejected(evening_text(deals=[deal]), 1, "-2 tricks", "cannot be negative")


def test_it_rejects_tricks_that_are_not_whole_numbers() -> None:
    rejected(
        evening_text(deals=[{"contract": "solo", "declarers": ["Anne"], "tricks": 6.5}]),
        1,
        "tricks must be a whole number",
    )
    rejected(
        evening_text(deals=[{"contract": "solo", "declarers": ["Anne"], "tricks": True}]),
        1,
        "tricks must be a whole number",
    )


def test_it_rejects_misere_tricks_per_declarer_summing_over_13() -> None:
    deal = {"contract": "misere", "declarers": ["Anne", "Bert", "Carl"], "tricks": {"Anne": 5, "Bert": 5, "Carl": 4}}
    rejected(evening_text(deals=[SOLO, deal]), 2, "14 tricks in all", "only 13")


def test_it_rejects_piccolo_tricks_per_declarer_summing_over_13() -> None:
    deal = {"contract": "piccolo", "declarers": ["Dina", "Bert"], "tricks": {"Dina": 7, "Bert": 7}}
    rejected(evening_text("liege", deals=[deal]), 1, "14 tricks in all")


def test_it_rejects_misere_tricks_of_a_player_who_is_not_a_declarer() -> None:
    deal = {"contract": "misere", "declarers": ["Anne"], "tricks": {"Anne": 0, "Bert": 1}}
    rejected(evening_text(deals=[deal]), 1, "tricks of each declarer, and only of the declarers")


def test_it_rejects_one_number_of_tricks_for_several_misere_declarers() -> None:
    deal = {"contract": "grote-miserie", "declarers": ["Anne", "Bert"], "tricks": 1}
    rejected(evening_text("kleurenwiezen", deals=[deal]), 1, "grote-miserie: give the tricks of each declarer")


def test_it_rejects_tricks_per_declarer_for_a_pair() -> None:
    deal = {"contract": "emballage", "declarers": ["Anne", "Carl"], "tricks": {"Anne": 4, "Carl": 5}}
    rejected(evening_text(deals=[deal]), 1, "emballage: give the tricks of the declaring side as one number")


# --- declarers and the table ---------------------------------------------------------------


def test_it_rejects_the_dealer_declaring_with_five_players() -> None:
    # Anne deals the first deal; after a pass she deals again and sits out again
    deals = [{"contract": "pass"}, {"contract": "solo", "declarers": ["Anne"], "tricks": 6}]
    rejected(
        evening_text(players=P5, first_dealer="Anne", deals=deals),
        2,
        "Anne is sitting out this deal and cannot declare",
    )


def test_it_rejects_the_rotating_dealer_declaring_with_five_players() -> None:
    # deal 1 is dealt by Anne, deal 2 by Bert: Bert sits out deal 2
    deals = [SOLO, {"contract": "emballage", "declarers": ["Bert", "Dina"], "tricks": 8}]
    rejected(
        evening_text(players=P5, first_dealer="Anne", deals=deals),
        2,
        "Bert is sitting out this deal and cannot declare",
    )


def test_it_rejects_a_declarer_left_out_of_the_named_players() -> None:
    deal = {"contract": "solo", "declarers": ["Eric"], "tricks": 6, "playing": ["Anne", "Bert", "Carl", "Dina"]}
    rejected(evening_text(players=P5, deals=[deal]), 1, "Eric is sitting out this deal and cannot declare")


def test_it_rejects_an_exposed_fault_by_a_player_sitting_out() -> None:
    deal = {
        "contract": "petite-misere-a-deux",
        "declarers": ["Bert", "Carl"],
        "tricks": {"Bert": 1, "Carl": 0},
        "exposed_fault": "Anne",
    }
    rejected(
        evening_text("encheres", players=P5, first_dealer="Anne", deals=[deal]),
        1,
        "Anne is not an opponent in this deal",
    )


def test_it_rejects_a_declarer_who_is_not_at_the_table() -> None:
    rejected(
        evening_text(deals=[SOLO, {"contract": "solo", "declarers": ["Zed"], "tricks": 6}]),
        2,
        "declarers",
        "'Zed' is not at the table",
    )


def test_it_rejects_a_declarer_who_is_not_at_the_table_in_the_engine() -> None:
    evening = Evening(
        rules=registry.get("gand"),
        players=tuple(P4),
        first_dealer="Anne",
        deals=(Pass(), ContractDeal("solo", ("Zed",), 6)),
    )
    with pytest.raises(DealError) as excinfo:
        score(evening)
    assert excinfo.value.number == 2
    assert "'Zed' is not at the table" in excinfo.value.message


def test_it_rejects_tricks_of_a_player_who_is_not_at_the_table() -> None:
    deal = {"contract": "misere", "declarers": ["Anne"], "tricks": {"Zed": 0}}
    rejected(evening_text(deals=[deal]), 1, "'Zed' is not at the table")


def test_it_rejects_a_solo_with_two_declarers() -> None:
    deal = {"contract": "solo", "declarers": ["Anne", "Bert"], "tricks": 6}
    rejected(evening_text(deals=[SOLO, SOLO, deal]), 3, "solo is played by 1 declarer, not 2")


def test_it_rejects_a_pair_with_one_declarer() -> None:
    deal = {"contract": "emballage", "declarers": ["Anne"], "tricks": 8}
    rejected(evening_text(deals=[deal]), 1, "emballage is played by 2 declarers, not 1")


def test_it_rejects_a_troel_with_three_declarers() -> None:
    deal = {"contract": "troel", "declarers": ["Anne", "Bert", "Carl"], "tricks": 8}
    rejected(evening_text("kleurenwiezen", deals=[deal]), 1, "troel is played by 2 declarers, not 3")


def test_it_rejects_a_misere_in_association_with_one_declarer() -> None:
    deal = {"contract": "petite-misere-a-deux", "declarers": ["Anne"], "tricks": {"Anne": 0}}
    rejected(evening_text("encheres", deals=[deal]), 1, "petite-misere-a-deux is played by 2 declarers, not 1")


def test_it_rejects_two_declarers_of_a_misere_that_only_one_may_play() -> None:
    deal = {"contract": "grande-misere", "declarers": ["Anne", "Bert"], "tricks": {"Anne": 0, "Bert": 0}}
    rejected(evening_text("encheres", deals=[deal]), 1, "grande-misere is played by 1 declarer, not 2")


def test_it_rejects_an_empty_list_of_declarers() -> None:
    rejected(
        evening_text(deals=[{"contract": "solo", "declarers": [], "tricks": 6}]),
        1,
        "declarers must be a list of players",
    )


def test_it_rejects_the_same_declarer_twice() -> None:
    deal = {"contract": "emballage", "declarers": ["Anne", "Anne"], "tricks": 9}
    rejected(evening_text(deals=[SOLO, deal]), 2, "a player is named twice among the declarers")


def test_it_rejects_the_same_misere_declarer_twice() -> None:
    deal = {"contract": "misere", "declarers": ["Carl", "Carl"], "tricks": {"Carl": 0}}
    rejected(evening_text(deals=[deal]), 1, "a player is named twice among the declarers")


def test_it_rejects_a_table_of_three_named_players() -> None:
    deal = {"contract": "pass", "playing": ["Anne", "Bert", "Carl"]}
    rejected(evening_text(players=P5, deals=[SOLO, deal]), 2, "four different players play a deal")


def test_it_rejects_a_dealer_who_is_not_at_the_table() -> None:
    rejected(evening_text(deals=[{"contract": "pass", "dealer": "Zed"}]), 1, "dealer", "'Zed' is not at the table")


def test_it_rejects_a_first_dealer_who_is_not_at_the_table() -> None:
    rejected(evening_text(first_dealer="Zed"), 0, "first_dealer 'Zed' is not one of the players")


# --- options: trump, trump_changed, exposed_fault ---------------------------------------------


def test_it_rejects_trump_changed_on_a_contract_without_it() -> None:
    deal = {"contract": "alleen-5", "declarers": ["Anne"], "tricks": 5, "trump_changed": True}
    rejected(evening_text("kleurenwiezen", deals=[{"contract": "pass"}, deal]), 2, "alleen-5 has no changed trump")


def test_it_rejects_trump_changed_on_a_liege_trou() -> None:
    deal = {"contract": "trou", "declarers": ["Anne", "Carl"], "tricks": 9, "trump_changed": True}
    rejected(evening_text("liege", deals=[deal]), 1, "trou has no changed trump")


def test_it_rejects_trump_changed_that_is_not_true_or_false() -> None:
    deal = {"contract": "troel", "declarers": ["Anne", "Carl"], "tricks": 9, "trump_changed": "yes"}
    rejected(evening_text("kleurenwiezen", deals=[deal]), 1, "trump_changed must be true or false")


def test_it_rejects_a_trump_on_a_contract_without_trumps() -> None:
    deal = {"contract": "misere", "declarers": ["Anne"], "tricks": 0, "trump": "hearts"}
    rejected(evening_text(deals=[deal]), 1, "misere is played without trumps")


def test_it_rejects_an_unknown_trump() -> None:
    rejected(evening_text(deals=[dict(SOLO, trump="stars")]), 1, "trump must be one of")


def test_it_rejects_an_exposed_fault_on_a_made_misere() -> None:
    deal = {
        "contract": "petite-misere-a-deux",
        "declarers": ["Anne", "Bert"],
        "tricks": {"Anne": 0, "Bert": 0},
        "exposed_fault": "Carl",
    }
    rejected(evening_text("encheres", deals=[{"contract": "pass"}, deal]), 2, "an exposed fault needs a failed misère")


def test_it_rejects_an_exposed_fault_on_a_contract_without_it() -> None:
    deal = {"contract": "solo", "declarers": ["Anne"], "tricks": 5, "exposed_fault": "Carl"}
    rejected(evening_text("encheres", deals=[deal]), 1, "solo has no exposed fault")


def test_it_rejects_an_exposed_fault_on_a_single_misere() -> None:
    deal = {"contract": "petite-misere", "declarers": ["Anne"], "tricks": 1, "exposed_fault": "Carl"}
    rejected(evening_text("encheres", deals=[deal]), 1, "petite-misere has no exposed fault")


def test_it_rejects_an_exposed_fault_by_a_declarer() -> None:
    deal = {
        "contract": "petite-misere-a-deux",
        "declarers": ["Anne", "Bert"],
        "tricks": {"Anne": 1, "Bert": 0},
        "exposed_fault": "Bert",
    }
    rejected(evening_text("encheres", deals=[deal]), 1, "Bert is not an opponent in this deal")


def test_it_rejects_an_exposed_fault_outside_encheres() -> None:
    deal = {"contract": "misere", "declarers": ["Anne"], "tricks": 1, "exposed_fault": "Carl"}
    rejected(evening_text("gand", deals=[deal]), 1, "misere has no exposed fault")


# --- classic games ---------------------------------------------------------------------------


def test_it_rejects_classic_tricks_not_adding_to_13() -> None:
    rejected(
        evening_text("classique", deals=[{"tricks": [7, 6]}, {"tricks": [7, 5]}]), 2, "the tricks add up to 12, not 13"
    )


def test_it_rejects_classic_tricks_adding_to_14() -> None:
    rejected(evening_text("short", deals=[{"tricks": [8, 6]}]), 1, "the tricks add up to 14, not 13")


def test_it_rejects_14_classic_tricks_for_one_team() -> None:
    rejected(evening_text("francais", deals=[{"tricks": [14, 0]}]), 1, "14 tricks: a deal has only 13")


def test_it_rejects_negative_classic_tricks() -> None:
    rejected(evening_text("classique", deals=[{"tricks": [14, -1]}]), 1, "whole numbers, 0 or more")


def test_it_rejects_classic_tricks_that_are_not_a_pair() -> None:
    rejected(evening_text("classique", deals=[{"tricks": [13]}]), 1, "tricks must be [team 0, team 1]")


@pytest.mark.parametrize("honours", [[5, 0], [0, 5], [3, 2], [4, 1]])
def test_it_rejects_honours_over_4(honours) -> None:
    rejected(
        evening_text("classique", deals=[{"tricks": [7, 6]}, {"tricks": [7, 6], "honours": honours}]),
        2,
        "there are only 4 honours",
    )


def test_it_rejects_negative_honours() -> None:
    rejected(evening_text("short", deals=[{"tricks": [7, 6], "honours": [-1, 3]}]), 1, "whole numbers, 0 or more")


def test_it_rejects_a_claim_by_a_side_not_at_8() -> None:
    rejected(evening_text("classique", deals=[{"claim": 0}]), 1, "team 0 stands at 0, not 8: it cannot claim")


def test_it_rejects_a_claim_by_a_side_at_9() -> None:
    # team 0: 6 then 3 trick points -> 9
    deals = [{"tricks": [12, 1]}, {"tricks": [9, 4]}, {"claim": 0}]
    rejected(evening_text("classique", deals=deals), 3, "team 0 stands at 9, not 8")


def test_it_rejects_a_claim_by_the_side_that_is_not_at_8() -> None:
    # team 0 stands at 8 (6 + 2), team 1 at 0: only team 0 may claim
    deals = [{"tricks": [12, 1]}, {"tricks": [8, 5]}, {"claim": 1}]
    rejected(evening_text("classique", deals=deals), 3, "team 1 stands at 0, not 8")


def test_it_rejects_a_claim_by_a_team_that_does_not_exist() -> None:
    deals = [{"tricks": [12, 1]}, {"tricks": [8, 5]}, {"claim": 2}]
    rejected(evening_text("classique", deals=deals), 3, "the claiming team is 0 or 1")


@pytest.mark.parametrize("ruleset", ["short", "francais"])
def test_it_rejects_a_claim_where_there_is_no_claim(ruleset) -> None:
    rejected(
        evening_text(ruleset, deals=[{"tricks": [7, 6]}, {"claim": 0}]), 2, f"a claim at 8 is not part of {ruleset}"
    )


def test_it_rejects_a_robre_line_while_a_robre_is_in_progress() -> None:
    deals = [
        {"robre": {"teams": [["Anne", "Bert"], ["Carl", "Dina"]]}},
        {"tricks": [7, 6]},
        {"robre": {"teams": [["Anne", "Carl"], ["Bert", "Dina"]]}},
    ]
    rejected(evening_text("classique", deals=deals), 3, "the robre in progress is not finished")


def test_it_rejects_a_mort_robre_line_while_a_robre_is_in_progress() -> None:
    deals = [{"tricks": [7, 6]}, {"robre": {"dummy_partner": "Bert"}}]
    rejected(evening_text("mort", players=P4[:3], deals=deals), 2, "the robre in progress is not finished")


def test_it_rejects_a_robre_with_a_player_twice() -> None:
    deals = [{"robre": {"teams": [["Anne", "Bert"], ["Anne", "Dina"]]}}]
    rejected(evening_text("classique", deals=deals), 1, "two teams of two different players")


def test_it_rejects_a_robre_with_teams_in_mort() -> None:
    deals = [{"robre": {"teams": [["Anne", "Bert"], ["Carl", "Dina"]]}}]
    rejected(evening_text("mort", players=P4[:3], deals=deals), 1, "teams", "'Dina' is not at the table")


def test_it_rejects_a_dummy_partner_who_is_not_at_the_table() -> None:
    deals = [{"robre": {"dummy_partner": "Dina"}}]
    rejected(evening_text("mort", players=P4[:3], deals=deals), 1, "dummy_partner", "'Dina' is not at the table")


def test_it_rejects_a_robre_without_teams_in_classique() -> None:
    deals = [{"robre": {"dummy_partner": "Anne"}}]
    rejected(evening_text("classique", deals=deals), 1, "a robre names its two teams")


def test_it_rejects_a_contract_deal_in_a_classic_game() -> None:
    rejected(evening_text("classique", deals=[SOLO]), 1, "unknown key 'contract'")


def test_it_rejects_a_classic_deal_in_a_contract_game_in_the_engine() -> None:
    evening = Evening(
        rules=registry.get("liege"),
        players=tuple(P4),
        first_dealer="Anne",
        deals=(Adjustment({"Anne": 1}), ClassicDeal((7, 6))),
    )
    with pytest.raises(DealError) as excinfo:
        score(evening)
    assert excinfo.value.number == 2
    assert "is not a deal of liege" in excinfo.value.message


# --- unknown and missing keys ------------------------------------------------------------------


def test_it_rejects_an_unknown_key_at_the_top_of_the_file() -> None:
    rejected(evening_text(colour="red"), 0, "unknown key 'colour'")


def test_it_rejects_an_unknown_key_in_a_contract_deal() -> None:
    deal = {"contract": "solo", "declarers": ["Anne"], "tricks": 6, "trick": 6}
    exc = rejected(evening_text(deals=[SOLO, deal]), 2, "unknown key 'trick'")
    assert "deal 2" in str(exc)


def test_it_rejects_a_misspelt_key_in_a_contract_deal() -> None:
    deal = {"contract": "solo", "declarer": ["Anne"], "tricks": 6}
    rejected(evening_text(deals=[SOLO, SOLO, deal]), 3, "unknown key 'declarer'")


def test_it_rejects_an_unknown_key_in_a_pass() -> None:
    rejected(evening_text(deals=[SOLO, {"contract": "pass", "tricks": 0}]), 2, "a pass has no 'tricks'")


def test_it_rejects_an_unknown_key_in_an_adjustment() -> None:
    deal = {"adjustment": {"Anne": -5, "Bert": 5}, "reason": "revoke"}
    rejected(evening_text(deals=[SOLO, deal]), 2, "unknown key 'reason'")


def test_it_rejects_an_unknown_key_in_a_classic_deal() -> None:
    rejected(evening_text("classique", deals=[{"tricks": [7, 6], "honors": [3, 0]}]), 1, "unknown key 'honors'")


def test_it_rejects_an_unknown_key_in_a_claim() -> None:
    deals = [{"tricks": [12, 1]}, {"tricks": [8, 5]}, {"claim": 0, "honours": [3, 0]}]
    rejected(evening_text("classique", deals=deals), 3, "unknown key 'honours'")


def test_it_rejects_an_unknown_key_in_a_robre_line() -> None:
    rejected(
        evening_text("classique", deals=[{"robre": {"teams": [["Anne", "Carl"], ["Bert", "Dina"]], "bonus": 3}}]),
        1,
        "robre must be",
    )


@pytest.mark.parametrize("key", ["format", "ruleset", "players", "deals"])
def test_it_rejects_a_missing_required_key(key) -> None:
    data = json.loads(evening_text())
    del data[key]
    rejected(json.dumps(data), 0, f"the key {key!r} is missing")


def test_it_rejects_a_contract_deal_without_tricks() -> None:
    rejected(evening_text(deals=[SOLO, {"contract": "solo", "declarers": ["Anne"]}]), 2, "solo: tricks is missing")


def test_it_rejects_a_contract_deal_without_declarers() -> None:
    rejected(evening_text(deals=[{"contract": "solo", "tricks": 5}]), 1, "solo: declarers is missing")


def test_it_rejects_a_deal_without_a_contract() -> None:
    rejected(evening_text(deals=[SOLO, {"declarers": ["Anne"], "tricks": 5}]), 2, "a deal needs a contract")


def test_it_rejects_a_classic_deal_without_tricks() -> None:
    rejected(evening_text("short", deals=[{"honours": [3, 0]}]), 1, "gives the tricks of the two teams")


def test_it_rejects_a_deal_that_is_not_an_object() -> None:
    rejected(evening_text(deals=[SOLO, "pass"]), 2, "a deal must be an object")


def test_it_rejects_deals_that_are_not_a_list() -> None:
    rejected(evening_text(deals={"1": SOLO}), 0, "deals must be a list")


def test_it_rejects_a_wrong_format() -> None:
    rejected(evening_text(format="scorebook-evening/2"), 0, "format must be 'scorebook-evening/1'")


def test_it_rejects_a_file_that_is_not_an_object() -> None:
    rejected("[1, 2]", 0, "the evening file must be a JSON object")


def test_it_rejects_a_bad_date() -> None:
    rejected(evening_text(date="20/11/2026"), 0, "date must be written YYYY-MM-DD")


def test_it_rejects_an_empty_adjustment() -> None:
    rejected(evening_text(deals=[{"adjustment": {}}]), 1, "an adjustment gives points to players")


def test_it_rejects_an_adjustment_that_is_not_a_whole_number() -> None:
    rejected(evening_text(deals=[{"adjustment": {"Anne": 1.5}}]), 1, "adjustment must be a whole number")


def test_it_rejects_an_adjustment_for_a_player_not_at_the_table() -> None:
    rejected(evening_text(deals=[SOLO, {"adjustment": {"Zed": 5}}]), 2, "adjustment", "'Zed' is not at the table")


# --- stake, players, ruleset -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("stake", "fragment"),
    [
        (0.05, "stake must be a decimal written as a string"),
        (5, "stake must be a decimal written as a string"),
        ("abc", "stake 'abc' is not a decimal number"),
        ("", "stake '' is not a decimal number"),
        ("-0.05", "stake '-0.05' must be between 0 and 10000"),
        ("10000.01", "must be between 0 and 10000"),
        ("NaN", "stake 'NaN' must be between 0 and 10000"),
        ("Infinity", "must be between 0 and 10000"),
    ],
)
def test_it_rejects_a_bad_stake(stake, fragment) -> None:
    rejected(evening_text(stake=stake), 0, fragment)


def test_it_rejects_a_bad_currency() -> None:
    rejected(evening_text(stake="0.05", currency=""), 0, "currency must be three capital letters (ISO 4217)")


def test_it_rejects_duplicate_player_names() -> None:
    rejected(evening_text(players=["Anne", "Bert", "Anne", "Dina"]), 0, "player names must be unique")


def test_it_rejects_duplicate_player_names_in_the_engine() -> None:
    evening = Evening(rules=registry.get("gand"), players=("Anne", "Bert", "Anne", "Dina"), first_dealer="Anne")
    with pytest.raises(DealError) as excinfo:
        score(evening)
    assert excinfo.value.number == 0
    assert "player names must be unique" in excinfo.value.message


@pytest.mark.parametrize(
    ("players", "fragment"),
    [
        (["Anne", "", "Carl", "Dina"], "a player's name cannot be empty"),
        (["Anne", " Bert", "Carl", "Dina"], "cannot start or end with spaces"),
        (["Anne", "B" * 41, "Carl", "Dina"], "at most 40 characters"),
        (["Anne", "Be\nrt", "Carl", "Dina"], "control characters"),
        (["Anne", 2, "Carl", "Dina"], "players must be a list of names"),
        ("Anne, Bert, Carl, Dina", "players must be a list of names"),
    ],
)
def test_it_rejects_bad_player_names(players, fragment) -> None:
    rejected(evening_text(players=players, first_dealer="Anne"), 0, fragment)


@pytest.mark.parametrize(
    ("ruleset", "count", "fragment"),
    [
        ("kleurenwiezen", 3, "kleurenwiezen is played by 4 to 7 players, not 3"),
        ("gand", 8, "gand is played by 4 to 7 players, not 8"),
        ("liege", 2, "liege is played by 4 to 7 players, not 2"),
        ("classique", 3, "classique is played by 4 to 6 players, not 3"),
        ("short", 7, "short is played by 4 to 6 players, not 7"),
        ("mort", 4, "mort is played by 3"),
        ("mort", 2, "mort is played by 3"),
    ],
)
def test_it_rejects_too_few_or_too_many_players(ruleset, count, fragment) -> None:
    players = ["Anne", "Bert", "Carl", "Dina", "Eric", "Fien", "Gust", "Hugo"][:count]
    exc = rejected(evening_text(ruleset, players=players), 0, fragment)
    assert f"not {count}" in exc.message


def test_it_rejects_an_unknown_ruleset() -> None:
    rejected(evening_text("bridge"), 0, "unknown variant 'bridge'", "kleurenwiezen")


def test_it_rejects_a_ruleset_that_is_not_text() -> None:
    rejected(evening_text(["gand"]), 0, "ruleset must be a preset key")


@pytest.mark.parametrize(
    "text",
    ["{not json", "", '{"format": "scorebook-evening/1",}', b"\xff\xfe{}"],
)
def test_it_rejects_bad_json(text) -> None:
    rejected(text, 0, "not a JSON document")


def test_it_rejects_bad_json_through_loads() -> None:
    with pytest.raises(FileError) as excinfo:
        loads('{"format": "scorebook-evening/1", "deals": [}')
    assert excinfo.value.number == 0
    assert "not a JSON document" in excinfo.value.message


# --- house rules ----------------------------------------------------------------------------------


def test_it_rejects_a_rules_override_with_an_unknown_contract_key() -> None:
    rejected(evening_text(rules={"contracts": {"slam": {"needs": 5}}}), 0, "contracts.slam", "unknown contract key")


def test_it_rejects_a_rules_override_with_a_negative_needs() -> None:
    rejected(
        evening_text(rules={"contracts": {"solo": {"needs": -1}}}), 0, "contracts.solo.needs", "must be at least 0"
    )


def test_it_rejects_a_rules_override_with_needs_over_13() -> None:
    rejected(
        evening_text("kleurenwiezen", rules={"contracts": {"alleen-5": {"needs": 14}}}),
        0,
        "contracts.alleen-5.needs",
        "must be at most 13",
    )


def test_it_rejects_a_rules_override_with_an_unknown_key() -> None:
    rejected(evening_text(rules={"colour": 1}), 0, "colour", "unknown key")


def test_it_rejects_a_rules_override_with_an_unknown_key_in_a_contract() -> None:
    rejected(evening_text(rules={"contracts": {"solo": {"value": 3}}}), 0, "contracts.solo.value", "unknown key")


def test_it_rejects_a_rules_override_that_changes_the_family() -> None:
    rejected(evening_text(rules={"family": "classic"}), 0, "family", "cannot be changed")


def test_it_rejects_a_rules_override_that_is_not_an_object() -> None:
    rejected(evening_text(rules=["solo"]), 0, "rules", "must be an object")


def test_it_rejects_a_rules_override_with_a_payout_that_is_not_a_number() -> None:
    rules = {"contracts": {"solo": {"made": {"5": ["six", -2]}}}}
    rejected(evening_text(rules=rules), 0, "contracts.solo.made.5", "must be a whole number")


# --- the command line -----------------------------------------------------------------------------


def test_it_exits_with_status_2_and_prints_nothing_for_a_bad_file(tmp_path) -> None:
    path = tmp_path / "evening.json"
    path.write_text(evening_text(deals=[SOLO, {"contract": "solo", "declarers": ["Anne"], "tricks": 14}]))
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as excinfo:
        call_command("score", str(path), stdout=out, stderr=err)
    assert excinfo.value.code == 2
    assert out.getvalue() == ""
    assert "deal 2" in err.getvalue() and "14 tricks" in err.getvalue()


# --- settlement -----------------------------------------------------------------------------------


def _within(seconds: int, call):
    """Run ``call``, failing (instead of hanging the suite) if it takes more than ``seconds``."""

    def alarm(signum, frame):
        raise AssertionError(f"still running after {seconds} s (endless loop?)")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        return call()
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_it_rejects_balances_that_do_not_sum_to_zero_when_settling() -> None:
    from scorebook.rules.settlement import min_transfers

    unbalanced = {"Anne": Decimal("1.00"), "Bert": Decimal("-0.50")}
    # settlement.py documents it: "Raises ValueError if they do not sum to zero"
    with pytest.raises(ValueError, match="sum to zero"):
        _within(2, lambda: min_transfers(unbalanced))


def test_it_rejects_balances_that_are_not_whole_cents_when_settling() -> None:
    from scorebook.rules.settlement import min_transfers

    with pytest.raises(ValueError, match="whole number of cents"):
        _within(2, lambda: min_transfers({"Anne": Decimal("0.005"), "Bert": Decimal("-0.005")}))
