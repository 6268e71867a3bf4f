"""A three-mission exploration campaign (rulebook §6) resolved by the engine, with repairs and
carried damage, and its score checked by hand."""

from __future__ import annotations

from typing import Any

from engine.campaign.carried import Carried
from engine.campaign.flow import Campaign
from engine.campaign.repairs import Repair
from engine.model import Result
from engine.resolution.mission import resolve

CREW = ["P0", "P1", "P2"]
IDLE = "------------"
OBSERVE = "^ccccccccccc"  # down the lift to lower white, then visual confirmation every turn


def game(
    plans: list[str], threats: list[dict[str, Any]], carried: dict[str, Any], **tokens: list[str]
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "tracks": {"red": "T5", "white": "T3", "blue": "T1", "internal": "T4"},
        "players": [{"name": name, "actions": plan} for name, plan in zip(CREW, plans, strict=True)],
        "threats": threats,
        "carried": carried,
    }
    if tokens:
        data["damage_tokens"] = tokens
    return data


def fly(campaign: Campaign, plans: list[str], threats: list[dict[str, Any]], **tokens: list[str]) -> Result:
    result = resolve(game(plans, threats, campaign.carried_block(), **tokens), log=True)
    campaign.record(result, f"M{campaign.flown + 1}")
    return result


def test_three_missions_with_repairs_and_carried_damage() -> None:
    """Mission 1: a Fighter (red) and a Gunship (blue) survive; P1 observes.
        red takes structural, shield, lift, reactor, lower_cannon (5); blue reactor, structural,
        lower_cannon, lift (4).  Threat points 2 + 2 = 4, observation 1 + 1 + 1 = 3.
    Repairs (captain first): P0 no choice -> default: red has 5 >= 4 tokens, structural first
        -> red structural.  P1 chooses blue lift.  P2 default: red still 4 -> red reactor.
        Carried: red shield, lift, lower_cannon; blue reactor, structural, lower_cannon.
    Mission 2: the blue structural token doubles blue damage; Slime (I2-02) disables the lower red
        squad; a Meteoroid hits white.  Threat points 3 + 2 = 5, observation 1 + 2 + 2 = 5.
    Repairs: white structural, red structural, white reactor (all defaults, the squad waits:
        big zones first).  One squad left -> only upper blue holds battlebots next time.
    Mission 3: P0 destroys a Fighter (4 points); P1 observes (0 + 1 + 1 = 2).
        End state: red 4 tokens, white 4, blue 3 -> damage -11, worst zone -4, squad left off
        the ship -1, nobody knocked out.
    Campaign: threats 4 + 5 + 4 = 13; penalties of the last mission only: -11 - 4 - 1 = -16;
        observation (3 + 5 + 2) // 3 = 10 // 3 = 3.  Total 13 - 16 + 3 = 0.
    """
    c = Campaign(seed=7, crew=CREW)
    fighter_red = {"id": "E1-07", "turn": 1, "zone": "red"}
    gunship_blue = {"id": "E1-05", "turn": 2, "zone": "blue"}
    first = fly(
        c,
        [IDLE, OBSERVE, IDLE],
        [fighter_red, gunship_blue],
        red=["structural", "shield", "lift", "reactor"],
        blue=["reactor", "structural", "lower_cannon", "lift"],
    )
    assert first.carry == Carried(
        damage={
            "red": ["structural", "shield", "lift", "reactor", "lower_cannon"],
            "blue": ["reactor", "structural", "lower_cannon", "lift"],
        }
    )
    done = c.repair(first.knocked_out, {"P1": Repair.of_token("blue", "lift")})
    assert [(s.member, s.repair, s.chosen) for s in done.steps] == [
        ("P0", Repair.of_token("red", "structural"), False),
        ("P1", Repair.of_token("blue", "lift"), True),
        ("P2", Repair.of_token("red", "reactor"), False),
    ]
    assert c.carried.damage == {
        "red": ["shield", "lift", "lower_cannon"],
        "blue": ["reactor", "structural", "lower_cannon"],
    }

    second = fly(
        c,
        [IDLE, OBSERVE, OBSERVE],
        [{"id": "I2-02", "turn": 1}, {"id": "E1-10", "turn": 3, "zone": "white"}],
        white=["shield", "upper_cannon"],
    )
    assert second.outcome == "survived"
    assert second.carry is not None and second.carry.battlebots == ["upper_blue"]
    c.repair(second.knocked_out, {})
    assert c.carried.damage == {
        "red": ["shield", "lift", "lower_cannon", "reactor"],
        "white": ["shield", "upper_cannon", "lower_cannon", "lift"],
        "blue": ["reactor", "structural", "lower_cannon"],
    }
    assert c.carried.battlebots == ["upper_blue"]

    third = fly(c, ["aa----------", OBSERVE, IDLE], [{"id": "E1-07", "turn": 1, "zone": "white"}])
    assert third.threats[0].fate == "destroyed"
    assert third.score.battlebots == 0  # the engine sees no disabled squad on the ship ...
    assert c.finished
    score = c.score()
    assert [line.threat_points for line in score.lines] == [4, 5, 4]
    assert [line.observation for line in score.lines] == [3, 5, 2]
    assert score.penalties.battlebots == -1  # ... but the squad never repaired costs its point
    assert (score.threat_points, score.penalties.total, score.observation, score.total) == (13, -16, 3, 0)


def test_lost_mission_loses_the_campaign_and_names_the_threat() -> None:
    """Carried blue structural damage doubles the Fighter's 3: six tokens on top of three -> lost."""
    c = Campaign(seed=1, crew=CREW, carried=Carried(damage={"blue": ["reactor", "structural", "lower_cannon"]}))
    result = fly(c, [OBSERVE, OBSERVE, OBSERVE], [{"id": "E1-07", "turn": 2, "zone": "blue"}])
    assert result.outcome == "destroyed"
    assert c.finished and c.lost
    score = c.score()
    assert score.total is None and score.lost
    assert score.destroyed_by == "E1-07"


def test_campaign_ended_early_scores_after_its_last_line() -> None:
    """One mission, then the crew ends: its penalties count, observation divided by 1."""
    c = Campaign(seed=3, crew=CREW)
    result = fly(c, [IDLE, OBSERVE, IDLE], [{"id": "E1-07", "turn": 1, "zone": "red"}], red=["lift", "shield"])
    c.end()
    assert c.finished
    assert result.score.total == c.score().total  # one line: exactly the single mission's score


def test_campaign_survives_a_restart_as_json() -> None:
    c = Campaign(seed=9, crew=CREW)
    c.start_mission("white", "mixed")
    fly(c, [IDLE, OBSERVE, IDLE], [{"id": "E1-05", "turn": 2, "zone": "blue"}])
    c.repair([], {})
    again = Campaign.from_dict(c.to_dict())
    assert again == c
    assert again.next_recording() == c.next_recording()


def test_recordings_are_seeded_official_full_missions_without_repeats() -> None:
    c = Campaign(seed=11, crew=CREW)
    drawn = []
    for _ in range(3):
        rec = c.next_recording()
        assert rec.official is not None and rec.official.startswith("S2-")
        drawn.append(rec.official)
        fly(c, [IDLE, IDLE, IDLE], [])
        c.lines[-1] = type(c.lines[-1])(rec.official, "survived", 0, 0, c.lines[-1].penalties)
    assert len(set(drawn)) == 3
    generated = Campaign(seed=11, crew=CREW, generated=True).next_recording()
    assert generated.official is None and generated.generated_seed is not None
