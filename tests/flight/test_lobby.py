"""The lobby's rules: 1-5 humans, a role belongs to one person, androids fill the crew."""

from __future__ import annotations

from engine.flight.lobby import MAX_CREW, Seat, androids, choose_roles, join, leave, ready, role_holder


def test_crew_size_and_membership() -> None:
    seats: list[Seat] = []
    assert ready(seats) == "need_crew" and androids(0) == 0
    for n in range(MAX_CREW):
        assert join(seats, Seat(n, f"P{n}")) is None
    assert join(seats, Seat(99, "late")) == "full"
    assert join(seats, Seat(0, "again")) == "already_in"
    assert leave(seats, 99) == "not_in" and leave(seats, 4) is None and len(seats) == 4
    assert ready(seats) is None
    assert [androids(h) for h in (1, 2, 3, 4, 5)] == [4, 2, 1, 0, 0]


def test_one_role_per_person_several_roles_per_person() -> None:
    seats = [Seat(1, "Ann"), Seat(2, "Bob")]
    assert choose_roles(seats, 1, ["captain", "comms", "nonsense"]) is None
    assert seats[0].roles == ["captain", "comms"]
    assert choose_roles(seats, 2, ["comms"]) is None  # takes comms away from Ann
    assert seats[0].roles == ["captain"] and seats[1].roles == ["comms"]
    assert role_holder(seats, "comms") == "Bob" and role_holder(seats, "security") is None
    assert choose_roles(seats, 3, ["security"]) == "join_first"
