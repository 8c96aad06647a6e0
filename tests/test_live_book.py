"""The live book: each structure's page of the static site plays its engine, compiled to a classic
script (``docs/site/js``, by ``python -m betspec.tools.site_js``).

Without Node: every structure page has its engine's script, and every script records the digest of
the committed TypeScript sources (so a change to the engines that was not compiled anew is caught).
With Node and the package's tsc: the committed scripts are byte for byte what compiling the sources
now prints. In headless Chromium (skipped where it is absent), on every structure page opened by
``file://``: no console error; every worked example stepped to its end shows, after its last step,
the state the case expects there (stacks, committed, pot, who acts, legal actions and bounds), and
one stepped a step at a time ends the same; a hand is played through a refusal (a raise below the
minimum: the refusal's rule id, text and source shown, the table unchanged), a verbal declaration
and chips pushed with words, street after street to its settlement and the next hand.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT

SITE = ROOT / "docs" / "site"
STRUCTURES = sorted(
    page
    for page in SITE.glob("*.html")
    if page.stem not in ("index", "rule-index") and not page.stem.startswith("session-")  # a session has no engine
)
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
needs_chromium = pytest.mark.skipif(not (CHROMIUM and DRIVER), reason="headless Chromium is not installed")


def _data(page: Path) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="live-data">(.*?)</script>', page.read_text(), re.S)
    assert found, f"{page.name} has no live data"
    data: dict[str, Any] = json.loads(found.group(1))
    return data


@pytest.mark.parametrize("page", STRUCTURES, ids=lambda p: p.stem)
def test_a_structure_page_loads_its_engine_and_its_cases(page: Path) -> None:
    from betspec.tools.site_js import digest

    text = page.read_text()
    for script in ("js/runtime.js", f"js/{page.stem}.js", "live.js"):
        assert f'<script src="{script}"></script>' in text
        assert (SITE / script).is_file(), script
    data = _data(page)
    assert data["structure"] == page.stem
    for example in data["examples"]:
        assert f'id="{example["anchor"]}"' in text
        assert example["case"]["structure"] == page.stem
    first = (SITE / "js" / f"{page.stem}.js").read_text().splitlines()[0]
    assert f"sources sha256 {digest(str(ROOT))}." in first, "run `python -m betspec.tools.site_js`"


def test_the_committed_scripts_are_what_tsc_compiles_now() -> None:
    from betspec.tools.site_js import scripts
    from betspec.tools.typescript_run import NodeMissing

    try:
        fresh = scripts(str(ROOT))
    except NodeMissing as missing:
        pytest.skip(str(missing))
    committed = {f"docs/site/js/{path.name}": path.read_text() for path in (SITE / "js").glob("*.js")}
    assert sorted(fresh) == sorted(committed)
    stale = [path for path, content in fresh.items() if committed[path] != content]
    assert stale == [], "run `python -m betspec.tools.site_js`"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    webdriver = pytest.importorskip("selenium.webdriver")
    if not (CHROMIUM and DRIVER):
        pytest.skip("headless Chromium is not installed")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000"):
        options.add_argument(argument)
    options.binary_location = str(CHROMIUM)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(str(DRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def _errors(browser: Any) -> list[str]:
    return [entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]


#: What a panel shows of the table: each fact by its key (as JSON), each seat's stack and committed.
SHOWN = """
const root = arguments[0];
const facts = {};
for (const dd of root.querySelectorAll('.live-facts dd')) facts[dd.dataset.key] = JSON.parse(dd.textContent);
const seats = [...root.querySelectorAll('.live-seats tr[data-seat]')];
facts.stacks = seats.map(row => Number(row.querySelector('[data-key=stack]').textContent));
facts.committed = seats.map(row => Number(row.querySelector('[data-key=committed]').textContent));
return facts;
"""


def _normal(key: str, value: Any) -> Any:
    if key == "legal":
        return sorted(value)
    if key == "pots":
        return [{"amount": pot["amount"], "eligible": sorted(pot["eligible"])} for pot in value]
    return value


def _shown(browser: Any, root: Any) -> dict[str, Any]:
    facts = browser.execute_script(SHOWN, root)
    return {key: _normal(key, value) for key, value in facts.items()}


def _panel(browser: Any, anchor: str) -> Any:
    return browser.find_element("css selector", f'.live-example[data-example="{anchor}"]')


@needs_chromium
@pytest.mark.parametrize("page", STRUCTURES, ids=lambda p: p.stem)
def test_every_worked_example_stepped_to_its_end_shows_what_the_case_expects(browser: Any, page: Path) -> None:
    browser.get_log("browser")
    browser.get(page.as_uri())
    assert _errors(browser) == []
    examples = _data(page)["examples"]
    assert len(browser.find_elements("css selector", ".live-example")) == len(examples)
    checked = 0
    for example in examples:
        case, anchor = example["case"], example["anchor"]
        panel = _panel(browser, anchor)
        browser.execute_script("arguments[0].querySelector('[data-go=end]').click();", panel)
        steps = case.get("steps", [])
        if "refused" in case:
            refusal = panel.find_element("css selector", ".live-refusal")
            assert refusal.get_attribute("data-code")
            continue
        assert panel.get_attribute("data-at") == str(len(steps))
        want = steps[-1].get("expect", {}) if steps else {}
        shown = _shown(browser, panel)
        for key, value in want.items():
            # A case checks the variables it names (the case runner's reading), not every one.
            got = {name: shown[key].get(name) for name in value} if key == "variables" else shown[key]
            assert got == _normal(key, value), (anchor, key)
            checked += 1
        assert not panel.find_elements("css selector", ".live-differs"), anchor
        if steps and "error" in steps[-1]:
            refusal = panel.find_element("css selector", ".live-refusal")
            assert refusal.get_attribute("data-code") == steps[-1]["error"], anchor
    # One example a step at a time: the same end as the jump.
    longest = max(examples, key=lambda example: len(example["case"].get("steps", [])))
    panel = _panel(browser, longest["anchor"])
    at_end = _shown(browser, panel)
    browser.execute_script("arguments[0].querySelector('[data-go=start]').click();", panel)
    for number in range(len(longest["case"]["steps"])):
        browser.execute_script("arguments[0].querySelector('[data-go=next]').click();", panel)
        assert panel.get_attribute("data-at") == str(number + 1)
    assert _shown(browser, panel) == at_end
    assert checked > 0 or all("refused" in e["case"] or not e["case"].get("steps") for e in examples)
    assert _errors(browser) == []


def _click(browser: Any, selector: str) -> None:
    browser.execute_script("document.querySelector(arguments[0]).click();", selector)


def _play(browser: Any) -> dict[str, Any]:
    return _shown(browser, browser.find_element("id", "live-table"))


@needs_chromium
@pytest.mark.parametrize("page", STRUCTURES, ids=lambda p: p.stem)
def test_a_hand_is_played_through_a_refusal_to_its_settlement(browser: Any, page: Path) -> None:
    play_a_hand_through(browser, page)


@needs_chromium
def test_a_house_s_own_book_page_plays_its_engine(browser: Any, tmp_path: Path) -> None:
    """Issue 29: a house made by `betspec init`, generated by `betspec generate` as the README
    says (which compiles the live book's engines where the TypeScript compiler is installed):
    its own page loads its engine and a hand is played on it to its settlement."""
    from betspec import house
    from betspec.cli import main

    pytest.importorskip("selenium.webdriver")
    house.init(str(tmp_path / "club"), "club_game")
    assert main(["--root", str(tmp_path / "club"), "generate"]) == 0
    site = tmp_path / "club" / "docs" / "site"
    assert (site / "js" / "club_game.js").is_file() and (site / "js" / "runtime.js").is_file()
    assert main(["--root", str(tmp_path / "club"), "generate", "--check"]) == 0
    play_a_hand_through(browser, site / "club_game.html")


def play_a_hand_through(browser: Any, page: Path) -> None:
    """A structure page's table played as a visitor would: a wager below the minimum refused
    with its rule, words and chips pushed ruled, then street after street to the settlement and
    the next hand; no console error."""
    browser.get_log("browser")
    browser.get(page.as_uri())
    # Dealt as the page deals it: the structure's inputs and options at their defaults.
    state = _play(browser)
    assert state["to_act"] is not None and state["legal"], state
    # A wager below its minimum: refused, with its rule (id, text and source), the table unchanged.
    wagers = browser.find_elements("css selector", "#live-actions input[data-to]")
    for _ in range(len(state["stacks"])):
        if wagers:
            break
        # The first to act may not wager (a bring-in owed, no openers held): the first action offered.
        _click(browser, "#live-actions button[data-action]")
        wagers = browser.find_elements("css selector", "#live-actions input[data-to]")
    assert wagers, "no bet or raise is offered"
    before = _play(browser)
    action = wagers[0].get_attribute("data-to")
    browser.execute_script("arguments[0].value = arguments[1];", wagers[0], before["min_to"] - 1)
    _click(browser, f'#live-actions button[data-action="{action}"]')
    refusal = browser.find_element("css selector", "#live-message .live-refusal")
    rule = refusal.get_attribute("data-rule")
    assert rule and refusal.get_attribute("data-code"), refusal.text
    assert browser.find_elements("id", f"rule-{rule.lower()}"), f"rule {rule} is not on the page"
    assert rule in refusal.text and "Source: " in refusal.text
    assert _play(browser) == before
    # Words alone (a verbal declaration), then chips pushed with words: each ruled, or refused with its rule.
    browser.execute_script("document.getElementById('live-declare-say').value = arguments[0];", before["legal"][0])
    _click(browser, "#live-declare")
    assert browser.find_elements("css selector", "#live-message .live-ruling, #live-message .live-refusal")
    # Chips pushed with words, on a table dealt anew: the push is ruled (with its rule) and taken.
    _click(browser, "#live-deal-table")
    dealt = _play(browser)
    for _ in range(len(dealt["stacks"])):
        if dealt["call"] > 0 or any(a in ("bet", "raise") for a in dealt["legal"]):
            break
        _click(browser, "#live-actions button[data-action]")  # no chips to push yet (no openers held)
        dealt = _play(browser)
    if dealt["call"] > 0:
        chips, word, to = dealt["call"], "call", ""
    else:
        chips, word, to = dealt["min_to"], next(a for a in dealt["legal"] if a in ("bet", "raise")), dealt["min_to"]
    browser.execute_script(
        "document.getElementById('live-chips').value = arguments[0];"
        "document.getElementById('live-push-say').value = arguments[1];"
        "document.getElementById('live-push-to').value = arguments[2];",
        str(chips),
        word,
        str(to),
    )
    logged = len(browser.find_elements("css selector", "#live-log li"))
    _click(browser, "#live-push")
    assert not browser.find_elements("css selector", "#live-message .live-refusal"), browser.find_element(
        "id", "live-message"
    ).text
    ruling = browser.find_element("css selector", "#live-message .live-ruling")
    assert ruling.get_attribute("data-rule") and ruling.get_attribute("data-rule") in ruling.text
    assert len(browser.find_elements("css selector", "#live-log li")) == logged + 1
    assert _play(browser) != dealt
    # Then street after street, checking or calling, to the settlement and the next hand.
    for _ in range(300):
        if browser.find_elements("id", "live-next-hand"):
            break
        if browser.find_elements("id", "live-settle"):
            _click(browser, "#live-settle")
            continue
        if browser.find_elements("id", "live-deal"):
            _click(browser, "#live-deal")
            assert not browser.find_elements("css selector", "#live-message .live-refusal")
            continue
        legal = _play(browser)["legal"]
        for choice in ("check", "call", "bring_in", *legal):
            if choice in legal:
                break
        _click(browser, f'#live-actions button[data-action="{choice}"]')
    assert browser.find_elements("id", "live-next-hand"), _play(browser)
    assert _play(browser)["paid"] is True
    # The settlement in words (each pot and who took it), not as JSON; the pot in the middle
    # labelled apart from the pots paid.
    settled = browser.find_element("css selector", "#live-message .live-settled").text
    assert settled.startswith(("Settled: pot of ", "Settled: nobody wins")) and "{" not in settled, settled
    labels = [dt.text for dt in browser.find_elements("css selector", "#live-table .live-facts dt")]
    assert "pot (in the middle)" in labels and "pots (paid)" in labels, labels
    _click(browser, "#live-next-hand")
    assert _play(browser)["paid"] is False
    assert _errors(browser) == []


#: What a panel shows of the cards: each seat's (upcards marked ^) and the board.
CARDS = """
const seats = [...document.querySelectorAll('#live-table .live-seats tr[data-seat]')];
const board = document.querySelector('#live-table [data-key=board]');
return {
  hole: seats.map(row => row.querySelector('[data-key=cards]').textContent.split(' ').filter(c => c).map(c => c.replace('^', ''))),
  board: board ? board.textContent.split(' ').filter(c => c) : [],
};
"""


#: Each seat's upcards as the panel shows them (marked ^), and whether it folded.
UPCARDS = """
return [...document.querySelectorAll('#live-table .live-seats tr[data-seat]')].map(row => ({
  up: row.querySelector('[data-key=cards]').textContent.split(' ').filter(c => c.startsWith('^')).map(c => c.slice(1)),
  folded: row.textContent.includes('folded'),
  button: row.textContent.includes('button'),
}));
"""


def _check_opening(browser: Any, game: Any, first: bool) -> None:
    """Who acts first on a stud street is who the Python dealer's cards say: the bring-in on the
    first street (betspec.cards.bring_in_seat), the best hand showing after (cards.opener)."""
    from betspec import cards

    if game.opening == "position":
        return
    seats = browser.execute_script(UPCARDS)
    to_act = _play(browser)["to_act"]
    ups = {seat: row["up"] for seat, row in enumerate(seats) if not row["folded"]}
    if to_act is not None:
        button = next(seat for seat, row in enumerate(seats) if row["button"])
        expected = cards.bring_in_seat(game, ups) if first else cards.opener(game, ups, button)
        assert to_act == expected, (ups, to_act)


@needs_chromium
@pytest.mark.parametrize("structure", ["no_limit", "pot_limit", "triple_draw", "badugi", "seven_card_stud", "razz"])
def test_a_hand_is_dealt_as_the_spec_s_game_and_settled_by_its_cards(browser: Any, structure: str) -> None:
    """Issue 32: the live book deals the cards the spec's game declares, street by street (stud's
    bring-in and each street's opener decided by the upcards, as the Python dealer decides them),
    and settles the showdown as the Python dealer ranks the same cards (betspec.cards.rankings)."""
    from betspec import cards
    from betspec.runtime import engine_class

    game = cards.game_of(engine_class(structure))
    browser.get_log("browser")
    browser.get((SITE / f"{structure}.html").as_uri())
    _check_opening(browser, game, True)
    for _ in range(300):
        if browser.find_elements("id", "live-settle-cards"):
            break
        if browser.find_elements("id", "live-deal"):
            _click(browser, "#live-deal")
            assert not browser.find_elements("css selector", "#live-message .live-refusal")
            _check_opening(browser, game, False)
            continue
        legal = _play(browser)["legal"]
        choice = next(c for c in ("check", "call", *legal) if c in legal)
        _click(browser, f'#live-actions button[data-action="{choice}"]')
    dealt = browser.execute_script(CARDS)
    assert all(len(held) == sum(len(street) for street in game.hole) for held in dealt["hole"]), dealt
    _click(browser, "#live-settle-cards")
    state, shown = _play(browser), browser.execute_script(CARDS)
    assert state["paid"] is True, state
    every = [card for held in shown["hole"] for card in held] + shown["board"]
    assert len(every) == len(set(every)) and len(shown["board"]) == sum(game.board), shown
    folded = browser.execute_script(
        "return [...document.querySelectorAll('#live-table .live-seats tr[data-seat]')]"
        ".map(row => row.textContent.includes('folded'));"
    )
    holes = {seat: held for seat, held in enumerate(shown["hole"]) if not folded[seat]}
    best = cards.rankings(game, holes, shown["board"])[0][0]
    settled = browser.find_element("css selector", "#live-message .live-settled").text
    expected = f"to seat {best[0]}" if len(best) == 1 else "split"
    assert expected in settled, (settled, best, shown)
    assert _errors(browser) == []


@needs_chromium
def test_a_bomb_pot_is_dealt_on_two_boards_from_its_flop_and_each_board_pays_half(
    browser: Any, example_house: Path
) -> None:
    """Issue 32: the house's bomb pot (bomb_pot_every_orbit.json, two boards when the table gives
    bomb_pot) on its own book page: the flop of both boards is on the table before anyone acts,
    every card dealt once, and settling by the cards pays each board's half of the pot to the
    best hand on it, as betspec.cards ranks each board."""
    from betspec import cards

    page = example_house / "docs" / "site" / "bomb_pot_every_orbit.html"
    browser.get_log("browser")
    browser.get(page.as_uri())
    browser.execute_script("document.getElementById('live-input-bomb_pot').value = '20';")
    _click(browser, "#live-deal-table")
    boards = """return [...document.querySelectorAll('#live-table tr.live-board td[data-key]')]
        .map(td => td.textContent.split(' ').filter(c => c));"""
    assert [len(board) for board in browser.execute_script(boards)] == [3, 3], browser.execute_script(boards)
    assert _play(browser)["street"] == "flop"
    for _ in range(100):
        if browser.find_elements("id", "live-settle-cards"):
            break
        if browser.find_elements("id", "live-deal"):
            _click(browser, "#live-deal")
            continue
        legal = _play(browser)["legal"]
        _click(
            browser, f'#live-actions button[data-action="{next(c for c in ("check", "call", *legal) if c in legal)}"]'
        )
    before = _play(browser)
    _click(browser, "#live-settle-cards")
    shown, every_board = browser.execute_script(CARDS), browser.execute_script(boards)
    assert [len(board) for board in every_board] == [5, 5]
    every = [card for held in shown["hole"] for card in held] + every_board[0] + every_board[1]
    assert len(every) == len(set(every)) == 2 * len(shown["hole"]) + 10
    holes = dict(enumerate(shown["hole"]))
    game = cards.game("NT")
    pot, stacks = before["pot"], _play(browser)["stacks"]
    won = [stacks[seat] - before["stacks"][seat] for seat in range(len(stacks))]
    expected = [0] * len(stacks)
    for index, board in enumerate(every_board):
        best = cards.rankings(game, holes, board)[0][0]
        half = pot // 2 + (pot % 2 if index == 0 else 0)  # the odd chip to the first board
        for rank, seat in enumerate(sorted(best)):
            expected[seat] += half // len(best) + (1 if rank < half % len(best) else 0)
    assert sorted(won) == sorted(expected) and sum(won) == pot, (won, expected, every_board, holes)
    assert _errors(browser) == []
