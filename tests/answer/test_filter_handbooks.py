"""Filter classes found by the eighth unseen set: handbooks that number sub-sections inside a line, section
numbers cited with no section word, a policy's lettered lists and appendices, offices named by their town, and
regulations the answer names in an earlier sentence."""

from __future__ import annotations

from tests.answer.filter_support import removed_items

from geunkeo.corpus.base import Chunk

HANDBOOK = Chunk(
    chunk_id="hb#c3", doc_id="hb", title="Staff Handbook", location="Clauses 3-4", lang="en", article="Clause 3",
    text="Clause 3 – Probation. 3.1 New employees serve six months. 3.2 Confirmation is given in writing by the "
         "People Operations Team. 3.3 Probation may be extended once by three months.\n"
         "Clause 4 – Leave. 4.1 Entitlements are in Annex A. 4.2 Apply on the portal: (a) 7 days ahead for earned "
         "leave; (b) by 10:00 a.m. on the day for sick leave.")
POLICY = Chunk(
    chunk_id="tp#gc", doc_id="tp", title="Travel Policy", location="General Conditions", lang="en",
    article="GC 1-3; Appendix 1",
    text="General Conditions\nGC 1 – Take reasonable care.\nGC 2 – Notify claims within 30 days.\nGC 3 – We pay "
         "our share only.\nAppendix 1 – Covered conditions: asthma, glaucoma.\nExclusion 1 – pre-existing "
         "conditions unless listed in Appendix 1.")


def test_sub_sections_numbered_inside_a_line_are_real():
    text, removed = removed_items("Probation can be extended once (3.3), as clause 3.1 says.", [HANDBOOK], "en")
    assert removed == [] and "(3.3)" in text


def test_an_invented_sub_section_or_point_goes_without_a_section_word_before_it():
    answer = "Sick leave is due by 10:00 a.m. on the day under 4.2(b). Maternity leave falls under 4.2(c) and 3.7."
    text, removed = removed_items(answer, [HANDBOOK], "en")
    assert "4.2(c)" in removed and "4.2(b)" in text
    assert "a.m. on the day" in text  # a full stop before a lowercase word ends no sentence


def test_loose_section_numbers_are_not_checked_against_contexts_without_sections():
    plain = Chunk(chunk_id="n#s1", doc_id="n", title="Notice", location="Notice", lang="en",
                  text="The library opens at 9 a.m. and closes at 10 p.m.")
    text, removed = removed_items("See the opening rules (6.1).", [plain], "en")
    assert removed == [] and "(6.1)" in text


def test_general_conditions_exclusions_and_appendices_are_checked_item_by_item():
    answer = "GC 2 sets the 30-day limit and GC 5 lets us recover costs. Asthma is in Appendix 1, diabetes in Appendix 2."
    text, removed = removed_items(answer, [POLICY], "en")
    assert set(removed) == {"GC 5", "Appendix 2"}
    assert "GC 2" in text and "Appendix 1" in text


def test_an_office_is_named_by_its_town():
    notice = Chunk(chunk_id="w#s1", doc_id="w", title="복지 안내", location="문의", lang="ko",
                   text="문의: 가온동 행정복지센터 031-8075-5110, 누리동 행정복지센터 031-8075-5210")
    text, removed = removed_items("가온동 행정복지센터나 다솜동 행정복지센터에 문의하세요. 가까운 행정복지센터도 됩니다.",
                                  [notice], "ko")
    assert removed == ["다솜동 행정복지센터"]
    assert "가온동 행정복지센터" in text and "가까운 행정복지센터" in text


def test_a_bare_article_in_a_later_sentence_means_the_regulation_named_before():
    notice = Chunk(chunk_id="g#s3", doc_id="g", title="대학원 학사일정 안내", location="논문", lang="ko",
                   text="다. 논문 심사 신청: 「학위논문 심사 규정」 제6조제1항에 따라 이수증 첨부\n"
                        "※ 유사도 20% 초과 시 같은 규정 제6조제2항에 따라 심사가 보류됩니다.")
    answer = "「학위논문 심사 규정」 제6조제1항에 따라 이수증을 첨부합니다. 유사도가 높으면 제6조제2항에 따라 보류되고, 제6조제3항에 따라 재검사합니다."
    text, removed = removed_items(answer, [notice], "ko")
    assert removed == ["제6조제3항"] and "제6조제2항에 따라 보류" in text


