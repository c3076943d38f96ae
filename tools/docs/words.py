"""The words of the generated parts of ``docs/``, in English, French and Dutch.

A generated part is made by the same code in every language: only its words come from here, so a
figure, a grid or a worked example can never differ between the English page and its translations.
The words are those of the site's catalogues and of ``docs/glossary.md`` (a deal is a *donne* and a
*spel*, a declarer a *déclarant* and a *speler*, the bête a *bête* and a *pot*...).

French follows the site's typography: a no-break space before ``: ; ? !`` (``say`` puts it in), and
numbers are written as each language writes them (``1 000 000`` and ``0,10`` in French,
``1.000.000`` and ``0,10`` in Dutch).
"""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

LANGS = ("en", "fr", "nl")
NBSP = "\u00a0"
_FRENCH_MARK = re.compile(r" ([:;?!])")

# key: (English, French, Dutch); {name} fields are filled by ``say``
PHRASES: dict[str, tuple[str, str, str]] = {
    # --- shared ---
    "yes": ("yes", "oui", "ja"),
    "no": ("no", "non", "nee"),
    "none": ("none", "aucune", "geen"),
    "span": ("{low} to {high}", "{low} à {high}", "{low} tot en met {high}"),
    "or-more": ("{low} or more", "{low} ou plus", "{low} of meer"),
    "and": (" & ", " et ", " en "),
    "made": ("made", "réussi", "gehaald"),
    "failed": ("failed", "chuté", "mislukt"),
    "nobody": ("nobody", "personne", "niemand"),
    # --- the presets ---
    "key": ("key", "clé", "sleutel"),
    "players": ("players", "joueurs", "spelers"),
    "key-in-rules-show": ("key in `rules show`", "clé dans `rules show`", "sleutel in `rules show`"),
    "as-shipped": ("as shipped", "valeur standard", "standaard"),
    "with-dummy": (", one of them with the dummy", ", dont un avec le mort", ", een van hen met de blinde"),
    "cards-4": ("A K Q J", "A R D V", "A H V B"),
    "cards-5": ("A K Q J 10", "A R D V 10", "A H V B 10"),
    "held": ("{held} held: {value}", "{held} en main : {value}", "{held} in handen: {value}"),
    "book": (
        "tricks in the book (a trick over them is a point)",
        "levées de base (chaque levée au-delà vaut un point)",
        "basisslagen (elke slag daarboven is een punt)",
    ),
    "manche-target": ("points that win a manche", "points pour gagner une manche", "punten voor een manche"),
    "honours-cards": ("honours counted", "honneurs comptés", "getelde honneurs"),
    "of-trumps": ("{n} ({cards} of trumps)", "{n} ({cards} d'atout)", "{n} ({cards} van troef)"),
    "honours-points": (
        "points for the honours held",
        "points pour les honneurs en main",
        "punten voor de honneurs in handen",
    ),
    "towards-manche": (
        "honours count towards the manche",
        "les honneurs comptent pour la manche",
        "honneurs tellen mee voor de manche",
    ),
    "kept-aside": (
        "no: kept aside until the manche ends",
        "non : mis en réserve jusqu'à la fin de la manche",
        "nee: apart gehouden tot de manche gedaan is",
    ),
    "barred-at": (
        "a side standing at this score cannot score honours",
        "une équipe à ce score ne peut pas marquer d'honneurs",
        "een ploeg die op deze stand staat, kan geen honneurs scoren",
    ),
    "claim": ("the claim with honours", "l'annonce des honneurs (chanter)", "opeisen met honneurs"),
    "claim-at": (
        "a side standing at exactly {at}, scores {points}",
        "une équipe à exactement {at} marque {points}",
        "een ploeg op precies {at} scoort {points}",
    ),
    "manche-scoring": ("how a won manche is valued", "valeur d'une manche gagnée", "waarde van een gewonnen manche"),
    "by-difference": (
        "by the difference of the two sides' points",
        "par la différence des points des deux équipes",
        "volgens het verschil tussen de punten van de twee ploegen",
    ),
    "by-losers": ("by the losers' points", "selon les points des perdants", "volgens de punten van de verliezers"),
    "manche-values": ("manche value, by {by}", "valeur de la manche, selon {by}", "waarde van de manche, volgens {by}"),
    "losers-trick-points": (
        "the losers' trick points",
        "les points de levées des perdants",
        "de slagpunten van de verliezers",
    ),
    "losers-points": ("the losers' points", "les points des perdants", "de punten van de verliezers"),
    "range-value": ("{span}: {value}", "{span} : {value}", "{span}: {value}"),
    "manche-base": (
        "points for winning the manche (difference scoring)",
        "points pour le gain de la manche (calcul par différence)",
        "punten voor het winnen van de manche (telling volgens verschil)",
    ),
    "manches-to-win": ("manches that win the robre", "manches pour gagner le robre", "manches om de robber te winnen"),
    "robre-bonus": ("robre bonus", "prime de robre", "robberbonus"),
    "chelem": (
        "all 13 tricks (chelem), outside the manche",
        "les 13 levées (chelem), hors manche",
        "alle 13 slagen (slim), buiten de manche",
    ),
    "four-play": (
        "{players}: four play each deal",
        "{players} : quatre jouent chaque donne",
        "{players}: vier spelen elk spel",
    ),
    "combination": (
        "several misère or piccolo declarers",
        "plusieurs déclarants en misère ou piccolo",
        "meerdere spelers in miserie of piccolo",
    ),
    "each-vs-table": (
        "each declarer is settled on his own against the three others, and the results are added up",
        "chaque déclarant est réglé seul contre les trois autres, et les résultats s'additionnent",
        "elke speler wordt apart afgerekend tegen de drie anderen, en de resultaten worden opgeteld",
    ),
    "failures-pay-others": (
        "each declarer scores his own row; every player who is not a declarer takes the opponents' figure of "
        "every declarer's row",
        "chaque déclarant marque sa propre ligne ; chaque joueur qui n'est pas déclarant reçoit le chiffre des "
        "adversaires de la ligne de chaque déclarant",
        "elke speler scoort zijn eigen rij; wie geen contract speelt, krijgt het getal van de tegenspelers uit de "
        "rij van elke speler",
    ),
    "all-pass": ("after an all-pass deal", "après une donne où tous passent", "na een spel waarin iedereen past"),
    "no-doubling": ("no doubling", "pas de doublement", "niet dubbel"),
    "next-counts": (
        "the next deal played counts ×{m}",
        "la donne jouée suivante compte ×{m}",
        "het volgende gespeelde spel telt ×{m}",
    ),
    "bete": ("the bête (a pot)", "la bête (le pot)", "de pot (bête)"),
    "failure-floor": (
        "a failure pays at least the contract's value into the bête",
        "une chute paie au moins la valeur du contrat dans la bête",
        "wie mislukt, betaalt minstens de waarde van het contract in de pot",
    ),
    "ante": (
        "jetons the dealer puts in the bête each deal",
        "jetons que le donneur met dans la bête à chaque donne",
        "fiches die de gever bij elk spel in de pot legt",
    ),
    "bete-end": (
        "what is left in the bête at the end",
        "ce qui reste dans la bête à la fin",
        "wat er op het einde in de pot blijft",
    ),
    "carry": ("carried to the next evening", "reporté à la soirée suivante", "meegenomen naar de volgende avond"),
    "share": (
        "shared equally by the evening's players",
        "partagé à parts égales entre les joueurs de la soirée",
        "gelijk verdeeld onder de spelers van de avond",
    ),
    "exactly-each": ("exactly {n} {tricks} each", "exactement {n} {tricks} chacun", "precies {n} {tricks} elk"),
    "exactly-together": (
        "exactly {n} {tricks} together",
        "exactement {n} {tricks} à eux deux",
        "precies {n} {tricks} samen",
    ),
    "trump-changed-needs": (
        "{n} ({m} if the trump was changed)",
        "{n} ({m} si l'atout a été changé)",
        "{n} ({m} als de troef veranderd is)",
    ),
    "trick": ("trick", "levée", "slag"),
    "tricks": ("tricks", "levées", "slagen"),
    "contract": ("contract", "contrat", "contract"),
    "kind": ("kind", "type", "soort"),
    "declarers": ("declarers", "déclarants", "spelers"),
    "tricks-needed": ("tricks needed", "levées requises", "vereiste slagen"),
    "trumps": ("trumps", "atout", "troef"),
    "up-to": ("1 (up to {n} in one deal)", "1 (jusqu'à {n} dans une donne)", "1 (tot {n} in één spel)"),
    "kind-pair": ("pair", "à deux", "met twee"),
    "kind-solo": ("solo", "solo", "alleen"),
    "kind-trou": ("trou (three aces)", "trou (trois as)", "troel (drie azen)"),
    "kind-misere": ("misère", "misère", "miserie"),
    "kind-piccolo": ("piccolo", "piccolo", "piccolo"),
    # --- the grids ---
    "taken-by-declarer": ("tricks taken by the declarer", "levées prises par le déclarant", "slagen van de speler"),
    "taken-by-side": (
        "tricks taken by the declaring side",
        "levées prises par le camp déclarant",
        "slagen van de spelende partij",
    ),
    "each-declarer": ("each declarer", "chaque déclarant", "elke speler"),
    "each-opponent": ("each opponent", "chaque adversaire", "elke tegenspeler"),
    "each-other": ("each other player", "chaque autre joueur", "elke andere speler"),
    "grid-line": (
        "{kind}, {n} {declarers}, tricks needed: {needs}, {trumps}.",
        "{kind}, {n} {declarers}, levées requises : {needs}, {trumps}.",
        "{kind}, {n} {declarers}, vereiste slagen: {needs}, {trumps}.",
    ),
    "declarer": ("declarer", "déclarant", "speler"),
    "with-trumps": ("with trumps", "avec atout", "met troef"),
    "without-trumps": ("without trumps", "sans atout", "zonder troef"),
    "pays-into-bete": (
        "pays at least {n} into the bête",
        "paie au moins {n} dans la bête",
        "betaalt minstens {n} in de pot",
    ),
    "failed-trump-changed": (
        "failed (the trump was changed)",
        "chuté (l'atout a été changé)",
        "mislukt (de troef is veranderd)",
    ),
    "made-trump-kept": (
        "made (the trump was not changed)",
        "réussi (l'atout n'a pas été changé)",
        "gehaald (de troef is niet veranderd)",
    ),
    "two-rows": (
        "With {n} tricks the contract is made, unless the trump was changed (*More* on the scoring page): then "
        "it needs {m}, and {n} tricks fail. That is why {n} has two rows.",
        "Avec {n} levées, le contrat est réussi, sauf si l'atout a été changé (*Plus* sur la page de marque) : "
        "il en faut alors {m}, et {n} levées chutent. C'est pourquoi {n} a deux lignes.",
        "Met {n} slagen is het contract gehaald, behalve als de troef veranderd is (*Meer* op de scorepagina): "
        "dan zijn er {m} nodig, en mislukt het met {n} slagen. Daarom staat {n} er twee keer.",
    ),
    # --- worked examples ---
    "from-sheet": (
        "From the worked examples, `tests/rules/cases/{file}`: *{name}*.",
        "D'après les exemples calculés du moteur, `tests/rules/cases/{file}`.",
        "Uit de uitgewerkte voorbeelden van de rekenmotor, `tests/rules/cases/{file}`.",
    ),
    "from-sheets": (
        "From the worked examples, `tests/rules/cases/{file}`: *{first}*, then *{then}*.",
        "D'après les exemples calculés du moteur, `tests/rules/cases/{file}`.",
        "Uit de uitgewerkte voorbeelden van de rekenmotor, `tests/rules/cases/{file}`.",
    ),
    "seats": (
        "Players, clockwise: {players}; {first} deals first.",
        "Joueurs, dans le sens des aiguilles d'une montre : {players} ; {first} donne en premier.",
        "Spelers, in wijzerzin: {players}; {first} geeft eerst.",
    ),
    "stake": (
        " Stake: {stake} {currency} a {unit}.",
        " Mise : {stake} {currency} par {unit}.",
        " Inzet: {stake} {currency} per {unit}.",
    ),
    "jeton": ("jeton", "jeton", "fiche"),
    "point": ("point", "point", "punt"),
    "house-rules": (" House rules: `{rules}`.", " Règles maison : `{rules}`.", " Huisregels: `{rules}`."),
    "dealer": ("dealer", "donneur", "gever"),
    "deal": ("deal", "donne", "spel"),
    "robre": ("robre", "robre", "robber"),
    "bete-col": ("bête", "bête", "pot"),
    "total": ("**total**", "**total**", "**totaal**"),
    "money": ("Money ({currency}): {amounts}.", "Argent ({currency}) : {amounts}.", "Geld ({currency}): {amounts}."),
    "who-pays": ("Who pays whom: {transfers}.", "Qui paie qui : {transfers}.", "Wie betaalt wie: {transfers}."),
    "pays": ("{payer} pays {payee} {amount}", "{payer} paie {amount} à {payee}", "{payer} betaalt {payee} {amount}"),
    "the-file": ("The evening file:", "Le fichier de la soirée :", "Het avondbestand:"),
    "adjustment-note": (
        "adjustment ({note}): {points}",
        "correction manuelle ({note}) : {points}",
        "correctie ({note}): {points}",
    ),
    "adjustment": ("adjustment: {points}", "correction manuelle : {points}", "correctie: {points}"),
    "pass": (
        "all pass: the same dealer deals again",
        "tous passent : le même donneur redonne",
        "alles pas: dezelfde gever deelt opnieuw",
    ),
    "robre-dummy": (
        "a robre: {player} plays with the dummy",
        "un robre : {player} joue avec le mort",
        "een robber: {player} speelt met de blinde",
    ),
    "robre-teams": (
        "a robre: {a} (team 0) against {b} (team 1)",
        "un robre : {a} (équipe 0) contre {b} (équipe 1)",
        "een robber: {a} (ploeg 0) tegen {b} (ploeg 1)",
    ),
    "claim-deal": (
        "team {team} stands at 8 and shows its honours",
        "l'équipe {team} est à 8 et chante ses honneurs",
        "ploeg {team} staat op 8 en toont haar honneurs",
    ),
    "classic-deal": ("tricks {a}–{b}", "levées {a}–{b}", "slagen {a}–{b}"),
    "with-honours": (", honours {a}–{b}", ", honneurs {a}–{b}", ", honneurs {a}–{b}"),
    "contract-head": ("{name} (`{code}`): ", "{name} (`{code}`) : ", "{name} (`{code}`): "),
    "each-tricks": ("{player} {tricks} ({outcome})", "{player} {tricks} ({outcome})", "{player} {tricks} ({outcome})"),
    "side-tricks": ("{side}, {n} {tricks}", "{side}, {n} {tricks}", "{side}, {n} {tricks}"),
    "trump-changed": (", trump changed", ", atout changé", ", troef veranderd"),
    "made-to-take": (
        ", {player} made to take a trick",
        ", {player} forcé à prendre une levée",
        ", {player} moest een slag nemen",
    ),
    "after-all-pass": (" (×{m} after the all-pass)", " (×{m} après le tour où tous ont passé)", " (×{m} na alles pas)"),
    "robre-line": ("- Robre {n}: {text}.", "- Robre {n} : {text}.", "- Robber {n}: {text}."),
    "dummy-team": (
        "{player} plays with the dummy (team 0) against {others} (team 1)",
        "{player} joue avec le mort (équipe 0) contre {others} (équipe 1)",
        "{player} speelt met de blinde (ploeg 0) tegen {others} (ploeg 1)",
    ),
    "teams": (
        "{a} (team 0) against {b} (team 1)",
        "{a} (équipe 0) contre {b} (équipe 1)",
        "{a} (ploeg 0) tegen {b} (ploeg 1)",
    ),
    "robre-to": (
        "robre to team {team}: {a} to {b}",
        "robre pour l'équipe {team} : {a} à {b}",
        "robber voor ploeg {team}: {a} tegen {b}",
    ),
    "manche-to": (
        "manche to team {team} at {a}–{b}: value {value}",
        "manche pour l'équipe {team} à {a}–{b} : valeur {value}",
        "manche voor ploeg {team} op {a}–{b}: waarde {value}",
    ),
    "the-file-score": ("The file:", "Le fichier :", "Het bestand:"),
    "score-prints": ("`manage.py score` prints:", "`manage.py score` affiche :", "`manage.py score` toont:"),
    # --- a correction after a payment ---
    "netting-1": (
        "1. The evening's money: {money}. Who pays whom: {transfers}.",
        "1. L'argent de la soirée : {money}. Qui paie qui : {transfers}.",
        "1. Het geld van de avond: {money}. Wie betaalt wie: {transfers}.",
    ),
    "netting-2": (
        "2. {payer} pays {payee} {amount}, and the scorer marks it paid.",
        "2. {payer} paie {amount} à {payee}, et le marqueur le note payé.",
        "2. {payer} betaalt {payee} {amount}, en de puntenteller zet het op betaald.",
    ),
    "netting-3": (
        "3. A deal is corrected. The money is now: {money}.",
        "3. Une donne est corrigée. L'argent est maintenant : {money}.",
        "3. Een spel wordt verbeterd. Het geld is nu: {money}.",
    ),
    "netting-4": (
        "4. With the payment counted, what is still owed: {money}.",
        "4. Le paiement compté, ce qui reste dû : {money}.",
        "4. Met de betaling meegeteld, wat nog openstaat: {money}.",
    ),
    "netting-5": (
        "5. Who pays whom now: {transfers}.",
        "5. Qui paie qui maintenant : {transfers}.",
        "5. Wie betaalt nu wie: {transfers}.",
    ),
    # --- the club's money ---
    "limits-head": ("| what | at most |", "| quoi | au plus |", "| wat | hoogstens |"),
    "limit-amount": (
        "one amount typed: a payment in part or free, on account, into or out of the kitty, an expense, a prize",
        "un montant saisi : un paiement partiel ou libre, en compte, vers la caisse ou hors de la caisse, une "
        "dépense, un prix",
        "één getypt bedrag: een betaling voor een deel of vrij, op rekening, in of uit de clubkas, een uitgave, "
        "een prijs",
    ),
    "limit-fee": (
        "the kitty's fee per player, for an evening or for a club night",
        "la cotisation à la caisse par joueur, pour une soirée ou pour une soirée de club",
        "de bijdrage aan de clubkas per speler, voor een avond of voor een kaartavond",
    ),
    "limit-nodes": (
        'the settle-up\'s search, in nodes (then it gives the best it found, without saying "the fewest")',
        "la recherche de « Tout régler », en nœuds (elle donne alors le meilleur qu'elle a trouvé, sans dire "
        "« le moins possible »)",
        "de zoektocht van *Vereffenen*, in knopen (daarna geeft hij het beste dat hij vond, zonder ‘zo weinig "
        "mogelijk’ te zeggen)",
    ),
    "balances": ("Balances: {table}.", "Soldes : {table}.", "Saldo's: {table}."),
    "settle-up": (
        "{n} players with a balance, {groups} groups that each add up to zero: {k} payments ({proof}). "
        "Settle up: {lines}.",
        "{n} joueurs avec un solde, {groups} groupes qui font chacun zéro : {k} paiements ({proof}). "
        "Tout régler : {lines}.",
        "{n} spelers met een saldo, {groups} groepen die elk op nul uitkomen: {k} betalingen ({proof}). "
        "Vereffenen: {lines}.",
    ),
    "proved": (
        "the search finished: no settlement takes fewer",
        "la recherche est allée au bout : aucun règlement n'en demande moins",
        "de zoektocht is afgerond: geen enkele afrekening heeft er minder nodig",
    ),
    "budget": (
        "the search stopped at its budget",
        "la recherche s'est arrêtée à sa limite",
        "de zoektocht stopte bij zijn limiet",
    ),
}

