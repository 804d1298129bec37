"""The narrator's sentences about you: the verb agrees with "You" (issue 22, item 4), the
called card you play yourself is revealed (item 6), and the exchange prompt of a dealer
who must take up (item 7)."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from euchre import Card, Deal, Rules
from euchre.cli.lang import use
from euchre.cli.narrate import Narrator
from euchre.cli.seats import SeatNames
from euchre.game import Draw

# Five-handed (28 cards), dealer 4, turn-up TH; the kitty is 8H 9H.
FIVE = ["AH KH QH 8C 9C", "JH JD 8S 9S TS", "AC KC QC JC TC", "AD KD QD TD 9D",
        "AS KS QS JS 8D"]


def narrator(players: int, view: int, person: bool = True) -> tuple[Narrator, Console]:
    console = Console(record=True, width=200, color_system=None)
    return Narrator(console, SeatNames.around(players, view, person), view), console


def test_the_deal_header_says_you_deal() -> None:
    deal = Deal.random(Rules(players=4), dealer=0, seed=1)
    said, console = narrator(4, view=0)
    said.deal_start(deal.observation(0), 1)
    said.deal_start(Deal.random(Rules(players=4), dealer=1, seed=1).observation(0), 2)
    text = console.export_text()
    assert "Deal 1 · You deal" in text and "You deals" not in text
    assert "Deal 2 · West deals" in text


def test_the_deal_header_agrees_in_french_and_german() -> None:
    deal = Deal.random(Rules(players=4), dealer=0, seed=1)
    for lang, header in (("fr", "Donne 1 · vous donnez"), ("de", "Runde 1 · du gibst")):
        use(lang)
        said, console = narrator(4, view=0)
        said.deal_start(deal.observation(0), 1)
        assert header in console.export_text()


DRAW = Draw(rounds=((Card.parse("9C"), Card.parse("KD"), Card.parse("TS"),
                     Card.parse("QH")),), seats=(0, 1, 2, 3))


def test_the_draw_says_you_deal_first() -> None:
    """RULES §11: the lowest card sits at seat 0 and deals; the sentence agrees with you
    there, with you as the dealer's partner, and without you."""
    lines = {}
    for view in (0, 2, 1):
        said, console = narrator(4, view=view)
        said.draw(DRAW)
        lines[view] = console.export_text()
    assert ("You and North drew lowest and partner against East and West; you deal first."
            in lines[0])
    assert ("You and North drew lowest and partner against East and West; North deals "
            "first.") in lines[2]
    assert ("East and West drew lowest and partner against You and North; East deals "
            "first.") in lines[1]
    assert "You deals" not in "".join(lines.values())
    use("fr")
    said, console = narrator(4, view=0)
    said.draw(DRAW)
    french = console.export_text()
    assert "Vous et Nord avez tiré les plus basses" in french
    assert "vous donnez en premier" in french


def _called_then_led() -> Deal:
    """Seat 0 orders hearts, calls JH (seat 1 holds it: the partner) and leads AH."""
    deal = Deal.from_cards(Rules(players=5), 4, hands=FIVE, turnup="TH")
    for action in ("order", "discard 8D", "call JH", "play AH"):
        deal.apply(action)
    return deal


def test_playing_the_called_card_yourself_tells_the_table() -> None:
    """RULES §6.3: when you play the called card, the others learn you are the partner,
    and you are told so, as you are told when a bot plays it."""
    deal = _called_then_led()
    assert deal.observation(1).partner == 1  # you knew already
    effect = deal.apply("play JH")
    said, console = narrator(5, view=1)
    said.tell(effect, deal.observation(1))
    assert "You play JH, the called card: you are East's partner." in console.export_text()


def test_a_bot_playing_the_called_card_tells_you() -> None:
    deal = _called_then_led()
    effect = deal.apply("play JH")
    said, console = narrator(5, view=2)
    said.tell(effect, deal.observation(2))
    assert "East plays JH, the called card: East is Northeast's partner." \
        in console.export_text()


def test_no_reveal_for_another_card_of_yours() -> None:
    deal = Deal.from_cards(Rules(players=5), 4, hands=FIVE, turnup="TH")
    for action in ("order", "discard 8D", "call KS", "play AH"):
        deal.apply(action)
    effect = deal.apply("play JD")
    said, console = narrator(5, view=1)
    said.tell(effect, deal.observation(1))
    assert "called card" not in console.export_text()


def test_the_exchange_prompt_of_a_dealer_who_must_take_up() -> None:
    """RULES §5: with dealer must take up, discarding the turn-up is no choice, so the
    prompt does not offer declining the exchange."""
    for must, words, absent in ((True, "Discard a card; you must keep TH.", "declines"),
                                (False, "discarding TH declines the exchange", "must keep")):
        deal = Deal.from_cards(Rules(players=5, dealer_must_take_up=must), 4, hands=FIVE,
                               turnup="TH")
        deal.apply("order")
        said, _ = narrator(5, view=4)
        prompt = Text.from_markup(said.prompt(deal.observation(4))).plain
        assert words in prompt and absent not in prompt


# Four-handed, East deals and turns up AC; you order clubs trump, lead TH, and West, void
# in hearts, wins the trick with JS, the left bower.
LEFT = ["TH AD KD QD 9C", "JS 9S TS QS KS", "9H QC KC 9D TD", "KH AH QH JD TC"]


def test_a_trick_won_by_a_bower_declines_it_after_with() -> None:
    """German puts the bower after "mit" in the dative: "mit JS, dem linken Bower", never
    "mit JS, der linke Bower" (issue 22, item 10); French and Danish have no case."""
    expected = {"en": "West wins with JS, the left bower (trumped)",
                "de": "West gewinnt mit JS, dem linken Bower (gestochen)",
                "fr": "Ouest remporte le pli avec JS, le bower gauche (coupé)",
                "da": "Vest vinder med JS, venstre bower (trumfet)"}
    for lang, line in expected.items():
        use(lang)
        deal = Deal.from_cards(Rules(players=4), 3, hands=LEFT, turnup="AC")
        for action in ("order", "discard TC", "play TH", "play JS", "play 9H"):
            deal.apply(action)
        effect = deal.apply("play KH")
        said, console = narrator(4, view=0)
        said.tell(effect, deal.observation(0))
        assert line in console.export_text(), (lang, console.export_text())


def test_the_bid_glosses_keep_to_one_person() -> None:
    """The menu's glosses are infinitives (Danish: imperatives), like "do not defend
    alone", so "without your partner" joined to them reads as one sentence, not "je
    commande … sans votre partenaire" (issue 22, item 10)."""
    expected = {"en": "order it up: clubs trump, without your partner",
                "fr": "commander\u202f: atout trèfle, sans votre partenaire",
                "de": "bestellen: Kreuz Trumpf, ohne deinen Partner",
                "da": "bestil den: klør trumf, uden din makker"}
    first_person = {"fr": ("je ", "j’"), "de": ("ich ",), "da": ("jeg ",)}
    deal = Deal.from_cards(Rules(players=4), 3, hands=LEFT, turnup="AC")
    for lang, gloss in expected.items():
        use(lang)
        said, _console = narrator(4, view=0)
        menu = Text.from_markup(said.choices(deal.observation(0))).plain
        assert gloss in menu, (lang, menu)
        assert not any(word in menu for word in first_person.get(lang, ())), menu
