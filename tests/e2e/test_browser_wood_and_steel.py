"""Wood and Steel at the table, in Chromium against Daphne: a host screen and three
phones (phone-sized) complete setup and several rounds; every page follows each
change without a reload; a player undoes a move."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .conftest import create_game
from .ws_phones import play_setup

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


# Every field an event of either title may carry, for asking the feed to describe each type.
SAMPLE_EVENT = {
    "seat": 0, "round": 1, "order": [0], "routes": {"0": "Boston-New York"}, "city": "Boston", "route": "Boston-New York",
    "segments": 1, "cost": 2000, "complete": False, "cities": ["Boston"], "amount": 5000, "debt": 5000,
    "debt_service": {"east": 0, "central": 1000, "west": 1000}, "name": "Falls & Canyon Railway", "railroad": None,
    "contract": 424242, "commodity": "coal", "destination": "Boston", "income": 6000, "ties": 2, "count": 2, "value": 3000,
    "bonus": 1, "price": 8000, "upgrade": "hub", "shortfall": 1000, "owed": 6000, "ties_lost": 3, "unpaid": 0,
    "winners": [0], "engine": "american", "trade_in": None, "players": ["Ada"], "sequence": 2, "command": {"cmd": "borrow"},
}


def engine_event_types(package: str) -> set[str]:
    """The event types an engine emits, read from its source."""
    import re

    source = Path(__file__).resolve().parents[2] / "games" / "engines" / package
    return {m for f in source.glob("*.py") for m in re.findall(r'"type": "([a-z-]+)"', f.read_text())}


def is_generic(event_type: str, line: str) -> bool:
    """The play scripts' fallbacks for an event they do not know: the raw type, or 'the type (who).'"""
    import re

    return line == event_type or re.fullmatch(re.escape(event_type.replace("-", " ")) + r"( \(.*\))?\.", line) is not None


def version(page) -> int:
    return int(page.evaluate("document.body.dataset.version || 0"))


def wait_version(page, at_least: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.version || 0) >= {at_least}")


def two_tap(page, selector: str) -> None:
    button = page.locator(selector).first
    button.click()
    button.click()


