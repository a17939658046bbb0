"""The done check wants evidence that matches the goal, not one word of the reason found somewhere on the page."""

from __future__ import annotations

from browserops.agent.validate import check_done

RESULTS = "Results for “pen” 3 items found Ballpoint pen, blue — Writing — $0.89 Ballpoint pen, black — $0.89"
HOME = "Browserops demo site. A small office-supplies and expenses site. Search Pages Log in Account Pay invoice"


def test_one_telling_word_somewhere_on_the_page_is_not_enough() -> None:
    # "invoice" is on the home page (a link), but nothing was paid: the old check accepted this.
    check = check_done("The invoice was handled.", HOME, goal="pay invoice INV-1001", url="http://s/",
                       start_url="http://s/")
    assert not check.verified and check.evidence == []


def test_asked_for_values_must_all_be_visible() -> None:
    page = "Payment sent for INV-1001. Amount 42.50"
    assert check_done("Paid.", page, goal="pay invoice INV-1001 of 42.50").evidence[:1] == ["values"]
    check = check_done("The page says Payment sent.", "Payment sent for INV-2002.", goal="pay invoice INV-1001")
    assert not check.verified  # the confirmation is for another invoice: the asked-for number is missing


def test_the_goals_own_terms_repeated_by_the_reason_are_evidence_when_visible() -> None:
    assert "values" in check_done("The results list ballpoint pens.", RESULTS, goal="search for pen").evidence
    assert not check_done("The results list staplers.", RESULTS, goal="find a stapler").verified


def test_a_confirmation_text_counts_when_the_reason_states_it_and_the_page_shows_it() -> None:
    check = check_done("The page says Thank you, order received.", "Thank you! Your order was received.",
                       goal="order the blue pen")
    assert "confirmation" in check.evidence
    assert not check_done("The page says Thank you.", "Your basket: blue pen", goal="order the blue pen").verified


def test_a_url_change_carrying_the_query_counts() -> None:
    check = check_done("The results page for tape shows No results.", "Results for “tape” No results",
                       goal="look for tape", url="http://s/search?q=tape", start_url="http://s/")
    assert "url" in check.evidence
    unchanged = check_done("Found tape.", "Search", goal="look for tape", url="http://s/", start_url="http://s/")
    assert "url" not in unchanged.evidence and not unchanged.verified


def test_most_of_the_claims_visible_two_at_least() -> None:
    assert check_done("The Account page shows Signed in as alice.", "Account Signed in as alice Log out",
                      goal="log in").verified
    check = check_done("The Whiteboard marker set, the Stapler refill and Scissors are listed.",
                       "Whiteboard marker set",
                       goal="browse")
    assert check.matched == ["whiteboard", "marker"] and not check.verified  # 2 of 5: most claims unseen
