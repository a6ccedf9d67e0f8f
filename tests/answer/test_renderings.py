"""Names rendered across languages word by word (answer/renderings.py), with names made up for these tests."""

from __future__ import annotations

from geunkeo.answer.renderings import head_first, loose_roman, renders_english, renders_korean, romanise

KOREAN_CONTEXT = ("문의는 해밀관 3층 창업교육센터(내선 210)로 하십시오. 기숙사 운영팀 기록 담당이 처리한다.",)
ENGLISH_CONTEXT = ("Questions go to the Startup Education Center of the university.",)


def test_head_word_comes_first() -> None:
    assert head_first("Startup Education Center") == ("center", "startup", "education")
    assert head_first("Office of Budget Affairs") == ("office", "budget", "affairs")


def test_an_english_name_rendering_a_korean_one_word_by_word() -> None:
    assert renders_korean("Startup Education Center", KOREAN_CONTEXT)
    # a proper word the glossary lacks is matched by its romanisation
    assert renders_korean("Haemil Hall", KOREAN_CONTEXT)


def test_an_english_name_with_a_word_of_its_own_is_no_rendering() -> None:
    assert not renders_korean("Startup Planning Center", KOREAN_CONTEXT)  # 기획 nowhere
    assert not renders_korean("Hanbom Hall", KOREAN_CONTEXT)


def test_the_renderings_must_make_up_the_korean_name_and_end_with_the_head() -> None:
    # 기숙사 … 팀 with 운영 between: most of the run is not rendered
    assert not renders_korean("Dormitory Team", KOREAN_CONTEXT)
    # 팀 is followed by 기록: the head word's rendering does not close the run
    assert not renders_korean("Dormitory Records Team", KOREAN_CONTEXT)


def test_the_run_opens_at_a_word() -> None:
    # 교육센터 sits inside 창업교육센터: not a name of its own
    assert not renders_korean("Education Center", KOREAN_CONTEXT)


def test_a_korean_name_rendering_an_english_one() -> None:
    assert renders_english("창업교육센터", ENGLISH_CONTEXT)
    assert not renders_english("창업지원센터", ENGLISH_CONTEXT)  # the context's name says education, not support
    assert not renders_english("교육센터", ENGLISH_CONTEXT)  # startup is not rendered


def test_romanisation() -> None:
    assert romanise("해밀") == "haemil"
    assert loose_roman("Yoon") == loose_roman("Yun")


def test_the_filter_keeps_renderings_of_offices_both_ways_and_removes_an_invented_one() -> None:
    from geunkeo.answer.filter import HallucinationFilter

    filt = HallucinationFilter()
    ko_ctx = ["창업 상담은 해밀관 3층 창업교육센터에서 한다."]
    kept = filt.apply("Startup counselling is offered by the Startup Education Center [1].", ko_ctx, lang="en")
    assert "Startup Education Center" in kept.text
    invented = filt.apply("Startup counselling is offered by the Alumni Relations Office [1].", ko_ctx, lang="en")
    assert "Alumni Relations Office" not in invented.text
    en_ctx = ["Startup counselling is offered by the Startup Education Center."]
    assert "창업교육센터" in filt.apply("창업 상담은 창업교육센터에서 받을 수 있습니다 [1].", en_ctx, lang="ko").text
    assert "동문교류센터" not in filt.apply("창업 상담은 동문교류센터에서 받을 수 있습니다 [1].", en_ctx, lang="ko").text


def test_places_written_in_the_other_language_or_with_an_aside_are_supported() -> None:
    from geunkeo.answer.filter import HallucinationFilter

    filt = HallucinationFilter()
    ctx = ["방문 상담: 별솔빌딩(구 청운빌딩) 9층 912호, 서울특별시 은평구 통일로 684. OPIc 6급 이상이면 면제된다."]
    ko = filt.apply("상담실은 별솔빌딩 9층 912호입니다 [1].", ctx, lang="ko")
    assert "별솔빌딩 9층 912호" in ko.text
    assert "별솔빌딩 8층 912호" not in filt.apply("상담실은 별솔빌딩 8층 912호입니다 [1].", ctx, lang="ko").text
    en = filt.apply("Visit us at 684 Tongil-ro, Eunpyeong-gu, Seoul [1]. OPIc Level 6 exempts you [1].", ctx, lang="en")
    assert "684 Tongil-ro" in en.text and "OPIc Level 6" in en.text
    wrong = filt.apply("Visit us at 648 Tongil-ro, Eunpyeong-gu, Seoul [1]. OPIc Level 5 exempts you [1].", ctx, lang="en")
    assert "648 Tongil-ro" not in wrong.text and "Level 5" not in wrong.text


def test_an_english_name_after_a_capitalised_sentence_opening_is_still_read() -> None:
    assert renders_english("연구기획처", ("See the Office of Research and Planning for the forms.",))
    assert not renders_english("기획처", ("See the Office of Research and Planning for the forms.",))  # research dropped


def test_two_names_joined_by_and_are_checked_each_on_its_own() -> None:
    from geunkeo.answer.filter import HallucinationFilter

    ctx = ["Exchange students are housed in Haemil Hall. A double room costs KRW 990,000 per term.",
           "기숙사는 다온관과 해밀관으로 구성한다. 입사 안내는 별도 공지한다."]
    filt = HallucinationFilter()
    both = filt.apply("The residence halls are Haemil Hall and Daon Hall [1].", ctx, lang="en").text
    assert "Haemil Hall and Daon Hall" in both  # one in English, the other rendered from the Korean context
    one = filt.apply("The residence halls are Haemil Hall and Gareum Hall [1].", ctx, lang="en").text
    assert "Haemil Hall" in one and "Gareum Hall" not in one