def test_an_invented_address_becomes_the_office_when_the_sentence_cites_a_real_article():
    regulation = Chunk(chunk_id="d#8", doc_id="d", title="생활관 운영규정", location="제8조", lang="ko", article="제8조",
                       text="제8조(입사 신청) ① 입사는 포털로 신청한다. ② 장애학생은 우선 배정을 신청할 수 있다.")
    text, removed = removed_items("장애학생 우선 배정(제8조 제2항) 관련 문의는 housing@hanbit.ac.kr로 보내 주세요.",
                                  [regulation], "ko")
    assert removed == ["housing@hanbit.ac.kr"]
    assert text.startswith("장애학생 우선 배정(제8조 제2항) 관련 문의는 담당 부서로 보내 주세요.")


def test_a_body_without_an_organisation_word_is_checked_when_a_number_is_given_for_it():
    terms = Chunk(chunk_id="t#c", doc_id="t", title="Travel Policy", location="Contacts", lang="en",
                  text="Claims: Harbourline Claims Management on 0800 569 244. Emergencies: Tui Assist, +64 9 377 4810.")
    answer = ("For emergencies, Tui Assist answers on +64 9 377 4810. If you are unhappy, ClaimRight NZ can review "
              "it on 0800 569 255, or escalate to AFCA on 1800 931 687. Lines open Monday at 0800 569 244.")
    text, removed = removed_items(answer, [terms], "en")
    assert {"ClaimRight NZ", "AFCA", "0800 569 255", "1800 931 687"} <= set(removed)
    assert "Tui Assist" in text and "Monday" in text and "0800 569 244" in text


def test_a_point_of_a_section_that_lists_none_is_invented_when_its_siblings_list_theirs():
    code = Chunk(chunk_id="c#6", doc_id="c", title="Student Code", location="Article VI", lang="en", article="Article VI",
                 text="ARTICLE VI. SANCTIONS\nSection 1. Sanctions are:\n a. written warning;\n b. probation.\n"
                      "Section 2. A suspension notation may be removed on petition after the suspension ends.")
    text, removed = removed_items("A notation can be removed under Article VI, Section 2.c, and probation is "
                                  "Article VI, Section 1.b.", [code], "en")
    assert removed == ["Article VI, Section 2.c"] and "Section 1.b" in text


def test_parts_numbered_without_a_section_word_and_their_named_sub_sections():
    code = Chunk(chunk_id="k#2", doc_id="k", title="Glen College Student Code of Conduct", location="Part 2", lang="en",
                 text="Part 2 - Expected Behaviour\n2.1 Students are expected to:\n(a) be courteous;\n(b) follow "
                      "instructions; and\n(c) respect property.\n2.2 Carry your ID card.\n"
                      "Part 3 - Appeals\n3.1 Appeals are heard within 15 days. Late appeals are heard only under 3.1.1 "
                      "(illness) or 3.1.2 (bereavement).")
    answer = ("Under section 2.1 of the Code you must be courteous (2.1(a)) and carry your ID (2.2). Late appeals need "
              "illness (3.1.1); under 3.1.3 a placement also counts, and 2.1(b)(ii) covers visitors.")
    text, removed = removed_items(answer, [code], "en")
    assert removed == ["3.1.3", "2.1(b)(ii)"]
    assert "section 2.1 of the Code" in text and "(2.1(a))" in text and "(3.1.1)" in text