def test_host_and_three_phones_play_setup_and_rounds(live_server_url, new_page):
    SHOTS.mkdir(parents=True, exist_ok=True)
    host = new_page(width=1280, height=900)
    # No name: the host's laptop is the table screen, not a seat. It lands on the board, which is the
    # table's waiting room until the start (the join code, its link and QR code, who joined).
    code = create_game(host, live_server_url, kind="wood-and-steel", name=None, to_room=False)
    assert host.url.endswith(f"/games/{code}/table")
    assert host.locator("#ws-t-lobby svg").count() == 1  # the QR code
    join_url = host.get_attribute("#ws-t-joinlink", "href")
    host.wait_for_selector("#conn[data-state=open]")

    phones = []
    for name in ("Ada", "Ben", "Cleo"):
        phone = new_page(width=360, height=780)
        phone.goto(join_url)
        phone.fill("#join-name", name)
        phone.click("text=Take a seat")
        phone.wait_for_selector("#conn[data-state=open]")
        phones.append(phone)
    host.wait_for_function("document.querySelector('#ws-t-joined').innerText.includes('Cleo')")
    assert "3 players at the table: Ada, Ben, Cleo." == host.inner_text("#ws-t-joined")
    host.click("#ws-t-start")
    # The host's screen stays the table screen through the start: the board for everyone to see.
    host.wait_for_selector("body[data-status=active][data-phase=ranking]")
    assert host.url.endswith(f"/games/{code}/table") and host.locator("#ws-t-lobby").is_hidden()

    # Setup: every phone ranks three starting routes by tapping them in order, then learns its
    # route and places its engine.
    play_setup(phones, picks=lambda i: (i, (i + 1) % 6, (i + 2) % 6))
    host.wait_for_selector("body[data-phase=play]")
    assert "goes first" in phones[0].inner_text("#ws-feed")
    phones[0].screenshot(path=str(SHOTS / "ws-phone-start.png"), full_page=True)

    # A player borrows and ends the turn, then takes both back from the phone, without the host
    # (the table screen), while the next player has not acted: "Take back" on their phone only.
    mover = next(p for p in phones if p.evaluate("document.body.dataset.myTurn") == "true")
    # The turn line says in words what the legal commands allow.
    turn = mover.inner_text("#ws-turn")
    assert turn.startswith("Your turn: you can build track, ") and turn.endswith(" or end your turn. 2 actions left this turn."), turn
    assert "borrow" in turn and "go first next round" in turn
    before = mover.inner_text("#ws-me")
    start_version = version(mover)
    chooser = mover.locator(".ws-chooser[data-cmd=borrow]")
    chooser.locator("select").select_option(index=0)
    two_tap(mover, ".ws-chooser[data-cmd=borrow] button")
    wait_version(mover, start_version + 1)
    assert "debt $5,000" in mover.inner_text("#ws-me")
    assert mover.inner_text("button[data-cmd=take-back]") == "Take back my loan"
    two_tap(mover, "button[data-cmd=end-turn]")
    wait_version(mover, start_version + 2)
    assert mover.evaluate("document.body.dataset.myTurn") == "false"
    mover.wait_for_selector("button[data-cmd=take-back]")
    assert mover.inner_text("button[data-cmd=take-back]") == "Take back ending my turn"
    assert mover.inner_text("#ws-turn").endswith("Until the next player acts you can take back ending your turn.")
    for phone in phones:
        wait_version(phone, start_version + 2)
        if phone is not mover:
            assert phone.locator("button[data-cmd=take-back], button[data-cmd=undo]").count() == 0
    mover.screenshot(path=str(SHOTS / "ws-take-back.png"), full_page=False)
    two_tap(mover, "button[data-cmd=take-back]")
    wait_version(mover, start_version + 3)
    assert mover.evaluate("document.body.dataset.myTurn") == "true"
    mover.wait_for_selector("button[data-cmd=take-back]:text('Take back my loan')")
    two_tap(mover, "button[data-cmd=take-back]")
    wait_version(mover, start_version + 4)
    assert mover.inner_text("#ws-me") == before
    mover.wait_for_function("document.querySelectorAll('#ws-feed li.ev-undone').length === 2")
    assert "move was undone (borrow)" in mover.inner_text("#ws-feed")

    # Several rounds: whoever's turn it is takes an offer if dealt one, then ends the turn.
    target_round = 3
    for _ in range(30):
        newest = max(version(p) for p in phones)
        for p in phones:  # the last move has reached every phone (the mover has its answer first)
            wait_version(p, newest)
        if phones[0].inner_text("#ws-heading").startswith(f"Round {target_round}"):
            break
        mover = next((p for p in phones if p.evaluate("document.body.dataset.myTurn") == "true"), None)
        assert mover is not None, "someone is always on turn during play"
        v = version(mover)
        take = mover.locator("#ws-offers button[data-cmd=choose-offer]")
        if take.count():
            take.first.click()
            wait_version(mover, v + 1)
            continue
        two_tap(mover, "button[data-cmd=end-turn]")
        wait_version(mover, v + 1)
    assert phones[0].inner_text("#ws-heading").startswith(f"Round {target_round}")

    # Every page shows the same version, without a reload.
    final = version(phones[0])
    for page in (host, *phones):
        wait_version(page, final)
    # The railroads tab names each independent and what grew; ties tab explains ties.
    phones[1].click(".ws-tabs [data-tab=railroads]")
    assert phones[1].locator("#ws-railroads .ws-railroad").count() >= 6
    assert "grew" in phones[1].inner_text("#ws-feed").lower() or "no independent railroad grew" in phones[1].inner_text("#ws-feed").lower()
    phones[1].screenshot(path=str(SHOTS / "ws-phone-railroads.png"), full_page=True)
    phones[2].click(".ws-tabs [data-tab=commodities]")
    phones[2].wait_for_selector("#ws-commodities .ws-commodity")
    assert phones[2].locator("#ws-commodities .ws-commodity").count() == 25
    phones[2].click(".ws-tabs [data-tab=cities]")
    phones[2].fill("#ws-city-filter", "atl")
    assert phones[2].locator("#ws-cities .ws-city").all_inner_texts()[0].startswith("Atlanta")
    for phone in phones:
        assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "no sideways scrolling at 360 px"
    phones[0].click(".ws-tabs [data-tab=turn]")
    phones[0].screenshot(path=str(SHOTS / "ws-phone-turn.png"), full_page=True)
    assert host.evaluate("document.body.dataset.viewer") == "host"
    assert f"Round {target_round}" in host.inner_text("body")
    host.screenshot(path=str(SHOTS / "ws-host.png"), full_page=False)


