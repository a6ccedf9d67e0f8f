"""The shared analyzer: Kiwi content morphemes, lemmas, article references as single terms, English stems."""

import pytest

from geunkeo.text.analyzer import get_analyzer
from geunkeo.text.patterns import detect_lang, normalize_article_ref


@pytest.fixture(scope="module")
def a():
    return get_analyzer()


def test_verb_forms_share_the_noun_and_the_lemma(a):
    assert a.terms("휴학하려면 어떻게 해야 하나요?") == ["휴학", "휴학하다"]
    assert a.terms("휴학할 수 있나요") == ["휴학", "휴학하다"]
    assert set(a.terms("학생은 군 입대로 휴학된다.")) >= {"학생", "입대", "휴학", "휴학되다"}


def test_particles_endings_and_punctuation_dropped(a):
    assert a.terms("등록금 납부 기간은 언제야?") == ["등록금", "납부", "기간"]


def test_article_reference_is_one_term_plus_its_article(a):
    terms = a.terms("제3조제1항제2호에 따라 신청한다")
    assert terms[:2] == ["제3조제1항제2호", "제3조"]
    assert "제12조의2제1항" in a.terms("제 12 조의2 제1항")
    assert a.terms("제5조의2(장학금)") == ["제5조의2", "장학금"]
    assert normalize_article_ref("제 3 조 제 1 항") == "제3조제1항"


def test_english_is_lowercased_stemmed_without_stopwords(a):
    assert a.terms("The insured shall notify the Company within 30 days.") == [
        "insur", "notifi", "compani", "within", "30", "day"]
    assert a.terms("Anti-Money Laundering") == ["anti", "money", "launder"]
    assert a.terms("AML 규정이 뭐야") == ["aml", "규정"]


def test_batch_equals_one_by_one(a):
    texts = ["휴학하려면 어떻게", "Anti-Money Laundering rules apply", "제5조의2(장학금)", ""]
    assert a.terms_batch(texts) == [a.terms(t) for t in texts]


def test_sentences_keep_paragraph_markers_with_their_sentence(a):
    text = "제2조(정의) ① 학생이란 재적생을 말한다. ② 휴학은 다음과 같다. 1. 일반휴학 2. 군휴학"
    assert a.sentences(text) == ["제2조(정의) ① 학생이란 재적생을 말한다.", "② 휴학은 다음과 같다.", "1. 일반휴학 2. 군휴학"]
    assert a.sentences("First rule. Second rule applies.") == ["First rule.", "Second rule applies."]
    assert a.sentences("   ") == []


def test_language_detection():
    assert detect_lang("휴학 신청 방법") == "ko"
    assert detect_lang("How do I apply for leave?") == "en"
    assert detect_lang("AML 규정 compliance officer 보고 의무와 reporting deadline") == "mixed"


def test_analyzer_versions_name_their_revision_and_only_known_ones_are_recognised():
    from geunkeo.errors import ConfigError
    from geunkeo.text.analyzer import ANALYZER_REVISION, analyzer_version, revision_of
    from geunkeo.text.kiwi import KIWI_OPTIONS, kiwi_version, use_revision

    assert KIWI_OPTIONS == {1: {}, 2: {"load_multi_dict": False}}
    assert analyzer_version(1) == f"kiwi-{kiwi_version()}/geunkeo-analyzer-1"
    assert [revision_of(analyzer_version(r)) for r in (1, 2)] == [1, 2]
    assert revision_of(f"kiwi-{kiwi_version()}/geunkeo-analyzer-02") is None
    assert revision_of("kiwi-0.0.1/geunkeo-analyzer-2") is None
    assert get_analyzer().version == analyzer_version() == analyzer_version(ANALYZER_REVISION)
    with pytest.raises(ConfigError, match=r"unknown analyzer revision 7; choose one of \[1, 2\]"):
        use_revision(7)
    use_revision(ANALYZER_REVISION)  # the revision this process already analyses with: no change
