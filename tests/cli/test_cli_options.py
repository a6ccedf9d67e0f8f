"""CLI options are validated at the edge, with the API's ranges: -k outside them is an error naming the option."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from geunkeo.cli.main import app


@pytest.mark.parametrize("cmd,k", [("search", "0"), ("search", "-1"), ("search", "101"), ("ask", "0"),
                                   ("ask", "21")])
def test_k_out_of_range_is_refused_before_any_work(tmp_path, cmd, k):
    res = CliRunner().invoke(app, [cmd, "휴학 신청", "--index", str(tmp_path / "none"), "-k", k])
    assert res.exit_code == 2
    assert "Invalid value for '-k'" in res.output