def test_host_undoes_a_random_draw_then_final_scoring_names_the_winner(live_server_url, new_page):
    """A seated host discards their private contract (new offers: a random draw everyone
    saw); plain undo is refused with confirm-required, the phone offers "Undo anyway" and
    that resends with confirm. A one-round game (max_rounds, set on the create form) then
    ends: the phones and the table name the winner and the tiebreak."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    ada = new_page(width=360, height=780)
    code = create_game(ada, live_server_url, kind="wood-and-steel", name="Ada",
                       options=lambda p: p.fill("#opt-max_rounds", "1"))
    ada.wait_for_selector("#conn[data-state=open]")
    ben = new_page(width=360, height=780)
    ben.goto(ada.get_attribute("#join-url", "href"))
    ben.fill("#join-name", "Ben")
    ben.click("text=Take a seat")
    ben.wait_for_selector("#conn[data-state=open]")
    ada.wait_for_selector("#seat-list li[data-seat='1']")
    ada.click("#start-game")

    play_setup((ada, ben))

    undone = built = False
    for _ in range(2):  # one turn each in the only round
        mover = next(p for p in (ada, ben) if p.evaluate("document.body.dataset.myTurn") == "true")
        v = version(mover)
        if mover is ada:
            private = ada.inner_text("#ws-private")
            two_tap(ada, "#ws-private button[data-cmd=discard-private-contract]")
            wait_version(ada, v + 1)
            ada.wait_for_selector("#ws-offers button[data-cmd=choose-offer]")
            ada.wait_for_function("document.querySelector('#ws-feed').innerText.includes('discarded their private contract')")
            two_tap(ada, "button[data-cmd=undo]")
            ada.wait_for_selector("#ws-undo-confirm #ws-undo-anyway")
            assert ada.inner_text("#ws-undo-anyway") == "Undo anyway (it revealed a random draw)"
            assert ada.is_hidden("#play-error"), "the API's 'send confirm: true' is not shown to people"
            assert version(ada) == v + 1, "nothing was undone yet"
            assert ada.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            ada.screenshot(path=str(SHOTS / "ws-undo-anyway.png"), full_page=False)
            ada.click("#ws-undo-anyway")
            wait_version(ada, v + 2)
            ada.wait_for_selector("#ws-undo-confirm", state="hidden")
            assert ada.locator("#ws-offers button[data-cmd=choose-offer]").count() == 0
            assert ada.inner_text("#ws-private") == private, "the private contract is back"
            ada.wait_for_function("document.querySelector('#ws-feed').innerText.includes('move was undone')")
            undone = True
            v = version(ada)
        else:
            # Ben spends money on track: level on ties, Ada keeps more money minus debt.
            ben.locator("#ws-actions button[data-cmd=build-track]").first.click()  # one tap: building is not confirmed
            wait_version(ben, v + 1)
            built = True
            v = version(ben)
        two_tap(mover, "button[data-cmd=end-turn]")
        wait_version(mover, v + 1)
    assert undone and built

    for phone in (ada, ben):
        phone.wait_for_selector("body[data-phase=finished] #ws-final .ending")
        assert phone.inner_text("#ws-final .ending-headline") == "Ada won."
        text = phone.inner_text("#ws-final .ending-how")
        assert text.startswith("Ada won with 0 ties, level with Ben, on money minus debt ($"), text
        rows = phone.locator("#ws-final .ending-row")
        assert rows.count() == 2 and rows.first.get_attribute("data-seat") == "0"
        assert "Money minus debt $" in rows.first.inner_text()
        assert "+-" not in phone.inner_text("#ws-final")
    ben.wait_for_function("document.querySelector('#ws-feed').innerText.includes('Ada won')")
    ben.screenshot(path=str(SHOTS / "ws-final-phone.png"), full_page=False)

    # Goods tab: an open market contract (status "market" in the view) and a held one are listed.
    # No one owns a Mogul in one round, so the phone renders its own view plus two such contracts.
    commodity = ben.evaluate("""async () => {
      const room = window.JunctionRoom;
      const result = await room.api("GET", "/api/games/" + room.code + "/state");
      const payload = result.data, view = payload.state;
      const board = (await Junction.api("GET", "/api/wood-and-steel/games/" + room.code + "/board")).data;
      const good = board.commodities[0];
      view.contracts.push({ id: 9001, type: "market", commodity: good, destination: "Chicago", holder: null, status: "market", value: 12000, ties: 2, hidden: false },
                          { id: 9002, type: "market", commodity: good, destination: "Boston", holder: 0, status: "held", value: 9000, ties: 1, hidden: false });
      view.market = [9001];
      window.JunctionPlay.render(payload, room);
      return good;
    }""")
    ben.click(".ws-tabs [data-tab=commodities]")
    listed = ben.inner_text(f"#ws-commodities [data-commodity='{commodity}'] .ws-in-contracts")
    assert "→ Chicago $12,000 (open market contract)" in listed and "→ Boston $9,000 (market contract held by Ada)" in listed, listed

    # The feed has a sentence of its own for every event type the engine emits.
    emitted = engine_event_types("wood_and_steel") | {"game-started", "undone"}
    sentences = ben.evaluate("(events) => events.map((e) => window.JunctionPlay.describe(e))", [dict(SAMPLE_EVENT, type=t) for t in sorted(emitted)])
    generic = [t for t, line in zip(sorted(emitted), sentences, strict=True) if is_generic(t, line)]
    assert not generic, f"events shown with generic text: {generic}"
    borrowed = ben.evaluate("(e) => window.JunctionPlay.describe(e)", dict(SAMPLE_EVENT, type="borrowed"))
    assert "debt service on the next delivery: east $0, central $1,000, west $1,000" in borrowed, borrowed

    table = new_page(width=1280, height=900)
    table.goto(f"{live_server_url}/games/{code}/table")
    table.wait_for_selector("#ws-t-winner")
    assert table.inner_text("#ws-t-winner") == "Ada won with 0 ties"
    assert "Tiebreak on money minus debt" in table.inner_text("#ws-t-note")
    table.wait_for_selector("#ws-t-ending .ending-row")  # the ending: both ranked, ties by source and money minus debt
    assert table.inner_text("#ws-t-ending .ending-headline") == "Ada won."
    assert table.locator("#ws-t-ending .ending-row").count() == 2
    assert "Money minus debt $" in table.inner_text("#ws-t-ending .ending-row[data-seat='1']")
    table.screenshot(path=str(SHOTS / "ws-final-table.png"), full_page=False)


def test_the_phone_prices_a_build_before_paying_and_the_first_bidder_chooses_a_lot(live_server_url, new_page):
    """Issue 18: the build control reads "Build A–B · $3,000" from the engine's priced listing
    and is disabled with the engine's reason once the turn allows no more track; after a
    bankruptcy (a game master's state edit) the other player chooses which lot goes on the
    block and bids above the lowest bid with the amount control."""
    from games import services
    from games.engines.registry import get_engine
    from games.engines.wood_and_steel.rules import route_cost
    from games.models import Game

    engine = get_engine("wood-and-steel")
    ada = new_page(width=360, height=780)
    code = create_game(ada, live_server_url, kind="wood-and-steel", name="Ada")
    ada.wait_for_selector("#conn[data-state=open]")
    ben = new_page(width=360, height=780)
    ben.goto(ada.get_attribute("#join-url", "href"))
    ben.fill("#join-name", "Ben")
    ben.click("text=Take a seat")
    ben.wait_for_selector("#conn[data-state=open]")
    ada.wait_for_selector("#seat-list li[data-seat='1']")
    ada.click("#start-game")
    play_setup((ada, ben))

    mover = next(p for p in (ada, ben) if p.evaluate("document.body.dataset.myTurn") == "true")
    other = ben if mover is ada else ada
    seat = 0 if mover is ada else 1
    board = engine.board(Game.objects.get(code=code).state)
    built = []
    for _ in range(2):  # two routes a turn, each priced before paying
        v = version(mover)
        mover.wait_for_selector("#ws-build:not([disabled])")
        route = mover.get_attribute("#ws-build-choice option:checked", "data-route")
        state = Game.objects.get(code=code).state
        r = board.routes[route]
        price = route_cost(r["length"], mountainous=r["mountainous"], parallel=engine._route_occupants(state, route) > 0)  # the rules' table
        label = "Build " + route.replace("-", "–") + " · $" + f"{price:,}"
        assert mover.inner_text("#ws-build") == label
        money_before = Game.objects.get(code=code).state["players"][seat]["money"]
        mover.click("#ws-build")  # one tap: building is not confirmed
        wait_version(mover, v + 1)
        assert Game.objects.get(code=code).state["players"][seat]["money"] == money_before - price
        built.append((route, price))
    mover.wait_for_selector("#ws-build[disabled]")
    assert mover.inner_text("#ws-build-why") == "You may build 2 segments per turn."
    # the other money-spending actions show their prices too: the engine costs from the listing
    engines = mover.locator(".ws-priced[data-cmd=buy-engine] select option").all_inner_texts()
    assert engines and all(re.match(r"\$\d{1,3}(,\d{3})* · ", text) for text in engines), engines  # the price first: a phone clips the end
    assert any(text.startswith("$5,000 · American (trade in John Bull)") for text in engines), engines  # display names
    assert mover.inner_text(".ws-priced[data-cmd=buy-engine] button").endswith(" · $5,000")  # the button wraps the whole line
    mover.screenshot(path=str(SHOTS / "ws-build-priced.png"), full_page=False)

    # A game master's edit: the mover is bankrupt and owes what the two new routes sold for.
    game = Game.objects.get(code=code)
    state = game.state
    state["players"][seat]["bankrupt_owed"] = sum(price for _, price in built)
    services.game_state_edit(game_id=game.pk, state=state, editor="test")
    for phone in (mover, other):
        phone.reload()
        phone.wait_for_selector("#conn[data-state=open]")
    for route, _ in built:
        v = version(mover)
        mover.wait_for_selector(".ws-chooser[data-cmd=sell-track], button[data-cmd=sell-track]")
        select = mover.locator(".ws-chooser[data-cmd=sell-track] select")
        if select.count():
            select.select_option(label=route.replace("-", "–"))
            two_tap(mover, ".ws-chooser[data-cmd=sell-track] button")
        else:
            two_tap(mover, "button[data-cmd=sell-track]")
        wait_version(mover, v + 1)
    other.wait_for_selector("body[data-phase=auction] .ws-lot")
    assert "Choose which piece" in other.inner_text("#ws-actions")
    lots = other.locator(".ws-lot")
    assert lots.count() == 2
    chosen, price = built[1]  # the second piece sold, not the first
    lot = other.locator(f".ws-lot[data-lot='{chosen}']")
    amount = lot.locator("input.ws-bid-amount")
    assert amount.input_value() == str(price) and amount.get_attribute("step") == "1000"
    money = Game.objects.get(code=code).state["players"][1 - seat]["money"]
    assert amount.get_attribute("max") == str(price + (money - price) // 1000 * 1000)
    lot.locator("button.ws-step[aria-label='$1,000 more']").click()
    lot.locator("button.ws-step[aria-label='$1,000 more']").click()
    assert lot.locator("button[data-cmd=bid]").inner_text() == "Bid $" + f"{price + 2_000:,}"
    other.screenshot(path=str(SHOTS / "ws-auction-choose.png"), full_page=False)
    v = version(other)
    lot.locator("button[data-cmd=bid]").click()
    wait_version(other, v + 1)
    state = Game.objects.get(code=code).state
    assert chosen in state["players"][1 - seat]["track"]
    assert state["players"][1 - seat]["money"] == money - price - 2_000
    other.wait_for_function(f"document.querySelector('#ws-feed').innerText.includes('bought the track on {chosen.replace('-', '–')} at auction for ${price + 2_000:,}')")
    # the other lot: the same (only) bidder chooses again, and passes on it
    other.wait_for_selector(f".ws-lot[data-lot='{built[0][0]}']")
    v = version(other)
    other.locator(f".ws-lot[data-lot='{built[0][0]}'] button[data-cmd=pass-bid]").click()
    wait_version(other, v + 1)
    for phone in (mover, other):
        phone.wait_for_selector("body[data-phase=play]")
    assert other.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