# the notes of the worked examples' adjustments, as a table says them
NOTES: dict[str, tuple[str, str, str]] = {
    "revoke": ("revoke", "renonce", "verzaking"),
    "misdeal": ("misdeal", "maldonne", "verkeerd gedeeld"),
    "misdeal fine": ("misdeal fine", "amende pour maldonne", "boete voor verkeerd delen"),
    "correction": ("correction", "correction", "rechtzetting"),
}


def language_of(path: Path, docs: Path) -> str:
    """The language of a page of ``docs``: ``docs/fr/...`` is French, ``docs/nl/...`` Dutch, the rest English."""
    first = path.relative_to(docs).parts[0]
    return first if first in LANGS[1:] else "en"


def say(key: str, lang: str, **values: object) -> str:
    """The phrase ``key`` in ``lang``, its fields filled in (French: a no-break space before ``: ; ? !``)."""
    text = PHRASES[key][LANGS.index(lang)]
    if lang == "fr":
        text = _FRENCH_MARK.sub(NBSP + r"\1", text).replace("« ", "«" + NBSP).replace(" »", NBSP + "»")
    return text.format(**values) if values else text


def note(text: str, lang: str) -> str:
    return NOTES[text][LANGS.index(lang)] if text in NOTES else text


def tricks(n: int, lang: str) -> str:
    """``1 trick``, ``5 tricks``; French says ``0 levée`` (the singular up to 1)."""
    one = n == 1 or (lang == "fr" and n == 0)
    return f"{n} {say('trick' if one else 'tricks', lang)}"


def count(n: int, singular: str, lang: str) -> str:
    """``1 declarer``, ``2 declarers`` (a word of ``PHRASES`` and its plural, made with an *s*)."""
    word = say(singular, lang)
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def number(n: int | Decimal, lang: str) -> str:
    """A number with its thousands, as the language writes it (``100,000.00``, ``100 000,00``, ``100.000,00``)."""
    text = f"{n:,}"
    if lang == "en":
        return text
    thousands = NBSP if lang == "fr" else "."
    return text.replace(",", "\0").replace(".", ",").replace("\0", thousands)


def decimal(text: str, lang: str) -> str:
    """An amount written by the engine (``-4.20``), as the language writes it (``-4,20``)."""
    return text if lang == "en" else text.replace(".", ",")
