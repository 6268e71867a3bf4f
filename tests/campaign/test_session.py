"""A campaign night through the session state machine: votes (with ties and silence), flights,
repairs with a deadline, a restart in the middle, and the end by vote or by loss."""

from __future__ import annotations

from typing import Any

import pytest

from engine.campaign.carried import Carried
from engine.campaign.flow import Campaign
from engine.campaign.repairs import Repair
from engine.campaign.session import REPAIR_SECONDS, VOTE_SECONDS, CampaignSession, Ended, FlyNext, SessionError
from engine.resolution.mission import resolve

CREW = ["Ann", "Bob", "Cid", "Dan"]
IDLE = "------------"


def fly(session: CampaignSession, threats: list[dict[str, Any]], now: float) -> Ended | None:
    game = {
        "tracks": {"red": "T5", "white": "T3", "blue": "T1", "internal": "T4"},
        "players": [{"name": n, "actions": "^ccccccccccc" if n == "Bob" else IDLE} for n in CREW],
        "threats": threats,
        "carried": session.carried_block(),
    }
    return session.mission_flown(resolve(game, log=True), f"M{session.campaign.flown + 1}", now)


def test_a_night_of_votes_flights_and_repairs() -> None:
    s = CampaignSession.start(Campaign(seed=5, crew=CREW), now=0)
    assert s.vote_kinds() == ("common", "serious")  # no "go on?" before the first mission
    for member, common in zip(CREW, ["yellow", "yellow", "mixed", "mixed"], strict=True):
        s.vote(member, "common", common)  # 2 : 2 -> the more cautious, mixed
    s.vote("Ann", "serious", "yellow")  # the only serious vote; the others stay silent
    assert s.tick(VOTE_SECONDS - 1) is None  # not everyone voted, time not up
    step = s.tick(VOTE_SECONDS)
    assert isinstance(step, FlyNext) and (step.common, step.serious) == ("mixed", "yellow")
    assert step.recording.official is not None and step.recording.official.startswith("S2-")
    with pytest.raises(SessionError):
        s.vote("Ann", "common", "white")  # the vote is closed while flying

    assert fly(s, [{"id": "E1-07", "turn": 1, "zone": "red"}], now=1000) is None
    assert s.phase == "repair" and s.deadline == 1000 + REPAIR_SECONDS
    damaged = s.campaign.carried.tokens("red")
    assert damaged  # the Fighter hit red
    s.choose_repair("Ann", Repair.of_token("red", damaged[-1]))
    with pytest.raises(SessionError):
        s.choose_repair("Eve", Repair.of_token("red", damaged[0]))  # not in the crew
    restored = CampaignSession.from_dict(s.to_dict())  # the bot restarts mid-repair
    assert restored == s
    assert restored.tick(1000 + REPAIR_SECONDS) is None  # time up: defaults for Bob, Cid, Dan
    assert restored.phase == "vote"
    assert restored.campaign.carried.token_count == max(0, len(damaged) - 2)  # at most 2 per zone

    assert restored.vote_kinds() == ("common", "serious", "continue")
    for member in CREW:
        restored.vote(member, "common", "white")
        restored.vote(member, "serious", "white")
    for member, choice in zip(CREW, ["continue", "continue", "end", "end"], strict=True):
        restored.vote(member, "continue", choice)  # a tie: ending is more cautious
    assert restored.tick(1500) == Ended("voted")  # everyone voted: no need to wait
    assert restored.phase == "finished" and restored.campaign.score().total is not None


def test_a_lost_mission_ends_the_night() -> None:
    c = Campaign(seed=2, crew=CREW, carried=Carried(damage={"blue": ["reactor", "structural", "lower_cannon"]}))
    s = CampaignSession.start(c, now=0)
    for member in CREW:
        s.vote(member, "common", "white")
        s.vote(member, "serious", "white")
    assert isinstance(s.tick(1), FlyNext)
    assert fly(s, [{"id": "E1-07", "turn": 2, "zone": "blue"}], now=700) == Ended("lost")
    assert s.campaign.score().destroyed_by == "E1-07"


def test_votes_are_checked() -> None:
    s = CampaignSession.start(Campaign(seed=1, crew=CREW), now=0)
    with pytest.raises(SessionError):
        s.vote("Ann", "continue", "end")  # not asked before the first mission
    with pytest.raises(SessionError):
        s.vote("Ann", "common", "red")
    with pytest.raises(SessionError):
        s.choose_repair("Ann", Repair("battlebots"))
    step = s.tick(VOTE_SECONDS)  # nobody voted: the most cautious difficulty
    assert isinstance(step, FlyNext) and (step.common, step.serious) == ("white", "white")
