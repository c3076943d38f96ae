"""Contract names: the same contract is called the same in each language, whichever variant it
is played in (issue 23: "seul 5" in kleurenwiezen beside "solo 6" in the Liège grid).

Kleurenwiezen and the Liège grid are the two Belgian contract games a club plays side by side:
their shared contracts (pairs, solos, abondances, trou, the misères, the slam of 13 tricks alone)
carry one name per language. Only names are data here; no figure is compared.
"""

import re

import pytest

from scorebook.rules import registry

LANGUAGES = ("fr", "nl", "en")
# kleurenwiezen's key -> the Liège key of the same contract (same kind and declarers)
SAME = (
    {f"samen-{k}": f"emballage-{k}" for k in range(8, 14)}
    | {f"alleen-{k}": f"solo-{k}" for k in range(6, 9)}
    | {f"abondance-{k}": f"abondance-{k}" for k in range(9, 12)}
    | {
        "troel": "trou",
        "kleine-miserie": "petite-misere",
        "piccolo": "piccolo",
        "grote-miserie": "grande-misere",
        "open-miserie": "grande-misere-etalee",
        "solo-slim": "grand-chelem",
    }
)


def names(ruleset: str, key: str) -> dict:
    return registry.get(ruleset).contracts[key].names.to_dict()


@pytest.mark.parametrize("kw, liege", sorted(SAME.items()))
def test_it_names_a_contract_of_both_belgian_grids_alike(kw, liege):
    a, b = registry.get("kleurenwiezen").contracts[kw], registry.get("liege").contracts[liege]
    assert (a.kind, a.declarers) == (b.kind, b.declarers)  # the same contract (a grid may ask another trick)
    assert names("kleurenwiezen", kw) == names("liege", liege)


def test_it_numbers_the_solos_of_kleurenwiezen_as_the_liege_grid_does():
    """Kleurenwiezen's solo for 5 tricks (no Liège counterpart) follows its siblings' name."""
    solos = [names("kleurenwiezen", f"alleen-{k}") for k in range(5, 9)]
    for code in LANGUAGES:
        stems = {re.sub(r"\s*\d+$", "", n[code]) for n in solos}
        assert len(stems) == 1, (code, stems)
        assert stems == {re.sub(r"\s*\d+$", "", names("liege", "solo-6")[code])}


def test_it_never_gives_one_name_to_two_kinds_of_contract_in_a_language():
    seen: dict[tuple[str, str], tuple] = {}
    clashes = []
    for key in registry.keys():  # noqa: SIM118 (a function of the registry)
        for contract in (getattr(registry.get(key), "contracts", None) or {}).values():
            for code in LANGUAGES:
                name = contract.names.to_dict()[code]
                what = (contract.kind, contract.declarers)
                if seen.setdefault((code, name), what) != what:
                    clashes.append((code, name, key, contract.key))
    assert not clashes
