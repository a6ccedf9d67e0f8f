"""An invented contact that ends a sentence as its last alternative goes with the words that introduce it, even
after a figure ending in a full stop ("p.m.") and before citation markers; examples made up for these tests."""

from __future__ import annotations

from geunkeo.answer.filter import HallucinationFilter

CONTEXT = ["Helpline: 1566-2040 (weekdays 8:30 a.m. to 5:30 p.m.). From abroad: +82-2-2189-2040."]


def test_the_last_alternative_goes_and_the_rest_stays() -> None:
    out = HallucinationFilter().apply("Call 1566-2040 on weekdays from 8:30 a.m. to 5:30 p.m., or from abroad on "
                                      "+82-2-2189-2049 [1].", CONTEXT, lang="en").text
    assert out.startswith("Call 1566-2040 on weekdays from 8:30 a.m. to 5:30 p.m. [1].")
    assert "2189-2049" not in out


def test_a_supported_last_alternative_stays() -> None:
    answer = "Call 1566-2040 on weekdays from 8:30 a.m. to 5:30 p.m., or from abroad on +82-2-2189-2040 [1]."
    assert HallucinationFilter().apply(answer, CONTEXT, lang="en").text == answer