def test_korean_bare_paragraphs_roman_points_and_brand_helplines_are_checked():
    terms = Chunk(chunk_id="s#7", doc_id="s", title="암보험 약관", location="제7조", lang="ko", article="제7조",
                  text="제7조(보험금의 청구) ① 보험금을 청구할 때에는 다음의 서류를 제출하여야 합니다. 1. 청구서 2. 사고증명서 "
                       "3. 신분증 ② 사고증명서는 국내 의료기관에서 발급한 것이어야 합니다.")
    text, removed = removed_items("제7조 제1항 각 호의 서류를 내야 하며, 가족관계증명서도 제1항 제5호에 따라 내고, 신분증은 제1항 "
                                  "제3호의 서류입니다.", [terms], "ko")
    assert removed == ["제1항 제5호"] and "제1항 제3호" in text
    policy = Chunk(chunk_id="i#5", doc_id="i", title="IT Policy", location="Clause 5", lang="en", article="Clause 5",
                   text="Clause 5 – Email\n5.3 Personal data must be encrypted: (i) internally with labels; (ii) "
                        "externally through the secure gateway.\nContact Human Resources on +65 6555 2040.")
    answer = ("Encrypt internal mail under 5.3(i) and large files under 5.3(iii). Refills go through the PharmaLink "
              "helpline (1-800-555-0160), and discipline goes to HR's Employee Relations Unit.")
    text, removed = removed_items(answer, [policy], "en")
    assert {"5.3(iii)", "PharmaLink", "Employee Relations Unit"} <= set(removed)
    assert "5.3(i)" in text and "goes to HR." in text


def test_a_bare_paragraph_in_a_later_sentence_is_not_read_as_the_cited_statutes():
    decree = Chunk(chunk_id="d#9", doc_id="d", title="시행령", location="제9조", lang="ko", article="제9조",
                   text="제9조(환수) ① 연체이자는 법 제37조제1항에 따라 산정한다. ⑦ 공단은 환수금을 한꺼번에 환수할 수 있다. "
                        "⑧ 공단은 제7항에 따라 환수할 경우에는 국세 체납처분의 예에 따라 징수한다.")
    answer = "연체이자는 법 제37조제1항에 따라 산정합니다. 공단은 제7항에 따라 환수할 경우 국세 체납처분의 예에 따라 징수합니다."
    text, removed = removed_items(answer, [decree], "ko")
    assert removed == [] and "제7항에 따라" in text


def test_a_paragraph_written_out_and_a_bare_domain_before_a_particle_are_checked():
    scheme = Chunk(chunk_id="h#3", doc_id="h", title="Housing Allocation Scheme", location="Section 3", lang="en",
                   text="Section 3 – Bands\n3.1 Band A is for urgent need.\n3.1.1 Medical urgency.\n3.1.2 Homelessness.")
    text, removed = removed_items("Medical urgency is paragraph 3.1.1, and overcrowding is paragraph 3.1.5.", [scheme], "en")
    assert removed == ["paragraph 3.1.5"] and "paragraph 3.1.1" in text
    terms = Chunk(chunk_id="n#1", doc_id="n", title="자동차보험 약관", location="민원", lang="ko",
                  text="민원은 소비자보호실(www.nurifire.co.kr/consumer)에 접수합니다.")
    text, removed = removed_items("접수는 www.nurifire.co.kr/consumer에서 하시고, 처리 현황은 consumer.nurifire.co.kr에서 조회하세요.",
                                  [terms], "ko")
    assert removed == ["consumer.nurifire.co.kr"] and "www.nurifire.co.kr/consumer" in text


def test_items_a_policy_codes_by_letter_and_number_are_checked_only_against_such_a_policy():
    wording = Chunk(chunk_id="w#c", doc_id="w", title="Travel Policy Wording", location="Section C", lang="en",
                    text="Section C – Luggage\nC1 We pay for loss or theft of luggage.\nC2 Single-item limit: NZ$1,500.\n"
                         "C3 Report any theft to the police within 24 hours.")
    text, removed = removed_items("Report theft within 24 hours (C3); items are capped under C2, and under C5 "
                                  "electronics are excluded.", [wording], "en")
    assert removed == ["C5"] and "(C3)" in text and "under C2" in text
    notice = Chunk(chunk_id="n#1", doc_id="n", title="Printing Notice", location="Notice", lang="en",
                   text="Posters must be printed on paper of at least 120 gsm.")
    text, removed = removed_items("Posters are printed in the size shown (A4) on 120 gsm paper.", [notice], "en")
    assert removed == [] and "(A4)" in text
