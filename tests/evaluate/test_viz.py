"""The embedding picture: PCA is right on data whose axes are known, and the page is written offline."""

from __future__ import annotations

import numpy as np
import pytest

from geunkeo.evaluate.viz import pca_2d, write_html


def test_pca_finds_the_axis_of_largest_spread():
    rng = np.random.default_rng(0)
    x = np.column_stack([rng.normal(0, 10, 200), rng.normal(0, 1, 200), rng.normal(0, 0.1, 200)])
    xy, var = pca_2d(x)
    assert xy.shape == (200, 2) and var[0] > 0.95
    assert abs(np.corrcoef(xy[:, 0], x[:, 0])[0, 1]) > 0.99


def test_the_page_draws_each_kind_and_loads_nothing_from_the_network(tmp_path):
    points = {"kinds": {"content": {"labels": ["a", "b"], "xy": [[0, 0], [1, 1]]},
                        "query": {"labels": ["q1"], "xy": [[0.5, 0.2]]}},
              "explained": [0.6, 0.2], "missing": ["title", "hyde_answer", "hyde_title"]}
    html = write_html(points, tmp_path / "e.html").read_text(encoding="utf-8")
    assert "content (2)" in html and "query (1)" in html and "no HyDE vectors" in html
    assert "<script src=" not in html  # plotly.js is inlined; nothing is fetched


@pytest.mark.slow
def test_an_index_and_its_questions_are_projected_together(tmp_path):
    import geunkeo
    from geunkeo.evaluate.viz import embedding_points
    from geunkeo.index.builder import build_index

    (tmp_path / "a.md").write_text("---\ntitle: 학칙\n---\n제1조(휴학) 학생은 휴학할 수 있다.\n\n제2조(복학) 학생은 복학한다.",
                                   encoding="utf-8")
    build_index([tmp_path], tmp_path / "idx", replace=True)
    pts = embedding_points(geunkeo.open_index(tmp_path / "idx"), queries=["휴학은 어떻게 하나요?"])
    assert set(pts["kinds"]) == {"content", "title", "query"}
    assert len(pts["kinds"]["query"]["xy"]) == 1 and "hyde_answer" in pts["missing"]
