"""The simulated mat's ground truth behaves like wooden discs on neoprene."""

from __future__ import annotations

import math

import pytest

from service.mat.geometry import load_mat, load_piece_classes
from service.simulator.table_edges import GRAVITY_MM_S2
from service.simulator.world import World

MAT = load_mat()
PIECES = load_piece_classes()


def test_a_lone_disc_stops_where_coulomb_friction_says() -> None:
    world = World(MAT, perturb=False)
    world.place("hero-xoric", PIECES["hero"], 100.0, 300.0, side="heroes")
    speed = 1200.0
    shot = world.flick("hero-xoric", 0.0, speed)
    expected = speed**2 / (2 * MAT.sliding_friction * GRAVITY_MM_S2)
    x, y = world.position("hero-xoric")
    assert x - 100.0 == pytest.approx(expected, rel=0.02)
    assert y == pytest.approx(300.0, abs=0.5)
    assert shot.duration_s == pytest.approx(speed / (MAT.sliding_friction * GRAVITY_MM_S2), abs=0.02)


def test_perturbed_discs_stop_within_the_friction_spread() -> None:
    distances = []
    for seed in range(6):
        world = World(MAT, seed=seed)
        world.place("hero-xoric", PIECES["hero"], 100.0, 300.0, side="heroes")
        world.flick("hero-xoric", 0.0, 1200.0)
        distances.append(world.position("hero-xoric")[0] - 100.0)
    nominal = 1200.0**2 / (2 * MAT.sliding_friction * GRAVITY_MM_S2)
    assert all(0.7 * nominal < d < 1.35 * nominal for d in distances)
    assert max(distances) - min(distances) > 0.05 * nominal  # the pieces really differ


@pytest.mark.parametrize("miss_by_mm", [0.0, 8.0, 20.0])
def test_a_3_m_s_hero_never_tunnels_through_an_extra_small_disc(miss_by_mm: float) -> None:
    world = World(MAT, seed=3)
    world.place("hero-xoric", PIECES["hero"], 60.0, 300.0, side="heroes")
    world.place("rat-1", PIECES["monster-extra-small"], 400.0, 300.0 + miss_by_mm, side="overseer")
    shot = world.flick("hero-xoric", 0.0, 3000.0)
    assert shot.direct_hits == {"rat-1"}
    assert "rat-1" in shot.moved


def test_a_3_m_s_missile_never_tunnels_through_an_extra_small_disc() -> None:
    world = World(MAT, seed=4)
    world.place("ranged-1", PIECES["ranged"], 60.0, 300.0, kind="ranged", side="heroes")
    world.place("rat-1", PIECES["monster-extra-small"], 300.0, 310.0, side="overseer")
    shot = world.flick("ranged-1", 0.0, 3000.0)
    assert shot.direct_hits == {"rat-1"}


def test_a_push_is_recorded_as_a_push_not_a_hit() -> None:
    world = World(MAT, seed=5)
    world.place("hero-xoric", PIECES["hero"], 150.0, 300.0, side="heroes")
    world.place("orc-1", PIECES["monster-medium"], 300.0, 300.0, side="overseer")
    world.place("orc-2", PIECES["monster-medium"], 345.0, 300.0, side="overseer")
    shot = world.flick("hero-xoric", 0.0, 1500.0)
    assert shot.direct_hits == {"orc-1"}
    assert shot.pushed == {"orc-2"}


def test_a_ricochet_off_the_wall_then_a_hit_counts_as_direct() -> None:
    world = World(MAT, seed=6)
    world.place("hero-xoric", PIECES["hero"], 200.0, 120.0, side="heroes")
    world.place("troll-1", PIECES["monster-large"], 560.0, 60.0, side="overseer")
    # Aim into the near wall so the hero comes back off it into the troll.
    shot = world.flick("hero-xoric", math.radians(-38), 2400.0)
    kinds = [c.b if c.a == "hero-xoric" else c.a for c in shot.contacts if "hero-xoric" in (c.a, c.b)]
    assert kinds[0] == "wall"
    assert "troll-1" in shot.direct_hits


