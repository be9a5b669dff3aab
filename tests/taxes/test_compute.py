"""The engine alone, on rule sets written here: caps per month, shares by age, rounding,
seasons and categories, nights without a rate."""

import datetime as dt

from rentalcomply.taxes import compute, rules


def rule_set(**body) -> rules.RuleSet:
    base = {"name": "Test", "authority": "Comune", "country": "IT", "basis": "person_night",
            "rates": [{"from": "2020-01-01", "amount": 3.0}], "source": "here"}
    return rules.rule_set("test", 1, rules.checked_body({**base, **body}))


def stay(arrival, departure, ages=(None,), **extra) -> compute.Stay:
    return compute.Stay(arrival=dt.date.fromisoformat(arrival),
                        departure=dt.date.fromisoformat(departure),
                        guests=tuple(compute.Guest(age=age) for age in ages),
                        party_known=True, **extra)


def test_a_cap_per_calendar_month_counts_each_month_afresh():
    capped = rule_set(max_nights=3, max_nights_per="month")
    # 28 Jan to 5 Feb: 4 January nights (3 charged), 4 February nights (3 charged).
    result = compute.charge([capped], stay("2026-01-28", "2026-02-05"))
    assert result.cents == 6 * 300
    by_stay = rule_set(max_nights=3)
    assert compute.charge([by_stay], stay("2026-01-28", "2026-02-05")).cents == 3 * 300


def test_venice_like_shares_by_age_and_rounding_up_to_ten_cents():
    venice = rule_set(rates=[{"from": "2020-01-01", "amount": 2.45}],
                      age_rates=[{"below": 17, "percent": 50}, {"below": 10, "percent": 0}],
                      rounding_cents=10, rounding_mode="up")
    # An adult, a 12-year-old (half), a 9-year-old (free) for 1 night: 2.45 + 1.225 = 3.675.
    result = compute.charge([venice], stay("2026-05-01", "2026-05-02", ages=(40, 12, 9)))
    assert result.cents == 370
    [charged] = result.sets
    assert [(line["persons"], line["percent"]) for line in charged.lines] == [(1, 100), (1, 50)]
    assert charged.exemptions == [{"guest": 3, "reason": "age", "age": 9}]


def test_seasons_and_categories_choose_the_rate():
    grid = rule_set(basis="unit_night", rates=[
        {"from": "2025-01-01", "months": [4, 5, 6, 7, 8, 9, 10], "amount": 8.0},
        {"from": "2025-01-01", "months": [1, 2, 3, 11, 12], "amount": 2.0},
        {"from": "2025-01-01", "months": [4, 5, 6, 7, 8, 9, 10], "category": "detached_over_80m2",
         "amount": 15.0},
        {"from": "2025-01-01", "months": [1, 2, 3, 11, 12], "category": "detached_over_80m2",
         "amount": 4.0}])
    assert compute.charge([grid], stay("2026-03-30", "2026-04-02")).cents == 200 + 200 + 800
    assert compute.charge([grid], stay("2026-03-30", "2026-04-02",
                                       category="detached_over_80m2")).cents == 400 + 400 + 1500


def test_a_night_before_the_first_rate_or_after_the_last_is_never_guessed():
    dated = rule_set(rates=[{"from": "2026-01-01", "to": "2026-12-31", "amount": 9.5}])
    result = compute.charge([dated], stay("2025-12-31", "2026-01-02"))
    assert (result.status, result.cents) == ("unknown", None)
    assert "2025-12-31" in result.sets[0].notes[-1]
