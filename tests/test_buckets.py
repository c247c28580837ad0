"""briscola_tui/net/buckets.py: the one token bucket of the host's two rate limits (the join
code's tries of an address, the messages of a key), with what each forgets first."""

from __future__ import annotations

from briscola_tui.net.buckets import Buckets


def _buckets(forget, size=3, penalty=0.0):
    now = [0.0]
    return Buckets(2, 10.0, size, forget=forget, penalty=penalty, clock=lambda: now[0]), now


def test_a_bucket_refills_one_token_each_interval_and_a_full_one_is_not_held():
    buckets, now = _buckets("fullest")
    assert buckets.tokens("a") == 2 and len(buckets) == 0  # never spent from: full, and not held
    assert buckets.spend("a") and buckets.spend("a") and not buckets.spend("a")
    assert buckets.wait("a") == 10.0 and buckets.kept_out("a") == 0.0  # no penalty
    now[0] = 5.0
    assert buckets.tokens("a") == 0.5 and buckets.wait("a") == 5.0
    buckets.give_back("a")
    assert buckets.tokens("a") == 1.5
    now[0] = 10.0
    buckets.forget_full()
    assert len(buckets) == 0  # it has refilled: the same as a new one


def test_running_dry_keeps_the_spender_out_for_the_penalty():
    buckets, now = _buckets("oldest", penalty=30.0)
    assert buckets.spend("k") and buckets.spend("k") and not buckets.spend("k")
    assert buckets.kept_out("k") == 30.0
    now[0] = 29.0
    assert buckets.kept_out("k") == 1.0
    buckets.forget_full()
    assert len(buckets) == 1  # refilled, but still keeping its spender out
    now[0] = 30.0
    assert buckets.kept_out("k") == 0.0 and buckets.tokens("k") == 2


def test_at_the_bound_the_refilled_go_first_then_the_fullest_or_the_least_recently_used():
    fullest, now = _buckets("fullest")
    fullest.spend("a")  # one token left
    fullest.spend("b")
    fullest.spend("b")  # none left
    fullest.spend("c")
    fullest.spend("c")
    fullest.spend("d")  # the bound (3): "a" has the most tokens
    assert set(fullest.held) == {"b", "c", "d"}

    oldest, now = _buckets("oldest")
    for who in "abc":
        oldest.spend(who)
        oldest.spend(who)
    oldest.kept_out("a")  # a use: "b" is now the least recently used
    oldest.spend("d")
    assert list(oldest.held) == ["c", "a", "d"]
    now[0] = 20.0
    oldest.spend("e")  # every one has refilled: all but the new one forgotten
    assert list(oldest.held) == ["e"]
