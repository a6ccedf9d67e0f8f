"""A settings typo is an error naming the valid keys; GEUNKEO_ variables that name no setting are refused."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from geunkeo.config import Settings, describe_invalid
from geunkeo.errors import ConfigError


def test_a_misspelt_key_names_the_keys_its_section_has(monkeypatch):
    monkeypatch.setenv("GEUNKEO_RETRIEVE__DENSE_WIEGHT", "0.5")
    with pytest.raises(ValidationError) as err:
        Settings()
    msg = describe_invalid(err.value)
    assert "retrieve.dense_wieght: unknown setting" in msg and "dense_weight" in msg


def test_a_misspelt_section_in_the_environment_is_refused(monkeypatch):
    monkeypatch.setenv("GEUNKEO_RETREIVE__FUSION", "rrf")
    with pytest.raises(ConfigError, match="unknown setting GEUNKEO_RETREIVE__FUSION.*RETRIEVE"):
        Settings()


def test_a_misspelt_section_in_the_toml_file_is_refused(monkeypatch, tmp_path):
    toml = tmp_path / "geunkeo.toml"
    toml.write_text('[retreive]\nfusion = "rrf"\n', encoding="utf-8")
    monkeypatch.setenv("GEUNKEO_CONFIG", str(toml))
    with pytest.raises(ValidationError) as err:
        Settings()
    assert "retreive: unknown setting; valid keys: answer, corpus" in describe_invalid(err.value)


def test_the_other_geunkeo_variables_and_a_valid_setting_pass(monkeypatch, tmp_path):
    for name, value in (("GEUNKEO_HOME", str(tmp_path)), ("GEUNKEO_SERVER", "http://127.0.0.1:8000"),
                        ("GEUNKEO_API_KEY", "gk_x"), ("GEUNKEO_RETRIEVE__FUSION", "rrf")):
        monkeypatch.setenv(name, value)
    assert Settings().retrieve.fusion == "rrf"