def test_a_piece_knocked_off_the_mat_is_recorded_where_it_left() -> None:
    world = World(MAT, seed=7)
    world.place("hero-xoric", PIECES["hero"], 700.0, 300.0, side="heroes")
    world.place("phantom-1", PIECES["monster-medium"], 800.0, 300.0, side="overseer")
    shot = world.flick("hero-xoric", 0.0, 2000.0)
    assert "phantom-1" in shot.left_mat
    x, y = shot.left_mat["phantom-1"]
    assert x == MAT.width_mm and y == pytest.approx(300.0, abs=25.0)
    world.return_to_edge("phantom-1", shot.left_mat["phantom-1"])
    assert world.on_mat("phantom-1")


@pytest.mark.parametrize("engine", ["pymunk", "impulse"])
def test_strays_put_back_where_others_stand_go_beside_them_not_on_top(engine: str) -> None:
    # 3E reference: a piece that left the playmat goes back on the edge where it left. Two that left at
    # the same spot, and one where a piece already stands by the edge, must not overlap (real discs can't).
    from service.simulator.impulse_world import ImpulseWorld

    world = World(MAT, seed=3) if engine == "pymunk" else ImpulseWorld(MAT, seed=3)
    world.place("orc-1", PIECES["monster-medium"], MAT.width_mm - 16.0, 300.0, side="overseer")
    for pid in ("troll-1", "troll-2"):
        world.place(pid, PIECES["monster-large"], 400.0 + 100 * int(pid[-1]), 100.0, side="overseer")
        world.return_to_edge(pid, (MAT.width_mm + 20.0, 300.0))
    placed = ["orc-1", "troll-1", "troll-2"]
    for i, a in enumerate(placed):
        assert world.on_mat(a)
        assert world.position(a)[0] >= MAT.width_mm - 3 * world.radius(a), "on the edge, or next to it"
        for b in placed[i + 1 :]:
            gap = math.dist(world.position(a), world.position(b)) - world.radius(a) - world.radius(b)
            assert gap >= 0.0, f"{a} and {b} overlap by {-gap:.1f} mm"


def test_an_ice_piece_is_knocked_off_when_its_host_is_hit() -> None:
    world = World(MAT, seed=8)
    world.place("hero-xoric", PIECES["hero"], 150.0, 300.0, side="heroes")
    world.place("troll-1", PIECES["monster-large"], 400.0, 300.0, side="overseer")
    world.place("ice-1", PIECES["ice"], 400.0, 300.0, side="heroes", covering="troll-1")
    shot = world.flick("hero-xoric", 0.0, 1400.0)
    assert shot.covers_knocked_off == {"ice-1"}
    assert "ice-1" not in shot.direct_hits  # the hero hit the troll; the ice fell off it


def test_an_untouched_ice_piece_rides_on_its_host() -> None:
    world = World(MAT, seed=9)
    world.place("hero-xoric", PIECES["hero"], 150.0, 100.0, side="heroes")
    world.place("troll-1", PIECES["monster-large"], 400.0, 400.0, side="overseer")
    world.place("ice-1", PIECES["ice"], 400.0, 400.0, side="heroes", covering="troll-1")
    shot = world.flick("hero-xoric", 0.0, 1400.0)
    assert shot.covers_knocked_off == set()
    assert world.position("ice-1") == world.position("troll-1")


def test_placing_a_piece_twice_is_refused() -> None:
    world = World(MAT)
    world.place("hero-xoric", PIECES["hero"], 150.0, 100.0, side="heroes")
    with pytest.raises(ValueError, match="already on the mat"):
        world.place("hero-xoric", PIECES["hero"], 250.0, 100.0, side="heroes")


@pytest.mark.parametrize(("angle", "hit"), [(0.0, True), (math.pi, False)])
def test_a_disc_flicked_into_a_piece_it_rests_against_hits_it(angle: float, hit: bool) -> None:
    # The hidden mats' ground truth: resting discs begin no contact, yet a flick into one pushes it from
    # the first instant, which is a direct hit; a flick away from it touches nothing.
    world = World(MAT, seed=5)
    world.place("hero-xoric", PIECES["hero"], 150.0, 300.0, side="heroes")
    world.place("orc-1", PIECES["monster-medium"], 184.8, 300.0, side="overseer")
    world.place("rat-1", PIECES["monster-small"], 600.0, 300.0, side="overseer")
    world.flick("rat-1", 0.0, 300.0)  # the world settles: the hero and the orc now rest against each other
    shot = world.flick("hero-xoric", angle, 800.0)
    assert (shot.direct_hits == {"orc-1"}) is hit
    assert "orc-1" not in shot.pushed
    assert (world.position("orc-1")[0] > 200.0) is hit
